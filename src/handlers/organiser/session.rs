//! Who is signed in (DESIGN.md section 12; OWASP Session Management cheat sheet): the session
//! cookie, the server-side session it names, and the extractors every organiser route takes.
//!
//! The session table and this extractor are the whole mechanism, kept here rather than in a
//! session crate: the well-kept ones (tower-sessions and its stores) are built for sqlx 0.8
//! and a store per engine, while this project runs sqlx 0.9's `Any` driver on SQLite and
//! PostgreSQL; the rules it must follow are few and are all in this file.
//!
//! A request is an organiser's when its cookie's id hashes to a stored session that is
//! neither idle past `ORGANISER_IDLE_MINUTES` nor older than `ORGANISER_SESSION_HOURS` (by
//! the state's clock), and whose address is still in `ORGANISER_EMAIL`. Anything else is
//! answered with the sign-in page's address (pages) or 404 (files, CSV): never data.

use std::time::Duration;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use cookie::{Cookie, SameSite};

use crate::base::client_ip::ClientIp;
use crate::base::secrets;
use crate::clock::stamp::timestamp;
use crate::error::AppError;
use crate::handlers::state::AppState;
use crate::repo::audit::{self, Actor, NewEntry};
use crate::repo::organisers as store;
use crate::repo::reviewers::{self, Reviewer};
use crate::sign_in::roles;
use crate::sign_in::roles::Role;

/// Where the organiser area starts: the sign-in page, or the dashboard once signed in.
pub const HOME: &str = "/organiser";

/// The cookie's name: with an https `PUBLIC_URL` the `__Host-` prefix, which browsers accept
/// only with `Secure`, `Path=/` and no `Domain` (RFC 6265bis section 4.1.3.2).
pub fn cookie_name(state: &AppState) -> &'static str {
    if is_https(state) { "__Host-organiser_session" } else { "organiser_session" }
}

fn is_https(state: &AppState) -> bool {
    state.config.is_https()
}

/// The `Set-Cookie` value that hands the browser session `id`: `HttpOnly`, `SameSite=Lax`,
/// `Path=/`, `Secure` with https; no `Max-Age`, so it ends with the browser too (the server
/// ends it on its own terms whatever the browser keeps).
pub fn session_cookie(state: &AppState, id: &str) -> HeaderValue {
    let cookie = Cookie::build((cookie_name(state), id.to_owned()))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(is_https(state))
        .build();
    HeaderValue::from_str(&cookie.to_string()).expect("a base64url session id is a valid header value")
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn cleared_cookie(state: &AppState) -> HeaderValue {
    let cookie = Cookie::build((cookie_name(state), ""))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(is_https(state))
        .max_age(time::Duration::ZERO)
        .build();
    HeaderValue::from_str(&cookie.to_string()).expect("an empty cookie is a valid header value")
}

/// A signed-in organiser.
#[derive(Debug, Clone)]
pub struct Organiser {
    pub email: String,
    /// The session's row.
    pub session: i64,
    /// The client address of this request, for the audit log.
    pub client: Option<String>,
}

impl Organiser {
    /// Who this organiser is to a domain function and the audit log.
    pub fn actor(&self) -> Actor {
        Actor { email: self.email.clone(), client: self.client.clone() }
    }

    /// An audit entry by this organiser, at `at`.
    pub fn entry<'a>(&'a self, at: &'a str, action: &'a str) -> NewEntry<'a> {
        NewEntry::new(at, &self.email, self.client.as_deref(), action)
    }

    /// Records this organiser's `action` on submission `reference` with `details`, in the
    /// transaction of the change (DESIGN.md section 12); it shows in the submission's history.
    pub async fn record_on_submission(
        &self,
        conn: &mut crate::db::Connection,
        at: &str,
        action: &str,
        reference: &str,
        details: serde_json::Value,
    ) -> Result<(), AppError> {
        let entry = NewEntry { details, ..self.entry(at, action).about("submission", reference) };
        audit::record(conn, &entry).await?;
        Ok(())
    }
}

/// The session id a request's `Cookie` lines carry under this site's cookie name.
fn session_id(parts: &Parts, name: &str) -> Option<String> {
    parts
        .headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|line| line.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|cookie| cookie.name() == name)
        .map(|cookie| cookie.value().to_owned())
        .filter(|id| secrets::is_well_formed(id))
}

/// How stale a session's `last_seen` may be before a request writes it again.
const TOUCH_EVERY: Duration = Duration::from_secs(60);

/// Whoever a request's session cookie names, in the role the session was started for
/// (DESIGN.md section 15: one sign-in for every role).
#[derive(Debug, Clone)]
pub struct Account {
    pub email: String,
    pub role: Role,
    /// The session's row.
    pub session: i64,
    /// The client address of this request, for the audit log.
    pub client: Option<String>,
    /// The reviewer's row, for a reviewer's session.
    pub reviewer: Option<Reviewer>,
}

