//! POST `/api/contact` (DESIGN.md section 5; spec sections 3, 5 and 8): a visitor's contact
//! message. Stored, then the organisers are mailed (reply-to the visitor) through the outbox,
//! in one transaction: a 201 means the message is kept and its notice queued.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::error::{ApiError, AppError};
use crate::handlers::extract::{Mode, Submission};
use crate::handlers::state::AppState;
use crate::mail;
use crate::repo::messages::{self, NewMessage, record_id};

/// Longest name, in characters.
pub const NAME_MAX: usize = 120;
/// Longest phone / WhatsApp number as written, in characters.
pub const NUMBER_MAX: usize = 32;
/// Longest country name, in characters.
pub const COUNTRY_MAX: usize = 80;
/// Longest message, in characters.
pub const MESSAGE_MAX: usize = 5000;

/// Fragment of the home page's confirmation after a plain HTML form post.
const SENT_FRAGMENT: &str = "contact-sent";
/// Fragment of the home page's error notice after a plain HTML form post.
const ERROR_FRAGMENT: &str = "contact-error";

/// `{name, number, email, country, message}`, all required, email checked; 201 `{"id"}`.
pub async fn contact(State(state): State<AppState>, submission: Submission) -> Response {
    let result = if submission.honeypot {
        submission.log_honeypot("/api/contact");
        // A bot sees the answer a person gets, id included, and learns nothing.
        Ok(record_id())
    } else {
        store(&state, &submission).await
    };
    match (submission.mode, result) {
        (Mode::HtmlForm, Ok(_)) => submission.redirect_back(SENT_FRAGMENT),
        (Mode::HtmlForm, Err(err)) => {
            if let AppError::Internal { .. } = &err {
                tracing::error!(error = %err, "contact message failed");
            }
            submission.redirect_back(ERROR_FRAGMENT)
        }
        (_, Ok(id)) => (StatusCode::CREATED, axum::Json(json!({ "id": id }))).into_response(),
        (_, Err(err)) => ApiError(err).into_response(),
    }
}

/// Checks the fields, then stores the message and queues the organisers' notice together.
async fn store(state: &AppState, submission: &Submission) -> Result<String, AppError> {
    let mut check = submission.check();
    let new = NewMessage {
        name: check.line("name", "Name", NAME_MAX),
        number: check.phone("number", "Phone / Whatsapp.no", NUMBER_MAX),
        email: check.email("email", "Email address"),
        country: check.line("country", "Country", COUNTRY_MAX),
        message: check.text("message", "Message", MESSAGE_MAX),
    };
    check.finish()?;

    let ctx = mail::Context::load(&state.pool, &state.config).await?;
    let mut tx = crate::db::begin_write(&state.pool).await?;
    let message = messages::insert(&mut tx, &new).await?;
    let notice =
        mail::contact::contact_notice(&ctx, &message).map_err(|e| AppError::internal("contact notice template", e))?;
    mail::enqueue(&mut tx, &notice).await?;
    tx.commit().await?;
    tracing::info!(id = %message.id, "contact message stored");
    Ok(message.id)
}
