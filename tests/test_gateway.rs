//! The built-in TEST gateway at /test-gateway (DESIGN.md section 6): on without credentials,
//! 404 with them; it reads the encrypted request, shows the order and answers with real
//! encrypted Approve / Decline / Cancel forms, so the whole flow runs without CCAvenue.

use axum::http::StatusCode;
use serde_json::json;

use conference::ccavenue::crypto;
use conference::payments::config::TEST_WORKING_KEY;

use crate::common::fixture::{LISTENER_VIRTUAL, PRESENTER_PHYSICAL};
use crate::common::html::{self, by_id, first, parse, select, text};
use crate::common::payments::{
    answer, app, app_with, checkout, initiate, live, location, outbox, post_form, send_answer, status_of,
};
use crate::common::{BASE, Reply, TestApp};

/// One of the page's three answer forms.
#[derive(Debug)]
struct AnswerForm {
    label: String,
    action: String,
    method: String,
    /// Hidden inputs, in order.
    fields: Vec<(String, String)>,
}

/// The forms of a test gateway page with their button's text.
fn answer_forms(page: &str) -> Vec<AnswerForm> {
    let page = parse(page);
    let main = by_id(&page, "main").expect("<main>");
    select(main, "form")
        .iter()
        .map(|form| {
            let fields = select(*form, "input[type=hidden]")
                .iter()
                .map(|i| (i.attr("name").unwrap_or("").to_string(), i.attr("value").unwrap_or("").to_string()))
                .collect();
            let button = first(*form, "button").expect("a submit button");
            assert_eq!(button.attr("type"), Some("submit"));
            AnswerForm {
                label: text(button),
                action: form.attr("action").unwrap_or("").to_string(),
                method: form.attr("method").unwrap_or("").to_string(),
                fields,
            }
        })
        .collect()
}

/// POSTs the browser's hand-off to the gateway URL's path, as the island's form does.
async fn open_gateway(app: &TestApp, gateway_url: &str, enc_request: &str, access_code: &str) -> Reply {
    let path = gateway_url.strip_prefix(BASE).expect("the test gateway is on this site");
    post_form(app, path, &[("encRequest", enc_request), ("access_code", access_code)]).await
}

/// Submits one answer form as a browser would: its action's path, its hidden fields.
async fn submit(app: &TestApp, form: &AnswerForm) -> Reply {
    let path = form.action.strip_prefix(BASE).expect("answers go back to this site");
    let pairs: Vec<(&str, &str)> = form.fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    post_form(app, path, &pairs).await
}

#[tokio::test]
async fn the_whole_flow_approve_lands_on_success_with_a_receipt() {
    let app = app().await;
    // 1. The registration form asks for an order.
    let started = initiate(&app, &checkout(json!({"plan": "presenter-physical"}))).await;

    // 2. The browser posts the hand-off to the gateway URL.
    let reply = open_gateway(&app, &started.gateway_url, &started.enc_request, &started.access_code).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let page = reply.text();
    let document = parse(&page);
    let main = text(by_id(&document, "main").unwrap());
    assert!(main.contains("Test gateway — no real payment"), "{main}");
    for shown in
        [started.order_id.as_str(), PRESENTER_PHYSICAL.id, PRESENTER_PHYSICAL.amount, "USD", "Ximena Quilla Oyelaran"]
    {
        assert!(main.contains(shown), "the test gateway shows {shown}: {main}");
    }
    assert!(html::meta(&document, "robots").is_some_and(|r| r.contains("noindex")));

    // 3. Three plain forms, Approve, Decline, Cancel, each posting a real encrypted answer.
    let forms = answer_forms(&page);
    let labels: Vec<&str> = forms.iter().map(|f| f.label.as_str()).collect();
    assert_eq!(labels, ["Approve", "Decline", "Cancel"]);
    for form in &forms {
        assert_eq!(form.method, "post");
        assert_eq!(form.action, format!("{BASE}/api/ccavenue-handle"));
        let names: Vec<&str> = form.fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["encResp", "orderNo"], "{}", form.label);
        assert_eq!(form.fields[1].1, started.order_id);
        let plain = crypto::decrypt(&form.fields[0].1, TEST_WORKING_KEY).expect("a real encrypted answer");
        let answer = conference::ccavenue::protocol::PaymentResponse::parse(&plain).expect("a parsable answer");
        assert_eq!(
            (answer.order_id.as_str(), answer.amount.as_str(), answer.currency.as_str()),
            (started.order_id.as_str(), PRESENTER_PHYSICAL.amount, "USD")
        );
        let expected = match form.label.as_str() {
            "Approve" => "Success",
            "Decline" => "Failure",
            _ => "Aborted",
        };
        assert_eq!(answer.order_status, expected);
        assert!(!answer.tracking_id.is_empty() && !answer.payment_mode.is_empty());
    }

    // 4. Approve: the handler pays the order and sends the browser to /Success.
    let reply = submit(&app, &forms[0]).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    let to = location(&reply);
    assert_eq!(to, format!("/Success?order={}", started.order_id));
    let success = parse(&app.page(&to).await);
    let main = text(by_id(&success, "main").unwrap());
    assert!(
        main.contains("success")
            && main.contains(PRESENTER_PHYSICAL.title)
            && main.contains(&format!("USD {}", PRESENTER_PHYSICAL.amount))
            && main.contains("Ximena"),
        "{main}"
    );
    assert_eq!(status_of(&app, &started.order_id).await, "success");
    let mails = outbox(&app).await;
    let receipt_key = format!("receipt:{}", started.order_id);
    let receipt = mails.iter().find(|m| m.4.as_deref() == Some(receipt_key.as_str())).expect("a receipt in the outbox");
    assert_eq!(receipt.0, "ximena.oyelaran@example.net");

    // Pressing Back and Approve again (or Decline) changes nothing.
    for form in &forms {
        let reply = submit(&app, form).await;
        assert_eq!(location(&reply), to);
    }
    assert_eq!(app.count("outbox").await, 2);
}

