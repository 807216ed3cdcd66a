//! The programme as iCalendar (issue 31 item 5, DESIGN.md section 14): `/schedule.ics` (every
//! session and every talk), `/schedule/talks/{slug}.ics` (one talk, served by
//! `super::pages::talk` on the talk page's route), `/schedule/agenda.ics?talks=a,b` (the talks a
//! visitor starred), and the helpers every calendar of the site shares (`super::seo`'s
//! `/calendar.ics` too).
//!
//! Times are UTC (`Z`). `UID`s stay the same across versions (`session-<slug>@<host>`,
//! `talk-<slug>@<host>`) and `SEQUENCE` is the version's count of changes to the entry, so a
//! calendar that imported or subscribed updates its entry in place. `DTSTAMP` is when the
//! version was published (before the first, the session's `updated`), never the wall clock:
//! the bytes kept in the page cache stay the same for the whole version.

use axum::extract::{RawQuery, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use icalendar::{Component, DatePerhapsTime, Event, EventLike};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::cache::pages::ClockUse;
use crate::cache::prepared::Kind;
use crate::config::Config;
use crate::error::AppError;
use crate::handlers::render::cached_as;
use crate::handlers::state::AppState;
use crate::programme::ical::TalkEntry;
pub use crate::programme::ical::{calendar as published, host_of, one_newline};
use crate::programme::{Programme, TimedSession, TimedTalk};
use crate::repo::content::Site;
use crate::views::layout::PageCtx;

/// Calendar apps may keep it an hour, like `/calendar.ics`.
const CALENDAR_CACHE_CONTROL: &str = "public, max-age=3600";

/// The most talks one agenda may name (the programme's size, 250 talks, with room to spare):
/// a longer list is refused rather than read.
pub const AGENDA_MAX_TALKS: usize = 300;

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

/// What every entry of the programme's calendars needs: the site, `PUBLIC_URL` and its host,
/// and the version's publication time.
struct Entries<'a> {
    site: &'a Site,
    config: &'a Config,
    host: String,
    /// When the version was published; `None` before the first.
    published_at: Option<OffsetDateTime>,
}

impl<'a> Entries<'a> {
    fn of(page: &'a PageCtx<'_>) -> Result<Entries<'a>, AppError> {
        let published_at = match &page.content.published {
            Ok(Some(published)) => OffsetDateTime::parse(&published.published_at, &Rfc3339).ok(),
            _ => None,
        };
        Ok(Entries {
            site: page.content.site()?,
            config: page.config,
            host: host_of(page.config.base_url()),
            published_at,
        })
    }

    /// Where a session (and its talks) takes place, as calendar apps show it.
    fn location(&self, session: &TimedSession) -> String {
        if session.at_venue() {
            format!("{}, {}, {}", session.room, self.site.venue_name, self.site.city)
        } else {
            format!("{} (online)", session.room)
        }
    }

    /// A session's entry: its times in UTC, room and mode, a link to its page, `UID`
    /// `session-<slug>@<host>`.
    fn session(&self, session: &TimedSession) -> Event {
        let updated = OffsetDateTime::parse(&session.session.updated, &Rfc3339).unwrap_or(OffsetDateTime::UNIX_EPOCH);
        let url = self.config.absolute(&session.path());
        let mut facts = vec![format!("{} · {}", session.kind_label(), session.mode_label())];
        if let Some(track) = &session.track {
            facts.push(format!("Track: {track}"));
        }
        if let Some(chair) = &session.session.chair {
            facts.push(format!("Chair: {chair}"));
        }
        let description = format!("{}\n\n{}\n{url}", session.session.description, facts.join("\n"));
        let mut event = Event::new();
        event
            .uid(&format!("session-{}@{}", session.slug(), self.host))
            .append_property(DatePerhapsTime::from(self.published_at.unwrap_or(updated)).to_property("DTSTAMP"))
            .append_property(DatePerhapsTime::from(updated).to_property("LAST-MODIFIED"))
            .sequence(sequence(session.sequence))
            .starts(session.start)
            .ends(session.end)
            .summary(&one_newline(&session.session.title))
            .description(&one_newline(&description))
            .location(&one_newline(&self.location(session)))
            .url(&url);
        event.done()
    }

    /// A talk's entry (`crate::programme::ical::TalkEntry`, the same one a moved talk's mail
    /// carries).
    fn talk(&self, session: &TimedSession, talk: &TimedTalk) -> Event {
        let stamp = self.published_at.unwrap_or(OffsetDateTime::UNIX_EPOCH);
        TalkEntry::timed(session, talk).event(self.site, self.config.base_url(), stamp)
    }
}

