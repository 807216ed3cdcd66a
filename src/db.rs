//! The database: connecting to SQLite (one machine, WAL mode) or PostgreSQL (several
//! instances), schema migrations per engine and the content seed.
//!
//! Both engines go through sqlx's `Any` driver, so every repository function takes one
//! [`Pool`] or [`Connection`] type. SQL is written once, portable between the two (`$N`
//! placeholders, RFC 3339 UTC text times passed from Rust, integer cents, `ON CONFLICT`,
//! `RETURNING`); the few statements that differ ask [`Engine::of`] which one they run on.
//! `Any` decodes only `bool`, integers, floats, `String` and `Vec<u8>`, which is all the
//! schema uses.

use std::str::FromStr;
use std::time::Duration;

use sqlx::Executor;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::SqliteConnectOptions;

/// The pool every part of the server uses, whatever the engine.
pub type Pool = sqlx::AnyPool;
/// One connection (or, through `&mut *tx`, a transaction) of a [`Pool`].
pub type Connection = sqlx::AnyConnection;

/// Schema migrations for SQLite, embedded at compile time. Applied files are never edited.
pub static SQLITE_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
/// The same schema for PostgreSQL (identity ids, `BIGINT`, `BYTEA` paper chunks).
pub static POSTGRES_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// The database engine behind a URL or connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// `sqlite://path`: one file, one machine.
    Sqlite,
    /// `postgres://` or `postgresql://`: shared by several instances.
    Postgres,
}

/// A `DATABASE_URL` this server cannot use.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("DATABASE_URL must start with sqlite:// or postgres:// (got {0:?})")]
    UnsupportedScheme(String),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("creating the SQLite file's folder: {0}")]
    Io(#[from] std::io::Error),
}

impl Engine {
    /// The engine a `DATABASE_URL` names, by its scheme; anything else is an error (never a
    /// file named after the URL).
    pub fn from_url(url: &str) -> Result<Engine, ConnectError> {
        let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase()).unwrap_or_default();
        match scheme.as_str() {
            "sqlite" => Ok(Engine::Sqlite),
            "postgres" | "postgresql" => Ok(Engine::Postgres),
            _ => Err(ConnectError::UnsupportedScheme(redact(url))),
        }
    }

    /// The engine of an open connection (a transaction derefs to one).
    pub fn of(conn: &Connection) -> Engine {
        if conn.backend_name().eq_ignore_ascii_case("PostgreSQL") { Engine::Postgres } else { Engine::Sqlite }
    }

    /// The engine of a pool (made by [`connect`], which accepted only these two schemes).
    pub fn of_pool(pool: &Pool) -> Engine {
        match pool.connect_options().database_url.scheme() {
            "postgres" | "postgresql" => Engine::Postgres,
            _ => Engine::Sqlite,
        }
    }
}

/// The URL without its password, for error messages and logs.
fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.chars().take(80).collect(),
    }
}

/// Whether a text can be stored or looked up on every engine: PostgreSQL's `text` cannot hold
/// NUL (U+0000), so a key containing one matches nothing rather than failing the query.
pub fn storable(text: &str) -> bool {
    !text.contains('\0')
}

