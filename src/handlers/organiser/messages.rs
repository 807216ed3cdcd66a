//! Contact messages in the back office (DESIGN.md section 12, issue 20 item 4): the list with
//! its CSV of exactly the filtered view, and a message's page, which marks it read; marking a
//! message answered or not, with an internal note (issue 21 item 5), and its history.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::dashboard;
use super::download::{self, CsvList};
use super::form::{fields, note, one};
use super::history::history;
use super::query::Params;
use super::session::{SignedIn, SignedInForFile};
use super::sign_in::layout;
use crate::error::AppError;
use crate::export::visitors;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::mail::messages as contact_messages;
use crate::repo::messages::{self, Received};
use crate::views::organiser::detail::{ActionForm, DetailPage, Field, Group};
use crate::views::organiser::shared::Pager;
use crate::views::organiser::shared::{Cell, Control, ListPage};

use crate::views::organiser::shared::excerpt;

/// The list's address.
pub const MESSAGES: &str = "/organiser/messages";

const MESSAGE_PARAMS: [&str; 2] = ["status", "q"];
const READ: [(&str, bool); 2] = [("unread", false), ("read", true)];

fn message_filter(params: &Params) -> Result<messages::Filter, AppError> {
    Ok(messages::Filter { read: params.one_of("status", &READ)?, search: params.search()? })
}

/// GET `/organiser/messages`.
pub async fn message_list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &MESSAGE_PARAMS)?;
    let filter = message_filter(&params)?;
    let page = params.page()?;
    let counts = dashboard::counts(&state).await?;
    let (total, rows) = messages::list(&state.pool, &filter, page, &counts).await?;
    let zone = state.event_zone().await;
    let rows = rows
        .into_iter()
        .map(|Received { message: m, read_at, answered_at, .. }| {
            vec![
                Cell::time(&m.created, &zone).linked(format!("{MESSAGES}/{}", m.id)),
                Cell::text(m.name),
                Cell::text(m.email),
                Cell::text(m.country),
                Cell::text(excerpt(&m.message)),
                Cell::text(if read_at.is_some() { "read" } else { "unread" }),
                Cell::text(if answered_at.is_some() { "answered" } else { "" }),
            ]
        })
        .collect();
    let page = ListPage {
        layout: layout(&state, "Messages", MESSAGES).await?,
        heading: "Messages",
        path: MESSAGES,
        summary: vec![("Not yet read".into(), counts.unread)],
        controls: vec![
            Control::search("Search name, e-mail, country, message", params.value("q")),
            Control::select("status", "Read", params.value("status"), &[("unread", "Not yet read"), ("read", "Read")]),
        ],
        columns: vec!["Received", "Name", "E-mail", "Country", "Message", "Read", "Answered"],
        rows,
        pager: Pager::new(MESSAGES, &params.filters(), page, total),
        bulk: None,
    };
    render(StatusCode::OK, &page)
}

/// GET `/organiser/messages.csv`, with the columns of `conference export messages`.
pub async fn message_csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &MESSAGE_PARAMS)?;
    let filter = message_filter(&params)?;
    let list = CsvList {
        list: "messages",
        header: &visitors::MESSAGE_HEADER,
        rows: messages::stream,
        write: |out, r: Received| visitors::write_message(out, &r.message),
    };
    download::csv(&state, &organiser, list, filter, params.details()).await
}

/// GET `/organiser/messages/{id}`: the message, a `mailto:` reply link; marks it read.
pub async fn message_detail(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let Received { message: m, read_at, answered_at, answered_by, note } =
        contact_messages::open(&state.pool, state.clock.now(), &id).await?;
    let snapshot = state.content.snapshot().await;
    let zone = snapshot.zone.clone();
    let subject = match &snapshot.site {
        Ok(site) => format!("Re: your message to {}", site.short_name),
        Err(_) => "Re: your message".to_owned(),
    };
    let reply = format!("mailto:{}?subject={}", m.email, percent_encoded(&subject));
    let page = DetailPage {
        layout: layout(&state, &format!("Message from {}", m.name), MESSAGES).await?,
        heading: format!("Message from {}", m.name),
        back: (MESSAGES, "Messages"),
        actions: vec![Cell::link(format!("Reply to {}", m.email), reply)],
        groups: vec![Group {
            heading: "Message",
            fields: vec![
                ("Received", Cell::time(&m.created, &zone)),
                ("First read", Cell::time(read_at.as_deref().unwrap_or_default(), &zone)),
                (
                    "Answered",
                    match (&answered_at, &answered_by) {
                        (Some(at), Some(by)) => Cell::time(at, &zone).then(format!(" by {by}")),
                        _ => Cell::text("Not yet"),
                    },
                ),
                ("Name", Cell::text(m.name)),
                ("E-mail", Cell::text(m.email)),
                ("Phone", Cell::text(m.number)),
                ("Country", Cell::text(m.country)),
                ("Message", Cell::text(m.message)),
            ],
        }],
        forms: vec![ActionForm {
            heading: "Answered",
            action: format!("{MESSAGES}/{}/answered", m.id),
            fields: vec![
                Field::select(
                    "answered",
                    "Answered",
                    if answered_at.is_some() { "yes" } else { "no" },
                    &[("no", "Not answered"), ("yes", "Answered")],
                ),
                Field::textarea("note", "Internal note (organisers only)", note),
            ],
            button: "Save",
        }],
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

/// `text` for a `mailto:` query (RFC 6068): every byte but unreserved ones escaped.
fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
