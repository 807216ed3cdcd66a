//! What the programme's pages show (issue 31 item 4, DESIGN.md section 14): `/schedule` under
//! its filters and each session's page, with the props of the programme's islands the talk
//! pages and the author's status page mount too.

use askama::Template;
use serde_json::{Value, json};

use crate::error::AppError;
use crate::programme::{AGENDA_ICS, Day, Filter, MODES, Programme, TimedSession};
use crate::views::layout::{Block, BlockError, Layout, Meta, PageCtx};
use crate::views::pages::json_ld::{conference_event, session_event};
use crate::views::pages::shared::script_json;

/// The schedule page's route, and its canonical path (its metadata and JSON-LD name it).
pub const SCHEDULE: &str = "/schedule";

/// The heading of an unknown session's 404 page.
pub const SESSION_NOT_FOUND: &str = "Session not found";

/// The props of the programme's islands, which the programme's pages mount right after the
/// sentence naming the zone (`templates/partials/zone_switch.html`, `agenda.html`).
pub struct ProgrammeIslands {
    /// `ZoneSwitch`: the event's zone (`Asia/Manila`) and its name (`Manila time`).
    pub zone_switch: Value,
    /// `Agenda`: where the calendar of the visitor's starred talks is.
    pub agenda: Value,
}

impl ProgrammeIslands {
    pub fn of(programme: &Programme) -> ProgrammeIslands {
        ProgrammeIslands {
            zone_switch: json!({ "zone": programme.zone.name, "zoneName": programme.zone_name() }),
            agenda: json!({ "icsPath": AGENDA_ICS }),
        }
    }

    /// For a page whose programme did not load, which mounts neither island.
    pub fn empty() -> ProgrammeIslands {
        ProgrammeIslands { zone_switch: Value::Null, agenda: Value::Null }
    }
}

/// One choice of a filter's menu.
pub struct Choice {
    pub value: String,
    pub label: String,
    pub selected: bool,
}

/// `/schedule` as drawn (`templates/pages/schedule.html`).
#[derive(Template)]
#[template(path = "pages/schedule.html")]
pub struct SchedulePage {
    pub layout: Layout,
    /// The programme's sessions the filter keeps, by day; `Err` when the programme did not
    /// load (spec: a schedule failure shows nothing special).
    pub days: Block<Vec<Day>>,
    /// `Manila time (UTC+08:00)`.
    pub zone: String,
    pub filtered: bool,
    pub day_choices: Vec<Choice>,
    pub track_choices: Vec<Choice>,
    pub mode_choices: Vec<Choice>,
    /// `webcal://host/schedule.ics`.
    pub webcal: String,
    pub json_ld: String,
    /// Empty (and not rendered) when the programme did not load.
    pub programme_islands: ProgrammeIslands,
    /// The published version's number and name; `None` before the first.
    pub version: Option<(i64, String)>,
}

