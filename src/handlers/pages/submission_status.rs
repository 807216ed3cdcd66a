//! The author's status page (issue 21, DESIGN.md section 12 "Decisions"): the private link
//! `/submission/status/<token>` of the acknowledgement and decision mails shows one
//! submission's reference, title, paper type, time received and state (a pending decision
//! shows as `submitted`), and lets the author withdraw it before a decision is applied.
//!
//! The token is the only key: 32 random bytes, base64url, stored as SHA-256
//! (`crate::base::secrets::Secret`). An unknown or malformed token is 404 with nothing about any
//! submission. The answers are `noindex`, never cached (`crate::http::cache_control`, and
//! never kept by the page cache, so never served by its fast path) and `Referrer-Policy:
//! no-referrer`, so the link never leaves in a `Referer`. The withdrawal is a same-origin
//! POST (`crate::http::guard`, as for organisers) and is written to the audit log with the
//! change, in the same transaction, which is how organisers see it.
//!
//! The withdrawal asks once (issue 30 item 6.6), without JavaScript: the page's button POSTs
//! to the withdrawal without `confirm`, which only answers the question "Withdraw this paper?
//! This cannot be undone" with a button that POSTs `confirm=yes`; only that withdraws. Any
//! other `confirm` is a 400 that changes nothing.
//!
//! An accepted paper (issue 31 item 6) also shows where the latest published programme put it
//! (session, day and time in event time with the zone named, room, mode, its talk page and
//! `.ics`; when the author's browser reads another UTC offset, the `ZoneSwitch` island in its
//! line mode adds the time in their own zone under the event time) and, until organisers
//! lock the programme, a form that sets its public abstract (at most 300 words,
//! `crate::programme::abstracts`) and its presenter among its authors. That
//! POST ([`PROGRAMME_PATH`]) has the withdrawal's protections, carries the submission's
//! version (a page drawn before another change is a 409 that stores nothing, as for
//! decisions) and is in the audit log as `programme.paper_edited` by `author`.

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::Response;

use crate::decisions::authors::{self as domain, ReviewerComments, author, public_state};
use crate::error::{AppError, Refused};
use crate::handlers::render::{html, html_response, see_other};
use crate::handlers::state::AppState;
use crate::programme::abstracts;
use crate::programme::authors::{self as public, PublicForm};
use crate::repo::submissions::Submission;
use crate::review::for_authors;
use crate::submissions::status_link::STATUS_PREFIX;
use crate::views::layout::{Layout, Meta};
use crate::views::pages::submission_status::{
    InProgramme, NOT_FOUND, Posted, PublicDetails, Shown, heading, in_programme,
};

/// The route of the page.
pub const PATH: &str = "/submission/status/{token}";
/// The route of the withdrawal.
pub const WITHDRAW_PATH: &str = "/submission/status/{token}/withdraw";
/// The route of the public abstract and presenter form (issue 31 item 6).
pub const PROGRAMME_PATH: &str = "/submission/status/{token}/programme";

/// The author's status page as drawn (`templates/pages/submission_status.html`); here rather
/// than in `crate::views`, which would otherwise name `crate::decisions` (the reviewers'
/// comments) and stand a floor above it.
#[derive(Template)]
#[template(path = "pages/submission_status.html")]
struct StatusPage {
    layout: Layout,
    heading: &'static str,
    notice: Option<String>,
    submission: Option<Shown>,
    /// An accepted paper's place in the latest published programme.
    programme: Option<InProgramme>,
    /// An accepted paper's public abstract and presenter.
    details: Option<PublicDetails>,
    /// The reviewers' comments once a decision is applied (issue 32 item 8).
    reviews: Option<Vec<ReviewerComments>>,
    /// What the page says when the reviewers wrote nothing to the authors.
    no_comments: &'static str,
    max_words: usize,
    max_chars: usize,
    withdraw_action: Option<String>,
    /// The withdrawal's question is asked: the page is the confirmation step.
    asking: bool,
    /// The status page's own address (the confirmation's way back).
    path: String,
    message: &'static str,
}

