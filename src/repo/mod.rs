//! All SQL lives here, in functions taking a connection or pool, grouped by area.

pub mod content;
pub mod messages;
pub mod orders;
pub mod papers;
pub mod submissions;
pub mod subscribers;
