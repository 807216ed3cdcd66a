//! Applying the content seed (DESIGN.md section 3): the organisers' SQL in one transaction,
//! checked against the seed's rules before it commits, and the content version raised in the
//! same transaction so every instance reloads exactly when the new content is committed.

use crate::db::{Connection, Pool, begin_write, bump_content_version};

/// The content seed organisers edit; re-applied by `conference seed`. It deletes and
/// re-inserts content tables only, so visitors' messages, submissions and orders stay.
/// Plain SQL both engines accept.
pub const CONTENT_SEED: &str = include_str!("../../migrations/seed/content.sql");
/// Where `conference seed` looks for the organisers' working copy of [`CONTENT_SEED`],
/// relative to the current directory (a checkout of the project).
pub const CONTENT_SEED_PATH: &str = "migrations/seed/content.sql";

/// Re-applies the content seed in one transaction: either all content is replaced or none.
pub async fn seed(pool: &Pool) -> Result<(), SeedError> {
    seed_with(pool, CONTENT_SEED.to_owned()).await
}

/// Applies a content seed text (an edited `content.sql`) in one transaction, and bumps the
/// content version in that same transaction, so running servers reload exactly when the new
/// content is committed (`crate::content::watch`).
/// A seed whose mail templates name an unknown placeholder is refused whole
/// ([`check_mail_templates`]).
pub async fn seed_with(pool: &Pool, sql: String) -> Result<(), SeedError> {
    let mut tx = begin_write(pool).await?;
    match apply_checked(&mut tx, &sql).await {
        Ok(()) => Ok(tx.commit().await?),
        Err(err) => {
            // Rolled back here rather than when dropped: on PostgreSQL a dropped transaction's
            // rollback waits for the connection's next use, and its locks on every content
            // table with it, so a seed applied next in the same process would wait for ever.
            tx.rollback().await?;
            Err(err)
        }
    }
}

/// The seed `sql` and its checks on `conn` (a transaction), and the content version raised.
async fn apply_checked(conn: &mut Connection, sql: &str) -> Result<(), SeedError> {
    // The seed is the organisers' own SQL file, not visitor input.
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(&mut *conn).await?;
    check_mail_templates(conn, sql).await?;
    check_programme(conn).await?;
    check_review_form(conn).await?;
    bump_content_version(conn).await?;
    Ok(())
}

/// A content seed that was not applied.
#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Template(#[from] super::placeholders::UnknownPlaceholder),
    #[error(transparent)]
    Programme(#[from] super::session_rules::ProgrammeError),
    #[error(transparent)]
    ReviewForm(#[from] super::review_rules::FormError),
}

/// Refuses the decision mails' templates `sql` stored on `conn` when one names a placeholder
/// `super::placeholders` does not know (issue 21), naming the seed's line.
pub async fn check_mail_templates(conn: &mut Connection, sql: &str) -> Result<(), SeedError> {
    let templates: Vec<(String, String, String)> =
        sqlx::query_as("SELECT name, subject, body FROM mail_templates ORDER BY name").fetch_all(&mut *conn).await?;
    Ok(super::placeholders::check(sql, &templates)?)
}

/// Refuses the programme `conn` holds when its zone is unknown, a session does not end after
/// it starts, a room holds two sessions at once or a keynote names a speaker the seed does
/// not have (issue 31, `super::session_rules`).
pub async fn check_programme(conn: &mut Connection) -> Result<(), SeedError> {
    let zone: Option<(String,)> =
        sqlx::query_as("SELECT time_zone FROM site WHERE id = 1").fetch_optional(&mut *conn).await?;
    let rows: Vec<(String, String, String, String)> =
        sqlx::query_as("SELECT slug, room, starts_at, ends_at FROM sessions ORDER BY starts_at, slug")
            .fetch_all(&mut *conn)
            .await?;
    let sessions: Vec<super::session_rules::SessionTimes> = rows
        .into_iter()
        .map(|(slug, room, starts_at, ends_at)| super::session_rules::SessionTimes { slug, room, starts_at, ends_at })
        .collect();
    match zone {
        Some((zone,)) => super::session_rules::check(&zone, &sessions)?,
        None => super::session_rules::check_sessions(&sessions)?,
    }
    let unknown: Option<(String, String)> = sqlx::query_as(
        "SELECT slug, speaker FROM sessions WHERE speaker IS NOT NULL
         AND speaker NOT IN (SELECT id FROM speakers) ORDER BY slug LIMIT 1",
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some((slug, speaker)) = unknown {
        return Err(super::session_rules::ProgrammeError::UnknownSpeaker { slug, speaker }.into());
    }
    Ok(())
}

/// Refuses the review form and settings `conn` holds when a criterion, a setting or a webmail
/// domain breaks a rule of `super::review_rules` (issue 32 item 2), naming it.
pub async fn check_review_form(conn: &mut Connection) -> Result<(), SeedError> {
    let criteria: Vec<super::review_rules::CriterionRow> = sqlx::query_as(
        "SELECT key, position, label, description, scale, weight FROM review_criteria ORDER BY position, key",
    )
    .fetch_all(&mut *conn)
    .await?;
    let settings: Option<super::review_rules::SettingsRow> = sqlx::query_as(
        "SELECT review_mode, reviewers_per_paper, max_papers_per_reviewer, review_deadline FROM site WHERE id = 1",
    )
    .fetch_optional(&mut *conn)
    .await?;
    let webmail: Vec<String> =
        sqlx::query_scalar("SELECT domain FROM webmail_domains ORDER BY domain").fetch_all(&mut *conn).await?;
    super::review_rules::check_criteria(&criteria)?;
    if let Some(settings) = settings {
        super::review_rules::check_settings(&settings)?;
    }
    Ok(super::review_rules::check_webmail(&webmail)?)
}

/// Seeds the content when the database has none yet (first start on a fresh machine).
/// Returns whether it seeded.
pub async fn seed_if_empty(pool: &Pool) -> Result<bool, SeedError> {
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM site").fetch_one(pool).await?;
    if count > 0 {
        return Ok(false);
    }
    seed(pool).await?;
    Ok(true)
}
