//! `/Success` and `/Failed`: where the gateway's answer lands (spec section 2; DESIGN.md
//! section 6). `/Success?order=ID` shows a paid order's plan, amount and the payer's first
//! name, and nothing else about the payer; any other order goes to `/Failed`, which shows
//! the order's status and the way back to /pricing. Both are kept out of search engines.

use askama::Template;
use axum::extract::{RawQuery, State};
use axum::response::Response;

use crate::base::money;
use crate::ccavenue::order_id::is_valid_order_id;
use crate::error::AppError;
use crate::handlers::render::{page, see_other};
use crate::handlers::state::AppState;
use crate::repo::orders::{self, Order, Status};
use crate::views::layout::{Layout, Meta};

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

/// What `/Failed` shows of an order that was not paid.
pub struct Unpaid {
    pub order_id: String,
    /// The stored status: `initiated`, `failure`, `aborted` or `invalid`.
    pub status: &'static str,
    /// The status in words.
    pub explanation: &'static str,
}

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

/// The `order` query parameter, as given (first one wins); `None` when absent.
fn order_param(query: Option<&str>) -> Option<String> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or("")).unwrap_or_default();
    pairs.into_iter().find(|(k, _)| k == "order").map(|(_, v)| v)
}

/// Looks up a well-formed order id; `Err(())` when the id is malformed.
async fn lookup(state: &AppState, id: &str) -> Result<Result<Option<Order>, ()>, AppError> {
    if !is_valid_order_id(id) {
        return Ok(Err(()));
    }
    Ok(Ok(orders::get(&state.pool, id).await?))
}

fn failed_path(id: &str) -> String {
    format!("/Failed?order={id}")
}

/// GET `/Success?order=ID`: 200 for a paid order; otherwise 303 to `/Failed?order=ID`
/// (`/Failed` alone when the id is missing or malformed).
pub async fn success(State(state): State<AppState>, RawQuery(query): RawQuery) -> Result<Response, AppError> {
    let Some(id) = order_param(query.as_deref()) else {
        return Ok(see_other("/Failed"));
    };
    let order = match lookup(&state, &id).await? {
        Err(()) => return Ok(see_other("/Failed")),
        Ok(Some(order)) if order.status() == Status::Success => order,
        Ok(_) => return Ok(see_other(&failed_path(&id))),
    };
    let layout = Layout::new(&state.page_ctx(&*state.content.snapshot().await), |site| {
        Meta::new(
            format!("Payment successful | {}", site.short_name),
            "Your registration payment was received.",
            "/Success",
        )
        .noindex()
    })?;
    let paid = Paid {
        label: match order.kind.as_str() {
            "sponsor" => "Sponsorship",
            "custom" => "Payment",
            _ => "Registration",
        },
        first_name: order.first_name().to_owned(),
        amount: money::format_display(order.amount_cents, &order.currency),
        item_title: order.item_title,
        order_id: order.order_id,
    };
    page(&PaymentResultPage { layout, success: true, paid: Some(paid), unpaid: None })
}

/// GET `/Failed[?order=ID]`: 'Failed', the order's status when it names a real order, and
/// the way back to /pricing. A paid order's id goes to `/Success` instead.
pub async fn failed(State(state): State<AppState>, RawQuery(query): RawQuery) -> Result<Response, AppError> {
    let order = match order_param(query.as_deref()) {
        Some(id) => lookup(&state, &id).await?.ok().flatten(),
        None => None,
    };
    if let Some(order) = &order
        && order.status() == Status::Success
    {
        return Ok(see_other(&format!("/Success?order={}", order.order_id)));
    }
    let layout = Layout::new(&state.page_ctx(&*state.content.snapshot().await), |site| {
        Meta::new(format!("Payment failed | {}", site.short_name), "Your payment did not go through.", "/Failed")
            .noindex()
    })?;
    let unpaid = order.map(|order| {
        let (status, explanation) = describe(order.status());
        Unpaid { order_id: order.order_id, status, explanation }
    });
    page(&PaymentResultPage { layout, success: false, paid: None, unpaid })
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
