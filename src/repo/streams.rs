//! The stream links of online and hybrid sessions (`migrations/0020_attendees.sql`, DESIGN.md
//! section 16): set by organisers, read only by the attendee page of a paid ticket and by
//! the organisers' page that sets them.

use sqlx::FromRow;

use crate::db::{self, Connection, Pool};

/// A session's stream.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct StreamLink {
    /// The seed's session slug.
    pub session: String,
    /// An absolute `https` or `http` URL (`crate::attendance::streams::check_url`).
    pub url: String,
    /// What the link is called on the attendee page ("Zoom", "YouTube live"); may be empty.
    pub label: String,
    /// RFC 3339 UTC.
    pub updated: String,
    /// The organiser who set it.
    pub updated_by: String,
}

/// Every stream link, by session slug.
pub async fn all(pool: &Pool) -> Result<Vec<StreamLink>, sqlx::Error> {
    sqlx::query_as("SELECT session, url, label, updated, updated_by FROM stream_links ORDER BY session")
        .fetch_all(pool)
        .await
}

/// Session `session`'s stream link, if it has one.
pub async fn of_session(conn: &mut Connection, session: &str) -> Result<Option<StreamLink>, sqlx::Error> {
    if !db::storable(session) {
        return Ok(None);
    }
    sqlx::query_as("SELECT session, url, label, updated, updated_by FROM stream_links WHERE session = $1")
        .bind(session)
        .fetch_optional(conn)
        .await
}

/// Sets session `link.session`'s stream link (a new one, or in place of the one it had).
pub async fn set(conn: &mut Connection, link: &StreamLink) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO stream_links (session, url, label, updated, updated_by) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (session) DO UPDATE SET url = excluded.url, label = excluded.label, \
         updated = excluded.updated, updated_by = excluded.updated_by",
    )
    .bind(&link.session)
    .bind(&link.url)
    .bind(&link.label)
    .bind(&link.updated)
    .bind(&link.updated_by)
    .execute(conn)
    .await?;
    Ok(())
}

/// Removes session `session`'s stream link. Returns whether it had one.
pub async fn remove(conn: &mut Connection, session: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM stream_links WHERE session = $1").bind(session).execute(conn).await?;
    Ok(done.rows_affected() == 1)
}
