//! A talk's own page (issue 31 item 4, DESIGN.md section 14): `/schedule/talks/{slug}` with
//! its title, authors and affiliation, presenter, abstract, format, session, time, room, mode
//! and track, its metadata and `Event` JSON-LD; and, on the same route (axum matches no
//! suffix after a parameter), `/schedule/talks/{slug}.ics`, its calendar entry.
//!
//! Public talk data only: never an e-mail, phone number or the paper.

use axum::extract::{Path, Request, State};
use axum::response::Response;

use crate::cache::pages::ClockUse;
use crate::content::Snapshot;
use crate::error::AppError;
use crate::handlers::calendars;
use crate::handlers::render::{cached, cached_as, html};
use crate::handlers::state::AppState;
use crate::programme::talk_path;
use crate::views::layout::PageCtx;
use crate::views::pages::talk::talk_page;

pub use crate::views::pages::talk::TALK_NOT_FOUND;

/// Whether the latest published version has a talk `slug`: only those reach the page cache,
/// so its size stays bounded by the programme.
fn known(content: &Snapshot, slug: &str) -> bool {
    matches!(&content.published, Ok(Some(published)) if published.talk(slug).is_some())
}

/// GET `/schedule/talks/{slug}` (the page) and `/schedule/talks/{slug}.ics` (its calendar
/// entry); an unknown slug is a 404 reading 'Talk not found'.
pub async fn talk(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    request: Request,
) -> Result<Response, AppError> {
    let (slug, ics) = match slug.strip_suffix(".ics") {
        Some(slug) => (slug.to_owned(), true),
        None => (slug, false),
    };
    if !known(&*state.content.snapshot().await, &slug) {
        return Err(AppError::NotFound(TALK_NOT_FOUND.into()));
    }
    let route = talk_path(&slug);
    if ics {
        let route = format!("{route}.ics");
        cached_as(&state, request.headers(), &route, ClockUse::Year, calendars::TALK_CALENDAR, |page| {
            calendars::render_talk_ics(page, &slug)
        })
        .await
    } else {
        cached(&state, request.headers(), &route, ClockUse::Year, |page| render_talk(page, &slug)).await
    }
}

/// The HTML of the talk `slug` of the latest published version.
///
/// Errors: 404 'Talk not found' when the programme has no such talk.
pub fn render_talk(page: &PageCtx<'_>, slug: &str) -> Result<String, AppError> {
    html(&talk_page(page, slug)?)
}