/// `/schedule`'s page under `filter`: the programme's days the filter keeps, the filters'
/// menus, the metadata naming the filter, the conference's `Event` JSON-LD with its sessions.
///
/// Errors: the site row is not loaded.
pub fn schedule_page(page: &PageCtx<'_>, filter: &Filter) -> Result<SchedulePage, AppError> {
    let programme = Programme::of(page.content);
    let choice = |value: String, label: String, selected: bool| Choice { value, label, selected };
    let (day_choices, track_choices, zone, filter_words) = match &programme {
        Ok(p) => {
            let days = p
                .dates()
                .into_iter()
                .map(|d| choice(d.to_string(), crate::clock::dates::day_label(d), filter.day == Some(d)))
                .collect();
            let tracks = p
                .used_tracks()
                .into_iter()
                .map(|t| choice(t.slug.clone(), t.name.clone(), filter.track.as_deref() == Some(&t.slug)))
                .collect();
            let mut words = Vec::new();
            if let Some(day) = filter.day {
                words.push(crate::clock::dates::day_label(day));
            }
            if let Some(track) = filter.track.as_deref().and_then(|t| p.track(t)) {
                words.push(track.name.clone());
            }
            if let Some(mode) = &filter.mode {
                words.push(MODES.iter().find(|(m, _)| m == mode).map_or(mode.clone(), |(_, l)| (*l).to_owned()));
            }
            (days, tracks, p.zone_label(), words)
        }
        Err(_) => (Vec::new(), Vec::new(), String::new(), Vec::new()),
    };
    let mode_choices = MODES
        .iter()
        .map(|(value, label)| choice((*value).to_owned(), (*label).to_owned(), filter.mode.as_deref() == Some(value)))
        .collect();
    let layout = Layout::new(page, |site| {
        let title = if filter_words.is_empty() {
            format!("Schedule | {}", site.short_name)
        } else {
            format!("Schedule: {} | {}", filter_words.join(", "), site.short_name)
        };
        let zone = if zone.is_empty() { String::new() } else { format!(", in {zone}") };
        Meta::new(
            title,
            format!(
                "Programme of {}, {}: keynotes, technical sessions, workshops and panels, day by day{zone}.",
                site.short_name,
                crate::clock::dates::range_label(&site.start_date, &site.end_date)
            ),
            SCHEDULE,
        )
    })?;
    let base = page.config.base_url().trim_end_matches('/').to_owned();
    let json_ld = match &programme {
        Ok(p) => {
            let mut event = conference_event(&layout.site, &base);
            event["@context"] = json!("https://schema.org");
            event["url"] = json!(format!("{base}{SCHEDULE}"));
            event["subEvent"] = p.sessions.iter().map(|s| session_event(&layout.site, &base, s)).collect();
            script_json(&event)
        }
        Err(_) => String::new(),
    };
    let webcal = webcal(&page.config.absolute("/schedule.ics"));
    Ok(SchedulePage {
        programme_islands: programme.as_ref().map_or_else(|_| ProgrammeIslands::empty(), ProgrammeIslands::of),
        days: programme.as_ref().map(|p| p.days(filter)).map_err(|_| BlockError),
        version: programme.as_ref().ok().and_then(|p| p.version.clone()),
        zone,
        filtered: !filter.is_empty(),
        day_choices,
        track_choices,
        mode_choices,
        webcal,
        json_ld,
        layout,
    })
}

/// A session's page as drawn (`templates/pages/session.html`).
#[derive(Template)]
#[template(path = "pages/session.html")]
pub struct SessionPage {
    pub layout: Layout,
    pub session: TimedSession,
    pub zone: String,
    pub webcal: String,
    pub json_ld: String,
    pub programme_islands: ProgrammeIslands,
}

/// The page of session `slug`: its talks in order, its metadata and `Event` JSON-LD within the
/// conference's.
///
/// Errors: 404 'Session not found' when the programme has no such session; the site row is
/// not loaded.
pub fn session_page(page: &PageCtx<'_>, slug: &str) -> Result<SessionPage, AppError> {
    let programme = Programme::of(page.content).map_err(|_| AppError::NotFound(SESSION_NOT_FOUND.into()))?;
    let session = programme.session(slug).ok_or_else(|| AppError::NotFound(SESSION_NOT_FOUND.into()))?.clone();
    let zone = programme.zone_label();
    let layout = Layout::new(page, |site| {
        let mut description = format!(
            "{}, {} {}-{} {}, {}: {}",
            session.kind_label(),
            session.day_label(),
            session.start_label(),
            session.end_label(),
            zone,
            session.room,
            session.session.description
        );
        if description.chars().count() > 300 {
            description = format!("{}…", description.chars().take(299).collect::<String>());
        }
        Meta::new(format!("{} | {}", session.session.title, site.short_name), description, session.path())
    })?;
    let base = page.config.base_url().trim_end_matches('/').to_owned();
    let mut event = session_event(&layout.site, &base, &session);
    event["@context"] = json!("https://schema.org");
    let mut parent = conference_event(&layout.site, &base);
    parent["url"] = json!(format!("{base}/"));
    event["superEvent"] = parent;
    let json_ld = script_json(&event);
    let webcal = webcal(&page.config.absolute("/schedule.ics"));
    let programme_islands = ProgrammeIslands::of(&programme);
    Ok(SessionPage { layout, session, zone, webcal, json_ld, programme_islands })
}

/// `https://host/x` → `webcal://host/x` (calendar apps subscribe to it).
pub fn webcal(url: &str) -> String {
    match url.split_once("://") {
        Some((_, rest)) => format!("webcal://{rest}"),
        None => url.to_owned(),
    }
}
