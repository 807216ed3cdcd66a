//! Receipts and credit notes (DESIGN.md section 16; issue 33 item 4): numbered
//! `<prefix>-<year>-<6 digits>` without gaps per year, one receipt per paid order, one credit
//! note per refund citing the receipt, each frozen as issued ([`Content`], JSON in the row),
//! so the same number always shows the same document, whatever the seed or the order says
//! later.
//!
//! The year is the UTC year of the issue, as the receipt's date is a UTC date (the receipt
//! mail's too). Numbers come from `receipt_counters` in the transaction that stores the
//! document ([`crate::repo::receipts::next_sequence`]): a payment that rolls back gives its
//! number back, and concurrent payments take turns.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use crate::base::money;
use crate::clock::stamp::timestamp;
use crate::db::Connection;
use crate::repo::attendees::AttendeeSettings;
use crate::repo::orders::Order;
use crate::repo::receipts::{self, Kind, NewReceipt, Receipt};

/// The prefix when the seed's is blank.
pub const DEFAULT_PREFIX: &str = "RCPT";

/// `RCPT-2025-000123`: the prefix (trimmed; [`DEFAULT_PREFIX`] when blank), the year and the
/// sequence on six digits.
pub fn number(prefix: &str, year: i32, sequence: i64) -> String {
    let prefix = prefix.trim();
    let prefix = if prefix.is_empty() { DEFAULT_PREFIX } else { prefix };
    format!("{prefix}-{year}-{sequence:06}")
}

/// A party of the document: the seller (from the seed) or the buyer (from the order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Party {
    pub name: String,
    /// Address lines.
    pub address: Vec<String>,
    /// The seller's tax number; the buyer's e-mail address.
    pub reference: String,
}

/// One line of the document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    pub description: String,
    pub amount_cents: i64,
}

/// A document as issued: everything it shows, so it is drawn the same way forever.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Content {
    /// `Receipt`, `Invoice` (when the seed turns the word on) or `Credit note`.
    pub title: String,
    pub number: String,
    /// `21 March 2025` (UTC).
    pub date: String,
    pub seller: Party,
    pub buyer: Party,
    pub lines: Vec<Line>,
    pub currency: String,
    pub total_cents: i64,
    /// `PAID` on a receipt, `CREDITED` on a credit note.
    pub status: String,
    pub order_id: String,
    /// The payment method as the gateway names it (`Credit Card`).
    pub method: String,
    /// The gateway's tracking id.
    pub tracking_id: String,
    /// A credit note: the number of the receipt it cancels.
    pub cites: Option<String>,
    /// Paid through the built-in test gateway: no money moved.
    pub test: bool,
}

impl Content {
    /// `145.00` of a line or the total.
    pub fn amount(cents: i64) -> String {
        money::format_cents(cents)
    }

    /// The total for people, `USD 145.00`.
    pub fn total(&self) -> String {
        money::format_display(self.total_cents, &self.currency)
    }

    /// Reads a stored document; `None` when the JSON is not one (never written so).
    pub fn read(json: &str) -> Option<Content> {
        serde_json::from_str(json).ok()
    }
}

/// `21 March 2025`.
fn day(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!("{} {} {}", at.day(), at.month(), at.year())
}

/// What was paid, line by line: a ticket or a sponsorship is one line; a custom payment is
/// the amount entered and its 6% tax (the total less the amount, so the lines add up to what
/// was charged).
fn lines(order: &Order) -> Vec<Line> {
    match order.kind.as_str() {
        "custom" => {
            let base = order.custom_amount.as_deref().and_then(|a| money::parse_amount(a).ok());
            match base.filter(|b| *b <= order.amount_cents) {
                Some(base) => vec![
                    Line { description: "Custom payment".into(), amount_cents: base },
                    Line {
                        description: format!("Tax ({}%)", money::CUSTOM_TAX_PERCENT),
                        amount_cents: order.amount_cents - base,
                    },
                ],
                None => {
                    vec![Line { description: "Custom payment, tax included".into(), amount_cents: order.amount_cents }]
                }
            }
        }
        "sponsor" => {
            vec![Line { description: format!("Sponsorship: {}", order.item_title), amount_cents: order.amount_cents }]
        }
        _ => vec![Line {
            description: format!("Registration ticket: {}", order.item_title),
            amount_cents: order.amount_cents,
        }],
    }
}

