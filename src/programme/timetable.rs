//! The programme as visitors read it (issue 31 item 4): the latest published version's
//! sessions and talks placed in time with their zone's offset, grouped by day, and the
//! filters `day`, `track` and `mode` of `/schedule`. Before the first version is published,
//! the seed's sessions without talks. Pure: built from the content snapshot.

use time::{Date, OffsetDateTime};

use crate::clock::dates::{clock, day_label, iso};
use crate::clock::zone::{Zone, offset_label};
use crate::content::Snapshot;
use crate::content::block::{Block, BlockError};
use crate::repo::content::{Room, Session, Track};
use crate::repo::published::{Published, Talk};
use crate::seed::session_rules::parse_local;

/// The session modes, as the seed writes them and as visitors read them.
pub const MODES: [(&str, &str); 3] = [("in_person", "In person"), ("online", "Online"), ("hybrid", "Hybrid")];

/// The session kinds, as the seed writes them and as visitors read them.
pub const KINDS: [(&str, &str); 8] = [
    ("keynote", "Keynote"),
    ("technical", "Technical session"),
    ("poster", "Poster session"),
    ("workshop", "Workshop"),
    ("panel", "Panel"),
    ("ceremony", "Ceremony"),
    ("break", "Break"),
    ("social", "Social event"),
];

/// What a session kind reads as ("Technical session"), the kind itself when [`KINDS`] does
/// not name it.
pub fn kind_label(kind: &str) -> String {
    label(&KINDS, kind)
}

fn label(table: &[(&'static str, &'static str)], key: &str) -> String {
    table.iter().find(|(k, _)| *k == key).map_or_else(|| key.to_owned(), |(_, label)| (*label).to_owned())
}

/// One session with its times in the event's zone and its room's and track's names.
#[derive(Debug, Clone)]
pub struct TimedSession {
    pub session: Session,
    pub start: OffsetDateTime,
    pub end: OffsetDateTime,
    pub room: String,
    /// The track's name; `None` for a session for everyone.
    pub track: Option<String>,
    /// Its calendar entry's `SEQUENCE` (0 before any version is published).
    pub sequence: i64,
    /// Its talks in order (none before the first version).
    pub talks: Vec<TimedTalk>,
}

/// A talk with its times in the event's zone.
#[derive(Debug, Clone)]
pub struct TimedTalk {
    pub talk: Talk,
    pub start: OffsetDateTime,
    pub end: OffsetDateTime,
}

/// The times every timed item of the programme shows, from its `start` and `end` in the
/// event's zone: one definition for sessions and talks, which templates call alike.
macro_rules! time_labels {
    ($timed:ty) => {
        impl $timed {
            /// `09:00`, the event's wall clock.
            pub fn start_label(&self) -> String {
                clock(self.start.time())
            }

            pub fn end_label(&self) -> String {
                clock(self.end.time())
            }

            /// `2025-03-21T09:00:00+08:00`, for `<time datetime>` and JSON-LD.
            pub fn start_iso(&self) -> String {
                iso(self.start)
            }

            pub fn end_iso(&self) -> String {
                iso(self.end)
            }

            /// The day as pages show it: `Friday, 21 March 2025`.
            pub fn day_label(&self) -> String {
                day_label(self.start.date())
            }
        }
    };
}

time_labels!(TimedSession);
time_labels!(TimedTalk);

impl TimedTalk {
    pub fn slug(&self) -> &str {
        &self.talk.slug
    }

    /// The page of this talk.
    pub fn path(&self) -> String {
        talk_path(&self.talk.slug)
    }

    /// `Ana Cruz, Ben Uy`.
    pub fn authors_label(&self) -> String {
        self.talk.authors.join(", ")
    }
}

/// The page of a talk.
pub fn talk_path(slug: &str) -> String {
    format!("{TALK_PREFIX}{slug}")
}

/// Where talk pages live.
pub const TALK_PREFIX: &str = "/schedule/talks/";

impl TimedSession {
    pub fn slug(&self) -> &str {
        &self.session.slug
    }

    /// The page of this session.
    pub fn path(&self) -> String {
        session_path(&self.session.slug)
    }

    pub fn date(&self) -> Date {
        self.start.date()
    }

    pub fn mode_label(&self) -> String {
        label(&MODES, &self.session.mode)
    }

    pub fn kind_label(&self) -> String {
        label(&KINDS, &self.session.kind)
    }

