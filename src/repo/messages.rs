//! Contact messages (`messages`, migrations/0003_visitors.sql): written by POST `/api/contact`,
//! read by `conference export messages`.

use serde::Serialize;
use sqlx::FromRow;
use time::OffsetDateTime;
use time::macros::format_description;

use futures_util::stream::BoxStream;

use super::dashboard::Counts;
use super::filter::Where;
use crate::db::{self, Connection, Pool};

/// Characters of generated record ids (lowercase alphanumerics, like the content ids).
const ID_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
/// Length of generated record ids: 36^15 ≈ 2^77 values, so collisions are not a concern.
const ID_LEN: usize = 15;

/// A fresh random record id for visitors' rows (messages, subscribers).
pub fn record_id() -> String {
    (0..ID_LEN).map(|_| char::from(ID_ALPHABET[rand::random_range(0..ID_ALPHABET.len())])).collect()
}

/// Now as stored in `created` columns: RFC 3339 UTC with microseconds, fixed width
/// (`2025-03-01T09:30:00.123456Z`), so rows sort by it in the order they arrived.
pub fn created_now() -> String {
    OffsetDateTime::now_utc()
        .format(format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]Z"))
        .expect("a UTC date-time formats")
}

/// spec section 3, Contact message; the fields of a validated POST `/api/contact`.
#[derive(Debug, Clone)]
pub struct NewMessage {
    pub name: String,
    pub number: String,
    pub email: String,
    pub country: String,
    pub message: String,
}

/// A stored contact message.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Message {
    pub id: String,
    pub name: String,
    pub number: String,
    pub email: String,
    pub country: String,
    pub message: String,
    pub created: String,
}

/// Stores a message on `conn` (the caller's transaction, which also queues the organisers'
/// notice) and returns it with its id and time.
pub async fn insert(conn: &mut Connection, new: &NewMessage) -> Result<Message, sqlx::Error> {
    let message = Message {
        id: record_id(),
        name: new.name.clone(),
        number: new.number.clone(),
        email: new.email.clone(),
        country: new.country.clone(),
        message: new.message.clone(),
        created: created_now(),
    };
    sqlx::query(
        "INSERT INTO messages (id, name, number, email, country, message, created)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&message.id)
    .bind(&message.name)
    .bind(&message.number)
    .bind(&message.email)
    .bind(&message.country)
    .bind(&message.message)
    .bind(&message.created)
    .execute(conn)
    .await?;
    Ok(message)
}

/// Every message, oldest first (for the organisers' export).
pub async fn all(pool: &Pool) -> Result<Vec<Message>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, number, email, country, message, created FROM messages ORDER BY created, id")
        .fetch_all(pool)
        .await
}

/// A message as organisers see it: with when it was first opened.
#[derive(Debug, Clone, FromRow)]
pub struct Received {
    #[sqlx(flatten)]
    pub message: Message,
    /// RFC 3339 UTC; `None` until an organiser opened it.
    pub read_at: Option<String>,
    /// RFC 3339 UTC when an organiser marked it answered; `None`: not answered.
    pub answered_at: Option<String>,
    /// Who marked it answered.
    pub answered_by: Option<String>,
    /// The organisers' internal note.
    pub note: String,
}

const RECEIVED: &str =
    "SELECT id, name, number, email, country, message, created, read_at, answered_at, answered_by, note FROM messages";

/// The organisers' view of messages; `None` matches all.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// `Some(true)`: only messages opened already; `Some(false)`: only those not yet read.
    pub read: Option<bool>,
    /// Text in the name, e-mail, country or message.
    pub search: Option<String>,
}

impl Filter {
    fn sql(&self) -> Where {
        let mut filter = Where::new();
        if let Some(read) = self.read {
            filter.is_null("read_at", !read);
        }
        if let Some(text) = &self.search {
            filter.contains("messages_search", &["name", "email", "country", "message"], text);
        }
        filter
    }
}

/// Newest first.
const ORDER: &str = "created DESC, id DESC";

/// How many messages `filter` selects, and one page (1-based) of them, newest first. Without a
/// search the number comes from `counts`; a search is counted once per `count_version`.
pub async fn list(
    pool: &Pool,
    filter: &Filter,
    page: i64,
    counts: &Counts,
) -> Result<(i64, Vec<Received>), sqlx::Error> {
    let counted = filter.search.is_none().then_some(match filter.read {
        None => counts.messages,
        Some(false) => counts.unread,
        Some(true) => counts.messages - counts.unread,
    });
    filter.sql().page(pool, RECEIVED, ("messages", "id"), ORDER, page, counts.matches(counted)).await
}

/// Every message `filter` selects, newest first, one row at a time.
pub fn stream<'a>(pool: &'a Pool, filter: &Filter) -> BoxStream<'a, Result<Received, sqlx::Error>> {
    filter.sql().stream(pool, RECEIVED, ORDER)
}

/// One message by its id.
pub async fn by_id(pool: &Pool, id: &str) -> Result<Option<Received>, sqlx::Error> {
    if !db::storable(id) {
        return Ok(None);
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!("{RECEIVED} WHERE id = $1")))
        .bind(id.to_owned())
        .fetch_optional(pool)
        .await
}

/// Marks message `id` read at `now`, unless it was read before (the first opening counts).
pub async fn mark_read(pool: &Pool, id: &str, now: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE messages SET read_at = $2 WHERE id = $1 AND read_at IS NULL")
        .bind(id)
        .bind(now)
        .execute(pool)
        .await?;
    Ok(())
}

/// Marks message `id` answered (`Some((by, at))`) or not (`None`) and sets its internal note.
/// Returns whether the message exists.
pub async fn set_answered(
    conn: &mut Connection,
    id: &str,
    answered: Option<(&str, &str)>,
    note: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE messages SET answered_by = $1, answered_at = $2, note = $3 WHERE id = $4")
        .bind(answered.map(|(by, _)| by))
        .bind(answered.map(|(_, at)| at))
        .bind(note)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}
