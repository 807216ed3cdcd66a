//! The programme as iCalendar (issue 31 item 5, DESIGN.md section 14): `/schedule.ics` (every
//! session and every talk), `/schedule/talks/{slug}.ics` (one talk, served by
//! `super::pages::talk` on the talk page's route), `/schedule/agenda.ics?talks=a,b` (the talks a
//! visitor starred), as served: their routes, headers and caching. The calendars themselves
//! are built in `crate::programme::ical::feeds`.

use axum::extract::{RawQuery, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::cache::pages::ClockUse;
use crate::cache::prepared::Kind;
use crate::error::AppError;
use crate::handlers::render::cached_as;
use crate::handlers::state::AppState;
use crate::programme::ical::feeds;
use crate::views::layout::PageCtx;

/// Calendar apps may keep it an hour, like `/calendar.ics`.
const CALENDAR_CACHE_CONTROL: &str = "public, max-age=3600";

/// `/schedule.ics` as served: a calendar of its own name.
pub const SCHEDULE_CALENDAR: Kind = Kind {
    content_type: "text/calendar; charset=utf-8",
    cache_control: CALENDAR_CACHE_CONTROL,
    content_disposition: Some("inline; filename=\"programme.ics\""),
};

/// `/schedule/talks/<slug>.ics` as served: without a `Content-Disposition`, a browser saves it
/// under the address's own name, `<slug>.ics`.
pub const TALK_CALENDAR: Kind = Kind {
    content_type: "text/calendar; charset=utf-8",
    cache_control: CALENDAR_CACHE_CONTROL,
    content_disposition: None,
};

/// GET `/schedule.ics`: the whole programme, one `VEVENT` per session and per talk (issue 31
/// item 5). Rendered once per content version.
pub async fn schedule_ics(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached_as(&state, request.headers(), "/schedule.ics", ClockUse::Year, SCHEDULE_CALENDAR, render_schedule_ics).await
}

/// The body of `/schedule.ics` ([`feeds::schedule`]).
///
/// Errors: the site row or the programme is not loaded.
pub fn render_schedule_ics(page: &PageCtx<'_>) -> Result<String, AppError> {
    feeds::schedule(page.content, page.config.base_url())
}

/// The body of `/schedule/talks/<slug>.ics` ([`feeds::talk`]).
///
/// Errors: 404 'Talk not found' for a talk the programme does not have; the site row or the
/// programme is not loaded.
pub fn render_talk_ics(page: &PageCtx<'_>, slug: &str) -> Result<String, AppError> {
    feeds::talk(page.content, page.config.base_url(), slug)
}

/// GET `/schedule/agenda.ics?talks=a,b,c`: the starred talks (issue 31 item 5); a 400 page
/// naming the problem for a bad list (see [`feeds::agenda_talks`]).
///
/// Rendered from the content snapshot in memory on each request and not kept in the page
/// cache: that cache keeps every key it is given until the next version, and the sets of
/// talks a visitor may name are without number, so caching them would let anyone fill the
/// memory. One agenda is a few hundred microseconds of formatting.
pub async fn agenda_ics(State(state): State<AppState>, RawQuery(query): RawQuery) -> Result<Response, AppError> {
    let snapshot = state.content.snapshot().await;
    let programme = feeds::programme_of(&snapshot, "agenda.ics")?;
    let talks = feeds::agenda_talks(query.as_deref(), &programme).map_err(|bad| AppError::BadRequest(bad.0))?;
    let body = feeds::agenda(&snapshot, state.config.base_url(), &talks)?;
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/calendar; charset=utf-8"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(CALENDAR_CACHE_CONTROL));
    headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("inline; filename=\"agenda.ics\""));
    Ok(response)
}
