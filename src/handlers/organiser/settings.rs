//! `/organiser/settings` (issue 42 item 1, DESIGN.md section 20): every operational deadline
//! with its value in the event's zone, whether it has passed, what it governs and where the
//! value comes from, and one form that changes them (`crate::calendar::change`: audited with
//! the old and new value, all or nothing, a refusal names each problem and stores nothing).

use askama::Template;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;

use super::form::fields;
use super::session::SignedIn;
use super::sign_in::layout;
use crate::calendar::change::{self, Actor, ChangeError, Outcome};
use crate::calendar::settings::{Calendar, Source};
use crate::error::AppError;
use crate::handlers::layout::Layout;
use crate::handlers::render::render;
use crate::handlers::state::AppState;

/// The page's address (also where its form posts); the calendar's refusals name it
/// (`crate::calendar::gates::SETTINGS_PATH`, the same address).
pub const PATH: &str = "/organiser/settings";

/// One deadline as the page shows it.
struct Row {
    key: &'static str,
    label: &'static str,
    governs: &'static str,
    /// `Monday, 3 March 2025, 18:00 Singapore time (UTC+08:00)`, or why there is none.
    value: String,
    /// RFC 3339 in the event's zone for `<time datetime>`; `None` without a readable value.
    iso: Option<String>,
    /// `Passed`, `Open: in 5 days`, `Not set: nothing closes by it`.
    state: String,
    passed: bool,
    /// Where the value comes from, in words.
    source: String,
    /// What the field holds: the value as stored, or what was typed into a refused form.
    typed: String,
    /// Why this field was refused.
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "organiser/settings.html")]
struct SettingsPage {
    layout: Layout,
    zone: String,
    rows: Vec<Row>,
    notice: Option<String>,
    warnings: Vec<String>,
    /// Problems of a refused form that name no field of the page (an unknown key).
    problems: Vec<String>,
}

/// A refused form: what was typed and what was wrong, per key as typed.
struct Refused {
    typed: Vec<(String, String)>,
    problems: Vec<(String, String)>,
}

fn source_words(source: &Source) -> String {
    match source {
        Source::Organisers { by, at } => format!("Set by {by} at {at} (a later seed keeps it)"),
        Source::Seed => "From the content seed".to_owned(),
        Source::Default => "Default: the end of the event's last day".to_owned(),
        Source::Unset => "Not set".to_owned(),
    }
}

async fn page(
    state: &AppState,
    status: StatusCode,
    outcome: Option<Outcome>,
    refused: Option<Refused>,
) -> Result<Response, AppError> {
    let calendar = Calendar::load(&state.pool).await?;
    let now = state.clock.now();
    let rows = calendar
        .entries
        .iter()
        .map(|entry| {
            let name = entry.key.name();
            let typed = refused.as_ref().and_then(|r| r.typed.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()));
            let error =
                refused.as_ref().and_then(|r| r.problems.iter().find(|(k, _)| k == name).map(|(_, m)| m.clone()));
            let passed = entry.is_passed(now);
            let (value, state) = match (&entry.when, &entry.text) {
                (Some(when), _) => {
                    let state = if passed { "Passed".to_owned() } else { format!("Open: {}", when.words(now)) };
                    (when.label(), state)
                }
                (None, Some(text)) => (format!("“{text}” does not read as a date"), "Passed (unreadable)".to_owned()),
                (None, None) => ("Not set".to_owned(), "Nothing closes by it".to_owned()),
            };
            Row {
                key: name,
                label: entry.key.label(),
                governs: entry.key.governs(),
                value,
                iso: entry.when.as_ref().map(|w| w.iso()),
                state,
                passed,
                source: source_words(&entry.source),
                typed: typed.unwrap_or_else(|| match entry.source {
                    Source::Default | Source::Unset => String::new(),
                    _ => entry.text.clone().unwrap_or_default(),
                }),
                error,
            }
        })
        .collect::<Vec<Row>>();
    let problems = refused
        .as_ref()
        .map(|r| {
            r.problems
                .iter()
                .filter(|(k, _)| !rows.iter().any(|row| row.key == k))
                .map(|(k, m)| format!("{k}: {m}"))
                .collect()
        })
        .unwrap_or_default();
    let (notice, warnings) = match outcome {
        Some(outcome) if outcome.changed.is_empty() => (Some("Nothing changed.".to_owned()), outcome.warnings),
        Some(outcome) => {
            let changed: Vec<String> = outcome
                .changed
                .iter()
                .map(|c| format!("{}: {} → {}", c.key.name(), c.before.as_deref().unwrap_or("not set"), c.after))
                .collect();
            (Some(format!("Saved. {}.", changed.join("; "))), outcome.warnings)
        }
        None => (None, Vec::new()),
    };
    let view = SettingsPage {
        layout: layout(state, "Settings", PATH).await?,
        zone: format!("{} ({})", calendar.zone.name, crate::clock::zone::offset_label(calendar.zone.offset_at(now))),
        rows,
        notice,
        warnings,
        problems,
    };
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
