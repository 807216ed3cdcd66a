//! Signing in by a mailed one-time link (DESIGN.md section 12; OWASP Authentication and
//! Forgot Password cheat sheets), and signing out: one mechanism for every role
//! (DESIGN.md section 15). The routes below are the organisers'; a reviewer's are the same
//! under `/review` (`Role::home`), and a link or session of one role works in its area only.
//!
//! - `GET /organiser` without a session: the sign-in page (one field, `email`).
//! - `POST /organiser/sign-in`: the same answer, status and page for any address. A row is
//!   written for every request and the mail goes through the outbox, so neither the answer nor
//!   its timing tells an organiser's address from another; only `ORGANISER_EMAIL`'s addresses
//!   get a mail. At most `crate::base::secrets::LINKS_PER_HOUR` requests per address per hour (429).
//! - `GET /organiser/sign-in/{token}`: "Sign in as ..." with one button. Mail scanners open
//!   links before people do, so only that button's POST uses the token up.
//! - `POST /organiser/sign-in/{token}`: one atomic `UPDATE` uses the link; a new session id
//!   is issued, and the cookie set.
//! - `POST /organiser/sign-out` ends this session; `/organiser/sign-out-everywhere` every
//!   session of this address.
//!
//! What each action does is `crate::sign_in::links` and `crate::sign_in::sessions`; this file
//! reads the request and answers with the pages and the cookie.

use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::session::{self, SignedIn};
use crate::base::client_ip::ClientIp;
use crate::error::{AppError, Refused};
use crate::handlers::render::html;
use crate::handlers::state::AppState;
use crate::sign_in::links::{self, LINK_NOT_VALID};
use crate::sign_in::roles::Role;
use crate::sign_in::sessions;
use crate::views::layout::{Layout, Meta};

/// The answer to every accepted request for a link (issue 20's wording).
pub const LINK_ON_ITS_WAY: &str = "If this address belongs to an organiser, a sign-in link is on its way.";
/// The same answer on the reviewers' sign-in page.
pub const REVIEWER_LINK_ON_ITS_WAY: &str = "If this address belongs to a reviewer, a sign-in link is on its way.";
/// The same answer on the check-in desk's sign-in page.
pub const DESK_LINK_ON_ITS_WAY: &str =
    "If this address belongs to the registration desk's staff, a sign-in link is on its way.";

/// The answer to an accepted request for a `role` link.
fn link_on_its_way(role: Role) -> &'static str {
    match role {
        Role::Organiser => LINK_ON_ITS_WAY,
        Role::Reviewer => REVIEWER_LINK_ON_ITS_WAY,
        Role::CheckIn => DESK_LINK_ON_ITS_WAY,
    }
}

/// The sign-in pages' title for `role`.
fn sign_in_title(role: Role) -> &'static str {
    match role {
        Role::Organiser => "Organisers: sign in",
        Role::Reviewer => "Reviewers: sign in",
        Role::CheckIn => "Check-in desk: sign in",
    }
}

#[derive(Template)]
#[template(path = "organiser/sign_in.html")]
pub struct SignInPage {
    pub layout: Layout,
    /// The heading: "Organisers", "Reviewers".
    pub heading: &'static str,
    /// The role's home (`Role::home`).
    pub home: &'static str,
    /// Where the form posts (`<home>/sign-in`).
    pub action: String,
    /// What the last request did (`role="status"`).
    pub notice: Option<String>,
    /// A problem with the field.
    pub error: Option<String>,
    /// What was typed, shown again after an error.
    pub email: String,
}

#[derive(Template)]
#[template(path = "organiser/link.html")]
pub struct LinkPage {
    pub layout: Layout,
    /// Where a new link is asked for (the role's home).
    pub home: &'static str,
    /// The address the link signs in, when it still works.
    pub email: Option<String>,
    /// Where the button posts (the link itself).
    pub action: String,
    pub message: &'static str,
}

/// A page of the organiser area: the site's layout, kept out of search engines.
pub async fn layout(state: &AppState, title: &str, path: &str) -> Result<Layout, AppError> {
    let snapshot = state.content.snapshot().await;
    Layout::new(&state.page_ctx(&snapshot), |site| {
        Meta::new(format!("{title} | {}", site.short_name), "The organisers' area.", path).noindex()
    })
}

/// `status` with `page`'s HTML.
fn answer(status: StatusCode, page: &impl Template) -> Result<Response, AppError> {
    Ok(crate::handlers::render::html_response(status, html(page)?))
}

/// The sign-in page of `role`, with `notice` or `error`.
pub async fn sign_in_page(
    state: &AppState,
    role: Role,
    status: StatusCode,
    notice: Option<String>,
    error: Option<String>,
    email: String,
) -> Result<Response, AppError> {
    let layout = layout(state, sign_in_title(role), role.home()).await?;
    let heading = match role {
        Role::Organiser => "Organisers",
        Role::Reviewer => "Reviewers",
        Role::CheckIn => "Check-in desk",
    };
    let action = format!("{}/sign-in", role.home());
    answer(status, &SignInPage { layout, heading, home: role.home(), action, notice, error, email })
}

/// The sign-in form's fields.
#[derive(Debug, Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    pub email: String,
}

