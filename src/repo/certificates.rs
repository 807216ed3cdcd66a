//! Certificates, their releases and signatories (`migrations/0022_certificates.sql`, issue 33
//! item 5). The rules of who gets one live in `crate::attendance::certificates`; here is only
//! what is stored and the queries that find the people.

use sqlx::FromRow;

use super::filter::PAGE_SIZE;
use crate::db::{self, Connection, Pool};

/// A stored certificate.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Certificate {
    /// 128 random bits in base32, upper case (`crate::attendance::tickets::new_code`).
    pub code: String,
    /// Trimmed, lower case.
    pub email: String,
    pub holder_name: String,
    /// `attendance` or `presentation`.
    pub kind: String,
    /// The ticket of an attendance certificate.
    pub ticket_id: Option<i64>,
    /// The paper of a presentation certificate: its id, reference and title as published.
    pub submission_id: Option<i64>,
    pub reference: Option<String>,
    pub title: Option<String>,
    /// The release that first issued this ticket's or paper's certificate (1, 2, ...).
    pub release_number: i64,
    /// RFC 3339 UTC.
    pub issued_at: String,
    /// RFC 3339 UTC; `None` while it is valid.
    pub revoked_at: Option<String>,
    /// The organiser who revoked it (or reissued it).
    pub revoked_by: Option<String>,
    /// The code of the certificate that replaced it, for a reissue.
    pub replaced_by: Option<String>,
}

const COLUMNS: &str = "code, email, holder_name, kind, ticket_id, submission_id, reference, title, release_number, \
                       issued_at, revoked_at, revoked_by, replaced_by";

/// A certificate to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCertificate {
    pub code: String,
    pub email: String,
    pub holder_name: String,
    pub kind: &'static str,
    pub ticket_id: Option<i64>,
    pub submission_id: Option<i64>,
    pub reference: Option<String>,
    pub title: Option<String>,
    pub release_number: i64,
    pub issued_at: String,
}

/// Stores `new` unless its ticket or paper already has a current certificate (another
/// release got there first). Returns whether it was stored.
pub async fn insert(conn: &mut Connection, new: &NewCertificate) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO certificates (code, email, holder_name, kind, ticket_id, submission_id, reference, title, \
         release_number, issued_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING",
    )
    .bind(&new.code)
    .bind(&new.email)
    .bind(&new.holder_name)
    .bind(new.kind)
    .bind(new.ticket_id)
    .bind(new.submission_id)
    .bind(&new.reference)
    .bind(&new.title)
    .bind(new.release_number)
    .bind(&new.issued_at)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The certificate of `code` (already normalised), if any: on the pool (a page) or inside a
/// transaction (a change checked where it is made), like `check_ins::of_day`.
pub async fn by_code<'e, E>(executor: E, code: &str) -> Result<Option<Certificate>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    if !db::storable(code) {
        return Ok(None);
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM certificates WHERE code = $1")))
        .bind(code)
        .fetch_optional(executor)
        .await
}

/// The valid certificates of `email`, oldest first (attendance before presentation on a tie).
pub async fn valid_of(conn: &mut Connection, email: &str) -> Result<Vec<Certificate>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM certificates WHERE email = $1 AND revoked_at IS NULL ORDER BY issued_at, kind, code"
    )))
    .bind(email)
    .fetch_all(conn)
    .await
}

/// Starts release number n: raises the count of releases, stamps it `at` by `by`, and returns
/// n. On PostgreSQL the row stays locked until the transaction ends, so releases take turns;
/// on SQLite the write transaction already does that.
pub async fn start_release(conn: &mut Connection, at: &str, by: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE certificate_release SET releases = releases + 1, first_released_at = COALESCE(first_released_at, $1), \
         last_released_at = $1, last_released_by = $2 WHERE id = 1 RETURNING releases",
    )
    .bind(at)
    .bind(by)
    .fetch_one(conn)
    .await
}

/// The releases so far: (how many, the first's time, the last's time and organiser).
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Releases {
    pub releases: i64,
    pub first_released_at: Option<String>,
    pub last_released_at: Option<String>,
    pub last_released_by: Option<String>,
}

/// The releases so far.
pub async fn releases(pool: &Pool) -> Result<Releases, sqlx::Error> {
    sqlx::query_as(
        "SELECT releases, first_released_at, last_released_at, last_released_by FROM certificate_release WHERE id = 1",
    )
    .fetch_one(pool)
    .await
}

/// A ticket that earns an attendance certificate and has none yet: (ticket id, holder name,
/// the order's e-mail address).
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct AttendanceCandidate {
    pub ticket_id: i64,
    pub holder_name: String,
    pub email: String,
}