/// The content of order `order`'s document `number` of `kind` issued `at`.
fn content(
    order: &Order,
    settings: &AttendeeSettings,
    kind: Kind,
    number: &str,
    cites: Option<&str>,
    at: OffsetDateTime,
) -> Content {
    let title = match kind {
        Kind::CreditNote => "Credit note",
        Kind::Receipt if settings.invoice_wording == 1 => "Invoice",
        Kind::Receipt => "Receipt",
    };
    let lines_of = |text: &str| text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect();
    let city_line = [order.billing_zip.as_str(), order.billing_city.as_str()]
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let buyer_address =
        [order.billing_address.trim(), &city_line, order.billing_state.trim(), order.billing_country.trim()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
    Content {
        title: title.into(),
        number: number.into(),
        date: day(at),
        seller: Party {
            name: settings.seller_name.trim().to_owned(),
            address: lines_of(&settings.seller_address),
            reference: settings.seller_tax_number.trim().to_owned(),
        },
        buyer: Party {
            name: order.billing_name.clone(),
            address: buyer_address,
            reference: order.billing_email.clone(),
        },
        lines: lines(order),
        currency: order.currency.clone(),
        total_cents: order.amount_cents,
        status: if kind == Kind::CreditNote { "CREDITED" } else { "PAID" }.into(),
        order_id: order.order_id.clone(),
        method: order.payment_mode.clone().unwrap_or_default(),
        tracking_id: order.tracking_id.clone().unwrap_or_default(),
        cites: cites.map(str::to_owned),
        // `crate::payments::config::Mode::Test`, as stored in `orders.payments_mode`.
        test: order.payments_mode.as_deref() == Some("test"),
    }
}

/// Numbers and stores a document of `order` on `conn`.
async fn store(
    conn: &mut Connection,
    order: &Order,
    settings: &AttendeeSettings,
    kind: Kind,
    cites: Option<&str>,
    at: OffsetDateTime,
) -> Result<Receipt, sqlx::Error> {
    let year = at.to_offset(time::UtcOffset::UTC).year();
    let sequence = receipts::next_sequence(conn, i64::from(year)).await?;
    let number = number(&settings.receipt_prefix, year, sequence);
    let content = content(order, settings, kind, &number, cites, at);
    let json = serde_json::to_string(&content).expect("a document serialises");
    let receipt = NewReceipt {
        number: &number,
        year: i64::from(year),
        sequence,
        order_id: &order.order_id,
        kind,
        cites,
        issued_at: &timestamp(at),
        content: &json,
    };
    receipts::insert(conn, &receipt).await
}

/// The receipt of a paid `order` (its gateway fields filled in): the one it has, or a new one
/// numbered and stored on `conn`, the transaction that records the payment.
pub async fn issue_receipt(
    conn: &mut Connection,
    order: &Order,
    settings: &AttendeeSettings,
    at: OffsetDateTime,
) -> Result<Receipt, sqlx::Error> {
    if let Some(receipt) = receipts::of_order(conn, &order.order_id, Kind::Receipt).await? {
        return Ok(receipt);
    }
    store(conn, order, settings, Kind::Receipt, None, at).await
}

/// The credit note of a refunded `order`, citing its receipt: the one it has, or a new one
/// numbered and stored on `conn`, the transaction that records the refund. `None` when the
/// order has no numbered receipt (paid before receipts were numbered): there is nothing to
/// cancel.
pub async fn issue_credit_note(
    conn: &mut Connection,
    order: &Order,
    settings: &AttendeeSettings,
    at: OffsetDateTime,
) -> Result<Option<Receipt>, sqlx::Error> {
    let Some(receipt) = receipts::of_order(conn, &order.order_id, Kind::Receipt).await? else {
        return Ok(None);
    };
    if let Some(note) = receipts::of_order(conn, &order.order_id, Kind::CreditNote).await? {
        return Ok(Some(note));
    }
    store(conn, order, settings, Kind::CreditNote, Some(&receipt.number), at).await.map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_the_prefix_the_year_and_six_digits() {
        assert_eq!(number("RCPT", 2025, 123), "RCPT-2025-000123");
        assert_eq!(number(" FIX ", 2026, 1), "FIX-2026-000001");
        assert_eq!(number("", 2025, 1_000_000), "RCPT-2025-1000000");
    }
}
