//! `/Success` and `/Failed`: where the gateway's answer lands (spec section 2; DESIGN.md
//! section 6). `/Success?order=ID` shows a paid order's plan, amount and the payer's first
//! name, and nothing else about the payer; any other order goes to `/Failed`, which shows
//! the order's status and the way back to /pricing. Both are kept out of search engines.

use axum::extract::{RawQuery, State};
use axum::response::Response;

use crate::ccavenue::order_id::is_valid_order_id;
use crate::error::AppError;
use crate::handlers::render::{page, see_other};
use crate::handlers::state::AppState;
use crate::repo::orders::{self, Order, Status};
use crate::views::layout::{Layout, Meta};
use crate::views::pages::payment_result::{Paid, PaymentResultPage, Unpaid};

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
    let paid = Paid::of(order);
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
    let unpaid = order.map(Unpaid::of);
    page(&PaymentResultPage { layout, success: false, paid: None, unpaid })
}
