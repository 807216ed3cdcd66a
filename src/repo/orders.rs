//! Payment orders (`migrations/0005_orders.sql`): created by `/api/ccavenue-initiate`, decided
//! once by `/api/ccavenue-handle` (DESIGN.md section 6).

use futures_util::stream::BoxStream;
use sqlx::FromRow;

use super::dashboard::Counts;
use super::filter::Where;
use crate::db::{self, Connection, Pool};

/// What an order pays for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderKind {
    /// A ticket plan (spec section 9: Tickets).
    Plan,
    /// A custom amount plus 6% tax (spec section 9: Custom payment).
    Custom,
    /// A sponsor package (spec section 9: Sponsor packages).
    Sponsor,
}

impl OrderKind {
    /// The value stored in `orders.kind`.
    pub fn as_str(self) -> &'static str {
        match self {
            OrderKind::Plan => "plan",
            OrderKind::Custom => "custom",
            OrderKind::Sponsor => "sponsor",
        }
    }
}

/// An order's state (DESIGN.md section 6): `initiated` until the gateway answers, then one of
/// the four outcomes for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Initiated,
    Success,
    Failure,
    Aborted,
    Invalid,
}

impl Status {
    /// The value stored in `orders.status`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Initiated => "initiated",
            Status::Success => "success",
            Status::Failure => "failure",
            Status::Aborted => "aborted",
            Status::Invalid => "invalid",
        }
    }

    /// Reads a stored value; the table's CHECK constraint allows nothing else.
    pub fn from_db(value: &str) -> Option<Status> {
        Some(match value {
            "initiated" => Status::Initiated,
            "success" => Status::Success,
            "failure" => Status::Failure,
            "aborted" => Status::Aborted,
            "invalid" => Status::Invalid,
            _ => return None,
        })
    }
}

/// A stored order.
#[derive(Debug, Clone, FromRow)]
pub struct Order {
    pub order_id: String,
    /// `plan`, `custom` or `sponsor` (see [`OrderKind::as_str`]).
    pub kind: String,
    /// Ticket plan id, sponsor package id, or `custom-payment`.
    pub item_id: String,
    /// What was bought, e.g. `Presenter Virtual`.
    pub item_title: String,
    /// Custom payments: the amount as the visitor entered it, before tax.
    pub custom_amount: Option<String>,
    /// What the gateway is asked to charge, in cents.
    pub amount_cents: i64,
    pub currency: String,
    /// See [`Status`].
    pub status: String,
    pub billing_name: String,
    pub billing_email: String,
    pub billing_tel: String,
    pub billing_address: String,
    pub billing_city: String,
    pub billing_state: String,
    pub billing_zip: String,
    pub billing_country: String,
    pub gateway_status: Option<String>,
    pub tracking_id: Option<String>,
    pub bank_ref_no: Option<String>,
    pub payment_mode: Option<String>,
    pub card_name: Option<String>,
    pub status_code: Option<String>,
    pub status_message: Option<String>,
    pub failure_message: Option<String>,
    pub trans_date: Option<String>,
    /// RFC 3339 UTC.
    pub created: String,
    /// RFC 3339 UTC; `None` while initiated.
    pub decided_at: Option<String>,
    /// The payment mode that created the order (`live` or `test`; `None` before migration
    /// 0006).
    pub payments_mode: Option<String>,
    /// The gateway URL the browser was sent to.
    pub gateway: Option<String>,
    /// The organisers' internal note (migration 0012).
    pub note: String,
    /// RFC 3339 UTC when an organiser recorded a refund made outside the site.
    pub refunded_at: Option<String>,
    /// The organiser who recorded it.
    pub refunded_by: Option<String>,
}

impl Order {
    /// The stored status (an unknown value, impossible under the CHECK constraint, reads as
    /// `Initiated` so it is never taken for paid).
    pub fn status(&self) -> Status {
        Status::from_db(&self.status).unwrap_or(Status::Initiated)
    }

