//! The `outbox` table (migrations/0002_outbox.sql): queueing mail inside the transaction of
//! its cause, and the worker's claiming and bookkeeping (DESIGN.md sections 8 and 9).
//!
//! Times are stored as fixed-width RFC 3339 UTC text (`2025-03-01T09:30:00.123456Z`), so
//! comparing the strings compares the instants, in SQLite and PostgreSQL alike.

use crate::clock::stamp::{now_rfc3339, timestamp};
use sqlx::FromRow;
use time::{Duration, OffsetDateTime};

use crate::db::{Connection, Engine, Pool};

/// A file sent with a mail: stored under `DATA_DIR` (a paper), or made for this mail and kept
/// in its outbox row ([`Attachment::inline`], e.g. a moved talk's `.ics`).
#[derive(Debug, Clone)]
pub struct Attachment {
    /// Path of the stored file, relative to `DATA_DIR`; empty for an inline attachment.
    pub path: String,
    /// File name shown to the recipient.
    pub name: String,
    /// MIME type, e.g. `application/pdf`.
    pub content_type: String,
    /// The bytes themselves, kept in the outbox row (`attachment_data`, migration 0018), so
    /// whichever instance's worker claims the mail can send it; `None` reads `path`.
    pub inline: Option<Vec<u8>>,
}

impl Attachment {
    /// An attachment made for one mail, sent from the outbox row itself.
    pub fn inline(name: impl Into<String>, content_type: impl Into<String>, bytes: Vec<u8>) -> Attachment {
        Attachment { path: String::new(), name: name.into(), content_type: content_type.into(), inline: Some(bytes) }
    }
}

/// The outbox's attachment columns as read back: all NULL for a mail without one.
#[derive(Debug, FromRow)]
struct AttachmentColumns {
    attachment_path: Option<String>,
    attachment_name: Option<String>,
    attachment_type: Option<String>,
    /// Absent from a query that does not name it (an older caller's column list).
    #[sqlx(default)]
    attachment_data: Option<Vec<u8>>,
}

impl From<AttachmentColumns> for Option<Attachment> {
    /// A name with a path or inline bytes makes an attachment; a missing type is sent as a
    /// plain byte stream.
    fn from(columns: AttachmentColumns) -> Self {
        let name = columns.attachment_name?;
        let content_type = columns.attachment_type.unwrap_or_else(|| "application/octet-stream".into());
        match columns.attachment_data {
            Some(bytes) => Some(Attachment::inline(name, content_type, bytes)),
            None => Some(Attachment { path: columns.attachment_path?, name, content_type, inline: None }),
        }
    }
}

/// A mail ready to queue: rendered subject and bodies (text and HTML parts).
/// Build one with [`crate::mail::compose`]; the worker reads it back from the outbox row.
#[derive(Debug, Clone, FromRow)]
pub struct OutgoingMail {
    /// One address or a comma-separated list (`a@x.org, Name <b@y.org>`).
    #[sqlx(rename = "to_address")]
    pub to: String,
    pub reply_to: Option<String>,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    #[sqlx(flatten, try_from = "AttachmentColumns")]
    pub attachment: Option<Attachment>,
    /// What caused the mail (e.g. `receipt:ORD…`); a second mail with the same key is not
    /// queued, so a repeated cause sends one mail.
    pub dedupe_key: Option<String>,
    /// A newsletter mail's one-click unsubscribe URL: sent as `List-Unsubscribe` with
    /// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
    #[sqlx(default)]
    pub list_unsubscribe: Option<String>,
}

impl OutgoingMail {
    /// Replies go to `address` (e.g. the visitor who wrote, for an organiser notice).
    pub fn reply_to(mut self, address: impl Into<String>) -> Self {
        self.reply_to = Some(address.into());
        self
    }

    /// Queue this mail at most once for `key` (see [`OutgoingMail::dedupe_key`]).
    pub fn dedupe_key(mut self, key: impl Into<String>) -> Self {
        self.dedupe_key = Some(key.into());
        self
    }

    /// Marks a newsletter mail: see [`OutgoingMail::list_unsubscribe`].
    pub fn list_unsubscribe(mut self, url: impl Into<String>) -> Self {
        self.list_unsubscribe = Some(url.into());
        self
    }

    pub fn attachment(mut self, attachment: Attachment) -> Self {
        self.attachment = Some(attachment);
        self
    }
}

/// Queues a mail on `conn`, which should be the transaction that stores its cause.
/// Returns `false` when a mail with the same `dedupe_key` was already queued.
pub async fn enqueue(conn: &mut Connection, mail: &OutgoingMail) -> Result<bool, sqlx::Error> {
    let now = now_rfc3339();
    let (path, name, content_type, data) = match &mail.attachment {
        Some(a) => (
            a.inline.is_none().then_some(a.path.as_str()),
            Some(a.name.as_str()),
            Some(a.content_type.as_str()),
            a.inline.as_deref(),
        ),
        None => (None, None, None, None),
    };
    let result = sqlx::query(
        "INSERT INTO outbox (dedupe_key, to_address, reply_to, subject, text_body, html_body,
                             attachment_path, attachment_name, attachment_type, next_attempt_at, created,
                             list_unsubscribe, attachment_data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12)
         ON CONFLICT (dedupe_key) DO NOTHING",
    )
    .bind(&mail.dedupe_key)
    .bind(&mail.to)
    .bind(&mail.reply_to)
    .bind(&mail.subject)
    .bind(&mail.text_body)
    .bind(&mail.html_body)
    .bind(path)
    .bind(name)
    .bind(content_type)
    .bind(&now)
    .bind(&mail.list_unsubscribe)
    .bind(data)
    .execute(conn)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// A queued mail the worker has claimed.
