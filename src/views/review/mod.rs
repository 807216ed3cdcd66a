//! The reviewers' area.

/// What the reviewer's home shows: their papers and the deadline.
pub mod home;
/// What a reviewer's invitation page shows.
pub mod invitation;
/// What a paper's page shows its reviewer: the paper, the review form, the others' reviews, the discussion.
pub mod papers;
/// Reviews and comments as reviewers read them, the review form with what was sent, notices.
pub mod shared;
