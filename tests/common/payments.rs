//! Helpers of the payment tests (`tests/payments.rs`, `tests/test_gateway.rs`): apps in
//! test or "live" mode, checkout payloads, gateway answers, and what an order left behind.

use std::collections::BTreeMap;

use axum::body::Body;
use axum::http::StatusCode;
use serde_json::Value;

use conference::ccavenue::crypto;
use conference::ccavenue::protocol::PaymentResponse;
use conference::config::Config;

use super::{Reply, TestApp};

/// Credentials of a "live" configuration in tests (nothing here reaches CCAvenue).
pub const LIVE_MERCHANT: &str = "4242";
/// See [`LIVE_MERCHANT`].
pub const LIVE_ACCESS: &str = "AVLIVE42";
/// See [`LIVE_MERCHANT`].
pub const LIVE_KEY: &str = "LIVE-WORKING-KEY-FOR-TESTS-ONLY";

/// A fresh application over its own database, with `configure` applied to the test
/// configuration. The rate limit is lifted: these tests send many POSTs from one "client".
pub async fn app_with(configure: impl FnOnce(&mut Config)) -> TestApp {
    crate::common::app_with(|config| {
        config.rate_limit_per_minute = 100_000;
        configure(config);
    })
    .await
}

/// The test-gateway configuration (no credentials).
pub async fn app() -> TestApp {
    app_with(|_| {}).await
}

/// Sets the three CCAvenue credentials.
pub fn live(config: &mut Config) {
    config.ccavenue_merchant_id = Some(LIVE_MERCHANT.into());
    config.ccavenue_access_code = Some(LIVE_ACCESS.into());
    config.ccavenue_working_key = Some(LIVE_KEY.into());
}

/// POST `body` as `content_type`, without an `Origin` header.
pub async fn post(app: &TestApp, path: &str, content_type: &str, body: impl Into<Body>) -> Reply {
    app.post(path, content_type, body, &[]).await
}

/// POST `body` as JSON.
pub async fn post_json(app: &TestApp, path: &str, body: &Value) -> Reply {
    post(app, path, "application/json", body.to_string()).await
}

/// POST `pairs` form-urlencoded, as a browser's plain form does.
pub async fn post_form(app: &TestApp, path: &str, pairs: &[(&str, &str)]) -> Reply {
    let body = serde_urlencoded::to_string(pairs).expect("form encodes");
    post(app, path, "application/x-www-form-urlencoded", body).await
}

pub use super::payer::checkout;

/// The answer of a successful initiate: `{"orderId","encRequest","accessCode","gatewayUrl"}`.
pub struct Initiated {
    pub order_id: String,
    pub enc_request: String,
    pub access_code: String,
    pub gateway_url: String,
}

/// POST `/api/ccavenue-initiate`, which must answer 201.
pub async fn initiate(app: &TestApp, body: &Value) -> Initiated {
    let reply = post_json(app, "/api/ccavenue-initiate", body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "initiate {body}: {}", reply.text());
    let json: Value = serde_json::from_slice(&reply.body).expect("JSON answer");
    let field = |k: &str| json[k].as_str().unwrap_or_else(|| panic!("{k} in {json}")).to_string();
    Initiated {
        order_id: field("orderId"),
        enc_request: field("encRequest"),
        access_code: field("accessCode"),
        gateway_url: field("gatewayUrl"),
    }
}

/// Decrypts an `encRequest` and parses its fields (each must appear once).
pub fn request_fields(enc_request: &str, key: &str) -> BTreeMap<String, String> {
    let plain = crypto::decrypt(enc_request, key).expect("encRequest decrypts with the key");
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(&plain).expect("a query string");
    let mut fields = BTreeMap::new();
    for (k, v) in pairs {
        assert!(fields.insert(k.clone(), v).is_none(), "field {k} appears once in {plain}");
    }
    fields
}

/// A gateway answer as CCAvenue sends it, before encryption.
pub fn answer(order_id: &str, order_status: &str, amount: &str, currency: &str) -> PaymentResponse {
    PaymentResponse {
        order_id: order_id.into(),
        tracking_id: "310009876543".into(),
        bank_ref_no: "BRN123456".into(),
        order_status: order_status.into(),
        failure_message: String::new(),
        payment_mode: "Credit Card".into(),
        card_name: "Visa".into(),
        status_code: "0".into(),
        status_message: "Approved".into(),
        currency: currency.into(),
        amount: amount.into(),
        trans_date: "21/03/2025 10:15:00".into(),
        billing_name: "Ximena Quilla Oyelaran".into(),
        billing_email: "ximena.oyelaran@example.net".into(),
    }
}

/// POSTs `encResp` (and `orderNo`) to the handler as the gateway does.
pub async fn send_answer(app: &TestApp, enc_resp: &str, order_no: &str) -> Reply {
    post_form(app, "/api/ccavenue-handle", &[("encResp", enc_resp), ("orderNo", order_no)]).await
}

/// The `Location` header of a redirect.
pub fn location(reply: &Reply) -> String {
    reply.header("location").unwrap_or_else(|| panic!("a Location header; status {}", reply.status)).to_string()
}

/// A stored order's status.
pub async fn status_of(app: &TestApp, order_id: &str) -> String {
    let (status,): (String,) = sqlx::query_as("SELECT status FROM orders WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(&app.pool)
        .await
        .expect("order");
    status
}

/// Queued mails: (to, subject, text body, html body, dedupe key).
pub async fn outbox(app: &TestApp) -> Vec<(String, String, String, String, Option<String>)> {
    sqlx::query_as("SELECT to_address, subject, text_body, html_body, dedupe_key FROM outbox ORDER BY id")
        .fetch_all(&app.pool)
        .await
        .expect("outbox")
}
