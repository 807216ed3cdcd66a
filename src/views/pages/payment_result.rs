//! What `/Success` and `/Failed` show (spec section 2; DESIGN.md section 6): a paid order's
//! plan, amount and the payer's first name, and nothing else about the payer; an unpaid
//! order's status in words.

use askama::Template;

use crate::base::money;
use crate::repo::orders::{Order, Status};
use crate::views::layout::Layout;

/// What `/Success` shows of a paid order.
pub struct Paid {
    pub order_id: String,
    /// What the item is: `Registration`, `Sponsorship` or `Payment` (a custom amount).
    pub label: &'static str,
    /// The plan, package or `Custom Payment`.
    pub item_title: String,
    /// e.g. `USD 219.00`.
    pub amount: String,
    /// The payer's first name only: the page's address can be shared or logged.
    pub first_name: String,
}

impl Paid {
    /// What `/Success` shows of the paid `order`.
    pub fn of(order: Order) -> Paid {
        Paid {
            label: match order.kind.as_str() {
                "sponsor" => "Sponsorship",
                "custom" => "Payment",
                _ => "Registration",
            },
            first_name: order.first_name().to_owned(),
            amount: money::format_display(order.amount_cents, &order.currency),
            item_title: order.item_title,
            order_id: order.order_id,
        }
    }
}

/// What `/Failed` shows of an order that was not paid.
pub struct Unpaid {
    pub order_id: String,
    /// The stored status: `initiated`, `failure`, `aborted` or `invalid`.
    pub status: &'static str,
    /// The status in words.
    pub explanation: &'static str,
}

impl Unpaid {
    /// What `/Failed` shows of `order`, its status in the payer's words.
    pub fn of(order: Order) -> Unpaid {
        let (status, explanation) = describe(order.status());
        Unpaid { order_id: order.order_id, status, explanation }
    }
}

/// `/Success` or `/Failed` as drawn (`templates/pages/payment_result.html`).
#[derive(Template)]
#[template(path = "pages/payment_result.html")]
pub struct PaymentResultPage {
    pub layout: Layout,
    pub success: bool,
    /// `/Success`: the paid order.
    pub paid: Option<Paid>,
    /// `/Failed`: the order named by `?order=`, when it exists.
    pub unpaid: Option<Unpaid>,
}

/// A status in the payer's words.
fn describe(status: Status) -> (&'static str, &'static str) {
    let explanation = match status {
        Status::Initiated => {
            "The payment was not completed, or it is still being confirmed. You have not been sent a receipt."
        }
        Status::Failure => "The payment was declined.",
        Status::Aborted => "The payment was cancelled.",
        Status::Invalid => "The payment gateway could not accept the payment request.",
        Status::Success => "The payment was received.",
    };
    (status.as_str(), explanation)
}