/// Opens the pool for `database_url` (`sqlite://...` or `postgres://...`).
///
/// SQLite: creates the file (and its folder) when missing; WAL lets readers proceed during a
/// write; the busy timeout makes concurrent writers wait instead of failing with
/// `SQLITE_BUSY`; foreign keys on. PostgreSQL: the database must exist.
pub async fn connect(database_url: &str) -> Result<Pool, ConnectError> {
    sqlx::any::install_default_drivers();
    let engine = Engine::from_url(database_url)?;
    let options = AnyConnectOptions::from_str(database_url)?;
    let pool = AnyPoolOptions::new().max_connections(8).acquire_timeout(Duration::from_secs(5));
    let pool = match engine {
        Engine::Sqlite => {
            let sqlite = SqliteConnectOptions::from_str(database_url)?;
            let file = sqlite.get_filename();
            if !file.as_os_str().is_empty() && !file.to_string_lossy().starts_with("file:sqlx-in-memory") {
                if let Some(parent) = file.parent()
                    && !parent.as_os_str().is_empty()
                {
                    std::fs::create_dir_all(parent)?;
                }
                // create_if_missing: the Any driver opens read-write without creating.
                std::fs::OpenOptions::new().create(true).append(true).open(file)?;
            }
            pool.after_connect(|conn, _meta| {
                Box::pin(async move {
                    conn.execute(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                         PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;",
                    )
                    .await?;
                    Ok(())
                })
            })
        }
        Engine::Postgres => pool,
    };
    Ok(pool.connect_with(options).await?)
}

/// A transaction of a [`Pool`].
pub type Transaction = sqlx::Transaction<'static, sqlx::Any>;

/// Begins a transaction that will write.
///
/// SQLite: `BEGIN IMMEDIATE`, which takes the write lock at once, waiting up to the busy
/// timeout. A deferred `BEGIN` takes it at the first write instead, and a transaction that has
/// read anything by then (a `SELECT`, or only the full-text index's own settings, which SQLite
/// reads while preparing a statement whose trigger writes to it, migration 0014) cannot wait
/// for it: it fails with `SQLITE_BUSY` at once whenever another connection writes
/// (<https://sqlite.org/lang_transaction.html>, "Read transactions" and `SQLITE_BUSY`).
/// PostgreSQL: a plain `BEGIN` (row locks are taken as rows are written).
pub async fn begin_write(pool: &Pool) -> Result<Transaction, sqlx::Error> {
    match Engine::of_pool(pool) {
        Engine::Sqlite => pool.begin_with("BEGIN IMMEDIATE").await,
        Engine::Postgres => pool.begin().await,
    }
}

/// Applies pending schema migrations of the pool's engine.
pub async fn migrate(pool: &Pool) -> Result<(), sqlx::migrate::MigrateError> {
    match Engine::of_pool(pool) {
        Engine::Sqlite => SQLITE_MIGRATOR.run(pool).await,
        Engine::Postgres => POSTGRES_MIGRATOR.run(pool).await,
    }
}

/// Raises the content version on `conn` (the caller's transaction): every instance's watcher
/// reloads its snapshot and drops its rendered pages within a poll (migration 0009).
pub async fn bump_content_version(conn: &mut Connection) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE content_version SET version = version + 1 WHERE id = 1").execute(conn).await?;
    Ok(())
}

/// The content version `seed_with` and publishing the programme bump (migration 0009).
pub async fn content_version(pool: &Pool) -> Result<i64, sqlx::Error> {
    let (version,): (i64,) = sqlx::query_as("SELECT version FROM content_version WHERE id = 1").fetch_one(pool).await?;
    Ok(version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scheme_picks_the_engine() {
        assert_eq!(Engine::from_url("sqlite://data/conference.db").unwrap(), Engine::Sqlite);
        assert_eq!(Engine::from_url("postgres://u:p@127.0.0.1/c").unwrap(), Engine::Postgres);
        assert_eq!(Engine::from_url("postgresql://127.0.0.1/c").unwrap(), Engine::Postgres);
    }

    #[test]
    fn other_schemes_are_refused_without_leaking_a_password() {
        let err = Engine::from_url("mysql://root:secret@db/conference").unwrap_err().to_string();
        assert!(err.starts_with("DATABASE_URL must start with sqlite:// or postgres://"), "{err}");
        assert!(!err.contains("secret"), "{err}");
        assert!(Engine::from_url("data/conference.db").is_err());
    }

    #[tokio::test]
    async fn a_bad_scheme_creates_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("{}/x.db", dir.path().display());
        assert!(matches!(connect(&url).await, Err(ConnectError::UnsupportedScheme(_))));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
