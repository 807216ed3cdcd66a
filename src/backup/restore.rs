//! Restoring an archive (`conference restore --from FILE [--force]`) into an empty database
//! and data folder, on SQLite or PostgreSQL, whichever engine the backup was taken on.
//!
//! The target is migrated to the archive's schema version, the rows are copied table by table
//! in foreign-key order and the papers written, all in one transaction; the target's own
//! migrations then bring it forward to this program's schema. Run it with the server stopped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use time::OffsetDateTime;

use super::archive::{self, Manifest, Unpacked};
use super::error::BackupError;
use super::tables::{self, schema_version};
use super::take::{PAPER_CHUNKS, open_sqlite};
use super::verify;
use crate::db::{self, Connection, Engine, Pool};
use crate::papers::files::PAPERS_DIR;

/// What a restore did.
#[derive(Debug)]
pub struct Restored {
    /// The archive's manifest.
    pub manifest: Manifest,
    /// Where `--force` moved the database and data that were there before.
    pub moved_aside: Vec<String>,
}

/// Restores `archive` into the database at `database_url` and the papers folder of
/// `data_dir`. Refuses, changing nothing, when the archive fails [`verify::verify`] or the
/// target holds rows or papers, unless `force`, which first moves them aside (renamed with a
/// `before-restore-<time>` mark; never deleted).
pub async fn restore(
    archive: &Path,
    database_url: &str,
    data_dir: &Path,
    force: bool,
    now: OffsetDateTime,
) -> Result<Restored, BackupError> {
    let unpacked = verify::verify(archive).await?;
    let engine = Engine::from_url(database_url)?;
    let stamp = now
        .to_offset(time::UtcOffset::UTC)
        .format(time::macros::format_description!("[year][month][day]T[hour][minute][second]Z"))
        .expect("a UTC time formats");
    let mark = format!("before-restore-{stamp}");
    let mut moved_aside = Vec::new();

    let pool = db::connect(database_url).await?;
    let papers = data_dir.join(PAPERS_DIR);
    let stored_rows = first_table_with_rows(&pool).await?;
    let stored_papers = folder_has_files(&papers);
    if !force {
        if let Some((table, rows)) = stored_rows {
            return Err(BackupError::Refused(format!(
                "the database is not empty (table {table} has {rows} rows): restore into an empty database, or give --force to move the present one aside"
            )));
        }
        if stored_papers {
            return Err(BackupError::Refused(format!(
                "the data folder is not empty ({} holds files): restore into an empty data folder, or give --force to move them aside",
                papers.display()
            )));
        }
    }
    let pool = if force && (stored_rows.is_some() || schema_version(&pool).await?.is_some()) {
        moved_aside.push(move_database_aside(pool, database_url, engine, &mark).await?);
        db::connect(database_url).await?
    } else {
        pool
    };
    if force && stored_papers {
        let aside = data_dir.join(format!("{PAPERS_DIR}.{mark}"));
        std::fs::rename(&papers, &aside)?;
        moved_aside.push(aside.display().to_string());
    }

    let version = unpacked.manifest.schema_version;
    match engine {
        Engine::Sqlite => db::SQLITE_MIGRATOR.run_to(version, &pool).await?,
        Engine::Postgres => db::POSTGRES_MIGRATOR.run_to(version, &pool).await?,
    }
    copy_in(&unpacked, &pool, engine, data_dir).await?;
    db::migrate(&pool).await?;
    pool.close().await;
    Ok(Restored { manifest: unpacked.manifest, moved_aside })
}

/// The first table (by name) holding more rows than the migrations themselves insert (e.g.
/// `content_version`'s one row), with its count; `None` for an empty database.
async fn first_table_with_rows(pool: &Pool) -> Result<Option<(String, i64)>, sqlx::Error> {
    let baseline = migration_rows().await?;
    let mut conn = pool.acquire().await?;
    for table in tables::names(&mut conn).await? {
        let rows = tables::count(&mut conn, &table).await?;
        if rows > baseline.get(&table).copied().unwrap_or(0) {
            return Ok(Some((table, rows)));
        }
    }
    Ok(None)
}

