//! Sign-in links and sessions of every role (migrations/0010_organisers.sql; the `role`
//! column, migration 0019). Times are
//! RFC 3339 UTC strings of one fixed width, compared as text; callers pass them in, so the
//! clock stays theirs (tests move it).

use sqlx::FromRow;

use crate::db::{Connection, Pool};

/// Records a sign-in link (its token's hash) asked for by `email` for `role`
/// (`crate::sign_in::roles::Role::as_str`).
pub async fn insert_link(
    conn: &mut Connection,
    email: &str,
    role: &str,
    token_hash: &str,
    created: &str,
    expires: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO organiser_links (email, role, token_hash, created, expires) VALUES ($1, $2, $3, $4, $5)")
        .bind(email)
        .bind(role)
        .bind(token_hash)
        .bind(created)
        .bind(expires)
        .execute(conn)
        .await?;
    Ok(())
}

/// Links asked for by `email` since `since`, for any role (the limit is per address).
pub async fn links_since(conn: &mut Connection, email: &str, since: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM organiser_links WHERE email = $1 AND created >= $2")
        .bind(email)
        .bind(since)
        .fetch_one(conn)
        .await
}

/// The address of a `role` link that still works at `now` (not used, not expired); reading
/// it uses nothing up.
pub async fn usable_link(pool: &Pool, token_hash: &str, role: &str, now: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT email FROM organiser_links WHERE token_hash = $1 AND role = $2 AND used IS NULL AND expires > $3",
    )
    .bind(token_hash)
    .bind(role)
    .bind(now)
    .fetch_optional(pool)
    .await
}

/// Uses a link up, once: one atomic `UPDATE` that only an unused, unexpired link passes, so
/// two requests racing with the same link (on one instance or two) sign in at most once.
/// Returns the link's address when this call used it. A link of another role is left alone.
pub async fn use_link(
    conn: &mut Connection,
    token_hash: &str,
    role: &str,
    now: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE organiser_links SET used = $1 WHERE token_hash = $2 AND role = $3 AND used IS NULL AND expires > $1 \
         RETURNING email",
    )
    .bind(now)
    .bind(token_hash)
    .bind(role)
    .fetch_optional(conn)
    .await
}

/// A stored session.
#[derive(Debug, Clone, FromRow)]
pub struct Session {
    pub id: i64,
    pub email: String,
    /// `crate::sign_in::roles::Role::as_str`.
    pub role: String,
    pub created: String,
    pub last_seen: String,
    /// The absolute end.
    pub expires: String,
    pub client: Option<String>,
}

/// Stores a new session (its id's hash) of `email` in `role`.
pub async fn insert_session(
    conn: &mut Connection,
    id_hash: &str,
    email: &str,
    role: &str,
    created: &str,
    expires: &str,
    client: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO organiser_sessions (id_hash, email, role, created, last_seen, expires, client) \
         VALUES ($1, $2, $3, $4, $4, $5, $6)",
    )
    .bind(id_hash)
    .bind(email)
    .bind(role)
    .bind(created)
    .bind(expires)
    .bind(client)
    .execute(conn)
    .await?;
    Ok(())
}

/// The session whose id hashes to `id_hash`.
pub async fn find_session(pool: &Pool, id_hash: &str) -> Result<Option<Session>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, email, role, created, last_seen, expires, client FROM organiser_sessions WHERE id_hash = $1",
    )
    .bind(id_hash)
    .fetch_optional(pool)
    .await
}

/// Marks a session as seen at `now` (its idle timer restarts).
pub async fn touch_session(pool: &Pool, id: i64, now: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE organiser_sessions SET last_seen = $1 WHERE id = $2").bind(now).bind(id).execute(pool).await?;
    Ok(())
}

/// Ends one session.
pub async fn delete_session(conn: &mut Connection, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM organiser_sessions WHERE id = $1").bind(id).execute(conn).await?;
    Ok(())
}

/// Ends every session of `email`, in every role; how many there were.
pub async fn delete_sessions_of(conn: &mut Connection, email: &str) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM organiser_sessions WHERE email = $1").bind(email).execute(conn).await?.rows_affected())
}

/// The role names stored in `organiser_links.role` and `organiser_sessions.role`
/// (`crate::sign_in::roles::Role`).
pub const ORGANISER: &str = "organiser";
/// See [`ORGANISER`].
pub const REVIEWER: &str = "reviewer";
/// See [`ORGANISER`].
pub const CHECKIN: &str = "checkin";

/// Ends every `role` session of `email` (a reviewer removed keeps an organiser's sessions).
pub async fn delete_role_sessions_of(conn: &mut Connection, email: &str, role: &str) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM organiser_sessions WHERE email = $1 AND role = $2")
        .bind(email)
        .bind(role)
        .execute(conn)
        .await?
        .rows_affected())
}

/// The open sessions of `email`, newest first.
pub async fn sessions_of(pool: &Pool, email: &str) -> Result<Vec<Session>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, email, role, created, last_seen, expires, client FROM organiser_sessions \
         WHERE email = $1 ORDER BY created DESC, id DESC",
    )
    .bind(email)
    .fetch_all(pool)
    .await
}