/// A stored `SEQUENCE` as iCalendar writes it (never negative).
fn sequence(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

fn programme_of(page: &PageCtx<'_>, what: &'static str) -> Result<Programme, AppError> {
    Programme::of(page.content).map_err(|_| AppError::internal(what, "the programme is not loaded"))
}

/// The body of `/schedule.ics` (RFC 5545): every session, each followed by its talks.
///
/// Errors: the site row or the programme is not loaded.
pub fn render_schedule_ics(page: &PageCtx<'_>) -> Result<String, AppError> {
    let entries = Entries::of(page)?;
    let programme = programme_of(page, "schedule.ics")?;
    let short_name = &entries.site.short_name;
    let mut calendar = published(short_name, &format!("{short_name} programme"));
    for session in &programme.sessions {
        calendar.push(entries.session(session));
        for talk in &session.talks {
            calendar.push(entries.talk(session, talk));
        }
    }
    Ok(calendar.to_string())
}

/// The body of `/schedule/talks/<slug>.ics`: that talk alone.
///
/// Errors: 404 'Talk not found' for a talk the programme does not have; the site row or the
/// programme is not loaded.
pub fn render_talk_ics(page: &PageCtx<'_>, slug: &str) -> Result<String, AppError> {
    let entries = Entries::of(page)?;
    let programme = programme_of(page, "talk.ics")?;
    let (session, talk) = programme.talk(slug).ok_or_else(|| AppError::NotFound("Talk not found".into()))?;
    let mut calendar =
        published(&entries.site.short_name, &format!("{}: {}", entries.site.short_name, talk.talk.title));
    calendar.push(entries.talk(session, talk));
    Ok(calendar.to_string())
}

/// Why an agenda's query was refused: the message names the problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadAgenda(pub String);

/// The talks `?talks=a,b,c` names, in programme order (by time, then room; the order a
/// calendar shows anyway, and one answer for one set of talks however it is written).
///
/// Refused, with a message naming the problem: no `talks` parameter or an empty one, the
/// parameter given twice, an empty entry (`a,,b`), more than [`AGENDA_MAX_TALKS`], a talk
/// named twice, a talk the programme does not have. Other parameters are ignored.
pub fn agenda_talks<'p>(
    query: Option<&str>,
    programme: &'p Programme,
) -> Result<Vec<(&'p TimedSession, &'p TimedTalk)>, BadAgenda> {
    let usage = "Name the talks to put in the calendar: /schedule/agenda.ics?talks=first-talk,second-talk";
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or(""))
        .map_err(|_| BadAgenda("The address's query string cannot be read.".into()))?;
    let mut values = pairs.iter().filter(|(name, _)| name == "talks").map(|(_, value)| value);
    let value = values.next().ok_or_else(|| BadAgenda(format!("No talks are named. {usage}")))?;
    if values.next().is_some() {
        return Err(BadAgenda(
            "The parameter talks is given twice; give it once, the talks separated by commas.".into(),
        ));
    }
    if value.trim().is_empty() {
        return Err(BadAgenda(format!("The list of talks is empty. {usage}")));
    }
    let slugs: Vec<&str> = value.split(',').map(str::trim).collect();
    if slugs.len() > AGENDA_MAX_TALKS {
        return Err(BadAgenda(format!(
            "An agenda holds at most {AGENDA_MAX_TALKS} talks; this one names {}.",
            slugs.len()
        )));
    }
    let mut seen = std::collections::HashSet::new();
    for slug in &slugs {
        if slug.is_empty() {
            return Err(BadAgenda("The list of talks has an empty entry; separate the talks by single commas.".into()));
        }
        let shown: String = slug.chars().take(80).collect();
        if !seen.insert(*slug) {
            return Err(BadAgenda(format!("The talk {shown:?} is named twice; name each talk once.")));
        }
        if programme.talk(slug).is_none() {
            return Err(BadAgenda(format!("There is no talk {shown:?} in the programme.")));
        }
    }
    Ok(programme.talks().filter(|(_, talk)| seen.contains(talk.slug())).collect())
}

/// The body of `/schedule/agenda.ics` for `talks`.
///
/// Errors: the site row is not loaded.
pub fn render_agenda_ics(page: &PageCtx<'_>, talks: &[(&TimedSession, &TimedTalk)]) -> Result<String, AppError> {
    let entries = Entries::of(page)?;
    let mut calendar = published(&entries.site.short_name, &format!("{}: my agenda", entries.site.short_name));
    for (session, talk) in talks {
        calendar.push(entries.talk(session, talk));
    }
    Ok(calendar.to_string())
}

/// GET `/schedule/agenda.ics?talks=a,b,c`: the starred talks (issue 31 item 5); a 400 page
/// naming the problem for a bad list (see [`agenda_talks`]).
///
/// Rendered from the content snapshot in memory on each request and not kept in the page
/// cache: that cache keeps every key it is given until the next version, and the sets of
/// talks a visitor may name are without number, so caching them would let anyone fill the
/// memory. One agenda is a few hundred microseconds of formatting.
pub async fn agenda_ics(State(state): State<AppState>, RawQuery(query): RawQuery) -> Result<Response, AppError> {
    let snapshot = state.content.snapshot().await;
    let page = state.page_ctx(&snapshot);
    let programme = programme_of(&page, "agenda.ics")?;
    let talks = agenda_talks(query.as_deref(), &programme).map_err(|bad| AppError::BadRequest(bad.0))?;
    let body = render_agenda_ics(&page, &talks)?;
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/calendar; charset=utf-8"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(CALENDAR_CACHE_CONTROL));
    headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("inline; filename=\"agenda.ics\""));
    Ok(response)
}
