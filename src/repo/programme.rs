//! The programme's organiser data (migrations/0017_placements.sql, issue 31): the draft
//! placement, the published versions and the lock on authors' edits.
//!
//! A version's row is written by `crate::programme::publish` in one transaction with its
//! mails, its audit entry and the content version; its number is the primary key, so two
//! organisers publishing at once make one version.

use super::published::{Change, Published, VersionSummary};
use super::submissions::{COLUMNS, Submission};
use crate::db::{Connection, Pool};

/// A paper's place in the draft (`placements` row): its session's slug, its position there
/// (1, 2, ...) and its length in minutes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub submission_id: i64,
    pub session: String,
    pub position: i64,
    pub minutes: i64,
}

/// A submission the programme may show, with its public abstract and presenter.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Placeable {
    #[sqlx(flatten)]
    pub submission: Submission,
    pub presenter: String,
    pub public_abstract: String,
}

fn decode(err: serde_json::Error) -> sqlx::Error {
    sqlx::Error::Decode(Box::new(err))
}

/// The latest published version, `None` before the first.
pub async fn latest(pool: &Pool) -> Result<Option<Published>, sqlx::Error> {
    let row: Option<(String,)> =
        sqlx::query_as("SELECT programme FROM programme_versions ORDER BY number DESC LIMIT 1")
            .fetch_optional(pool)
            .await?;
    row.map(|(json,)| serde_json::from_str(&json).map_err(decode)).transpose()
}

/// Every published version with its changes, newest first.
pub async fn versions(pool: &Pool) -> Result<Vec<VersionSummary>, sqlx::Error> {
    let rows: Vec<(i64, String, String, String)> =
        sqlx::query_as("SELECT number, name, published_at, changes FROM programme_versions ORDER BY number DESC")
            .fetch_all(pool)
            .await?;
    rows.into_iter()
        .map(|(number, name, published_at, changes)| {
            let changes: Vec<Change> = serde_json::from_str(&changes).map_err(decode)?;
            Ok(VersionSummary { number, name, published_at, changes })
        })
        .collect()
}

/// The draft placement, by session and position.
pub async fn placements(pool: &Pool) -> Result<Vec<Placement>, sqlx::Error> {
    let rows: Vec<(i64, String, i64, i64)> = sqlx::query_as(
        "SELECT submission_id, session, position, minutes FROM placements ORDER BY session, position, submission_id",
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(submission_id, session, position, minutes)| Placement { submission_id, session, position, minutes })
        .collect())
}

/// The papers the programme may show: every accepted submission and every placed one
/// (whatever its state now, so a withdrawn placed paper shows as a conflict), oldest first.
pub async fn papers(pool: &Pool) -> Result<Vec<Placeable>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS}, presenter, public_abstract FROM submissions
         WHERE state = 'accepted' OR id IN (SELECT submission_id FROM placements) ORDER BY created, id"
    )))
    .fetch_all(pool)
    .await
}

