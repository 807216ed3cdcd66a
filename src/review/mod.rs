//! Peer review (issue 32, DESIGN.md section 15). So far: the conflict rules that keep a
//! reviewer away from a paper ([`conflicts`]), applied before any assignment.
//! Deciding from the reviews (items 7 to 9): their figures in words ([`figures`]), what
//! authors read of them ([`for_authors`]) and the reminders to reviewers ([`reminders`]).

pub mod conflicts;
pub mod figures;
pub mod for_authors;
pub mod reminders;
