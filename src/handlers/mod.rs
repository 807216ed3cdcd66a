//! HTTP handlers, one module per area; `crate::routes` lists every route.

pub mod ahead;
pub mod api;
pub mod pages;

use askama::Template;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::cache::{ClockUse, Kind};
use crate::error::AppError;
use crate::layout::PageCtx;
use crate::state::AppState;

/// `Content-Type` of every page.
pub const HTML: &str = "text/html; charset=utf-8";
/// `Cache-Control` of pages (`crate::cache_control::PAGE`, which that middleware sets on every
/// page anyway): browsers revalidate every time (a 304 by `ETag`), shared caches hold a minute.
pub const PAGE_CACHE_CONTROL: &str = crate::cache_control::PAGE;
/// What every cached page is sent as.
pub const PAGE: Kind = Kind { content_type: HTML, cache_control: PAGE_CACHE_CONTROL, content_disposition: None };

/// A page template's HTML.
pub fn html(template: &impl Template) -> Result<String, AppError> {
    template.render().map_err(|e| AppError::internal("template", e))
}

/// Serves `route` from the page cache (`crate::cache`), rendering it with `render` from the
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
    if let Some(answer) = state.pages.get(route, snapshot.generation, page.now) {
        return Ok(answer.respond(request));
    }
    let answer = state.pages.get_or_render(route, snapshot.generation, clock, page.now, kind, || render(&page)).await?;
    Ok(answer.respond(request))
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
pub mod seo;
