//! The mail outbox as organisers read it (`outbox`, migrations/0002_outbox.sql): what was
//! queued, sent or failed, with the attempts and last error; never the bodies.

use futures_util::stream::BoxStream;
use sqlx::FromRow;

use super::dashboard::Counts;
use super::filter::StatusSearch;
use crate::db::Pool;

/// One mail of the outbox.
#[derive(Debug, Clone, FromRow)]
pub struct Mail {
    pub id: i64,
    pub to_address: String,
    pub subject: String,
    /// `pending`, `sent` or `failed`.
    pub status: String,
    pub attempts: i64,
    pub last_error: Option<String>,
    /// RFC 3339 UTC.
    pub created: String,
    pub sent_at: Option<String>,
}

/// The organisers' view of the outbox: `status` is `pending`, `sent` or `failed`; the search
/// looks in the recipient and the subject.
pub type Filter = StatusSearch;

const SELECT: &str = "SELECT id, to_address, subject, status, CAST(attempts AS BIGINT) AS attempts, last_error, \
                      created, sent_at FROM outbox";

/// How many mails `filter` selects, and one page (1-based) of them, newest first. Without a
/// search the number comes from `counts`; a search is counted once per `count_version`.
pub async fn list(pool: &Pool, filter: &Filter, page: i64, counts: &Counts) -> Result<(i64, Vec<Mail>), sqlx::Error> {
    let counted = filter.search.is_none().then(|| counts.mails_in(filter.status.as_deref()));
    filter
        .sql("outbox_search", &["to_address", "subject"])
        .page(pool, SELECT, ("outbox", "id"), "id DESC", page, counts.matches(counted))
        .await
}

/// Every mail `filter` selects, newest first, one row at a time.
pub fn stream<'a>(pool: &'a Pool, filter: &Filter) -> BoxStream<'a, Result<Mail, sqlx::Error>> {
    filter.sql("outbox_search", &["to_address", "subject"]).stream(pool, SELECT, "id DESC")
}
