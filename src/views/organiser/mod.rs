//! The organisers' pages.

/// What every organiser page shares: cells, controls, times, the area's navigation, labels
/// of audit actions and actors, the list page and its pager.
pub mod shared;
