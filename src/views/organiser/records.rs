//! The back office's other lists (`crate::handlers::organiser::records`): the rows and
//! columns of the newsletter subscribers, the mail outbox and the audit log.

use crate::clock::zone::Zone;
use crate::repo::audit::Entry;
use crate::repo::{outbox, subscribers};
use crate::views::organiser::shared::{self as view, Cell};

/// The subscribers' columns, in the order of [`subscriber_row`]'s cells.
pub const SUBSCRIBER_COLUMNS: [&str; 4] = ["E-mail", "Status", "Signed up", "Confirmed"];

/// A subscriber as the list shows them, times in `zone`.
pub fn subscriber_row(s: subscribers::Subscriber, zone: &Zone) -> Vec<Cell> {
    vec![
        Cell::text(s.email),
        Cell::text(s.status),
        Cell::time(&s.created, zone),
        Cell::time_or(s.confirmed.as_deref(), zone, ""),
    ]
}

/// The outbox's columns, in the order of [`outbox_row`]'s cells.
pub const OUTBOX_COLUMNS: [&str; 7] = ["Queued", "To", "Subject", "Status", "Attempts", "Last error", "Sent"];

/// A mail as the outbox shows it: its state, attempts and last error, times in `zone`.
pub fn outbox_row(m: outbox::Mail, zone: &Zone) -> Vec<Cell> {
    vec![
        Cell::time(&m.created, zone),
        Cell::text(m.to_address),
        Cell::text(m.subject),
        Cell::text(m.status),
        Cell::text(m.attempts.to_string()),
        Cell::text(m.last_error.unwrap_or_default()),
        Cell::time_or(m.sent_at.as_deref(), zone, ""),
    ]
}

/// The audit log's columns, in the order of [`audit_row`]'s cells.
pub const AUDIT_COLUMNS: [&str; 6] = ["Time", "Who", "Client address", "Action", "Object", "Details"];

/// An audit entry as the log shows it, its action in words with the stored name the search
/// and the CSV use; times in `zone`.
pub fn audit_row(e: Entry, zone: &Zone) -> Vec<Cell> {
    let object = format!("{} {}", e.object_type.unwrap_or_default(), e.object_id.unwrap_or_default());
    vec![
        Cell::time(&e.at, zone),
        Cell::text(view::actor_label(&e.actor)),
        Cell::text(e.client.unwrap_or_default()),
        // In words, with the stored name the search and the CSV use.
        Cell::text(match view::action_label(&e.action) {
            label if label == e.action => e.action.clone(),
            label => format!("{label} ({})", e.action),
        }),
        Cell::text(object.trim()),
        Cell::text(e.details),
    ]
}