/// Tickets not refunded that are virtual or were checked in at least once, whose ticket has no
/// current certificate, by ticket id.
pub async fn attendance_candidates(conn: &mut Connection) -> Result<Vec<AttendanceCandidate>, sqlx::Error> {
    sqlx::query_as(
        "SELECT t.id AS ticket_id, t.holder_name, o.billing_email AS email FROM tickets t \
         JOIN orders o ON o.order_id = t.order_id \
         WHERE t.refunded_at IS NULL \
           AND (t.mode = 'virtual' OR EXISTS (SELECT 1 FROM check_ins c WHERE c.ticket_id = t.id)) \
           AND NOT EXISTS (SELECT 1 FROM certificates x WHERE x.ticket_id = t.id AND x.replaced_by IS NULL) \
         ORDER BY t.id",
    )
    .fetch_all(conn)
    .await
}

/// An accepted paper: (id, reference, the submitting author's address).
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct AcceptedPaper {
    pub id: i64,
    pub reference: String,
    pub email: String,
}

/// Accepted papers whose paper has no current certificate, by id.
pub async fn accepted_without_certificate(conn: &mut Connection) -> Result<Vec<AcceptedPaper>, sqlx::Error> {
    sqlx::query_as(
        "SELECT s.id, s.reference, s.email FROM submissions s WHERE s.state = 'accepted' \
           AND NOT EXISTS (SELECT 1 FROM certificates x WHERE x.submission_id = s.id AND x.replaced_by IS NULL) \
         ORDER BY s.id",
    )
    .fetch_all(conn)
    .await
}

/// Revokes `code` at `at` by `by`, unless it is revoked already. Returns whether it was.
pub async fn revoke(conn: &mut Connection, code: &str, at: &str, by: &str) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("UPDATE certificates SET revoked_at = $1, revoked_by = $2 WHERE code = $3 AND revoked_at IS NULL")
            .bind(at)
            .bind(by)
            .bind(code)
            .execute(conn)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks `code` replaced by `new_code` (and revoked, if it was not), unless it was replaced
/// already. Returns whether it was marked; the caller then stores the new certificate.
pub async fn replace(
    conn: &mut Connection,
    code: &str,
    new_code: &str,
    at: &str,
    by: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE certificates SET revoked_at = COALESCE(revoked_at, $1), revoked_by = COALESCE(revoked_by, $2), \
         replaced_by = $3 WHERE code = $4 AND replaced_by IS NULL",
    )
    .bind(at)
    .bind(by)
    .bind(new_code)
    .bind(code)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Counts of the issued certificates: (kind, valid, revoked).
pub async fn counts(pool: &Pool) -> Result<Vec<(String, i64, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT kind, SUM(CASE WHEN revoked_at IS NULL THEN 1 ELSE 0 END), \
         SUM(CASE WHEN revoked_at IS NULL THEN 0 ELSE 1 END) FROM certificates GROUP BY kind ORDER BY kind",
    )
    .fetch_all(pool)
    .await
}

/// Page `page` (from 1) of the certificates, newest first, optionally only those whose code,
/// name or e-mail contains `search` (case-insensitively); with the total that match.
pub async fn list(pool: &Pool, search: Option<&str>, page: i64) -> Result<(i64, Vec<Certificate>), sqlx::Error> {
    let offset = (page - 1) * PAGE_SIZE;
    let Some(search) = search else {
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM certificates").fetch_one(pool).await?;
        let rows = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM certificates ORDER BY issued_at DESC, code LIMIT $1 OFFSET $2"
        )))
        .bind(PAGE_SIZE)
        .bind(offset)
        .fetch_all(pool)
        .await?;
        return Ok((total, rows));
    };
    let pattern = format!("%{}%", escape_like(&search.to_lowercase()));
    let condition =
        "WHERE LOWER(code) LIKE $1 ESCAPE '\\' OR LOWER(holder_name) LIKE $1 ESCAPE '\\' OR email LIKE $1 ESCAPE '\\'";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM certificates {condition}")))
        .bind(&pattern)
        .fetch_one(pool)
        .await?;
    let rows = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM certificates {condition} ORDER BY issued_at DESC, code LIMIT $2 OFFSET $3"
    )))
    .bind(&pattern)
    .bind(PAGE_SIZE)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    Ok((total, rows))
}

fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

/// A signatory as the seed lists it.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct SignatoryRow {
    pub position: i64,
    pub name: String,
    pub role: String,
    /// A file name under `seed/signatures/`.
    pub signature: Option<String>,
}

/// The signatories in order.
pub async fn signatories(pool: &Pool) -> Result<Vec<SignatoryRow>, sqlx::Error> {
    sqlx::query_as("SELECT position, name, role, signature FROM certificate_signatories ORDER BY position")
        .fetch_all(pool)
        .await
}
