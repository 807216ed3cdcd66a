//! Contact messages in the back office (DESIGN.md section 12, issue 20 item 4): the list with
//! its CSV of exactly the filtered view, and a message's page, which marks it read; marking a
//! message answered or not, with an internal note (issue 21 item 5), and its history.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::dashboard;
use super::download::CsvList;
use super::form::{fields, note, one};
use super::history::history;
use super::lists::{List, Rows};
use super::session::{SignedIn, SignedInForFile};
use super::sign_in::layout;
use crate::error::AppError;
use crate::export::visitors;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::mail::messages as contact_messages;
use crate::repo::messages::{self, Received};
use crate::views::organiser::detail::DetailPage;
pub use crate::views::organiser::messages::MESSAGES;
use crate::views::organiser::messages::{COLUMNS, answered_form, controls, groups, reply_href, row};
use crate::views::organiser::shared::Cell;

const READ: [(&str, bool); 2] = [("unread", false), ("read", true)];

const MESSAGE_LIST: List<messages::Filter, Received> = List {
    title: "Messages",
    path: MESSAGES,
    known: &["status", "q"],
    filter: |params| Ok(messages::Filter { read: params.one_of("status", &READ)?, search: params.search()? }),
    columns: &COLUMNS,
    // The columns of `conference export messages`.
    csv: CsvList {
        list: "messages",
        header: &visitors::MESSAGE_HEADER,
        rows: messages::stream,
        write: |out, r| visitors::write_message(out, &r.message),
    },
};

/// GET `/organiser/messages`.
pub async fn message_list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let query = MESSAGE_LIST.read(raw.as_deref())?;
    let counts = dashboard::counts(&state).await?;
    let (total, rows) = messages::list(&state.pool, &query.filter, query.page, &counts).await?;
    let zone = state.event_zone().await;
    let summary = vec![("Not yet read".into(), counts.unread)];
    let controls = controls(|name| query.params.value(name));
    let cells = rows.into_iter().map(|r| row(r, &zone)).collect();
    MESSAGE_LIST.show(&state, &query, Rows { summary, controls, cells, total }).await
}

/// GET `/organiser/messages.csv`.
pub async fn message_csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    MESSAGE_LIST.csv(&state, &organiser, raw.as_deref()).await
}

/// GET `/organiser/messages/{id}`: the message, a `mailto:` reply link; marks it read.
pub async fn message_detail(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let received = contact_messages::open(&state.pool, state.clock.now(), &id).await?;
    let snapshot = state.content.snapshot().await;
    let zone = snapshot.zone.clone();
    let m = &received.message;
    let reply = reply_href(&m.email, snapshot.site.as_ref().ok().map(|site| site.short_name.as_str()));
    let page = DetailPage {
        layout: layout(&state, &format!("Message from {}", m.name), MESSAGES).await?,
        heading: format!("Message from {}", m.name),
        back: (MESSAGES, "Messages"),
        actions: vec![Cell::link(format!("Reply to {}", m.email), reply)],
        groups: groups(&received, &zone),
        forms: vec![answered_form(&received)],
        history: Some(history(&state, "message", &m.id).await?),
    };
    render(StatusCode::OK, &page)
}

/// POST `/organiser/messages/{id}/answered` (`answered=yes|no`, `note`): marks the message
/// answered by this organiser now, or not, and keeps the internal note
/// (`crate::mail::messages::mark_answered`); 303 back to the message.
pub async fn message_answered(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    let fields = fields(&body);
    let answered = match one(&fields, "answered")? {
        "yes" => true,
        "no" => false,
        _ => return Err(AppError::BadRequest("\"answered\" must be \"yes\" or \"no\".".into())),
    };
    let note = note(&fields)?;
    let now = state.clock.now();
    let updated = contact_messages::mark_answered(&state.pool, now, &organiser.actor(), &id, answered, note).await?;
    Ok(see_other(&format!("{MESSAGES}/{}", updated.id)))
}
