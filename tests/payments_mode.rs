//! Payments that fail closed (issue 10; DESIGN.md sections 2 and 6): `PAYMENTS_MODE`, the
//! off mode's explanation, the order's gateway, exact amounts, the gateway answer outside the
//! rate limit, HSTS and the CSP's `form-action` per mode.

use axum::http::StatusCode;
use serde_json::{Value, json};

use conference::ccavenue::crypto;
use conference::config::ModeSetting;
use conference::payments::config::{CCAVENUE_LIVE_GATEWAY_URL, TEST_WORKING_KEY};

use crate::common::fixture::PRESENTER_VIRTUAL;
use crate::common::html::{self, first, parse};
use crate::common::payments::{
    LIVE_KEY, answer, app, app_with, checkout, initiate, live, location, outbox, post_json, send_answer, status_of,
};
use crate::common::{Reply, TestApp};

const PUBLIC: &str = "https://conf.example.org";

async fn contact_email(app: &TestApp) -> String {
    conference::repo::content::site(&app.pool).await.unwrap().contact_email
}

fn csp(reply: &Reply) -> String {
    reply.header("content-security-policy").unwrap_or("").to_string()
}

/// Asserts `app` takes no payment and says so where Register and Pay are.
async fn assert_payments_closed(app: &TestApp) {
    let email = contact_email(app).await;
    let reply = post_json(app, "/api/ccavenue-initiate", &checkout(json!({"plan": "presenter-virtual"}))).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{}", reply.text());
    let body: Value = serde_json::from_slice(&reply.body).unwrap();
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("Online payment is not open yet"), "{message}");
    assert!(message.contains(&email), "names whom to contact: {message}");
    assert_eq!(app.count("orders").await, 0, "no order is created");
    for path in ["/pricing", "/sponsorship"] {
        let page = app.page(path).await;
        assert!(page.contains("Online payment is not open yet"), "{path} explains");
        assert!(page.contains(&format!("mailto:{email}")), "{path} names whom to contact");
        // The buttons stay.
        let checkout = "[data-island=TicketCheckout], [data-island=SponsorCheckout]";
        assert!(first(&parse(&page), checkout).is_some(), "{path}");
    }
    let (status, _, _) = app.get("/test-gateway").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "no test gateway");
    let reply =
        app.post("/test-gateway", "application/x-www-form-urlencoded", "encRequest=00&access_code=TEST", &[]).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    let reply = app.request("/pricing", &[]).await;
    assert!(csp(&reply).contains("form-action 'self';"), "no gateway in form-action: {}", csp(&reply));
    // A test-gateway answer decides nothing.
    let fake = crypto::encrypt(
        &answer("ORD1740816000000ABCDEF", "Success", PRESENTER_VIRTUAL.amount, "USD").to_query_string(),
        TEST_WORKING_KEY,
    );
    let reply = send_answer(app, &fake, "ORD1740816000000ABCDEF").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_public_url_without_credentials_takes_no_payment_and_says_so() {
    let app = app_with(|c| c.public_url = PUBLIC.into()).await;
    assert_payments_closed(&app).await;
}

#[tokio::test]
async fn payments_mode_off_closes_payments_even_with_credentials_on_loopback() {
    let app = app_with(|c| {
        live(c);
        c.payments_mode = Some(ModeSetting::Off);
    })
    .await;
    assert_payments_closed(&app).await;
}

#[tokio::test]
async fn incomplete_credentials_on_loopback_close_payments_instead_of_testing() {
    let app = app_with(|c| c.ccavenue_merchant_id = Some("4242".into())).await;
    assert_payments_closed(&app).await;
}

#[tokio::test]
async fn open_payments_show_no_closed_notice() {
    for app in [app().await, app_with(live).await] {
        for path in ["/pricing", "/sponsorship"] {
            assert!(!app.page(path).await.contains("Online payment is not open yet"), "{path}");
        }
    }
}

#[tokio::test]
async fn a_loopback_url_gets_the_test_gateway_and_an_explicit_test_mode_too() {
    let app = app().await;
    let started = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await;
    assert_eq!(started.gateway_url, "http://127.0.0.1:3000/test-gateway");
    let app = app_with(|c| {
        c.public_url = PUBLIC.into();
        c.payments_mode = Some(ModeSetting::Test);
    })
    .await;
    let started = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await;
    assert_eq!(started.gateway_url, format!("{PUBLIC}/test-gateway"));
    let (status, _, body) = app.get("/test-gateway").await;
    assert_eq!(status, StatusCode::OK);
    let title = html::title(&parse(&body));
    assert!(title.contains("TEST"), "the page title says TEST: {title}");
}