impl Account {
    /// Who this person is to a domain function and the audit log.
    pub fn actor(&self) -> Actor {
        Actor { email: self.email.clone(), client: self.client.clone() }
    }

    /// An audit entry by this person, at `at`.
    pub fn entry<'a>(&'a self, at: &'a str, action: &'a str) -> NewEntry<'a> {
        NewEntry::new(at, &self.email, self.client.as_deref(), action)
    }
}

/// Whether `email` still holds `role`: listed in `ORGANISER_EMAIL`, or a reviewer who
/// accepted and was not removed (then their row).
pub async fn holds(state: &AppState, role: Role, email: &str) -> Result<Option<Option<Reviewer>>, AppError> {
    Ok(match role {
        Role::Organiser => roles::is_organiser(&state.config, email).then_some(None),
        Role::Reviewer => reviewers::accepted(&state.pool, email).await?.map(Some),
        Role::CheckIn => roles::is_desk_staff(&state.config, email).then_some(None),
    })
}

/// The person a request comes from, if any, in any role; ends (deletes) a session found
/// expired or whose address lost its role, and restarts the idle timer of a live one.
pub async fn account(parts: &Parts, state: &AppState) -> Result<Option<Account>, AppError> {
    let Some(id) = session_id(parts, cookie_name(state)) else { return Ok(None) };
    let Some(session) = store::find_session(&state.pool, &secrets::hash(&id)).await? else { return Ok(None) };
    let Some(role) = Role::parse(&session.role) else { return Ok(None) };
    let now = state.clock.now();
    let stamp = timestamp(now);
    let idle = Duration::from_secs(state.config.organiser_idle_minutes.max(1) * 60);
    let idle_since = timestamp(now - idle);
    let client = ClientIp::of(&parts.extensions).0.map(|ip| ip.to_string());
    let held = holds(state, role, &session.email).await?;
    if held.is_none() || session.expires <= stamp || session.last_seen <= idle_since {
        let mut tx = crate::db::begin_write(&state.pool).await?;
        if held.is_some() {
            store::delete_session(&mut tx, session.id).await?;
        } else {
            // Off the list: every session of the address in this role ends now, on every
            // instance.
            store::delete_role_sessions_of(&mut tx, &session.email, role.as_str()).await?;
            let reason = match role {
                Role::Organiser => "not in ORGANISER_EMAIL",
                Role::Reviewer => "not an accepted reviewer",
                Role::CheckIn => "not in CHECKIN_EMAIL",
            };
            let entry = NewEntry {
                details: serde_json::json!({ "reason": reason }),
                ..NewEntry::new(&stamp, audit::SYSTEM, client.as_deref(), "auth.access_removed")
                    .about(role.as_str(), &session.email)
            };
            audit::record(&mut tx, &entry).await?;
        }
        tx.commit().await?;
        return Ok(None);
    }
    // The idle timer restarts at most once a minute: a page's burst of requests (or several
    // tabs) would otherwise each write the same row, and on PostgreSQL wait for one another's
    // row lock. An idle session may so end up to a minute early, never late.
    if session.last_seen <= timestamp(now - TOUCH_EVERY) {
        store::touch_session(&state.pool, session.id, &stamp).await?;
    }
    let reviewer = held.flatten();
    Ok(Some(Account { email: session.email, role, session: session.id, client, reviewer }))
}

/// What a request's session is to the organiser area.
pub enum Access {
    /// No live session: the sign-in page.
    None,
    /// An organiser's session.
    Organiser(Organiser),
    /// A session of another role, which answers 404 here (DESIGN.md section 15).
    OtherRole,
}

/// The organiser a request comes from, if any (see [`account`]).
pub async fn authenticate(parts: &Parts, state: &AppState) -> Result<Access, AppError> {
    Ok(match account(parts, state).await? {
        None => Access::None,
        Some(Account { email, role: Role::Organiser, session, client, .. }) => {
            Access::Organiser(Organiser { email, session, client })
        }
        Some(_) => Access::OtherRole,
    })
}

/// 404 in the site's words: what a file, a CSV or another role's page answers.
pub fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not found").into_response()
}

/// A page for organisers only: without a session, a 303 to the sign-in page.
pub struct SignedIn(pub Organiser);

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match authenticate(parts, state).await {
            Ok(Access::Organiser(organiser)) => Ok(SignedIn(organiser)),
            Ok(Access::None) => Err(Redirect::to(HOME).into_response()),
            Ok(Access::OtherRole) => Err(not_found()),
            Err(err) => Err(err.into_response()),
        }
    }
}

/// A file or CSV for organisers only: without a session, 404 (a file's address reveals
/// nothing, and a download never lands on a sign-in page).
pub struct SignedInForFile(pub Organiser);

impl FromRequestParts<AppState> for SignedInForFile {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match authenticate(parts, state).await {
            Ok(Access::Organiser(organiser)) => Ok(SignedInForFile(organiser)),
            Ok(_) => Err(not_found()),
            Err(err) => Err(err.into_response()),
        }
    }
}
