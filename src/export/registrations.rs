//! `conference export registrations`: every payment order (tickets, custom payments,
//! sponsorships) as CSV, oldest first, for organisers reconciling with CCAvenue's dashboard.

use std::io::Write;

use super::csv::SafeWriter;
use crate::base::money;
use crate::db::Pool;
use crate::repo::orders::{self, Order};

/// The header row; one row per order follows.
pub const HEADER: [&str; 22] = [
    "order_id",
    "kind",
    "item",
    "item_title",
    "custom_amount",
    "amount",
    "currency",
    "status",
    "name",
    "email",
    "phone",
    "country",
    "created",
    "decided_at",
    "gateway_status",
    "tracking_id",
    "bank_ref_no",
    "payment_mode",
    "failure_message",
    "trans_date",
    // Issue 21: a refund an organiser recorded (money returned outside the site).
    "refunded_at",
    "refunded_by",
];

/// Writes the header and every order. `amount` is the charged amount in the gateway's
/// decimal form (`219.00`); `custom_amount` is what a visitor entered before tax.
pub async fn write<W: Write>(pool: &Pool, out: &mut SafeWriter<W>) -> Result<(), Box<dyn std::error::Error>> {
    out.write_record(HEADER)?;
    for o in orders::all(pool).await? {
        write_row(out, &o)?;
    }
    Ok(())
}

/// One order's row (the organisers' CSV of a filtered list writes the same rows).
pub fn write_row<W: Write>(out: &mut SafeWriter<W>, o: &Order) -> csv::Result<()> {
    let opt = |v: &Option<String>| v.clone().unwrap_or_default();
    out.write_record([
        o.order_id.clone(),
        o.kind.clone(),
        o.item_id.clone(),
        o.item_title.clone(),
        opt(&o.custom_amount),
        money::format_cents(o.amount_cents),
        o.currency.clone(),
        o.status.clone(),
        o.billing_name.clone(),
        o.billing_email.clone(),
        o.billing_tel.clone(),
        o.billing_country.clone(),
        o.created.clone(),
        opt(&o.decided_at),
        opt(&o.gateway_status),
        opt(&o.tracking_id),
        opt(&o.bank_ref_no),
        opt(&o.payment_mode),
        opt(&o.failure_message),
        opt(&o.trans_date),
        opt(&o.refunded_at),
        opt(&o.refunded_by),
    ])
}
