//! Tickets, the attendees' private links and the attendee settings of the seed's `site` row
//! (`migrations/0020_attendees.sql`, DESIGN.md section 16).

use sqlx::FromRow;

use crate::db::{self, Connection, Pool};

/// The attendee and receipt settings of the seed's `site` row, read when used so a re-applied
/// seed counts at once.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct AttendeeSettings {
    /// Until when attendees may change the name on their ticket: `YYYY-MM-DD HH:MM` in
    /// `site.time_zone`; `None` for no limit.
    pub attendee_changes_until: Option<String>,
    /// The first part of receipt numbers, e.g. `RCPT` in `RCPT-2025-000123`.
    pub receipt_prefix: String,
    pub seller_name: String,
    /// May span lines.
    pub seller_address: String,
    pub seller_tax_number: String,
    /// 1: the documents are called invoices; 0: receipts.
    pub invoice_wording: i64,
}

/// The attendee settings; `attendee_changes_until` is the one in force: the organisers' value
/// (`settings`, migration 0023) over the seed's (DESIGN.md section 20).
pub async fn settings(conn: &mut Connection) -> Result<AttendeeSettings, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {} AS attendee_changes_until, receipt_prefix, seller_name, seller_address, seller_tax_number, \
         invoice_wording FROM site WHERE id = 1",
        super::settings::effective_sql("attendee_changes_until")
    )))
    .fetch_one(conn)
    .await
}

/// A stored ticket.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Ticket {
    pub id: i64,
    pub order_id: String,
    /// What the QR carries: base32, upper case (`crate::attendance::tickets::new_code`).
    pub code: String,
    pub holder_name: String,
    /// `virtual` or `physical`.
    pub mode: String,
    /// The plan's title when it was paid, e.g. `Presenter Virtual`.
    pub ticket_type: String,
    /// RFC 3339 UTC.
    pub created: String,
    /// RFC 3339 UTC of the latest name change; `None` before one.
    pub name_changed_at: Option<String>,
    /// RFC 3339 UTC of the refund's credit note; `None` while the ticket stands.
    pub refunded_at: Option<String>,
}

const COLUMNS: &str = "id, order_id, code, holder_name, mode, ticket_type, created, name_changed_at, refunded_at";

/// The ticket of `code` (in its stored form, `crate::attendance::tickets::normalise_code`), by
/// the unique index on `tickets.code`: what the check-in desk scans.
pub async fn ticket_by_code(pool: &Pool, code: &str) -> Result<Option<Ticket>, sqlx::Error> {
    if !crate::db::storable(code) {
        return Ok(None);
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM tickets WHERE code = $1")))
        .bind(code)
        .fetch_optional(pool)
        .await
}

/// A ticket to store.
#[derive(Debug, Clone)]
pub struct NewTicket<'a> {
    pub order_id: &'a str,
    pub code: &'a str,
    pub holder_name: &'a str,
    pub mode: &'a str,
    pub ticket_type: &'a str,
    pub created: &'a str,
}

/// Stores `ticket` and returns it.
pub async fn insert_ticket(conn: &mut Connection, ticket: &NewTicket<'_>) -> Result<Ticket, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO tickets (order_id, code, holder_name, mode, ticket_type, created) \
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING {COLUMNS}"
    )))
    .bind(ticket.order_id)
    .bind(ticket.code)
    .bind(ticket.holder_name)
    .bind(ticket.mode)
    .bind(ticket.ticket_type)
    .bind(ticket.created)
    .fetch_one(conn)
    .await
}

/// The ticket of order `order_id`, if it has one.
pub async fn ticket_of_order(conn: &mut Connection, order_id: &str) -> Result<Option<Ticket>, sqlx::Error> {
    if !db::storable(order_id) {
        return Ok(None);
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM tickets WHERE order_id = $1")))
        .bind(order_id)
        .fetch_optional(conn)
        .await
}

/// The ticket an attendee link opens, by the SHA-256 of its token.
pub async fn ticket_by_link(pool: &Pool, token_hash: &str) -> Result<Option<Ticket>, sqlx::Error> {
    if !db::storable(token_hash) {
        return Ok(None);
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM tickets WHERE id = (SELECT ticket_id FROM attendee_links WHERE token_hash = $1)"
    )))
    .bind(token_hash)
    .fetch_optional(pool)
    .await
}

/// Stores a link to ticket `ticket_id` (the SHA-256 of its token).
pub async fn insert_link(
    conn: &mut Connection,
    token_hash: &str,
    ticket_id: i64,
    created: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO attendee_links (token_hash, ticket_id, created) VALUES ($1, $2, $3)")
        .bind(token_hash)
        .bind(ticket_id)
        .bind(created)
        .execute(conn)
        .await?;
    Ok(())
}

/// How many links ticket `ticket_id` was given after `since` (RFC 3339 UTC).
pub async fn links_since(conn: &mut Connection, ticket_id: i64, since: &str) -> Result<i64, sqlx::Error> {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM attendee_links WHERE ticket_id = $1 AND created > $2")
        .bind(ticket_id)
        .bind(since)
        .fetch_one(conn)
        .await?;
    Ok(n)
}

/// Sets the name on ticket `ticket_id`, unless it was refunded. Returns whether it was set.
pub async fn set_holder_name(conn: &mut Connection, ticket_id: i64, name: &str, at: &str) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("UPDATE tickets SET holder_name = $1, name_changed_at = $2 WHERE id = $3 AND refunded_at IS NULL")
            .bind(name)
            .bind(at)
            .bind(ticket_id)
            .execute(conn)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks order `order_id`'s ticket refunded at `at` (no ticket: nothing to mark). Returns
/// whether a ticket was marked now.
pub async fn mark_refunded(conn: &mut Connection, order_id: &str, at: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE tickets SET refunded_at = $1 WHERE order_id = $2 AND refunded_at IS NULL")
        .bind(at)
        .bind(order_id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}
