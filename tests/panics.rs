//! A handler that panics (issue 25): the visitor gets a 500 with the site's error page, an
//! API client the JSON error body, and the panic is logged inside the request's span; the
//! connection is never just reset.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::routing::get;
use futures_util::StreamExt;
use tower::ServiceExt;

use crate::common::{app, log};

#[tokio::test]
async fn a_panicking_handler_answers_500_with_the_error_page_or_json_and_is_logged() {
    let captured = log::captured();
    let app = app().await;
    let pages = Router::new().route("/boom-page", get(|| explode("page handler exploded 7341")));
    let api = Router::new().route("/boom", get(|| explode("api handler exploded 7342")));
    let site = conference::http::router::app_with_routes(app.state.clone(), pages, api);

    let page = site.clone().oneshot(Request::get("/boom-page").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(page.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let content_type = page.headers().get("content-type").unwrap().to_str().unwrap().to_owned();
    assert!(content_type.starts_with("text/html"), "{content_type}");
    let html = String::from_utf8(axum::body::to_bytes(page.into_body(), usize::MAX).await.unwrap().to_vec()).unwrap();
    assert!(html.contains("Something went wrong on our side"), "the site's error page: {html}");
    assert!(html.contains("<footer"), "a whole page, with the layout");
    assert!(!html.contains("exploded"), "the panic's text is never shown");

    let api_answer = site.oneshot(Request::get("/api/boom").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(api_answer.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let body = axum::body::to_bytes(api_answer.into_body(), usize::MAX).await.unwrap();
    let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(json["message"], "Something went wrong on our side. Please try again later.");

    let logged = captured.text();
    let line = logged.lines().find(|line| line.contains("page handler exploded 7341")).expect("the panic is logged");
    assert!(line.contains("ERROR") && line.contains("request{") && line.contains("uri=/boom-page"), "{line}");
    assert!(logged.lines().any(|line| line.contains("api handler exploded 7342") && line.contains("uri=/api/boom")));
}

/// A handler that panics with `message` (a route the site does not have).
async fn explode(message: &'static str) -> &'static str {
    if std::hint::black_box(true) {
        panic!("{message}");
    }
    "never"
}

/// A body that panics after its first chunk, as a stream a handler returns may (issue 30): the
/// client gets a broken transfer, not a short file that looks whole, under any coding; the
/// panic is logged at ERROR in the request's span and counted like a handler's.
#[tokio::test]
async fn a_body_that_panics_ends_in_an_error_and_is_logged_and_counted() {
    let captured = log::captured();
    let app = app().await;
    let pages = Router::new().route(
        "/boom-body",
        get(|| async {
            let chunks = futures_util::stream::iter([
                Ok::<_, std::io::Error>("id,title\n1,first row\n"),
                Err(std::io::Error::other("unused")),
            ])
            .map(|chunk| match chunk {
                Ok(text) => Ok::<_, std::io::Error>(axum::body::Bytes::from(text)),
                Err(_) => panic!("body stream exploded 7343"),
            });
            ([("content-type", "text/csv")], Body::from_stream(chunks))
        }),
    );
    let site = conference::http::router::app_with_routes(app.state.clone(), pages, Router::new());
    for encoding in ["identity", "gzip", "br"] {
        let before = conference::http::panics::caught();
        let request = Request::get("/boom-body").header("accept-encoding", encoding).body(Body::empty()).unwrap();
        let answer = site.clone().oneshot(request).await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK, "the head went out before the body broke");
        let read = axum::body::to_bytes(answer.into_body(), usize::MAX).await;
        assert!(read.is_err(), "{encoding}: the body ends in an error, never as a whole short file");
        assert!(conference::http::panics::caught() > before, "{encoding}: the panic is counted");
    }
    let logged = captured.text();
    let line = logged.lines().find(|line| line.contains("body stream exploded 7343")).expect("the panic is logged");
    assert!(line.contains("ERROR") && line.contains("request{") && line.contains("uri=/boom-body"), "{line}");
    assert!(line.contains("panics_caught="), "{line}");
}
