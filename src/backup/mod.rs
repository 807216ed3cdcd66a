//! Backups (DESIGN.md section 13, issue 22): one archive of a running site — a consistent
//! database snapshot, the paper files its rows name and a manifest of counts and SHA-256s —
//! and restoring it into an empty database and data folder, on either engine.
//!
//! The archive's database is always a SQLite file with the site's tables, so one code path
//! restores into SQLite or PostgreSQL from a backup of either: taken on SQLite with
//! `VACUUM INTO`, on PostgreSQL by copying every table in one repeatable-read transaction.
//! Papers travel as files (`files/papers/…`), whether the site kept them under `DATA_DIR`
//! (SQLite) or as `paper_chunks` rows (PostgreSQL).

pub mod archive;
pub mod restore;
pub mod tables;
pub mod take;
pub mod verify;

pub use archive::Manifest;

use crate::db::{self, Pool};

/// Why a backup, a check or a restore did not happen; each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// Refused before anything was changed, with the reason.
    #[error("{0}")]
    Refused(String),
    /// The archive is not what its manifest says (cut short, changed, unknown entries).
    #[error("the archive is damaged: {0}")]
    Damaged(String),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("database: {0}")]
    Connect(#[from] db::ConnectError),
    #[error("schema migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error(transparent)]
    Copy(#[from] tables::CopyError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The highest schema version this program knows, over both engines' migrations.
pub fn latest_schema_version() -> i64 {
    db::SQLITE_MIGRATOR.iter().chain(db::POSTGRES_MIGRATOR.iter()).map(|m| m.version).max().unwrap_or(0)
}

/// The highest migration applied to the database of `pool`; `None` when it has none (a new,
/// empty database).
pub async fn schema_version(pool: &Pool) -> Result<Option<i64>, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    if !tables::has_migrations_table(&mut conn).await? {
        return Ok(None);
    }
    let (version,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(version) FROM _sqlx_migrations WHERE success").fetch_one(&mut *conn).await?;
    Ok(version)
}
