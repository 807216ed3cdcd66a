//! The visitor forms under `/api`: POST `/api/contact`, `/api/newsletter` and
//! `/api/paper-submission` (DESIGN.md section 5). Protection (origin, rate limit) is the
//! router-wide `crate::protect::guard`; each form reads its body through
//! `crate::protect::Submission` (or, for the upload, its own multipart reader).

use axum::Router;

use super::{contact, newsletter};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().merge(contact::router()).merge(newsletter::router()).merge(super::submission::router())
}
