//! One paper as its reviewer works on it (issue 32 items 5 and 6, DESIGN.md section 15):
//! `/review/papers/{code}` (the paper by its review code, the review form, the other reviews
//! once this reviewer submitted, the discussion, "I have a conflict"), its file, and the
//! form posts.
//!
//! Access: only a paper released to this reviewer and not conflicted
//! (`crate::repo::reviews::assigned_paper`). Anything else (an unknown or made-up code, a
//! paper of someone else, staged, withdrawn or conflicted) answers exactly what an unknown
//! address answers, 404 with no hint, and is recorded in the audit log as
//! `review.access_refused` with the path asked for.
//!
//! After the deadline every change to a review answers 409 Conflict (the request is sound,
//! but the review's state no longer allows it) with the page and its reason; so does a form
//! drawn from a review that changed since (stale). Field errors answer 422 with the form as
//! it was sent.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Response;
use serde::Deserialize;

use super::session::{Reviewing, SignedInReviewer, SignedInReviewerForFile};
use crate::clock::stamp::timestamp;
use crate::error::{AppError, Outcome, Refused};
use crate::handlers::organiser::download;
use crate::handlers::organiser::form::{fields, one};
use crate::handlers::organiser::session as organiser_session;
use crate::handlers::organiser::sign_in::layout;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::repo::audit::Actor;
use crate::repo::reviews::AssignedPaper;
use crate::review::form::Sent;
use crate::review::paper_view::paper_view;
use crate::review::reviewing::{self, SaveAction, Saved};
use crate::views::review::papers::{PaperPage, Typed};
use crate::views::review::shared::{done_notice, paper_href, scores_of};

/// The routes of this module.
pub const PAPER: &str = "/review/papers/{code}";
pub const PAPER_FILE: &str = "/review/papers/{code}/paper";
pub const REVIEW: &str = "/review/papers/{code}/review";
pub const COMMENTS: &str = "/review/papers/{code}/comments";
pub const CONFLICT: &str = "/review/papers/{code}/conflict";

/// The page's notice after a redirect (`?done=`).
#[derive(Debug, Deserialize)]
pub struct Done {
    done: Option<String>,
}

fn actor(reviewing: &Reviewing) -> Actor {
    Actor { email: reviewing.email.clone(), client: reviewing.client.clone() }
}

/// The paper `code` if this reviewer may see it ([`reviewing::open`]: a refusal is audited
/// and answers the site's own 404 page, the same for every refusal).
async fn assigned(state: &AppState, reviewing: &Reviewing, code: &str, uri: &Uri) -> Outcome<AssignedPaper> {
    let (now, actor) = (state.clock.now(), actor(reviewing));
    reviewing::open(&state.pool, now, &actor, reviewing.reviewer.id, code, uri.path()).await
}

/// Draws the page of `paper` for its reviewer.
async fn page(
    state: &AppState,
    paper: &AssignedPaper,
    status: StatusCode,
    notice: Option<&'static str>,
    problem: Option<String>,
    typed: Option<Typed>,
) -> Result<Response, AppError> {
    let zone = state.content.snapshot().await.zone.clone();
    let now = state.clock.now();
    let view = paper_view(&state.pool, now, &zone, paper).await?;
    let title = format!("Review {}", paper.review_code);
    let layout = layout(state, &title, &paper_href(&paper.review_code)).await?;
    let mut page = PaperPage::of(layout, paper, view, &zone, now, file_name(paper), typed);
    page.notice = notice;
    page.problem = problem;
    render(status, &page)
}

/// The download's name: `<review code>.<ext>` (codes are the server's own `R-XXXXXX`; any
/// other character never reaches the header).
fn file_name(paper: &AssignedPaper) -> String {
    let code = if paper.review_code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        paper.review_code.as_str()
    } else {
        "paper"
    };
    format!("{code}.{}", download::stored_extension(&paper.file_path))
}

/// GET `/review/papers/{code}`.
pub async fn paper(
    State(state): State<AppState>,
    SignedInReviewer(reviewing): SignedInReviewer,
    Path(code): Path<String>,
    Query(done): Query<Done>,
    uri: Uri,
) -> Result<Response, AppError> {
    let paper = assigned(&state, &reviewing, &code, &uri).await?;
    let notice = done_notice(done.done.as_deref());
    page(&state, &paper, StatusCode::OK, notice, None, None).await
}

/// GET `/review/papers/{code}/paper`: the file as an attachment `<review code>.<ext>`, as
/// the organisers' download serves it (`download::paper`: byte ranges on SQLite, the
/// database's chunks on PostgreSQL); audited as `paper.downloaded`.
pub async fn paper_file(
    State(state): State<AppState>,
    SignedInReviewerForFile(reviewing): SignedInReviewerForFile,
    Path(code): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let paper = match assigned(&state, &reviewing, &code, &uri).await {
        Ok(paper) => paper,
        Err(Refused::NotFound(_)) => return Ok(organiser_session::not_found()),
        Err(other) => return Err(other.into()),
    };
    let Some(mut response) = download::paper(&state, paper.submission_id, &paper.file_path, &headers).await? else {
        return Ok(organiser_session::not_found());
    };
    let at = timestamp(state.clock.now());
    let entry = crate::repo::audit::NewEntry {
        details: serde_json::json!({ "review_code": paper.review_code, "reviewer": paper.reviewer_number }),
        ..reviewing.entry(&at, "paper.downloaded").about("submission", &paper.reference)
    };
    download::record(&state, &entry).await?;
    download::name_attachment(&mut response, &paper.file_type, &file_name(&paper));
    Ok(response)
}

