//! The public pages.

/// What several public pages show alike: dates, speakers, the venue's schema.org place.
pub mod shared;
