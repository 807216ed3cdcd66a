//! The programme's calendars (issue 31 item 5, DESIGN.md section 14): `/schedule.ics` (every
//! session and every talk), one talk's `.ics` and the agenda of the talks a visitor starred,
//! built from the content snapshot's published version.
//!
//! Times are UTC (`Z`). `UID`s stay the same across versions (`session-<slug>@<host>`,
//! `talk-<slug>@<host>`) and `SEQUENCE` is the version's count of changes to the entry, so a
//! calendar that imported or subscribed updates its entry in place. `DTSTAMP` is when the
//! version was published (before the first, the session's `updated`), never the wall clock:
//! the bytes kept in the page cache stay the same for the whole version.

use icalendar::{Component, DatePerhapsTime, Event, EventLike};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::content::Snapshot;
use crate::error::AppError;
use crate::programme::ical::entry::{TalkEntry, calendar as published, host_of, one_newline};
use crate::programme::timetable::{Programme, TimedSession, TimedTalk};
use crate::repo::content::Site;

/// The most talks one agenda may name (the programme's size, 250 talks, with room to spare):
/// a longer list is refused rather than read.
pub const AGENDA_MAX_TALKS: usize = 300;

/// What every entry of the programme's calendars needs: the site, `PUBLIC_URL` and its host,
/// and the version's publication time.
struct Entries<'a> {
    site: &'a Site,
    /// `PUBLIC_URL` without its trailing `/`.
    base_url: &'a str,
    host: String,
    /// When the version was published; `None` before the first.
    published_at: Option<OffsetDateTime>,
}

impl<'a> Entries<'a> {
    fn of(content: &'a Snapshot, base_url: &'a str) -> Result<Entries<'a>, AppError> {
        let published_at = match &content.published {
            Ok(Some(published)) => OffsetDateTime::parse(&published.published_at, &Rfc3339).ok(),
            _ => None,
        };
        Ok(Entries { site: content.site()?, base_url, host: host_of(base_url), published_at })
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
        let url = format!("{}{}", self.base_url, session.path());
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

    /// A talk's entry ([`TalkEntry`], the same one a moved talk's mail carries).
    fn talk(&self, session: &TimedSession, talk: &TimedTalk) -> Event {
        let stamp = self.published_at.unwrap_or(OffsetDateTime::UNIX_EPOCH);
        TalkEntry::timed(session, talk).event(self.site, self.base_url, stamp)
    }
}

/// A stored `SEQUENCE` as iCalendar writes it (never negative).
fn sequence(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

/// The programme of `content`, for the calendar `what` (named in the error).
///
/// Errors: the programme is not loaded (a 500: the calendars are only served with one).
pub fn programme_of(content: &Snapshot, what: &'static str) -> Result<Programme, AppError> {
    Programme::of(content).map_err(|_| AppError::internal(what, "the programme is not loaded"))
}

/// The body of `/schedule.ics` (RFC 5545): every session, each followed by its talks;
/// `base_url` is `PUBLIC_URL` without its trailing `/`.
///
/// Errors: the site row or the programme is not loaded.
pub fn schedule(content: &Snapshot, base_url: &str) -> Result<String, AppError> {
    let entries = Entries::of(content, base_url)?;
    let programme = programme_of(content, "schedule.ics")?;
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
pub fn talk(content: &Snapshot, base_url: &str, slug: &str) -> Result<String, AppError> {
    let entries = Entries::of(content, base_url)?;
    let programme = programme_of(content, "talk.ics")?;
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
pub fn agenda(content: &Snapshot, base_url: &str, talks: &[(&TimedSession, &TimedTalk)]) -> Result<String, AppError> {
    let entries = Entries::of(content, base_url)?;
    let mut calendar = published(&entries.site.short_name, &format!("{}: my agenda", entries.site.short_name));
    for (session, talk) in talks {
        calendar.push(entries.talk(session, talk));
    }
    Ok(calendar.to_string())
}
