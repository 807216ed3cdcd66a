//! The programme (issue 31, DESIGN.md section 14). The seed's sessions and the organisers'
//! placement make a [`draft::draft`]; [`conflicts`] says whether it may be published;
//! [`publish`] freezes it as a [`Published`] version with its [`changes`]; the
//! [`timetable`] is what visitors read of the latest version, in the event's zone. How a talk
//! is placed is [`placing`]; a paper's public abstract, presenter and the lock on authors'
//! edits are [`public_fields`]; what an author sets through the status link is [`authors`];
//! what organisers see of the draft is [`overview`].

pub mod abstracts;
pub mod authors;
pub mod changes;
pub mod conflicts;
pub mod draft;
pub mod frab;
pub mod ical;
pub mod moved_mail;
pub mod overview;
pub mod placing;
pub mod public_fields;
pub mod publish;
pub mod timetable;

pub use crate::repo::published::{Change, Published, PublishedSession, Slot, Talk, VersionSummary};
pub use timetable::*;
