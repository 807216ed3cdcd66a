//! Body limits per route (DESIGN.md section 2, issue 11): a declared `Content-Length` above
//! a route's limit answers 413 before a byte of the body is read. The readers
//! (`crate::handlers::extract`, the payment and upload handlers) enforce the same limits as
//! the bytes stream in.

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::config::Config;
use crate::handlers::api::payments;
use crate::handlers::extract::{FORM_BODY_LIMIT, Refusal};
use crate::handlers::pages::{camera_ready, test_gateway};
use crate::payments::config::TEST_GATEWAY_PATH;

/// Largest body each route accepts, in bytes; the readers enforce the same limits as the
/// bytes stream in, this only answers early for a declared `Content-Length`.
#[derive(Debug, Clone, Copy, Default)]
pub struct BodyLimits;

impl BodyLimits {
    pub fn from_config(_config: &Config) -> Self {
        BodyLimits
    }

    /// The limit of the route at `path`; `None` for the paper upload, whose handler checks
    /// the declared length itself before reading (to answer in its own shape, on `file`).
    pub fn for_path(&self, path: &str) -> Option<u64> {
        Some(match path {
            "/api/paper-submission" => return None,
            pdf if camera_ready::is_pdf_path(pdf) => camera_ready::PDF_BODY_LIMIT as u64,
            "/api/ccavenue-initiate" | "/api/ccavenue-handle" => payments::BODY_LIMIT_BYTES as u64,
            TEST_GATEWAY_PATH => test_gateway::BODY_LIMIT_BYTES as u64,
            // Every other route takes at most a visitor form (or no body at all).
            _ => FORM_BODY_LIMIT as u64,
        })
    }
}

/// Middleware on the whole router: a declared `Content-Length` above the route's limit
/// answers 413 at once, before a byte of the body is read (a client announcing 99,999,999,999
/// bytes is not waited for).
pub async fn declared_length_guard(State(limits): State<BodyLimits>, request: Request, next: Next) -> Response {
    let declared =
        request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
    if let Some(length) = declared
        && let Some(limit) = limits.for_path(request.uri().path())
        && length > limit
    {
        tracing::warn!(path = %request.uri().path(), length, limit, "declared body too large");
        return Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("The request body is too large (limit {limit} bytes)"),
        )
        .into_response();
    }
    next.run(request).await
}
