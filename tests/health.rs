//! GET `/api/health` (DESIGN.md section 5): whether the server and its database answer.

use axum::http::StatusCode;
use serde_json::json;

use crate::common::app;

#[tokio::test]
async fn health_is_ok_while_the_database_answers() {
    let app = app().await;
    let (status, body) = app.json("/api/health").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({ "status": "ok", "database": "ok" }));
}

#[tokio::test]
async fn health_is_503_when_the_database_is_gone() {
    let app = app().await;
    app.pool.close().await;
    let (status, body) = app.json("/api/health").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["database"], "error", "{body}");
    assert_ne!(body["status"], "ok", "{body}");
}

#[tokio::test]
async fn health_is_not_cached() {
    let app = app().await;
    let (_, headers, _) = app.get("/api/health").await;
    // Every `/api` answer is private and kept by no cache (DESIGN.md section 9).
    let cache = headers.get("cache-control").and_then(|v| v.to_str().ok());
    assert_eq!(cache, Some("private, no-store"));
}
