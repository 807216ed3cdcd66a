//! Signing in by a mailed one-time link (DESIGN.md section 12; OWASP Authentication and
//! Forgot Password cheat sheets), and signing out: one mechanism for every role
//! (DESIGN.md section 15). The routes below are the organisers'; a reviewer's are the same
//! under `/review` (`Role::home`), and a link or session of one role works in its area only.
//!
//! - `GET /organiser` without a session: the sign-in page (one field, `email`).
//! - `POST /organiser/sign-in`: the same answer, status and page for any address. A row is
//!   written for every request and the mail goes through the outbox, so neither the answer nor
//!   its timing tells an organiser's address from another; only `ORGANISER_EMAIL`'s addresses
//!   get a mail. At most [`secrets::LINKS_PER_HOUR`] requests per address per hour (429).
//! - `GET /organiser/sign-in/{token}`: "Sign in as ..." with one button. Mail scanners open
//!   links before people do, so only that button's POST uses the token up.
//! - `POST /organiser/sign-in/{token}`: one atomic `UPDATE` uses the link; a new session id
//!   is issued, and the cookie set.
//! - `POST /organiser/sign-out` ends this session; `/organiser/sign-out-everywhere` every
//!   session of this address.

use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::session::{self, SignedIn};
use crate::base::client_ip::ClientIp;
use crate::error::AppError;
use crate::forms::validate;
use crate::handlers::layout::{Layout, Meta};
use crate::handlers::render::html;
use crate::handlers::state::AppState;
use crate::mail::outbox::timestamp;
use crate::mail::{self, Context};
use crate::repo::audit::{self, NewEntry};
use crate::repo::organisers as store;
use crate::sign_in::roles::Role;
use crate::sign_in::secrets::Secret;
use crate::sign_in::{roles, secrets};

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
/// The answer past the per-address limit, the same for any address.
pub const TOO_MANY_LINKS: &str = "Too many sign-in links were asked for this address. Please try again in an hour.";
/// A link that is unknown, used or expired.
pub const LINK_NOT_VALID: &str = "This sign-in link does not work any more: it was used, it expired (links work for 15 minutes), or it is not one we sent.";

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

/// POST `<home>/sign-in` for `role`: the same answer for any address; a mail only to one
/// that holds the role.
pub async fn request_link_as(
    state: &AppState,
    role: Role,
    client: Option<String>,
    form: SignInForm,
) -> Result<Response, AppError> {
    let typed = form.email.trim().to_owned();
    if !validate::is_valid_email(&typed) {
        let error = Some("Please enter a valid email address".to_owned());
        return sign_in_page(state, role, StatusCode::UNPROCESSABLE_ENTITY, None, error, typed).await;
    }
    let email = roles::normalise(&typed);
    let now = state.clock.now();
    let created = timestamp(now);
    let hour_ago = timestamp(now - time::Duration::HOUR);
    let secret = Secret::generate();
    let holder = session::holds(state, role, &email).await?.is_some();
    // Composed before the transaction, for every address alike.
    let ctx = Context::load(&state.pool, &state.config).await?;
    let link = state.config.absolute(&format!("{}/sign-in/{}", role.home(), secret.token));
    let mail = compose_link_mail(&ctx, role, &email, &link)?;
    let mut tx = crate::db::begin_write(&state.pool).await?;
    if store::links_since(&mut tx, &email, &hour_ago).await? >= secrets::LINKS_PER_HOUR {
        drop(tx);
        tracing::warn!(%email, "sign-in links: hourly limit reached");
        let notice = Some(TOO_MANY_LINKS.to_owned());
        return sign_in_page(state, role, StatusCode::TOO_MANY_REQUESTS, notice, None, String::new()).await;
    }
    let expires = timestamp(now + secrets::LINK_LIFETIME);
    store::insert_link(&mut tx, &email, role.as_str(), &secret.hash, &created, &expires).await?;
    if holder {
        mail::enqueue(&mut tx, &mail).await?;
        let entry = auth_entry(&created, role, &email, client.as_deref(), "auth.link_requested");
        audit::record(&mut tx, &entry).await?;
    } else {
        tracing::info!(role = role.as_str(), "sign-in link asked for an address without that role; no mail");
    }
    tx.commit().await?;
    sign_in_page(state, role, StatusCode::OK, Some(link_on_its_way(role).to_owned()), None, String::new()).await
}

#[derive(Template)]
#[template(path = "mail/organiser_link.txt")]
struct LinkText<'a> {
    site: &'a mail::MailSite,
    people: &'a str,
    link: &'a str,
}

