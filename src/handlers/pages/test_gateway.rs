//! The built-in test gateway at `/test-gateway` (being written).

use axum::Router;

use crate::state::AppState;

/// Empty when real CCAvenue credentials are set (DESIGN.md section 6).
pub fn router(_state: &AppState) -> Router<AppState> {
    Router::new()
}
