//! The programme as iCalendar (issue 31 item 5): `/schedule.ics`, and the helpers every
//! calendar of the site shares (`super::seo`'s `/calendar.ics` too).

use axum::extract::{Request, State};
use axum::response::Response;
use icalendar::{Calendar, Component, DatePerhapsTime, Event, EventLike, Property};

use crate::cache::pages::ClockUse;
use crate::cache::prepared::Kind;
use crate::error::AppError;
use crate::handlers::layout::PageCtx;
use crate::handlers::render::cached_as;
use crate::handlers::state::AppState;

/// Calendar apps may keep it an hour, like `/calendar.ics`.
const CALENDAR_CACHE_CONTROL: &str = "public, max-age=3600";

/// `/schedule.ics` as served: a calendar of its own name.
pub const SCHEDULE_CALENDAR: Kind = Kind {
    content_type: "text/calendar; charset=utf-8",
    cache_control: CALENDAR_CACHE_CONTROL,
    content_disposition: Some("inline; filename=\"programme.ics\""),
};

/// GET `/schedule.ics`: the whole programme, one `VEVENT` per session (issue 31 item 5).
/// Rendered once per content version: each event is stamped with its session's `updated`.
pub async fn schedule_ics(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached_as(&state, request.headers(), "/schedule.ics", ClockUse::Year, SCHEDULE_CALENDAR, render_schedule_ics).await
}

/// The body of `/schedule.ics` (RFC 5545): every session with its times in UTC, its room and
/// mode, a link to its page, and a `UID` made of its slug and the site's host, so a calendar
/// that subscribed keeps the same entry when a session changes.
///
/// Errors: the site row or the programme is not loaded.
pub fn render_schedule_ics(page: &PageCtx<'_>) -> Result<String, AppError> {
    let site = page.content.site()?;
    let programme = crate::programme::Programme::of(page.content)
        .map_err(|_| AppError::internal("schedule.ics", "the programme is not loaded"))?;
    let host = host_of(page.config.base_url());
    let mut calendar = published(&site.short_name, &format!("{} programme", site.short_name));
    for session in &programme.sessions {
        let updated =
            time::OffsetDateTime::parse(&session.session.updated, &time::format_description::well_known::Rfc3339)
                .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
        let url = page.config.absolute(&session.path());
        let mut facts = vec![format!("{} · {}", session.kind_label(), session.mode_label())];
        if let Some(track) = &session.track {
            facts.push(format!("Track: {track}"));
        }
        if let Some(chair) = &session.session.chair {
            facts.push(format!("Chair: {chair}"));
        }
        let description = format!("{}\n\n{}\n{url}", session.session.description, facts.join("\n"));
        let location = if session.at_venue() {
            format!("{}, {}, {}", session.room, site.venue_name, site.city)
        } else {
            format!("{} (online)", session.room)
        };
        let mut event = Event::new();
        event
            .uid(&format!("session-{}@{host}", session.slug()))
            .append_property(DatePerhapsTime::from(updated).to_property("DTSTAMP"))
            .append_property(DatePerhapsTime::from(updated).to_property("LAST-MODIFIED"))
            .starts(session.start)
            .ends(session.end)
            .summary(&one_newline(&session.session.title))
            .description(&one_newline(&description))
            .location(&one_newline(&location))
            .url(&url);
        calendar.push(event.done());
    }
    Ok(calendar.to_string())
}

/// The host of `PUBLIC_URL` (`conf.example.org`), the right-hand side of every `UID`.
pub fn host_of(base_url: &str) -> String {
    base_url.split("://").nth(1).unwrap_or("localhost").split('/').next().unwrap_or("localhost").to_string()
}

/// Text with CRLF as LF: `icalendar` writes LF as `\n` (RFC 5545 section 3.3.11) but passes a
/// CR through, and a bare CR in the body breaks the CRLF-only line structure.
pub fn one_newline(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// An empty calendar as this site publishes them (RFC 5545 section 3.6: `VERSION`, `PRODID`
/// naming the conference, `METHOD:PUBLISH`) under the name calendar apps show (`X-WR-CALNAME`).
pub fn published(short_name: &str, calendar_name: &str) -> Calendar {
    let mut calendar = Calendar::empty();
    calendar
        .append_property(Property::new("VERSION", "2.0"))
        .append_property(Property::new("PRODID", format!("-//{short_name}//Conference website//EN")))
        .append_property(Property::new("CALSCALE", "GREGORIAN"))
        .append_property(Property::new("METHOD", "PUBLISH"))
        .append_property(Property::new("X-WR-CALNAME", calendar_name));
    calendar
}
