//! The other lists of the back office (DESIGN.md section 12, issue 20 item 4), each with its
//! CSV of exactly the filtered view: contact messages (opening one marks it read), orders,
//! newsletter subscribers, the mail outbox and the audit log.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::download::{self, CsvList};
use super::query::{Pager, Params};
use super::session::{SignedIn, SignedInForFile};
use super::sign_in::layout;
use super::view::{Cell, Control, DetailPage, Group, ListPage};
use crate::db::Pool;
use crate::error::AppError;
use crate::export::{audit as audit_csv, outbox as outbox_csv, registrations, visitors};
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::mail::outbox::timestamp;
use crate::money;
use crate::repo::audit::{self, Entry};
use crate::repo::messages::{self, Received};
use crate::repo::orders::{self, ModeFilter, Order, OrderKind, Status};
use crate::repo::{dashboard, outbox, subscribers};

/// The lists' addresses.
pub const MESSAGES: &str = "/organiser/messages";
pub const ORDERS: &str = "/organiser/orders";
pub const SUBSCRIBERS: &str = "/organiser/subscribers";
pub const OUTBOX: &str = "/organiser/outbox";
pub const AUDIT: &str = "/organiser/audit";

/// At most 40 characters of what was asked for, for a message.
fn shown(value: &str) -> String {
    value.chars().take(40).collect()
}

/// The first line of a text, at most 80 characters, for a table cell.
fn excerpt(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    let short: String = line.chars().take(80).collect();
    if short.len() < text.len() { format!("{short}…") } else { short }
}

// Contact messages.

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

// Orders.

const ORDER_PARAMS: [&str; 4] = ["status", "kind", "payments_mode", "q"];
const STATES: [(&str, Status); 5] = [
    ("initiated", Status::Initiated),
    ("success", Status::Success),
    ("failure", Status::Failure),
    ("aborted", Status::Aborted),
    ("invalid", Status::Invalid),
];
const KINDS: [(&str, OrderKind); 3] =
    [("plan", OrderKind::Plan), ("custom", OrderKind::Custom), ("sponsor", OrderKind::Sponsor)];
const MODES: [(&str, ModeFilter); 3] =
    [("live", ModeFilter::Live), ("test", ModeFilter::Test), ("none", ModeFilter::Unrecorded)];

fn order_filter(params: &Params) -> Result<orders::Filter, AppError> {
    Ok(orders::Filter {
        status: params.one_of("status", &STATES)?,
        kind: params.one_of("kind", &KINDS)?,
        payments_mode: params.one_of("payments_mode", &MODES)?,
        search: params.search()?,
    })
}

/// GET `/organiser/orders`.
pub async fn order_list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &ORDER_PARAMS)?;
    let filter = order_filter(&params)?;
    let page = params.page()?;
    let total = orders::count(&state.pool, &filter).await?;
    let rows = orders::list(&state.pool, &filter, page)
        .await?
        .into_iter()
        .map(|o| {
            vec![
                Cell::link(o.order_id.clone(), format!("{ORDERS}/{}", o.order_id)),
                Cell::text(o.created),
                Cell::text(o.billing_name),
                Cell::text(o.billing_email),
                Cell::text(format!("{} ({})", o.item_title, o.kind)),
                Cell::text(format!("{} {}", o.currency, money::format_cents(o.amount_cents))),
                Cell::text(o.status),
                Cell::text(o.payments_mode.unwrap_or_else(|| "not recorded".into())),
            ]
        })
        .collect();
    let page = ListPage {
        layout: layout(&state, "Orders", ORDERS).await?,
        heading: "Orders",
        path: ORDERS,
        summary: Vec::new(),
        controls: vec![
            Control::search("Search order id, e-mail, name", params.value("q")),
            Control::select(
                "status",
                "State",
                params.value("status"),
                &[
                    ("initiated", "initiated"),
                    ("success", "success"),
                    ("failure", "failure"),
                    ("aborted", "aborted"),
                    ("invalid", "invalid"),
                ],
            ),
            Control::select(
                "kind",
                "Kind",
                params.value("kind"),
                &[("plan", "plan"), ("custom", "custom"), ("sponsor", "sponsor")],
            ),
            Control::select(
                "payments_mode",
                "Payments mode",
                params.value("payments_mode"),
                &[("live", "live"), ("test", "TEST mode"), ("none", "before modes were recorded")],
            ),
        ],
        columns: vec!["Order", "Created (UTC)", "Name", "E-mail", "Item", "Amount", "State", "Mode"],
        rows,
        pager: Pager::new(ORDERS, &params, page, total),
    };
    render(StatusCode::OK, &page)
}

/// GET `/organiser/orders.csv`, with the columns of `conference export registrations`.
pub async fn order_csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &ORDER_PARAMS)?;
    let filter = order_filter(&params)?;
    let list = CsvList {
        list: "orders",
        header: &registrations::HEADER,
        rows: orders::stream,
        write: |out, o: Order| registrations::write_row(out, &o),
    };
    download::csv(&state, &organiser, list, filter, params.details()).await
}

