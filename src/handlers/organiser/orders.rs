//! Orders in the back office (DESIGN.md section 12, issue 20 item 4): the list with its CSV
//! of exactly the filtered view, and an order's page with the gateway's answer and its state
//! changes; an internal note and a refund recorded by hand (issue 21 item 5), and its history.

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
use crate::base::money;
use crate::error::AppError;
use crate::export::registrations;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::payments::by_hand;
use crate::repo::orders::{self, ModeFilter, Order, OrderKind, Status};
use crate::repo::receipts;
use crate::views::organiser::detail::{ActionForm, DetailPage, Field, Group};
use crate::views::organiser::shared::Pager;
use crate::views::organiser::shared::{Cell, Control, ListPage};

use crate::views::organiser::shared::shown;

/// The list's address.
pub const ORDERS: &str = "/organiser/orders";

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
    let counts = dashboard::counts(&state).await?;
    let (total, rows) = orders::list(&state.pool, &filter, page, &counts).await?;
    let zone = state.event_zone().await;
    let rows = rows
        .into_iter()
        .map(|o| {
            vec![
                Cell::link(o.order_id.clone(), format!("{ORDERS}/{}", o.order_id)),
                Cell::time(&o.created, &zone),
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
        columns: vec!["Order", "Created", "Name", "E-mail", "Item", "Amount", "State", "Mode"],
        rows,
        pager: Pager::new(ORDERS, &params.filters(), page, total),
        bulk: None,
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
    let zone = state.event_zone().await;
    let mut changes = vec![("initiated", Cell::time(&o.created, &zone))];
    match &o.decided_at {
        Some(at) => changes.push(("decided", Cell::time(at, &zone).then(format!(": {}", o.status)))),
        None => changes.push(("decided", Cell::text("not yet: no answer from the gateway"))),
    }
    if let (Some(at), Some(by)) = (&o.refunded_at, &o.refunded_by) {
        changes.push(("refunded", Cell::time(at, &zone).then(format!(" by {by}, outside the site"))));
    }
    // Its receipt and credit note as numbered (issue 33 item 4).
    for document in receipts::for_order(&mut *state.pool.acquire().await?, &o.order_id).await? {
        let label = if document.kind == "credit_note" { "credit note" } else { "receipt" };
        changes.push((label, Cell::time(&document.issued_at, &zone).then(format!(": {}", document.number))));
    }
    let mut forms = vec![ActionForm {
        heading: "Internal note",
        action: format!("{ORDERS}/{}/note", o.order_id),
        fields: vec![Field::textarea("note", "Internal note (organisers only)", o.note.clone())],
        button: "Save the note",
    }];
    if o.status() == Status::Success && o.refunded_at.is_none() {
        forms.push(ActionForm {
            heading: "Refund",
            action: format!("{ORDERS}/{}/refund", o.order_id),
            fields: vec![Field::hidden("confirm", "refunded")],
            button: "Mark refunded (the money was returned outside the site; nothing is sent to the gateway)",
        });
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
