//! The mails of a paid order (DESIGN.md section 6: "A receipt names the order id, plan,
//! amount, currency, date and the gateway's tracking id"): the payer's receipt and the
//! organisers' notice, each queued once per order through its dedupe key. The receipt names
//! its number and, for a registration, carries the attendee page's private link (DESIGN.md
//! section 16), both made in the same transaction ([`crate::attendance::issue`]).

use askama::Template;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;

use crate::attendance::issue::Issued;
use crate::attendance::links;
use crate::base::money;
use crate::mail::{Context, MailSite, OutgoingMail, compose};
use crate::payments::config::Mode;
use crate::repo::orders::Order;

/// The receipt's dedupe key: one receipt per order, however often the gateway answers.
pub fn receipt_key(order_id: &str) -> String {
    format!("receipt:{order_id}")
}

/// The organisers' notice dedupe key.
pub fn notice_key(order_id: &str) -> String {
    format!("receipt-notice:{order_id}")
}

/// What both mails show, formatted once.
pub struct ReceiptView<'a> {
    pub order: &'a Order,
    /// e.g. `USD 219.00`.
    pub amount: String,
    /// e.g. `219.00`.
    pub amount_plain: String,
    /// When the payment was recorded, e.g. `21 March 2025, 09:30 UTC`.
    pub date: String,
    /// What the order is: `Ticket`, `Custom payment` or `Sponsorship`.
    pub kind_label: &'static str,
    pub tracking_id: &'a str,
    pub bank_ref_no: &'a str,
    pub payment_mode: &'a str,
    /// The receipt's number, `RCPT-2025-000123`; empty when the view is drawn without one.
    pub number: &'a str,
    /// `Receipt`, or `Invoice` when the seed turns that word on.
    pub title: &'a str,
    /// The attendee page's private link, for a registration.
    pub attendee_url: Option<String>,
}

impl<'a> ReceiptView<'a> {
    pub fn new(order: &'a Order) -> Self {
        let date = order
            .decided_at
            .as_deref()
            .and_then(|d| OffsetDateTime::parse(d, &Rfc3339).ok())
            .and_then(|d| {
                d.format(format_description!("[day padding:none] [month repr:long] [year], [hour]:[minute] UTC")).ok()
            })
            .unwrap_or_default();
        ReceiptView {
            amount: money::format_display(order.amount_cents, &order.currency),
            amount_plain: money::format_cents(order.amount_cents),
            date,
            kind_label: match order.kind.as_str() {
                "sponsor" => "Sponsorship",
                "custom" => "Custom payment",
                _ => "Registration ticket",
            },
            tracking_id: order.tracking_id.as_deref().unwrap_or(""),
            bank_ref_no: order.bank_ref_no.as_deref().unwrap_or(""),
            payment_mode: order.payment_mode.as_deref().unwrap_or(""),
            number: "",
            title: "Receipt",
            attendee_url: None,
            order,
        }
    }
}

#[derive(Template)]
#[template(path = "mail/receipt_payer.txt")]
pub struct ReceiptText<'a> {
    pub site: &'a MailSite,
    pub r: &'a ReceiptView<'a>,
}

#[derive(Template)]
#[template(path = "mail/receipt_payer.html")]
pub struct ReceiptHtml<'a> {
    pub site: &'a MailSite,
    pub r: &'a ReceiptView<'a>,
}

#[derive(Template)]
#[template(path = "mail/receipt_notice.txt")]
pub struct NoticeText<'a> {
    pub site: &'a MailSite,
    pub r: &'a ReceiptView<'a>,
}

#[derive(Template)]
#[template(path = "mail/receipt_notice.html")]
pub struct NoticeHtml<'a> {
    pub site: &'a MailSite,
    pub r: &'a ReceiptView<'a>,
}

/// The payer's receipt and the organisers' notice for a paid `order` (its gateway fields and
/// `decided_at` filled in) with what the payment `issued` (the receipt's number and document
/// title, the attendee link), ready to queue in the transaction that records the payment.
pub fn mails(ctx: &Context, order: &Order, issued: &Issued) -> Result<Vec<OutgoingMail>, askama::Error> {
    let content = crate::attendance::receipts::Content::read(&issued.receipt.content);
    let r = ReceiptView {
        number: &issued.receipt.number,
        title: content.as_ref().map_or("Receipt", |c| if c.title == "Invoice" { "Invoice" } else { "Receipt" }),
        attendee_url: issued.link.as_deref().map(|token| links::url(&ctx.site.url, token)),
        ..ReceiptView::new(order)
    };
    let site = &ctx.site;
    // A payment through the built-in test gateway took no money; its mails say so first.
    let test = if order.payments_mode.as_deref() == Some(Mode::Test.as_str()) { "TEST " } else { "" };
    let receipt = compose(
        &order.billing_email,
        ctx.subject(&format!("{test}Payment {} {} ({})", r.title.to_lowercase(), r.number, order.order_id)),
        &ReceiptText { site, r: &r },
        &ReceiptHtml { site, r: &r },
    )?
    .reply_to(&site.contact_email)
    .dedupe_key(receipt_key(&order.order_id));
    let notice = compose(
        &ctx.addresses.organisers,
        ctx.subject(&format!("{test}Payment received: {}, {} ({})", order.item_title, r.amount, order.order_id)),
        &NoticeText { site, r: &r },
        &NoticeHtml { site, r: &r },
    )?
    .reply_to(&order.billing_email)
    .dedupe_key(notice_key(&order.order_id));
    Ok(vec![receipt, notice])
}
