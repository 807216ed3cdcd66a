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
pub mod error;
pub mod restore;
pub mod tables;
pub mod take;
pub mod verify;

pub use archive::Manifest;
pub use error::BackupError;
pub use tables::{latest_schema_version, schema_version};