#[derive(Debug, Clone, FromRow)]
pub struct QueuedMail {
    pub id: i64,
    /// The mail as it was queued.
    #[sqlx(flatten)]
    pub mail: OutgoingMail,
    /// Attempts so far, this one included.
    pub attempts: i64,
    pub created: String,
    /// The claim this worker holds; the row's bookkeeping is only updated while it matches.
    pub claimed_until: String,
}

/// Claims the next mail due at `now` for `lease`, or `None` when nothing is due.
///
/// One row per call, in one `UPDATE ... RETURNING` whose `WHERE` re-checks that the row is
/// pending and unclaimed (or its claim expired): of several workers (server copies) racing
/// for a row, exactly one gets it (DESIGN.md section 9). Counting the attempt here means an
/// attempt that crashed the worker still counts. A worker that dies holding a claim delays
/// that mail by `lease`, no more.
///
/// On PostgreSQL the candidate is picked `FOR UPDATE SKIP LOCKED`: instances racing for mail
/// each take a different row at once instead of queueing behind one row's lock and coming
/// back empty. SQLite has one writer at a time, so the plain subquery is enough there.
pub async fn claim_next(pool: &Pool, now: OffsetDateTime, lease: Duration) -> Result<Option<QueuedMail>, sqlx::Error> {
    let now_s = timestamp(now);
    let until = timestamp(now + lease);
    let sql = match Engine::of_pool(pool) {
        Engine::Sqlite => CLAIM_SQLITE,
        Engine::Postgres => CLAIM_POSTGRES,
    };
    sqlx::query_as(sql).bind(&until).bind(&now_s).fetch_optional(pool).await
}

/// The claim: `$1` the lease's end, `$2` now.
const CLAIM_SQLITE: &str = "UPDATE outbox SET claimed_until = $1, attempts = attempts + 1
     WHERE id = (SELECT id FROM outbox
                 WHERE status = 'pending' AND next_attempt_at <= $2
                   AND (claimed_until IS NULL OR claimed_until < $2)
                 ORDER BY next_attempt_at, id LIMIT 1)
       AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < $2)
     RETURNING id, to_address, reply_to, subject, text_body, html_body, attachment_path,
               attachment_name, attachment_type, attachment_data, dedupe_key, attempts, created,
               claimed_until, list_unsubscribe";

/// [`CLAIM_SQLITE`] with the candidate row locked, skipping rows other instances hold.
const CLAIM_POSTGRES: &str = "UPDATE outbox SET claimed_until = $1, attempts = attempts + 1
     WHERE id = (SELECT id FROM outbox
                 WHERE status = 'pending' AND next_attempt_at <= $2
                   AND (claimed_until IS NULL OR claimed_until < $2)
                 ORDER BY next_attempt_at, id LIMIT 1
                 FOR UPDATE SKIP LOCKED)
       AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < $2)
     RETURNING id, to_address, reply_to, subject, text_body, html_body, attachment_path,
               attachment_name, attachment_type, attachment_data, dedupe_key, attempts, created,
               claimed_until, list_unsubscribe";

/// Records a delivered mail. Returns `false` if the claim had been lost meanwhile.
pub async fn mark_sent(pool: &Pool, mail: &QueuedMail, now: OffsetDateTime) -> Result<bool, sqlx::Error> {
    let result = sqlx::query(
        "UPDATE outbox SET status = 'sent', sent_at = $1, claimed_until = NULL, last_error = NULL
         WHERE id = $2 AND claimed_until = $3",
    )
    .bind(timestamp(now))
    .bind(mail.id)
    .bind(&mail.claimed_until)
    .execute(pool)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// Lets a claimed mail go untried (the worker is stopping): due at once for any worker, and
/// the attempt not counted.
pub async fn release(pool: &Pool, mail: &QueuedMail) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE outbox SET claimed_until = NULL, attempts = attempts - 1
         WHERE id = $1 AND claimed_until = $2 AND status = 'pending'",
    )
    .bind(mail.id)
    .bind(&mail.claimed_until)
    .execute(pool)
    .await?;
    Ok(())
}

/// Records a failed attempt: the mail is tried again from `retry_at`.
pub async fn mark_retry(
    pool: &Pool,
    mail: &QueuedMail,
    retry_at: OffsetDateTime,
    error: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE outbox SET next_attempt_at = $1, claimed_until = NULL, last_error = $2
         WHERE id = $3 AND claimed_until = $4",
    )
    .bind(timestamp(retry_at))
    .bind(error)
    .bind(mail.id)
    .bind(&mail.claimed_until)
    .execute(pool)
    .await?;
    Ok(())
}

/// Gives a mail up: it stays in the table as `failed` with its last error, for organisers to
/// look at (and re-queue by setting `status` back to `pending`).
pub async fn mark_failed(pool: &Pool, mail: &QueuedMail, error: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE outbox SET status = 'failed', claimed_until = NULL, last_error = $1
         WHERE id = $2 AND claimed_until = $3",
    )
    .bind(error)
    .bind(mail.id)
    .bind(&mail.claimed_until)
    .execute(pool)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_sort_as_the_instants_they_name() {
        let base = OffsetDateTime::from_unix_timestamp(1_740_000_000).unwrap();
        let instants =
            [base, base + Duration::microseconds(1), base + Duration::milliseconds(500), base + Duration::seconds(1)];
        let stamps: Vec<String> = instants.iter().map(|&t| timestamp(t)).collect();
        let mut sorted = stamps.clone();
        sorted.sort();
        assert_eq!(stamps, sorted);
        assert_eq!(stamps[0], "2025-02-19T21:20:00.000000Z");
    }
}