/// Rows per table of a freshly migrated database (an in-memory SQLite one): what a database
/// holds before anyone used it.
async fn migration_rows() -> Result<BTreeMap<String, i64>, sqlx::Error> {
    use sqlx::ConnectOptions;
    let mut conn = sqlx::any::AnyConnectOptions::from_str("sqlite::memory:")?.connect().await?;
    db::SQLITE_MIGRATOR.run(&mut conn).await.map_err(|e| sqlx::Error::Migrate(Box::new(e)))?;
    let mut rows = BTreeMap::new();
    for table in tables::names(&mut conn).await? {
        let count = tables::count(&mut conn, &table).await?;
        rows.insert(table, count);
    }
    Ok(rows)
}

/// Whether `folder` holds any file, in it or below.
fn folder_has_files(folder: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(folder) else { return false };
    entries.flatten().any(|entry| {
        let path = entry.path();
        if path.is_dir() { folder_has_files(&path) } else { true }
    })
}

/// Moves the present database aside: SQLite renames the file (and its `-wal`, `-shm`);
/// PostgreSQL renames the current schema (in lower case: no quotes needed to read it) and
/// makes a new empty one of the same name.
/// Returns where it went.
async fn move_database_aside(
    pool: Pool,
    database_url: &str,
    engine: Engine,
    mark: &str,
) -> Result<String, BackupError> {
    match engine {
        Engine::Sqlite => {
            pool.close().await;
            let options = sqlx::sqlite::SqliteConnectOptions::from_str(database_url)?;
            let file = options.get_filename().to_path_buf();
            let aside = PathBuf::from(format!("{}.{mark}", file.display()));
            std::fs::rename(&file, &aside)?;
            for suffix in ["-wal", "-shm"] {
                let side = PathBuf::from(format!("{}{suffix}", file.display()));
                if side.exists() {
                    std::fs::rename(&side, format!("{}{suffix}", aside.display()))?;
                }
            }
            Ok(aside.display().to_string())
        }
        Engine::Postgres => {
            let mut conn = pool.acquire().await?;
            let (schema,): (String,) = sqlx::query_as("SELECT current_schema()::text").fetch_one(&mut *conn).await?;
            let aside = format!("{schema}_{}", mark.replace('-', "_").to_lowercase());
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
                "ALTER SCHEMA {} RENAME TO {}; CREATE SCHEMA {};",
                tables::quoted(&schema),
                tables::quoted(&aside),
                tables::quoted(&schema)
            )))
            .execute(&mut *tx)
            .await?;
            // An extension the migrations create (pg_trgm, 0013) went aside with the schema,
            // and `CREATE EXTENSION IF NOT EXISTS` would not make it again: its operators
            // come back to the new schema (the old one's indexes keep them by OID).
            let extensions: Vec<(String,)> = sqlx::query_as(
                "SELECT e.extname::text FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                 WHERE n.nspname = $1",
            )
            .bind(&aside)
            .fetch_all(&mut *tx)
            .await?;
            for (extension,) in extensions {
                sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
                    "ALTER EXTENSION {} SET SCHEMA {}",
                    tables::quoted(&extension),
                    tables::quoted(&schema)
                )))
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            drop(conn);
            pool.close().await;
            Ok(format!("schema {aside}"))
        }
    }
}

/// Copies the archive's rows and papers into the target in one transaction, and checks the
/// counts against the manifest before committing. On SQLite, paper files written before a
/// failure are removed again, so a failed restore leaves the data folder as empty as it was.
async fn copy_in(unpacked: &Unpacked, pool: &Pool, engine: Engine, data_dir: &Path) -> Result<(), BackupError> {
    let mut written = Vec::new();
    let copied = copy_rows_and_papers(unpacked, pool, engine, data_dir, &mut written).await;
    if copied.is_err() {
        for file in &written {
            let _ = std::fs::remove_file(file);
        }
    }
    copied
}

