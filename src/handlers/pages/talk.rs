//! A talk's own page (issue 31 item 4, DESIGN.md section 14): `/schedule/talks/{slug}` with
//! its title, authors and affiliation, presenter, abstract, format, session, time, room, mode
//! and track, its metadata and `Event` JSON-LD; and, on the same route (axum matches no
//! suffix after a parameter), `/schedule/talks/{slug}.ics`, its calendar entry.
//!
//! Public talk data only: never an e-mail, phone number or the paper.

use askama::Template;
use axum::extract::{Path, Request, State};
use axum::response::Response;
use serde_json::json;

use crate::cache::pages::ClockUse;
use crate::content::Snapshot;
use crate::error::AppError;
use crate::handlers::calendars;
use crate::handlers::render::{cached, cached_as, html};
use crate::handlers::state::AppState;
use crate::programme::{Programme, TimedSession, TimedTalk, talk_path};
use crate::views::layout::{Layout, Meta, PageCtx};

use super::schedule::{ProgrammeIslands, attendance_mode, conference_event, locations};
use crate::views::pages::shared::script_json;

/// The heading of an unknown talk's 404 page.
pub const TALK_NOT_FOUND: &str = "Talk not found";

/// The longest meta description (characters), as the session pages cut theirs.
const DESCRIPTION_MAX_CHARS: usize = 300;

#[derive(Template)]
#[template(path = "pages/talk.html")]
pub struct TalkPage {
    pub layout: Layout,
    pub session: TimedSession,
    pub talk: TimedTalk,
    /// `Singapore time (UTC+08:00)`.
    pub zone: String,
    /// `/schedule/talks/<slug>.ics`.
    pub ics: String,
    pub json_ld: String,
    /// The zone switch's props (the talk page has no talk list for the agenda island).
    pub programme_islands: ProgrammeIslands,
}

impl TalkPage {
    /// What the page calls the talk's format: `Oral presentation`, `Poster`, `Keynote`.
    pub fn format_label(&self) -> String {
        format_label(&self.talk.talk.format)
    }

    /// The public abstract (a keynote speaker's biography); empty when none was given.
    pub fn abstract_text(&self) -> &str {
        &self.talk.talk.r#abstract
    }
}

/// `Oral` → `Oral presentation`; other formats as they are.
pub fn format_label(format: &str) -> String {
    match format {
        "Oral" => "Oral presentation".to_owned(),
        other => other.to_owned(),
    }
}

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
    let programme = Programme::of(page.content).map_err(|_| AppError::NotFound(TALK_NOT_FOUND.into()))?;
    let (session, talk) = programme.talk(slug).ok_or_else(|| AppError::NotFound(TALK_NOT_FOUND.into()))?;
    let (session, talk) = (session.clone(), talk.clone());
    let zone = programme.zone_label();
    let layout = Layout::new(page, |site| {
        let t = &talk.talk;
        let mut description = format!(
            "{} by {}{}. {} {}-{} {}, {}, {}.",
            format_label(&t.format),
            talk.authors_label(),
            if t.affiliation.is_empty() { String::new() } else { format!(" ({})", t.affiliation) },
            talk.day_label(),
            talk.start_label(),
            talk.end_label(),
            zone,
            session.session.title,
            session.room,
        );
        if !t.r#abstract.is_empty() {
            description = format!("{description} {}", t.r#abstract);
        }
        if description.chars().count() > DESCRIPTION_MAX_CHARS {
            description = format!("{}…", description.chars().take(DESCRIPTION_MAX_CHARS - 1).collect::<String>());
        }
        Meta::new(format!("{} | {}", t.title, site.short_name), description, talk.path())
    })?;
    let base = page.config.base_url().trim_end_matches('/').to_owned();
    let site = &layout.site;
    let t = &talk.talk;
    let mut parent = conference_event(site, &base);
    parent["url"] = json!(format!("{base}/"));
    let mut event = json!({
        "@context": "https://schema.org",
        "@type": "Event",
        "name": t.title,
        "startDate": talk.start_iso(),
        "endDate": talk.end_iso(),
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": attendance_mode(&session),
        "location": locations(site, &base, &session),
        "url": format!("{base}{}", talk.path()),
        "performer": { "@type": "Person", "name": t.presenter },
        "organizer": { "@type": "Organization", "name": site.organizer_name, "url": site.organizer_url },
        "superEvent": parent,
    });
    if !t.r#abstract.is_empty() {
        event["description"] = json!(t.r#abstract);
    }
    let json_ld = script_json(&event);
    let ics = format!("{}.ics", talk.path());
    let programme_islands = ProgrammeIslands::of(&programme);
    html(&TalkPage { layout, session, talk, zone, ics, json_ld, programme_islands })
}
