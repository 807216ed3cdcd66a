//! Protection of every POST (DESIGN.md section 5, "Details that tests rely on"): the
//! same-origin check (403, with `/api/ccavenue-handle` exempt) and the per-client rate limit
//! (429 with `Retry-After`), on every POST route including ones added later.
//! Body checks (415, 413, 400, 422, honeypot) are tested per route in `api_contact` and
//! `api_newsletter`.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};

use crate::common::{BASE, Reply, TestApp, app, app_with};

const NEWSLETTER: &str = "{\"email\":\"ana@example.org\"}";

/// Every POST route of DESIGN.md section 5, and a path no route has yet.
const POST_ROUTES: [&str; 6] = [
    "/api/contact",
    "/api/newsletter",
    "/api/paper-submission",
    "/api/ccavenue-initiate",
    "/api/no-such-route-yet",
    "/pricing",
];

fn message(reply: &Reply) -> String {
    let body: Value =
        serde_json::from_slice(&reply.body).unwrap_or_else(|e| panic!("JSON answer ({e}): {}", reply.text()));
    body["message"].as_str().expect("a message").to_owned()
}

/// A POST as it arrives over a socket from `client`.
async fn post_from(app: &TestApp, client: [u8; 4], path: &str, body: &str) -> Reply {
    let mut request = Request::post(path)
        .header("content-type", "application/json")
        .header("origin", BASE)
        .body(Body::from(body.to_owned()))
        .unwrap();
    request.extensions_mut().insert(ConnectInfo(SocketAddr::from((client, 40000))));
    app.send(request).await
}

#[tokio::test]
async fn a_post_from_another_origin_is_refused_on_every_route() {
    let app = app().await;
    for origin in [
        "https://evil.example",
        "http://127.0.0.1:3001",
        "https://127.0.0.1:3000",
        "http://localhost:3000",
        "null",
        "not an origin",
    ] {
        for path in POST_ROUTES {
            let reply = app.post(path, "application/json", NEWSLETTER, &[("origin", origin)]).await;
            assert_eq!(reply.status, StatusCode::FORBIDDEN, "POST {path} from {origin}");
            assert_eq!(message(&reply), "Cross-origin requests are not allowed");
        }
    }
    assert_eq!(app.count("subscribers").await, 0);
}

#[tokio::test]
async fn more_than_one_origin_header_is_refused_on_every_route() {
    let app = app().await;
    for second in ["https://evil.example", BASE] {
        for path in POST_ROUTES.iter().chain(&["/api/ccavenue-handle"]) {
            let mut request = Request::post(*path)
                .header("content-type", "application/json")
                .header("origin", BASE)
                .header("origin", second)
                .body(Body::from(NEWSLETTER))
                .unwrap();
            request.extensions_mut().insert(ConnectInfo(SocketAddr::from(([10, 9, 9, 9], 40000))));
            let reply = app.send(request).await;
            assert_eq!(reply.status, StatusCode::FORBIDDEN, "POST {path} with Origin {BASE} and {second}");
            assert_eq!(message(&reply), "Cross-origin requests are not allowed");
        }
    }
    assert_eq!(app.count("subscribers").await, 0);
}

#[tokio::test]
async fn the_sites_own_origin_passes_however_it_is_written() {
    let app = app().await;
    for origin in [BASE, "HTTP://127.0.0.1:3000", "http://127.0.0.1:3000/"] {
        let reply = app.post("/api/newsletter", "application/json", NEWSLETTER, &[("origin", origin)]).await;
        assert!(reply.status.is_success(), "{origin}: {}", reply.status);
    }
    // PUBLIC_URL on a default port: the browser leaves the port out of Origin.
    let app = app_with(|c| c.public_url = "https://conference.example:443/".into()).await;
    let reply =
        app.post("/api/newsletter", "application/json", NEWSLETTER, &[("origin", "https://conference.example")]).await;
    assert_eq!(reply.status, StatusCode::CREATED);
}

