//! The site's tables as the database catalogue lists them, and copying their rows between two
//! databases of either engine (a backup's SQLite file and the site's SQLite or PostgreSQL).
//!
//! Tables come from the catalogue (`sqlite_master`, `information_schema`), never from a list
//! in the code, so a table a later migration adds is in every backup without a change here.
//! sqlx's own `_sqlx_migrations` is left out: each database keeps its migration history, and
//! a backup records the version instead.

use futures_util::TryStreamExt;
use sqlx::any::AnyTypeInfoKind;
use sqlx::{Row, ValueRef as _};

use crate::db::{self, Connection, Engine, Pool};

/// sqlx's migration history table, which no backup copies.
pub const MIGRATIONS_TABLE: &str = "_sqlx_migrations";

/// The dashboard's change counter (migration 0015), which no backup copies either: it counts
/// the writes of one database, not what the site holds, and a restore's copied rows move it.
pub const COUNT_VERSION_TABLE: &str = "count_version";

/// What a column holds, by the engine's declared type (SQLite's type affinity rules,
/// <https://sqlite.org/datatype3.html> section 3.1; PostgreSQL's `data_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Integer,
    Real,
    Text,
    Blob,
    Bool,
}

impl Kind {
    /// The kind of a declared type, e.g. `BIGINT`, `TEXT`, `bytea`, `double precision`.
    pub fn of_declared(declared: &str) -> Kind {
        let declared = declared.to_ascii_uppercase();
        if declared.contains("BOOL") {
            Kind::Bool
        } else if declared.contains("INT") {
            Kind::Integer
        } else if declared.contains("CHAR") || declared.contains("CLOB") || declared.contains("TEXT") {
            Kind::Text
        } else if declared.contains("BLOB") || declared.contains("BYTEA") {
            Kind::Blob
        } else if ["REAL", "FLOA", "DOUB", "NUMERIC", "DECIMAL"].iter().any(|t| declared.contains(t)) {
            Kind::Real
        } else {
            Kind::Text
        }
    }
}

/// One column: its name and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub name: String,
    pub kind: Kind,
}

/// One stored value, whatever the engine.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
    Bool(bool),
}

/// `name` as a quoted SQL identifier (both engines quote with `"`).
pub fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The site's tables on `conn`, by name, without sqlx's migration history, the change counter
/// and SQLite's own `sqlite_*` and full-text index tables. PostgreSQL: the tables of the
/// connection's current schema.
pub async fn names(conn: &mut Connection) -> Result<Vec<String>, sqlx::Error> {
    let sql = match Engine::of(conn) {
        Engine::Sqlite => {
            // Ordinary tables only: a full-text index (a virtual table and its shadow tables,
            // migration 0014) is rebuilt from its table's rows, never copied.
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' \
             AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' \
             AND name NOT IN ($1, $2) ORDER BY name"
        }
        Engine::Postgres => {
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() \
             AND table_type = 'BASE TABLE' AND table_name NOT IN ($1, $2) ORDER BY table_name"
        }
    };
    let rows: Vec<(String,)> =
        sqlx::query_as(sql).bind(MIGRATIONS_TABLE).bind(COUNT_VERSION_TABLE).fetch_all(&mut *conn).await?;
    Ok(rows.into_iter().map(|(name,)| name).collect())
}

/// Whether `conn`'s database has sqlx's migration history (a database never migrated has not).
pub async fn has_migrations_table(conn: &mut Connection) -> Result<bool, sqlx::Error> {
    let sql = match Engine::of(conn) {
        Engine::Sqlite => "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = $1",
        Engine::Postgres => {
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1"
        }
    };
    let (count,): (i64,) = sqlx::query_as(sql).bind(MIGRATIONS_TABLE).fetch_one(&mut *conn).await?;
    Ok(count > 0)
}

