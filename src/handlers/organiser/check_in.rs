//! The check-in desk, `/organiser/check-in` (issue 33 item 3, DESIGN.md section 16): for
//! organisers and for desk staff (`CHECKIN_EMAIL`, signed in by the same mailed link under
//! `/organiser/check-in/sign-in`). A desk session reaches these routes only; anywhere else it
//! answers as another role's session does (404).
//!
//! - `GET /organiser/check-in`: the sign-in page without a session; with one, the desk: the
//!   camera scanner (island `CheckInDesk`), the typed-code form, and with `?q=` the tickets
//!   whose holder's name contains it or whose order id it is, each with a check-in button.
//! - `POST /organiser/check-in` (field `code`: a code or the QR's whole address): one answer
//!   of valid / already / refunded / unknown / not today ([`crate::attendance::check_in`]).
//!   A form POST gets the page again with the answer (no JavaScript needed); a JSON POST (the
//!   island) gets the answer as JSON. One handler for both, so they cannot drift apart.
//! - `GET /organiser/check-in.csv`: every check-in, organisers only.

use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, Json};
use serde::Deserialize;

use super::download::{self, CsvList};
use super::session::{self, Account, SignedInForFile};
use super::sign_in::{self, SignInForm, client_of, layout};
use crate::attendance::check_in::{self as desk, FIELD_MAX_CHARS};
use crate::base::client_ip::ClientIp;
use crate::error::{AppError, Refused};
use crate::export::SafeWriter;
use crate::handlers::render::html;
use crate::handlers::state::AppState;
use crate::repo::check_ins;
use crate::repo::organisers as store;
use crate::sign_in::roles::Role;
use crate::views::organiser::check_in::{DeskPage, IslandProps, Shown, found_line, shown};

/// The desk's address, desk staff's home
/// ([`crate::sign_in::roles::CHECK_IN_HOME`], the same address).
pub const PATH: &str = "/organiser/check-in";
/// The check-ins' CSV.
pub const CSV: &str = "/organiser/check-in.csv";
/// Desk staff's sign-in form.
pub const SIGN_IN: &str = "/organiser/check-in/sign-in";
/// Desk staff's mailed link.
pub const SIGN_IN_LINK: &str = "/organiser/check-in/sign-in/{token}";
/// Ends the desk's session.
pub const SIGN_OUT: &str = "/organiser/check-in/sign-out";

/// The page may use the camera, on this origin only: every other page keeps the site-wide
/// `camera=()` (`crate::http::security`).
const PERMISSIONS: &str = "camera=(self), microphone=(), geolocation=(), interest-cohort=()";

/// Who is at the desk: an organiser or desk staff.
enum Access {
    None,
    Desk(Box<Account>),
    Refused,
}

async fn access(parts: &axum::http::request::Parts, state: &AppState) -> Result<Access, AppError> {
    Ok(match session::account(parts, state).await? {
        None => Access::None,
        Some(account) if matches!(account.role, Role::Organiser | Role::CheckIn) => Access::Desk(Box::new(account)),
        Some(_) => Access::Refused,
    })
}

/// The page with `shown` or `error`, as `status`.
#[allow(clippy::too_many_arguments)]
async fn desk_page(
    state: &AppState,
    account: &Account,
    status: StatusCode,
    shown: Option<Shown>,
    error: Option<String>,
    code: String,
    query: String,
) -> Result<Response, AppError> {
    let (zone, start, end) = event(state).await;
    let now = state.clock.now();
    let day = desk::desk_day(&state.pool, now, &zone, &state.config.checkin_days, (&start, &end), &query).await?;
    let page = DeskPage {
        layout: layout(state, "Check-in desk", PATH).await?,
        organiser: account.role == Role::Organiser,
        email: account.email.clone(),
        today: day.today,
        open: day.open,
        days: day.days,
        found: day.found.map(|rows| rows.into_iter().map(|f| found_line(f, &zone)).collect()),
        zone: zone.name.clone(),
        props: IslandProps { action: PATH, shown: shown.clone() },
        shown,
        error,
        code,
        query,
        field_max: FIELD_MAX_CHARS,
    };
    let mut response = crate::handlers::render::html_response(status, html(&page)?);
    response.headers_mut().insert("permissions-policy", HeaderValue::from_static(PERMISSIONS));
    Ok(response)
}

