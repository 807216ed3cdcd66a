//! CSV of the mail outbox as the organisers' outbox list shows it: no bodies.

use std::io::Write;

use super::csv::SafeWriter;
use crate::repo::outbox::Mail;

/// The header row.
pub const HEADER: [&str; 8] = ["id", "created", "to_address", "subject", "status", "attempts", "last_error", "sent_at"];

/// One mail's row.
pub fn write_row<W: Write>(out: &mut SafeWriter<W>, m: &Mail) -> csv::Result<()> {
    out.write_record([
        m.id.to_string().as_str(),
        &m.created,
        &m.to_address,
        &m.subject,
        &m.status,
        m.attempts.to_string().as_str(),
        m.last_error.as_deref().unwrap_or(""),
        m.sent_at.as_deref().unwrap_or(""),
    ])
}