/// The highest schema version this program knows, over both engines' migrations.
pub fn latest_schema_version() -> i64 {
    db::SQLITE_MIGRATOR.iter().chain(db::POSTGRES_MIGRATOR.iter()).map(|m| m.version).max().unwrap_or(0)
}

/// The highest migration applied to the database of `pool`; `None` when it has none (a new,
/// empty database).
pub async fn schema_version(pool: &Pool) -> Result<Option<i64>, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    if !has_migrations_table(&mut conn).await? {
        return Ok(None);
    }
    let (version,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(version) FROM _sqlx_migrations WHERE success").fetch_one(&mut *conn).await?;
    Ok(version)
}

/// The columns of `table` in their declared order.
pub async fn columns(conn: &mut Connection, table: &str) -> Result<Vec<Column>, sqlx::Error> {
    let sql = match Engine::of(conn) {
        Engine::Sqlite => "SELECT name, type FROM pragma_table_info($1) ORDER BY cid",
        Engine::Postgres => {
            "SELECT column_name::text, data_type::text FROM information_schema.columns \
             WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position"
        }
    };
    let rows: Vec<(String, String)> = sqlx::query_as(sql).bind(table).fetch_all(&mut *conn).await?;
    Ok(rows.into_iter().map(|(name, declared)| Column { kind: Kind::of_declared(&declared), name }).collect())
}

/// `tables` of a SQLite database ordered so that every table comes after the tables its
/// foreign keys name: rows copied in this order never point at a row not yet there. A table
/// in a cycle (none today) keeps its place after the others.
pub async fn in_foreign_key_order(conn: &mut Connection, tables: &[String]) -> Result<Vec<String>, sqlx::Error> {
    let mut pending = Vec::new();
    for table in tables {
        let parents: Vec<(String,)> = sqlx::query_as("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list($1)")
            .bind(table)
            .fetch_all(&mut *conn)
            .await?;
        let parents: Vec<String> =
            parents.into_iter().map(|(p,)| p).filter(|p| p != table && tables.contains(p)).collect();
        pending.push((table.clone(), parents));
    }
    let mut ordered: Vec<String> = Vec::new();
    while !pending.is_empty() {
        let ready = pending.iter().position(|(_, parents)| parents.iter().all(|p| ordered.contains(p)));
        let (table, _) = pending.remove(ready.unwrap_or(0));
        ordered.push(table);
    }
    Ok(ordered)
}

/// Deletes the rows of `tables` (children first, given in foreign-key order) that a fresh
/// database's migrations inserted (e.g. `content_version`'s one row), so the copied rows
/// take their place. Only for a database just migrated or checked empty: the append-only
/// `audit_log` has no rows then, and nothing else is lost.
pub async fn clear_migration_rows(conn: &mut Connection, tables: &[String]) -> Result<(), sqlx::Error> {
    for table in tables.iter().rev() {
        if count(conn, table).await? > 0 {
            sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {}", quoted(table)))).execute(&mut *conn).await?;
        }
    }
    Ok(())
}

