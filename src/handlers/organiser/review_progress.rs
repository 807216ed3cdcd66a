//! Review progress (issue 32 item 8): `GET /organiser/review` shows how far reviewing has come
//! (papers, reviews submitted of those assigned, the deadline), the papers with fewer
//! submitted reviews than `reviewers_per_paper`, each linked to its page, and once the
//! deadline has passed the reviewers with overdue reviews, each with "Remind now".
//!
//! `POST /organiser/review/remind/{id}` mails reviewer `id` their unsubmitted papers at once
//! through the outbox, with the audit entry `review.reminded` in the same transaction, and
//! answers 303 back to the page, which says what happened. Its outbox key holds the minute
//! (`crate::review::reminders::now_key`), so a second press within the minute, or a second
//! organiser's, mails nobody twice. An unknown reviewer is 404; one with nothing to review
//! is the page again with 409 and nobody mailed.

use askama::Template;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;

use super::dashboard;
use super::query::Params;
use super::session::SignedIn;
use super::sign_in::layout;
use super::submissions;
use crate::error::AppError;
use crate::handlers::layout::Layout;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::mail;
use crate::mail::outbox::timestamp;
use crate::repo::review_records::{self, Progress};
use crate::repo::reviewers;
use crate::review::reminders;

/// The page's address.
pub const PATH: &str = "/organiser/review";
/// Where "Remind now" posts.
pub const REMIND: &str = "/organiser/review/remind/{id}";
/// Papers listed below their reviews at most; the submissions list filtered shows them all.
const UNDER_REVIEWED_SHOWN: i64 = 100;

/// A paper below its reviews, as the page lists it.
struct Paper {
    reference: String,
    href: String,
    title: String,
    reviews: String,
}

/// A reviewer with overdue reviews.
struct Overdue {
    name: String,
    email: String,
    count: i64,
    remind: String,
}

#[derive(Template)]
#[template(path = "organiser/review_progress.html")]
struct ProgressPage {
    layout: Layout,
    /// What "Remind now" did, or why it did nothing: (text, `status` or `alert`).
    notice: Option<(String, &'static str)>,
    progress: Progress,
    needed: i64,
    /// The deadline in words, and how far off it is; `None` without one.
    deadline: Option<(String, String)>,
    passed: bool,
    under_count: i64,
    under: Vec<Paper>,
    /// Whether more papers are below their reviews than `under` lists.
    under_more: bool,
    /// The submissions list showing every paper below its reviews.
    under_all: String,
    overdue: Vec<Overdue>,
}

/// The page, with `notice`, answered with `status`.
async fn page(
    state: &AppState,
    status: StatusCode,
    notice: Option<(String, &'static str)>,
) -> Result<Response, AppError> {
    let now = state.clock.now();
    let needed = reviewers::settings(&state.pool).await?.reviewers_per_paper;
    let deadline = reminders::deadline(&state.pool).await?;
    let passed = deadline.as_ref().is_some_and(|d| d.passed(now));
    let kept = dashboard::counts(state).await?;
    let figures = review_records::figures(&state.pool, needed, UNDER_REVIEWED_SHOWN, &kept).await?;
    let progress = figures.progress;
    let under_count = figures.under_count;
    let under_more = under_count > figures.under.len() as i64;
    let under = figures
        .under
        .iter()
        .map(|p| Paper {
            href: submissions::href(&p.reference),
            reference: p.reference.clone(),
            title: p.paper_title.clone(),
            reviews: format!("{}/{needed}", p.reviews_submitted),
        })
        .collect();
    let overdue = if passed {
        review_records::behind_kept(&state.pool, &kept)
            .await?
            .iter()
            .map(|r| Overdue {
                remind: REMIND.replace("{id}", &r.id.to_string()),
                name: r.name.clone(),
                email: r.email.clone(),
                count: r.unsubmitted,
            })
            .collect()
    } else {
        Vec::new()
    };
    let view = ProgressPage {
        layout: layout(state, "Review progress", PATH).await?,
        notice,
        progress,
        needed,
        deadline: deadline.map(|d| (d.label.clone(), d.until(now))),
        passed,
        under_count,
        under,
        under_more,
        under_all: format!("{}?reviews_below={needed}&sort=reviews&dir=asc", submissions::PATH),
        overdue,
    };
    render(status, &view)
}

/// GET `/organiser/review` (`reminded`, `sent`: what "Remind now" did, from its 303).
pub async fn show(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &["reminded", "sent"])?;
    let notice = match (params.get("reminded"), params.get("sent")) {
        (None, None) => None,
        (Some(id), Some(sent @ ("1" | "0"))) => {
            let Some((name, email)) = reviewer(&state, id).await? else {
                return Err(AppError::NotFound("No reviewer has this number.".into()));
            };
            Some(if sent == "1" {
                (format!("A reminder to {name} ({email}) is in the outbox."), "status")
            } else {
                (format!("{name} ({email}) was reminded a moment ago; nothing more was sent."), "status")
            })
        }
        _ => {
            return Err(AppError::BadRequest(
                "\"reminded\" (a reviewer's number) and \"sent\" (1 or 0) come together: they say what \"Remind now\" did."
                    .into(),
            ));
        }
    };
    page(&state, StatusCode::OK, notice).await
}

/// The accepted reviewer an address's `{id}` names: (name, e-mail).
async fn reviewer(state: &AppState, id: &str) -> Result<Option<(String, String)>, AppError> {
    let Ok(id) = id.parse::<i64>() else { return Ok(None) };
    Ok(review_records::reviewer(&state.pool, id).await?)
}

/// POST `/organiser/review/remind/{id}`: one reminder to reviewer `id` now (see the module).
pub async fn remind(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let Some((name, email)) = reviewer(&state, &id).await? else {
        return Err(AppError::NotFound("No reviewer has this number.".into()));
    };
    let id: i64 = id.parse().map_err(|_| AppError::NotFound("No reviewer has this number.".into()))?;
    let now = state.clock.now();
    let composed = reminders::now_mail(&state.pool, &state.config, id, now).await.map_err(|err| match err {
        reminders::ReminderError::Database(err) => AppError::from(err),
        reminders::ReminderError::Template(err) => AppError::internal("reminder mail", err),
    })?;
    let Some((pending, mail)) = composed else {
        let notice = format!("{name} ({email}) has no unsubmitted review, so nobody was mailed.");
        return page(&state, StatusCode::CONFLICT, Some((notice, "alert"))).await;
    };
    let at = timestamp(now);
    let id_text = id.to_string();
    let mut tx = crate::db::begin_write(&state.pool).await?;
    let queued = mail::enqueue(&mut tx, &mail).await?;
    let mut entry = organiser.entry(&at, "review.reminded");
    entry.object_type = Some("reviewer");
    entry.object_id = Some(&id_text);
    entry.details = json!({
        "papers": pending.papers.len(),
        "mail": { "to": email, "queued": queued, "subject": mail.subject },
    });
    crate::repo::audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(see_other(&format!("{PATH}?reminded={id}&sent={}", u8::from(queued))))
}
