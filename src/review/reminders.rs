//! Reminders to reviewers (issue 32 item 7): 7 days and 2 days before `review_deadline`, and
//! the day after it, each reviewer with unsubmitted reviews (released to them, no review or a
//! draft) gets one mail listing those papers by review code and title, never an author, with
//! the link to `/review`. Organisers may also remind one reviewer at once ("remind now").
//!
//! The sweeper (`crate::server::sweep`) calls [`send_due`] at start-up and every few minutes
//! on every instance, with its clock. Each mail goes through the outbox under the key
//! `review-reminder:<kind>:<reviewer id>:<deadline>`, and the outbox takes a key once
//! (`ON CONFLICT (dedupe_key) DO NOTHING`, in the transaction that also writes the audit
//! entry), so instances sweeping at the same moment, or one sweeping again, mail each
//! reviewer once per reminder; a changed deadline is a new set of reminders. Only the latest
//! reminder whose moment has passed is sent: a server that was down at the 7-day moment sends
//! that one when it comes back, unless the 2-day moment has passed too (then that one only).
//!
//! The deadline is `YYYY-MM-DD HH:MM` in the event's zone (`site.time_zone`).

use askama::Template;
use time::{Duration, OffsetDateTime};

use crate::clock::dates::{clock, day_label};
use crate::clock::zone::{Zone, offset_label};
use crate::config::Config;
use crate::db::Pool;
use crate::error::{AppError, Outcome, Refused};
use crate::mail::{self, MailSite, OutgoingMail};
use crate::repo::audit::{self, Actor, NewEntry};
use crate::repo::content::{self, Site};
use crate::repo::review_records::{self, Unsubmitted};
use crate::repo::reviewers;

/// Which reminder a mail is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reminder {
    /// 7 days before the deadline.
    WeekBefore,
    /// 2 days before the deadline.
    TwoDaysBefore,
    /// 1 day after the deadline.
    DayAfter,
    /// An organiser's "remind now".
    Now,
}

/// The reminders the sweeper sends, in the order of their moments.
pub const SCHEDULED: [Reminder; 3] = [Reminder::WeekBefore, Reminder::TwoDaysBefore, Reminder::DayAfter];

impl Reminder {
    /// The name in the outbox key and the audit log: `7-days`, `2-days`, `day-after`, `now`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reminder::WeekBefore => "7-days",
            Reminder::TwoDaysBefore => "2-days",
            Reminder::DayAfter => "day-after",
            Reminder::Now => "now",
        }
    }

    /// When a scheduled reminder is due for a deadline at `deadline`; `None` for "remind now".
    pub fn moment(self, deadline: OffsetDateTime) -> Option<OffsetDateTime> {
        match self {
            Reminder::WeekBefore => Some(deadline - Duration::days(7)),
            Reminder::TwoDaysBefore => Some(deadline - Duration::days(2)),
            Reminder::DayAfter => Some(deadline + Duration::days(1)),
            Reminder::Now => None,
        }
    }
}

/// The latest scheduled reminder whose moment is at or before `now`, if any.
pub fn due(deadline: OffsetDateTime, now: OffsetDateTime) -> Option<Reminder> {
    SCHEDULED.into_iter().rev().find(|r| r.moment(deadline).is_some_and(|at| at <= now))
}

/// The outbox key of a scheduled reminder: `review-reminder:<kind>:<reviewer id>:<deadline>`
/// (the deadline as the settings write it).
pub fn scheduled_key(reminder: Reminder, reviewer: i64, deadline: &str) -> String {
    format!("review-reminder:{}:{reviewer}:{deadline}", reminder.as_str())
}

/// The outbox key of "remind now": `review-reminder:now:<reviewer id>:<UTC minute>`, so a
/// second press within the same minute (a double click, two organisers) mails nobody twice.
pub fn now_key(reviewer: i64, now: OffsetDateTime) -> String {
    let now = now.to_offset(time::UtcOffset::UTC);
    format!(
        "review-reminder:now:{reviewer}:{:04}-{:02}-{:02}T{:02}:{:02}",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute()
    )
}

