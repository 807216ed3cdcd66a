//! The domain's actions called as a handler calls them, without a request or the router
//! (DESIGN.md section 11, "handlers are adapters"): for each, what it refuses (and that a
//! refusal stores nothing), and the audit entry it writes in its transaction. The set-up
//! may use the public API; the action under test is a plain function call.

mod assignments;
mod attendees;
pub(crate) mod camera_ready;
mod certificates;
mod check_in;
mod decisions;
mod format_check;
mod messages;
mod orders;
mod programme;
mod reminders;
mod reviewers;
mod reviewing;
mod sign_in;
mod streams;
mod submission;
