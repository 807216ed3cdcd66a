//! The camera-ready papers and the proceedings volume's lock (migration 0024, DESIGN.md
//! section 18): one row per accepted paper, each part written on its own so replacing one
//! never touches another, and the file read only where it is needed.

use sqlx::FromRow;

use crate::db::{Connection, Pool};

/// A paper's camera-ready row without the file's bytes; a part not handed in yet is `None`.
#[derive(Debug, Clone, Default, FromRow)]
pub struct Stored {
    pub submission_id: i64,
    pub title: Option<String>,
    pub abstract_text: Option<String>,
    /// JSON array of strings.
    pub keywords: Option<String>,
    /// JSON array of `{name, affiliation, email, orcid, corresponding}`, in the paper's order.
    pub authors: Option<String>,
    /// RFC 3339 UTC of the last change of title, abstract, keywords or authors.
    pub details_at: Option<String>,
    pub pdf_name: Option<String>,
    pub pdf_bytes: Option<i64>,
    pub pdf_pages: Option<i64>,
    /// Hex SHA-256 of the file.
    pub pdf_sha256: Option<String>,
    pub pdf_at: Option<String>,
    pub licence_version: Option<String>,
    /// The name the author typed to accept the licence.
    pub licence_signed: Option<String>,
    pub licence_at: Option<String>,
    pub updated_at: String,
}

const COLUMNS: &str = "submission_id, title, abstract AS abstract_text, keywords, authors, details_at, pdf_name, \
                       pdf_bytes, pdf_pages, pdf_sha256, pdf_at, licence_version, licence_signed, licence_at, updated_at";

/// The camera-ready row of submission `id`, without the file; `None` before anything is handed in.
pub async fn get(conn: &mut Connection, id: i64) -> Result<Option<Stored>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM camera_ready WHERE submission_id = $1")))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The accepted file of submission `id`; `None` when none is stored.
pub async fn pdf(pool: &Pool, id: i64) -> Result<Option<Vec<u8>>, sqlx::Error> {
    let row: Option<(Option<Vec<u8>>,)> =
        sqlx::query_as("SELECT pdf FROM camera_ready WHERE submission_id = $1").bind(id).fetch_optional(pool).await?;
    Ok(row.and_then(|(pdf,)| pdf))
}

/// Whether the proceedings volume is locked. Fail closed: without the volume's row
/// (migration 0024 writes it) it counts as locked.
pub async fn volume_locked(conn: &mut Connection) -> Result<bool, sqlx::Error> {
    let locked: Option<(i64,)> =
        sqlx::query_as("SELECT locked FROM proceedings_volumes WHERE id = 1").fetch_optional(conn).await?;
    Ok(locked.is_none_or(|(locked,)| locked != 0))
}

/// Makes sure submission `id` has its row, stamped `at`.
async fn ensure(conn: &mut Connection, id: i64, at: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO camera_ready (submission_id, updated_at) VALUES ($1, $2) ON CONFLICT (submission_id) DO NOTHING",
    )
    .bind(id)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// The file that passed the check, replacing any before it.
pub struct NewPdf<'a> {
    pub bytes: &'a [u8],
    pub name: &'a str,
    pub pages: i64,
    pub sha256: &'a str,
}

/// Stores `file` as submission `id`'s camera-ready PDF at `at`, on the caller's transaction.
pub async fn set_pdf(conn: &mut Connection, id: i64, file: &NewPdf<'_>, at: &str) -> Result<(), sqlx::Error> {
    ensure(conn, id, at).await?;
    sqlx::query(
        "UPDATE camera_ready SET pdf = $2, pdf_name = $3, pdf_bytes = $4, pdf_pages = $5, pdf_sha256 = $6, \
         pdf_at = $7, updated_at = $7 WHERE submission_id = $1",
    )
    .bind(id)
    .bind(file.bytes)
    .bind(file.name)
    .bind(i64::try_from(file.bytes.len()).unwrap_or(i64::MAX))
    .bind(file.pages)
    .bind(file.sha256)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Title, abstract and the JSON of keywords and authors, as [`Stored`] holds them.
pub struct NewDetails<'a> {
    pub title: &'a str,
    pub abstract_text: &'a str,
    pub keywords: &'a str,
    pub authors: &'a str,
}

/// Stores submission `id`'s title, abstract, keywords and authors at `at`.
pub async fn set_details(
    conn: &mut Connection,
    id: i64,
    details: &NewDetails<'_>,
    at: &str,
) -> Result<(), sqlx::Error> {
    ensure(conn, id, at).await?;
    sqlx::query(
        "UPDATE camera_ready SET title = $2, abstract = $3, keywords = $4, authors = $5, details_at = $6, \
         updated_at = $6 WHERE submission_id = $1",
    )
    .bind(id)
    .bind(details.title)
    .bind(details.abstract_text)
    .bind(details.keywords)
    .bind(details.authors)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Stores submission `id`'s acceptance of licence text `version`, signed `signed`, at `at`.
pub async fn set_licence(
    conn: &mut Connection,
    id: i64,
    version: &str,
    signed: &str,
    at: &str,
) -> Result<(), sqlx::Error> {
    ensure(conn, id, at).await?;
    sqlx::query(
        "UPDATE camera_ready SET licence_version = $2, licence_signed = $3, licence_at = $4, updated_at = $4 \
         WHERE submission_id = $1",
    )
    .bind(id)
    .bind(version)
    .bind(signed)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Submission `id`'s state as stored now (`accepted`, `withdrawn`, ...), read on the caller's
/// transaction so a decision or withdrawal since the page was drawn counts.
pub async fn paper_state(conn: &mut Connection, id: i64) -> Result<Option<String>, sqlx::Error> {
    let row: Option<(String,)> =
        sqlx::query_as("SELECT state FROM submissions WHERE id = $1").bind(id).fetch_optional(conn).await?;
    Ok(row.map(|(state,)| state))
}