#[derive(Template)]
#[template(path = "mail/organiser_link.html")]
struct LinkHtml<'a> {
    site: &'a mail::MailSite,
    people: &'a str,
    link: &'a str,
}

fn compose_link_mail(ctx: &Context, role: Role, email: &str, link: &str) -> Result<mail::OutgoingMail, AppError> {
    let (site, people) = (&ctx.site, role.people());
    let (text, html) = (LinkText { site, people, link }, LinkHtml { site, people, link });
    mail::compose(email, ctx.subject("Your sign-in link"), &text, &html)
        .map_err(|e| AppError::internal("sign-in link mail", e))
}

/// The audit entry of `email` doing `action` (`auth.*`) to its own account in `role`.
fn auth_entry<'a>(at: &'a str, role: Role, email: &'a str, client: Option<&'a str>, action: &'a str) -> NewEntry<'a> {
    NewEntry::new(at, email, client, action).about(role.as_str(), email)
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

/// GET `<home>/sign-in/{token}` for `role`.
pub async fn confirm_page_as(state: &AppState, role: Role, token: &str) -> Result<Response, AppError> {
    let mut email = None;
    if secrets::is_well_formed(token) {
        let now = timestamp(state.clock.now());
        let link = store::usable_link(&state.pool, &secrets::hash(token), role.as_str(), &now).await?;
        if let Some(address) = link
            && session::holds(state, role, &address).await?.is_some()
        {
            email = Some(address);
        }
    }
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

/// POST `<home>/sign-in/{token}` for `role`.
pub async fn sign_in_as(
    state: &AppState,
    role: Role,
    client: Option<String>,
    token: &str,
) -> Result<Response, AppError> {
    if !secrets::is_well_formed(token) {
        return link_page(state, role, StatusCode::NOT_FOUND, token, None).await;
    }
    let now = state.clock.now();
    let stamp = timestamp(now);
    let mut tx = crate::db::begin_write(&state.pool).await?;
    let used = store::use_link(&mut tx, &secrets::hash(token), role.as_str(), &stamp).await?;
    let email = match used {
        Some(email) if session::holds(state, role, &email).await?.is_some() => email,
        _ => {
            drop(tx);
            return link_page(state, role, StatusCode::NOT_FOUND, token, None).await;
        }
    };
    // A new id at every sign-in (OWASP: renew the session id when privileges change).
    let session_id = Secret::generate();
    let lifetime = time::Duration::hours(state.config.organiser_session_hours.max(1) as i64);
    let expires = timestamp(now + lifetime);
    store::insert_session(&mut tx, &session_id.hash, &email, role.as_str(), &stamp, &expires, client.as_deref())
        .await?;
    audit::record(&mut tx, &auth_entry(&stamp, role, &email, client.as_deref(), "auth.signed_in")).await?;
    tx.commit().await?;
    let mut response = Redirect::to(role.home()).into_response();
    response.headers_mut().insert(header::SET_COOKIE, session::session_cookie(state, &session_id.token));
    Ok(no_referrer(response))
}

/// POST `/organiser/sign-out`.
pub async fn sign_out(State(state): State<AppState>, SignedIn(organiser): SignedIn) -> Result<Response, AppError> {
    let stamp = timestamp(state.clock.now());
    let mut tx = crate::db::begin_write(&state.pool).await?;
    store::delete_session(&mut tx, organiser.session).await?;
    audit::record(&mut tx, &organiser.entry(&stamp, "auth.signed_out")).await?;
    tx.commit().await?;
    signed_out(&state, Role::Organiser)
}

/// POST `/organiser/sign-out-everywhere`: every session of this address, on every device.
pub async fn sign_out_everywhere(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
) -> Result<Response, AppError> {
    let stamp = timestamp(state.clock.now());
    let mut tx = crate::db::begin_write(&state.pool).await?;
    let ended = store::delete_sessions_of(&mut tx, &organiser.email).await?;
    let mut entry = organiser.entry(&stamp, "auth.signed_out_everywhere");
    entry.details = serde_json::json!({ "sessions": ended });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    signed_out(&state, Role::Organiser)
}

/// The answer that ends a session in the browser: back to `role`'s sign-in page.
pub fn signed_out(state: &AppState, role: Role) -> Result<Response, AppError> {
    let mut response = Redirect::to(role.home()).into_response();
    response.headers_mut().insert(header::SET_COOKIE, session::cleared_cookie(state));
    Ok(response)
}
