//! The check-in desk's page (`crate::handlers::organiser::check_in`): the answer to a scanned
//! or typed code as the page and the island show it ([`Shown`]), the tickets a search found,
//! and the desk page itself ([`DeskPage`]).

use askama::Template;
use serde::Serialize;

use crate::attendance::check_in::{self as desk, Answer};
use crate::attendance::tickets;
use crate::clock::zone::Zone;
use crate::repo::attendees::Ticket;
use crate::repo::check_ins::Found;
use crate::views::layout::Layout;

/// The answer as the page and the island show it.
#[derive(Debug, Clone, Serialize)]
pub struct Shown {
    /// `valid`, `already`, `refunded`, `unknown`, `not_today`.
    pub result: &'static str,
    /// The answer in a few words, e.g. "Valid: welcome".
    pub title: String,
    /// Further lines: name, ticket type, mode; when and by whom.
    pub lines: Vec<String>,
    pub name: Option<String>,
    pub ticket_type: Option<String>,
    /// `virtual` or `physical`.
    pub mode: Option<String>,
    pub order_id: Option<String>,
    /// The earlier check-in (RFC 3339 UTC) and its desk, for `already`.
    pub at: Option<String>,
    pub by: Option<String>,
}

/// What the desk says of a virtual ticket: the desk is at the venue, the ticket is not.
pub const VIRTUAL_LINE: &str = "Virtual ticket: it is for the online sessions and includes no seat at the venue.";

/// What the desk shows of `ticket`: holder, type and mode, order; a virtual ticket says so first.
pub fn ticket_lines(ticket: &Ticket) -> Vec<String> {
    let mut lines = vec![
        ticket.holder_name.clone(),
        format!("{} · {}", ticket.ticket_type, tickets::mode_label(&ticket.mode)),
        format!("Order {}", ticket.order_id),
    ];
    if ticket.mode != "physical" {
        lines.insert(0, VIRTUAL_LINE.to_owned());
    }
    lines
}

/// The answer as the page and the island show it, times in `zone`; `days` are the days
/// check-in is open (for "not today").
pub fn shown(answer: &Answer, zone: &Zone, days: &str) -> Shown {
    let (title, mut lines, at, by) = match answer {
        Answer::Valid(t) if t.mode != "physical" => ("Valid: virtual ticket".to_owned(), ticket_lines(t), None, None),
        Answer::Valid(t) => ("Valid: welcome".to_owned(), ticket_lines(t), None, None),
        Answer::Already { ticket, at, by } => {
            let mut lines = ticket_lines(ticket);
            lines.insert(0, format!("Checked in at {} by {by}.", desk::when_label(at, zone)));
            ("Already checked in today".to_owned(), lines, Some(at.clone()), Some(by.clone()))
        }
        Answer::Refunded(t) => ("Refunded: this ticket no longer admits".to_owned(), ticket_lines(t), None, None),
        Answer::Unknown => {
            ("Unknown code: no ticket has it".to_owned(), vec!["Check the code, or search by name.".into()], None, None)
        }
        Answer::NotToday(t) => {
            let mut lines = ticket_lines(t);
            lines.insert(0, format!("Check-in is open on {days}."));
            ("Not valid today".to_owned(), lines, None, None)
        }
    };
    lines.retain(|l| !l.is_empty());
    let ticket = answer.ticket();
    Shown {
        result: answer.kind(),
        title,
        lines,
        name: ticket.map(|t| t.holder_name.clone()),
        ticket_type: ticket.map(|t| t.ticket_type.clone()),
        mode: ticket.map(|t| t.mode.clone()),
        order_id: ticket.map(|t| t.order_id.clone()),
        at,
        by,
    }
}

/// The island's props: where to post, and the answer the page shows (after a form POST).
#[derive(Serialize)]
pub struct IslandProps {
    pub action: &'static str,
    pub shown: Option<Shown>,
}

/// One ticket a search found.
pub struct FoundLine {
    pub code: String,
    pub name: String,
    pub detail: String,
    pub state: Option<String>,
    pub refunded: bool,
}

/// The desk: the scanner, the typed-code form, the last answer and what a search found.
#[derive(Template)]
#[template(path = "organiser/check_in.html")]
pub struct DeskPage {
    pub layout: Layout,
    /// Desk staff see no other organiser page: no lists in the header.
    pub organiser: bool,
    pub email: String,
    pub today: String,
    pub open: bool,
    pub days: String,
    pub zone: String,
    pub shown: Option<Shown>,
    pub error: Option<String>,
    pub code: String,
    pub query: String,
    pub found: Option<Vec<FoundLine>>,
    pub props: IslandProps,
    pub field_max: usize,
}

/// One ticket a search found, as the desk lists it (times in `zone`).
pub fn found_line(f: Found, zone: &Zone) -> FoundLine {
    FoundLine {
        detail: format!("{} · {} · Order {}", f.ticket_type, tickets::mode_label(&f.mode), f.order_id),
        state: f.checked_in_at.as_deref().map(|at| format!("Checked in today at {}", desk::when_label(at, zone))),
        refunded: f.refunded_at.is_some(),
        code: f.code,
        name: f.holder_name,
    }
}