    /// Whether the session happens at the venue (in person or hybrid).
    pub fn at_venue(&self) -> bool {
        self.session.mode != "online"
    }

    /// Whether the session is streamed (online or hybrid).
    pub fn streamed(&self) -> bool {
        self.session.mode != "in_person"
    }
}

/// The page of a session.
pub fn session_path(slug: &str) -> String {
    format!("{SESSION_PREFIX}{slug}")
}

/// Where session pages live.
pub const SESSION_PREFIX: &str = "/schedule/sessions/";

/// The calendar of a visitor's starred talks (`?talks=a,b`; DESIGN.md section 14), which the
/// `Agenda` island links to.
pub const AGENDA_ICS: &str = "/schedule/agenda.ics";

/// The sessions of one day, in time order.
#[derive(Debug, Clone)]
pub struct Day {
    pub date: Date,
    pub sessions: Vec<TimedSession>,
}

impl Day {
    /// `2025-03-21`: the `day` filter's value and the heading's anchor.
    pub fn key(&self) -> String {
        self.date.to_string()
    }

    pub fn label(&self) -> String {
        day_label(self.date)
    }
}

/// The whole programme in the event's zone.
#[derive(Debug, Clone)]
pub struct Programme {
    pub zone: Zone,
    pub sessions: Vec<TimedSession>,
    pub rooms: Vec<Room>,
    pub tracks: Vec<Track>,
    /// The published version's number and name; `None` before the first.
    pub version: Option<(i64, String)>,
}

/// A session's talks in order, with their times; a talk whose start cannot be read is left
/// out.
fn timed_talks(published: &Published, session: &str, zone: &Zone) -> Vec<TimedTalk> {
    published
        .talks_of(session)
        .filter_map(|talk| {
            let start = zone.localize(parse_local(&talk.starts_at)?);
            let end = start + time::Duration::minutes(talk.minutes);
            Some(TimedTalk { talk: talk.clone(), start, end })
        })
        .collect()
}

impl Programme {
    /// The programme of a snapshot: its latest published version, or the seed's sessions
    /// without talks before the first. A session or talk whose times cannot be read (the
    /// seed's check refuses those) is left out and logged.
    pub fn of(content: &Snapshot) -> Block<Programme> {
        let zone = content.zone.clone();
        let published = content.published.as_ref().map_err(|_| BlockError)?;
        let (sessions, rooms, tracks): (Vec<(Session, i64)>, &[Room], &[Track]) = match published {
            Some(p) => (p.sessions.iter().map(|s| (s.session.clone(), s.sequence)).collect(), &p.rooms, &p.tracks),
            None => (
                content.sessions.as_ref().map_err(|_| BlockError)?.iter().map(|s| (s.clone(), 0)).collect(),
                content.rooms.as_ref().map_err(|_| BlockError)?,
                content.tracks.as_ref().map_err(|_| BlockError)?,
            ),
        };
        let mut timed: Vec<TimedSession> = sessions
            .into_iter()
            .filter_map(|(session, sequence)| {
                let (Some(start), Some(end)) = (parse_local(&session.starts_at), parse_local(&session.ends_at)) else {
                    tracing::warn!(session = %session.slug, "a session's times are not YYYY-MM-DD HH:MM; left out");
                    return None;
                };
                let talks = published.as_ref().map(|p| timed_talks(p, &session.slug, &zone)).unwrap_or_default();
                Some(TimedSession {
                    start: zone.localize(start),
                    end: zone.localize(end),
                    room: rooms
                        .iter()
                        .find(|r| r.slug == session.room)
                        .map_or_else(|| session.room.clone(), |r| r.name.clone()),
                    track: session.track.as_ref().map(|slug| {
                        tracks.iter().find(|t| &t.slug == slug).map_or_else(|| slug.clone(), |t| t.name.clone())
                    }),
                    sequence,
                    talks,
                    session,
                })
            })
            .collect();
        timed.sort_by_key(|s| s.start);
        Ok(Programme {
            zone,
            sessions: timed,
            rooms: rooms.to_vec(),
            tracks: tracks.to_vec(),
            version: published.as_ref().map(|p| (p.number, p.name.clone())),
        })
    }

    /// Every talk with its session, in time order.
    pub fn talks(&self) -> impl Iterator<Item = (&TimedSession, &TimedTalk)> {
        self.sessions.iter().flat_map(|s| s.talks.iter().map(move |t| (s, t)))
    }

