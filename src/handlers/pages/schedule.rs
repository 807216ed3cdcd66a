//! The programme's pages (issue 31 item 4, DESIGN.md section 14): `/schedule` (and
//! `/Schedule`) with its filters `day`, `track` and `mode`, and `/schedule/sessions/{slug}`,
//! each session with its talks in order. Every filtered view is rendered once per content
//! version and kept like any page: only values the programme has reach the cache, under one
//! key per filter. The talk pages (`super::talk`) and the changelog (`super::changes`) share
//! this module's schema.org helpers.

use askama::Template;
use axum::extract::{Path, RawQuery, Request, State};
use axum::response::Response;
use serde_json::{Value, json};

use crate::cache::pages::ClockUse;
use crate::error::AppError;
use crate::handlers::render::{cached, html};
use crate::handlers::state::AppState;
use crate::programme::{AGENDA_ICS, Day, Filter, MODES, Programme, TimedSession};
use crate::repo::content::Site;
use crate::views::layout::{Block, BlockError, Layout, Meta, PageCtx};

use crate::views::pages::shared::{on_base, script_json, venue_place};

/// The schedule page's route, and its canonical path.
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
    html(&SchedulePage {
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

pub fn render_session(page: &PageCtx<'_>, slug: &str) -> Result<String, AppError> {
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
    html(&SessionPage { layout, session, zone, webcal, json_ld, programme_islands })
}

/// `https://host/x` → `webcal://host/x` (calendar apps subscribe to it).
pub fn webcal(url: &str) -> String {
    match url.split_once("://") {
        Some((_, rest)) => format!("webcal://{rest}"),
        None => url.to_owned(),
    }
}

/// The conference as a schema.org `Event` (the programme's parent): dates, mixed attendance,
/// the venue and the online location.
pub fn conference_event(site: &Site, base: &str) -> Value {
    json!({
        "@type": "Event",
        "name": site.name,
        "description": site.description,
        "startDate": site.start_date,
        "endDate": site.end_date,
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": "https://schema.org/MixedEventAttendanceMode",
        "location": [venue_place(site, &site.venue_name), { "@type": "VirtualLocation", "url": on_base(base, &site.virtual_url) }],
        "organizer": { "@type": "Organization", "name": site.organizer_name, "url": site.organizer_url },
    })
}

/// A session as a schema.org `Event`: its times with the zone's offset, its attendance mode,
/// and its location: the room at the venue (`Place`) when it is held there, the online
/// location (`VirtualLocation`) when it is streamed, both when hybrid.
pub fn session_event(site: &Site, base: &str, session: &TimedSession) -> Value {
    json!({
        "@type": "Event",
        "name": session.session.title,
        "description": session.session.description,
        "startDate": session.start_iso(),
        "endDate": session.end_iso(),
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": attendance_mode(session),
        "location": locations(site, base, session),
        "url": format!("{base}{}", session.path()),
        "organizer": { "@type": "Organization", "name": site.organizer_name, "url": site.organizer_url },
    })
}

/// The schema.org attendance mode of a session (and of its talks): offline in person, online
/// online, mixed when hybrid.
pub fn attendance_mode(session: &TimedSession) -> &'static str {
    match session.session.mode.as_str() {
        "in_person" => "https://schema.org/OfflineEventAttendanceMode",
        "online" => "https://schema.org/OnlineEventAttendanceMode",
        _ => "https://schema.org/MixedEventAttendanceMode",
    }
}

/// Where a session (and each of its talks) takes place: the room at the venue (`Place`)
/// when it is held there, the online location (`VirtualLocation`) when it is streamed, both
/// when hybrid.
pub fn locations(site: &Site, base: &str, session: &TimedSession) -> Vec<Value> {
    let mut location = Vec::new();
    if session.at_venue() {
        location.push(venue_place(site, &format!("{}, {}", session.room, site.venue_name)));
    }
    if session.streamed() {
        location.push(json!({ "@type": "VirtualLocation", "url": on_base(base, &site.virtual_url) }));
    }
    location
}
