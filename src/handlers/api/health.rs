//! GET `/api/health`: whether the server and its database answer.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::handlers::state::AppState;
use crate::repo::content;

/// 200 `{"status":"ok","database":"ok"}`, or 503 with `"database":"error"`.
pub async fn health(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    match content::ping(&state.pool).await {
        Ok(()) => (StatusCode::OK, Json(json!({ "status": "ok", "database": "ok" }))),
        Err(err) => {
            tracing::error!(error = %err, "health check: database unavailable");
            (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "status": "error", "database": "error" })))
        }
    }
}
