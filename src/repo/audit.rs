//! The audit log (migrations/0010_organisers.sql, DESIGN.md section 12): append-only, written
//! on the connection of what it records (its transaction), never updated or deleted (the
//! database refuses both). It never holds a token or a session id.

use futures_util::stream::BoxStream;
use serde::Serialize;
use sqlx::FromRow;

use super::filter::{Matches, Where};
use crate::db::{Connection, Pool};

/// Who did it: an organiser's address, `cli` (a command on the server) or `system`.
pub const CLI: &str = "cli";
pub const SYSTEM: &str = "system";
/// The author of a submission, through the private status link.
pub const AUTHOR: &str = "author";
/// The holder of a ticket, through the private attendee link (or the visitor who asked for it
/// again).
pub const ATTENDEE: &str = "attendee";

/// An entry to record.
#[derive(Debug, Clone)]
pub struct NewEntry<'a> {
    /// RFC 3339 UTC.
    pub at: &'a str,
    pub actor: &'a str,
    pub client: Option<&'a str>,
    /// Dotted, e.g. `auth.signed_in`.
    pub action: &'a str,
    pub object_type: Option<&'a str>,
    pub object_id: Option<&'a str>,
    /// JSON object.
    pub details: serde_json::Value,
}

impl<'a> NewEntry<'a> {
    /// An entry of `actor` (from `client`, when known) doing `action` at `at`, about no
    /// object, with empty details (`{}`).
    pub fn new(at: &'a str, actor: &'a str, client: Option<&'a str>, action: &'a str) -> NewEntry<'a> {
        NewEntry { at, actor, client, action, object_type: None, object_id: None, details: serde_json::json!({}) }
    }

    /// This entry about object `object_id` of type `object_type`.
    pub fn about(self, object_type: &'a str, object_id: &'a str) -> NewEntry<'a> {
        NewEntry { object_type: Some(object_type), object_id: Some(object_id), ..self }
    }
}

/// Who does an action, as the audit log names them (OWASP's Logging cheat sheet: who, and
/// from where): the signed-in person's address, or `AUTHOR` / `ATTENDEE` for a private link's
/// holder, and the client address of the request when known. Domain functions take it in
/// place of a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub email: String,
    pub client: Option<String>,
}

impl Actor {
    /// An entry by this actor doing `action` at `at` (RFC 3339 UTC).
    pub fn entry<'a>(&'a self, at: &'a str, action: &'a str) -> NewEntry<'a> {
        NewEntry::new(at, &self.email, self.client.as_deref(), action)
    }
}

/// A recorded entry.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Entry {
    pub id: i64,
    pub at: String,
    pub actor: String,
    pub client: Option<String>,
    pub action: String,
    pub object_type: Option<String>,
    pub object_id: Option<String>,
    pub details: String,
}

/// Appends `entry` on `conn`.
pub async fn record(conn: &mut Connection, entry: &NewEntry<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO audit_log (at, actor, client, action, object_type, object_id, details) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(entry.at)
    .bind(entry.actor)
    .bind(entry.client)
    .bind(entry.action)
    .bind(entry.object_type)
    .bind(entry.object_id)
    .bind(entry.details.to_string())
    .execute(conn)
    .await?;
    Ok(())
}

/// The newest `limit` entries, newest first.
pub async fn latest(pool: &Pool, limit: i64) -> Result<Vec<Entry>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, at, actor, client, action, object_type, object_id, details FROM audit_log \
         ORDER BY id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Every entry, oldest first (`conference export audit`).
pub async fn all(pool: &Pool) -> Result<Vec<Entry>, sqlx::Error> {
    sqlx::query_as("SELECT id, at, actor, client, action, object_type, object_id, details FROM audit_log ORDER BY id")
        .fetch_all(pool)
        .await
}

/// The history of one object (`submission` and its reference, `message` and its id, ...):
/// its entries, oldest first.
pub async fn of_object(pool: &Pool, object_type: &str, object_id: &str) -> Result<Vec<Entry>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, at, actor, client, action, object_type, object_id, details FROM audit_log \
         WHERE object_type = $1 AND object_id = $2 ORDER BY id",
    )
    .bind(object_type)
    .bind(object_id)
    .fetch_all(pool)
    .await
}

const SELECT: &str = "SELECT id, at, actor, client, action, object_type, object_id, details FROM audit_log";

/// The organisers' view of the log: entries whose actor, action or object contains `search`.
fn sql(search: Option<&str>) -> Where {
    let mut filter = Where::new();
    if let Some(text) = search {
        filter.contains("audit_log_search", &["actor", "action", "object_type", "object_id"], text);
    }
    filter
}

/// How many entries match, and one page (1-based) of them, newest first.
pub async fn list(pool: &Pool, search: Option<&str>, page: i64) -> Result<(i64, Vec<Entry>), sqlx::Error> {
    sql(search).page(pool, SELECT, ("audit_log", "id"), "id DESC", page, Matches::Count).await
}

/// The entries [`list`] shows, newest first, one row at a time.
pub fn stream<'a>(pool: &'a Pool, search: Option<&str>) -> BoxStream<'a, Result<Entry, sqlx::Error>> {
    sql(search).stream(pool, SELECT, "id DESC")
}
