//! The programme (issue 31, DESIGN.md section 14). The seed's sessions and the organisers'
//! placement make a [`draft::draft`]; [`conflicts`] says whether it may be published;
//! [`publish`] freezes it as a [`Published`] version with its [`changes`]; the
//! [`timetable`] is what visitors read of the latest version, in the event's zone.

pub mod abstracts;
pub mod changes;
pub mod conflicts;
pub mod draft;
pub mod publish;
pub mod timetable;

pub use crate::repo::published::{Change, Published, PublishedSession, Slot, Talk, VersionSummary};
pub use timetable::*;
