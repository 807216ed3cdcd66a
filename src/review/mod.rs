//! Peer review (issue 32, DESIGN.md section 15): the conflict rules that keep a reviewer
//! away from a paper ([`conflicts`]), applied before any assignment; a pasted list of
//! reviewers to invite ([`roster`]); deciding from the reviews: their figures in words
//! ([`figures`]), what authors read of them ([`for_authors`]) and the reminders to
//! reviewers ([`reminders`]).

pub mod assign;
pub mod assigned_mail;
pub mod conflicts;
pub mod figures;
pub mod for_authors;
pub mod reminders;
pub mod roster;