#[tokio::test]
async fn the_gateway_answer_route_is_exempt_from_the_origin_check() {
    let app = app().await;
    let reply = app
        .post(
            "/api/ccavenue-handle",
            "application/x-www-form-urlencoded",
            "encResp=00",
            &[("origin", "https://secure.ccavenue.com")],
        )
        .await;
    assert_ne!(reply.status, StatusCode::FORBIDDEN, "the gateway posts from its own origin");
}

#[tokio::test]
async fn other_methods_are_not_checked() {
    let app = app().await;
    let (status, _, _) = app.get_with("/api/health", &[("origin", "https://evil.example")]).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn past_the_budget_a_client_gets_429_with_retry_after() {
    let app = app_with(|c| c.rate_limit_per_minute = 3).await;
    for i in 0..3 {
        let reply = app
            .post(
                "/api/newsletter",
                "application/json",
                format!("{{\"email\":\"n{i}@example.org\"}}"),
                &[("origin", BASE)],
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "request {} of 3", i + 1);
    }
    let reply =
        app.post("/api/newsletter", "application/json", "{\"email\":\"late@example.org\"}", &[("origin", BASE)]).await;
    assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = reply.header("retry-after").expect("Retry-After").parse().expect("whole seconds");
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    assert!(message(&reply).starts_with("Too many requests."), "{}", message(&reply));
    assert_eq!(app.count("subscribers").await, 3, "the refused sign-up is not stored");

    // Every POST route shares the budget, including unknown ones; reading stays open.
    for path in POST_ROUTES {
        let reply = app.post(path, "application/json", NEWSLETTER, &[]).await;
        assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS, "POST {path}");
    }
    let (status, _, _) = app.get("/api/health").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_budget_is_per_client_address() {
    let app = app_with(|c| c.rate_limit_per_minute = 2).await;
    for _ in 0..2 {
        assert_ne!(
            post_from(&app, [203, 0, 113, 7], "/api/newsletter", NEWSLETTER).await.status,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
    assert_eq!(
        post_from(&app, [203, 0, 113, 7], "/api/newsletter", NEWSLETTER).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    let other = post_from(&app, [198, 51, 100, 9], "/api/newsletter", "{\"email\":\"ben@example.org\"}").await;
    assert_eq!(other.status, StatusCode::CREATED, "another address has its own budget");
}

#[tokio::test]
async fn bad_requests_count_but_cross_origin_ones_do_not() {
    let app = app_with(|c| c.rate_limit_per_minute = 2).await;
    // A foreign page cannot spend a visitor's budget through the visitor's browser.
    for _ in 0..5 {
        let reply =
            app.post("/api/newsletter", "application/json", NEWSLETTER, &[("origin", "https://evil.example")]).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN);
    }
    // Malformed requests do count: a flood of garbage is a flood.
    let reply = app.post("/api/newsletter", "application/json", "{", &[("origin", BASE)]).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let reply = app.post("/api/newsletter", "application/json", NEWSLETTER, &[("origin", BASE)]).await;
    assert_eq!(reply.status, StatusCode::CREATED);
    let reply = app.post("/api/newsletter", "application/json", NEWSLETTER, &[("origin", BASE)]).await;
    assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn every_refusal_is_json_with_a_message() {
    let app = app_with(|c| c.rate_limit_per_minute = 1).await;
    let forbidden = app.post("/api/contact", "application/json", "{}", &[("origin", "https://evil.example")]).await;
    let unsupported = app.post("/api/contact", "text/plain", "hi", &[]).await;
    let limited = app.post("/api/contact", "application/json", json!({}).to_string(), &[]).await;
    for (reply, status) in [
        (forbidden, StatusCode::FORBIDDEN),
        (unsupported, StatusCode::UNSUPPORTED_MEDIA_TYPE),
        (limited, StatusCode::TOO_MANY_REQUESTS),
    ] {
        assert_eq!(reply.status, status);
        assert!(reply.header("content-type").is_some_and(|t| t.starts_with("application/json")), "{status}");
        assert!(!message(&reply).is_empty());
    }
}
