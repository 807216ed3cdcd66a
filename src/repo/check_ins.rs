//! Check-ins at the registration desk (`check_ins`, migration 0020; DESIGN.md section 16):
//! at most one per ticket and day, whatever number of desks scan a ticket at once. The
//! primary key `(ticket_id, day)` decides: [`insert`] writes with `ON CONFLICT DO NOTHING`
//! and says whether its row is the one stored, and [`of_day`] reads the one that won.

use futures_util::stream::{BoxStream, StreamExt};
use serde::Serialize;
use sqlx::FromRow;

use crate::db::{self, Connection, Pool};

/// Stores the check-in of ticket `ticket_id` on `day` (`YYYY-MM-DD`, event zone) at `at` by
/// `by`, unless that ticket already has one that day. Returns whether this row was stored:
/// of two desks at once exactly one gets `true` (on PostgreSQL the second `INSERT` waits for
/// the first transaction and then does nothing).
pub async fn insert(conn: &mut Connection, ticket_id: i64, day: &str, at: &str, by: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO check_ins (ticket_id, day, at, checked_by) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (ticket_id, day) DO NOTHING",
    )
    .bind(ticket_id)
    .bind(day)
    .bind(at)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The check-in of ticket `ticket_id` on `day`: (when, RFC 3339 UTC; by whom). On the pool
/// (the desk's read before it writes) or inside a transaction.
pub async fn of_day<'e, E>(executor: E, ticket_id: i64, day: &str) -> Result<Option<(String, String)>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query_as("SELECT at, checked_by FROM check_ins WHERE ticket_id = $1 AND day = $2")
        .bind(ticket_id)
        .bind(day)
        .fetch_optional(executor)
        .await
}

/// A ticket found by the desk's search, with whether it is checked in on the day asked.
#[derive(Debug, Clone, FromRow)]
pub struct Found {
    pub code: String,
    pub order_id: String,
    pub holder_name: String,
    pub mode: String,
    pub ticket_type: String,
    pub refunded_at: Option<String>,
    /// RFC 3339 UTC of that day's check-in, if any.
    pub checked_in_at: Option<String>,
}

/// Tickets whose holder's name contains `query` (case-insensitively, ASCII) or whose order
/// id is `query`, by name, at most `limit`; each with its check-in on `day`.
pub async fn search(pool: &Pool, query: &str, day: &str, limit: i64) -> Result<Vec<Found>, sqlx::Error> {
    let query = query.trim();
    if query.is_empty() || !db::storable(query) {
        return Ok(Vec::new());
    }
    // `%`, `_` and the escape itself are taken literally.
    let escaped: String = query
        .to_lowercase()
        .chars()
        .flat_map(|c| if matches!(c, '%' | '_' | '\\') { vec!['\\', c] } else { vec![c] })
        .collect();
    sqlx::query_as(
        "SELECT t.code, t.order_id, t.holder_name, t.mode, t.ticket_type, t.refunded_at, c.at AS checked_in_at \
         FROM tickets t LEFT JOIN check_ins c ON c.ticket_id = t.id AND c.day = $1 \
         WHERE LOWER(t.holder_name) LIKE $2 ESCAPE '\\' OR t.order_id = $3 \
         ORDER BY t.holder_name, t.id LIMIT $4",
    )
    .bind(day)
    .bind(format!("%{escaped}%"))
    .bind(query)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Check-ins of one day and ticket type.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct DayCount {
    /// `YYYY-MM-DD`, event zone.
    pub day: String,
    pub ticket_type: String,
    pub checked_in: i64,
}

/// Check-ins per day and ticket type, by day then type.
pub async fn counts(pool: &Pool) -> Result<Vec<DayCount>, sqlx::Error> {
    sqlx::query_as(
        "SELECT c.day, t.ticket_type, COUNT(*) AS checked_in FROM check_ins c JOIN tickets t ON t.id = c.ticket_id \
         GROUP BY c.day, t.ticket_type ORDER BY c.day, t.ticket_type",
    )
    .fetch_all(pool)
    .await
}

/// One row of the check-ins' CSV.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Record {
    pub day: String,
    pub at: String,
    pub checked_by: String,
    pub order_id: String,
    pub holder_name: String,
    pub ticket_type: String,
    pub mode: String,
}

/// Every check-in, by day and time (`filter` is unused: the list has none).
pub fn stream<'a>(pool: &'a Pool, _filter: &()) -> BoxStream<'a, Result<Record, sqlx::Error>> {
    sqlx::query_as(
        "SELECT c.day, c.at, c.checked_by, t.order_id, t.holder_name, t.ticket_type, t.mode \
         FROM check_ins c JOIN tickets t ON t.id = c.ticket_id ORDER BY c.day, c.at, t.id",
    )
    .fetch(pool)
    .boxed()
}