/// The page for `token`'s submission (or the 404 page), with the headers every answer of a
/// private link carries.
pub async fn page(
    state: &AppState,
    token: &str,
    found: Option<Submission>,
    status: StatusCode,
    notice: Option<&str>,
) -> Result<Response, AppError> {
    answer(state, token, found, status, notice, false, None).await
}

/// The 404 of a token that opens no submission (the camera-ready step's too).
pub async fn unknown(state: &AppState, token: &str) -> Result<Response, AppError> {
    page(state, token, None, StatusCode::NOT_FOUND, None).await
}

/// [`page`], or with `asking` the withdrawal's confirmation step, or with `posted` the public
/// details' form as the author filled it.
async fn answer(
    state: &AppState,
    token: &str,
    found: Option<Submission>,
    status: StatusCode,
    notice: Option<&str>,
    asking: bool,
    posted: Option<Posted>,
) -> Result<Response, AppError> {
    let path = format!("{STATUS_PREFIX}{token}");
    let snapshot = state.content.snapshot().await;
    let layout = Layout::new(&state.page_ctx(&snapshot), |site| {
        Meta::new(format!("Your submission | {}", site.short_name), "The status of your paper submission.", &path)
            .noindex()
    })?;
    let accepted = found.as_ref().filter(|s| s.state == "accepted");
    let programme = accepted.and_then(|s| in_programme(&snapshot, s.id));
    let details = match accepted {
        Some(s) => Some(public_details(&state.pool, s, &path, posted).await?),
        None => None,
    };
    let reviews = match &found {
        Some(s) => domain::reviewer_comments(&state.pool, s).await?,
        None => None,
    };
    let withdraw_action = found.as_ref().filter(|s| s.state == "submitted").map(|_| format!("{path}/withdraw"));
    let submission = found.map(|s| {
        let state = public_state(&s);
        Shown::of(s, state)
    });
    let asking = asking && withdraw_action.is_some();
    let heading = heading(submission.is_some(), asking);
    let view = StatusPage {
        layout,
        heading,
        notice: notice.map(str::to_owned),
        submission,
        programme,
        details,
        reviews,
        no_comments: for_authors::NO_COMMENTS,
        max_words: abstracts::ABSTRACT_MAX_WORDS,
        max_chars: abstracts::ABSTRACT_MAX_CHARS,
        withdraw_action,
        asking,
        path,
        message: NOT_FOUND,
    };
    let mut response = html_response(status, html(&view)?);
    let headers = response.headers_mut();
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(HeaderName::from_static("x-robots-tag"), HeaderValue::from_static("noindex"));
    Ok(response)
}

/// An accepted paper's public abstract and presenter as stored (or as `posted`), with its
/// authors to choose from and the form while the programme is not locked.
async fn public_details(
    pool: &crate::db::Pool,
    s: &Submission,
    path: &str,
    posted: Option<Posted>,
) -> Result<PublicDetails, AppError> {
    let stored = public::public_details(pool, s).await?;
    Ok(PublicDetails::of(stored, s.version, path, posted))
}

/// The submission a token opens; `None` for a malformed or unknown one.
async fn find(state: &AppState, token: &str) -> Result<Option<Submission>, AppError> {
    Ok(domain::by_token(&state.pool, token).await?)
}

/// What the page says after the public details were saved (`?saved=1`, the POST's 303).
const SAVED: &str = "Your talk's public abstract and presenter are saved.";

/// GET `/submission/status/{token}`; `?saved=1` adds the notice that the public details were
/// saved (any other query is ignored).
pub async fn show(
    State(state): State<AppState>,
    Path(token): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, AppError> {
    let found = find(&state, &token).await?;
    let status = if found.is_some() { StatusCode::OK } else { StatusCode::NOT_FOUND };
    let saved = found.is_some() && query.as_deref() == Some("saved=1");
    page(&state, &token, found, status, saved.then_some(SAVED)).await
}

/// What the withdrawal's form says: `None` (the first step: ask), `Some(())` (`confirm=yes`:
/// withdraw), or a 400's message.
fn confirmed(body: &Bytes) -> Result<Option<()>, &'static str> {
    let values: Vec<String> = url::form_urlencoded::parse(body)
        .filter(|(name, _)| name == "confirm")
        .map(|(_, value)| value.trim().to_owned())
        .collect();
    match values.as_slice() {
        [] => Ok(None),
        [yes] if yes == "yes" => Ok(Some(())),
        [_] => Err(
            "The confirmation was not understood, so nothing was changed. To withdraw, answer \"Withdraw this paper\" on this page.",
        ),
        _ => Err(
            "The confirmation is given more than once, so nothing was changed. To withdraw, answer \"Withdraw this paper\" on this page.",
        ),
    }
}

