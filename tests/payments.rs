//! Payments (DESIGN.md sections 5 and 6): POST /api/ccavenue-initiate, POST
//! /api/ccavenue-handle, the order status confirmation, receipts, /Success and /Failed, the
//! registrations export. The built-in test gateway's page is in `test_gateway.rs`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};

use conference::ccavenue::crypto;
use conference::ccavenue::protocol::PaymentResponse;
use conference::payments::config::TEST_WORKING_KEY;

use crate::common::fixture::{self, PRESENTER_VIRTUAL};
use crate::common::html::{self, by_id, links, parse, text};
use crate::common::payments::{
    LIVE_ACCESS, LIVE_KEY, LIVE_MERCHANT, answer, app, app_with, checkout, initiate, live, location, outbox, post,
    post_form, post_json, request_fields, send_answer, status_of,
};
use crate::common::{BASE, Reply, TestApp};

fn json_of(reply: &Reply) -> Value {
    serde_json::from_slice(&reply.body).unwrap_or_else(|e| panic!("JSON answer ({e}): {}", reply.text()))
}

// ---------------------------------------------------------------------------------------
// POST /api/ccavenue-initiate
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn initiate_creates_the_order_and_encrypts_the_request_with_ccavenues_field_names() {
    let app = app().await;
    let started = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await;
    assert_eq!(started.access_code, "TEST");
    assert_eq!(started.gateway_url, format!("{BASE}/test-gateway"));
    // `ORD`, 13 digits of milliseconds, 6 uppercase alphanumerics (spec section 9), within
    // CCAvenue's 30 alphanumerics.
    let id = started.order_id.as_str();
    assert_eq!(id.len(), 22, "{id}");
    assert!(id.starts_with("ORD"), "{id}");
    assert!(id[3..16].bytes().all(|b| b.is_ascii_digit()), "{id}");
    assert!(id[16..].bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()), "{id}");
    assert!(started.enc_request.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));

    let fields = request_fields(&started.enc_request, TEST_WORKING_KEY);
    let expected: BTreeMap<&str, &str> = [
        ("merchant_id", "TEST"),
        ("order_id", started.order_id.as_str()),
        ("currency", "USD"),
        ("amount", PRESENTER_VIRTUAL.amount),
        ("redirect_url", "http://127.0.0.1:3000/api/ccavenue-handle"),
        ("cancel_url", "http://127.0.0.1:3000/api/ccavenue-handle"),
        ("language", "EN"),
        ("billing_name", "Ximena Quilla Oyelaran"),
        ("billing_email", "ximena.oyelaran@example.net"),
        ("billing_tel", "+63 2 8765 4390"),
        ("billing_address", "77 Orchard Lane"),
        ("billing_city", "Manila"),
        ("billing_state", "Metro Manila"),
        ("billing_zip", "1000"),
        ("billing_country", "Philippines"),
        ("merchant_param1", "presenter-virtual"),
        ("merchant_param2", "plan"),
    ]
    .into_iter()
    .collect();
    let got: BTreeMap<&str, &str> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(got, expected);

    let (kind, item, title, cents, currency, status, name, email): (String, String, String, i64, String, String, String, String) =
        sqlx::query_as(
            "SELECT kind, item_id, item_title, amount_cents, currency, status, billing_name, billing_email FROM orders WHERE order_id = $1",
        )
        .bind(&started.order_id)
        .fetch_one(&app.pool)
        .await
        .expect("the order is stored");
    assert_eq!(
        (kind.as_str(), item.as_str(), title.as_str(), cents, currency.as_str(), status.as_str()),
        ("plan", "presenter-virtual", PRESENTER_VIRTUAL.title, PRESENTER_VIRTUAL.cents, "USD", "initiated")
    );
    assert_eq!((name.as_str(), email.as_str()), ("Ximena Quilla Oyelaran", "ximena.oyelaran@example.net"));
    assert!(outbox(&app).await.is_empty(), "nothing is mailed before the payment");
}

#[tokio::test]
async fn every_order_gets_its_own_id() {
    let app = app().await;
    let a = initiate(&app, &checkout(json!({"plan": "listener-virtual"}))).await;
    let b = initiate(&app, &checkout(json!({"plan": "listener-virtual"}))).await;
    assert_ne!(a.order_id, b.order_id);
    assert_eq!(app.count("orders").await, 2);
}

