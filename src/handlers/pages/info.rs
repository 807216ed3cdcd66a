//! Participation pages: `/committee`, `/gallery`, `/pricing`, `/submission` and
//! `/highlights/{slug}` (the programme's are in `super::schedule`); what they show is
//! `crate::views::pages::info`.

use axum::extract::{Path, RawQuery, Request, State};
use axum::response::Response;
use serde::Deserialize;

use crate::cache::pages::ClockUse;
use crate::error::AppError;
use crate::handlers::render::{cached, html, html_response};
use crate::handlers::state::AppState;
use crate::views::layout::PageCtx;
use crate::views::pages::info;

pub async fn committee(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/committee", ClockUse::Year, render_committee).await
}

pub fn render_committee(page: &PageCtx<'_>) -> Result<String, AppError> {
    html(&info::committee_page(page)?)
}

pub async fn gallery(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/gallery", ClockUse::Year, render_gallery).await
}

pub fn render_gallery(page: &PageCtx<'_>) -> Result<String, AppError> {
    html(&info::gallery_page(page)?)
}

/// Query of `/pricing`: what the page's links and forms send when JavaScript is off.
#[derive(Debug, Default, Deserialize)]
struct PricingQuery {
    /// A ticket plan id, from a card's Register Now link.
    plan: Option<String>,
    /// A custom amount, from the Custom Payment form.
    amount: Option<String>,
}

/// GET `/pricing`: cached when it has no query; `?plan=` and `?amount=` (the page without
/// JavaScript) are rendered per request, from the snapshot all the same.
pub async fn pricing(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Result<Response, AppError> {
    match query.filter(|q| !q.is_empty()) {
        // Per minute: registration closes at a minute (`crate::calendar`), and a page cached
        // before it must not outlive it; a changed deadline raises the content version.
        None => cached(&state, request.headers(), "/pricing", ClockUse::Minute, |p| render_pricing(p, None)).await,
        Some(query) => {
            let snapshot = state.content.snapshot().await;
            let body = render_pricing(&state.page_ctx(&snapshot), Some(&query))?;
            Ok(html_response(axum::http::StatusCode::OK, body))
        }
    }
}

/// `/pricing`'s HTML; `query` is the raw query string when there is one.
pub fn render_pricing(page: &PageCtx<'_>, query: Option<&str>) -> Result<String, AppError> {
    // A malformed query string is ignored rather than refused: this is a page, not an API.
    let query: PricingQuery = query.and_then(|q| serde_urlencoded::from_str(q).ok()).unwrap_or_default();
    html(&info::pricing_page(page, query.plan.as_deref(), query.amount)?)
}

pub async fn submission(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    // Per minute: submissions close at a minute (`crate::calendar`); a changed deadline raises
    // the content version, which drops the cached page on every instance.
    cached(&state, request.headers(), "/submission", ClockUse::Minute, render_submission).await
}

pub fn render_submission(page: &PageCtx<'_>) -> Result<String, AppError> {
    html(&info::submission_page(page)?)
}

/// `/highlights/{slug}`; an unknown slug is a 404 reading 'Highlight not found'.
pub async fn highlight(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    request: Request,
) -> Result<Response, AppError> {
    // Only known slugs reach the cache, so its size stays bounded by the content.
    let snapshot = state.content.snapshot().await;
    if snapshot.highlight(&slug).is_none() {
        return Err(AppError::NotFound("Highlight not found".into()));
    }
    let route = format!("/highlights/{slug}");
    cached(&state, request.headers(), &route, ClockUse::Year, |page| render_highlight(page, &slug)).await
}

pub fn render_highlight(page: &PageCtx<'_>, slug: &str) -> Result<String, AppError> {
    html(&info::highlight_page(page, slug)?)
}
