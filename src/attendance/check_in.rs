//! The registration desk (issue 33 item 3, DESIGN.md section 16): a scanned or typed code
//! checks its ticket in at most once per day, in the event's zone, on the days check-in is
//! open (`CHECKIN_DAYS`, else the conference's days). Every check-in is audited in the
//! transaction that stores it. SQL in [`crate::repo::check_ins`].

use std::collections::BTreeMap;

use time::{Date, OffsetDateTime};

use crate::clock::zone::Zone;
use crate::config::CheckInDays;
use crate::db::Pool;
use crate::error::{Outcome, Refused};
use crate::repo::attendees::{self, Ticket};
use crate::repo::audit::{self, Actor, NewEntry};
use crate::repo::check_ins::{self, Found};

use super::tickets::{self, CHECK_IN_PREFIX};

/// What the desk answers to a code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Checked in now.
    Valid(Ticket),
    /// Checked in earlier today: when (RFC 3339 UTC) and by whom (the desk's address).
    Already { ticket: Ticket, at: String, by: String },
    /// The order was refunded: the ticket no longer admits.
    Refunded(Ticket),
    /// No ticket has this code (or it cannot be a code).
    Unknown,
    /// Check-in is closed today.
    NotToday(Ticket),
}

impl Answer {
    /// The answer's name in the JSON and the page: `valid`, `already`, `refunded`, `unknown`,
    /// `not_today`.
    pub fn kind(&self) -> &'static str {
        match self {
            Answer::Valid(_) => "valid",
            Answer::Already { .. } => "already",
            Answer::Refunded(_) => "refunded",
            Answer::Unknown => "unknown",
            Answer::NotToday(_) => "not_today",
        }
    }

    /// The ticket the code named, when it named one.
    pub fn ticket(&self) -> Option<&Ticket> {
        match self {
            Answer::Valid(t) | Answer::Refunded(t) | Answer::NotToday(t) | Answer::Already { ticket: t, .. } => Some(t),
            Answer::Unknown => None,
        }
    }
}

/// The day `now` falls on in the event's `zone`.
pub fn today(now: OffsetDateTime, zone: &Zone) -> Date {
    now.to_offset(zone.offset_at(now)).date()
}

/// `day` as stored: `YYYY-MM-DD`.
pub fn day_key(day: Date) -> String {
    format!("{:04}-{:02}-{:02}", day.year(), u8::from(day.month()), day.day())
}

/// Whether check-in is open on `day`: `CHECKIN_DAYS`' days or `any`, else the conference's
/// days `start..=end` (`YYYY-MM-DD` from the seed; closed when they do not parse).
pub fn is_open(days: &CheckInDays, start: &str, end: &str, day: Date) -> bool {
    match days {
        CheckInDays::Any => true,
        CheckInDays::Days(days) => days.contains(&day),
        CheckInDays::Conference => match (crate::clock::dates::parse(start), crate::clock::dates::parse(end)) {
            (Some(start), Some(end)) => start <= day && day <= end,
            _ => false,
        },
    }
}

/// The code in what the desk typed or scanned: a code, or the QR's whole address
/// `PUBLIC_URL/check-in/<code>` (`base_url` without a trailing slash; scheme and host compared
/// case-insensitively). `None` for anything else, which is no ticket's code.
pub fn code_in(typed: &str, base_url: &str) -> Option<String> {
    let typed = typed.trim();
    let prefix = format!("{base_url}{CHECK_IN_PREFIX}");
    let code = match typed.get(..prefix.len()) {
        Some(head) if head.eq_ignore_ascii_case(&prefix) => {
            typed[prefix.len()..].split(['?', '#']).next().unwrap_or("").trim_end_matches('/')
        }
        _ if typed.contains('/') => return None,
        _ => typed,
    };
    tickets::normalise_code(code)
}