    /// The payer's first name: the first word of the billing name.
    pub fn first_name(&self) -> &str {
        self.billing_name.split_whitespace().next().unwrap_or("")
    }
}

/// A new order as `/api/ccavenue-initiate` writes it.
#[derive(Debug, Clone)]
pub struct NewOrder<'a> {
    pub order_id: &'a str,
    pub kind: OrderKind,
    pub item_id: &'a str,
    pub item_title: &'a str,
    pub custom_amount: Option<&'a str>,
    pub amount_cents: i64,
    pub currency: &'a str,
    pub billing_name: &'a str,
    pub billing_email: &'a str,
    pub billing_tel: &'a str,
    pub billing_address: &'a str,
    pub billing_city: &'a str,
    pub billing_state: &'a str,
    pub billing_zip: &'a str,
    pub billing_country: &'a str,
    /// RFC 3339 UTC.
    pub created: &'a str,
    /// `live` or `test` ([`crate::payments::config::Mode::as_str`]).
    pub payments_mode: &'a str,
    /// The gateway URL the browser is sent to.
    pub gateway: &'a str,
}

pub async fn insert(conn: &mut Connection, order: &NewOrder<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO orders (order_id, kind, item_id, item_title, custom_amount, amount_cents, currency,
                             billing_name, billing_email, billing_tel, billing_address, billing_city,
                             billing_state, billing_zip, billing_country, created, payments_mode, gateway)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
    )
    .bind(order.order_id)
    .bind(order.kind.as_str())
    .bind(order.item_id)
    .bind(order.item_title)
    .bind(order.custom_amount)
    .bind(order.amount_cents)
    .bind(order.currency)
    .bind(order.billing_name)
    .bind(order.billing_email)
    .bind(order.billing_tel)
    .bind(order.billing_address)
    .bind(order.billing_city)
    .bind(order.billing_state)
    .bind(order.billing_zip)
    .bind(order.billing_country)
    .bind(order.created)
    .bind(order.payments_mode)
    .bind(order.gateway)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn find(conn: &mut Connection, order_id: &str) -> Result<Option<Order>, sqlx::Error> {
    if !db::storable(order_id) {
        return Ok(None);
    }
    sqlx::query_as("SELECT * FROM orders WHERE order_id = $1").bind(order_id).fetch_optional(conn).await
}

/// [`find`] on a pool.
pub async fn get(pool: &Pool, order_id: &str) -> Result<Option<Order>, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    find(&mut conn, order_id).await
}

/// The gateway's fields stored with a decision (CCAvenue kit names).
#[derive(Debug, Clone, Default)]
pub struct GatewayFields<'a> {
    pub gateway_status: &'a str,
    pub tracking_id: &'a str,
    pub bank_ref_no: &'a str,
    pub payment_mode: &'a str,
    pub card_name: &'a str,
    pub status_code: &'a str,
    pub status_message: &'a str,
    pub failure_message: &'a str,
    pub trans_date: &'a str,
}

/// Moves an order from `initiated` to `status` with the gateway's fields, in one conditional
/// UPDATE so two answers racing each other decide it once. Returns whether this call decided
/// it (`false`: unknown, or already decided, and left as it was).
pub async fn decide(
    conn: &mut Connection,
    order_id: &str,
    status: Status,
    fields: &GatewayFields<'_>,
    decided_at: &str,
) -> Result<bool, sqlx::Error> {
    let result = sqlx::query(
        "UPDATE orders
         SET status = $2, gateway_status = $3, tracking_id = $4, bank_ref_no = $5, payment_mode = $6,
             card_name = $7, status_code = $8, status_message = $9, failure_message = $10,
             trans_date = $11, decided_at = $12
         WHERE order_id = $1 AND status = 'initiated'",
    )
    .bind(order_id)
    .bind(status.as_str())
    .bind(fields.gateway_status)
    .bind(fields.tracking_id)
    .bind(fields.bank_ref_no)
    .bind(fields.payment_mode)
    .bind(fields.card_name)
    .bind(fields.status_code)
    .bind(fields.status_message)
    .bind(fields.failure_message)
    .bind(fields.trans_date)
    .bind(decided_at)
    .execute(conn)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// Every order, oldest first (the organisers' export).
pub async fn all(pool: &Pool) -> Result<Vec<Order>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM orders ORDER BY created, order_id").fetch_all(pool).await
}

