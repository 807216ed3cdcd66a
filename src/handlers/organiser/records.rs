//! The back office's other lists (DESIGN.md section 12, issue 20 item 4), each with its CSV
//! of exactly the filtered view: newsletter subscribers, the mail outbox and the audit log.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::download::{self, CsvList};
use super::query::Params;
use super::session::{SignedIn, SignedInForFile};
use super::sign_in::layout;
use crate::db::Pool;
use crate::error::AppError;
use crate::export::{audit as audit_csv, outbox as outbox_csv, visitors};
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::repo::audit::{self, Entry};
use crate::repo::{outbox, subscribers};
use crate::views::organiser::records::{
    AUDIT_COLUMNS, OUTBOX_COLUMNS, SUBSCRIBER_COLUMNS, audit_row, outbox_row, subscriber_row,
};
use crate::views::organiser::shared::{Control, ListPage, Pager};

use super::dashboard;

/// The lists' addresses.
pub const SUBSCRIBERS: &str = "/organiser/subscribers";
pub const OUTBOX: &str = "/organiser/outbox";
pub const AUDIT: &str = "/organiser/audit";

// Subscribers.

const SUBSCRIBER_PARAMS: [&str; 2] = ["status", "q"];
const SUBSCRIBER_STATES: [(&str, &str); 3] =
    [("pending", "pending"), ("subscribed", "subscribed"), ("unsubscribed", "unsubscribed")];

fn subscriber_filter(params: &Params) -> Result<subscribers::Filter, AppError> {
    Ok(subscribers::Filter {
        status: params.one_of("status", &SUBSCRIBER_STATES)?.map(str::to_owned),
        search: params.search()?,
    })
}

/// GET `/organiser/subscribers`.
pub async fn subscriber_list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &SUBSCRIBER_PARAMS)?;
    let filter = subscriber_filter(&params)?;
    let page = params.page()?;
    let counts = dashboard::counts(&state).await?;
    let (total, rows) = subscribers::list(&state.pool, &filter, page, &counts).await?;
    let zone = state.event_zone().await;
    let rows = rows.into_iter().map(|s| subscriber_row(s, &zone)).collect();
    let summary = counts.subscribers.iter().map(|row| (row.status.clone(), row.count)).collect();
    let page = ListPage {
        layout: layout(&state, "Subscribers", SUBSCRIBERS).await?,
        heading: "Subscribers",
        path: SUBSCRIBERS,
        summary,
        controls: vec![
            Control::search("Search e-mail", params.value("q")),
            Control::select("status", "Status", params.value("status"), &SUBSCRIBER_STATES),
        ],
        columns: SUBSCRIBER_COLUMNS.to_vec(),
        rows,
        pager: Pager::new(SUBSCRIBERS, &params.filters(), page, total),
        bulk: None,
    };
    render(StatusCode::OK, &page)
}

/// GET `/organiser/subscribers.csv`, with the columns of `conference export subscribers`.
pub async fn subscriber_csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &SUBSCRIBER_PARAMS)?;
    let filter = subscriber_filter(&params)?;
    let list = CsvList {
        list: "subscribers",
        header: &visitors::SUBSCRIBER_HEADER,
        rows: subscribers::stream,
        write: |out, s: subscribers::Subscriber| visitors::write_subscriber(out, &s),
    };
    download::csv(&state, &organiser, list, filter, params.details()).await
}

// The mail outbox.

const OUTBOX_PARAMS: [&str; 2] = ["status", "q"];
const MAIL_STATES: [(&str, &str); 3] = [("pending", "pending"), ("sent", "sent"), ("failed", "failed")];

fn outbox_filter(params: &Params) -> Result<outbox::Filter, AppError> {
    Ok(outbox::Filter { status: params.one_of("status", &MAIL_STATES)?.map(str::to_owned), search: params.search()? })
}

/// GET `/organiser/outbox`: every mail's state, attempts and last error.
pub async fn outbox_list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &OUTBOX_PARAMS)?;
    let filter = outbox_filter(&params)?;
    let page = params.page()?;
    let counts = dashboard::counts(&state).await?;
    let (total, rows) = outbox::list(&state.pool, &filter, page, &counts).await?;
    let zone = state.event_zone().await;
    let rows = rows.into_iter().map(|m| outbox_row(m, &zone)).collect();
    let summary = counts.outbox.iter().map(|row| (row.status.clone(), row.count)).collect();
    let page = ListPage {
        layout: layout(&state, "Mail outbox", OUTBOX).await?,
        heading: "Mail outbox",
        path: OUTBOX,
        summary,
        controls: vec![
            Control::search("Search recipient, subject", params.value("q")),
            Control::select("status", "Status", params.value("status"), &MAIL_STATES),
        ],
        columns: OUTBOX_COLUMNS.to_vec(),
        rows,
        pager: Pager::new(OUTBOX, &params.filters(), page, total),
        bulk: None,
    };
    render(StatusCode::OK, &page)
}

/// GET `/organiser/outbox.csv`.
pub async fn outbox_csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &OUTBOX_PARAMS)?;
    let filter = outbox_filter(&params)?;
    let list = CsvList {
        list: "outbox",
        header: &outbox_csv::HEADER,
        rows: outbox::stream,
        write: |out, m: outbox::Mail| outbox_csv::write_row(out, &m),
    };
    download::csv(&state, &organiser, list, filter, params.details()).await
}

// The audit log.

const AUDIT_PARAMS: [&str; 1] = ["q"];

fn audit_rows<'a>(
    pool: &'a Pool,
    search: &Option<String>,
) -> futures_util::stream::BoxStream<'a, Result<Entry, sqlx::Error>> {
    audit::stream(pool, search.as_deref())
}

/// GET `/organiser/audit`: the log, newest first.
pub async fn audit_list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &AUDIT_PARAMS)?;
    let search = params.search()?;
    let page = params.page()?;
    let (total, rows) = audit::list(&state.pool, search.as_deref(), page).await?;
    let zone = state.event_zone().await;
    let rows = rows.into_iter().map(|e| audit_row(e, &zone)).collect();
    let page = ListPage {
        layout: layout(&state, "Audit log", AUDIT).await?,
        heading: "Audit log",
        path: AUDIT,
        summary: Vec::new(),
        controls: vec![Control::search("Search who, action, object", params.value("q"))],
        columns: AUDIT_COLUMNS.to_vec(),
        rows,
        pager: Pager::new(AUDIT, &params.filters(), page, total),
        bulk: None,
    };
    render(StatusCode::OK, &page)
}

/// GET `/organiser/audit.csv`, with the columns of `conference export audit`.
pub async fn audit_csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &AUDIT_PARAMS)?;
    let search = params.search()?;
    let list = CsvList { list: "audit", header: &audit_csv::HEADER, rows: audit_rows, write: audit_csv::write_row };
    download::csv(&state, &organiser, list, search, params.details()).await
}
