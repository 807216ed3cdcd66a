//! One error type for the whole server. Pages render it as HTML, `/api` routes as
//! `{"message", "errors"}` JSON (DESIGN.md section 5); 500s are logged, never shown.

use std::collections::BTreeMap;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// What went wrong, in terms a visitor or client can act on.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 404; the message is shown on the not-found page or in the JSON body.
    #[error("{0}")]
    NotFound(String),
    /// 400: a malformed request (bad query parameter, unreadable body).
    #[error("{0}")]
    BadRequest(String),
    /// 422: field errors, keyed by the payload's own field names.
    #[error("{message}")]
    Unprocessable { message: String, errors: BTreeMap<String, String> },
    /// Anything unexpected; logged with context, answered as a generic 500.
    #[error(transparent)]
    Internal(#[from] anyhow_lite::Error),
}

impl From<sqlx::Error> for AppError {
    fn from(err: sqlx::Error) -> Self {
        AppError::Internal(anyhow_lite::Error::new("database", err))
    }
}

impl AppError {
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The message safe to show: internal details stay in the log.
    pub fn public_message(&self) -> String {
        match self {
            AppError::Internal(_) => "Something went wrong on our side. Please try again later.".into(),
            other => other.to_string(),
        }
    }
}

/// JSON body of every API error.
#[derive(Debug, Serialize)]
pub struct ErrorBody {
    pub message: String,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: BTreeMap<String, String>,
}

/// The API flavour of [`AppError`]: same cases, JSON body.
#[derive(Debug)]
pub struct ApiError(pub AppError);

impl<E: Into<AppError>> From<E> for ApiError {
    fn from(err: E) -> Self {
        ApiError(err.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let err = self.0;
        if let AppError::Internal(inner) = &err {
            tracing::error!(error = %inner, "request failed");
        }
        let errors = match &err {
            AppError::Unprocessable { errors, .. } => errors.clone(),
            _ => BTreeMap::new(),
        };
        let body = ErrorBody { message: err.public_message(), errors };
        (err.status(), Json(body)).into_response()
    }
}

/// Result type of API handlers.
pub type ApiResult<T> = Result<T, ApiError>;

/// A minimal boxed error with a context label, so `Internal` can carry any cause.
pub mod anyhow_lite {
    use std::fmt;

    #[derive(Debug)]
    pub struct Error {
        context: &'static str,
        source: Box<dyn std::error::Error + Send + Sync>,
    }

    impl Error {
        pub fn new(context: &'static str, source: impl std::error::Error + Send + Sync + 'static) -> Self {
            Error { context, source: Box::new(source) }
        }
    }

    impl fmt::Display for Error {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}: {}", self.context, self.source)
        }
    }

    impl std::error::Error for Error {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(self.source.as_ref())
        }
    }
}

/// Marker a page error leaves on its response so [`crate::handlers::pages::errors`] can
/// render the full error page (it needs the database for the layout, which a plain
/// `IntoResponse` does not have).
#[derive(Debug, Clone)]
pub struct PageErrorMarker {
    pub message: String,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let AppError::Internal(inner) = &self {
            tracing::error!(error = %inner, "page failed");
        }
        let status = self.status();
        let message = self.public_message();
        let mut response = (status, message.clone()).into_response();
        response.extensions_mut().insert(PageErrorMarker { message });
        response
    }
}
