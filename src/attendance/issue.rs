//! What a paid order brings, made in the transaction that records the payment (DESIGN.md
//! section 16): its numbered receipt, and for a registration its ticket and a first attendee
//! link, which the receipt mail carries. Run again for the same order (a "send my link
//! again" for an order paid before tickets existed), it keeps what the order has and adds
//! only what is missing. A refund brings a credit note and ends the ticket.

use time::OffsetDateTime;

use super::{links, receipts, tickets};
use crate::clock::stamp::timestamp;
use crate::db::Connection;
use crate::repo::attendees::{AttendeeSettings, Ticket};
use crate::repo::orders::Order;
use crate::repo::receipts::Receipt;

/// What [`paid_order`] made or found.
#[derive(Debug, Clone)]
pub struct Issued {
    pub receipt: Receipt,
    /// `None` for a custom payment or a sponsorship.
    pub ticket: Option<Ticket>,
    /// A new attendee link's token, with the ticket.
    pub link: Option<String>,
}

/// The receipt, ticket (`mode`: the plan's, [`tickets::mode_of`]) and a new attendee link of
/// a paid `order`, stored on `conn` at `at`.
pub async fn paid_order(
    conn: &mut Connection,
    order: &Order,
    mode: &str,
    settings: &AttendeeSettings,
    at: OffsetDateTime,
) -> Result<Issued, sqlx::Error> {
    let created = timestamp(at);
    let receipt = receipts::issue_receipt(conn, order, settings, at).await?;
    let ticket = tickets::issue(conn, order, mode, &created).await?;
    let link = match &ticket {
        Some(ticket) => Some(links::new_link(conn, ticket.id, &created).await?),
        None => None,
    };
    Ok(Issued { receipt, ticket, link })
}

/// What a refund recorded by organisers brings, on `conn`, the transaction that records it
/// at `at`: the order's credit note citing its receipt (none when the order has no numbered
/// receipt, [`receipts::issue_credit_note`]) and its ticket marked refunded, which the
/// attendee page then says and the check-in desk refuses.
pub async fn refunded_order(
    conn: &mut Connection,
    order: &Order,
    at: OffsetDateTime,
) -> Result<Option<Receipt>, sqlx::Error> {
    let settings = crate::repo::attendees::settings(conn).await?;
    let note = receipts::issue_credit_note(conn, order, &settings, at).await?;
    crate::repo::attendees::mark_refunded(conn, &order.order_id, &timestamp(at)).await?;
    Ok(note)
}