/// The number of rows of `table`.
pub async fn count(conn: &mut Connection, table: &str) -> Result<i64, sqlx::Error> {
    let sql = format!("SELECT COUNT(*) FROM {}", quoted(table));
    let (count,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_one(&mut *conn).await?;
    Ok(count)
}

/// Why a row could not be copied.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("table {table}: {source}")]
    Database { table: String, source: sqlx::Error },
    #[error("table {table}: column {column} is missing from the target database")]
    MissingColumn { table: String, column: String },
    #[error("table {table}, column {column}: a stored {value} cannot go into a {kind:?} column")]
    Mismatch { table: String, column: String, value: &'static str, kind: Kind },
}

/// Copies every row of `table` from `from` into the same table on `to` (same column names;
/// each value converted to what the target column holds). Rows stream through one at a time.
/// Returns the rows copied.
pub async fn copy(from: &mut Connection, to: &mut Connection, table: &str) -> Result<u64, CopyError> {
    let database = |source| CopyError::Database { table: table.into(), source };
    let source = columns(from, table).await.map_err(database)?;
    let target = columns(to, table).await.map_err(database)?;
    let mut kinds = Vec::with_capacity(source.len());
    for column in &source {
        match target.iter().find(|t| t.name == column.name) {
            Some(t) => kinds.push(t.kind),
            None => return Err(CopyError::MissingColumn { table: table.into(), column: column.name.clone() }),
        }
    }
    let names: Vec<String> = source.iter().map(|c| quoted(&c.name)).collect();
    let select = format!("SELECT {} FROM {}", names.join(", "), quoted(table));
    let placeholders: Vec<String> = (1..=names.len()).map(|i| format!("${i}")).collect();
    let insert = format!("INSERT INTO {} ({}) VALUES ({})", quoted(table), names.join(", "), placeholders.join(", "));
    let to_postgres = Engine::of(to) == Engine::Postgres;
    let mut copied = 0u64;
    let mut rows = sqlx::query(sqlx::AssertSqlSafe(select)).fetch(&mut *from);
    while let Some(row) = rows.try_next().await.map_err(database)? {
        let mut query = sqlx::query(sqlx::AssertSqlSafe(insert.clone()));
        for (i, kind) in kinds.iter().enumerate() {
            let value = read(&row, i).map_err(database)?;
            query = bind(query, value, *kind, to_postgres).map_err(|value| CopyError::Mismatch {
                table: table.into(),
                column: source[i].name.clone(),
                value,
                kind: *kind,
            })?;
        }
        query.execute(&mut *to).await.map_err(database)?;
        copied += 1;
    }
    Ok(copied)
}

/// The columns of `table`'s primary key (none for a table without one).
pub async fn primary_key(conn: &mut Connection, table: &str) -> Result<Vec<String>, sqlx::Error> {
    let sql = match Engine::of(conn) {
        Engine::Sqlite => "SELECT name FROM pragma_table_info($1) WHERE pk > 0 ORDER BY pk",
        Engine::Postgres => {
            "SELECT a.attname::text FROM pg_index i \
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) \
             WHERE i.indrelid = to_regclass(quote_ident($1)) AND i.indisprimary ORDER BY a.attnum"
        }
    };
    let rows: Vec<(String,)> = sqlx::query_as(sql).bind(table).fetch_all(&mut *conn).await?;
    Ok(rows.into_iter().map(|(name,)| name).collect())
}

/// Every row of `table` with each value as text (`None` for NULL; a blob as lowercase hex),
/// columns in their declared order: for comparing rows, never for writing them back.
pub async fn rows_as_text(conn: &mut Connection, table: &str) -> Result<Vec<Vec<Option<String>>>, sqlx::Error> {
    let names: Vec<String> = columns(conn, table).await?.iter().map(|c| quoted(&c.name)).collect();
    let sql = format!("SELECT {} FROM {}", names.join(", "), quoted(table));
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(&mut *conn).await?;
    rows.iter()
        .map(|row| {
            (0..names.len())
                .map(|i| {
                    Ok(match read(row, i)? {
                        Value::Null => None,
                        Value::Integer(v) => Some(v.to_string()),
                        Value::Real(v) => Some(v.to_string()),
                        Value::Text(v) => Some(v),
                        Value::Blob(v) => Some(hex::encode(v)),
                        Value::Bool(v) => Some(v.to_string()),
                    })
                })
                .collect()
        })
        .collect()
}

/// Value `i` of `row`, by what the engine says it holds.
fn read(row: &sqlx::any::AnyRow, i: usize) -> Result<Value, sqlx::Error> {
    let raw = row.try_get_raw(i)?;
    if raw.is_null() {
        return Ok(Value::Null);
    }
    let kind = raw.type_info().kind();
    Ok(match kind {
        AnyTypeInfoKind::Null => Value::Null,
        AnyTypeInfoKind::Bool => Value::Bool(row.try_get(i)?),
        AnyTypeInfoKind::SmallInt | AnyTypeInfoKind::Integer | AnyTypeInfoKind::BigInt => {
            Value::Integer(row.try_get(i)?)
        }
        AnyTypeInfoKind::Real => Value::Real(f64::from(row.try_get::<f32, _>(i)?)),
        AnyTypeInfoKind::Double => Value::Real(row.try_get(i)?),
        AnyTypeInfoKind::Text => Value::Text(row.try_get(i)?),
        AnyTypeInfoKind::Blob => Value::Blob(row.try_get(i)?),
    })
}

type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>;

/// Binds `value` for a column of `kind`. SQLite stores what it is given (its columns are
/// typed loosely, and a value keeps its own type there); PostgreSQL needs the column's type,
/// NULLs included. Errs with the value's kind when it cannot be converted.
fn bind(query: AnyQuery<'_>, value: Value, kind: Kind, to_postgres: bool) -> Result<AnyQuery<'_>, &'static str> {
    if !to_postgres {
        return Ok(match value {
            Value::Null => query.bind(None::<String>),
            Value::Integer(v) => query.bind(v),
            Value::Real(v) => query.bind(v),
            Value::Text(v) => query.bind(v),
            Value::Blob(v) => query.bind(v),
            Value::Bool(v) => query.bind(i64::from(v)),
        });
    }
    Ok(match (kind, value) {
        (Kind::Integer, Value::Null) => query.bind(None::<i64>),
        (Kind::Real, Value::Null) => query.bind(None::<f64>),
        (Kind::Text, Value::Null) => query.bind(None::<String>),
        (Kind::Blob, Value::Null) => query.bind(None::<Vec<u8>>),
        (Kind::Bool, Value::Null) => query.bind(None::<bool>),
        (Kind::Integer, Value::Integer(v)) => query.bind(v),
        (Kind::Integer, Value::Bool(v)) => query.bind(i64::from(v)),
        (Kind::Real, Value::Real(v)) => query.bind(v),
        // An integer kept in a REAL column by SQLite; i64 to f64 is exact up to 2^53.
        (Kind::Real, Value::Integer(v)) => query.bind(v as f64),
        (Kind::Text, Value::Text(v)) => query.bind(v),
        // SQLite keeps a number typed into a TEXT column as a number.
        (Kind::Text, Value::Integer(v)) => query.bind(v.to_string()),
        (Kind::Text, Value::Real(v)) => query.bind(v.to_string()),
        (Kind::Blob, Value::Blob(v)) => query.bind(v),
        (Kind::Blob, Value::Text(v)) => query.bind(v.into_bytes()),
        (Kind::Bool, Value::Bool(v)) => query.bind(v),
        (Kind::Bool, Value::Integer(v)) => query.bind(v != 0),
        (_, value) => {
            return Err(match value {
                Value::Null => "NULL",
                Value::Integer(_) => "integer",
                Value::Real(_) => "real number",
                Value::Text(_) => "text",
                Value::Blob(_) => "blob",
                Value::Bool(_) => "boolean",
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_types_map_to_kinds() {
        assert_eq!(Kind::of_declared("BIGINT"), Kind::Integer);
        assert_eq!(Kind::of_declared("integer"), Kind::Integer);
        assert_eq!(Kind::of_declared("TEXT"), Kind::Text);
        assert_eq!(Kind::of_declared("character varying"), Kind::Text);
        assert_eq!(Kind::of_declared("bytea"), Kind::Blob);
        assert_eq!(Kind::of_declared("BLOB"), Kind::Blob);
        assert_eq!(Kind::of_declared("boolean"), Kind::Bool);
        assert_eq!(Kind::of_declared("double precision"), Kind::Real);
    }

    #[test]
    fn identifiers_are_quoted() {
        assert_eq!(quoted("audit_log"), "\"audit_log\"");
        assert_eq!(quoted("a\"b"), "\"a\"\"b\"");
    }
}