/// Which payments mode created an order, as the organisers' filter names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeFilter {
    Live,
    Test,
    /// Orders from before modes were recorded (migration 0006).
    Unrecorded,
}

/// The organisers' view of orders; `None` matches all.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub status: Option<Status>,
    pub kind: Option<OrderKind>,
    pub payments_mode: Option<ModeFilter>,
    /// Text in the order id, the payer's e-mail or name.
    pub search: Option<String>,
}

impl Filter {
    /// How many orders match, from `counts` (by payments mode and state): `None` with a search
    /// or a kind, which they do not count.
    fn counted(&self, counts: &Counts) -> Option<i64> {
        if self.search.is_some() || self.kind.is_some() {
            return None;
        }
        let mode = self.payments_mode.map(|mode| match mode {
            ModeFilter::Live => "live",
            ModeFilter::Test => "test",
            ModeFilter::Unrecorded => "",
        });
        let status = self.status.map(Status::as_str);
        let matching = counts
            .orders
            .iter()
            .filter(|o| mode.is_none_or(|m| o.payments_mode == m) && status.is_none_or(|s| o.status == s));
        Some(matching.map(|o| o.orders).sum())
    }

    fn sql(&self) -> Where {
        let mut filter = Where::new();
        if let Some(status) = self.status {
            filter.equals("status", status.as_str());
        }
        if let Some(kind) = self.kind {
            filter.equals("kind", kind.as_str());
        }
        match self.payments_mode {
            Some(ModeFilter::Live) => filter.equals("payments_mode", "live"),
            Some(ModeFilter::Test) => filter.equals("payments_mode", "test"),
            Some(ModeFilter::Unrecorded) => filter.is_null("payments_mode", true),
            None => {}
        }
        if let Some(text) = &self.search {
            filter.contains("orders_search", &["order_id", "billing_email", "billing_name"], text);
        }
        filter
    }
}

/// Newest first.
const ORDER: &str = "created DESC, order_id DESC";

/// How many orders `filter` selects, and one page (1-based) of them, newest first.
pub async fn list(pool: &Pool, filter: &Filter, page: i64, counts: &Counts) -> Result<(i64, Vec<Order>), sqlx::Error> {
    filter
        .sql()
        .page(pool, "SELECT * FROM orders", ("orders", "order_id"), ORDER, page, counts.matches(filter.counted(counts)))
        .await
}

/// Every order `filter` selects, newest first, one row at a time.
pub fn stream<'a>(pool: &'a Pool, filter: &Filter) -> BoxStream<'a, Result<Order, sqlx::Error>> {
    filter.sql().stream(pool, "SELECT * FROM orders", ORDER)
}

/// Sets order `order_id`'s internal note. Returns whether the order exists.
pub async fn set_note(conn: &mut Connection, order_id: &str, note: &str) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("UPDATE orders SET note = $1 WHERE order_id = $2").bind(note).bind(order_id).execute(conn).await?;
    Ok(done.rows_affected() == 1)
}

/// Records that a paid order's money was returned outside the site, by `by` at `at`: only a
/// `success` order not marked before. Returns whether it was marked now.
pub async fn mark_refunded(conn: &mut Connection, order_id: &str, by: &str, at: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE orders SET refunded_at = $1, refunded_by = $2
         WHERE order_id = $3 AND status = 'success' AND refunded_at IS NULL",
    )
    .bind(at)
    .bind(by)
    .bind(order_id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}
