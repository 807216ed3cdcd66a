//! The programme as the frab / c3voc schedule (issue 31 item 5, DESIGN.md section 14): what
//! attendee apps (Giggity, EventFahrplan, pyfahrplan, engelsystem, info-beamer) load from
//! `/schedule.xml` and `/schedule.json`. [`schedule`] builds one [`Frab`] from the latest
//! published version ([`Programme::of`]); [`Frab::to_xml`] and [`Frab::to_json`] write it in
//! the two forms, valid against the format's XSD and JSON Schema (`tests/schemas/`).
//!
//! Which events there are: every talk is an event (a keynote is the talk its speaker gives);
//! a session without talks is one event of its own (an opening, a break, a technical session
//! before papers are placed in it, every session before the first version is published). A
//! session with talks is no event itself: its talks carry its room, track and title (as their
//! `subtitle`, unless it is the talk's own title) and link to its page.
//!
//! Identifiers stay the same across versions, since apps keep stars and alarms by them:
//! - `guid`: a name-based UUID (RFC 9562 version 5, SHA-1) in the site's namespace, itself
//!   `uuid5(NAMESPACE_DNS, host of PUBLIC_URL)`, of `talk/<talk slug>`,
//!   `session/<session slug>`, `room/<room slug>` or `person/<name in lower case>`. Talk slugs
//!   keep the one they were first published under (`super::draft`), session and room slugs
//!   are the seed's. Python's `uuid.uuid5` gives the same values.
//! - `id` (the format's older integer key, 32-bit in apps): 30 bits of the `guid` above 2^30,
//!   so from 2^30 to 2^31 - 1 (ten digits). Two guids that share them (about one programme of 300
//!   events in 25 000) are told apart by taking the next free number, in `guid` order.
//! - `slug`: `<acronym>-<id>-<slug>`, the c3voc convention (the recording pipeline names
//!   files by it), unique because the id is.
//!
//! Public data only (DESIGN.md section 14): titles, names, affiliations, the public abstract;
//! never an e-mail address, phone number or the paper file.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;
use serde::ser::SerializeMap;
use time::{Date, Duration};
use uuid::Uuid;

use super::timetable::{Programme, TimedSession, TimedTalk, session_path, talk_path};
use crate::clock::dates::iso;
use crate::repo::content::Site;

/// `<version>` before any version is published: the format needs one, and apps show it.
pub const UNPUBLISHED: &str = "unpublished";

/// The grid apps draw the timetable on (`timeslot_duration`); talks last whole minutes, the
/// seed's sessions start on five-minute marks.
pub const TIMESLOT: &str = "00:05";

/// Every talk and session is given in English (the conference's language).
pub const LANGUAGE: &str = "en";

/// The JSON Schema `/schedule.json` names as its `$schema` (the published location of
/// `tests/schemas/frab-schedule.schema.json`).
pub const JSON_SCHEMA: &str = "https://c3voc.de/schedule/schema.json";

/// The whole export: the JSON document's top level; the XML has the same content.
#[derive(Debug, Clone, Serialize)]
pub struct Frab {
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    pub generator: Generator,
    pub schedule: Schedule,
}