async fn copy_rows_and_papers(
    unpacked: &Unpacked,
    pool: &Pool,
    engine: Engine,
    data_dir: &Path,
    written: &mut Vec<PathBuf>,
) -> Result<(), BackupError> {
    let mut source = open_sqlite(&unpacked.database(), false).await?;
    let names = tables::names(&mut source).await?;
    let ordered = tables::in_foreign_key_order(&mut source, &names).await?;
    let mut tx = db::begin_write(pool).await?;
    let present = tables::names(&mut tx).await?;
    if let Some(missing) = ordered.iter().find(|t| !present.contains(t)) {
        return Err(BackupError::Refused(format!(
            "table {missing} of the archive is not in the database's schema of version {}",
            unpacked.manifest.schema_version
        )));
    }
    tables::clear_migration_rows(&mut tx, &ordered).await?;
    for table in &ordered {
        tables::copy(&mut source, &mut tx, table).await?;
    }
    let papers: Vec<(i64, String)> =
        sqlx::query_as("SELECT id, file_path FROM submissions ORDER BY id").fetch_all(&mut source).await?;
    sqlx::Connection::close(source).await?;
    for (id, path) in papers {
        let relative = archive::below(&path).ok_or_else(|| {
            BackupError::Damaged(format!("submission {id} names the file {path:?}, which is not below DATA_DIR"))
        })?;
        let file = unpacked.file(&relative);
        if !file.is_file() {
            return Err(BackupError::Damaged(format!("the paper of submission {id} ({path}) is not in the archive")));
        }
        match engine {
            Engine::Sqlite => {
                let target = data_dir.join(&relative);
                put_file(&file, &target)?;
                written.push(target);
            }
            Engine::Postgres => {
                let mut reader = tokio::fs::File::open(&file).await?;
                crate::repo::papers::store(&mut tx, id, &mut reader).await?;
            }
        }
    }
    for (table, expected) in &unpacked.manifest.tables {
        let rows = tables::count(&mut tx, table).await?;
        if rows != *expected {
            return Err(BackupError::Damaged(format!(
                "table {table} has {rows} rows after the copy, the manifest says {expected}"
            )));
        }
    }
    if engine == Engine::Postgres {
        reset_identities(&mut tx).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Copies `from` to `to` under a temp name in `to`'s folder, synced, then renamed.
fn put_file(from: &Path, to: &Path) -> std::io::Result<()> {
    let folder = to.parent().expect("a path below DATA_DIR has a folder");
    std::fs::create_dir_all(folder)?;
    let mut temp = tempfile::Builder::new().prefix(".restore-").suffix(".part").tempfile_in(folder)?;
    std::io::copy(&mut std::fs::File::open(from)?, temp.as_file_mut())?;
    temp.as_file().sync_all()?;
    temp.persist(to).map_err(|e| e.error)?;
    Ok(())
}

/// Moves every identity column's sequence past the highest restored id, so the next insert
/// gets a fresh id (the rows came with their ids; PostgreSQL's sequences did not move).
async fn reset_identities(conn: &mut Connection) -> Result<(), sqlx::Error> {
    let identities: Vec<(String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text FROM information_schema.columns \
         WHERE table_schema = current_schema() AND is_identity = 'YES'",
    )
    .fetch_all(&mut *conn)
    .await?;
    for (table, column) in identities {
        if table == PAPER_CHUNKS {
            continue;
        }
        let sql = format!(
            "SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)",
            column = tables::quoted(&column),
            table = tables::quoted(&table)
        );
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(tables::quoted(&table)).bind(&column).execute(&mut *conn).await?;
    }
    Ok(())
}
