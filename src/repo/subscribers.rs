//! Newsletter subscribers (`subscribers`, migrations/0003_visitors.sql): written by POST
//! `/api/newsletter`, read by `conference export subscribers`.

use serde::Serialize;
use sqlx::FromRow;

use crate::db::{Connection, Pool};

use super::messages::{created_now, record_id};

/// A stored sign-up.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Subscriber {
    pub id: String,
    pub email: String,
    pub created: String,
}

/// Adds `email` unless the address (ignoring letter case) is already there.
/// Returns `true` when it was added, `false` when it was already subscribed
/// (DESIGN.md section 5: 201 when new, 200 when already there).
pub async fn subscribe(conn: &mut Connection, email: &str) -> Result<bool, sqlx::Error> {
    // One statement, so two concurrent sign-ups of one address store one row and neither fails.
    let result = sqlx::query("INSERT INTO subscribers (id, email, created) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
        .bind(record_id())
        .bind(email)
        .bind(created_now())
        .execute(conn)
        .await?;
    Ok(result.rows_affected() == 1)
}

/// Every subscriber, oldest first (for the organisers' export).
pub async fn all(pool: &Pool) -> Result<Vec<Subscriber>, sqlx::Error> {
    sqlx::query_as("SELECT id, email, created FROM subscribers ORDER BY created, id").fetch_all(pool).await
}