#[tokio::test]
async fn decline_and_cancel_land_on_failed() {
    let app = app().await;
    for (label, status) in [("Decline", "failure"), ("Cancel", "aborted")] {
        let started = initiate(&app, &checkout(json!({"customAmount": "40"}))).await;
        let page = open_gateway(&app, &started.gateway_url, &started.enc_request, &started.access_code).await.text();
        assert!(text(by_id(&parse(&page), "main").unwrap()).contains("42.40"), "custom amount plus tax");
        let forms = answer_forms(&page);
        let form = forms.iter().find(|f| f.label == label).expect(label);
        let reply = submit(&app, form).await;
        let to = location(&reply);
        assert_eq!(to, format!("/Failed?order={}", started.order_id), "{label}");
        let failed = parse(&app.page(&to).await);
        assert!(text(by_id(&failed, "main").unwrap()).contains(status), "{label}");
        assert_eq!(status_of(&app, &started.order_id).await, status);
    }
    assert_eq!(app.count("outbox").await, 0);
}

#[tokio::test]
async fn the_gateway_page_works_without_javascript() {
    let app = app().await;
    let started = initiate(&app, &checkout(json!({"plan": "listener-virtual"}))).await;
    let page =
        parse(&open_gateway(&app, &started.gateway_url, &started.enc_request, &started.access_code).await.text());
    let main = by_id(&page, "main").unwrap();
    assert!(select(main, "script").is_empty(), "no script in the gateway's content");
    for element in select(&page, "*") {
        assert!(
            !element.value().attrs().any(|(n, _)| n.starts_with("on") && n.len() > 2),
            "no inline handler on <{}>",
            element.value().name()
        );
    }
    assert!(first(&page, ".test-gateway__banner").is_some());
}

#[tokio::test]
async fn get_explains_that_the_gateway_expects_a_post() {
    let app = app().await;
    let page = app.page("/test-gateway").await;
    let document = parse(&page);
    let main = text(by_id(&document, "main").unwrap());
    assert!(main.contains("Test gateway — no real payment") && main.contains("POST"), "{main}");
    assert!(answer_forms(&page).is_empty());
    assert!(html::meta(&document, "robots").is_some_and(|r| r.contains("noindex")));
}

#[tokio::test]
async fn requests_the_test_gateway_cannot_use_are_400() {
    let app = app().await;
    let started = initiate(&app, &checkout(json!({"plan": "listener-virtual"}))).await;
    let foreign = crypto::encrypt(
        "merchant_id=TEST&order_id=ORD1&currency=USD&amount=1.00&redirect_url=https%3A%2F%2Fevil.example%2F&cancel_url=https%3A%2F%2Fevil.example%2F&language=EN",
        TEST_WORKING_KEY,
    );
    let other_merchant = crypto::encrypt(
        "merchant_id=4242&order_id=ORD1&currency=USD&amount=1.00&redirect_url=http%3A%2F%2F127.0.0.1%3A3000%2Fapi%2Fccavenue-handle&cancel_url=http%3A%2F%2F127.0.0.1%3A3000%2Fapi%2Fccavenue-handle&language=EN",
        TEST_WORKING_KEY,
    );
    let cases: Vec<(&str, Vec<(&str, &str)>)> = vec![
        ("no encRequest", vec![("access_code", "TEST")]),
        ("wrong access code", vec![("encRequest", &started.enc_request), ("access_code", "AVLIVE42")]),
        ("no access code", vec![("encRequest", &started.enc_request)]),
        ("not hex", vec![("encRequest", "not-a-cipher"), ("access_code", "TEST")]),
        ("another key", vec![("encRequest", "ff55e3f5402cca0d34abb118bba57f55"), ("access_code", "TEST")]),
        ("answers to another site", vec![("encRequest", &foreign), ("access_code", "TEST")]),
        ("another merchant", vec![("encRequest", &other_merchant), ("access_code", "TEST")]),
    ];
    for (what, pairs) in cases {
        let reply = post_form(&app, "/test-gateway", &pairs).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{what}");
        let main = by_id(&parse(&reply.text()), "main").map(text).unwrap_or_default();
        assert!(main.contains("Test gateway"), "{what}: the page says what is wrong: {main}");
    }
    assert_eq!(status_of(&app, &started.order_id).await, "initiated");
}

#[tokio::test]
async fn with_credentials_there_is_no_test_gateway() {
    let app = app_with(live).await;
    let (status, _, page) = app.get("/test-gateway").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(text(&parse(&page)).contains("Oops! Page Not Found"));
    let started = initiate(&app, &checkout(json!({"plan": "listener-virtual"}))).await;
    let reply = post_form(
        &app,
        "/test-gateway",
        &[("encRequest", &started.enc_request), ("access_code", &started.access_code)],
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);

    // And answers made with the public test key are worthless there.
    let answer = answer(&started.order_id, "Success", LISTENER_VIRTUAL.amount, "USD");
    let reply =
        send_answer(&app, &crypto::encrypt(&answer.to_query_string(), TEST_WORKING_KEY), &started.order_id).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(status_of(&app, &started.order_id).await, "initiated");
}
