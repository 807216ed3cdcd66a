//! A talk as a calendar entry (issue 31 items 3 and 5; RFC 5545): one `VEVENT` whose `UID`
//! (`talk-<slug>@<host>`) stays the same across versions and whose `SEQUENCE` is the talk's,
//! so the `.ics` a moved talk's mail carries replaces the entry an author added before.
//! Built with the `icalendar` crate from the published version alone, so domain code (the
//! mail, made inside the publishing transaction) and pages can both make it.
//!
//! [`host_of`], [`one_newline`] and [`calendar`] are the rules every calendar of the site
//! follows ([`super::feeds`] and [`super::dates`] use them too).

use icalendar::{Calendar, Component, DatePerhapsTime, Event, EventLike, Property};
use time::OffsetDateTime;

use crate::clock::zone::Zone;
use crate::programme::timetable::{MODES, TimedSession, TimedTalk, talk_path};
use crate::repo::content::Site;
use crate::repo::published::{Published, Talk};
use crate::seed::session_rules::parse_local;

/// A talk placed in time: what its calendar entry, its mail and the author's status page
/// show. Times carry the event zone's offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TalkEntry {
    pub talk: Talk,
    pub start: OffsetDateTime,
    pub end: OffsetDateTime,
    /// The session's title.
    pub session: String,
    /// The room's name.
    pub room: String,
    /// The session's mode as the seed writes it: `in_person`, `online` or `hybrid`.
    pub mode: String,
}

impl TalkEntry {
    /// `talk` of `published`, in `zone`; `None` when its start cannot be read (the seed's
    /// check and the draft never write such a talk).
    pub fn of(published: &Published, talk: &Talk, zone: &Zone) -> Option<TalkEntry> {
        let start = zone.localize(parse_local(&talk.starts_at)?);
        let session = published.session(&talk.session).map(|s| &s.session);
        let room = session.map_or_else(String::new, |s| {
            published.rooms.iter().find(|r| r.slug == s.room).map_or_else(|| s.room.clone(), |r| r.name.clone())
        });
        Some(TalkEntry {
            talk: talk.clone(),
            start,
            end: start + time::Duration::minutes(talk.minutes),
            session: session.map_or_else(|| talk.session.clone(), |s| s.title.clone()),
            room,
            mode: session.map_or_else(|| "in_person".to_owned(), |s| s.mode.clone()),
        })
    }

    /// A talk of the visitors' timetable (`crate::programme::Programme`) with its session.
    pub fn timed(session: &TimedSession, talk: &TimedTalk) -> TalkEntry {
        TalkEntry {
            talk: talk.talk.clone(),
            start: talk.start,
            end: talk.end,
            session: session.session.title.clone(),
            room: session.room.clone(),
            mode: session.session.mode.clone(),
        }
    }

    /// `In person`, `Online` or `Hybrid`.
    pub fn mode_label(&self) -> String {
        MODES.iter().find(|(key, _)| *key == self.mode).map_or_else(|| self.mode.clone(), |(_, l)| (*l).to_owned())
    }

    /// Whether the talk is given at the venue (in person or hybrid).
    pub fn at_venue(&self) -> bool {
        self.mode != "online"
    }

    /// Where calendars say it is: `Tide Room A, Quillmouth Institute, Port Quill`, or
    /// `Online Room (online)`.
    pub fn location(&self, site: &Site) -> String {
        if self.at_venue() {
            format!("{}, {}, {}", self.room, site.venue_name, site.city)
        } else {
            format!("{} (online)", self.room)
        }
    }

    /// The talk's page, absolute: `PUBLIC_URL/schedule/talks/<slug>`.
    pub fn url(&self, base_url: &str) -> String {
        format!("{}{}", base_url.trim_end_matches('/'), talk_path(&self.talk.slug))
    }

    /// The talk's `VEVENT`: `UID` `talk-<slug>@<host>`, its `SEQUENCE`, start and end in UTC,
    /// title, location, page and, in the description, authors and affiliation, presenter,
    /// format, session and mode, and the public abstract. `stamp` is when this version of the
    /// entry was made (`DTSTAMP`): the version's publication. `/schedule.ics`,
    /// `/schedule/talks/<slug>.ics` and the agenda write the same entry.
    pub fn event(&self, site: &Site, base_url: &str, stamp: OffsetDateTime) -> Event {
        let url = self.url(base_url);
        let t = &self.talk;
        let mut lines = vec![t.authors.join(", ")];
        if !t.affiliation.is_empty() {
            lines.push(t.affiliation.clone());
        }
        lines.push(format!("Presented by {}", t.presenter));
        lines.push(format!("{} in {} ({})", t.format, self.session, self.mode_label()));
        if !t.r#abstract.is_empty() {
            lines.push(String::new());
            lines.push(t.r#abstract.clone());
        }
        lines.push(String::new());
        lines.push(url.clone());
        let mut event = Event::new();
        event
            .uid(&format!("talk-{}@{}", t.slug, host_of(base_url)))
            .append_property(DatePerhapsTime::from(stamp).to_property("DTSTAMP"))
            .sequence(u32::try_from(t.sequence).unwrap_or(0))
            .starts(self.start)
            .ends(self.end)
            .summary(&one_newline(&t.title))
            .description(&one_newline(&lines.join("\n")))
            .location(&one_newline(&self.location(site)))
            .url(&url);
        event.done()
    }

    /// A calendar holding this talk's entry alone (`/schedule/talks/<slug>.ics`, the moved
    /// talk's attachment).
    pub fn calendar(&self, site: &Site, base_url: &str, stamp: OffsetDateTime) -> String {
        let mut calendar = calendar(&site.short_name, &format!("{}: {}", site.short_name, self.talk.title));
        calendar.push(self.event(site, base_url, stamp));
        calendar.to_string()
    }
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
pub fn calendar(short_name: &str, calendar_name: &str) -> Calendar {
    let mut calendar = Calendar::empty();
    calendar
        .append_property(Property::new("VERSION", "2.0"))
        .append_property(Property::new("PRODID", format!("-//{short_name}//Conference website//EN")))
        .append_property(Property::new("CALSCALE", "GREGORIAN"))
        .append_property(Property::new("METHOD", "PUBLISH"))
        .append_property(Property::new("X-WR-CALNAME", calendar_name));
    calendar
}
