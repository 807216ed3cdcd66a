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
    // Past the origin check, the handler reads the (unreadable) answer: 400, not 403.
    assert_eq!(
        reply.status,
        StatusCode::BAD_REQUEST,
        "the gateway posts from its own origin: {}",
        String::from_utf8_lossy(&reply.body)
    );
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
    // Within the budget: the sign-up (201), then the same address again (200, already pending).
    for expected in [StatusCode::CREATED, StatusCode::OK] {
        assert_eq!(post_from(&app, [203, 0, 113, 7], "/api/newsletter", NEWSLETTER).await.status, expected);
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

// ---------------------------------------------------------------------------------------
// Behind a proxy: TRUSTED_PROXIES (DESIGN.md section 9, src/base/client_ip.rs)
// ---------------------------------------------------------------------------------------

/// A POST from TCP peer `peer` carrying the forwarding header `(name, value)`.
async fn post_via(app: &TestApp, peer: [u8; 4], forwarded: (&str, &str), email: &str) -> Reply {
    let mut request = Request::post("/api/newsletter")
        .header("content-type", "application/json")
        .header("origin", BASE)
        .header(forwarded.0, forwarded.1)
        .body(Body::from(json!({ "email": email }).to_string()))
        .unwrap();
    request.extensions_mut().insert(ConnectInfo(SocketAddr::from((peer, 40000))));
    app.send(request).await
}

#[tokio::test]
async fn forwarding_headers_from_an_untrusted_peer_are_ignored() {
    // No proxy configured: a visitor cannot buy a fresh budget by writing a header.
    let app = app_with(|c| c.rate_limit_per_minute = 1).await;
    let first = post_via(&app, [203, 0, 113, 7], ("x-forwarded-for", "198.51.100.1"), "a@example.org").await;
    assert_eq!(first.status, StatusCode::CREATED);
    for (i, header) in [("x-forwarded-for", "198.51.100.2"), ("forwarded", "for=198.51.100.3")].into_iter().enumerate()
    {
        let reply = post_via(&app, [203, 0, 113, 7], header, &format!("b{i}@example.org")).await;
        assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS, "{header:?}");
    }
    // A proxy is configured, but this peer is not it.
    let app = app_with(|c| {
        c.rate_limit_per_minute = 1;
        c.trusted_proxies = "127.0.0.1".parse().unwrap();
    })
    .await;
    assert_eq!(
        post_via(&app, [203, 0, 113, 7], ("x-forwarded-for", "198.51.100.1"), "c@example.org").await.status,
        StatusCode::CREATED
    );
    let spoofed = post_via(&app, [203, 0, 113, 7], ("x-forwarded-for", "198.51.100.2"), "d@example.org").await;
    assert_eq!(spoofed.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(app.count("subscribers").await, 1);
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_visitor_has_their_own_budget() {
    let app = app_with(|c| {
        c.rate_limit_per_minute = 1;
        c.trusted_proxies = "127.0.0.1, 10.0.0.0/8".parse().unwrap();
    })
    .await;
    // Two visitors through the same balancer (127.0.0.1) and an inner proxy (10.0.0.2).
    let ana = post_via(&app, [127, 0, 0, 1], ("x-forwarded-for", "198.51.100.7, 10.0.0.2"), "ana@example.org").await;
    let ben = post_via(&app, [127, 0, 0, 1], ("x-forwarded-for", "198.51.100.8"), "ben@example.org").await;
    assert_eq!((ana.status, ben.status), (StatusCode::CREATED, StatusCode::CREATED));
    // Ana again, with an invented address on the left: the right-most untrusted entry counts.
    let again =
        post_via(&app, [127, 0, 0, 1], ("x-forwarded-for", "1.2.3.4, 198.51.100.7, 10.0.0.2"), "ana2@example.org")
            .await;
    assert_eq!(again.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(again.header("retry-after").is_some_and(|s| s.parse::<u64>().is_ok_and(|s| (1..=60).contains(&s))));
    // RFC 7239 Forwarded, used when no X-Forwarded-For came.
    let cem =
        post_via(&app, [127, 0, 0, 1], ("forwarded", "for=\"198.51.100.9:5000\";proto=https"), "cem@example.org").await;
    assert_eq!(cem.status, StatusCode::CREATED);
    let cem_again =
        post_via(&app, [127, 0, 0, 1], ("forwarded", "for=1.2.3.4, for=198.51.100.9"), "cem2@example.org").await;
    assert_eq!(cem_again.status, StatusCode::TOO_MANY_REQUESTS);
    // The balancer itself, without a header, is one more client.
    let bare = post_from(&app, [127, 0, 0, 1], "/api/newsletter", "{\"email\":\"lb@example.org\"}").await;
    assert_eq!(bare.status, StatusCode::CREATED);
    assert_eq!(app.count("subscribers").await, 4);
}

#[tokio::test]
async fn the_gateway_answer_route_is_never_rate_limited() {
    let app = app_with(|c| c.rate_limit_per_minute = 1).await;
    for i in 0..5 {
        let reply = post_from(&app, [203, 0, 113, 50], "/api/ccavenue-handle", "encResp=00").await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "gateway answer {i} reaches the handler: {}",
            String::from_utf8_lossy(&reply.body)
        );
    }
    let visitor = post_from(&app, [203, 0, 113, 50], "/api/newsletter", NEWSLETTER).await;
    assert_eq!(visitor.status, StatusCode::CREATED, "the gateway's answers spent nothing of the budget");
}

#[test]
fn a_bad_trusted_proxies_entry_stops_start_up_with_its_name() {
    use clap::Parser;
    use conference::cli::Cli;

    for bad in ["10.0.0.0/33", "proxy.internal", "127.0.0.1 10.0.0.1"] {
        let err = Cli::try_parse_from(["conference", "--trusted-proxies", bad]).expect_err(bad).to_string();
        assert!(err.contains("TRUSTED_PROXIES") || err.contains("--trusted-proxies"), "{err}");
        assert!(err.contains("not an IP address") || err.contains("prefix length"), "{err}");
    }
    let cli = Cli::try_parse_from(["conference", "--trusted-proxies", "127.0.0.1,::1,10.0.0.0/8"]).unwrap();
    assert!(cli.config.trusted_proxies.contains("10.20.30.40".parse().unwrap()));
    let default = Cli::try_parse_from(["conference"]).unwrap();
    assert!(default.config.trusted_proxies.is_empty(), "trusts no proxy by default");
}

#[tokio::test]
async fn the_request_log_names_the_client_a_trusted_proxy_forwarded() {
    let captured = crate::common::log::captured();
    let app = app_with(|c| c.trusted_proxies = "127.0.0.1".parse().unwrap()).await;
    let reply =
        post_via(&app, [127, 0, 0, 1], ("x-forwarded-for", "192.0.2.250, 198.18.7.77"), "log@example.org").await;
    assert_eq!(reply.status, StatusCode::CREATED);
    let spoofed = post_via(&app, [203, 0, 113, 219], ("x-forwarded-for", "198.18.7.78"), "log2@example.org").await;
    assert_eq!(spoofed.status, StatusCode::CREATED);
    let log = captured.text();
    assert!(log.contains("client=198.18.7.77"), "the visitor behind the proxy: {log}");
    assert!(log.contains("client=203.0.113.219"), "an untrusted peer as itself: {log}");
    assert!(!log.contains("198.18.7.78") && !log.contains("192.0.2.250"), "never a spoofed entry: {log}");
}

/// Issue 25: a page-cache hit is logged like a miss: the same `request` span with the
/// client address a trusted proxy named, and the same start and finish events.
#[tokio::test]
async fn a_cache_hit_is_logged_with_its_span_and_client_like_a_miss() {
    let captured = crate::common::log::captured();
    let app = app_with(|c| c.trusted_proxies = "127.0.0.1".parse().unwrap()).await;
    for _ in 0..2 {
        let mut request =
            Request::get("/committee").header("x-forwarded-for", "198.18.7.91").body(Body::empty()).unwrap();
        request.extensions_mut().insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
        assert_eq!(app.send(request).await.status, StatusCode::OK);
    }
    let log = captured.text();
    let of_this_client =
        |event: &str| log.lines().filter(|line| line.contains("client=198.18.7.91") && line.contains(event)).count();
    // The first request rendered the page (a miss); the second was answered from memory.
    assert_eq!(of_this_client("started processing request"), 2, "{log}");
    assert_eq!(of_this_client("finished processing request"), 2, "{log}");
    assert!(
        log.lines().filter(|line| line.contains("client=198.18.7.91")).all(|line| line.contains("uri=/committee")),
        "{log}"
    );
}