    /// A talk by slug, with its session.
    pub fn talk(&self, slug: &str) -> Option<(&TimedSession, &TimedTalk)> {
        self.talks().find(|(_, t)| t.talk.slug == slug)
    }

    pub fn session(&self, slug: &str) -> Option<&TimedSession> {
        self.sessions.iter().find(|s| s.session.slug == slug)
    }

    /// Every day with a session, in order.
    pub fn dates(&self) -> Vec<Date> {
        let mut dates: Vec<Date> = self.sessions.iter().map(TimedSession::date).collect();
        dates.dedup();
        dates
    }

    /// The sessions `filter` keeps, by day.
    pub fn days(&self, filter: &Filter) -> Vec<Day> {
        let mut days: Vec<Day> = Vec::new();
        for session in self.sessions.iter().filter(|s| filter.keeps(s)) {
            match days.last_mut() {
                Some(day) if day.date == session.date() => day.sessions.push(session.clone()),
                _ => days.push(Day { date: session.date(), sessions: vec![session.clone()] }),
            }
        }
        days
    }

    /// The zone's name as visitors say it: `Manila time`.
    pub fn zone_name(&self) -> String {
        format!("{} time", self.zone.city())
    }

    /// The zone in words: `Manila time (UTC+08:00)`; every offset of the conference days when
    /// daylight saving time changes it (`Berlin time (UTC+01:00, then UTC+02:00)`).
    pub fn zone_label(&self) -> String {
        let mut offsets: Vec<String> = self.sessions.iter().map(|s| offset_label(s.start.offset())).collect();
        offsets.dedup();
        if offsets.is_empty() {
            offsets.push(offset_label(self.zone.offset_at(OffsetDateTime::UNIX_EPOCH)));
        }
        let offsets: Vec<String> = offsets.iter().map(|o| format!("UTC{o}")).collect();
        format!("{} ({})", self.zone_name(), offsets.join(", then "))
    }

    /// The track a slug names.
    pub fn track(&self, slug: &str) -> Option<&Track> {
        self.tracks.iter().find(|t| t.slug == slug)
    }

    /// The tracks some session is in, in the tracks' order (what the filter offers).
    pub fn used_tracks(&self) -> Vec<&Track> {
        self.tracks
            .iter()
            .filter(|t| self.sessions.iter().any(|s| s.session.track.as_deref() == Some(&t.slug)))
            .collect()
    }
}

/// What `/schedule` shows: all of it, or one day, one track and/or one mode.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    pub day: Option<Date>,
    pub track: Option<String>,
    pub mode: Option<String>,
}

/// A filter value the programme does not have: the message names what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadFilter(pub String);