/// The event's zone and the conference's first and last days (`YYYY-MM-DD`; empty without a
/// seeded site, which keeps check-in closed unless `CHECKIN_DAYS` opens it).
async fn event(state: &AppState) -> (crate::clock::zone::Zone, String, String) {
    let snapshot = state.content.snapshot().await;
    let days = snapshot.site.as_ref().map(|s| (s.start_date.clone(), s.end_date.clone())).unwrap_or_default();
    (snapshot.zone.clone(), days.0, days.1)
}

/// The query's `q`.
fn query_of(parts: &axum::http::request::Parts) -> String {
    parts
        .uri
        .query()
        .and_then(|q| url::form_urlencoded::parse(q.as_bytes()).find(|(k, _)| k == "q").map(|(_, v)| v.into_owned()))
        .map(|q| q.chars().take(FIELD_MAX_CHARS).collect())
        .unwrap_or_default()
}

/// GET `/organiser/check-in`.
pub async fn show(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    let (parts, _) = request.into_parts();
    match access(&parts, &state).await? {
        Access::None => sign_in::sign_in_page(&state, Role::CheckIn, StatusCode::OK, None, None, String::new()).await,
        Access::Refused => Ok(session::not_found()),
        Access::Desk(account) => {
            desk_page(&state, &account, StatusCode::OK, None, None, String::new(), query_of(&parts)).await
        }
    }
}

/// The code field, as a form or JSON sends it.
#[derive(Debug, Deserialize)]
pub struct CodeBody {
    #[serde(default)]
    pub code: String,
}

fn is_json(request: &Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("application/json"))
}

/// What a desk over its scans a second reads (issue 40 item 3).
pub const TOO_MANY_SCANS: &str = "Too many scans from this desk at once. Wait a moment, then scan again.";

/// 429 with `Retry-After` (whole seconds, at least 1, RFC 9110 section 10.2.3): JSON for the
/// island, the desk page with the message for a form.
async fn too_many_scans(state: &AppState, account: &Account, json: bool, wait_ms: u64) -> Result<Response, AppError> {
    let status = StatusCode::TOO_MANY_REQUESTS;
    let mut response = if json {
        let body = crate::error::ErrorBody { message: TOO_MANY_SCANS.into(), errors: Default::default() };
        (status, Json(body)).into_response()
    } else {
        desk_page(state, account, status, None, Some(TOO_MANY_SCANS.into()), String::new(), String::new()).await?
    };
    let seconds = wait_ms.div_ceil(1000).max(1);
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    Ok(response)
}