/// The review deadline of the settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadline {
    /// As written in the settings: `YYYY-MM-DD HH:MM` in the event's zone.
    pub text: String,
    pub at: OffsetDateTime,
    /// `Friday, 28 February 2025, 17:00 Singapore time (UTC+08:00)`.
    pub label: String,
    /// `28 February 2025`, for subjects.
    pub date: String,
}

impl Deadline {
    /// `text` in `zone` (any way `crate::calendar::deadline` reads); `None` when it does not
    /// read.
    pub fn read(text: &str, zone: &Zone) -> Option<Deadline> {
        let when = crate::calendar::deadline::parse(text, zone).ok()?;
        let (local, at) = (when.local, when.at);
        let label = format!(
            "{}, {} {} time (UTC{})",
            day_label(local.date()),
            clock(local.time()),
            zone.city(),
            offset_label(at.offset())
        );
        let date = format!("{} {} {}", local.day(), local.month(), local.year());
        Some(Deadline { text: text.trim().to_owned(), at, label, date })
    }

    /// Whether the deadline has passed at `now`.
    pub fn passed(&self, now: OffsetDateTime) -> bool {
        now >= self.at
    }

    /// How far off it is, in words: `in 7 days`, `in 5 hours`, `within the hour`, `passed`.
    pub fn until(&self, now: OffsetDateTime) -> String {
        crate::calendar::deadline::words(self.at, now)
    }
}

/// The event's zone: `site.time_zone` from the tz database, else `site.utc_offset` all year
/// (as the content snapshot reads it, `crate::content::snapshot`).
pub fn event_zone(site: &Site) -> Zone {
    Zone::load(&site.time_zone).unwrap_or_else(|_| {
        let offset = time::UtcOffset::parse(
            &site.utc_offset,
            time::macros::format_description!("[offset_hour sign:mandatory]:[offset_minute]"),
        )
        .unwrap_or(time::UtcOffset::UTC);
        Zone::fixed(&site.time_zone, offset)
    })
}

/// The review deadline of the settings in the event's zone; `None` while none is set (or one
/// that is not `YYYY-MM-DD HH:MM`, logged).
pub async fn deadline(pool: &Pool) -> Result<Option<Deadline>, sqlx::Error> {
    let Some(text) = reviewers::settings(pool).await?.review_deadline.filter(|t| !t.trim().is_empty()) else {
        return Ok(None);
    };
    let site = content::site(pool).await?;
    let read = Deadline::read(&text, &event_zone(&site));
    if read.is_none() {
        tracing::warn!(review_deadline = %text, "review_deadline is not YYYY-MM-DD HH:MM; no reminder is sent");
    }
    Ok(read)
}

/// One reviewer's unsubmitted papers: (review code, title).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    pub reviewer_id: i64,
    pub name: String,
    pub email: String,
    pub papers: Vec<(String, String)>,
}

/// Rows of [`review_records::unsubmitted`] (ordered by reviewer) as one [`Pending`] per
/// reviewer.
pub fn by_reviewer(rows: Vec<Unsubmitted>) -> Vec<Pending> {
    let mut pending: Vec<Pending> = Vec::new();
    for row in rows {
        let paper = (row.review_code.unwrap_or_else(|| "(no code yet)".to_owned()), row.paper_title);
        match pending.last_mut() {
            Some(last) if last.reviewer_id == row.reviewer_id => last.papers.push(paper),
            _ => pending.push(Pending {
                reviewer_id: row.reviewer_id,
                name: row.name,
                email: row.email,
                papers: vec![paper],
            }),
        }
    }
    pending
}

/// What the reminder's templates show.
struct Shown<'a> {
    subject: &'a str,
    name: &'a str,
    /// The sentence about the deadline; empty without one.
    when: String,
    papers: &'a [(String, String)],
    review_url: String,
}

#[derive(Template)]
#[template(path = "mail/review_reminder.txt")]
struct ReminderText<'a> {
    site: &'a MailSite,
    m: &'a Shown<'a>,
}

#[derive(Template)]
#[template(path = "mail/review_reminder.html")]
struct ReminderHtml<'a> {
    site: &'a MailSite,
    m: &'a Shown<'a>,
}

/// "1 review" or "3 reviews".
fn reviews(n: usize) -> String {
    if n == 1 { "1 review".to_owned() } else { format!("{n} reviews") }
}