/// What wrote the export (this crate, by name and version).
#[derive(Debug, Clone, Serialize)]
pub struct Generator {
    pub name: &'static str,
    pub version: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct Schedule {
    /// The published version's name, or [`UNPUBLISHED`].
    pub version: String,
    /// `PUBLIC_URL` with a trailing `/`.
    pub base_url: String,
    /// Where the XML form is served (its top-level `<url>`).
    #[serde(skip)]
    pub url: String,
    pub conference: Conference,
}

#[derive(Debug, Clone, Serialize)]
pub struct Conference {
    /// Made from the site's short name ([`acronym`]).
    pub acronym: String,
    pub title: String,
    /// The first and last day, `YYYY-MM-DD`.
    pub start: String,
    pub end: String,
    #[serde(rename = "daysCount")]
    pub days_count: usize,
    pub timeslot_duration: &'static str,
    /// `site.time_zone`, IANA.
    pub time_zone_name: String,
    /// The site's home page.
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logo: Option<String>,
    pub tracks: Vec<TrackRef>,
    pub rooms: Vec<RoomRef>,
    pub days: Vec<Day>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TrackRef {
    pub name: String,
    /// The seed's slug when both schemas accept it (lower-case letters, digits and hyphens,
    /// a letter first, no hyphen last); left out otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RoomRef {
    pub name: String,
    pub guid: String,
}

/// A day of the conference: its date, the span of its sessions (midnight to midnight for a
/// day without any) and its events by room.
#[derive(Debug, Clone, Serialize)]
pub struct Day {
    /// 1, 2, ...
    pub index: usize,
    pub date: String,
    pub day_start: String,
    pub day_end: String,
    pub rooms: Rooms,
}

/// A day's events by room name, rooms in the programme's order (a JSON object keeps it).
#[derive(Debug, Clone, Default)]
pub struct Rooms(pub Vec<(RoomRef, Vec<Event>)>);

impl Serialize for Rooms {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (room, events) in &self.0 {
            map.serialize_entry(&room.name, events)?;
        }
        map.end()
    }
}

/// One talk, or one session without talks (see the module's rule).
#[derive(Debug, Clone, Serialize)]
pub struct Event {
    pub guid: String,
    pub id: u32,
    /// The start with the zone's offset, `2025-03-21T09:00:00+08:00`.
    pub date: String,
    /// `HH:MM`, the event's wall clock.
    pub start: String,
    /// The end like `date` (the JSON form only; the XML has no element for it).
    pub end: String,
    /// `HH:MM`.
    pub duration: String,
    pub room: String,
    pub slug: String,
    /// The talk's or session's page.
    pub url: String,
    pub title: String,
    /// A talk's session, unless it has the talk's own title; none for a session.
    pub subtitle: Option<String>,
    /// The track's name; none for a session for everyone.
    pub track: Option<String>,
    /// `talk`, `poster` or `keynote` for a talk; the session's kind (`ceremony`, `break`,
    /// `technical`, ...) for a session.
    #[serde(rename = "type")]
    pub kind: String,
    pub language: &'static str,
    /// A talk's public abstract (a keynote speaker's biography); a session's description.
    pub r#abstract: String,
    /// The facts a page shows beside it, one per line (authors, affiliation, session, chair).
    pub description: String,
    pub persons: Vec<Person>,
    pub links: Vec<Link>,
}

/// Someone who gives a talk: an author of the paper or the keynote speaker. `guid` and `id`
/// follow the name, so the same person in two talks is one person in the apps.
#[derive(Debug, Clone, Serialize)]
pub struct Person {
    pub name: String,
    pub guid: String,
    pub id: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Link {
    pub url: String,
    pub title: String,
}

/// The export of `programme` for `site`, served at `base_url` (`PUBLIC_URL`, no trailing `/`).
pub fn schedule(programme: &Programme, site: &Site, base_url: &str) -> Frab {
    let namespace = site_namespace(base_url);
    let acronym = acronym(&site.short_name);
    let absolute = |path: &str| format!("{base_url}{path}");

    // Every event with its session's index, then their ids and slugs (which need them all).
    let mut drafts: Vec<(usize, Event)> = Vec::new();
    for (index, session) in programme.sessions.iter().enumerate() {
        if session.talks.is_empty() {
            drafts.push((index, session_event(session, &namespace, &absolute)));
        }
        for talk in &session.talks {
            drafts.push((index, talk_event(session, talk, &namespace, &absolute)));
        }
    }
    let event_ids = ids(drafts.iter().map(|(_, e)| e.guid.clone()).collect());
    let person_ids = ids(drafts.iter().flat_map(|(_, e)| e.persons.iter().map(|p| p.guid.clone())).collect());
    for (_, event) in &mut drafts {
        event.id = event_ids[&event.guid];
        event.slug = format!("{acronym}-{}-{}", event.id, plain(&event.slug));
        for person in &mut event.persons {
            person.id = person_ids[&person.guid];
        }
    }

    let rooms = room_refs(programme, &namespace);
    let days = days(programme, site, &rooms, drafts);
    let first = days.first().map(|d| d.date.clone()).unwrap_or_else(|| site.start_date.clone());
    let last = days.last().map(|d| d.date.clone()).unwrap_or_else(|| site.end_date.clone());
    let logo = match site.logo.trim() {
        "" => None,
        logo if logo.starts_with("https://") || logo.starts_with("http://") => Some(logo.to_owned()),
        logo => Some(absolute(logo)),
    };
    Frab {
        schema: JSON_SCHEMA,
        generator: Generator { name: env!("CARGO_PKG_NAME"), version: env!("CARGO_PKG_VERSION") },
        schedule: Schedule {
            version: programme.version.as_ref().map_or_else(|| UNPUBLISHED.to_owned(), |(_, name)| name.clone()),
            base_url: format!("{base_url}/"),
            url: absolute("/schedule.xml"),
            conference: Conference {
                acronym,
                title: site.name.clone(),
                start: first,
                end: last,
                days_count: days.len(),
                timeslot_duration: TIMESLOT,
                time_zone_name: programme.zone.name.clone(),
                url: format!("{base_url}/"),
                logo,
                tracks: programme
                    .tracks
                    .iter()
                    .map(|t| TrackRef { name: t.name.clone(), slug: slug_of_both(&t.slug).then(|| t.slug.clone()) })
                    .collect(),
                rooms,
                days,
            },
        },
    }
}

fn session_event(session: &TimedSession, namespace: &Uuid, absolute: &dyn Fn(&str) -> String) -> Event {
    let mut facts = vec![format!("{} · {}", session.kind_label(), session.mode_label())];
    if let Some(chair) = &session.session.chair {
        facts.push(format!("Chair: {chair}"));
    }
    Event {
        guid: uuid5(namespace, &format!("session/{}", session.slug())).to_string(),
        id: 0,
        date: iso(session.start),
        start: session.start_label(),
        end: iso(session.end),
        duration: duration(session.end - session.start),
        room: session.room.clone(),
        slug: session.slug().to_owned(),
        url: absolute(&session_path(session.slug())),
        title: session.session.title.clone(),
        subtitle: None,
        track: session.track.clone(),
        kind: session.session.kind.clone(),
        language: LANGUAGE,
        r#abstract: session.session.description.clone(),
        description: facts.join("\n"),
        persons: Vec::new(),
        links: Vec::new(),
    }
}

fn talk_event(session: &TimedSession, talk: &TimedTalk, namespace: &Uuid, absolute: &dyn Fn(&str) -> String) -> Event {
    let t = &talk.talk;
    // A keynote's speaker, with their role; a paper's authors, affiliation and presenter.
    let mut facts = match t.speaker {
        Some(_) => vec![format!("Speaker: {}", t.authors.join(", "))],
        None => vec![format!("Authors: {}", t.authors.join(", "))],
    };
    if !t.affiliation.trim().is_empty() {
        facts.push(format!("{}: {}", if t.speaker.is_some() { "Role" } else { "Affiliation" }, t.affiliation.trim()));
    }
    if t.authors.len() > 1 && !t.presenter.is_empty() {
        facts.push(format!("Presenter: {}", t.presenter));
    }
    if session.session.title == t.title {
        facts.push(format!("{} · {}", session.kind_label(), session.mode_label()));
    } else {
        facts.push(format!("Session: {} ({}, {})", session.session.title, session.kind_label(), session.mode_label()));
    }
    if let Some(chair) = &session.session.chair {
        facts.push(format!("Chair: {chair}"));
    }
    let kind = match t.format.as_str() {
        "Oral" => "talk".to_owned(),
        other => other.to_lowercase(),
    };
    Event {
        guid: uuid5(namespace, &format!("talk/{}", t.slug)).to_string(),
        id: 0,
        date: iso(talk.start),
        start: talk.start_label(),
        end: iso(talk.end),
        duration: duration(talk.end - talk.start),
        room: session.room.clone(),
        slug: t.slug.clone(),
        url: absolute(&talk_path(&t.slug)),
        title: t.title.clone(),
        subtitle: (session.session.title != t.title).then(|| session.session.title.clone()),
        track: session.track.clone(),
        kind,
        language: LANGUAGE,
        r#abstract: t.r#abstract.clone(),
        description: facts.join("\n"),
        persons: t
            .authors
            .iter()
            .map(|name| Person {
                name: name.clone(),
                guid: uuid5(namespace, &format!("person/{}", name.trim().to_lowercase())).to_string(),
                id: 0,
            })
            .collect(),
        links: vec![Link { url: absolute(&session_path(session.slug())), title: session.session.title.clone() }],
    }
}

/// The rooms by name, in the programme's order, then any a session names that the room list
/// lacks (a session shows its room's slug then).
fn room_refs(programme: &Programme, namespace: &Uuid) -> Vec<RoomRef> {
    let mut rooms: Vec<RoomRef> = Vec::new();
    let known = programme.rooms.iter().map(|r| (r.name.clone(), r.slug.clone()));
    let others = programme.sessions.iter().map(|s| (s.room.clone(), s.session.room.clone()));
    for (name, slug) in known.chain(others) {
        if !rooms.iter().any(|r| r.name == name) {
            rooms.push(RoomRef { guid: uuid5(namespace, &format!("room/{slug}")).to_string(), name });
        }
    }
    rooms
}

/// The conference's days: the site's `start_date` to `end_date` and any other day a session
/// starts on, each with its events by room. `events` come in the programme's order (sessions
/// by start, talks by position), which is each room's time order: a room holds one session
/// at a time (`seed --check`).
fn days(programme: &Programme, site: &Site, rooms: &[RoomRef], events: Vec<(usize, Event)>) -> Vec<Day> {
    let mut dates: BTreeSet<Date> = programme.sessions.iter().map(TimedSession::date).collect();
    let format = time::macros::format_description!("[year]-[month]-[day]");
    if let (Ok(from), Ok(to)) = (Date::parse(&site.start_date, format), Date::parse(&site.end_date, format)) {
        // A year at most: a typo in the seed must not make thousands of days.
        let mut day = from;
        while day <= to && (day - from).whole_days() <= 366 {
            dates.insert(day);
            let Some(next) = day.next_day() else { break };
            day = next;
        }
    }
    dates
        .into_iter()
        .enumerate()
        .map(|(index, date)| {
            let sessions: Vec<&TimedSession> = programme.sessions.iter().filter(|s| s.date() == date).collect();
            let start = sessions.iter().map(|s| s.start).min();
            let end = sessions.iter().map(|s| s.end).max();
            let midnight = programme.zone.localize(date.midnight());
            let mut by_room: Vec<(RoomRef, Vec<Event>)> = Vec::new();
            for room in rooms {
                let here: Vec<Event> = events
                    .iter()
                    .filter(|(session, event)| programme.sessions[*session].date() == date && event.room == room.name)
                    .map(|(_, event)| event.clone())
                    .collect();
                if !here.is_empty() {
                    by_room.push((room.clone(), here));
                }
            }
            Day {
                index: index + 1,
                date: date.to_string(),
                day_start: iso(start.unwrap_or(midnight)),
                day_end: iso(end.unwrap_or_else(|| programme.zone.localize((date + Duration::days(1)).midnight()))),
                rooms: Rooms(by_room),
            }
        })
        .collect()
}

/// `01:30` for 90 minutes; at most `99:59`, the longest both schemas' `HH:MM` can say.
fn duration(span: Duration) -> String {
    let minutes = span.whole_minutes().clamp(0, 99 * 60 + 59);
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// The site's short name as the format's acronym: lower-case ASCII letters and digits, any
/// other run of characters one `_` (`ICSIFT 2025` → `icsift_2025`); at least four characters,
/// as both schemas require (`conference` when nothing is left).
pub fn acronym(short_name: &str) -> String {
    let mut acronym = String::new();
    for c in short_name.chars() {
        if c.is_ascii_alphanumeric() {
            acronym.push(c.to_ascii_lowercase());
        } else if !acronym.is_empty() && !acronym.ends_with('_') {
            acronym.push('_');
        }
    }
    let acronym = acronym.trim_end_matches('_').to_owned();
    match acronym.len() {
        0 => "conference".to_owned(),
        1..=3 => format!("{acronym}_conference"),
        _ => acronym,
    }
}

/// A slug as the event's `slug` ends: lower-case letters and digits joined by single hyphens
/// (`event` when none are left).
fn plain(slug: &str) -> String {
    let mut out = String::new();
    for c in slug.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() { "event".to_owned() } else { out.to_owned() }
}

/// Whether `slug` is a track slug to both schemas: `[a-z][a-z0-9-]+` (XSD) that does not end
/// in `-` (JSON Schema).
fn slug_of_both(slug: &str) -> bool {
    let bytes = slug.as_bytes();
    bytes.len() >= 2
        && bytes[0].is_ascii_lowercase()
        && bytes.iter().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && !slug.ends_with('-')
}

/// The namespace of this site's UUIDs: `uuid5(NAMESPACE_DNS, host)`, the host of `PUBLIC_URL`.
pub fn site_namespace(base_url: &str) -> Uuid {
    let host = url::Url::parse(base_url).ok().and_then(|u| u.host_str().map(str::to_owned));
    uuid5(&Uuid::NAMESPACE_DNS, host.as_deref().unwrap_or("localhost"))
}

/// A name-based UUID, version 5 (RFC 9562 section 5.5): SHA-1 of the namespace's bytes and the
/// name. SHA-1 comes from `ring`, already a dependency: `uuid`'s own `v5` feature would add a
/// SHA-1 crate of its own (`sha1_smol`).
pub fn uuid5(namespace: &Uuid, name: &str) -> Uuid {
    let mut input = Vec::with_capacity(16 + name.len());
    input.extend_from_slice(namespace.as_bytes());
    input.extend_from_slice(name.as_bytes());
    let digest = ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, &input);
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest.as_ref()[..16]);
    uuid::Builder::from_sha1_bytes(bytes).into_uuid()
}

/// The lowest `id` (2^30) and the span of them: ten digits, within a signed 32-bit integer.
const ID_BASE: u32 = 1 << 30;

/// An `id` for each guid (the module's rule): 30 bits of it above [`ID_BASE`]; a number
/// already taken by a guid earlier in order moves to the next free one.
fn ids(guids: BTreeSet<String>) -> HashMap<String, u32> {
    let mut taken: BTreeSet<u32> = BTreeSet::new();
    let mut ids = HashMap::new();
    for guid in guids {
        let bits = Uuid::parse_str(&guid).map_or(0, |u| {
            let b = u.as_bytes();
            u32::from_be_bytes([b[0], b[1], b[2], b[3]])
        });
        let mut id = ID_BASE | (bits >> 2);
        while !taken.insert(id) {
            id = if id == u32::MAX >> 1 { ID_BASE } else { id + 1 };
        }
        ids.insert(guid, id);
    }
    ids
}

/// Where a value is written in XML: text between tags, or an attribute in double quotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum In {
    Text,
    Attribute,
}

