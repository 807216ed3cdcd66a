//! The content seed's rules, which `db::seed` applies in the seed's transaction and
//! `conference seed --check` reports: the programme's sessions, the review form and settings,
//! the decision mails' placeholders.

/// Placeholders of the decision mails' templates: the known names, filling, the seed check.
pub mod placeholders;
/// The review form and settings: criteria, scales, weights, the review mode, limits, the
/// deadline and webmail domains.
pub mod review_rules;
/// The programme: a known zone, sessions that end after they start, one session per room at a
/// time.
pub mod session_rules;