impl Filter {
    /// Reads `day`, `track` and `mode` from a query string. An empty value is no filter (the
    /// form's "All" choices); other parameters are ignored (a tracking link's `utm_source`).
    /// A value the programme does not have, or a filter given twice, is refused with the
    /// values allowed.
    pub fn parse(query: &str, programme: &Programme) -> Result<Filter, BadFilter> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query)
            .map_err(|_| BadFilter("The address's query string cannot be read.".into()))?;
        let mut filter = Filter::default();
        let mut seen: Vec<&str> = Vec::new();
        for (name, value) in &pairs {
            let name = match name.as_str() {
                "day" => "day",
                "track" => "track",
                "mode" => "mode",
                _ => continue,
            };
            if seen.contains(&name) {
                return Err(BadFilter(format!("The filter {name} is given twice; give it once.")));
            }
            seen.push(name);
            let value = value.trim();
            if value.is_empty() {
                continue;
            }
            match name {
                "day" => {
                    let dates = programme.dates();
                    let day = dates.iter().find(|d| d.to_string() == value).ok_or_else(|| {
                        let allowed: Vec<String> = dates.iter().map(Date::to_string).collect();
                        BadFilter(format!(
                            "There is no day {value:?} in the programme. Allowed days: {}.",
                            allowed.join(", ")
                        ))
                    })?;
                    filter.day = Some(*day);
                }
                "track" => {
                    let track = programme.track(value).ok_or_else(|| {
                        let allowed: Vec<&str> = programme.tracks.iter().map(|t| t.slug.as_str()).collect();
                        BadFilter(format!("There is no track {value:?}. Allowed tracks: {}.", allowed.join(", ")))
                    })?;
                    filter.track = Some(track.slug.clone());
                }
                _ => {
                    if !MODES.iter().any(|(m, _)| *m == value) {
                        let allowed: Vec<&str> = MODES.iter().map(|(m, _)| *m).collect();
                        return Err(BadFilter(format!(
                            "There is no mode {value:?}. Allowed modes: {}.",
                            allowed.join(", ")
                        )));
                    }
                    filter.mode = Some(value.to_owned());
                }
            }
        }
        Ok(filter)
    }

    pub fn is_empty(&self) -> bool {
        self == &Filter::default()
    }

    /// Whether `session` shows under this filter.
    pub fn keeps(&self, session: &TimedSession) -> bool {
        self.day.is_none_or(|day| session.date() == day)
            && self.track.as_ref().is_none_or(|track| session.session.track.as_ref() == Some(track))
            && self.mode.as_ref().is_none_or(|mode| &session.session.mode == mode)
    }

    /// The query string of this filter in a fixed order (`day=…&track=…&mode=…`), empty for
    /// none: one page-cache entry per filter however the visitor wrote it.
    pub fn query(&self) -> String {
        let mut pairs: Vec<(&str, String)> = Vec::new();
        if let Some(day) = self.day {
            pairs.push(("day", day.to_string()));
        }
        if let Some(track) = &self.track {
            pairs.push(("track", track.clone()));
        }
        if let Some(mode) = &self.mode {
            pairs.push(("mode", mode.clone()));
        }
        serde_urlencoded::to_string(pairs).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn session(slug: &str, track: Option<&str>, mode: &str, starts_at: &str, ends_at: &str) -> Session {
        Session {
            slug: slug.into(),
            title: slug.into(),
            description: String::new(),
            kind: "technical".into(),
            track: track.map(Into::into),
            room: "hall".into(),
            starts_at: starts_at.into(),
            ends_at: ends_at.into(),
            mode: mode.into(),
            chair: None,
            speaker: None,
            created: String::new(),
            updated: String::new(),
        }
    }

    fn programme() -> Programme {
        let zone = Zone::fixed("Asia/Manila", time::UtcOffset::from_hms(8, 0, 0).unwrap());
        let sessions = [
            session("b", Some("t1"), "online", "2025-03-22 09:00", "2025-03-22 10:00"),
            session("a", None, "hybrid", "2025-03-21 09:00", "2025-03-21 10:00"),
        ];
        let mut timed: Vec<TimedSession> = sessions
            .into_iter()
            .map(|s| TimedSession {
                start: zone.localize(parse_local(&s.starts_at).unwrap()),
                end: zone.localize(parse_local(&s.ends_at).unwrap()),
                room: "Hall".into(),
                track: s.track.clone(),
                sequence: 0,
                talks: Vec::new(),
                session: s,
            })
            .collect();
        timed.sort_by_key(|s| s.start);
        Programme {
            zone,
            sessions: timed,
            rooms: vec![Room { slug: "hall".into(), name: "Hall".into() }],
            tracks: vec![Track { slug: "t1".into(), name: "Track one".into() }],
            version: None,
        }
    }

    #[test]
    fn filters_read_known_values_and_name_the_allowed_ones() {
        let p = programme();
        let f = Filter::parse("track=t1&utm_source=x&day=&mode=online", &p).unwrap();
        assert_eq!(f.query(), "track=t1&mode=online");
        assert_eq!(Filter::parse("mode=online&day=2025-03-22", &p).unwrap().query(), "day=2025-03-22&mode=online");
        let err = Filter::parse("day=2025-03-24", &p).unwrap_err().0;
        assert!(err.contains("Allowed days: 2025-03-21, 2025-03-22"), "{err}");
        let err = Filter::parse("mode=remote", &p).unwrap_err().0;
        assert!(err.contains("Allowed modes: in_person, online, hybrid"), "{err}");
        assert!(Filter::parse("track=t1&track=t2", &p).unwrap_err().0.contains("twice"));
        assert_eq!(p.days(&Filter::parse("mode=online", &p).unwrap()).len(), 1);
    }

    #[test]
    fn times_carry_the_zone_offset() {
        let p = programme();
        assert_eq!(p.sessions[0].start, datetime!(2025-03-21 09:00 +8));
        assert_eq!(p.sessions[0].start_iso(), "2025-03-21T09:00:00+08:00");
        assert_eq!(p.sessions[0].day_label(), "Friday, 21 March 2025");
        assert_eq!(p.zone_label(), "Manila time (UTC+08:00)");
    }
}
