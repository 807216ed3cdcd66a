//! Checking an archive (`conference verify-backup FILE`, and the first step of every restore):
//! the manifest and every file's SHA-256 ([`super::archive::unpack`]), then the database in
//! the unpacked copy — SQLite's `PRAGMA integrity_check`, its schema version and its row
//! counts against the manifest.

use std::path::Path;

use super::archive::{self, Unpacked};
use super::error::BackupError;
use super::tables::{self, latest_schema_version};
use super::take::open_sqlite;

/// Unpacks `archive` into a temp folder and checks everything in it. Errs on the first
/// mismatch with what it is; the unpacked copy is what a restore reads.
pub async fn verify(archive: &Path) -> Result<Unpacked, BackupError> {
    let unpacked = tokio::task::spawn_blocking({
        let archive = archive.to_path_buf();
        move || archive::unpack(&archive)
    })
    .await
    .expect("unpacking does not panic")?;
    let manifest = &unpacked.manifest;
    if manifest.schema_version > latest_schema_version() {
        return Err(BackupError::Refused(format!(
            "the archive has schema version {}, newer than this program's {}: restore it with the newer conference",
            manifest.schema_version,
            latest_schema_version()
        )));
    }
    let mut conn = open_sqlite(&unpacked.database(), false).await?;
    let problems: Vec<(String,)> = sqlx::query_as("PRAGMA integrity_check").fetch_all(&mut conn).await?;
    if problems.len() != 1 || problems[0].0 != "ok" {
        let problems: Vec<String> = problems.into_iter().map(|(p,)| p).take(5).collect();
        return Err(BackupError::Damaged(format!("the database fails integrity_check: {}", problems.join("; "))));
    }
    let (version,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(version) FROM _sqlx_migrations WHERE success").fetch_one(&mut conn).await?;
    if version != Some(manifest.schema_version) {
        return Err(BackupError::Damaged(format!(
            "the database has schema version {version:?}, the manifest says {}",
            manifest.schema_version
        )));
    }
    let names = tables::names(&mut conn).await?;
    let listed: Vec<&String> = manifest.tables.keys().collect();
    if names.iter().collect::<Vec<_>>() != listed {
        return Err(BackupError::Damaged(format!(
            "the database has the tables {names:?}, the manifest lists {listed:?}"
        )));
    }
    for table in &names {
        let count = tables::count(&mut conn, table).await?;
        if Some(&count) != manifest.tables.get(table) {
            return Err(BackupError::Damaged(format!(
                "table {table} has {count} rows, the manifest says {}",
                manifest.tables[table]
            )));
        }
    }
    sqlx::Connection::close(conn).await?;
    Ok(unpacked)
}
