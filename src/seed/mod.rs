//! The content seed: applying it ([`apply`]) with its rules, checked in the seed's
//! transaction and reported by `conference seed --check`: the programme's sessions, the
//! review form and settings, the decision mails' placeholders.

/// Applying the seed in one transaction, its checks, and the seed built into the binary.
pub mod apply;

/// The seed's string literals, each named by table, row and column, where they stand in its
/// text.
pub mod literals;
/// Placeholders of the decision mails' templates: the known names, filling, the seed check.
pub mod placeholders;
/// The review form and settings: criteria, scales, weights, the review mode, limits, the
/// deadline and webmail domains.
pub mod review_rules;
/// The programme: a known zone, sessions that end after they start, one session per room at a
/// time.
pub mod session_rules;
