//! What a paper submission answers: 201 with its reference, or a [`Refusal`] with the
//! `{"message","errors"}` JSON body.

use std::collections::BTreeMap;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::error::{AppError, ErrorBody, Refused};
use crate::handlers::extract::body_timeout_refusal;

/// spec section 5 and 8: the first check of the paper form.
pub const MISSING_FILE: &str = "Please upload your paper file";

/// 201 body.
#[derive(Debug, Serialize)]
pub struct Created {
    pub id: i64,
    /// Human-readable, e.g. `P-2025-7KQ4M9`; quoted in both mails.
    pub reference: String,
}

/// Why a submission was refused; each answers with the `{"message","errors"}` JSON body.
#[derive(Debug)]
pub enum Refusal {
    /// 400: not a readable multipart body.
    BadRequest(String),
    /// 413: the paper is larger than `UPLOAD_MAX_BYTES` (or the request than that plus the
    /// fields' margin).
    TooLarge(String),
    /// 415: not multipart, or a paper that is not PDF, DOC or DOCX by its content.
    Unsupported { message: String, file: bool },
    /// 422: field errors in the spec's order; the message is the first one.
    Invalid(Vec<(&'static str, String)>),
    /// 408: no body byte within `BODY_TIMEOUT_SECS`.
    Timeout,
    /// 409: submissions are closed (`paper_due_date` has passed, DESIGN.md section 20); the
    /// message says so and whom to write to.
    Closed(String),
    /// 500, logged.
    Internal(AppError),
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let (status, message, errors) = match self {
            Refusal::BadRequest(message) => (StatusCode::BAD_REQUEST, message, BTreeMap::new()),
            Refusal::TooLarge(message) => {
                (StatusCode::PAYLOAD_TOO_LARGE, message.clone(), BTreeMap::from([("file".to_owned(), message)]))
            }
            Refusal::Unsupported { message, file } => {
                let errors =
                    if file { BTreeMap::from([("file".to_owned(), message.clone())]) } else { BTreeMap::new() };
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, message, errors)
            }
            Refusal::Invalid(errors) => {
                let message = errors.first().map(|(_, m)| m.clone()).unwrap_or_default();
                let errors = errors.into_iter().map(|(k, m)| (k.to_owned(), m)).collect();
                (StatusCode::UNPROCESSABLE_ENTITY, message, errors)
            }
            Refusal::Timeout => return body_timeout_refusal().into_response(),
            Refusal::Closed(message) => (StatusCode::CONFLICT, message, BTreeMap::new()),
            Refusal::Internal(err) => return crate::error::ApiError(err).into_response(),
        };
        (status, Json(ErrorBody { message, errors })).into_response()
    }
}

/// A domain refusal as the submission answers it: 409 once closed, anything else as its
/// [`AppError`] (`crate::submissions::submit` refuses nothing else).
impl From<Refused> for Refusal {
    fn from(refused: Refused) -> Self {
        match refused {
            Refused::NotAllowed(message) => Refusal::Closed(message),
            other => Refusal::Internal(other.into()),
        }
    }
}

pub fn internal(context: &'static str, err: impl std::error::Error + Send + Sync + 'static) -> Refusal {
    Refusal::Internal(AppError::internal(context, err))
}

pub fn too_large(max_bytes: u64) -> Refusal {
    // The drop zone's own wording (spec section 5).
    Refusal::TooLarge(format!("File is larger than {max_bytes} bytes"))
}
