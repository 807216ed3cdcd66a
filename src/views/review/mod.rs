//! The reviewers' area.

/// Reviews and comments as reviewers read them, the review form with what was sent, notices.
pub mod shared;
/// What a reviewer's invitation page shows.
pub mod invitation;
