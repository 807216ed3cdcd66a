//! What organisers record on an order by hand in the back office (DESIGN.md section 12,
//! issue 21 item 5): its internal note, and a refund made outside the site. Each is one
//! transaction with its audit entry; neither reaches the gateway. The page is
//! `crate::handlers::organiser::orders`; the SQL is `crate::repo::orders`.

use serde_json::json;
use time::OffsetDateTime;

use crate::attendance::issue;
use crate::base::money;
use crate::clock::stamp::timestamp;
use crate::db::Pool;
use crate::error::{Outcome, Refused};
use crate::repo::audit::{self, Actor};
use crate::repo::orders::{self, Order};

/// What an organiser reads for an order id no order has (404): at most 40 characters of it.
fn unknown(order_id: &str) -> Refused {
    Refused::NotFound(format!("No order has the id {}.", order_id.chars().take(40).collect::<String>()))
}

/// The order `order_id`, or [`unknown`].
async fn order(pool: &Pool, order_id: &str) -> Outcome<Order> {
    orders::get(pool, order_id).await?.ok_or_else(|| unknown(order_id))
}

/// What [`set_note`] did: the note of order `order_id` is now `after` (empty: none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteSaved {
    pub order_id: String,
    pub after: String,
}

/// Sets the organisers' internal note of order `order_id` to `note` (already trimmed and
/// bounded by the form), audited as `order.note` by `actor` with the note before and after.
/// Refused as [`Refused::NotFound`] for an unknown order.
pub async fn set_note(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    order_id: &str,
    note: &str,
) -> Outcome<NoteSaved> {
    let before = order(pool, order_id).await?;
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    orders::set_note(&mut tx, &before.order_id, note).await?;
    let mut entry = actor.entry(&at, "order.note").about("order", &before.order_id);
    entry.details = json!({ "note": { "before": before.note, "after": note } });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(NoteSaved { order_id: before.order_id.clone(), after: note.to_owned() })
}

/// What [`refund`] did: order `order_id` is marked refunded, with its credit note's number
/// when the order had a numbered receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refunded {
    pub order_id: String,
    pub credit_note: Option<String>,
}

/// Records at `now` that paid order `order_id`'s money was returned outside the site, by
/// `actor`: the order marked refunded, its credit note citing its receipt and its ticket
/// marked refunded ([`issue::refunded_order`]), audited as `order.refunded` with the amount
/// and the credit note's number, in one transaction. The order's payment state stays as the
/// gateway decided it.
///
/// Refused as [`Refused::NotFound`] for an unknown order and as [`Refused::NotAllowed`] when
/// it is not paid or was marked refunded already.
pub async fn refund(pool: &Pool, now: OffsetDateTime, actor: &Actor, order_id: &str) -> Outcome<Refunded> {
    let before = order(pool, order_id).await?;
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    if !orders::mark_refunded(&mut tx, &before.order_id, &actor.email, &at).await? {
        let why = if before.refunded_at.is_some() { "is marked refunded already" } else { "was not paid" };
        return Err(Refused::NotAllowed(format!("Order {} {why}; nothing was changed.", before.order_id)));
    }
    // The credit note and the ticket's end (issue 33 item 4), in the refund's transaction.
    let credit_note = issue::refunded_order(&mut tx, &before, now).await?.map(|n| n.number);
    let mut entry = actor.entry(&at, "order.refunded").about("order", &before.order_id);
    entry.details = json!({
        "refunded": { "before": false, "after": true },
        "amount": format!("{} {}", before.currency, money::format_cents(before.amount_cents)),
        "credit_note": credit_note,
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Refunded { order_id: before.order_id.clone(), credit_note })
}
