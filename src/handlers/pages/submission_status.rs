//! The author's status page (issue 21, DESIGN.md section 12 "Decisions"): the private link
//! `/submission/status/<token>` of the acknowledgement and decision mails shows one
//! submission's reference, title, paper type, time received and state (a pending decision
//! shows as `submitted`), and lets the author withdraw it before a decision is applied.
//!
//! The token is the only key: 32 random bytes, base64url, stored as SHA-256
//! (`crate::organisers::Secret`). An unknown or malformed token is 404 with nothing about any
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

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::json;

use crate::decisions::STATUS_PREFIX;
use crate::error::AppError;
use crate::handlers::layout::{Layout, Meta};
use crate::handlers::render::{html, html_response, see_other};
use crate::handlers::state::AppState;
use crate::mail::outbox::timestamp;
use crate::organisers;
use crate::repo::audit::{self, NewEntry};
use crate::repo::decisions as store;
use crate::repo::submissions::Submission;

/// The route of the page.
pub const PATH: &str = "/submission/status/{token}";
/// The route of the withdrawal.
pub const WITHDRAW_PATH: &str = "/submission/status/{token}/withdraw";

/// What the page shows of the submission: nothing else of it, nothing of any other.
struct Shown {
    reference: String,
    title: String,
    paper_type: String,
    received: String,
    state: &'static str,
}

#[derive(Template)]
#[template(path = "pages/submission_status.html")]
struct StatusPage {
    layout: Layout,
    heading: &'static str,
    notice: Option<&'static str>,
    submission: Option<Shown>,
    withdraw_action: Option<String>,
    /// The withdrawal's question is asked: the page is the confirmation step.
    asking: bool,
    /// The status page's own address (the confirmation's way back).
    path: String,
    message: &'static str,
}

const NOT_FOUND: &str =
    "This status link is not one we sent. Please use the link from the latest mail about your paper.";

/// The state as the author sees it: a pending decision is not one yet.
fn public_state(s: &Submission) -> &'static str {
    match s.state.as_str() {
        "accepted" => "Accepted",
        "rejected" => "Rejected",
        "withdrawn" => "Withdrawn",
        _ => "Submitted",
    }
}

/// The page for `token`'s submission (or the 404 page), with the headers every answer of a
/// private link carries.
async fn page(
    state: &AppState,
    token: &str,
    found: Option<Submission>,
    status: StatusCode,
    notice: Option<&'static str>,
) -> Result<Response, AppError> {
    answer(state, token, found, status, notice, false).await
}

/// [`page`], or with `asking` the withdrawal's confirmation step.
async fn answer(
    state: &AppState,
    token: &str,
    found: Option<Submission>,
    status: StatusCode,
    notice: Option<&'static str>,
    asking: bool,
) -> Result<Response, AppError> {
    let path = format!("{STATUS_PREFIX}{token}");
    let layout = Layout::new(&state.page_ctx(&*state.content.snapshot().await), |site| {
        Meta::new(format!("Your submission | {}", site.short_name), "The status of your paper submission.", &path)
            .noindex()
    })?;
    let withdraw_action = found.as_ref().filter(|s| s.state == "submitted").map(|_| format!("{path}/withdraw"));
    let submission = found.map(|s| Shown {
        state: public_state(&s),
        reference: s.submitted.reference,
        title: s.submitted.paper_title,
        paper_type: s.submitted.paper_type,
        received: s.created,
    });
    let asking = asking && withdraw_action.is_some();
    let heading = match (&submission, asking) {
        (Some(_), true) => "Withdraw this paper?",
        (Some(_), false) => "Your submission",
        (None, _) => "Link not valid",
    };
    let view = StatusPage { layout, heading, notice, submission, withdraw_action, asking, path, message: NOT_FOUND };
    let mut response = html_response(status, html(&view)?);
    let headers = response.headers_mut();
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(HeaderName::from_static("x-robots-tag"), HeaderValue::from_static("noindex"));
    Ok(response)
}

/// The submission a token opens; `None` for a malformed or unknown one.
async fn find(state: &AppState, token: &str) -> Result<Option<Submission>, AppError> {
    if !organisers::is_well_formed(token) {
        return Ok(None);
    }
    Ok(store::by_link(&state.pool, &organisers::hash(token)).await?)
}

/// GET `/submission/status/{token}`.
pub async fn show(State(state): State<AppState>, Path(token): Path<String>) -> Result<Response, AppError> {
    let found = find(&state, &token).await?;
    let status = if found.is_some() { StatusCode::OK } else { StatusCode::NOT_FOUND };
    page(&state, &token, found, status, None).await
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
        Err(message) => return answer(&state, &token, Some(s), StatusCode::BAD_REQUEST, Some(message), false).await,
    };
    if confirmed.is_none() && s.state == "submitted" {
        return answer(&state, &token, Some(s), StatusCode::OK, None, true).await;
    }
    let at = timestamp(state.clock.now());
    let mut tx = crate::db::begin_write(&state.pool).await?;
    if !store::withdraw(&mut tx, s.id).await? {
        drop(tx);
        let notice = if s.state == "withdrawn" {
            "This submission is withdrawn already."
        } else {
            "A decision on this submission has been made, so it can no longer be withdrawn here. Please write to the organisers."
        };
        let current = find(&state, &token).await?;
        return page(&state, &token, current, StatusCode::CONFLICT, Some(notice)).await;
    }
    let entry = NewEntry {
        at: &at,
        actor: audit::AUTHOR,
        client: None,
        action: "submission.withdrawn",
        object_type: Some("submission"),
        object_id: Some(&s.submitted.reference),
        details: json!({
            "state": { "before": s.state, "after": "withdrawn" },
            "pending_decision": { "before": s.pending_decision, "after": null },
        }),
    };
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    tracing::info!(reference = s.submitted.reference, "submission withdrawn by its author");
    Ok(see_other(&format!("{STATUS_PREFIX}{token}")))
}
