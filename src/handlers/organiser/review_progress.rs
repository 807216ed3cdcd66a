//! Review progress (issue 32 item 8): `GET /organiser/review` shows how far reviewing has come
//! (papers, reviews submitted of those assigned, the deadline), the papers with fewer
//! submitted reviews than `reviewers_per_paper`, each linked to its page, and once the
//! deadline has passed the reviewers with overdue reviews, each with "Remind now".
//!
//! `POST /organiser/review/remind/{id}` mails reviewer `id` their unsubmitted papers at once
//! through the outbox, with the audit entry `review.reminded` in the same transaction
//! (`crate::review::reminders::remind_now`), and answers 303 back to the page, which says
//! what happened. Its outbox key holds the minute
//! (`crate::review::reminders::now_key`), so a second press within the minute, or a second
//! organiser's, mails nobody twice. An unknown reviewer is 404; one with nothing to review
//! is the page again with 409 and nobody mailed.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::dashboard;
use super::query::Params;
use super::session::SignedIn;
use super::sign_in::layout;
use crate::error::{AppError, Refused};
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::review::{progress, reminders};
use crate::views::organiser::review_progress::ProgressPage;
pub use crate::views::organiser::review_progress::REMIND;

/// The page's address.
pub const PATH: &str = "/organiser/review";

/// The page ([`progress::progress`]), with `notice`, answered with `status`.
async fn page(
    state: &AppState,
    status: StatusCode,
    notice: Option<(String, &'static str)>,
) -> Result<Response, AppError> {
    let kept = dashboard::counts(state).await?;
    let view = progress::progress(&state.pool, &kept, state.clock.now()).await?;
    let layout = layout(state, "Review progress", PATH).await?;
    let view = ProgressPage::new(layout, notice, view);
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
            let Some((name, email)) = reminders::accepted_reviewer(&state.pool, id).await? else {
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

/// POST `/organiser/review/remind/{id}`: one reminder to reviewer `id` now (see the module);
/// a reviewer with nothing to review is the page again with 409.
pub async fn remind(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    match reminders::remind_now(&state.pool, &state.config, state.clock.now(), &organiser.actor(), &id).await {
        Ok(done) => Ok(see_other(&format!("{PATH}?reminded={}&sent={}", done.reviewer_id, u8::from(done.queued)))),
        Err(Refused::NotAllowed(notice)) => page(&state, StatusCode::CONFLICT, Some((notice, "alert"))).await,
        Err(other) => Err(other.into()),
    }
}