/// Places `submission_id` in `session` for `minutes`: at the end of the session when it
/// comes from elsewhere (or nowhere), in its place when it only changes length.
pub async fn place(
    conn: &mut Connection,
    submission_id: i64,
    session: &str,
    minutes: i64,
    at: &str,
) -> Result<(), sqlx::Error> {
    let current: Option<(String,)> = sqlx::query_as("SELECT session FROM placements WHERE submission_id = $1")
        .bind(submission_id)
        .fetch_optional(&mut *conn)
        .await?;
    if current.as_ref().is_some_and(|(s,)| s == session) {
        sqlx::query("UPDATE placements SET minutes = $1, updated = $2 WHERE submission_id = $3")
            .bind(minutes)
            .bind(at)
            .bind(submission_id)
            .execute(&mut *conn)
            .await?;
        return Ok(());
    }
    unplace(conn, submission_id).await?;
    let (last,): (Option<i64>,) = sqlx::query_as("SELECT MAX(position) FROM placements WHERE session = $1")
        .bind(session)
        .fetch_one(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO placements (submission_id, session, position, minutes, updated) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(submission_id)
    .bind(session)
    .bind(last.unwrap_or(0) + 1)
    .bind(minutes)
    .bind(at)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Takes `submission_id` out of the draft, closing the gap it leaves. Returns whether it was
/// placed.
pub async fn unplace(conn: &mut Connection, submission_id: i64) -> Result<bool, sqlx::Error> {
    let removed: Option<(String, i64)> =
        sqlx::query_as("DELETE FROM placements WHERE submission_id = $1 RETURNING session, position")
            .bind(submission_id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some((session, position)) = removed else { return Ok(false) };
    sqlx::query("UPDATE placements SET position = position - 1 WHERE session = $1 AND position > $2")
        .bind(session)
        .bind(position)
        .execute(&mut *conn)
        .await?;
    Ok(true)
}

/// Moves `submission_id` one place earlier (`-1`) or later (`+1`) in its session, swapping
/// with its neighbour. Returns whether it moved (not at that end already, and placed).
pub async fn shift(conn: &mut Connection, submission_id: i64, by: i64) -> Result<bool, sqlx::Error> {
    let Some((session, position)): Option<(String, i64)> =
        sqlx::query_as("SELECT session, position FROM placements WHERE submission_id = $1")
            .bind(submission_id)
            .fetch_optional(&mut *conn)
            .await?
    else {
        return Ok(false);
    };
    let neighbour: Option<(i64,)> =
        sqlx::query_as("SELECT submission_id FROM placements WHERE session = $1 AND position = $2")
            .bind(&session)
            .bind(position + by)
            .fetch_optional(&mut *conn)
            .await?;
    let Some((neighbour,)) = neighbour else { return Ok(false) };
    sqlx::query("UPDATE placements SET position = $1 WHERE submission_id = $2")
        .bind(position)
        .bind(neighbour)
        .execute(&mut *conn)
        .await?;
    sqlx::query("UPDATE placements SET position = $1 WHERE submission_id = $2")
        .bind(position + by)
        .bind(submission_id)
        .execute(&mut *conn)
        .await?;
    Ok(true)
}

/// When the programme was locked and by whom; `None` while authors may still edit. On the
/// pool (a page) or inside the transaction that locks or unlocks it.
pub async fn locked<'e, E>(executor: E) -> Result<Option<(String, String)>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let (at, by): (Option<String>, Option<String>) =
        sqlx::query_as("SELECT locked_at, locked_by FROM programme_lock WHERE id = 1").fetch_one(executor).await?;
    Ok(at.zip(by))
}

/// Locks (`Some((at, by))`) or unlocks (`None`) the authors' edits.
pub async fn set_locked(conn: &mut Connection, lock: Option<(&str, &str)>) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE programme_lock SET locked_at = $1, locked_by = $2 WHERE id = 1")
        .bind(lock.map(|(at, _)| at))
        .bind(lock.map(|(_, by)| by))
        .execute(conn)
        .await?;
    Ok(())
}

/// Sets a paper's public abstract and presenter (the author through the status link, or an
/// organiser). The caller checks the words and the lock.
pub async fn set_public_fields(
    conn: &mut Connection,
    submission_id: i64,
    public_abstract: &str,
    presenter: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE submissions SET public_abstract = $1, presenter = $2, version = version + 1 WHERE id = $3")
        .bind(public_abstract)
        .bind(presenter)
        .bind(submission_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The version submission `submission_id` is at, read on `conn`: after
/// [`set_public_fields`] in the same transaction, one more than the version the form was
/// drawn from unless someone else changed the row meanwhile (on PostgreSQL the second
/// `UPDATE` waits for the first to commit and raises the version again).
pub async fn version_of(conn: &mut Connection, submission_id: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT version FROM submissions WHERE id = $1").bind(submission_id).fetch_optional(conn).await
}

/// The public abstract and presenter of one submission (empty when not set): on the pool,
/// or inside the transaction that changes them (the audit entry's "before").
pub async fn public_fields<'e, E>(executor: E, submission_id: i64) -> Result<(String, String), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query_as("SELECT public_abstract, presenter FROM submissions WHERE id = $1")
        .bind(submission_id)
        .fetch_one(executor)
        .await
}

/// Stores `version` with `changes` on `conn` (the publishing transaction). `false` when a
/// version of that number exists: someone published first.
pub async fn insert_version(
    conn: &mut Connection,
    version: &Published,
    changes: &[Change],
    actor: &str,
) -> Result<bool, sqlx::Error> {
    let programme = serde_json::to_string(version).map_err(decode)?;
    let changes = serde_json::to_string(changes).map_err(decode)?;
    let inserted = sqlx::query(
        "INSERT INTO programme_versions (number, name, published_at, published_by, programme, changes)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (number) DO NOTHING",
    )
    .bind(version.number)
    .bind(&version.name)
    .bind(&version.published_at)
    .bind(actor)
    .bind(programme)
    .bind(changes)
    .execute(conn)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

/// The draft placement of one submission, read on `conn` (the transaction that changes it, so
/// its audit entry records what was there before).
pub async fn placement(conn: &mut Connection, submission_id: i64) -> Result<Option<Placement>, sqlx::Error> {
    let row: Option<(i64, String, i64, i64)> =
        sqlx::query_as("SELECT submission_id, session, position, minutes FROM placements WHERE submission_id = $1")
            .bind(submission_id)
            .fetch_optional(conn)
            .await?;
    Ok(row.map(|(submission_id, session, position, minutes)| Placement { submission_id, session, position, minutes }))
}
