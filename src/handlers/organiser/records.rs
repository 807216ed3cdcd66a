//! The back office's other lists (DESIGN.md section 12, issue 20 item 4), each with its CSV
//! of exactly the filtered view: newsletter subscribers, the mail outbox and the audit log.

use axum::extract::{RawQuery, State};
use axum::response::Response;

use super::dashboard;
use super::download::CsvList;
use super::lists::{List, Rows};
use super::query::Params;
use super::session::{SignedIn, SignedInForFile};
use crate::db::Pool;
use crate::error::AppError;
use crate::export::{audit as audit_csv, outbox as outbox_csv, visitors};
use crate::handlers::state::AppState;
use crate::repo::audit::{self, Entry};
use crate::repo::{outbox, subscribers};
use crate::views::organiser::records::{
    AUDIT_COLUMNS, OUTBOX_COLUMNS, SUBSCRIBER_COLUMNS, audit_row, outbox_row, subscriber_row,
};
use crate::views::organiser::shared::Control;

/// The lists' addresses.
pub const SUBSCRIBERS: &str = "/organiser/subscribers";
pub const OUTBOX: &str = "/organiser/outbox";
pub const AUDIT: &str = "/organiser/audit";

// Subscribers.

const SUBSCRIBER_STATES: [(&str, &str); 3] =
    [("pending", "pending"), ("subscribed", "subscribed"), ("unsubscribed", "unsubscribed")];

const SUBSCRIBER_LIST: List<subscribers::Filter, subscribers::Subscriber> = List {
    title: "Subscribers",
    path: SUBSCRIBERS,
    known: &["status", "q"],
    filter: |params| {
        Ok(subscribers::Filter {
            status: params.one_of("status", &SUBSCRIBER_STATES)?.map(str::to_owned),
            search: params.search()?,
        })
    },
    columns: &SUBSCRIBER_COLUMNS,
    // The columns of `conference export subscribers`.
    csv: CsvList {
        list: "subscribers",
        header: &visitors::SUBSCRIBER_HEADER,
        rows: subscribers::stream,
        write: |out, s| visitors::write_subscriber(out, &s),
    },
};

/// GET `/organiser/subscribers`.
pub async fn subscriber_list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let query = SUBSCRIBER_LIST.read(raw.as_deref())?;
    let counts = dashboard::counts(&state).await?;
    let (total, rows) = subscribers::list(&state.pool, &query.filter, query.page, &counts).await?;
    let zone = state.event_zone().await;
    let controls = vec![
        Control::search("Search e-mail", query.params.value("q")),
        Control::select("status", "Status", query.params.value("status"), &SUBSCRIBER_STATES),
    ];
    let summary = counts.subscribers.iter().map(|row| (row.status.clone(), row.count)).collect();
    let cells = rows.into_iter().map(|s| subscriber_row(s, &zone)).collect();
    SUBSCRIBER_LIST.show(&state, &query, Rows { summary, controls, cells, total }).await
}

/// GET `/organiser/subscribers.csv`.
pub async fn subscriber_csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    SUBSCRIBER_LIST.csv(&state, &organiser, raw.as_deref()).await
}

// The mail outbox.

const MAIL_STATES: [(&str, &str); 3] = [("pending", "pending"), ("sent", "sent"), ("failed", "failed")];

const OUTBOX_LIST: List<outbox::Filter, outbox::Mail> = List {
    title: "Mail outbox",
    path: OUTBOX,
    known: &["status", "q"],
    filter: |params| {
        Ok(outbox::Filter {
            status: params.one_of("status", &MAIL_STATES)?.map(str::to_owned),
            search: params.search()?,
        })
    },
    columns: &OUTBOX_COLUMNS,
    csv: CsvList {
        list: "outbox",
        header: &outbox_csv::HEADER,
        rows: outbox::stream,
        write: |out, m| outbox_csv::write_row(out, &m),
    },
};

/// GET `/organiser/outbox`: every mail's state, attempts and last error.
pub async fn outbox_list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let query = OUTBOX_LIST.read(raw.as_deref())?;
    let counts = dashboard::counts(&state).await?;
    let (total, rows) = outbox::list(&state.pool, &query.filter, query.page, &counts).await?;
    let zone = state.event_zone().await;
    let controls = vec![
        Control::search("Search recipient, subject", query.params.value("q")),
        Control::select("status", "Status", query.params.value("status"), &MAIL_STATES),
    ];
    let summary = counts.outbox.iter().map(|row| (row.status.clone(), row.count)).collect();
    let cells = rows.into_iter().map(|m| outbox_row(m, &zone)).collect();
    OUTBOX_LIST.show(&state, &query, Rows { summary, controls, cells, total }).await
}

/// GET `/organiser/outbox.csv`.
pub async fn outbox_csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    OUTBOX_LIST.csv(&state, &organiser, raw.as_deref()).await
}

// The audit log.

fn audit_rows<'a>(
    pool: &'a Pool,
    search: &Option<String>,
) -> futures_util::stream::BoxStream<'a, Result<Entry, sqlx::Error>> {
    audit::stream(pool, search.as_deref())
}

/// The audit log's filter: the search text alone.
fn audit_search(params: &Params) -> Result<Option<String>, AppError> {
    params.search()
}

const AUDIT_LIST: List<Option<String>, Entry> = List {
    title: "Audit log",
    path: AUDIT,
    known: &["q"],
    filter: audit_search,
    columns: &AUDIT_COLUMNS,
    // The columns of `conference export audit`.
    csv: CsvList { list: "audit", header: &audit_csv::HEADER, rows: audit_rows, write: audit_csv::write_row },
};

/// GET `/organiser/audit`: the log, newest first.
pub async fn audit_list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let query = AUDIT_LIST.read(raw.as_deref())?;
    let (total, rows) = audit::list(&state.pool, query.filter.as_deref(), query.page).await?;
    let zone = state.event_zone().await;
    let controls = vec![Control::search("Search who, action, object", query.params.value("q"))];
    let cells = rows.into_iter().map(|e| audit_row(e, &zone)).collect();
    AUDIT_LIST.show(&state, &query, Rows { summary: Vec::new(), controls, cells, total }).await
}

/// GET `/organiser/audit.csv`.
pub async fn audit_csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    AUDIT_LIST.csv(&state, &organiser, raw.as_deref()).await
}
