//! Orders in the back office (`crate::handlers::organiser::orders`): the list's rows, columns
//! and filters, and an order's page: its fields, the gateway's answer, its state changes and
//! the forms that record a note or a refund by hand.

use crate::base::money;
use crate::clock::zone::Zone;
use crate::repo::orders::{Order, Status};
use crate::repo::receipts::Receipt;
use crate::views::organiser::detail::{ActionForm, Field, Group};
use crate::views::organiser::shared::{Cell, Control};

/// The list's address.
pub const ORDERS: &str = "/organiser/orders";

/// The list's columns, in the order of [`row`]'s cells.
pub const COLUMNS: [&str; 8] = ["Order", "Created", "Name", "E-mail", "Item", "Amount", "State", "Mode"];

/// Order `o` as the list shows it, times in `zone`.
pub fn row(o: Order, zone: &Zone) -> Vec<Cell> {
    vec![
        Cell::link(o.order_id.clone(), format!("{ORDERS}/{}", o.order_id)),
        Cell::time(&o.created, zone),
        Cell::text(o.billing_name),
        Cell::text(o.billing_email),
        Cell::text(format!("{} ({})", o.item_title, o.kind)),
        Cell::text(format!("{} {}", o.currency, money::format_cents(o.amount_cents))),
        Cell::text(o.status),
        Cell::text(o.payments_mode.unwrap_or_else(|| "not recorded".into())),
    ]
}

/// The list's filters, each showing the `value` of its query parameter.
pub fn controls(value: impl Fn(&str) -> String) -> Vec<Control> {
    vec![
        Control::search("Search order id, e-mail, name", value("q")),
        Control::select(
            "status",
            "State",
            value("status"),
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
            value("kind"),
            &[("plan", "plan"), ("custom", "custom"), ("sponsor", "sponsor")],
        ),
        Control::select(
            "payments_mode",
            "Payments mode",
            value("payments_mode"),
            &[("live", "live"), ("test", "TEST mode"), ("none", "before modes were recorded")],
        ),
    ]
}

/// The forms of order `o`'s page: its internal note, and "Mark refunded" for a paid order not
/// marked yet.
pub fn forms(o: &Order) -> Vec<ActionForm> {
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
    forms
}

/// Order `o`'s fields in groups: the order, its state changes (with its receipt and credit
/// note, `documents`, as numbered), the payer and the gateway's answer; times in `zone`.
pub fn groups(o: &Order, documents: &[Receipt], zone: &Zone) -> Vec<Group> {
    let opt = |value: &Option<String>| Cell::text(value.clone().unwrap_or_default());
    let mut changes = vec![("initiated", Cell::time(&o.created, zone))];
    match &o.decided_at {
        Some(at) => changes.push(("decided", Cell::time(at, zone).then(format!(": {}", o.status)))),
        None => changes.push(("decided", Cell::text("not yet: no answer from the gateway"))),
    }
    if let (Some(at), Some(by)) = (&o.refunded_at, &o.refunded_by) {
        changes.push(("refunded", Cell::time(at, zone).then(format!(" by {by}, outside the site"))));
    }
    for document in documents {
        let label = if document.kind == "credit_note" { "credit note" } else { "receipt" };
        changes.push((label, Cell::time(&document.issued_at, zone).then(format!(": {}", document.number))));
    }
    vec![
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
    ]
}
