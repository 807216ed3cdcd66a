//! Newsletter subscribers (`subscribers`, migrations/0003_visitors.sql and 0007): written by
//! POST `/api/newsletter` as `pending`, `subscribed` once the confirmation link is opened,
//! `unsubscribed` by the one-click link (DESIGN.md section 5); read by `export subscribers`.

use serde::Serialize;
use sqlx::FromRow;

use futures_util::stream::BoxStream;

use super::dashboard::Counts;
use super::filter::StatusSearch;
use crate::db::{Connection, Pool};

use super::messages::{created_now, record_id};

/// A stored sign-up.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Subscriber {
    pub id: String,
    pub email: String,
    pub created: String,
    /// `pending`, `subscribed` or `unsubscribed`.
    pub status: String,
    /// RFC 3339 UTC; when the confirmation link was opened.
    pub confirmed: Option<String>,
}

/// What a sign-up did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignUp {
    /// A new address, stored as `pending`: send the confirmation mail (201).
    New,
    /// An address that had unsubscribed, `pending` again: send the confirmation mail (200).
    Returning,
    /// Already pending or subscribed: nothing to do, no mail (200).
    Known,
}

/// Adds `email` as pending unless the address (ignoring letter case) is already there
/// (DESIGN.md section 5: 201 when new, 200 when already there).
pub async fn subscribe(conn: &mut Connection, email: &str) -> Result<SignUp, sqlx::Error> {
    // One statement, so two concurrent sign-ups of one address store one row and neither fails.
    let result = sqlx::query(
        "INSERT INTO subscribers (id, email, created, status) VALUES ($1, $2, $3, 'pending') ON CONFLICT DO NOTHING",
    )
    .bind(record_id())
    .bind(email)
    .bind(created_now())
    .execute(&mut *conn)
    .await?;
    if result.rows_affected() == 1 {
        return Ok(SignUp::New);
    }
    let back = sqlx::query(
        "UPDATE subscribers SET status = 'pending', confirmed = NULL
         WHERE lower(email) = lower($1) AND status = 'unsubscribed'",
    )
    .bind(email)
    .execute(&mut *conn)
    .await?;
    Ok(if back.rows_affected() == 1 { SignUp::Returning } else { SignUp::Known })
}

/// Confirms a pending address at `now` (RFC 3339). `true` when it is subscribed afterwards
/// (confirmed now or before); `false` for an unknown or unsubscribed address.
pub async fn confirm(pool: &Pool, email: &str, now: &str) -> Result<bool, sqlx::Error> {
    sqlx::query(
        "UPDATE subscribers SET status = 'subscribed', confirmed = $2
         WHERE lower(email) = lower($1) AND status = 'pending'",
    )
    .bind(email)
    .bind(now)
    .execute(pool)
    .await?;
    let status: Option<(String,)> = sqlx::query_as("SELECT status FROM subscribers WHERE lower(email) = lower($1)")
        .bind(email)
        .fetch_optional(pool)
        .await?;
    Ok(status.is_some_and(|(s,)| s == "subscribed"))
}

/// Unsubscribes an address, whatever its state; `false` when it is unknown.
pub async fn unsubscribe(pool: &Pool, email: &str) -> Result<bool, sqlx::Error> {
    let result = sqlx::query("UPDATE subscribers SET status = 'unsubscribed' WHERE lower(email) = lower($1)")
        .bind(email)
        .execute(pool)
        .await?;
    Ok(result.rows_affected() == 1)
}

/// Every subscriber, oldest first (for the organisers' export).
pub async fn all(pool: &Pool) -> Result<Vec<Subscriber>, sqlx::Error> {
    sqlx::query_as("SELECT id, email, created, status, confirmed FROM subscribers ORDER BY created, id")
        .fetch_all(pool)
        .await
}

/// The organisers' view of subscribers: `status` is `pending`, `subscribed` or `unsubscribed`;
/// the search looks in the address.
pub type Filter = StatusSearch;

const SELECT: &str = "SELECT id, email, created, status, confirmed FROM subscribers";
/// Newest first.
const ORDER: &str = "created DESC, id DESC";

/// How many subscribers `filter` selects, and one page (1-based) of them, newest first.
/// Without a search the number comes from `counts`; a search is counted once per
/// `count_version`.
pub async fn list(
    pool: &Pool,
    filter: &Filter,
    page: i64,
    counts: &Counts,
) -> Result<(i64, Vec<Subscriber>), sqlx::Error> {
    let counted = filter.search.is_none().then(|| counts.subscribers_in(filter.status.as_deref()));
    filter
        .sql("subscribers_search", &["email"])
        .page(pool, SELECT, ("subscribers", "id"), ORDER, page, counts.matches(counted))
        .await
}

/// Every subscriber `filter` selects, newest first, one row at a time.
pub fn stream<'a>(pool: &'a Pool, filter: &Filter) -> BoxStream<'a, Result<Subscriber, sqlx::Error>> {
    filter.sql("subscribers_search", &["email"]).stream(pool, SELECT, ORDER)
}
