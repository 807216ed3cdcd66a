//! Orders in the back office (DESIGN.md section 12, issue 20 item 4): the list with its CSV
//! of exactly the filtered view, and an order's page with the gateway's answer and its state
//! changes; an internal note and a refund recorded by hand (issue 21 item 5), and its history.

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
use crate::export::registrations;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::payments::by_hand;
use crate::repo::orders::{self, ModeFilter, Order, OrderKind, Status};
use crate::repo::receipts;
use crate::views::organiser::detail::DetailPage;
pub use crate::views::organiser::orders::ORDERS;
use crate::views::organiser::orders::{COLUMNS, controls, forms, groups, row};
use crate::views::organiser::shared::shown;

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

const ORDER_LIST: List<orders::Filter, Order> = List {
    title: "Orders",
    path: ORDERS,
    known: &["status", "kind", "payments_mode", "q"],
    filter: |params| {
        Ok(orders::Filter {
            status: params.one_of("status", &STATES)?,
            kind: params.one_of("kind", &KINDS)?,
            payments_mode: params.one_of("payments_mode", &MODES)?,
            search: params.search()?,
        })
    },
    columns: &COLUMNS,
    // The columns of `conference export registrations`.
    csv: CsvList {
        list: "orders",
        header: &registrations::HEADER,
        rows: orders::stream,
        write: |out, o| registrations::write_row(out, &o),
    },
};

/// GET `/organiser/orders`.
pub async fn order_list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let query = ORDER_LIST.read(raw.as_deref())?;
    let counts = dashboard::counts(&state).await?;
    let (total, rows) = orders::list(&state.pool, &query.filter, query.page, &counts).await?;
    let zone = state.event_zone().await;
    let controls = controls(|name| query.params.value(name));
    let cells = rows.into_iter().map(|o| row(o, &zone)).collect();
    ORDER_LIST.show(&state, &query, Rows { summary: Vec::new(), controls, cells, total }).await
}

/// GET `/organiser/orders.csv`.
pub async fn order_csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    ORDER_LIST.csv(&state, &organiser, raw.as_deref()).await
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
    let zone = state.event_zone().await;
    // Its receipt and credit note as numbered (issue 33 item 4).
    let documents = receipts::for_order(&mut *state.pool.acquire().await?, &o.order_id).await?;
    let (groups, forms) = (groups(&o, &documents, &zone), forms(&o));
    let page = DetailPage {
        layout: layout(&state, &format!("Order {}", o.order_id), ORDERS).await?,
        heading: format!("Order {}", o.order_id),
        back: (ORDERS, "Orders"),
        actions: Vec::new(),
        groups,
        forms,
        history: Some(history(&state, "order", &o.order_id).await?),
    };
    render(StatusCode::OK, &page)
}

/// POST `/organiser/orders/{order_id}/note` (`note`): the organisers' internal note
/// ([`by_hand::set_note`]); 303 to the order.
pub async fn order_note(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(order_id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    let fields = fields(&body);
    let note = note(&fields)?;
    let saved = by_hand::set_note(&state.pool, state.clock.now(), &organiser.actor(), &order_id, note).await?;
    Ok(see_other(&format!("{ORDERS}/{}", saved.order_id)))
}

/// POST `/organiser/orders/{order_id}/refund` (`confirm=refunded`): records that a paid
/// order's money was returned outside the site ([`by_hand::refund`]); 303 to the order. 400
/// without the confirmation, 409 when the order is not paid or was marked already.
pub async fn order_refund(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(order_id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    if one(&fields(&body), "confirm")? != "refunded" {
        return Err(AppError::BadRequest("Confirm the refund with confirm=refunded.".into()));
    }
    let refunded = by_hand::refund(&state.pool, state.clock.now(), &organiser.actor(), &order_id).await?;
    Ok(see_other(&format!("{ORDERS}/{}", refunded.order_id)))
}
