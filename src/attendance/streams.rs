//! Stream links (issue 33 item 6): organisers give each online or hybrid session a link,
//! which only the attendee page of a paid ticket lists, today's sessions only, the current
//! and next ones first. Nothing public reads them: no page, sitemap, JSON-LD, export or cache
//! (`crate::repo::streams` is read by the attendee page and the organisers' page alone).

use std::collections::BTreeMap;

use serde_json::json;
use time::OffsetDateTime;

use crate::clock::stamp::timestamp;
use crate::db::Pool;
use crate::error::{Outcome, Refused};
use crate::forms::validate::is_allowed_char;
use crate::programme::timetable::{Programme, TimedSession};
use crate::repo::audit::{self, Actor};
use crate::repo::streams::{self as store, StreamLink};

/// Longest stream URL, in characters.
pub const URL_MAX_CHARS: usize = 500;

/// Longest label, in characters.
pub const LABEL_MAX_CHARS: usize = 80;

/// A stream URL as organisers typed it, as stored: trimmed, an absolute `https` (or `http`)
/// URL with a host, parsed and written back by the `url` crate, without user name or password
/// (a link sent to every attendee must not carry an account's credentials), at most
/// [`URL_MAX_CHARS`]. `Err` with the message to show.
pub fn check_url(typed: &str) -> Result<String, String> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err("Give the stream's address, e.g. https://meet.example.org/room.".into());
    }
    if typed.chars().count() > URL_MAX_CHARS {
        return Err(format!("The address must be at most {URL_MAX_CHARS} characters."));
    }
    let url = url::Url::parse(typed)
        .map_err(|_| "The address is not a web address; give the whole address, starting with https://.".to_owned())?;
    if !matches!(url.scheme(), "https" | "http") || url.host_str().is_none_or(str::is_empty) {
        return Err("The address must be a web address starting with https:// (or http://).".into());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("The address must not hold a user name or password: every attendee gets it.".into());
    }
    Ok(url.to_string())
}

/// A label as stored: one line, white space runs made one space, at most [`LABEL_MAX_CHARS`];
/// empty allowed.
pub fn check_label(typed: &str) -> Result<String, String> {
    if typed.chars().any(|c| !is_allowed_char(c) && c != '\r') {
        return Err("The label contains characters that are not allowed.".into());
    }
    let label = typed.split_whitespace().collect::<Vec<_>>().join(" ");
    if label.chars().count() > LABEL_MAX_CHARS {
        return Err(format!("The label must be at most {LABEL_MAX_CHARS} characters."));
    }
    Ok(label)
}

/// What [`set`] did to a session's stream link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    /// Set or changed (`stream.set`).
    Set,
    /// Removed (`stream.removed`).
    Removed,
    /// Already so (a second click, or removing a link the session does not have): nothing
    /// was stored or audited.
    Unchanged,
}

/// Sets the stream link of `programme`'s online or hybrid session `session` to `url` and
/// `label` as typed ([`check_url`], [`check_label`]), or removes it when `url` is empty, by
/// `actor` at `now`. Audited as `stream.set` (address and label before and after) or
/// `stream.removed`, about the session.
///
/// Refused as not found (404) for a session the programme does not have; as conflicted (422)
/// for an in-person session (it has no stream); as invalid (422, keyed `url` or `label`) for
/// an address that is no web address or a label too long.
pub async fn set(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    programme: &Programme,
    session: &str,
    url: &str,
    label: &str,
) -> Outcome<Saved> {
    let Some(timed) = programme.session(session) else {
        let shown = crate::forms::validate::shown(session);
        return Err(Refused::NotFound(format!("The programme has no session {shown}.")));
    };
    if !timed.streamed() {
        return Err(Refused::Conflicted(
            "This session is in person only: it has no stream. Change its mode in the content seed first.".into(),
        ));
    }
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let before = store::of_session(&mut tx, session).await?;
    if url.is_empty() {
        if !store::remove(&mut tx, session).await? {
            return Ok(Saved::Unchanged);
        }
        let mut entry = actor.entry(&at, "stream.removed").about("session", session);
        entry.details = json!({ "url": { "before": before.as_ref().map(|l| &l.url), "after": null } });
        audit::record(&mut tx, &entry).await?;
        tx.commit().await?;
        return Ok(Saved::Removed);
    }
    let invalid = |field: &str, message: String| Refused::Invalid {
        errors: BTreeMap::from([(field.to_owned(), message.clone())]),
        message,
    };
    let url = check_url(url).map_err(|e| invalid("url", e))?;
    let label = check_label(label).map_err(|e| invalid("label", e))?;
    if before.as_ref().is_some_and(|l| l.url == url && l.label == label) {
        return Ok(Saved::Unchanged);
    }
    let link =
        StreamLink { session: session.to_owned(), url, label, updated: at.clone(), updated_by: actor.email.clone() };
    store::set(&mut tx, &link).await?;
    let mut entry = actor.entry(&at, "stream.set").about("session", session);
    entry.details = json!({
        "url": { "before": before.as_ref().map(|l| &l.url), "after": link.url },
        "label": { "before": before.as_ref().map(|l| &l.label), "after": link.label },
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Saved::Set)
}

/// Where a session of today stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum When {
    /// Under way.
    Now,
    /// Later today.
    Next,
    /// Over.
    Ended,
}

/// A session of today with its stream.
#[derive(Debug, Clone)]
pub struct Today<'a> {
    pub session: &'a TimedSession,
    pub link: &'a StreamLink,
    pub when: When,
}

/// The streamed (online or hybrid) sessions of today in the event's zone that have a link:
/// those under way first, then those to come, then those over, each in time order.
pub fn today<'a>(programme: &'a Programme, links: &'a [StreamLink], now: OffsetDateTime) -> Vec<Today<'a>> {
    let date = now.to_offset(programme.zone.offset_at(now)).date();
    let mut today: Vec<Today<'a>> = programme
        .sessions
        .iter()
        .filter(|s| s.streamed() && s.date() == date)
        .filter_map(|session| {
            let link = links.iter().find(|l| l.session == session.session.slug)?;
            let when = if now < session.start {
                When::Next
            } else if now < session.end {
                When::Now
            } else {
                When::Ended
            };
            Some(Today { session, link, when })
        })
        .collect();
    today.sort_by_key(|t| (t.when, t.session.start));
    today
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_urls_are_absolute_web_addresses_without_credentials() {
        assert_eq!(check_url(" https://meet.example.org/room?id=7 "), Ok("https://meet.example.org/room?id=7".into()));
        assert_eq!(check_url("HTTPS://Meet.Example.org"), Ok("https://meet.example.org/".into()));
        for bad in [
            "",
            "meet.example.org/room",
            "javascript:alert(1)",
            "ftp://files.example.org/",
            "https://user:secret@meet.example.org/",
            "https://",
            "data:text/html,hi",
        ] {
            assert!(check_url(bad).is_err(), "{bad}");
        }
        assert!(check_url(&format!("https://example.org/{}", "a".repeat(URL_MAX_CHARS))).is_err());
    }

    #[test]
    fn labels_are_one_short_line() {
        assert_eq!(check_label("  Zoom \n room "), Ok("Zoom room".into()));
        assert_eq!(check_label(""), Ok(String::new()));
        assert!(check_label("a\u{0}").is_err());
        assert!(check_label(&"a".repeat(LABEL_MAX_CHARS + 1)).is_err());
    }
}
