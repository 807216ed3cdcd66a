//! POST `/api/newsletter` (DESIGN.md section 5; spec section 5): `{email}`, stored once per
//! address: 201 when new, 200 when the address was already there.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::error::{ApiError, AppError};
use crate::protect::{Mode, Submission};
use crate::repo::subscribers;
use crate::state::AppState;

/// `message` of a new sign-up.
pub const SUBSCRIBED: &str = "Thank you for subscribing!";
/// `message` when the address was already subscribed.
pub const ALREADY_SUBSCRIBED: &str = "You are already subscribed.";

/// Fragments of the footer's notices after a plain HTML form post.
const SUBSCRIBED_FRAGMENT: &str = "newsletter-subscribed";
const ERROR_FRAGMENT: &str = "newsletter-error";

/// 201 `{"message"}` when new, 200 when already subscribed; 422 for a missing or
/// malformed address.
pub async fn newsletter(State(state): State<AppState>, submission: Submission) -> Response {
    let result = if submission.honeypot {
        submission.log_honeypot("/api/newsletter");
        // What a new address would get; nothing is stored.
        Ok(true)
    } else {
        subscribe(&state, &submission).await
    };
    match (submission.mode, result) {
        (Mode::HtmlForm, Ok(_)) => submission.redirect_back(SUBSCRIBED_FRAGMENT),
        (Mode::HtmlForm, Err(err)) => {
            if let AppError::Internal { .. } = &err {
                tracing::error!(error = %err, "newsletter sign-up failed");
            }
            submission.redirect_back(ERROR_FRAGMENT)
        }
        (_, Ok(added)) => {
            let (status, message) =
                if added { (StatusCode::CREATED, SUBSCRIBED) } else { (StatusCode::OK, ALREADY_SUBSCRIBED) };
            (status, axum::Json(json!({ "message": message }))).into_response()
        }
        (_, Err(err)) => ApiError(err).into_response(),
    }
}

/// Checks the address and adds it; `true` when it was new.
async fn subscribe(state: &AppState, submission: &Submission) -> Result<bool, AppError> {
    let mut check = submission.check();
    let email = check.email("email", "Email address");
    check.finish()?;
    let mut conn = state.pool.acquire().await?;
    let added = subscribers::subscribe(&mut conn, &email).await?;
    if added {
        tracing::info!("newsletter subscriber added");
    }
    Ok(added)
}
