//! Taking a backup of a running site (`conference backup --out FILE`).
//!
//! No lock stops requests: on SQLite, `VACUUM INTO` copies the database as one read
//! transaction sees it (WAL lets writers go on meanwhile; <https://sqlite.org/lang_vacuum.html>),
//! on PostgreSQL one `REPEATABLE READ, READ ONLY` transaction reads every table. A paper's
//! file is in place before its row commits (`crate::handlers::api::submission`), so every row
//! of the snapshot has its file, and files of uploads not yet committed are left out.

use std::path::{Path, PathBuf};

use futures_util::TryStreamExt;
use time::OffsetDateTime;
use tokio::io::AsyncWriteExt;

use super::archive::{self, DATABASE, FILES, Manifest};
use super::error::BackupError;
use super::tables::{self, latest_schema_version, schema_version};
use crate::db::{self, Connection, Engine, Pool};

/// Where PostgreSQL keeps papers (migrations/postgres/0008_paper_chunks.sql); the archive
/// carries them as files instead.
pub const PAPER_CHUNKS: &str = "paper_chunks";

/// Writes a backup of the site at `database_url` (papers under `data_dir` on SQLite) to `out`.
/// Returns the manifest written. The database is read, never changed.
pub async fn backup(
    database_url: &str,
    data_dir: &Path,
    out: &Path,
    now: OffsetDateTime,
) -> Result<Manifest, BackupError> {
    let pool = db::connect(database_url).await?;
    let engine = Engine::of_pool(&pool);
    let version = schema_version(&pool).await?.ok_or_else(|| {
        BackupError::Refused("the database has no schema yet (never migrated): there is nothing to back up".into())
    })?;
    if version > latest_schema_version() {
        return Err(BackupError::Refused(format!(
            "the database has schema version {version}, newer than this program's {}: back it up with the newer conference",
            latest_schema_version()
        )));
    }
    let folder = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let work = tempfile::Builder::new()
        .prefix(".conference-backup-")
        .tempdir_in(folder)
        .map_err(|e| BackupError::Refused(format!("cannot write in {}: {e}", folder.display())))?;
    let snapshot = work.path().join(DATABASE);
    let papers = match engine {
        Engine::Sqlite => snapshot_sqlite(&pool, &snapshot, data_dir).await?,
        Engine::Postgres => snapshot_postgres(&pool, &snapshot, version, &work.path().join(FILES)).await?,
    };
    pool.close().await;

    let mut manifest = Manifest {
        format: archive::FORMAT.into(),
        format_version: archive::FORMAT_VERSION,
        created: crate::clock::stamp::timestamp(now),
        engine: match engine {
            Engine::Sqlite => "sqlite".into(),
            Engine::Postgres => "postgres".into(),
        },
        schema_version: version,
        tables: Default::default(),
        files: Vec::new(),
    };
    let mut conn = open_sqlite(&snapshot, false).await?;
    for table in tables::names(&mut conn).await? {
        let count = tables::count(&mut conn, &table).await?;
        manifest.tables.insert(table, count);
    }
    sqlx::Connection::close(conn).await?;

    let mut files = vec![(DATABASE.to_owned(), snapshot.clone())];
    for (relative, source) in papers {
        files.push((format!("{FILES}/{}", relative.display()), source));
    }
    tokio::task::spawn_blocking({
        let out = out.to_path_buf();
        move || archive::write(&out, &mut manifest, &files).map(|()| manifest)
    })
    .await
    .expect("the archive writer does not panic")
}

/// Opens a SQLite file on its own (no pool): the backup's snapshot or a restore's copy.
/// `create` makes a new file; rollback journal, so the file is whole when closed.
pub async fn open_sqlite(path: &Path, create: bool) -> Result<Connection, sqlx::Error> {
    use sqlx::ConnectOptions;
    use std::str::FromStr;
    sqlx::any::install_default_drivers();
    let mode = if create { "rwc" } else { "rw" };
    let url = format!("sqlite://{}?mode={mode}", path.display());
    let mut conn = sqlx::any::AnyConnectOptions::from_str(&url)?.connect().await?;
    sqlx::raw_sql("PRAGMA journal_mode = DELETE; PRAGMA foreign_keys = ON;").execute(&mut conn).await?;
    Ok(conn)
}

