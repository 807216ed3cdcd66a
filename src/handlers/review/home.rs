//! `/review`: the reviewers' sign-in page without a session, the reviewer's papers with one;
//! signing in and out by the shared mechanism (`crate::handlers::organiser::sign_in`).

use axum::Form;
use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::session::{self, Access, Reviewing, SignedInReviewer};
use crate::base::client_ip::ClientIp;
use crate::error::AppError;
use crate::handlers::organiser::sign_in::{self, SignInForm, client_of, layout};
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::repo::audit::Actor;
use crate::repo::{reviewers, reviews};
use crate::review::reviewing::Deadline;
use crate::sign_in::roles::Role;
use crate::sign_in::sessions;
use crate::views::review::home::{HomePage, PaperLine};
use crate::views::review::shared::done_notice;

/// GET `/review`.
pub async fn home(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    let (parts, _) = request.into_parts();
    let done = parts.uri.query().and_then(|query| {
        url::form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == "done").map(|(_, v)| v.into_owned())
    });
    let reviewing = match session::authenticate(&parts, &state).await? {
        Access::Reviewing(reviewing) => reviewing,
        Access::None => {
            return sign_in::sign_in_page(&state, Role::Reviewer, StatusCode::OK, None, None, String::new()).await;
        }
        Access::Refused => return Ok(crate::handlers::organiser::session::not_found()),
    };
    page(&state, *reviewing, done.as_deref()).await
}

async fn page(state: &AppState, reviewing: Reviewing, done: Option<&str>) -> Result<Response, AppError> {
    let settings = reviewers::settings(&state.pool).await?;
    let zone = state.content.snapshot().await.zone.clone();
    let deadline = Deadline::of(settings.review_deadline.as_deref(), &zone);
    let papers: Vec<PaperLine> =
        reviews::my_papers(&state.pool, reviewing.reviewer.id).await?.into_iter().map(PaperLine::of).collect();
    let page = HomePage {
        layout: layout(state, "Reviewing", session::REVIEWER_HOME).await?,
        name: reviewing.reviewer.name,
        email: reviewing.email,
        notice: done_notice(done),
        deadline_passed: deadline.as_ref().is_some_and(|d| d.passed(state.clock.now())),
        deadline_words: deadline
            .as_ref()
            .filter(|d| !d.passed(state.clock.now()))
            .map(|d| crate::calendar::deadline::words(d.at, state.clock.now())),
        deadline: deadline.map(|d| (d.label(), d.iso())),
        hides_authors: settings.hides_authors(),
        submitted: papers.iter().filter(|p| p.state == "Submitted").count(),
        papers,
    };
    render(StatusCode::OK, &page)
}

/// POST `/review/sign-in`.
pub async fn request_link(
    State(state): State<AppState>,
    client: Option<axum::Extension<ClientIp>>,
    Form(form): Form<SignInForm>,
) -> Result<Response, AppError> {
    sign_in::request_link_as(&state, Role::Reviewer, client_of(client), form).await
}

/// GET `/review/sign-in/{token}`.
pub async fn confirm_page(State(state): State<AppState>, Path(token): Path<String>) -> Result<Response, AppError> {
    sign_in::confirm_page_as(&state, Role::Reviewer, &token).await
}

/// POST `/review/sign-in/{token}`.
pub async fn sign_in(
    State(state): State<AppState>,
    client: Option<axum::Extension<ClientIp>>,
    Path(token): Path<String>,
) -> Result<Response, AppError> {
    sign_in::sign_in_as(&state, Role::Reviewer, client_of(client), &token).await
}

/// POST `/review/sign-out`: ends this session (an organiser who reviews is signed out of
/// both areas, as they share the session; `crate::sign_in::sessions::sign_out`).
pub async fn sign_out(
    State(state): State<AppState>,
    SignedInReviewer(reviewing): SignedInReviewer,
) -> Result<Response, AppError> {
    let actor = Actor { email: reviewing.email.clone(), client: reviewing.client.clone() };
    sessions::sign_out(&state.pool, state.clock.now(), &actor, reviewing.session).await?;
    sign_in::signed_out(&state, Role::Reviewer)
}
