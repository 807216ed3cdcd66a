//! Decisions on submissions (migrations/0012_decisions.sql, issue 21): the organisers'
//! pending decisions, applying them, the authors' status links and withdrawals.
//!
//! Every change is one conditional `UPDATE` that names the version it was drawn from, so of
//! two organisers (or instances) acting on the same row, only the first changes it; the
//! other's `UPDATE` matches no row and the caller says so. On PostgreSQL a second `UPDATE`
//! waits for the first's transaction and then re-checks its `WHERE` against the committed row
//! (READ COMMITTED), which is what makes applying on two instances at once mail each author
//! once.

use super::submissions::{COLUMNS, Submission};
use crate::db::{self, Connection, Pool};

/// Sets (`Some`) or clears (`None`) the pending decision of `reference` with its mail's
/// `note`, if the row is still at `version` and not withdrawn. Returns the new version, or
/// `None` when nothing changed.
pub async fn set_pending(
    conn: &mut Connection,
    reference: &str,
    version: i64,
    decision: Option<&str>,
    note: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE submissions SET pending_decision = $1, decision_note = $2, version = version + 1
         WHERE reference = $3 AND version = $4 AND state <> 'withdrawn' RETURNING version",
    )
    .bind(decision)
    .bind(note)
    .bind(reference)
    .bind(version)
    .fetch_optional(conn)
    .await
}

/// Every submission with a pending decision, by reference.
pub async fn pending(pool: &Pool) -> Result<Vec<Submission>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM submissions WHERE pending_decision IS NOT NULL ORDER BY reference"
    )))
    .fetch_all(pool)
    .await
}

/// Applies the pending decision of `reference` as it stood at `version`: the state becomes
/// the decision, stamped `at`, and the count of decisions (the mail's key) goes up. `None`
/// when the row changed since `version` or has no pending decision (applied already, by
/// this request's twin or another instance).
pub async fn apply(
    conn: &mut Connection,
    reference: &str,
    version: i64,
    at: &str,
) -> Result<Option<Submission>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE submissions SET state = pending_decision, pending_decision = NULL, decided_at = $1,
                decisions = decisions + 1, version = version + 1
         WHERE reference = $2 AND version = $3 AND pending_decision IS NOT NULL AND state <> 'withdrawn'
         RETURNING {COLUMNS}"
    )))
    .bind(at)
    .bind(reference)
    .bind(version)
    .fetch_optional(conn)
    .await
}

/// Whether `reference` has a pending decision now (read on `conn`, after [`apply`]).
pub async fn is_pending(conn: &mut Connection, reference: &str) -> Result<bool, sqlx::Error> {
    let pending: Option<i64> =
        sqlx::query_scalar("SELECT version FROM submissions WHERE reference = $1 AND pending_decision IS NOT NULL")
            .bind(reference)
            .fetch_optional(conn)
            .await?;
    Ok(pending.is_some())
}

/// Stores a status link of `submission` by its token's hash (`crate::base::secrets::hash`).
pub async fn add_link(conn: &mut Connection, submission: i64, token_hash: &str, at: &str) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO submission_links (token_hash, submission_id, created) VALUES ($1, $2, $3)")
        .bind(token_hash)
        .bind(submission)
        .bind(at)
        .execute(conn)
        .await?;
    Ok(())
}

/// The submission a status link's token hash opens.
pub async fn by_link(pool: &Pool, token_hash: &str) -> Result<Option<Submission>, sqlx::Error> {
    if !db::storable(token_hash) {
        return Ok(None);
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM submissions WHERE id = (SELECT submission_id FROM submission_links WHERE token_hash = $1)"
    )))
    .bind(token_hash)
    .fetch_optional(pool)
    .await
}

/// The author withdraws `submission`: only while no decision is applied (`submitted`); a
/// pending decision goes with it. Returns whether it was withdrawn now.
pub async fn withdraw(conn: &mut Connection, submission: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE submissions SET state = 'withdrawn', pending_decision = NULL, version = version + 1
         WHERE id = $1 AND state = 'submitted'",
    )
    .bind(submission)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}
