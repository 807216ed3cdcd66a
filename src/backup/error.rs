//! Why a backup, a check or a restore did not happen.

use super::tables::CopyError;
use crate::db;

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
    Copy(#[from] CopyError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