#[tokio::test]
async fn every_plan_and_package_is_charged_its_stored_price() {
    let app = app().await;
    let plans = fixture::PLANS.iter().map(|p| (json!({"plan": p.id}), p.amount, p.cents));
    let packages = fixture::PACKAGES.iter().map(|p| (json!({"sponsorPackage": p.id}), p.amount, p.cents));
    let cases: Vec<_> = plans.chain(packages).collect();
    assert_eq!(cases.len(), 6, "every plan and package of the fixture");
    for (target, amount, cents) in cases {
        let id = target.as_object().unwrap().values().next().unwrap().as_str().unwrap().to_string();
        let started = initiate(&app, &checkout(target)).await;
        let fields = request_fields(&started.enc_request, TEST_WORKING_KEY);
        assert_eq!(fields["amount"], amount, "{id}");
        assert_eq!(fields["currency"], "USD", "{id}");
        assert_eq!(fields["merchant_param1"], id);
        let (stored,): (i64,) = sqlx::query_as("SELECT amount_cents FROM orders WHERE order_id = $1")
            .bind(&started.order_id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
        assert_eq!(stored, cents, "{id}");
    }
}

#[tokio::test]
async fn a_changed_price_in_the_database_is_what_is_charged() {
    let app = app().await;
    app.exec("UPDATE ticket_plans SET price_cents = 25000 WHERE id = 'presenter-virtual'").await;
    let started = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await;
    assert_eq!(request_fields(&started.enc_request, TEST_WORKING_KEY)["amount"], "250.00");
}

#[tokio::test]
async fn custom_amounts_carry_six_percent_tax_rounded_half_up_once() {
    let app = app().await;
    let cases = [
        (json!(100), "106.00"),
        (json!("100"), "106.00"),
        (json!("0.25"), "0.27"),
        (json!(0.25), "0.27"),
        (json!(33.335), "35.34"),
        (json!("33.335"), "35.34"),
        (json!(" 12.5 "), "13.25"),
        (json!("0.01"), "0.01"),
    ];
    for (amount, total) in cases {
        let started = initiate(&app, &checkout(json!({ "customAmount": amount }))).await;
        let fields = request_fields(&started.enc_request, TEST_WORKING_KEY);
        assert_eq!(fields["amount"], total, "customAmount {amount}");
        assert_eq!(fields["currency"], "USD");
        assert_eq!(fields["merchant_param1"], "custom-payment");
        assert_eq!(fields["merchant_param2"], "custom");
        // The amount as entered travels along for the organisers.
        assert_eq!(
            fields["merchant_param3"],
            amount.as_str().map_or_else(|| amount.to_string(), |s| s.trim().to_string())
        );
    }
}

#[tokio::test]
async fn an_amount_or_currency_sent_by_the_browser_is_ignored() {
    let app = app().await;
    for target in [
        json!({"plan": "presenter-physical", "amount": "0.01", "currency": "INR"}),
        json!({"plan": "presenter-physical", "amount": 1, "currency": "EUR", "order_id": "ORD1", "merchant_id": "X"}),
    ] {
        let started = initiate(&app, &checkout(target)).await;
        let fields = request_fields(&started.enc_request, TEST_WORKING_KEY);
        assert_eq!(
            (fields["amount"].as_str(), fields["currency"].as_str()),
            (fixture::PRESENTER_PHYSICAL.amount, "USD")
        );
        assert_eq!(fields["merchant_id"], "TEST");
        assert_eq!(fields["order_id"], started.order_id);
    }
    let started = initiate(&app, &checkout(json!({"customAmount": "50", "amount": "0.01", "currency": "INR"}))).await;
    let fields = request_fields(&started.enc_request, TEST_WORKING_KEY);
    assert_eq!((fields["amount"].as_str(), fields["currency"].as_str()), ("53.00", "USD"));
}

#[tokio::test]
async fn a_sponsor_order_needs_only_a_name_and_an_email() {
    let app = app().await;
    let started =
        initiate(&app, &json!({"sponsorPackage": "gold", "name": "Acme Renewables", "email": "finance@acme.example"}))
            .await;
    let fields = request_fields(&started.enc_request, TEST_WORKING_KEY);
    assert_eq!(fields["billing_name"], "Acme Renewables");
    assert_eq!(fields["billing_email"], "finance@acme.example");
    assert_eq!(fields["amount"], fixture::GOLD.amount);
    for absent in ["billing_tel", "billing_address", "billing_city", "billing_state", "billing_zip", "billing_country"]
    {
        assert!(!fields.contains_key(absent), "{absent} is left out when not given: {fields:?}");
    }
    // Null and empty optional fields are the same as absent.
    initiate(
        &app,
        &json!({"sponsorPackage": "platinum", "name": "Acme", "email": "a@acme.example", "phone": null, "zip": ""}),
    )
    .await;
}

#[tokio::test]
async fn values_are_url_encoded_so_no_field_can_be_injected() {
    let app = app().await;
    let mut body = checkout(json!({"plan": "listener-virtual"}));
    body["name"] = json!("Eve&amount=0.01&order_id=ORD1 Zoë");
    body["address"] = json!("Flat 3=4 & 5%");
    let started = initiate(&app, &body).await;
    let fields = request_fields(&started.enc_request, TEST_WORKING_KEY);
    assert_eq!(fields["amount"], fixture::LISTENER_VIRTUAL.amount);
    assert_eq!(fields["order_id"], started.order_id);
    assert_eq!(fields["billing_name"], "Eve&amount=0.01&order_id=ORD1 Zoë");
    assert_eq!(fields["billing_address"], "Flat 3=4 & 5%");
}

/// Sends `body` and expects 422 with `reason` under `key`; no order is stored.
async fn expect_422(app: &TestApp, body: &Value, key: &str, reason: &str) -> Value {
    let before = app.count("orders").await;
    let reply = post_json(app, "/api/ccavenue-initiate", body).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {}", reply.text());
    let json = json_of(&reply);
    assert!(json["message"].as_str().is_some_and(|m| !m.is_empty()), "a message: {json}");
    let got = json["errors"][key].as_str().unwrap_or_else(|| panic!("errors.{key} for {body}: {json}"));
    assert!(got.contains(reason), "errors.{key} for {body}: {got:?} should say {reason:?}");
    assert_eq!(app.count("orders").await, before, "no order for a refused checkout {body}");
    json
}

#[tokio::test]
async fn every_bad_checkout_is_refused_with_its_field() {
    let app = app().await;
    let with = |target: Value, field: &str, value: Value| {
        let mut body = checkout(target);
        body[field] = value;
        body
    };
    let without = |target: Value, field: &str| {
        let mut body = checkout(target);
        body.as_object_mut().unwrap().remove(field);
        body
    };
    let plan = || json!({"plan": "presenter-virtual"});
    let cases: Vec<(Value, &str, &str)> = vec![
        // Registration: name, email, phone, ZIP Code and country required (spec section 5).
        (without(plan(), "name"), "name", "Please enter your name"),
        (with(plan(), "name", json!("   ")), "name", "Please enter your name"),
        (without(plan(), "email"), "email", "Please enter your email address"),
        (with(plan(), "email", json!("maria.example.org")), "email", "Please enter a valid email address"),
        (with(plan(), "email", json!("maria@example")), "email", "Please enter a valid email address"),
        (with(plan(), "email", json!("a b@example.org")), "email", "Please enter a valid email address"),
        (without(plan(), "phone"), "phone", "Please enter your phone number"),
        (with(plan(), "phone", json!("call me")), "phone", "Please enter a valid phone number"),
        (without(plan(), "zip"), "zip", "Please enter your ZIP code"),
        (with(plan(), "zip", json!(null)), "zip", "Please enter your ZIP code"),
        (without(plan(), "country"), "country", "Please enter your country"),
        // Length bounds (CCAvenue's field limits).
        (with(plan(), "name", json!("N".repeat(61))), "name", "at most 60 characters"),
        (with(plan(), "email", json!(format!("{}@example.org", "e".repeat(60)))), "email", "at most 70 characters"),
        (with(plan(), "phone", json!("1".repeat(21))), "phone", "at most 20 characters"),
        (with(plan(), "address", json!("A".repeat(151))), "address", "at most 150 characters"),
        (with(plan(), "city", json!("C".repeat(31))), "city", "at most 30 characters"),
        (with(plan(), "state", json!("S".repeat(31))), "state", "at most 30 characters"),
        (with(plan(), "zip", json!("9".repeat(16))), "zip", "at most 15 characters"),
        (with(plan(), "country", json!("K".repeat(51))), "country", "at most 50 characters"),
        // Types and control characters.
        (with(plan(), "name", json!(42)), "name", "Must be text"),
        (with(plan(), "city", json!(["Manila"])), "city", "Must be text"),
        (with(plan(), "name", json!("Ximena\r\nBcc: x@example.org")), "name", "single line"),
        // What is bought.
        (with(plan(), "plan", json!("vip")), "plan", "Unknown ticket plan"),
        (with(plan(), "plan", json!("Presenter-Virtual")), "plan", "Unknown ticket plan"),
        (with(plan(), "plan", json!(1)), "plan", "Unknown ticket plan"),
        (checkout(json!({"sponsorPackage": "bronze"})), "sponsorPackage", "Unknown sponsor package"),
        (checkout(json!({"sponsorPackage": true})), "sponsorPackage", "Unknown sponsor package"),
        (checkout(json!({})), "plan", "exactly one"),
        (checkout(json!({"plan": null})), "plan", "exactly one"),
        (checkout(json!({"plan": "presenter-virtual", "customAmount": "10"})), "customAmount", "exactly one"),
        (checkout(json!({"plan": "presenter-virtual", "sponsorPackage": "gold"})), "sponsorPackage", "exactly one"),
        // Sponsor orders: name and email required.
        (json!({"sponsorPackage": "gold", "email": "a@acme.example"}), "name", "Please enter your name"),
        (json!({"sponsorPackage": "gold", "name": "Acme"}), "email", "Please enter your email address"),
        (
            json!({"sponsorPackage": "gold", "name": "Acme", "email": "nope"}),
            "email",
            "Please enter a valid email address",
        ),
        (
            json!({"sponsorPackage": "gold", "name": "Acme", "email": "a@acme.example", "phone": "x"}),
            "phone",
            "valid phone",
        ),
    ];
    for (body, key, reason) in &cases {
        expect_422(&app, body, key, reason).await;
    }

    // Everything wrong at once is reported at once.
    let json =
        expect_422(&app, &json!({"plan": "presenter-virtual", "email": "x"}), "name", "Please enter your name").await;
    let keys: Vec<&String> = json["errors"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["country", "email", "name", "phone", "zip"]);
}

#[tokio::test]
async fn an_invalid_custom_amount_gets_the_specs_message() {
    let app = app().await;
    for amount in [
        json!(""),
        json!("  "),
        json!("abc"),
        json!("12abc"),
        json!("-5"),
        json!(-5),
        json!(0),
        json!("0.00"),
        json!("0.004"),
        json!("1e3"),
        json!("NaN"),
        json!("1,000"),
        json!("1000000.01"),
        json!(true),
        json!({"value": 10}),
        json!("9".repeat(100)),
    ] {
        let json = expect_422(
            &app,
            &checkout(json!({ "customAmount": amount })),
            "customAmount",
            "Please enter a valid amount",
        )
        .await;
        assert_eq!(json["message"], "Please enter a valid amount", "customAmount {amount}");
    }
}

#[tokio::test]
async fn a_body_that_is_not_a_json_object_is_refused() {
    let app = app().await;
    let reply = post(&app, "/api/ccavenue-initiate", "application/json", "{not json").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert!(json_of(&reply)["message"].as_str().unwrap().contains("JSON"));
    let reply = post(&app, "/api/ccavenue-initiate", "application/json", "[1,2]").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let reply =
        post(&app, "/api/ccavenue-initiate", "text/plain", checkout(json!({"plan": "presenter-virtual"})).to_string())
            .await;
    assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(json_of(&reply)["message"].as_str().unwrap().contains("JSON"));
    let mut big = checkout(json!({"plan": "presenter-virtual"}));
    big["padding"] = json!("x".repeat(20 * 1024));
    let reply = post_json(&app, "/api/ccavenue-initiate", &big).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(json_of(&reply)["message"].is_string());
    assert_eq!(app.count("orders").await, 0);
}

#[tokio::test]
async fn with_credentials_the_request_goes_to_ccavenue_with_the_live_key() {
    let app = app_with(live).await;
    let started = initiate(&app, &checkout(json!({"plan": "listener-physical"}))).await;
    assert_eq!(started.access_code, LIVE_ACCESS);
    assert_eq!(
        started.gateway_url,
        "https://secure.ccavenue.com/transaction/transaction.do?command=initiateTransaction"
    );
    let fields = request_fields(&started.enc_request, LIVE_KEY);
    assert_eq!(fields["merchant_id"], LIVE_MERCHANT);
    assert_eq!(fields["amount"], fixture::LISTENER_PHYSICAL.amount);
    assert!(crypto::decrypt(&started.enc_request, TEST_WORKING_KEY).is_err(), "not readable with the test key");

    let app = app_with(|c| {
        live(c);
        c.ccavenue_gateway_url =
            Some("https://test.ccavenue.com/transaction/transaction.do?command=initiateTransaction".into());
    })
    .await;
    let started = initiate(&app, &checkout(json!({"plan": "listener-physical"}))).await;
    assert_eq!(started.gateway_url, "https://test.ccavenue.com/transaction/transaction.do?command=initiateTransaction");
}

#[tokio::test]
async fn the_csp_lets_forms_post_to_the_gateway() {
    let csp = |reply: &Reply| reply.header("content-security-policy").unwrap_or("").to_string();
    let live_app = app_with(live).await;
    let reply = live_app.request("/pricing", &[]).await;
    assert!(csp(&reply).contains("form-action 'self' https://secure.ccavenue.com;"), "{}", csp(&reply));
    let test_app = app().await;
    let reply = test_app.request("/pricing", &[]).await;
    assert!(csp(&reply).contains("form-action 'self' http://127.0.0.1:3000;"), "{}", csp(&reply));
}

// ---------------------------------------------------------------------------------------
// POST /api/ccavenue-handle
// ---------------------------------------------------------------------------------------

/// An order for [`PRESENTER_VIRTUAL`] in `app`.
async fn new_order(app: &TestApp) -> String {
    initiate(app, &checkout(json!({"plan": "presenter-virtual"}))).await.order_id
}

fn encrypt(answer: &PaymentResponse) -> String {
    crypto::encrypt(&answer.to_query_string(), TEST_WORKING_KEY)
}

#[tokio::test]
async fn a_success_answer_pays_the_order_and_queues_one_receipt_and_one_notice() {
    let app = app().await;
    let id = new_order(&app).await;
    let reply = send_answer(&app, &encrypt(&answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD")), &id).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(location(&reply), format!("/Success?order={id}"));

    let row: (String, String, String, String, String, String, String, Option<String>) = sqlx::query_as(
        "SELECT status, gateway_status, tracking_id, bank_ref_no, payment_mode, card_name, trans_date, decided_at FROM orders WHERE order_id = $1",
    )
    .bind(&id)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    assert_eq!(
        (
            row.0.as_str(),
            row.1.as_str(),
            row.2.as_str(),
            row.3.as_str(),
            row.4.as_str(),
            row.5.as_str(),
            row.6.as_str()
        ),
        ("success", "Success", "310009876543", "BRN123456", "Credit Card", "Visa", "21/03/2025 10:15:00")
    );
    assert!(row.7.is_some(), "the decision time is stored");

    let mails = outbox(&app).await;
    assert_eq!(mails.len(), 2, "{mails:#?}");
    let receipt = mails.iter().find(|m| m.4.as_deref() == Some(&format!("receipt:{id}"))).expect("the receipt");
    assert_eq!(receipt.0, "ximena.oyelaran@example.net");
    assert!(receipt.1.contains(&id), "subject names the order: {}", receipt.1);
    for body in [&receipt.2, &receipt.3] {
        for shown in [id.as_str(), PRESENTER_VIRTUAL.title, PRESENTER_VIRTUAL.amount, "USD", "310009876543"] {
            assert!(body.contains(shown), "the receipt shows {shown}:\n{body}");
        }
        let year = time::OffsetDateTime::now_utc().year().to_string();
        assert!(body.contains(&year), "the receipt is dated:\n{body}");
    }
    let notice =
        mails.iter().find(|m| m.4.as_deref() == Some(&format!("receipt-notice:{id}"))).expect("the organisers' notice");
    let site = conference::repo::content::site(&app.pool).await.unwrap();
    assert_eq!(
        notice.0, site.contact_email,
        "organisers get the notice (ORGANISER_EMAIL defaults to the contact email)"
    );
    for shown in [
        id.as_str(),
        PRESENTER_VIRTUAL.title,
        PRESENTER_VIRTUAL.amount,
        "Ximena Quilla Oyelaran",
        "ximena.oyelaran@example.net",
        "BRN123456",
    ] {
        assert!(notice.2.contains(shown), "the notice shows {shown}:\n{}", notice.2);
    }
}

#[tokio::test]
async fn the_amount_is_compared_as_cents() {
    let app = app().await;
    let id = new_order(&app).await;
    let whole = (PRESENTER_VIRTUAL.cents / 100).to_string();
    assert_eq!(PRESENTER_VIRTUAL.cents % 100, 0, "a whole-dollar price");
    let reply = send_answer(&app, &encrypt(&answer(&id, "Success", &whole, "USD")), "").await;
    assert_eq!(location(&reply), format!("/Success?order={id}"), "{whole} is {}", PRESENTER_VIRTUAL.amount);
    assert_eq!(status_of(&app, &id).await, "success");
}

#[tokio::test]
async fn a_repeated_answer_changes_nothing_and_sends_no_second_receipt() {
    let app = app().await;
    let id = new_order(&app).await;
    let enc = encrypt(&answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD"));
    for _ in 0..3 {
        let reply = send_answer(&app, &enc, &id).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER);
        assert_eq!(location(&reply), format!("/Success?order={id}"));
    }
    assert_eq!(status_of(&app, &id).await, "success");
    assert_eq!(app.count("outbox").await, 2, "one receipt and one notice, however often the gateway repeats itself");

    // A later, different answer for the decided order is ignored too.
    let mut declined = answer(&id, "Failure", PRESENTER_VIRTUAL.amount, "USD");
    declined.tracking_id = "999".into();
    let reply = send_answer(&app, &encrypt(&declined), &id).await;
    assert_eq!(location(&reply), format!("/Success?order={id}"));
    assert_eq!(status_of(&app, &id).await, "success");
    let (tracking,): (String,) = sqlx::query_as("SELECT tracking_id FROM orders WHERE order_id = $1")
        .bind(&id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(tracking, "310009876543", "the first decision's fields stay");
    assert_eq!(app.count("outbox").await, 2);
}

#[tokio::test]
async fn failure_aborted_invalid_and_other_statuses_are_recorded_without_mail() {
    let app = app().await;
    for (gateway, stored) in [
        ("Failure", "failure"),
        ("Aborted", "aborted"),
        ("Invalid", "invalid"),
        ("Timeout", "failure"),
        ("success", "failure"),
    ] {
        let id = new_order(&app).await;
        let mut a = answer(&id, gateway, PRESENTER_VIRTUAL.amount, "USD");
        a.failure_message = "Card declined by bank".into();
        let reply = send_answer(&app, &encrypt(&a), &id).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{gateway}");
        assert_eq!(location(&reply), format!("/Failed?order={id}"), "{gateway}");
        assert_eq!(status_of(&app, &id).await, stored, "{gateway}");
        let (gs, fm): (String, String) =
            sqlx::query_as("SELECT gateway_status, failure_message FROM orders WHERE order_id = $1")
                .bind(&id)
                .fetch_one(&app.pool)
                .await
                .unwrap();
        assert_eq!((gs.as_str(), fm.as_str()), (gateway, "Card declined by bank"));
        // Decided once: a Success afterwards does not turn it into a payment.
        let reply = send_answer(&app, &encrypt(&answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD")), &id).await;
        assert_eq!(location(&reply), format!("/Failed?order={id}"));
        assert_eq!(status_of(&app, &id).await, stored);
    }
    assert_eq!(app.count("outbox").await, 0);
}

/// Flips the top bit of the last padding byte of a cipher text (CBC: by changing the block
/// before it), so the padding is certainly invalid.
fn break_padding(enc: &str) -> String {
    let mut bytes = hex::decode(enc).unwrap();
    let i = bytes.len() - 17;
    bytes[i] ^= 0x80;
    hex::encode(bytes)
}

#[tokio::test]
async fn unreadable_answers_are_400_and_leave_the_order_as_it_was() {
    let app = app().await;
    let id = new_order(&app).await;
    let good = encrypt(&answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD"));
    let plain_without_amount = format!("order_id={id}&order_status=Success&currency=USD&tracking_id=1");
    let duplicate_status =
        format!("{}&order_status=Failure", answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD").to_query_string());
    let cases: Vec<(&str, Vec<(&str, String)>)> = vec![
        ("missing encResp", vec![("orderNo", id.clone())]),
        ("empty encResp", vec![("encResp", String::new()), ("orderNo", id.clone())]),
        ("not hex", vec![("encResp", "zz".repeat(64)), ("orderNo", id.clone())]),
        (
            "plain text instead of cipher",
            vec![("encResp", answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD").to_query_string())],
        ),
        ("truncated by a block", vec![("encResp", good[..good.len() - 32].to_string())]),
        ("truncated mid-block", vec![("encResp", good[..good.len() - 10].to_string())]),
        ("odd length", vec![("encResp", good[..good.len() - 1].to_string())]),
        ("tampered", vec![("encResp", break_padding(&good))]),
        (
            "another key",
            vec![(
                "encResp",
                break_padding(&crypto::encrypt(
                    &answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD").to_query_string(),
                    "other",
                )),
            )],
        ),
        ("no amount", vec![("encResp", crypto::encrypt(&plain_without_amount, TEST_WORKING_KEY))]),
        ("order_status twice", vec![("encResp", crypto::encrypt(&duplicate_status, TEST_WORKING_KEY))]),
        ("encResp twice", vec![("encResp", good.clone()), ("encResp", good.clone())]),
    ];
    for (what, pairs) in &cases {
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let reply = post_form(&app, "/api/ccavenue-handle", &pairs).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{what}: {}", reply.text());
        assert!(json_of(&reply)["message"].is_string(), "{what}");
        assert_eq!(status_of(&app, &id).await, "initiated", "{what}");
    }
    let reply = post(
        &app,
        "/api/ccavenue-handle",
        "application/x-www-form-urlencoded",
        format!("encResp={}", "a".repeat(20 * 1024)),
    )
    .await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(status_of(&app, &id).await, "initiated");
    assert_eq!(app.count("outbox").await, 0);

    // The untouched answer still works afterwards.
    let reply = send_answer(&app, &good, &id).await;
    assert_eq!(location(&reply), format!("/Success?order={id}"));
}

#[tokio::test]
async fn answers_that_do_not_match_the_order_go_to_failed_and_change_nothing() {
    let app = app().await;
    let id = new_order(&app).await;
    let other = new_order(&app).await;
    let cases = [
        ("amount too low", answer(&id, "Success", "1.00", "USD"), id.clone(), format!("/Failed?order={id}")),
        (
            "amount a cent off",
            answer(&id, "Success", &format!("{}.01", PRESENTER_VIRTUAL.cents / 100), "USD"),
            id.clone(),
            format!("/Failed?order={id}"),
        ),
        (
            "amount not a number",
            answer(&id, "Success", &format!("{} USD", PRESENTER_VIRTUAL.amount), "USD"),
            id.clone(),
            format!("/Failed?order={id}"),
        ),
        (
            "currency",
            answer(&id, "Success", PRESENTER_VIRTUAL.amount, "INR"),
            id.clone(),
            format!("/Failed?order={id}"),
        ),
        (
            "currency case",
            answer(&id, "Success", PRESENTER_VIRTUAL.amount, "usd"),
            id.clone(),
            format!("/Failed?order={id}"),
        ),
        (
            "orderNo of another order",
            answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD"),
            other.clone(),
            "/Failed".to_string(),
        ),
        (
            "unknown order",
            answer("ORD1700000000000ZZZZZZ", "Success", PRESENTER_VIRTUAL.amount, "USD"),
            String::new(),
            "/Failed".to_string(),
        ),
        (
            "malformed order id",
            answer("ORD-1'; DROP TABLE orders", "Success", PRESENTER_VIRTUAL.amount, "USD"),
            String::new(),
            "/Failed".to_string(),
        ),
    ];
    for (what, a, order_no, to) in &cases {
        let reply = send_answer(&app, &encrypt(a), order_no).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{what}: {}", reply.text());
        assert_eq!(&location(&reply), to, "{what}");
        assert_eq!(status_of(&app, &id).await, "initiated", "{what}");
        assert_eq!(status_of(&app, &other).await, "initiated", "{what}");
    }
    assert_eq!(app.count("orders").await, 2, "no order appears from an answer");
    assert_eq!(app.count("outbox").await, 0);

    // The same hostile answers against a paid order leave it paid.
    send_answer(&app, &encrypt(&answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD")), &id).await;
    for (what, a, order_no, _) in &cases {
        send_answer(&app, &encrypt(a), order_no).await;
        assert_eq!(status_of(&app, &id).await, "success", "{what}");
    }
    assert_eq!(app.count("outbox").await, 2);
}

#[tokio::test]
async fn the_handler_is_open_to_the_gateways_origin() {
    let app = app().await;
    let id = new_order(&app).await;
    let body = serde_urlencoded::to_string([
        ("encResp", encrypt(&answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD"))),
        ("orderNo", id.clone()),
    ])
    .unwrap();
    let request = Request::post("/api/ccavenue-handle")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("origin", "https://secure.ccavenue.com")
        .body(Body::from(body))
        .unwrap();
    let reply = app.send(request).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    assert_eq!(status_of(&app, &id).await, "success");
}

// ---------------------------------------------------------------------------------------
// The order status call (CCAVENUE_STATUS_URL)
// ---------------------------------------------------------------------------------------

/// A stand-in for CCAvenue's order status API on 127.0.0.1:0. It decrypts `enc_request`
/// with the live key, records the form, and answers with `reply(request JSON)`: `Ok(json)`
/// is encrypted into `status=0&enc_response=...`; `Err(status)` is an HTTP error.
struct StatusApi {
    url: String,
    seen: Seen,
}

/// What the stand-in received: each call's form and its decrypted request JSON.
type Seen = Arc<Mutex<Vec<(HashMap<String, String>, Value)>>>;

type StandInAnswer = Result<String, StatusCode>;

async fn status_api(reply: impl Fn(&Value) -> StandInAnswer + Send + Sync + 'static) -> StatusApi {
    let seen: Seen = Arc::default();
    let reply = Arc::new(reply);
    let (seen2, reply2) = (seen.clone(), reply.clone());
    let router = axum::Router::new().route(
        "/apis/servlet/DoWebTrans",
        axum::routing::post(move |axum::Form(form): axum::Form<HashMap<String, String>>| {
            let (seen, reply) = (seen2.clone(), reply2.clone());
            async move {
                let plain =
                    crypto::decrypt(form.get("enc_request").map_or("", String::as_str), LIVE_KEY).unwrap_or_default();
                let request: Value = serde_json::from_str(&plain).unwrap_or(Value::Null);
                let answer = reply(&request);
                seen.lock().unwrap().push((form, request));
                match answer {
                    Ok(json) => (StatusCode::OK, format!("status=0&enc_response={}", crypto::encrypt(&json, LIVE_KEY))),
                    Err(status) => (status, "error".to_string()),
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a local port");
    let url = format!("http://{}/apis/servlet/DoWebTrans", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.ok() });
    StatusApi { url, seen }
}

async fn live_app_with_status(url: &str) -> TestApp {
    let url = url.to_string();
    app_with(move |c| {
        live(c);
        c.ccavenue_status_url = Some(url);
    })
    .await
}

fn live_answer(order_id: &str, status: &str) -> String {
    crypto::encrypt(&answer(order_id, status, PRESENTER_VIRTUAL.amount, "USD").to_query_string(), LIVE_KEY)
}

#[tokio::test]
async fn a_success_confirmed_by_the_status_api_is_paid() {
    let api = status_api(|req| {
        Ok(json!({"order_no": req["order_no"], "reference_no": req["reference_no"], "order_status": "Shipped",
                  "order_amt": PRESENTER_VIRTUAL.cents as f64 / 100.0, "order_currncy": "USD", "status": 0})
        .to_string())
    })
    .await;
    let app = live_app_with_status(&api.url).await;
    let id = new_order(&app).await;
    let reply = send_answer(&app, &live_answer(&id, "Success"), &id).await;
    assert_eq!(location(&reply), format!("/Success?order={id}"));
    assert_eq!(status_of(&app, &id).await, "success");
    assert_eq!(app.count("outbox").await, 2);

    let seen = api.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "one status call");
    let (form, request) = &seen[0];
    assert_eq!(request, &json!({"order_no": id, "reference_no": "310009876543"}));
    for (k, v) in [
        ("access_code", LIVE_ACCESS),
        ("command", "orderStatusTracker"),
        ("request_type", "JSON"),
        ("response_type", "JSON"),
        ("version", "1.2"),
    ] {
        assert_eq!(form.get(k).map(String::as_str), Some(v), "{k}");
    }
}

#[tokio::test]
async fn a_status_api_that_disagrees_refuses_the_success() {
    let cases: [(&str, Value); 4] = [
        ("amount", json!({"order_status": "Shipped", "order_amt": 2.19, "order_currncy": "USD"})),
        (
            "currency",
            json!({"order_status": "Successful", "order_amt": PRESENTER_VIRTUAL.cents as f64 / 100.0, "order_currncy": "INR"}),
        ),
        (
            "status",
            json!({"order_status": "Unsuccessful", "order_amt": PRESENTER_VIRTUAL.cents as f64 / 100.0, "order_currncy": "USD"}),
        ),
        (
            "cancelled",
            json!({"Order_Status_Result": {"order_status": "Aborted", "order_amt": PRESENTER_VIRTUAL.amount, "order_currncy": "USD"}}),
        ),
    ];
    for (what, json) in cases {
        let api = status_api(move |_| Ok(json.to_string())).await;
        let app = live_app_with_status(&api.url).await;
        let id = new_order(&app).await;
        let reply = send_answer(&app, &live_answer(&id, "Success"), &id).await;
        assert_eq!(location(&reply), format!("/Failed?order={id}"), "{what}");
        assert_eq!(status_of(&app, &id).await, "failure", "{what}: a clear no is recorded");
        let (message,): (String,) = sqlx::query_as("SELECT failure_message FROM orders WHERE order_id = $1")
            .bind(&id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
        assert!(message.contains("order status API"), "{what}: {message}");
        assert_eq!(app.count("outbox").await, 0, "{what}: no receipt");
        assert_eq!(api.seen.lock().unwrap().len(), 1);
    }
}

#[tokio::test]
async fn without_an_answer_from_the_status_api_the_order_stays_initiated() {
    let cases: Vec<(&str, StandInAnswer)> = vec![
        ("HTTP 500", Err(StatusCode::INTERNAL_SERVER_ERROR)),
        ("undecided", Ok(json!({"order_status": "Awaited", "order_amt": PRESENTER_VIRTUAL.cents as f64 / 100.0, "order_currncy": "USD"}).to_string())),
        ("error inside", Ok(json!({"status": 1, "error_desc": "Invalid reference number"}).to_string())),
        ("not JSON", Ok("<html>".into())),
    ];
    for (what, answer_) in cases {
        let api = status_api(move |_| answer_.clone()).await;
        let app = live_app_with_status(&api.url).await;
        let id = new_order(&app).await;
        let reply = send_answer(&app, &live_answer(&id, "Success"), &id).await;
        assert_eq!(location(&reply), format!("/Failed?order={id}"), "{what}");
        assert_eq!(status_of(&app, &id).await, "initiated", "{what}");
        assert_eq!(app.count("outbox").await, 0, "{what}");
    }
    // Nothing listening at all.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/apis/servlet/DoWebTrans", closed.local_addr().unwrap());
    drop(closed);
    let app = live_app_with_status(&url).await;
    let id = new_order(&app).await;
    let reply = send_answer(&app, &live_answer(&id, "Success"), &id).await;
    assert_eq!(location(&reply), format!("/Failed?order={id}"));
    assert_eq!(status_of(&app, &id).await, "initiated");
}

#[tokio::test]
async fn the_status_api_is_asked_only_about_successes() {
    let api =
        status_api(|_| Ok(json!({"order_status": "Shipped", "order_amt": PRESENTER_VIRTUAL.cents as f64 / 100.0, "order_currncy": "USD"}).to_string()))
            .await;
    let app = live_app_with_status(&api.url).await;
    let id = new_order(&app).await;
    send_answer(&app, &live_answer(&id, "Aborted"), &id).await;
    assert_eq!(status_of(&app, &id).await, "aborted");
    assert!(api.seen.lock().unwrap().is_empty());
}

// ---------------------------------------------------------------------------------------
// /Success and /Failed
// ---------------------------------------------------------------------------------------

async fn paid_order(app: &TestApp) -> String {
    let id = new_order(app).await;
    let reply = send_answer(app, &encrypt(&answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD")), &id).await;
    assert_eq!(location(&reply), format!("/Success?order={id}"));
    id
}

/// The visible text of the page's `<main id=main>`.
fn main_text(page: &str) -> String {
    text(by_id(&parse(page), "main").expect("<main id=main>"))
}

/// The links of the page's `<main id=main>`, as (href, visible text).
fn main_links(page: &str) -> Vec<(String, String)> {
    links(by_id(&parse(page), "main").expect("<main id=main>"))
}

#[tokio::test]
async fn success_shows_the_paid_order_with_the_first_name_only() {
    let app = app().await;
    let id = paid_order(&app).await;
    let page = app.page(&format!("/Success?order={id}")).await;
    let main = main_text(&page);
    for shown in
        ["success", PRESENTER_VIRTUAL.title, &format!("USD {}", PRESENTER_VIRTUAL.amount), "Ximena", id.as_str()]
    {
        assert!(main.contains(shown), "/Success shows {shown}: {main}");
    }
    // Nowhere in the bytes sent, markup or not.
    for private in ["Oyelaran", "Quilla", "ximena.oyelaran@example.net", "4390", "Orchard", "310009876543"] {
        assert!(!page.contains(private), "/Success does not show {private}");
    }
    assert!(html::meta(&parse(&page), "robots").is_some_and(|r| r.contains("noindex")));
}

#[tokio::test]
async fn success_names_a_sponsorship_as_such() {
    let app = app().await;
    let id =
        initiate(&app, &json!({"sponsorPackage": "gold", "name": "Acme Renewables", "email": "finance@acme.example"}))
            .await
            .order_id;
    let reply = send_answer(&app, &encrypt(&answer(&id, "Success", fixture::GOLD.amount, "USD")), &id).await;
    assert_eq!(location(&reply), format!("/Success?order={id}"));
    let main = main_text(&app.page(&format!("/Success?order={id}")).await);
    for shown in [
        "success",
        "Sponsorship",
        &format!("{} Sponsorship", fixture::GOLD.title),
        &format!("USD {}", fixture::GOLD.shown),
        "Acme",
    ] {
        assert!(main.contains(shown), "/Success shows {shown}: {main}");
    }
    assert!(!main.contains("Renewables"));
    let receipt =
        outbox(&app).await.into_iter().find(|m| m.0 == "finance@acme.example").expect("the sponsor's receipt");
    assert!(
        receipt.2.contains(&format!("{} Sponsorship", fixture::GOLD.title)) && receipt.2.contains(fixture::GOLD.amount),
        "{}",
        receipt.2
    );
}

#[tokio::test]
async fn success_for_anything_but_a_paid_order_goes_to_failed() {
    let app = app().await;
    let unpaid = new_order(&app).await;
    let declined = new_order(&app).await;
    send_answer(&app, &encrypt(&answer(&declined, "Failure", PRESENTER_VIRTUAL.amount, "USD")), &declined).await;
    for (path, to) in [
        (format!("/Success?order={unpaid}"), format!("/Failed?order={unpaid}")),
        (format!("/Success?order={declined}"), format!("/Failed?order={declined}")),
        ("/Success?order=ORD1700000000000ZZZZZZ".to_string(), "/Failed?order=ORD1700000000000ZZZZZZ".to_string()),
        ("/Success".to_string(), "/Failed".to_string()),
        ("/Success?order=".to_string(), "/Failed".to_string()),
        ("/Success?order=%3Cscript%3E".to_string(), "/Failed".to_string()),
        (format!("/Success?order={}", "A".repeat(31)), "/Failed".to_string()),
    ] {
        let reply = app.request(&path, &[]).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{path}");
        assert_eq!(location(&reply), to, "{path}");
    }
}

#[tokio::test]
async fn failed_shows_the_orders_status_and_the_way_back_to_pricing() {
    let app = app().await;
    let cases = [
        ("Failure", "failure", "declined"),
        ("Aborted", "aborted", "cancelled"),
        ("Invalid", "invalid", "could not accept"),
    ];
    for (gateway, status, words) in cases {
        let id = new_order(&app).await;
        send_answer(&app, &encrypt(&answer(&id, gateway, PRESENTER_VIRTUAL.amount, "USD")), &id).await;
        let page = app.page(&format!("/Failed?order={id}")).await;
        let main = main_text(&page);
        assert!(main.contains("Failed"), "{main}");
        assert!(main.contains(status) && main.contains(words) && main.contains(&id), "{gateway}: {main}");
        assert!(main_links(&page).iter().any(|(h, _)| h == "/pricing"));
        // Nowhere in the bytes sent, markup or not.
        assert!(!page.contains("Oyelaran") && !page.contains("ximena.oyelaran@example.net"));
        assert!(html::meta(&parse(&page), "robots").is_some_and(|r| r.contains("noindex")));
    }
    let id = new_order(&app).await;
    assert!(main_text(&app.page(&format!("/Failed?order={id}")).await).contains("initiated"));

    // Without a (real) order: the plain page.
    for path in ["/Failed", "/Failed?order=ORD1700000000000ZZZZZZ", "/Failed?order=%3Cb%3E"] {
        let page = app.page(path).await;
        let main = main_text(&page);
        assert!(main.contains("Failed") && !main.contains("Status"), "{path}: {main}");
        assert!(main_links(&page).iter().any(|(h, _)| h == "/pricing"), "{path}");
    }

    // A paid order's id belongs on /Success.
    let paid = paid_order(&app).await;
    let reply = app.request(&format!("/Failed?order={paid}"), &[]).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(location(&reply), format!("/Success?order={paid}"));
}

// ---------------------------------------------------------------------------------------
// conference export registrations
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn the_registrations_export_lists_every_order() {
    let app = app().await;
    let paid = paid_order(&app).await;
    let custom = initiate(&app, &checkout(json!({"customAmount": "100"}))).await.order_id;
    let mut out = Vec::new();
    conference::export::export(&app.pool, conference::export::ExportKind::Registrations, &mut out)
        .await
        .expect("export");
    let mut reader = csv::Reader::from_reader(out.as_slice());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    let rows: Vec<HashMap<String, String>> =
        reader.records().map(|r| header.iter().cloned().zip(r.unwrap().iter().map(str::to_string)).collect()).collect();
    assert_eq!(rows.len(), 2);
    let row = |id: &str| rows.iter().find(|r| r["order_id"] == id).unwrap_or_else(|| panic!("{id} exported"));
    let p = row(&paid);
    for (k, v) in [
        ("kind", "plan"),
        ("item", "presenter-virtual"),
        ("amount", PRESENTER_VIRTUAL.amount),
        ("currency", "USD"),
        ("status", "success"),
        ("name", "Ximena Quilla Oyelaran"),
        ("email", "ximena.oyelaran@example.net"),
        ("tracking_id", "310009876543"),
        ("bank_ref_no", "BRN123456"),
    ] {
        assert_eq!(p[k], v, "{k}");
    }
    assert!(!p["created"].is_empty() && !p["decided_at"].is_empty());
    let c = row(&custom);
    assert_eq!(
        (c["kind"].as_str(), c["custom_amount"].as_str(), c["amount"].as_str(), c["status"].as_str()),
        ("custom", "100", "106.00", "initiated")
    );
    assert_eq!(c["decided_at"], "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_identical_answers_at_once_on_two_instances_decide_the_order_once_with_one_receipt() {
    use tower::ServiceExt;

    let app = app().await;
    let other = app.another_instance().await;
    let id = new_order(&app).await;
    let body = serde_urlencoded::to_string([
        ("encResp", encrypt(&answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD"))),
        ("orderNo", id.clone()),
    ])
    .unwrap();
    let mut answers = tokio::task::JoinSet::new();
    for i in 0..20 {
        // Split over both instances, as a load balancer would.
        let router = if i % 2 == 0 { app.router.clone() } else { other.router.clone() };
        let request = Request::post("/api/ccavenue-handle")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(body.clone()))
            .unwrap();
        answers.spawn(async move { router.oneshot(request).await.unwrap() });
    }
    while let Some(reply) = answers.join_next().await {
        let reply = reply.unwrap();
        assert_eq!(reply.status(), StatusCode::SEE_OTHER);
        assert_eq!(reply.headers()["location"], format!("/Success?order={id}").as_str());
    }
    assert_eq!(status_of(&app, &id).await, "success");
    let mails = outbox(&app).await;
    assert_eq!(mails.len(), 2, "one receipt and one notice: {:?}", mails.iter().map(|m| &m.1).collect::<Vec<_>>());
    let receipts = mails.iter().filter(|m| m.0.contains("ximena.oyelaran@example.net")).count();
    assert_eq!(receipts, 1, "one receipt to the payer");
    drop(other);
}
