//! POST `/api/newsletter` (DESIGN.md section 5; spec section 5): `{email}`, stored once per
//! address as `pending`: 201 when new, 200 when the address was already there. A new (or
//! returning) address gets one confirmation mail with a signed link; it counts as subscribed
//! once that link is opened (double opt-in, `crate::handlers::pages::newsletter`).

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::error::{ApiError, AppError};
use crate::handlers::extract::{Mode, Submission};
use crate::handlers::state::AppState;
use crate::mail::consent::{self, LinkPurpose};
use crate::mail::{self, MailSite};
use crate::repo::subscribers::{self, SignUp};

/// `message` of a new sign-up: the spec's text, then a line asking to confirm.
pub const SUBSCRIBED: &str =
    "Thank you for subscribing!\nPlease confirm your subscription with the link we have just emailed you.";
/// `message` when the address was already there.
pub const ALREADY_SUBSCRIBED: &str = "You are already subscribed.";

/// Fragments of the footer's notices after a plain HTML form post.
const SUBSCRIBED_FRAGMENT: &str = "newsletter-subscribed";
const ERROR_FRAGMENT: &str = "newsletter-error";

#[derive(Template)]
#[template(path = "mail/newsletter_confirm.txt")]
struct ConfirmText<'a> {
    site: &'a MailSite,
    confirm_url: &'a str,
}

#[derive(Template)]
#[template(path = "mail/newsletter_confirm.html")]
struct ConfirmHtml<'a> {
    site: &'a MailSite,
    confirm_url: &'a str,
}

/// 201 `{"message"}` when new, 200 when already there; 422 for a missing or malformed
/// address.
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

/// Checks the address, stores it as pending and queues its confirmation mail (within the
/// acknowledgement cap); `true` when the address was new.
async fn subscribe(state: &AppState, submission: &Submission) -> Result<bool, AppError> {
    let mut check = submission.check();
    let email = check.email("email", "Email address");
    check.finish()?;
    let ctx = mail::Context::load(&state.pool, &state.config).await?;
    let key = consent::newsletter_key(&state.pool).await?;
    let base = state.config.base_url();
    let confirm_url = consent::link(base, &key, LinkPurpose::Confirm, &email);
    let site = &ctx.site;
    let confirmation = mail::compose(
        email.clone(),
        ctx.subject("Please confirm your newsletter subscription"),
        &ConfirmText { site, confirm_url: &confirm_url },
        &ConfirmHtml { site, confirm_url: &confirm_url },
    )
    .map_err(|e| AppError::internal("newsletter confirmation template", e))?
    .list_unsubscribe(consent::link(base, &key, LinkPurpose::Unsubscribe, &email));

    let mut tx = crate::db::begin_write(&state.pool).await?;
    let sign_up = subscribers::subscribe(&mut tx, &email).await?;
    if sign_up != SignUp::Known {
        if consent::take_acknowledgement(&mut tx, &email).await? {
            mail::enqueue(&mut tx, &confirmation).await?;
        } else {
            tracing::warn!("newsletter confirmation not sent: acknowledgement limit reached for the address");
        }
    }
    tx.commit().await?;
    if sign_up == SignUp::New {
        tracing::info!("newsletter subscriber added (pending confirmation)");
    }
    Ok(sign_up == SignUp::New)
}