/// The reminder to `pending`'s reviewer at `now` about `deadline` (if one is set): their
/// unsubmitted papers by review code and title and the link to `/review`, replies to the
/// organisers, queued under `key`.
pub fn compose(
    ctx: &mail::Context,
    pending: &Pending,
    deadline: Option<&Deadline>,
    now: OffsetDateTime,
    key: String,
) -> Result<OutgoingMail, askama::Error> {
    let count = reviews(pending.papers.len());
    let (subject, when) = match deadline {
        Some(d) if d.passed(now) => (
            format!("Overdue: {count} to submit (the deadline was {})", d.date),
            format!("The review deadline, {}, has passed. Please submit your reviews as soon as you can.", d.label),
        ),
        Some(d) => (
            format!("Reminder: {count} due on {}", d.date),
            format!("The review deadline is {}, {}.", d.label, d.until(now)),
        ),
        None => (format!("Reminder: {count} to submit"), String::new()),
    };
    let subject = ctx.subject(&subject);
    let shown = Shown {
        subject: &subject,
        name: &pending.name,
        when,
        papers: &pending.papers,
        review_url: format!("{}/review", ctx.site.url),
    };
    let site = &ctx.site;
    Ok(mail::compose(
        pending.email.clone(),
        subject.clone(),
        &ReminderText { site, m: &shown },
        &ReminderHtml { site, m: &shown },
    )?
    .reply_to(ctx.addresses.organisers.clone())
    .dedupe_key(key))
}

/// Why reminders could not be sent (the sweep logs it and tries again next time).
#[derive(Debug, thiserror::Error)]
pub enum ReminderError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("mail template: {0}")]
    Template(#[from] askama::Error),
}

/// Sends the reminder due at `now`, if any, to every reviewer with unsubmitted reviews who
/// has not had it: one transaction per reviewer queues the mail and, when this call queued
/// it, the audit entry (`review.reminder_sent`, actor `system`). Returns how many mails this
/// call queued.
pub async fn send_due(pool: &Pool, config: &Config, now: OffsetDateTime) -> Result<usize, ReminderError> {
    let Some(deadline) = deadline(pool).await? else { return Ok(0) };
    let Some(reminder) = due(deadline.at, now) else { return Ok(0) };
    let pending = by_reviewer(review_records::unsubmitted(pool, None).await?);
    if pending.is_empty() {
        return Ok(0);
    }
    let ctx = mail::Context::load(pool, config).await?;
    let at = crate::clock::stamp::timestamp(now);
    let mut queued = 0;
    for reviewer in &pending {
        let key = scheduled_key(reminder, reviewer.reviewer_id, &deadline.text);
        // Read first: after the first sweep the key is there, and no write is needed.
        if review_records::queued(pool, &key).await? {
            continue;
        }
        let mail = compose(&ctx, reviewer, Some(&deadline), now, key)?;
        let mut tx = crate::db::begin_write(pool).await?;
        if mail::enqueue(&mut tx, &mail).await? {
            let id = reviewer.reviewer_id.to_string();
            let entry = NewEntry {
                details: serde_json::json!({
                    "reminder": reminder.as_str(),
                    "deadline": deadline.text,
                    "papers": reviewer.papers.len(),
                    "mail": { "to": reviewer.email, "queued": true, "subject": mail.subject },
                }),
                ..NewEntry::new(&at, audit::SYSTEM, None, "review.reminder_sent").about("reviewer", &id)
            };
            audit::record(&mut tx, &entry).await?;
            queued += 1;
        }
        tx.commit().await?;
    }
    Ok(queued)
}

/// The accepted reviewer `id` (as an address writes it) names: (name, e-mail); `None` for
/// anyone else.
pub async fn accepted_reviewer(pool: &Pool, id: &str) -> Result<Option<(String, String)>, sqlx::Error> {
    let Ok(id) = id.parse::<i64>() else { return Ok(None) };
    review_records::reviewer(pool, id).await
}

/// What [`remind_now`] did: reviewer `reviewer_id` was reminded; `queued` is false when a
/// reminder under the same minute's key was queued already (nobody is mailed twice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reminded {
    pub reviewer_id: i64,
    pub queued: bool,
}

impl From<ReminderError> for Refused {
    fn from(err: ReminderError) -> Self {
        match err {
            ReminderError::Database(err) => Refused::from(err),
            ReminderError::Template(err) => Refused::Failed(AppError::internal("reminder mail", err)),
        }
    }
}