#[tokio::test]
async fn live_mode_defaults_to_ccavenues_production_address() {
    let app = app_with(|c| {
        live(c);
        c.public_url = PUBLIC.into();
    })
    .await;
    let started = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await;
    assert_eq!(started.gateway_url, CCAVENUE_LIVE_GATEWAY_URL);
    assert_eq!(
        started.gateway_url,
        "https://secure.ccavenue.com/transaction/transaction.do?command=initiateTransaction"
    );
    let (status, _, _) = app.get("/test-gateway").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn each_order_records_its_mode_and_gateway() {
    let app = app().await;
    let id = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await.order_id;
    let row: (Option<String>, Option<String>) =
        sqlx::query_as("SELECT payments_mode, gateway FROM orders WHERE order_id = $1")
            .bind(&id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(row, (Some("test".into()), Some("http://127.0.0.1:3000/test-gateway".into())));

    let app = app_with(live).await;
    let id = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await.order_id;
    let row: (Option<String>, Option<String>) =
        sqlx::query_as("SELECT payments_mode, gateway FROM orders WHERE order_id = $1")
            .bind(&id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(row, (Some("live".into()), Some(CCAVENUE_LIVE_GATEWAY_URL.into())));
}

#[tokio::test]
async fn an_answer_from_another_gateway_never_decides_an_order() {
    let app = app().await;
    let test_answer = |id: &str| {
        crypto::encrypt(&answer(id, "Success", PRESENTER_VIRTUAL.amount, "USD").to_query_string(), TEST_WORKING_KEY)
    };
    // An order made while live (or before orders recorded their gateway), answered with the
    // public test key after the site was switched to test mode.
    for (mode, gateway) in [
        ("'live'", format!("'{CCAVENUE_LIVE_GATEWAY_URL}'")),
        ("'test'", "'https://elsewhere.example/test-gateway'".to_string()),
        ("NULL", "NULL".to_string()),
    ] {
        let id = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await.order_id;
        app.exec(&format!("UPDATE orders SET payments_mode = {mode}, gateway = {gateway} WHERE order_id = '{id}'"))
            .await;
        let reply = send_answer(&app, &test_answer(&id), &id).await;
        assert_eq!(location(&reply), format!("/Failed?order={id}"), "{mode} {gateway}");
        assert_eq!(status_of(&app, &id).await, "initiated", "{mode} {gateway}");
    }
    assert_eq!(app.count("outbox").await, 0, "no receipt");
}

#[tokio::test]
async fn test_receipts_say_test_and_live_ones_do_not() {
    let app = app().await;
    let id = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await.order_id;
    let enc =
        crypto::encrypt(&answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD").to_query_string(), TEST_WORKING_KEY);
    send_answer(&app, &enc, &id).await;
    let mails = outbox(&app).await;
    assert_eq!(mails.len(), 2);
    for mail in &mails {
        assert!(mail.1.starts_with("TEST ") || mail.1.contains(" TEST "), "subject says TEST: {}", mail.1);
    }

    let app = app_with(live).await;
    let id = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await.order_id;
    let enc = crypto::encrypt(&answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD").to_query_string(), LIVE_KEY);
    send_answer(&app, &enc, &id).await;
    let mails = outbox(&app).await;
    assert_eq!(mails.len(), 2);
    for mail in &mails {
        assert!(!mail.1.contains("TEST"), "a live receipt is no test: {}", mail.1);
    }
}

#[tokio::test]
async fn the_gateways_amount_must_equal_the_order_exactly() {
    let app = app().await;
    // Around the plan's price, a whole number of dollars (145 for USD 145.00).
    assert_eq!(PRESENTER_VIRTUAL.cents % 100, 0, "a whole-dollar price");
    let dollars = PRESENTER_VIRTUAL.cents / 100;
    let bad = [
        format!("{}.995", dollars - 1),
        format!("{dollars}.001"),
        format!("{dollars}.0001"),
        format!("{dollars}.01"),
        format!("{}.99", dollars - 1),
        format!("{}.{:02}e2", dollars / 100, dollars % 100),
        String::new(),
        format!("-{}", PRESENTER_VIRTUAL.amount),
    ];
    for bad in &bad {
        let id = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await.order_id;
        let enc = crypto::encrypt(&answer(&id, "Success", bad, "USD").to_query_string(), TEST_WORKING_KEY);
        let reply = send_answer(&app, &enc, &id).await;
        // Refused as unreadable (400) or as a mismatch (to /Failed): never paid.
        let to_failed = reply.header("location") == Some(format!("/Failed?order={id}").as_str());
        assert!(to_failed || reply.status == StatusCode::BAD_REQUEST, "{bad:?}: {}", reply.status);
        assert_eq!(status_of(&app, &id).await, "initiated", "{bad:?} decides nothing");
    }
    assert_eq!(app.count("outbox").await, 0);
    for good in [dollars.to_string(), format!("{dollars}.0"), PRESENTER_VIRTUAL.amount.to_string()] {
        let id = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await.order_id;
        let enc = crypto::encrypt(&answer(&id, "Success", &good, "USD").to_query_string(), TEST_WORKING_KEY);
        let reply = send_answer(&app, &enc, &id).await;
        assert_eq!(location(&reply), format!("/Success?order={id}"), "{good:?}");
        assert_eq!(status_of(&app, &id).await, "success");
    }
}

#[tokio::test]
async fn gateway_answers_are_heard_past_the_visitor_rate_limit() {
    let app = crate::common::app_with(|c| c.rate_limit_per_minute = 2).await;
    let id = initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await.order_id;
    let reply =
        app.post("/api/newsletter", "application/json", json!({"email": "a@example.org"}).to_string(), &[]).await;
    assert!(reply.status.is_success(), "{}", reply.text());
    let reply =
        app.post("/api/newsletter", "application/json", json!({"email": "b@example.org"}).to_string(), &[]).await;
    assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS, "the visitor's budget is spent");
    // Garbage first (still heard, and refused on its content), then the real answer.
    for _ in 0..3 {
        let reply = send_answer(&app, "zz", &id).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    }
    let enc =
        crypto::encrypt(&answer(&id, "Success", PRESENTER_VIRTUAL.amount, "USD").to_query_string(), TEST_WORKING_KEY);
    let reply = send_answer(&app, &enc, &id).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(location(&reply), format!("/Success?order={id}"));
    assert_eq!(status_of(&app, &id).await, "success");
}

#[tokio::test]
async fn hsts_only_when_the_public_url_is_https() {
    let https = app_with(|c| c.public_url = PUBLIC.into()).await;
    for path in ["/", "/pricing", "/api/health", "/no-such-page"] {
        let reply = https.request(path, &[]).await;
        assert_eq!(reply.header("strict-transport-security"), Some("max-age=31536000"), "{path}");
    }
    let app = app().await;
    let reply = app.request("/", &[]).await;
    assert_eq!(reply.header("strict-transport-security"), None);
}

#[tokio::test]
async fn form_action_names_only_the_current_modes_gateway() {
    let reply = app_with(live).await.request("/pricing", &[]).await;
    assert!(csp(&reply).contains("form-action 'self' https://secure.ccavenue.com;"), "{}", csp(&reply));
    assert!(!csp(&reply).contains("127.0.0.1"));
    let reply = app().await.request("/pricing", &[]).await;
    assert!(csp(&reply).contains("form-action 'self' http://127.0.0.1:3000;"), "{}", csp(&reply));
    assert!(!csp(&reply).contains("ccavenue"));
    let reply = app_with(|c| c.public_url = PUBLIC.into()).await.request("/pricing", &[]).await;
    assert!(csp(&reply).contains("form-action 'self';"), "{}", csp(&reply));
}

#[tokio::test]
async fn the_status_call_gives_up_after_its_timeout_and_follows_no_redirect() {
    use conference::payments::http::{HttpError, post_form};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    // Accepts and never answers.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/apis/servlet/DoWebTrans", silent.local_addr().unwrap());
    let hold = tokio::spawn(async move {
        let (socket, _) = silent.accept().await.unwrap();
        tokio::time::sleep(std::time::Duration::from_secs(5)).await;
        drop(socket);
    });
    let result = post_form(&url, "a=1".into(), std::time::Duration::from_millis(300)).await;
    assert!(matches!(result, Err(HttpError::Timeout(_))), "{result:?}");
    hold.abort();

    // A redirect is an answer we did not ask for: not followed, not a success.
    let redirecting = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/status", redirecting.local_addr().unwrap());
    let serve = tokio::spawn(async move {
        let (mut socket, _) = redirecting.accept().await.unwrap();
        let mut buffer = [0u8; 4096];
        let _ = socket.read(&mut buffer).await;
        let _ = socket
            .write_all(b"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:9/\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            .await;
    });
    let result = post_form(&url, "a=1".into(), std::time::Duration::from_secs(5)).await;
    assert!(matches!(result, Err(HttpError::Status(302))), "{result:?}");
    serve.abort();

    for bad in ["ftp://127.0.0.1/x", "not a url", "/relative"] {
        assert!(matches!(
            post_form(bad, String::new(), std::time::Duration::from_secs(1)).await,
            Err(HttpError::BadUrl(_))
        ));
    }
}
