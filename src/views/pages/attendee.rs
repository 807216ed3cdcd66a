//! What the attendee's pages show (issue 33, DESIGN.md section 16): the ticket with its QR
//! code, the name form, the documents and today's streams; "send my link again"; and what a
//! ticket's QR opens.

use askama::Template;

use crate::attendance::attendee::{Issued, Stream};
use crate::attendance::tickets;
use crate::repo::attendees::Ticket;
use crate::views::layout::Layout;

/// What the 404 says about the link.
pub const NOT_FOUND: &str = "This attendee link is not one we sent, or it was copied incompletely. Please use the link from your receipt mail, or ask for it again below.";

/// The ticket as the page shows it.
pub struct Shown {
    pub ticket_type: String,
    pub mode: &'static str,
    pub name: String,
    pub order_id: String,
    /// The QR code (SVG drawn by [`crate::attendance::qr::svg`] from the check-in address,
    /// nothing else).
    pub qr: String,
    pub check_in_url: String,
    pub refunded: bool,
}

impl Shown {
    /// Ticket `t` with its QR code (`qr`, SVG) and the check-in address it encodes.
    pub fn of(t: Ticket, qr: String, check_in_url: String) -> Shown {
        Shown {
            ticket_type: t.ticket_type,
            mode: tickets::mode_label(&t.mode),
            name: t.holder_name,
            order_id: t.order_id,
            qr,
            check_in_url,
            refunded: t.refunded_at.is_some(),
        }
    }
}

/// The name form: where it posts, the name shown in it, its error.
pub struct NameForm {
    pub action: String,
    pub value: String,
    pub error: Option<String>,
    pub max_chars: usize,
}

/// The attendee's page as drawn (`templates/pages/attendee.html`); with no ticket, the 404
/// page with the "send my link again" form.
#[derive(Template)]
#[template(path = "pages/attendee.html")]
pub struct AttendeePage {
    pub layout: Layout,
    pub heading: &'static str,
    pub notice: Option<String>,
    /// `/attendee/<token>`: its PDFs are under it (`ticket.pdf`, `receipt.pdf`,
    /// `credit-note.pdf`).
    pub path: String,
    pub ticket: Option<Shown>,
    /// Open: the form; closed: `None` and [`AttendeePage::changes`] says why.
    pub name_form: Option<NameForm>,
    /// Until when the name can be changed, or since when it cannot, in words.
    pub changes: String,
    pub documents: Vec<Issued>,
    /// Today's streams, for a ticket that is not refunded (`None` for a refunded one).
    pub streams: Option<Vec<Stream>>,
    /// The event's zone in words, for the streams' times.
    pub zone: String,
    pub not_found: &'static str,
    pub resend_action: &'static str,
    /// The "send my link again" form's fields on the 404 page: empty.
    pub email: String,
    pub order: String,
    pub error: Option<String>,
}

/// "Send my link again" as drawn (`templates/pages/attendee_resend.html`).
#[derive(Template)]
#[template(path = "pages/attendee_resend.html")]
pub struct ResendPage {
    pub layout: Layout,
    /// The answer after a request; `None` before one.
    pub answer: Option<&'static str>,
    /// Why the form was refused; it shows again with what was typed.
    pub error: Option<String>,
    pub email: String,
    pub order: String,
    pub resend_action: &'static str,
}

/// What a ticket's QR opens (`templates/pages/check_in.html`): "Show this at the
/// registration desk", nothing about the ticket.
#[derive(Template)]
#[template(path = "pages/check_in.html")]
pub struct CheckInPage {
    pub layout: Layout,
}
