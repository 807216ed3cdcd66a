//! POST `/api/ccavenue-initiate` and `/api/ccavenue-handle` (being written).

use axum::Router;

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
}
