//! Who is reviewing: the extractors of every `/review/...` route (DESIGN.md section 15).
//!
//! A reviewer's session (started at `/review/sign-in/<token>`) reaches this area; so does an
//! organiser's session whose address is also an accepted reviewer ("organisers may review
//! too"). Without a session a page redirects to the reviewers' sign-in page and a file
//! answers 404; a session of anyone else answers 404.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Redirect, Response};

use crate::error::AppError;
use crate::handlers::organiser::session::{self, Account};
use crate::handlers::state::AppState;
use crate::repo::audit::NewEntry;
use crate::repo::reviewers::{self, Reviewer};
use crate::sign_in::roles::Role;

/// Where the reviewers' area starts: the sign-in page, or the reviewer's papers.
pub const REVIEWER_HOME: &str = "/review";

/// A signed-in reviewer: the session and the reviewer's row.
#[derive(Debug, Clone)]
pub struct Reviewing {
    pub email: String,
    /// The session's row.
    pub session: i64,
    /// The session's role: `Reviewer`, or `Organiser` for an organiser who reviews.
    pub role: Role,
    pub client: Option<String>,
    pub reviewer: Reviewer,
}

impl Reviewing {
    /// An audit entry by this reviewer, at `at`.
    pub fn entry<'a>(&'a self, at: &'a str, action: &'a str) -> NewEntry<'a> {
        NewEntry::new(at, &self.email, self.client.as_deref(), action)
    }
}

/// What a request's session is to the reviewers' area.
pub enum Access {
    None,
    Reviewing(Box<Reviewing>),
    /// A live session that may not review: 404.
    Refused,
}

/// The reviewer a request comes from.
pub async fn authenticate(parts: &Parts, state: &AppState) -> Result<Access, AppError> {
    let Some(account) = session::account(parts, state).await? else { return Ok(Access::None) };
    let Account { email, role, session, client, reviewer } = account;
    let reviewer = match role {
        Role::Reviewer => reviewer,
        Role::Organiser => reviewers::accepted(&state.pool, &email).await?,
        Role::CheckIn => None,
    };
    Ok(match reviewer {
        Some(reviewer) => Access::Reviewing(Box::new(Reviewing { email, session, role, client, reviewer })),
        None => Access::Refused,
    })
}

/// A reviewer's page: without a session, a 303 to the reviewers' sign-in page.
pub struct SignedInReviewer(pub Reviewing);

impl FromRequestParts<AppState> for SignedInReviewer {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match authenticate(parts, state).await {
            Ok(Access::Reviewing(reviewing)) => Ok(SignedInReviewer(*reviewing)),
            Ok(Access::None) => Err(Redirect::to(REVIEWER_HOME).into_response()),
            Ok(Access::Refused) => Err(session::not_found()),
            Err(err) => Err(err.into_response()),
        }
    }
}

/// A reviewer's file: without a session, 404.
pub struct SignedInReviewerForFile(pub Reviewing);

impl FromRequestParts<AppState> for SignedInReviewerForFile {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match authenticate(parts, state).await {
            Ok(Access::Reviewing(reviewing)) => Ok(SignedInReviewerForFile(*reviewing)),
            Ok(_) => Err(session::not_found()),
            Err(err) => Err(err.into_response()),
        }
    }
}