/// "Remind now": mails the accepted reviewer `id` (as the address writes it) their
/// unsubmitted papers at `now` through the outbox under [`now_key`], with the audit entry
/// `review.reminded` in the same transaction. Not found for anyone but an accepted reviewer;
/// not allowed for one with no unsubmitted review (nobody is mailed).
pub async fn remind_now(
    pool: &Pool,
    config: &Config,
    now: OffsetDateTime,
    actor: &Actor,
    id: &str,
) -> Outcome<Reminded> {
    let not_found = || Refused::NotFound("No reviewer has this number.".into());
    let (Some((name, email)), Ok(id)) = (accepted_reviewer(pool, id).await?, id.parse::<i64>()) else {
        return Err(not_found());
    };
    let Some(pending) = by_reviewer(review_records::unsubmitted(pool, Some(id)).await?).pop() else {
        return Err(Refused::NotAllowed(format!("{name} ({email}) has no unsubmitted review, so nobody was mailed.")));
    };
    let deadline = deadline(pool).await?;
    let ctx = mail::Context::load(pool, config).await?;
    let mail = compose(&ctx, &pending, deadline.as_ref(), now, now_key(id, now)).map_err(ReminderError::from)?;
    let at = crate::clock::stamp::timestamp(now);
    let id_text = id.to_string();
    let mut tx = crate::db::begin_write(pool).await?;
    let queued = mail::enqueue(&mut tx, &mail).await?;
    let entry = NewEntry {
        details: serde_json::json!({
            "papers": pending.papers.len(),
            "mail": { "to": email, "queued": queued, "subject": mail.subject },
        }),
        ..actor.entry(&at, "review.reminded").about("reviewer", &id_text)
    };
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Reminded { reviewer_id: id, queued })
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn only_the_latest_reminder_due_is_sent() {
        let deadline = datetime!(2025-02-28 17:00 +08:00);
        assert_eq!(due(deadline, datetime!(2025-02-21 08:59 UTC)), None);
        assert_eq!(due(deadline, datetime!(2025-02-21 09:00 UTC)), Some(Reminder::WeekBefore));
        assert_eq!(due(deadline, datetime!(2025-02-26 08:59 UTC)), Some(Reminder::WeekBefore));
        assert_eq!(due(deadline, datetime!(2025-02-26 09:00 UTC)), Some(Reminder::TwoDaysBefore));
        assert_eq!(due(deadline, datetime!(2025-02-28 09:00 UTC)), Some(Reminder::TwoDaysBefore));
        assert_eq!(due(deadline, datetime!(2025-03-01 09:00 UTC)), Some(Reminder::DayAfter));
        assert_eq!(due(deadline, datetime!(2025-06-01 00:00 UTC)), Some(Reminder::DayAfter));
    }

    #[test]
    fn keys_name_the_reminder_the_reviewer_and_the_deadline_or_the_minute() {
        assert_eq!(
            scheduled_key(Reminder::TwoDaysBefore, 7, "2025-02-28 17:00"),
            "review-reminder:2-days:7:2025-02-28 17:00"
        );
        assert_eq!(now_key(7, datetime!(2025-03-02 09:15:59 +08:00)), "review-reminder:now:7:2025-03-02T01:15");
    }

    #[test]
    fn the_deadline_reads_in_the_event_zone() {
        let zone = Zone::fixed("Asia/Singapore", time::UtcOffset::from_hms(8, 0, 0).unwrap());
        let d = Deadline::read("2025-02-28 17:00", &zone).unwrap();
        assert_eq!(d.at, datetime!(2025-02-28 09:00 UTC));
        assert_eq!(d.label, "Friday, 28 February 2025, 17:00 Singapore time (UTC+08:00)");
        assert_eq!(d.date, "28 February 2025");
        assert_eq!(d.until(datetime!(2025-02-21 09:03 UTC)), "in 7 days");
        assert_eq!(d.until(datetime!(2025-02-28 04:00 UTC)), "in 5 hours");
        assert_eq!(d.until(datetime!(2025-02-28 09:00 UTC)), "passed");
        assert!(Deadline::read("28/02/2025", &zone).is_none());
    }
}
