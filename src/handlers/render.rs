//! Rendering helpers every handler shares: a page's HTML, the page cache's answers (the one
//! place that says which content generation and which "now" a cached page must match),
//! uncached pages and redirects.

use std::sync::Arc;

use askama::Template;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::cache::pages::ClockUse;
use crate::cache::prepared::{Kind, Prepared};
use crate::error::AppError;
use crate::handlers::state::AppState;
use crate::views::layout::PageCtx;

/// `Content-Type` of every page.
pub const HTML: &str = "text/html; charset=utf-8";
/// `Cache-Control` of pages (`crate::http::cache_control::PAGE`, which that middleware sets on every
/// page anyway): browsers revalidate every time (a 304 by `ETag`), shared caches hold a minute.
pub const PAGE_CACHE_CONTROL: &str = crate::cache::control::PAGE;
/// What every cached page is sent as.
pub const PAGE: Kind = Kind { content_type: HTML, cache_control: PAGE_CACHE_CONTROL, content_disposition: None };

/// A page template's HTML.
pub fn html(template: &impl Template) -> Result<String, AppError> {
    template.render().map_err(|e| AppError::internal("template", e))
}

/// Serves `route` from the page cache (`crate::cache::pages`), rendering it with `render` from the
/// current snapshot and clock when the content changed or, per `clock`, the minute or year
/// turned. Errors (a 404 for an unknown slug, missing site settings) are not cached.
pub async fn cached(
    state: &AppState,
    request: &HeaderMap,
    route: &str,
    clock: ClockUse,
    render: impl FnOnce(&PageCtx<'_>) -> Result<String, AppError>,
) -> Result<Response, AppError> {
    cached_as(state, request, route, clock, PAGE, render).await
}

/// [`cached`] for another kind of answer (sitemap, robots, calendar).
pub async fn cached_as(
    state: &AppState,
    request: &HeaderMap,
    route: &str,
    clock: ClockUse,
    kind: Kind,
    render: impl FnOnce(&PageCtx<'_>) -> Result<String, AppError>,
) -> Result<Response, AppError> {
    let snapshot = state.content.snapshot().await;
    let page = state.page_ctx(&snapshot);
    let answer = state.pages.get_or_render(route, snapshot.generation, clock, page.now, kind, || render(&page)).await?;
    Ok(answer.respond(request))
}

/// The cached answer for `route` when it is fresh now: rendered from the content generation
/// in memory and, per its [`ClockUse`], in this minute or year (`PageCache::get` decides;
/// this is where the generation and "now" come from). The cache-hit fast path and
/// [`cached_as`] ask the same question.
pub fn fresh(state: &AppState, route: &str) -> Option<Arc<Prepared>> {
    let generation = state.content.generation()?;
    state.pages.get(route, generation, state.clock.now())
}

/// A route cached per minute (its page shows the clock): what its handler serves, and what
/// `crate::handlers::ahead` renders before each minute starts.
pub struct MinutePage {
    pub route: &'static str,
    pub kind: Kind,
    pub render: fn(&PageCtx<'_>) -> Result<String, AppError>,
}

impl MinutePage {
    /// Serves this page from the page cache (its handler's whole body).
    pub async fn serve(&self, state: &AppState, request: &HeaderMap) -> Result<Response, AppError> {
        cached_as(state, request, self.route, ClockUse::Minute, self.kind, self.render).await
    }
}

/// 303 See Other to a site path; never cached, since it depends on the state of what it
/// points at (an order, a form's outcome).
pub fn see_other(location: &str) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(location) {
        headers.insert(header::LOCATION, value);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Renders a page template as a `text/html` response, uncached (pages that read orders or a
/// query string); its `Cache-Control` comes from `crate::cache_control`.
pub fn render(status: StatusCode, template: &impl Template) -> Result<Response, AppError> {
    Ok(html_response(status, html(template)?))
}

/// An uncached page's HTML as a response.
pub fn html_response(status: StatusCode, html: String) -> Response {
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(HTML));
    response
}

/// [`render`] with status 200.
pub fn page(template: &impl Template) -> Result<Response, AppError> {
    render(StatusCode::OK, template)
}
