//! `/schedule/changes` (issue 31 item 3, DESIGN.md section 14): what each published version
//! of the programme changed. Read from the snapshot's `versions`, so it is cached like every
//! page and re-rendered when a version is published; what it shows is
//! `crate::views::pages::changes`.

use axum::extract::{Request, State};
use axum::response::Response;

use crate::cache::pages::ClockUse;
use crate::error::AppError;
use crate::handlers::render::{cached, html};
use crate::handlers::state::AppState;
use crate::views::layout::PageCtx;
use crate::views::pages::changes::changes_page;

pub use crate::views::pages::changes::CHANGES;

/// GET `/schedule/changes`.
pub async fn changes(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), CHANGES, ClockUse::Year, render_changes).await
}

/// The changelog's HTML.
///
/// Errors: the site row is not loaded.
pub fn render_changes(page: &PageCtx<'_>) -> Result<String, AppError> {
    html(&changes_page(page)?)
}