/// GET `/organiser/orders/{order_id}`: amount, payer, the gateway's answer and the state
/// changes with their times.
pub async fn order_detail(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    Path(order_id): Path<String>,
) -> Result<Response, AppError> {
    let Some(o) = orders::get(&state.pool, &order_id).await? else {
        return Err(AppError::NotFound(format!("No order has the id {}.", shown(&order_id))));
    };
    let opt = |value: &Option<String>| Cell::text(value.clone().unwrap_or_default());
    let mut changes = vec![("initiated (UTC)", Cell::text(o.created.clone()))];
    match &o.decided_at {
        Some(at) => changes.push(("decided (UTC)", Cell::text(format!("{at}: {}", o.status)))),
        None => changes.push(("decided", Cell::text("not yet: no answer from the gateway"))),
    }
    let groups = vec![
        Group {
            heading: "Order",
            fields: vec![
                ("Order id", Cell::text(o.order_id.clone())),
                ("State", Cell::text(o.status.clone())),
                ("Amount", Cell::text(format!("{} {}", o.currency, money::format_cents(o.amount_cents)))),
                ("Currency", Cell::text(o.currency.clone())),
                ("Kind", Cell::text(o.kind.clone())),
                ("Item", Cell::text(format!("{} ({})", o.item_title, o.item_id))),
                ("Custom amount entered", opt(&o.custom_amount)),
                ("Payments mode", Cell::text(o.payments_mode.clone().unwrap_or_else(|| "not recorded".into()))),
                ("Gateway", opt(&o.gateway)),
            ],
        },
        Group { heading: "State changes", fields: changes },
        Group {
            heading: "Payer",
            fields: vec![
                ("Name", Cell::text(o.billing_name.clone())),
                ("E-mail", Cell::link(o.billing_email.clone(), format!("mailto:{}", o.billing_email))),
                ("Phone", Cell::text(o.billing_tel.clone())),
                ("Address", Cell::text(o.billing_address.clone())),
                ("City", Cell::text(o.billing_city.clone())),
                ("State", Cell::text(o.billing_state.clone())),
                ("Postcode", Cell::text(o.billing_zip.clone())),
                ("Country", Cell::text(o.billing_country.clone())),
            ],
        },
        Group {
            heading: "The gateway's answer",
            fields: vec![
                ("Order status", opt(&o.gateway_status)),
                ("Tracking id", opt(&o.tracking_id)),
                ("Bank reference", opt(&o.bank_ref_no)),
                ("Status code", opt(&o.status_code)),
                ("Status message", opt(&o.status_message)),
                ("Failure message", opt(&o.failure_message)),
                ("Payment mode", opt(&o.payment_mode)),
                ("Card", opt(&o.card_name)),
                ("Transaction date", opt(&o.trans_date)),
            ],
        },
    ];
    let page = DetailPage {
        layout: layout(&state, &format!("Order {}", o.order_id), ORDERS).await?,
        heading: format!("Order {}", o.order_id),
        back: (ORDERS, "Orders"),
        actions: Vec::new(),
        groups,
    };
    render(StatusCode::OK, &page)
}

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
    let total = subscribers::count(&state.pool, &filter).await?;
    let rows = subscribers::list(&state.pool, &filter, page)
        .await?
        .into_iter()
        .map(|s| {
            vec![
                Cell::text(s.email),
                Cell::text(s.status),
                Cell::text(s.created),
                Cell::text(s.confirmed.unwrap_or_default()),
            ]
        })
        .collect();
    let summary =
        dashboard::subscribers_by_status(&state.pool).await?.into_iter().map(|row| (row.status, row.count)).collect();
    let page = ListPage {
        layout: layout(&state, "Subscribers", SUBSCRIBERS).await?,
        heading: "Subscribers",
        path: SUBSCRIBERS,
        summary,
        controls: vec![
            Control::search("Search e-mail", params.value("q")),
            Control::select("status", "Status", params.value("status"), &SUBSCRIBER_STATES),
        ],
        columns: vec!["E-mail", "Status", "Signed up (UTC)", "Confirmed (UTC)"],
        rows,
        pager: Pager::new(SUBSCRIBERS, &params, page, total),
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
    let total = outbox::count(&state.pool, &filter).await?;
    let rows = outbox::list(&state.pool, &filter, page)
        .await?
        .into_iter()
        .map(|m| {
            vec![
                Cell::text(m.created),
                Cell::text(m.to_address),
                Cell::text(m.subject),
                Cell::text(m.status),
                Cell::text(m.attempts.to_string()),
                Cell::text(m.last_error.unwrap_or_default()),
                Cell::text(m.sent_at.unwrap_or_default()),
            ]
        })
        .collect();
    let summary =
        dashboard::outbox_by_status(&state.pool).await?.into_iter().map(|row| (row.status, row.count)).collect();
    let page = ListPage {
        layout: layout(&state, "Mail outbox", OUTBOX).await?,
        heading: "Mail outbox",
        path: OUTBOX,
        summary,
        controls: vec![
            Control::search("Search recipient, subject", params.value("q")),
            Control::select("status", "Status", params.value("status"), &MAIL_STATES),
        ],
        columns: vec!["Queued (UTC)", "To", "Subject", "Status", "Attempts", "Last error", "Sent (UTC)"],
        rows,
        pager: Pager::new(OUTBOX, &params, page, total),
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
    let total = audit::count(&state.pool, search.as_deref()).await?;
    let rows = audit::list(&state.pool, search.as_deref(), page)
        .await?
        .into_iter()
        .map(|e| {
            let object = format!("{} {}", e.object_type.unwrap_or_default(), e.object_id.unwrap_or_default());
            vec![
                Cell::text(e.at),
                Cell::text(e.actor),
                Cell::text(e.client.unwrap_or_default()),
                Cell::text(e.action),
                Cell::text(object.trim()),
                Cell::text(e.details),
            ]
        })
        .collect();
    let page = ListPage {
        layout: layout(&state, "Audit log", AUDIT).await?,
        heading: "Audit log",
        path: AUDIT,
        summary: Vec::new(),
        controls: vec![Control::search("Search who, action, object", params.value("q"))],
        columns: vec!["Time (UTC)", "Who", "Client address", "Action", "Object", "Details"],
        rows,
        pager: Pager::new(AUDIT, &params, page, total),
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