/// `text` as XML 1.0 character data (section 2.4, 3.3.3): `&`, `<`, `>`, `"` and `'` as
/// entities; a carriage return as `&#13;` (a parser would turn it into a line feed); in an
/// attribute, tab and line feed as references too (a parser would turn them into spaces).
/// A character XML 1.0 cannot carry at all (control characters other than tab, line feed and
/// carriage return; U+FFFE, U+FFFF) becomes U+FFFD: a title pasted with a stray control
/// character must not make the whole document unreadable.
pub fn escape(text: &str, place: In) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\r' => out.push_str("&#13;"),
            '\n' if place == In::Attribute => out.push_str("&#10;"),
            '\t' if place == In::Attribute => out.push_str("&#9;"),
            '\t' | '\n' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// An indented XML document written element by element.
struct Xml {
    out: String,
    depth: usize,
}

impl Xml {
    fn start_tag(&mut self, name: &str, attributes: &[(&str, &str)]) {
        self.out.push_str(&"  ".repeat(self.depth));
        self.out.push('<');
        self.out.push_str(name);
        for (key, value) in attributes {
            self.out.push_str(&format!(" {key}=\"{}\"", escape(value, In::Attribute)));
        }
    }

    fn open(&mut self, name: &str, attributes: &[(&str, &str)]) {
        self.start_tag(name, attributes);
        self.out.push_str(">\n");
        self.depth += 1;
    }

