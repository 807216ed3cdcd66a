//! A reviewer's invitation (issue 32 item 1): the private link of the invitation mail,
//! `/review/invitation/<token>`, and the answer to it.
//!
//! - The token is 32 random bytes, base64url, stored only as its SHA-256
//!   (`reviewers.invitation_hash`, `crate::base::secrets::Secret`); it opens the invitation while
//!   it is open (not answered, not replaced by a newer one, the reviewer not removed).
//! - `GET` shows who invites, for which topics, and two buttons, "Accept" and "Decline", each a
//!   same-origin POST form to the same address with `answer=accept|decline`. The mail's two
//!   links add `?answer=accept` or `?answer=decline`, which only says which button the page
//!   puts first: mail scanners open links, so a GET never changes anything.
//! - `POST` answers once (`crate::review::reviewers::answer`): one atomic `UPDATE` sets the state (`accepted` or `declined`) and
//!   the time, and clears the token; the audit entry (`reviewer.accepted`,
//!   `reviewer.declined`, by the reviewer's address) is in the same transaction. After
//!   accepting, the page says how to sign in at `/review`.
//! - An unknown, used, replaced or malformed token is 404 with the site's words and nothing
//!   about anyone. Every answer is `Referrer-Policy: no-referrer` (the token never leaves in a
//!   `Referer`), `noindex` and `no-store` (under `/review`, `crate::http::cache_control`).

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

use crate::base::client_ip::ClientIp;
use crate::config::Config;
use crate::error::{AppError, Refused};
use crate::handlers::organiser::sign_in::{client_of, layout};
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::review::invitation_mail::Links;
use crate::review::reviewers::{self as domain, Answer};
use crate::views::review::invitation::{InvitationPage, Shown};

use super::session::REVIEWER_HOME;

/// The route of the invitation page and its answer.
pub const PATH: &str = "/review/invitation/{token}";

/// Where the invitation mail's links lead: `PUBLIC_URL/review/invitation/<token>`, and
/// `PUBLIC_URL/review` to sign in.
pub fn links(config: &Config) -> Links {
    Links { invitation: config.absolute("/review/invitation/"), sign_in: config.absolute(REVIEWER_HOME) }
}

async fn page(state: &AppState, status: StatusCode, token: &str, shown: Shown) -> Result<Response, AppError> {
    let snapshot = state.content.snapshot().await;
    let site = snapshot.site()?;
    let (conference, contact, short) = (site.name.clone(), site.contact_email.clone(), site.short_name.clone());
    let heading = shown.heading(&short);
    let view = InvitationPage {
        layout: layout(state, "Invitation to review", REVIEWER_HOME).await?,
        heading,
        conference,
        contact,
        action: format!("/review/invitation/{token}"),
        sign_in: REVIEWER_HOME,
        shown,
    };
    let mut response = render(status, &view)?;
    response.headers_mut().insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    Ok(response)
}

/// GET `/review/invitation/{token}` (`?answer=accept|decline` puts that button first; any
/// other query is ignored): changes nothing.
pub async fn show(
    State(state): State<AppState>,
    Path(token): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, AppError> {
    let Some(reviewer) = domain::open_invitation(&state.pool, &token).await? else {
        return page(&state, StatusCode::NOT_FOUND, &token, Shown::NotValid).await;
    };
    let chosen = url::form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .find(|(name, _)| name == "answer")
        .and_then(|(_, value)| Answer::parse(&value));
    page(&state, StatusCode::OK, &token, Shown::open(reviewer, chosen, None)).await
}

/// POST `/review/invitation/{token}` with `answer=accept|decline`: answers the invitation
/// once. 404 for a link that opens nothing; 400 (the page again, nothing changed) for any
/// other answer.
pub async fn answer(
    State(state): State<AppState>,
    client: Option<axum::Extension<ClientIp>>,
    Path(token): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let Some(reviewer) = domain::open_invitation(&state.pool, &token).await? else {
        return page(&state, StatusCode::NOT_FOUND, &token, Shown::NotValid).await;
    };
    let answers: Vec<String> =
        url::form_urlencoded::parse(&body).filter(|(name, _)| name == "answer").map(|(_, v)| v.into_owned()).collect();
    let Some(answer) = (match answers.as_slice() {
        [one] => Answer::parse(one.trim()),
        _ => None,
    }) else {
        let problem =
            Some("Your answer was not understood, so nothing was changed. Please press “Accept” or “Decline”.");
        return page(&state, StatusCode::BAD_REQUEST, &token, Shown::open(reviewer, None, problem)).await;
    };
    let client = client_of(client);
    let answered = match domain::answer(&state.pool, state.clock.now(), client.as_deref(), &token, answer).await {
        Ok(answered) => answered,
        // Answered or replaced between the read and now.
        Err(Refused::NotFound(_)) => return page(&state, StatusCode::NOT_FOUND, &token, Shown::NotValid).await,
        Err(other) => return Err(other.into()),
    };
    let shown = match answer {
        Answer::Accept => Shown::Accepted { email: answered.email },
        Answer::Decline => Shown::Declined,
    };
    page(&state, StatusCode::OK, &token, shown).await
}
