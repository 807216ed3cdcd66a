//! The newsletter's signed links (DESIGN.md section 5, double opt-in; RFC 8058):
//! GET `/newsletter/confirm` subscribes a pending address; GET `/newsletter/unsubscribe`
//! offers a button; POST `/newsletter/unsubscribe` (the mail client's one-click
//! `List-Unsubscribe=One-Click`, or that button) unsubscribes. Each takes `email` and `token`
//! (HMAC of both, [`crate::mail::consent`]); a bad link is a 400 page and changes nothing.

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::clock::stamp::timestamp;
use crate::error::AppError;
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::mail::consent::{self, LinkPurpose};
use crate::repo::subscribers;
use crate::views::layout::{Layout, Meta};
use crate::views::pages::newsletter::{INVALID, NewsletterPage};

/// Path of the confirmation link.
pub const CONFIRM_PATH: &str = "/newsletter/confirm";
/// Path of the unsubscribe link (GET page, one-click POST).
pub const UNSUBSCRIBE_PATH: &str = "/newsletter/unsubscribe";

/// The query of both links.
#[derive(Debug, Deserialize)]
pub struct Link {
    #[serde(default)]
    email: String,
    #[serde(default)]
    token: String,
}

async fn show(
    state: &AppState,
    status: StatusCode,
    path: &str,
    heading: &'static str,
    text: String,
    unsubscribe_action: Option<String>,
) -> Result<Response, AppError> {
    let layout = Layout::new(&state.page_ctx(&*state.content.snapshot().await), |site| {
        Meta::new(format!("Newsletter | {}", site.short_name), "Your newsletter subscription.", path).noindex()
    })?;
    render(status, &NewsletterPage { layout, heading, text, unsubscribe_action })
}

async fn valid(state: &AppState, purpose: LinkPurpose, link: &Link) -> Result<bool, AppError> {
    if link.email.is_empty() || link.email.len() > 254 || link.token.is_empty() {
        return Ok(false);
    }
    let key = consent::newsletter_key(&state.pool).await?;
    Ok(consent::verify(&key, purpose, &link.email, &link.token))
}

/// GET `/newsletter/confirm?email=..&token=..`: the address counts as subscribed from now.
pub async fn confirm(State(state): State<AppState>, Query(link): Query<Link>) -> Result<Response, AppError> {
    if !valid(&state, LinkPurpose::Confirm, &link).await? {
        tracing::warn!("newsletter confirmation with an invalid link");
        return show(&state, StatusCode::BAD_REQUEST, CONFIRM_PATH, "Link not valid", INVALID.into(), None).await;
    }
    if !subscribers::confirm(&state.pool, &link.email, &timestamp(consent::now())).await? {
        let text = "This address is not waiting for confirmation. Please sign up again.".to_string();
        return show(&state, StatusCode::NOT_FOUND, CONFIRM_PATH, "Nothing to confirm", text, None).await;
    }
    tracing::info!("newsletter subscription confirmed");
    let text = format!("{} is now subscribed to our newsletter. Thank you!", link.email);
    show(&state, StatusCode::OK, CONFIRM_PATH, "Subscription confirmed", text, None).await
}

/// GET `/newsletter/unsubscribe?email=..&token=..`: a page with the Unsubscribe button (a GET
/// never unsubscribes: mail scanners open links).
pub async fn unsubscribe_page(State(state): State<AppState>, Query(link): Query<Link>) -> Result<Response, AppError> {
    if !valid(&state, LinkPurpose::Unsubscribe, &link).await? {
        return show(&state, StatusCode::BAD_REQUEST, UNSUBSCRIBE_PATH, "Link not valid", INVALID.into(), None).await;
    }
    let query = serde_urlencoded::to_string([("email", &link.email), ("token", &link.token)])
        .map_err(|e| AppError::internal("unsubscribe link", e))?;
    let text = format!("Stop sending the newsletter to {}?", link.email);
    let action = Some(format!("{UNSUBSCRIBE_PATH}?{query}"));
    show(&state, StatusCode::OK, UNSUBSCRIBE_PATH, "Unsubscribe", text, action).await
}

/// POST `/newsletter/unsubscribe?email=..&token=..` (body `List-Unsubscribe=One-Click`, RFC
/// 8058): unsubscribes at once; 200 even when the address had already gone.
pub async fn unsubscribe(State(state): State<AppState>, Query(link): Query<Link>) -> Result<Response, AppError> {
    if !valid(&state, LinkPurpose::Unsubscribe, &link).await? {
        tracing::warn!("newsletter unsubscribe with an invalid link");
        return show(&state, StatusCode::BAD_REQUEST, UNSUBSCRIBE_PATH, "Link not valid", INVALID.into(), None).await;
    }
    subscribers::unsubscribe(&state.pool, &link.email).await?;
    tracing::info!("newsletter subscriber unsubscribed");
    let text = format!("{} will get no more newsletter mail from us.", link.email);
    show(&state, StatusCode::OK, UNSUBSCRIBE_PATH, "Unsubscribed", text, None).await
}
