//! Receipts and credit notes, and their gapless numbers per year
//! (`migrations/0020_attendees.sql`, DESIGN.md section 16). Rows are only ever inserted:
//! the database refuses to update or delete one.

use sqlx::FromRow;

use crate::db::{self, Connection};

/// What a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The receipt of a paid order.
    Receipt,
    /// The credit note of a refund, citing the order's receipt.
    CreditNote,
}

impl Kind {
    /// The value stored in `receipts.kind`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Receipt => "receipt",
            Kind::CreditNote => "credit_note",
        }
    }
}

/// A stored receipt or credit note.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Receipt {
    /// `<prefix>-<year>-<6 digits>`.
    pub number: String,
    pub year: i64,
    pub sequence: i64,
    pub order_id: String,
    /// See [`Kind::as_str`].
    pub kind: String,
    /// A credit note's receipt number; `None` for a receipt.
    pub cites: Option<String>,
    /// RFC 3339 UTC.
    pub issued_at: String,
    /// The document as issued, JSON (`crate::attendance::receipts::Content`).
    pub content: String,
}

const COLUMNS: &str = "number, year, sequence, order_id, kind, cites, issued_at, content";

/// The next number of `year`: raises the year's counter by one on `conn`, which must be the
/// transaction that stores the document, so the number is used once and a rollback gives
/// it back. On PostgreSQL the `UPDATE` holds the counter's row until that transaction ends,
/// which puts concurrent payments in a queue; SQLite runs one writing transaction at a time.
pub async fn next_sequence(conn: &mut Connection, year: i64) -> Result<i64, sqlx::Error> {
    sqlx::query("INSERT INTO receipt_counters (year, last_sequence) VALUES ($1, 0) ON CONFLICT (year) DO NOTHING")
        .bind(year)
        .execute(&mut *conn)
        .await?;
    let (sequence,): (i64,) = sqlx::query_as(
        "UPDATE receipt_counters SET last_sequence = last_sequence + 1 WHERE year = $1 RETURNING last_sequence",
    )
    .bind(year)
    .fetch_one(conn)
    .await?;
    Ok(sequence)
}

/// A document to store.
#[derive(Debug, Clone)]
pub struct NewReceipt<'a> {
    pub number: &'a str,
    pub year: i64,
    pub sequence: i64,
    pub order_id: &'a str,
    pub kind: Kind,
    pub cites: Option<&'a str>,
    pub issued_at: &'a str,
    pub content: &'a str,
}

/// Stores `receipt` and returns it.
pub async fn insert(conn: &mut Connection, receipt: &NewReceipt<'_>) -> Result<Receipt, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO receipts (number, year, sequence, order_id, kind, cites, issued_at, content) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {COLUMNS}"
    )))
    .bind(receipt.number)
    .bind(receipt.year)
    .bind(receipt.sequence)
    .bind(receipt.order_id)
    .bind(receipt.kind.as_str())
    .bind(receipt.cites)
    .bind(receipt.issued_at)
    .bind(receipt.content)
    .fetch_one(conn)
    .await
}

/// Order `order_id`'s document of `kind`, if it has one.
pub async fn of_order(conn: &mut Connection, order_id: &str, kind: Kind) -> Result<Option<Receipt>, sqlx::Error> {
    if !db::storable(order_id) {
        return Ok(None);
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM receipts WHERE order_id = $1 AND kind = $2")))
        .bind(order_id)
        .bind(kind.as_str())
        .fetch_optional(conn)
        .await
}

/// Every document of order `order_id`, the receipt first.
pub async fn for_order(conn: &mut Connection, order_id: &str) -> Result<Vec<Receipt>, sqlx::Error> {
    if !db::storable(order_id) {
        return Ok(Vec::new());
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM receipts WHERE order_id = $1 ORDER BY year, sequence"
    )))
    .bind(order_id)
    .fetch_all(conn)
    .await
}