/// POST `/submission/status/{token}/withdraw`: without `confirm`, the question (nothing
/// changes); with `confirm=yes`, withdraws the submission while no decision is applied (a
/// pending one goes with it); 409 once one is.
pub async fn withdraw(
    State(state): State<AppState>,
    Path(token): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let Some(s) = find(&state, &token).await? else {
        return page(&state, &token, None, StatusCode::NOT_FOUND, None).await;
    };
    let confirmed = match confirmed(&body) {
        Ok(confirmed) => confirmed,
        Err(message) => {
            return answer(&state, &token, Some(s), StatusCode::BAD_REQUEST, Some(message), false, None).await;
        }
    };
    if confirmed.is_none() && s.state == "submitted" {
        return answer(&state, &token, Some(s), StatusCode::OK, None, true, None).await;
    }
    match domain::withdraw(&state.pool, state.clock.now(), &author(), &s).await {
        Ok(_) => Ok(see_other(&format!("{STATUS_PREFIX}{token}"))),
        Err(Refused::NotAllowed(notice)) => {
            let current = find(&state, &token).await?;
            page(&state, &token, current, StatusCode::CONFLICT, Some(&notice)).await
        }
        Err(other) => Err(other.into()),
    }
}

/// POST `/submission/status/{token}/programme`: sets an accepted paper's public abstract (at
/// most 300 words) and presenter (one of its authors) while the programme is not locked.
///
/// 404 for an unknown token; 400 with the message for a bad form (nothing stored, what was
/// typed shown again); 409 when the paper is not accepted, the programme is locked, or the
/// page was drawn before another change to the submission (its `version`). On success the
/// change is in the audit log (`programme.paper_edited`, actor `author`) and the answer is a
/// 303 back to the status page, which says it was saved.
pub async fn set_public(
    State(state): State<AppState>,
    Path(token): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let Some(s) = find(&state, &token).await? else {
        return page(&state, &token, None, StatusCode::NOT_FOUND, None).await;
    };
    let form = match PublicForm::read(url::form_urlencoded::parse(&body)) {
        Ok(form) => form,
        Err(message) => {
            // A closed form says so before a badly made one does.
            let (status, notice) = match public::public_details_open(&state.pool, &s).await {
                Err(Refused::NotAllowed(notice)) => (StatusCode::CONFLICT, notice),
                Err(other) => return Err(other.into()),
                Ok(()) => (StatusCode::BAD_REQUEST, message.to_owned()),
            };
            return page(&state, &token, Some(s), status, Some(&notice)).await;
        }
    };
    match public::set_public(&state.pool, state.clock.now(), &author(), &s, &form).await {
        Ok(_) => {
            let mut response = see_other(&format!("{STATUS_PREFIX}{token}?saved=1"));
            response.headers_mut().insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
            Ok(response)
        }
        Err(Refused::NotAllowed(notice)) => page(&state, &token, Some(s), StatusCode::CONFLICT, Some(&notice)).await,
        Err(Refused::Failed(AppError::BadRequest(message))) => refuse(&state, &token, s, &message, form).await,
        Err(Refused::Stale(notice)) => {
            let current = find(&state, &token).await?;
            page(&state, &token, current, StatusCode::CONFLICT, Some(&notice)).await
        }
        Err(other) => Err(other.into()),
    }
}

/// The 400 of a bad form: `message`, and the form as the author filled it.
async fn refuse(
    state: &AppState,
    token: &str,
    s: Submission,
    message: &str,
    form: PublicForm,
) -> Result<Response, AppError> {
    let posted = Posted { text: form.text, presenter: form.presenter.unwrap_or_default() };
    answer(state, token, Some(s), StatusCode::BAD_REQUEST, Some(message), false, Some(posted)).await
}
