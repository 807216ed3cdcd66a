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
    /// 409: the change was drawn from a version of the data that changed since (RFC 9110
    /// section 15.5.10); nothing was changed, and the message says what to do.
    #[error("{0}")]
    Conflict(String),
    /// 503: the service is closed on purpose (e.g. payments off); the message says what to do.
    #[error("{0}")]
    Unavailable(String),
    /// Anything unexpected; logged as `context: source`, answered as a generic 500.
    #[error("{context}: {source}")]
    Internal {
        /// What the server was doing, e.g. `database` or `receipt template`.
        context: &'static str,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl From<sqlx::Error> for AppError {
    fn from(err: sqlx::Error) -> Self {
        if is_unstorable_text(&err) {
            // SQLite stores it; PostgreSQL refuses, and that is bad input, not a 500.
            return AppError::BadRequest("The request contains a NUL character, which cannot be stored.".into());
        }
        AppError::internal("database", err)
    }
}

/// Whether `err` is PostgreSQL refusing a text it cannot store (NUL, SQLSTATE 22021
/// `character_not_in_repertoire`): the client's input, not the server, is at fault.
pub fn is_unstorable_text(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.code().as_deref() == Some("22021"))
}

impl AppError {
    /// An unexpected failure while doing `context`; `source` is any error, or a message.
    pub fn internal(context: &'static str, source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        AppError::Internal { context, source: source.into() }
    }

    /// The HTTP status this error answers with.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal { .. } => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The message safe to show: internal details stay in the log.
    pub fn public_message(&self) -> String {
        match self {
            AppError::Internal { .. } => "Something went wrong on our side. Please try again later.".into(),
            other => other.to_string(),
        }
    }
}

/// Why an action changed nothing (DESIGN.md section 11, "handlers are adapters"): a domain
/// function answers `Err(Refused)` in the words the person is shown, and its handler answers
/// that with the status [`AppError::from`] gives each case. Nothing is stored on a refusal;
/// the transaction it was decided in is dropped.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// Drawn from data that changed since (another organiser's change, a second click): 409,
    /// RFC 9110 section 15.5.10. The message says what to do.
    #[error("{0}")]
    Stale(String),
    /// A rule of the conference stands in the way of this change (a conflict of interest, a
    /// submitted review that keeps its assignment, a room already taken): 422.
    #[error("{0}")]
    Conflicted(String),
    /// Not allowed at this moment or in this state: a deadline passed, a form closed, a
    /// paper withdrawn: 409, as the calendar's closed forms answer (DESIGN.md section 20).
    #[error("{0}")]
    NotAllowed(String),
    /// What the request names does not exist (or is not this person's to see): 404.
    #[error("{0}")]
    NotFound(String),
    /// Input that cannot be used: 422 with the fields' messages, keyed by the form's names.
    #[error("{message}")]
    Invalid { message: String, errors: BTreeMap<String, String> },
    /// Anything else, e.g. the database: the [`AppError`] as it is (a 500 is logged, never
    /// shown).
    #[error(transparent)]
    Failed(#[from] AppError),
}

impl Refused {
    /// An [`Refused::Invalid`] with `message` and no field of its own.
    pub fn invalid(message: impl Into<String>) -> Refused {
        Refused::Invalid { message: message.into(), errors: BTreeMap::new() }
    }
}

impl From<sqlx::Error> for Refused {
    fn from(err: sqlx::Error) -> Self {
        Refused::Failed(err.into())
    }
}

impl From<Refused> for AppError {
    fn from(refused: Refused) -> Self {
        match refused {
            Refused::Stale(message) | Refused::NotAllowed(message) => AppError::Conflict(message),
            Refused::Conflicted(message) => AppError::Unprocessable { message, errors: BTreeMap::new() },
            Refused::NotFound(message) => AppError::NotFound(message),
            Refused::Invalid { message, errors } => AppError::Unprocessable { message, errors },
            Refused::Failed(err) => err,
        }
    }
}

/// What a domain function answers: what it did (the action's own type, saying what changed),
/// or why it did nothing.
pub type Outcome<T> = Result<T, Refused>;

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
        if let AppError::Internal { .. } = &err {
            tracing::error!(error = %err, "request failed");
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

/// Marker a page error leaves on its response so [`crate::handlers::pages::errors`] can
/// render the full error page (it needs the database for the layout, which a plain
/// `IntoResponse` does not have).
#[derive(Debug, Clone)]
pub struct PageErrorMarker {
    pub message: String,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let AppError::Internal { .. } = &self {
            tracing::error!(error = %self, "page failed");
        }
        let status = self.status();
        let message = self.public_message();
        let mut response = (status, message.clone()).into_response();
        response.extensions_mut().insert(PageErrorMarker { message });
        response
    }
}