/// The papers of a snapshot: each submission's `file_path`, checked to be a plain path below
/// `DATA_DIR`.
async fn paper_paths(conn: &mut Connection) -> Result<Vec<(i64, PathBuf)>, BackupError> {
    let rows: Vec<(i64, String)> =
        sqlx::query_as("SELECT id, file_path FROM submissions ORDER BY id").fetch_all(&mut *conn).await?;
    rows.into_iter()
        .map(|(id, path)| match archive::below(&path) {
            Some(relative) => Ok((id, relative)),
            None => Err(BackupError::Refused(format!(
                "submission {id} names the file {path:?}, which is not below DATA_DIR"
            ))),
        })
        .collect()
}

/// SQLite: `VACUUM INTO` the snapshot file; the papers its rows name, found under `data_dir`.
async fn snapshot_sqlite(
    pool: &Pool,
    snapshot: &Path,
    data_dir: &Path,
) -> Result<Vec<(PathBuf, PathBuf)>, BackupError> {
    let target = snapshot.to_string_lossy().replace('\'', "''");
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!("VACUUM INTO '{target}'"))).execute(pool).await?;
    let mut conn = open_sqlite(snapshot, false).await?;
    let papers = paper_paths(&mut conn).await?;
    sqlx::Connection::close(conn).await?;
    let mut files = Vec::with_capacity(papers.len());
    for (id, relative) in papers {
        let source = data_dir.join(&relative);
        if !source.is_file() {
            return Err(BackupError::Refused(format!(
                "the paper of submission {id} ({}) is missing from DATA_DIR ({}); no archive was written",
                relative.display(),
                data_dir.display()
            )));
        }
        files.push((relative, source));
    }
    Ok(files)
}

/// PostgreSQL: every table into a new SQLite file of the same schema version, and every
/// paper's chunks into a file under `files`, all read in one repeatable-read transaction.
async fn snapshot_postgres(
    pool: &Pool,
    snapshot: &Path,
    version: i64,
    files: &Path,
) -> Result<Vec<(PathBuf, PathBuf)>, BackupError> {
    let mut source = pool.begin().await?;
    sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut *source).await?;

    let mut target = open_sqlite(snapshot, true).await?;
    db::SQLITE_MIGRATOR.run_to(version, &mut target).await?;
    let archived = tables::names(&mut target).await?;
    for table in tables::names(&mut source).await? {
        if table != PAPER_CHUNKS && !archived.contains(&table) {
            return Err(BackupError::Refused(format!(
                "table {table} of the database is not in the SQLite schema of version {version}, so no archive could hold it"
            )));
        }
    }
    let ordered = tables::in_foreign_key_order(&mut target, &archived).await?;
    let mut writing = sqlx::Connection::begin(&mut target).await?;
    tables::clear_migration_rows(&mut writing, &ordered).await?;
    for table in &ordered {
        tables::copy(&mut source, &mut writing, table).await?;
    }
    writing.commit().await?;

    let papers = paper_paths(&mut target).await?;
    sqlx::Connection::close(target).await?;
    let mut written = Vec::with_capacity(papers.len());
    for (id, relative) in papers {
        let path = files.join(&relative);
        if let Some(parent) = path.parent() {
            tokio::fs::create_dir_all(parent).await?;
        }
        let mut out = tokio::io::BufWriter::new(tokio::fs::File::create(&path).await?);
        let mut chunks =
            sqlx::query_as::<_, (Vec<u8>,)>("SELECT data FROM paper_chunks WHERE submission_id = $1 ORDER BY seq")
                .bind(id)
                .fetch(&mut *source);
        let mut any = false;
        while let Some((data,)) = chunks.try_next().await? {
            out.write_all(&data).await?;
            any = true;
        }
        out.flush().await?;
        if !any {
            return Err(BackupError::Refused(format!(
                "the paper of submission {id} ({}) has no chunks in the database; no archive was written",
                relative.display()
            )));
        }
        written.push((relative, path));
    }
    source.rollback().await?;
    Ok(written)
}
