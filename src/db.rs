//! The database: connecting (SQLite in WAL mode), schema migrations and the content seed.

use std::str::FromStr;
use std::time::Duration;

use sqlx::SqlitePool;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

/// Schema migrations, embedded at compile time. Applied files are never edited.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The content seed organisers edit; re-applied by `conference seed`. It deletes and
/// re-inserts content tables only, so visitors' messages, submissions and orders stay.
pub const CONTENT_SEED: &str = include_str!("../migrations/seed/content.sql");

/// Opens the pool, creating the database file (and its folder) when missing.
///
/// WAL lets readers proceed during a write; the busy timeout makes concurrent writers wait
/// instead of failing with `SQLITE_BUSY`.
pub async fn connect(database_url: &str) -> Result<SqlitePool, sqlx::Error> {
    let options = SqliteConnectOptions::from_str(database_url)?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(Duration::from_secs(5))
        .foreign_keys(true);
    if let Some(parent) = options.get_filename().parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::create_dir_all(parent).map_err(sqlx::Error::Io)?;
    }
    SqlitePoolOptions::new().max_connections(8).acquire_timeout(Duration::from_secs(5)).connect_with(options).await
}

/// Applies pending schema migrations.
pub async fn migrate(pool: &SqlitePool) -> Result<(), sqlx::migrate::MigrateError> {
    MIGRATOR.run(pool).await
}

/// Re-applies the content seed in one transaction: either all content is replaced or none.
pub async fn seed(pool: &SqlitePool) -> Result<(), sqlx::Error> {
    seed_with(pool, CONTENT_SEED.to_owned()).await
}

/// Applies a content seed text (an edited `content.sql`) in one transaction, and bumps the
/// content version in that same transaction, so running servers reload exactly when the new
/// content is committed (`crate::content::watch`).
pub async fn seed_with(pool: &SqlitePool, sql: String) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    // The seed is the organisers' own SQL file, not visitor input.
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(&mut *tx).await?;
    sqlx::query("UPDATE content_version SET version = version + 1 WHERE id = 1").execute(&mut *tx).await?;
    tx.commit().await
}

/// The content version `seed_with` bumps (migration 0006).
pub async fn content_version(pool: &SqlitePool) -> Result<i64, sqlx::Error> {
    let (version,): (i64,) = sqlx::query_as("SELECT version FROM content_version WHERE id = 1").fetch_one(pool).await?;
    Ok(version)
}

/// Seeds the content when the database has none yet (first start on a fresh machine).
/// Returns whether it seeded.
pub async fn seed_if_empty(pool: &SqlitePool) -> Result<bool, sqlx::Error> {
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM site").fetch_one(pool).await?;
    if count > 0 {
        return Ok(false);
    }
    seed(pool).await?;
    Ok(true)
}