/// POST `/organiser/check-in`: a form (the page again, with the answer) or JSON (the answer).
pub async fn check(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    let json = is_json(&request);
    let (parts, body) = request.into_parts();
    let account = match access(&parts, &state).await? {
        Access::Desk(account) => account,
        Access::Refused => return Ok(session::not_found()),
        Access::None if json => {
            let body = crate::error::ErrorBody {
                message: "Your session ended. Please sign in again.".into(),
                errors: Default::default(),
            };
            return Ok((StatusCode::UNAUTHORIZED, Json(body)).into_response());
        }
        Access::None => return Ok(Redirect::to(PATH).into_response()),
    };
    // Before the body is read: a refused scan costs a session lookup and nothing else.
    if let Err(wait_ms) = state.desk_limit.check(account.session) {
        tracing::warn!(email = %account.email, "check-in desk over its scans a second");
        return too_many_scans(&state, &account, json, wait_ms).await;
    }
    let request = Request::from_parts(parts, body);
    let code = if json {
        match Json::<CodeBody>::from_request(request, &state).await {
            Ok(Json(body)) => body.code,
            Err(rejection) => {
                return Ok(crate::error::ApiError(AppError::BadRequest(rejection.body_text())).into_response());
            }
        }
    } else {
        match Form::<CodeBody>::from_request(request, &state).await {
            Ok(Form(body)) => body.code,
            Err(rejection) => return Err(AppError::BadRequest(rejection.body_text())),
        }
    };
    let (zone, start, end) = event(&state).await;
    let days = &state.config.checkin_days;
    let (now, base_url) = (state.clock.now(), state.config.base_url());
    let answer = desk::check_in(&state.pool, &code, base_url, &account.actor(), now, &zone, days, (&start, &end)).await;
    let answer = match answer {
        Ok(answer) => answer,
        Err(invalid @ Refused::Invalid { .. }) if json => {
            return Ok(crate::error::ApiError(invalid.into()).into_response());
        }
        Err(Refused::Invalid { message, .. }) => {
            let code = code.chars().take(FIELD_MAX_CHARS).collect();
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            return desk_page(&state, &account, status, None, Some(message), code, String::new()).await;
        }
        Err(refused) => return Err(refused.into()),
    };
    let shown = shown(&answer, &zone, &desk::open_days(days, &start, &end));
    if json {
        return Ok(Json(shown).into_response());
    }
    desk_page(&state, &account, StatusCode::OK, Some(shown), None, String::new(), String::new()).await
}

/// GET `/organiser/check-in.csv`: every check-in (day, time, desk, order, name, type, mode),
/// organisers only, audited as `export.csv` of the list `check-ins`.
pub async fn csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
) -> Result<Response, AppError> {
    let list = CsvList {
        list: "check-ins",
        header: &["day", "checked_in_at", "checked_by", "order_id", "name", "ticket_type", "mode"],
        rows: check_ins::stream,
        write: write_row,
    };
    download::csv(&state, &organiser, list, (), serde_json::json!({})).await
}

fn write_row(out: &mut SafeWriter<Vec<u8>>, r: check_ins::Record) -> ::csv::Result<()> {
    out.write_record([&r.day, &r.at, &r.checked_by, &r.order_id, &r.holder_name, &r.ticket_type, &r.mode])
}

/// POST `/organiser/check-in/sign-in`.
pub async fn request_link(
    State(state): State<AppState>,
    client: Option<axum::Extension<ClientIp>>,
    Form(form): Form<SignInForm>,
) -> Result<Response, AppError> {
    sign_in::request_link_as(&state, Role::CheckIn, client_of(client), form).await
}

/// GET `/organiser/check-in/sign-in/{token}`.
pub async fn confirm_page(State(state): State<AppState>, Path(token): Path<String>) -> Result<Response, AppError> {
    sign_in::confirm_page_as(&state, Role::CheckIn, &token).await
}

/// POST `/organiser/check-in/sign-in/{token}`.
pub async fn sign_in(
    State(state): State<AppState>,
    client: Option<axum::Extension<ClientIp>>,
    Path(token): Path<String>,
) -> Result<Response, AppError> {
    sign_in::sign_in_as(&state, Role::CheckIn, client_of(client), &token).await
}

/// POST `/organiser/check-in/sign-out`: ends this session, an organiser's or the desk's.
pub async fn sign_out(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    let (parts, _) = request.into_parts();
    let account = match access(&parts, &state).await? {
        Access::Desk(account) => account,
        Access::None => return Ok(Redirect::to(PATH).into_response()),
        Access::Refused => return Ok(session::not_found()),
    };
    let stamp = crate::clock::stamp::timestamp(state.clock.now());
    let mut tx = crate::db::begin_write(&state.pool).await?;
    store::delete_session(&mut tx, account.session).await?;
    crate::repo::audit::record(&mut tx, &account.entry(&stamp, "auth.signed_out")).await?;
    tx.commit().await?;
    sign_in::signed_out(&state, Role::CheckIn)
}