/// POST `/review/papers/{code}/review`: `version` (the form's, [`reviewing::version`]),
/// `action` (`draft` or `submit`), `score-<key>` per criterion, `recommendation`,
/// `confidence`, `comments_to_authors`, `confidential_comments`. 303 back to the page on
/// success; 422 with field errors; 409 after the deadline or from a stale form.
pub async fn save_review(
    State(state): State<AppState>,
    SignedInReviewer(reviewing): SignedInReviewer,
    Path(code): Path<String>,
    uri: Uri,
    body: Bytes,
) -> Result<Response, AppError> {
    let paper = assigned(&state, &reviewing, &code, &uri).await?;
    let fields = fields(&body);
    let version = one(&fields, "version")?.to_owned();
    let action = match one(&fields, "action")? {
        "draft" => SaveAction::Draft,
        "submit" => SaveAction::Submit,
        other => {
            return Err(AppError::BadRequest(format!(
                "\"{}\" is not something this form does: use \"Save draft\" or \"Submit review\".",
                other.chars().take(40).collect::<String>()
            )));
        }
    };
    let text = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default();
    let sent = Sent {
        scores: scores_of(&fields),
        recommendation: text("recommendation"),
        confidence: text("confidence"),
        comments_to_authors: text("comments_to_authors"),
        confidential_comments: text("confidential_comments"),
    };
    let zone = state.content.snapshot().await.zone.clone();
    let (now, actor) = (state.clock.now(), actor(&reviewing));
    match reviewing::save(&state.pool, now, &actor, &zone, &paper, &sent, action, &version).await {
        Ok(saved) => {
            let done = match saved {
                Saved::Draft => "draft",
                Saved::Submitted => "submitted",
                Saved::Edited => "edited",
            };
            Ok(see_other(&format!("{}?done={done}#review", paper_href(&paper.review_code))))
        }
        Err(Refused::Invalid { message, errors }) => {
            let typed = Typed::Review { sent, errors };
            page(&state, &paper, StatusCode::UNPROCESSABLE_ENTITY, None, Some(message), Some(typed)).await
        }
        Err(Refused::NotAllowed(problem) | Refused::Stale(problem)) => {
            page(&state, &paper, StatusCode::CONFLICT, None, Some(problem), None).await
        }
        Err(other) => Err(other.into()),
    }
}

/// POST `/review/papers/{code}/comments`: `body`, a message to the paper's discussion.
pub async fn comment(
    State(state): State<AppState>,
    SignedInReviewer(reviewing): SignedInReviewer,
    Path(code): Path<String>,
    uri: Uri,
    body: Bytes,
) -> Result<Response, AppError> {
    let paper = assigned(&state, &reviewing, &code, &uri).await?;
    let fields = fields(&body);
    let typed = one(&fields, "body")?.to_owned();
    match reviewing::comment(&state.pool, state.clock.now(), &actor(&reviewing), &paper, &typed).await {
        Ok(_) => Ok(see_other(&format!("{}?done=comment#discussion", paper_href(&paper.review_code)))),
        Err(Refused::Invalid { message, mut errors }) => {
            let typed = Typed::Comment { body: typed, error: errors.remove("body").unwrap_or_default() };
            page(&state, &paper, StatusCode::UNPROCESSABLE_ENTITY, None, Some(message), Some(typed)).await
        }
        Err(other) => Err(other.into()),
    }
}

/// POST `/review/papers/{code}/conflict` (`confirm=yes`, the box ticked): "I have a
/// conflict". The paper leaves this reviewer's list at once and every address of it answers
/// 404 from then on ([`reviewing::declare_conflict`]). Without the confirmation, the paper's
/// page again (422), changed in nothing, saying so.
pub async fn conflict(
    State(state): State<AppState>,
    SignedInReviewer(reviewing): SignedInReviewer,
    Path(code): Path<String>,
    uri: Uri,
    body: Bytes,
) -> Result<Response, AppError> {
    let paper = assigned(&state, &reviewing, &code, &uri).await?;
    let confirmed = fields(&body).iter().any(|(k, v)| k == "confirm" && v == "yes");
    match reviewing::declare_conflict(&state.pool, state.clock.now(), &actor(&reviewing), &paper, confirmed).await {
        Ok(_) => Ok(see_other(&format!("{}?done=conflict", super::session::REVIEWER_HOME))),
        Err(Refused::Invalid { message, .. }) => {
            page(&state, &paper, StatusCode::UNPROCESSABLE_ENTITY, None, Some(message), None).await
        }
        Err(other) => Err(other.into()),
    }
}