/// One desk's first check-in of a ticket at a time in this process, on SQLite (see
/// [`check_in`]).
static DESK_WRITES: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The longest code field or search the desk accepts (the QR's address is about 60
/// characters).
pub const FIELD_MAX_CHARS: usize = 300;

/// The problem with an empty or overlong code field, as [`Refused::Invalid`] keyed `code`.
fn field_problem(typed: &str) -> Option<Refused> {
    let problem = if typed.trim().is_empty() {
        "Scan a ticket or type its code."
    } else if typed.chars().count() > FIELD_MAX_CHARS {
        "That is longer than any ticket's code or address."
    } else {
        return None;
    };
    let errors = BTreeMap::from([("code".to_owned(), problem.to_owned())]);
    Some(Refused::Invalid { message: problem.into(), errors })
}

/// Checks in the ticket of `typed` (see [`code_in`]) at `now` for the desk `desk` (its address
/// is stored as `checked_by`): looks it up, answers a refunded ticket and a closed day as such,
/// answers "already" from a read when the ticket is in today, and otherwise stores the day's
/// check-in unless a desk did first (then that one's time and desk). The stored check-in and
/// its audit entry (`ticket.checked_in`, about the order, with day, ticket type and mode)
/// share one transaction.
///
/// Refused as [`Refused::Invalid`] (field `code`) for an empty field or one longer than
/// [`FIELD_MAX_CHARS`]; every other code gets an [`Answer`], `Unknown` included.
#[allow(clippy::too_many_arguments)]
pub async fn check_in(
    pool: &Pool,
    typed: &str,
    base_url: &str,
    desk: &Actor,
    now: OffsetDateTime,
    zone: &Zone,
    days: &CheckInDays,
    conference: (&str, &str),
) -> Outcome<Answer> {
    if let Some(refused) = field_problem(typed) {
        return Err(refused);
    }
    let Some(code) = code_in(typed, base_url) else { return Ok(Answer::Unknown) };
    let Some(ticket) = attendees::ticket_by_code(pool, &code).await? else { return Ok(Answer::Unknown) };
    if ticket.refunded_at.is_some() {
        return Ok(Answer::Refunded(ticket));
    }
    let day = today(now, zone);
    if !is_open(days, conference.0, conference.1, day) {
        return Ok(Answer::NotToday(ticket));
    }
    let day = day_key(day);
    // Read before writing (issue 40 item 3): a repeated scan, the usual one at a door, is
    // answered from a read and never waits for SQLite's one writer. Only a ticket not yet in
    // today takes the write lock, where the insert settles a race between desks.
    if let Some((at, by)) = check_ins::of_day(pool, ticket.id, &day).await? {
        return Ok(Answer::Already { ticket, at, by });
    }
    let at = crate::clock::stamp::timestamp(now);
    // On SQLite the desks' first check-ins queue here, in order, rather than in SQLite's busy
    // handler, which sleeps in steps of up to 25-100 ms between tries for the write lock: at
    // eight desks flat out that sleeping was the whole of the p99 (62 ms, `bench/check-in.sh`).
    // PostgreSQL locks rows, so desks write side by side there.
    let _turn = match crate::db::Engine::of_pool(pool) {
        crate::db::Engine::Sqlite => Some(DESK_WRITES.lock().await),
        crate::db::Engine::Postgres => None,
    };
    let mut tx = crate::db::begin_write(pool).await?;
    if check_ins::insert(&mut tx, ticket.id, &day, &at, &desk.email).await? {
        let entry = NewEntry {
            details: serde_json::json!({ "day": day, "ticket_type": ticket.ticket_type, "mode": ticket.mode }),
            ..desk.entry(&at, "ticket.checked_in").about("order", &ticket.order_id)
        };
        audit::record(&mut tx, &entry).await?;
        tx.commit().await?;
        return Ok(Answer::Valid(ticket));
    }
    // Another desk won: its row is committed (PostgreSQL's INSERT waited for it).
    let earlier = check_ins::of_day(&mut *tx, ticket.id, &day).await?;
    tx.rollback().await?;
    Ok(match earlier {
        Some((at, by)) => Answer::Already { ticket, at, by },
        // Unreachable while check-ins are never deleted; answered as a retry would be.
        None => Answer::Already { ticket, at, by: String::new() },
    })
}

/// The days check-in is open, in words: "any day", the conference's range, or
/// `CHECKIN_DAYS`' days.
pub fn open_days(days: &CheckInDays, start: &str, end: &str) -> String {
    match days {
        CheckInDays::Any => "any day".into(),
        CheckInDays::Conference => crate::clock::dates::range_label(start, end),
        CheckInDays::Days(days) => {
            days.iter().map(|d| crate::clock::dates::long(&day_key(*d))).collect::<Vec<_>>().join(", ")
        }
    }
}

/// Tickets a desk search lists at most.
pub const SEARCH_LIMIT: i64 = 25;

/// What the desk page shows around its answer: the day in the event's zone and whether
/// check-in is open on it.
#[derive(Debug, Clone)]
pub struct DeskDay {
    /// Today in words, e.g. "Friday 21 March 2025".
    pub today: String,
    pub open: bool,
    /// The days check-in is open ([`open_days`]).
    pub days: String,
    /// With a search: the tickets whose holder's name contains it or whose order id it is (at
    /// most [`SEARCH_LIMIT`]), each with today's check-in if any.
    pub found: Option<Vec<Found>>,
}

/// The desk's day at `now` and, for a `query` that is not blank, its search.
pub async fn desk_day(
    pool: &Pool,
    now: OffsetDateTime,
    zone: &Zone,
    days: &CheckInDays,
    conference: (&str, &str),
    query: &str,
) -> Result<DeskDay, sqlx::Error> {
    let today = today(now, zone);
    let day = day_key(today);
    let found =
        if query.trim().is_empty() { None } else { Some(check_ins::search(pool, query, &day, SEARCH_LIMIT).await?) };
    Ok(DeskDay {
        today: crate::clock::dates::long(&day),
        open: is_open(days, conference.0, conference.1, today),
        days: open_days(days, conference.0, conference.1),
        found,
    })
}

/// A stored time (RFC 3339 UTC) as the desk reads it: `09:12, Friday 21 March 2025` in the
/// event's zone; the stored text when it does not parse.
pub fn when_label(at: &str, zone: &Zone) -> String {
    let Ok(instant) = OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339) else {
        return at.to_owned();
    };
    let local = instant.to_offset(zone.offset_at(instant));
    let format =
        time::macros::format_description!("[hour]:[minute], [weekday] [day padding:none] [month repr:long] [year]");
    local.format(&format).unwrap_or_else(|_| at.to_owned())
}

