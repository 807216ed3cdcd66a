//! `/organiser/settings` (issue 42 item 1, DESIGN.md section 20): every operational deadline
//! with its value in the event's zone, whether it has passed, what it governs and where the
//! value comes from, and one form that changes them (`crate::calendar::change`: audited with
//! the old and new value, all or nothing, a refusal names each problem and stores nothing).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;

use super::form::fields;
use super::session::SignedIn;
use super::sign_in::layout;
use crate::calendar::change::{self, Actor, ChangeError, Outcome};
use crate::calendar::overview;
use crate::error::AppError;
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::views::organiser::settings::{Refused, SettingsPage};

/// The page's address (also where its form posts); the calendar's refusals name it
/// (`crate::calendar::gates::SETTINGS_PATH`, the same address).
pub const PATH: &str = "/organiser/settings";

/// The page (`crate::calendar::overview`), with what a change did or why it was refused.
async fn page(
    state: &AppState,
    status: StatusCode,
    outcome: Option<Outcome>,
    refused: Option<Refused>,
) -> Result<Response, AppError> {
    let overview = overview::overview(&state.pool, state.clock.now()).await?;
    let layout = layout(state, "Settings", PATH).await?;
    let view = SettingsPage::new(layout, overview, outcome, refused);
    render(status, &view)
}

/// GET `/organiser/settings`: the deadlines and the form (organisers only).
pub async fn show(State(state): State<AppState>, SignedIn(_): SignedIn) -> Result<Response, AppError> {
    page(&state, StatusCode::OK, None, None).await
}

/// POST `/organiser/settings` (form-encoded `KEY=VALUE` per setting; a blank value leaves it
/// as it is): 200 with the page saying what changed (and a warning for a review deadline
/// already passed); 422 with the page naming each problem when a key is unknown or a value bad,
/// nothing stored. This instance's content is reloaded at once; the others follow within a
/// poll of the content watcher.
pub async fn save(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let typed = fields(&body);
    let actor = Actor { name: &organiser.email, client: organiser.client.as_deref() };
    match change::set(&state.pool, &typed, actor, state.clock.now()).await {
        Ok(outcome) => {
            if !outcome.changed.is_empty()
                && let Err(err) = state.content.reload().await
            {
                tracing::warn!(error = %err, "content reload after a settings change failed; the watcher retries");
            }
            page(&state, StatusCode::OK, Some(outcome), None).await
        }
        Err(ChangeError::Refused(problems)) => {
            page(&state, StatusCode::UNPROCESSABLE_ENTITY, None, Some(Refused { typed, problems })).await
        }
        Err(ChangeError::Database(err)) => Err(err.into()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_refusals_name_this_page() {
        assert_eq!(super::PATH, crate::calendar::gates::SETTINGS_PATH);
    }
}
