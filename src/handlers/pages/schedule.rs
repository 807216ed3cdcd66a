//! The programme's pages (issue 31 item 4, DESIGN.md section 14): `/schedule` (and
//! `/Schedule`) with its filters `day`, `track` and `mode`, and `/schedule/sessions/{slug}`,
//! each session with its talks in order. Every filtered view is rendered once per content
//! version and kept like any page: only values the programme has reach the cache, under one
//! key per filter. What the pages show is `crate::views::pages::schedule`.

use axum::extract::{Path, RawQuery, Request, State};
use axum::response::Response;

use crate::cache::pages::ClockUse;
use crate::error::AppError;
use crate::handlers::render::{cached, html};
use crate::handlers::state::AppState;
use crate::programme::{Filter, Programme};
use crate::views::layout::PageCtx;
use crate::views::pages::schedule::{schedule_page, session_page};

pub use crate::views::pages::schedule::{SCHEDULE, SESSION_NOT_FOUND};

/// GET `/schedule` and `/Schedule`: a query with filters the programme does not have is a
/// 400 page naming the values allowed; other parameters are ignored.
pub async fn schedule(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Result<Response, AppError> {
    let filter = match query.filter(|q| !q.is_empty()) {
        None => Filter::default(),
        Some(query) => {
            let snapshot = state.content.snapshot().await;
            match Programme::of(&snapshot) {
                Ok(programme) => Filter::parse(&query, &programme).map_err(|bad| AppError::BadRequest(bad.0))?,
                Err(_) => Filter::default(),
            }
        }
    };
    let route = if filter.is_empty() { SCHEDULE.to_owned() } else { format!("{SCHEDULE}?{}", filter.query()) };
    cached(&state, request.headers(), &route, ClockUse::Year, |page| render_schedule(page, &filter)).await
}

/// `/schedule`'s HTML under `filter`.
pub fn render_schedule(page: &PageCtx<'_>, filter: &Filter) -> Result<String, AppError> {
    html(&schedule_page(page, filter)?)
}

/// `/schedule/sessions/{slug}`; an unknown slug is a 404 reading 'Session not found'.
pub async fn session(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    request: Request,
) -> Result<Response, AppError> {
    // Only known slugs reach the cache, so its size stays bounded by the content.
    let snapshot = state.content.snapshot().await;
    let known = snapshot.sessions.as_ref().is_ok_and(|sessions| sessions.iter().any(|s| s.slug == slug));
    if !known {
        return Err(AppError::NotFound(SESSION_NOT_FOUND.into()));
    }
    let route = crate::programme::session_path(&slug);
    cached(&state, request.headers(), &route, ClockUse::Year, |page| render_session(page, &slug)).await
}

/// The HTML of session `slug`'s page.
pub fn render_session(page: &PageCtx<'_>, slug: &str) -> Result<String, AppError> {
    html(&session_page(page, slug)?)
}