/// POST `/organiser/sign-in`.
pub async fn request_link(
    State(state): State<AppState>,
    client: Option<axum::Extension<ClientIp>>,
    Form(form): Form<SignInForm>,
) -> Result<Response, AppError> {
    request_link_as(&state, Role::Organiser, client_of(client), form).await
}

/// The client address of a request, as the audit log keeps it.
pub fn client_of(client: Option<axum::Extension<ClientIp>>) -> Option<String> {
    client.and_then(|axum::Extension(ClientIp(ip))| ip).map(|ip| ip.to_string())
}

/// POST `<home>/sign-in` for `role` (`crate::sign_in::links::request_link`): the same
/// answer for any address; 422 with the field's message for an address that is not one, 429
/// (RFC 6585 section 4) past the hourly limit, on the sign-in page either way.
pub async fn request_link_as(
    state: &AppState,
    role: Role,
    client: Option<String>,
    form: SignInForm,
) -> Result<Response, AppError> {
    let now = state.clock.now();
    match links::request_link(&state.pool, &state.config, now, role, &form.email, client.as_deref()).await {
        Ok(_) => {
            let notice = Some(link_on_its_way(role).to_owned());
            sign_in_page(state, role, StatusCode::OK, notice, None, String::new()).await
        }
        Err(Refused::Invalid { message, .. }) => {
            let typed = form.email.trim().to_owned();
            sign_in_page(state, role, StatusCode::UNPROCESSABLE_ENTITY, None, Some(message), typed).await
        }
        Err(Refused::NotAllowed(message)) => {
            sign_in_page(state, role, StatusCode::TOO_MANY_REQUESTS, Some(message), None, String::new()).await
        }
        Err(refused) => Err(refused.into()),
    }
}

/// The headers of a page whose URL holds a token: never sent on as a referrer.
fn no_referrer(mut response: Response) -> Response {
    response.headers_mut().insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

async fn link_page(
    state: &AppState,
    role: Role,
    status: StatusCode,
    token: &str,
    email: Option<String>,
) -> Result<Response, AppError> {
    let action = format!("{}/sign-in/{token}", role.home());
    let layout = layout(state, sign_in_title(role), role.home()).await?;
    let message = if email.is_some() { "" } else { LINK_NOT_VALID };
    Ok(no_referrer(answer(status, &LinkPage { layout, home: role.home(), email, action, message })?))
}

/// GET `/organiser/sign-in/{token}`: the confirmation page; uses nothing up.
pub async fn confirm_page(State(state): State<AppState>, Path(token): Path<String>) -> Result<Response, AppError> {
    confirm_page_as(&state, Role::Organiser, &token).await
}

/// GET `<home>/sign-in/{token}` for `role` (`crate::sign_in::links::link_holder`): 404
/// for a link that does not work.
pub async fn confirm_page_as(state: &AppState, role: Role, token: &str) -> Result<Response, AppError> {
    let email = links::link_holder(&state.pool, &state.config, state.clock.now(), role, token).await?;
    let status = if email.is_some() { StatusCode::OK } else { StatusCode::NOT_FOUND };
    link_page(state, role, status, token, email).await
}

/// POST `/organiser/sign-in/{token}`: uses the link up and starts a session.
pub async fn sign_in(
    State(state): State<AppState>,
    client: Option<axum::Extension<ClientIp>>,
    Path(token): Path<String>,
) -> Result<Response, AppError> {
    sign_in_as(&state, Role::Organiser, client_of(client), &token).await
}

/// POST `<home>/sign-in/{token}` for `role` (`crate::sign_in::links::sign_in`): the
/// session's cookie and a redirect home, or 404 with the link page.
pub async fn sign_in_as(
    state: &AppState,
    role: Role,
    client: Option<String>,
    token: &str,
) -> Result<Response, AppError> {
    let now = state.clock.now();
    match links::sign_in(&state.pool, &state.config, now, role, token, client.as_deref()).await {
        Ok(signed_in) => {
            let mut response = Redirect::to(role.home()).into_response();
            let cookie = session::session_cookie(state, &signed_in.session_token);
            response.headers_mut().insert(header::SET_COOKIE, cookie);
            Ok(no_referrer(response))
        }
        Err(Refused::NotFound(_)) => link_page(state, role, StatusCode::NOT_FOUND, token, None).await,
        Err(refused) => Err(refused.into()),
    }
}

/// POST `/organiser/sign-out` (`crate::sign_in::sessions::sign_out`).
pub async fn sign_out(State(state): State<AppState>, SignedIn(organiser): SignedIn) -> Result<Response, AppError> {
    sessions::sign_out(&state.pool, state.clock.now(), &organiser.actor(), organiser.session).await?;
    signed_out(&state, Role::Organiser)
}

/// POST `/organiser/sign-out-everywhere`: every session of this address, on every device
/// (`crate::sign_in::sessions::sign_out_everywhere`).
pub async fn sign_out_everywhere(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
) -> Result<Response, AppError> {
    sessions::sign_out_everywhere(&state.pool, state.clock.now(), &organiser.actor()).await?;
    signed_out(&state, Role::Organiser)
}

/// The answer that ends a session in the browser: back to `role`'s sign-in page.
pub fn signed_out(state: &AppState, role: Role) -> Result<Response, AppError> {
    let mut response = Redirect::to(role.home()).into_response();
    response.headers_mut().insert(header::SET_COOKIE, session::cleared_cookie(state));
    Ok(response)
}
