//! All SQL lives here, in functions taking a connection or pool, grouped by area.

pub mod collections;
pub mod content;