    fn close(&mut self, name: &str) {
        self.depth -= 1;
        self.out.push_str(&format!("{}</{name}>\n", "  ".repeat(self.depth)));
    }

    /// `<name attributes>text</name>`, or `<name attributes/>` for no text.
    fn leaf(&mut self, name: &str, attributes: &[(&str, &str)], text: &str) {
        self.start_tag(name, attributes);
        if text.is_empty() {
            self.out.push_str("/>\n");
        } else {
            self.out.push_str(&format!(">{}</{name}>\n", escape(text, In::Text)));
        }
    }
}

impl Frab {
    /// The JSON form (`/schedule.json`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The XML form (`/schedule.xml`): `<schedule>` with `<generator>`, `<url>`, `<version>`,
    /// `<conference>` and one `<day>` per day, its rooms and their events. Absent values are
    /// empty elements (`<subtitle/>`, `<track/>`), as frab writes them.
    pub fn to_xml(&self) -> String {
        let s = &self.schedule;
        let c = &s.conference;
        let mut x = Xml { out: String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"), depth: 0 };
        x.open("schedule", &[]);
        x.leaf("generator", &[("name", self.generator.name), ("version", self.generator.version)], "");
        x.leaf("url", &[], &s.url);
        x.leaf("version", &[], &s.version);
        x.open("conference", &[]);
        x.leaf("acronym", &[], &c.acronym);
        x.leaf("title", &[], &c.title);
        x.leaf("start", &[], &c.start);
        x.leaf("end", &[], &c.end);
        x.leaf("days", &[], &c.days_count.to_string());
        x.leaf("timeslot_duration", &[], c.timeslot_duration);
        x.leaf("base_url", &[], &s.base_url);
        if let Some(logo) = &c.logo {
            x.leaf("logo", &[], logo);
        }
        x.leaf("url", &[], &c.url);
        x.leaf("time_zone_name", &[], &c.time_zone_name);
        for track in &c.tracks {
            let mut attributes = vec![("name", track.name.as_str())];
            if let Some(slug) = &track.slug {
                attributes.push(("slug", slug));
            }
            x.leaf("track", &attributes, "");
        }
        x.close("conference");
        for day in &c.days {
            let index = day.index.to_string();
            x.open("day", &[("index", &index), ("date", &day.date), ("start", &day.day_start), ("end", &day.day_end)]);
            for (room, events) in &day.rooms.0 {
                x.open("room", &[("name", &room.name), ("guid", &room.guid)]);
                for event in events {
                    let id = event.id.to_string();
                    x.open("event", &[("guid", &event.guid), ("id", &id)]);
                    x.leaf("date", &[], &event.date);
                    x.leaf("start", &[], &event.start);
                    x.leaf("duration", &[], &event.duration);
                    x.leaf("room", &[], &event.room);
                    x.leaf("slug", &[], &event.slug);
                    x.leaf("url", &[], &event.url);
                    x.leaf("title", &[], &event.title);
                    x.leaf("subtitle", &[], event.subtitle.as_deref().unwrap_or(""));
                    x.leaf("track", &[], event.track.as_deref().unwrap_or(""));
                    x.leaf("type", &[], &event.kind);
                    x.leaf("language", &[], event.language);
                    x.leaf("abstract", &[], &event.r#abstract);
                    x.leaf("description", &[], &event.description);
                    if event.persons.is_empty() {
                        x.leaf("persons", &[], "");
                    } else {
                        x.open("persons", &[]);
                        for person in &event.persons {
                            let id = person.id.to_string();
                            x.leaf("person", &[("id", &id), ("guid", &person.guid)], &person.name);
                        }
                        x.close("persons");
                    }
                    if event.links.is_empty() {
                        x.leaf("links", &[], "");
                    } else {
                        x.open("links", &[]);
                        for link in &event.links {
                            x.leaf("link", &[("href", &link.url)], &link.title);
                        }
                        x.close("links");
                    }
                    x.close("event");
                }
                x.close("room");
            }
            x.close("day");
        }
        x.close("schedule");
        x.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_writes_markup_characters_as_entities_and_replaces_what_xml_cannot_carry() {
        assert_eq!(
            escape("Tides & <Lanterns> \"quoted\" 'single'", In::Text),
            "Tides &amp; &lt;Lanterns&gt; &quot;quoted&quot; &apos;single&apos;"
        );
        assert_eq!(escape("a\tb\nc\rd", In::Text), "a\tb\nc&#13;d");
        assert_eq!(escape("a\tb\nc\rd", In::Attribute), "a&#9;b&#10;c&#13;d");
        assert_eq!(escape("bell\u{7} nul\u{0} \u{FFFF}", In::Text), "bell\u{FFFD} nul\u{FFFD} \u{FFFD}");
        assert_eq!(escape("Ñandú 東京 \u{1F30A}", In::Attribute), "Ñandú 東京 \u{1F30A}");
        assert_eq!(escape("&amp;", In::Text), "&amp;amp;", "escaped once more: the text is not markup");
    }

    #[test]
    fn uuid5_matches_other_implementations() {
        // Python: uuid.uuid5(uuid.NAMESPACE_DNS, "python.org"), and the site namespace of
        // `conf.example.org` with a talk's and a session's name in it.
        assert_eq!(uuid5(&Uuid::NAMESPACE_DNS, "python.org").to_string(), "886313e1-3b8a-5372-9b90-0c9aee199e5d");
        let site = site_namespace("https://conf.example.org");
        assert_eq!(site.to_string(), "91f238c4-7d60-59f9-a0a1-9427bc9e807b");
        assert_eq!(site_namespace("http://conf.example.org:8080/"), site, "the host alone counts");
        assert_eq!(uuid5(&site, "talk/solar-microgrids").to_string(), "eaee4eee-295b-5b6e-8559-34f72ea6bd25");
        assert_eq!(uuid5(&site, "session/opening").to_string(), "14c093d6-5c10-5fe5-b707-3c4ab1e7b5db");
    }

    #[test]
    fn ids_are_ten_digits_stable_and_distinct_even_when_guids_share_their_bits() {
        let a = "4a8f0c1e-0000-5000-8000-000000000001";
        let b = "4a8f0c1e-0000-5000-8000-000000000002";
        let c = "ffffffff-0000-5000-8000-000000000003";
        let set = |guids: [&str; 3]| guids.iter().map(|g| (*g).to_owned()).collect::<BTreeSet<String>>();
        let ids = ids(set([c, b, a]));
        assert_eq!(ids[a], ID_BASE | (0x4a8f_0c1e >> 2));
        assert_eq!(ids[b], ids[a] + 1, "the later guid takes the next number");
        assert_eq!(ids[c], u32::MAX >> 1, "the highest id fits a signed 32-bit integer");
        assert!(ids.values().all(|id| id.to_string().len() == 10));
    }

    #[test]
    fn acronyms_and_slugs_fit_both_schemas() {
        assert_eq!(acronym("ICSIFT 2025"), "icsift_2025");
        assert_eq!(acronym("  FIXCON—2025!  "), "fixcon_2025");
        assert_eq!(acronym("AB"), "ab_conference");
        assert_eq!(acronym("—"), "conference");
        assert_eq!(plain("Tide_Room A--"), "tide-room-a");
        assert_eq!(plain("東京"), "event");
        assert!(slug_of_both("tidal-computing"));
        assert!(!slug_of_both("1st-track") && !slug_of_both("track-") && !slug_of_both("Track"));
        assert_eq!(duration(Duration::minutes(90)), "01:30");
        assert_eq!(duration(Duration::hours(200)), "99:59");
    }
}
