//! What a talk's own page shows (issue 31 item 4, DESIGN.md section 14): its title, authors
//! and affiliation, presenter, abstract, format, session, time, room, mode and track, its
//! metadata and `Event` JSON-LD. Public talk data only: never an e-mail, phone number or the
//! paper.

use askama::Template;

use crate::error::AppError;
use crate::programme::{Programme, TimedSession, TimedTalk};
use crate::views::layout::{Layout, Meta, PageCtx};
use crate::views::pages::json_ld::talk_event;
use crate::views::pages::schedule::ProgrammeIslands;
use crate::views::pages::shared::script_json;

/// The heading of an unknown talk's 404 page.
pub const TALK_NOT_FOUND: &str = "Talk not found";

/// The longest meta description (characters), as the session pages cut theirs.
const DESCRIPTION_MAX_CHARS: usize = 300;

/// A talk's page as drawn (`templates/pages/talk.html`).
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

/// The page of the talk `slug` of the latest published version: its facts, its metadata and
/// its `Event` JSON-LD.
///
/// Errors: 404 'Talk not found' when the programme has no such talk.
pub fn talk_page(page: &PageCtx<'_>, slug: &str) -> Result<TalkPage, AppError> {
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
    let event = talk_event(site, &base, &session, &talk);
    let json_ld = script_json(&event);
    let ics = format!("{}.ics", talk.path());
    let programme_islands = ProgrammeIslands::of(&programme);
    Ok(TalkPage { layout, session, talk, zone, ics, json_ld, programme_islands })
}
