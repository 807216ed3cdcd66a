//! The built-in TEST gateway at `/test-gateway` (DESIGN.md section 6), on only in
//! `PAYMENTS_MODE=test` (`crate::routes` adds its route only then), so the whole
//! registration flow works on a fresh machine and in browser tests without real money.
//!
//! It plays CCAvenue's part: the browser POSTs `encRequest` and `access_code` to it; it
//! decrypts the request with the test key, shows the order, and offers Approve, Decline and
//! Cancel, each a plain form that POSTs a real encrypted answer (`encResp` + `orderNo`) to the
//! request's `redirect_url` (Cancel: `cancel_url`). The answers are computed when the page
//! is rendered, so the page needs no JavaScript (and has none: CSP `script-src 'self'`).

use axum::body::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use time::OffsetDateTime;
use time::macros::format_description;

use crate::base::money;
use crate::ccavenue::crypto;
use crate::ccavenue::protocol::{OrderStatus, PaymentResponse};
use crate::error::AppError;
use crate::handlers::render::page;
use crate::handlers::state::AppState;
use crate::payments::config::TEST_GATEWAY_PATH;
use crate::views::layout::{Layout, Meta};
use crate::views::pages::test_gateway::{Choice, GatewayOrder, TestGatewayPage};

/// Largest form accepted, in bytes (an `encRequest` is about 1 KiB).
pub const BODY_LIMIT_BYTES: usize = 16 * 1024;

async fn layout(state: &AppState) -> Result<Layout, AppError> {
    Layout::new(&state.page_ctx(&*state.content.snapshot().await), |site| {
        Meta::new(
            format!("TEST gateway (no real payment) | {}", site.short_name),
            "The built-in test payment gateway: no real payment is taken here.",
            TEST_GATEWAY_PATH,
        )
        .noindex()
    })
}

/// GET `/test-gateway`: says what the page is for; payments arrive by POST.
pub async fn explain(State(state): State<AppState>) -> Result<Response, AppError> {
    page(&TestGatewayPage { layout: layout(&state).await?, order: None })
}

/// POST `/test-gateway`: form `encRequest` + `access_code`, as the browser sends it to
/// CCAvenue. 400 when the request is missing, not ours, or unreadable; 413 past
/// [`BODY_LIMIT_BYTES`]; 408 when the body stops arriving (`crate::connections`).
pub async fn gateway(State(state): State<AppState>, body: Body) -> Result<Response, AppError> {
    let body = match axum::body::to_bytes(body, BODY_LIMIT_BYTES).await {
        Ok(body) => body,
        Err(err) if crate::handlers::extract::is_body_timeout(&err) => {
            return Ok(crate::handlers::extract::body_timeout_refusal().into_response());
        }
        Err(_) => {
            let too_large =
                crate::handlers::extract::Refusal::new(StatusCode::PAYLOAD_TOO_LARGE, "The request is too large.");
            return Ok(too_large.into_response());
        }
    };
    let payments = &state.payments;
    let bad = |why: &str| {
        tracing::warn!(reason = why, "test gateway: request refused");
        AppError::BadRequest(format!("Test gateway: {why}"))
    };
    let form: Vec<(String, String)> =
        serde_urlencoded::from_bytes(&body).map_err(|_| bad("the request is not a form"))?;
    let field = |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let enc_request = field("encRequest").ok_or_else(|| bad("the form has no encRequest"))?;
    if field("access_code") != Some(payments.access_code.as_str()) {
        return Err(bad("unknown access_code"));
    }
    let plain = crypto::decrypt(enc_request, &payments.working_key)
        .map_err(|_| bad("encRequest cannot be decrypted with the test key"))?;
    let request: Vec<(String, String)> =
        serde_urlencoded::from_str(&plain).map_err(|_| bad("encRequest is not a query string"))?;
    let get = |name: &str| request.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default();
    if get("merchant_id") != payments.merchant_id {
        return Err(bad("unknown merchant_id"));
    }
    // The test key is public, so anyone can encrypt a request; answering only to this site's
    // own return address keeps the page from posting answers anywhere else.
    if get("redirect_url") != payments.return_url || get("cancel_url") != payments.return_url {
        return Err(bad("redirect_url and cancel_url must be this site's /api/ccavenue-handle"));
    }
    let (order_id, amount, currency) = (get("order_id"), get("amount"), get("currency"));
    if order_id.is_empty() || money::parse_amount(&amount).is_err() || currency.is_empty() {
        return Err(bad("order_id, amount or currency missing"));
    }

    let tracking_id = format!("{:012}", rand::random_range(0..1_000_000_000_000u64));
    let answer = |status: OrderStatus, message: &str| {
        let approved = status.is_success();
        let response = PaymentResponse {
            order_id: order_id.clone(),
            tracking_id: tracking_id.clone(),
            bank_ref_no: if approved {
                format!("TEST{:08}", rand::random_range(0..100_000_000u32))
            } else {
                String::new()
            },
            order_status: status.as_str().to_owned(),
            failure_message: if approved { String::new() } else { message.to_owned() },
            payment_mode: "Test card".into(),
            card_name: "Test Visa".into(),
            status_code: if approved { "0".into() } else { "1".into() },
            status_message: message.to_owned(),
            currency: currency.clone(),
            amount: amount.clone(),
            trans_date: OffsetDateTime::now_utc()
                .format(format_description!("[day]/[month]/[year] [hour]:[minute]:[second]"))
                .unwrap_or_default(),
            billing_name: get("billing_name"),
            billing_email: get("billing_email"),
        };
        crypto::encrypt(&response.to_query_string(), &payments.working_key)
    };
    let order = GatewayOrder {
        choices: vec![
            Choice {
                label: "Approve",
                url: get("redirect_url"),
                enc_resp: answer(OrderStatus::Success, "Approved by the test gateway"),
                style: "approve",
            },
            Choice {
                label: "Decline",
                url: get("redirect_url"),
                enc_resp: answer(OrderStatus::Failure, "Declined by the test gateway"),
                style: "decline",
            },
            Choice {
                label: "Cancel",
                url: get("cancel_url"),
                enc_resp: answer(OrderStatus::Aborted, "Cancelled by the payer"),
                style: "cancel",
            },
        ],
        item: get("merchant_param1"),
        billing_name: get("billing_name"),
        order_id,
        amount,
        currency,
    };
    tracing::info!(order_id = order.order_id, "test gateway: showing order");
    page(&TestGatewayPage { layout: layout(&state).await?, order: Some(order) })
}
