//! Contact messages in the back office (DESIGN.md section 12, issue 20 item 4): the list with
//! its CSV of exactly the filtered view, and a message's page, which marks it read.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::download::{self, CsvList};
use super::query::{Pager, Params};
use super::session::{SignedIn, SignedInForFile};
use super::sign_in::layout;
use super::view::{Cell, Control, DetailPage, Group, ListPage, history};
use crate::error::AppError;
use crate::export::visitors;
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::mail::outbox::timestamp;
use crate::repo::dashboard;
use crate::repo::messages::{self, Received};

use super::view::{excerpt, shown};

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
    let total = messages::count(&state.pool, &filter).await?;
    let rows = messages::list(&state.pool, &filter, page)
        .await?
        .into_iter()
        .map(|Received { message: m, read_at }| {
            vec![
                Cell::link(m.created.clone(), format!("{MESSAGES}/{}", m.id)),
                Cell::text(m.name),
                Cell::text(m.email),
                Cell::text(m.country),
                Cell::text(excerpt(&m.message)),
                Cell::text(if read_at.is_some() { "read" } else { "unread" }),
            ]
        })
        .collect();
    let page = ListPage {
        layout: layout(&state, "Messages", MESSAGES).await?,
        heading: "Messages",
        path: MESSAGES,
        summary: vec![("Not yet read".into(), dashboard::unread_messages(&state.pool).await?)],
        controls: vec![
            Control::search("Search name, e-mail, country, message", params.value("q")),
            Control::select("status", "Read", params.value("status"), &[("unread", "Not yet read"), ("read", "Read")]),
        ],
        columns: vec!["Received (UTC)", "Name", "E-mail", "Country", "Message", "Read"],
        rows,
        pager: Pager::new(MESSAGES, &params, page, total),
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
    let Some(Received { message: m, read_at }) = messages::by_id(&state.pool, &id).await? else {
        return Err(AppError::NotFound(format!("No message has the id {}.", shown(&id))));
    };
    let now = timestamp(state.clock.now());
    if read_at.is_none() {
        messages::mark_read(&state.pool, &m.id, &now).await?;
    }
    let snapshot = state.content.snapshot().await;
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
                ("Received (UTC)", Cell::text(m.created)),
                ("First read (UTC)", Cell::text(read_at.unwrap_or(now))),
                ("Name", Cell::text(m.name)),
                ("E-mail", Cell::text(m.email)),
                ("Phone", Cell::text(m.number)),
                ("Country", Cell::text(m.country)),
                ("Message", Cell::text(m.message)),
            ],
        }],
        forms: Vec::new(),
        history: Some(history(&state, "message", &m.id).await?),
    };
    render(StatusCode::OK, &page)
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
