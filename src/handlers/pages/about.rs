//! Pages about the event: `/AboutUs`, `/AboutConference`, `/awards`, `/sponsorship`, `/venue`;
//! what they show is `crate::views::pages::about`.

use axum::extract::{RawQuery, Request, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::cache::pages::ClockUse;
use crate::error::AppError;
use crate::handlers::render::{cached, html, html_response};
use crate::handlers::state::AppState;
use crate::views::layout::PageCtx;
use crate::views::pages::about;

pub async fn about_us(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/AboutUs", ClockUse::Year, render_about_us).await
}

pub fn render_about_us(page: &PageCtx<'_>) -> Result<String, AppError> {
    html(&about::about_us_page(page)?)
}

pub async fn about_conference(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/AboutConference", ClockUse::Year, render_about_conference).await
}

pub fn render_about_conference(page: &PageCtx<'_>) -> Result<String, AppError> {
    html(&about::about_conference_page(page)?)
}

pub async fn awards(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/awards", ClockUse::Year, render_awards).await
}

pub fn render_awards(page: &PageCtx<'_>) -> Result<String, AppError> {
    html(&about::awards_page(page)?)
}

/// Query of `/sponsorship`: a card's 'Sponsor now' link without JavaScript sends `package`.
#[derive(Debug, Default, Deserialize)]
struct SponsorshipQuery {
    package: Option<String>,
}

/// GET `/sponsorship`: cached when it has no query; `?package=` is rendered per request.
pub async fn sponsorship(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Result<Response, AppError> {
    match query.filter(|q| !q.is_empty()) {
        None => {
            cached(&state, request.headers(), "/sponsorship", ClockUse::Year, |p| render_sponsorship(p, None)).await
        }
        Some(query) => {
            let snapshot = state.content.snapshot().await;
            let body = render_sponsorship(&state.page_ctx(&snapshot), Some(&query))?;
            Ok(html_response(StatusCode::OK, body))
        }
    }
}

/// `/sponsorship`'s HTML; `query` is the raw query string when there is one.
pub fn render_sponsorship(page: &PageCtx<'_>, query: Option<&str>) -> Result<String, AppError> {
    // A malformed query string is ignored rather than refused: this is a page, not an API.
    let query: SponsorshipQuery = query.and_then(|q| serde_urlencoded::from_str(q).ok()).unwrap_or_default();
    html(&about::sponsorship_page(page, query.package.as_deref())?)
}

pub async fn venue(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/venue", ClockUse::Year, render_venue).await
}

pub fn render_venue(page: &PageCtx<'_>) -> Result<String, AppError> {
    html(&about::venue_page(page)?)
}
