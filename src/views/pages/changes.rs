//! What `/schedule/changes` shows (issue 31 item 3, DESIGN.md section 14): what each
//! published version of the programme changed, newest first, read from the snapshot's
//! `versions`.

use askama::Template;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::clock::dates::{clock, day_label, iso};
use crate::clock::zone::Zone;
use crate::error::AppError;
use crate::programme::{Change, Programme, Slot, VersionSummary, session_path, talk_path};
use crate::seed::session_rules::parse_local;
use crate::views::layout::{Block, BlockError, Layout, Meta, PageCtx};

/// The changelog's route, and its canonical path (its metadata names it).
pub const CHANGES: &str = "/schedule/changes";

/// Where and when, as a changelog line shows it: `Fixture session A · Saturday, 22 March
/// 2025, 09:00–09:20 · Tide Room A`.
pub struct Place {
    pub session: String,
    pub room: String,
    /// `Saturday, 22 March 2025, 09:00`, and its `<time datetime>`; `None` when the stored
    /// time cannot be read (then the text as stored).
    pub start: String,
    pub start_iso: Option<String>,
    /// `09:20`.
    pub end: String,
    pub end_iso: Option<String>,
}

/// One line of a version: what happened (`Added`, `Moved`, ...), to what (with a link while
/// the programme still has it), and where from and to.
pub struct Line {
    pub what: &'static str,
    /// A session's line (its place is a time and room), not a talk's (a session, time and room).
    pub session: bool,
    pub title: String,
    pub href: Option<String>,
    pub from: Option<Place>,
    pub to: Option<Place>,
}

/// A version as the page shows it.
pub struct Version {
    pub number: i64,
    pub name: String,
    /// `1 March 2025`, in the event's zone, and that date as `<time datetime>` reads it
    /// (`2025-03-01`; the stored time has microseconds, which HTML does not allow).
    pub published: String,
    pub published_iso: String,
    pub lines: Vec<Line>,
}

/// Drawn by `templates/pages/changes.html`.
#[derive(Template)]
#[template(path = "pages/changes.html")]
pub struct ChangesPage {
    pub layout: Layout,
    /// Newest first; empty before the first version.
    pub versions: Block<Vec<Version>>,
}

/// The changelog: each published version, newest first, with its lines in the event's zone.
///
/// Errors: the site row is not loaded.
pub fn changes_page(page: &PageCtx<'_>) -> Result<ChangesPage, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("Programme changes | {}", site.short_name),
            format!(
                "What each published version of the {} programme changed: talks added, moved or removed, and sessions retimed.",
                site.short_name
            ),
            CHANGES,
        )
    })?;
    let programme = Programme::of(page.content).ok();
    let zone = &page.content.zone;
    let versions = page
        .content
        .versions
        .as_ref()
        .map(|versions| versions.iter().map(|v| version(v, zone, programme.as_ref())).collect())
        .map_err(|_| BlockError);
    Ok(ChangesPage { layout, versions })
}

/// A published version as the page shows it: its date in `zone`, and a line per change with
/// a link while `programme` (the latest version) still has what it names.
pub fn version(summary: &VersionSummary, zone: &Zone, programme: Option<&Programme>) -> Version {
    let (published, published_iso) = match OffsetDateTime::parse(&summary.published_at, &Rfc3339) {
        Ok(at) => {
            let local = at.to_offset(zone.offset_at(at));
            (format!("{} {} {}", local.day(), local.month(), local.year()), local.date().to_string())
        }
        Err(_) => (summary.published_at.clone(), summary.published_at.chars().take(10).collect()),
    };
    let talk_href = |slug: &str| programme.and_then(|p| p.talk(slug)).map(|_| talk_path(slug));
    let session_href = |slug: &str| programme.and_then(|p| p.session(slug)).map(|_| session_path(slug));
    let at = |slot: &Slot| Some(place(slot, zone));
    let lines = summary
        .changes
        .iter()
        .map(|change| match change {
            Change::TalkAdded { talk, title, to } => Line {
                what: "Added",
                session: false,
                title: title.clone(),
                href: talk_href(talk),
                from: None,
                to: at(to),
            },
            Change::TalkMoved { talk, title, from, to } => Line {
                what: "Moved",
                session: false,
                title: title.clone(),
                href: talk_href(talk),
                from: at(from),
                to: at(to),
            },
            Change::TalkRemoved { talk: _, title, from } => {
                Line { what: "Removed", session: false, title: title.clone(), href: None, from: at(from), to: None }
            }
            Change::SessionAdded { session, title, to } => Line {
                what: "Session added",
                session: true,
                title: title.clone(),
                href: session_href(session),
                from: None,
                to: at(to),
            },
            Change::SessionRetimed { session, title, from, to } => Line {
                what: "Session retimed",
                session: true,
                title: title.clone(),
                href: session_href(session),
                from: at(from),
                to: at(to),
            },
            Change::SessionRemoved { session: _, title, from } => Line {
                what: "Session removed",
                session: true,
                title: title.clone(),
                href: None,
                from: at(from),
                to: None,
            },
        })
        .collect();
    Version { number: summary.number, name: summary.name.clone(), published, published_iso, lines }
}

/// A slot as a changelog line shows it, its times in `zone`; the stored text when it cannot
/// be read.
pub fn place(slot: &Slot, zone: &Zone) -> Place {
    let at = |text: &str| parse_local(text).map(|local| zone.localize(local));
    let (start, start_iso) = match at(&slot.starts_at) {
        Some(t) => (format!("{}, {}", day_label(t.date()), clock(t.time())), Some(iso(t))),
        None => (slot.starts_at.clone(), None),
    };
    let (end, end_iso) = match at(&slot.ends_at) {
        Some(t) => (clock(t.time()), Some(iso(t))),
        None => (slot.ends_at.clone(), None),
    };
    Place { session: slot.session.clone(), room: slot.room.clone(), start, start_iso, end, end_iso }
}
