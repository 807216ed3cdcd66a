//! The organisers' dashboard (`crate::handlers::organiser::dashboard`): the counts, the mail,
//! this organiser's sessions and the latest audit entries ([`DashboardPage`]).

use std::sync::Arc;

use askama::Template;

use crate::base::money;
use crate::repo::audit::Entry;
use crate::repo::dashboard::Counts;
use crate::repo::organisers::Session;
use crate::views::layout::Layout;
use crate::views::organiser::shared::{self as view, Cell};

/// The dashboard of a signed-in organiser.
#[derive(Template)]
#[template(path = "organiser/dashboard.html")]
pub struct DashboardPage {
    pub layout: Layout,
    pub email: String,
    /// Submissions by paper type and state, messages, orders, paid totals, subscribers, mail.
    pub counts: Arc<Counts>,
    pub sessions: Vec<Session>,
    /// The row of the session this page was asked with.
    pub current_session: i64,
    pub entries: Vec<Entry>,
    /// Check-ins per day and ticket type (issue 33 item 3).
    pub check_ins: Vec<crate::repo::check_ins::DayCount>,
    /// The event's zone, the times' ([`view::when`]).
    pub zone: crate::clock::zone::Zone,
}

impl DashboardPage {
    /// A paid total as the receipts write it, e.g. `219.00`.
    pub fn amount(&self, cents: &i64) -> String {
        money::format_cents(*cents)
    }

    /// A stored time in the event's zone, as a `<time datetime>`.
    pub fn when(&self, stamp: &str) -> view::Moment {
        view::when(stamp, &self.zone)
    }

    /// A stored state or status in words (`submitted` is "Submitted").
    pub fn word(&self, value: &str) -> String {
        view::word(value)
    }

    /// An audit entry's action in words ("Pending decision set").
    pub fn action<'a>(&self, action: &'a str) -> &'a str {
        view::action_label(action)
    }

    /// Who did it ("The author" for `author`).
    pub fn actor<'a>(&self, actor: &'a str) -> &'a str {
        view::actor_label(actor)
    }

    /// What an audit entry is about, linked to its page when it has one.
    pub fn object(&self, entry: &Entry) -> Cell {
        let (Some(kind), Some(id)) = (entry.object_type.as_deref(), entry.object_id.as_deref()) else {
            return Cell::text("");
        };
        match kind {
            "submission" => Cell::link(format!("Submission {id}"), format!("/organiser/submissions/{id}")),
            "message" => Cell::link(format!("Message {id}"), format!("/organiser/messages/{id}")),
            "order" => Cell::link(format!("Order {id}"), format!("/organiser/orders/{id}")),
            "list" => Cell::text(format!("List of {id}")),
            "programme" => Cell::link(format!("Programme version {id}"), "/organiser/programme"),
            "organiser" => Cell::text(id),
            other => Cell::text(format!("{} {id}", view::word(other))),
        }
    }

    /// How a payments mode is named on the dashboard.
    pub fn mode_label(&self, mode: &str) -> &'static str {
        match mode {
            "live" => "Live",
            "test" => "TEST mode",
            _ => "before modes were recorded",
        }
    }
}
