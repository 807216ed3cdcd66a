//! Queueing mail in the `outbox` table (migrations/0002_outbox.sql).

use sqlx::SqliteConnection;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// A file sent with a mail, stored under `DATA_DIR`.
#[derive(Debug, Clone)]
pub struct Attachment {
    /// Path of the stored file, relative to `DATA_DIR`.
    pub path: String,
    /// File name shown to the recipient.
    pub name: String,
    /// MIME type, e.g. `application/pdf`.
    pub content_type: String,
}

/// A mail ready to queue: rendered subject and bodies (text and HTML parts).
#[derive(Debug, Clone)]
pub struct OutgoingMail {
    pub to: String,
    pub reply_to: Option<String>,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub attachment: Option<Attachment>,
    /// What caused the mail (e.g. `receipt:ORD…`); a second mail with the same key is not
    /// queued, so a repeated cause sends one mail.
    pub dedupe_key: Option<String>,
}

/// Current time as stored in the outbox (RFC 3339 UTC).
pub fn now_rfc3339() -> String {
    OffsetDateTime::now_utc().format(&Rfc3339).expect("RFC 3339 formats")
}

/// Queues a mail on `conn`, which should be the transaction that stores its cause.
/// Returns `false` when a mail with the same `dedupe_key` was already queued.
pub async fn enqueue(conn: &mut SqliteConnection, mail: &OutgoingMail) -> Result<bool, sqlx::Error> {
    let now = now_rfc3339();
    let (path, name, content_type) = match &mail.attachment {
        Some(a) => (Some(a.path.as_str()), Some(a.name.as_str()), Some(a.content_type.as_str())),
        None => (None, None, None),
    };
    let result = sqlx::query(
        "INSERT INTO outbox (dedupe_key, to_address, reply_to, subject, text_body, html_body,
                             attachment_path, attachment_name, attachment_type, next_attempt_at, created)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
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
    .execute(conn)
    .await?;
    Ok(result.rows_affected() == 1)
}