#[cfg(test)]
mod tests {
    use time::macros::{date, datetime, offset};

    use super::*;

    #[test]
    fn a_code_is_typed_or_the_qr_address_scanned() {
        let base = "https://conf.example.org";
        let code = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        assert_eq!(code_in(code, base).as_deref(), Some(code));
        assert_eq!(code_in(" abcd-efgh ijklmnopqrstuvwxyz ", base).as_deref(), Some(code));
        assert_eq!(code_in(&format!("{base}/check-in/{code}"), base).as_deref(), Some(code));
        assert_eq!(code_in(&format!("HTTPS://CONF.example.org/check-in/{code}?x#y"), base).as_deref(), Some(code));
        assert_eq!(code_in(&format!("https://evil.example/check-in/{code}"), base), None);
        assert_eq!(code_in("short", base), None);
        assert_eq!(code_in("", base), None);
    }

    #[test]
    fn check_in_is_open_on_the_conference_days_in_the_event_zone_or_as_configured() {
        let zone = Zone::fixed("Asia/Singapore", offset!(+8));
        // 16:30 UTC on the 20th is half past midnight on the 21st in Singapore.
        assert_eq!(today(datetime!(2025-03-20 16:30 UTC), &zone), date!(2025 - 03 - 21));
        let (start, end) = ("2025-03-21", "2025-03-23");
        assert!(!is_open(&CheckInDays::Conference, start, end, date!(2025 - 03 - 20)));
        assert!(is_open(&CheckInDays::Conference, start, end, date!(2025 - 03 - 21)));
        assert!(is_open(&CheckInDays::Conference, start, end, date!(2025 - 03 - 23)));
        assert!(!is_open(&CheckInDays::Conference, start, end, date!(2025 - 03 - 24)));
        assert!(is_open(&CheckInDays::Any, start, end, date!(2020 - 01 - 01)));
        let rehearsal = CheckInDays::Days(vec![date!(2025 - 03 - 19)]);
        assert!(is_open(&rehearsal, start, end, date!(2025 - 03 - 19)));
        assert!(!is_open(&rehearsal, start, end, date!(2025 - 03 - 21)), "the list replaces the conference's days");
        assert_eq!(day_key(date!(2025 - 03 - 09)), "2025-03-09");
        assert_eq!(when_label("2025-03-21T01:12:00Z", &zone), "09:12, Friday 21 March 2025");
    }
}
