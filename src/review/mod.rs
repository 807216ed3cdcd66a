//! Peer review (issue 32, DESIGN.md section 15), in the order a conference runs it:
//! - reviewers: a pasted list of reviewers to invite ([`roster`]), what organisers and the
//!   invited do with invitations ([`reviewers`]) and the invitation's mail ([`invitation_mail`]);
//! - conflicts: the rules that keep a reviewer away from a paper ([`conflicts`]), applied
//!   before any assignment;
//! - assignment: balanced by min-cost flow ([`assign`]), what organisers do with it
//!   ([`assignments`]: stage, release, discard, assign one) and its mail ([`assigned_mail`]);
//! - reviewing: the form's answers and a review's score ([`form`]), what a reviewer may do
//!   with a paper ([`reviewing`]), what its page shows them ([`paper_view`]) and what of its
//!   authors they may read ([`anonymous`]);
//! - deciding: the reviews' figures in words ([`figures`]), what authors read of them
//!   ([`for_authors`]), how far reviewing has come ([`progress`]) and the reminders to
//!   reviewers ([`reminders`]).
//!
//! The seed's rules for the review form sit in `crate::seed::review_rules`, beside the seed's
//! other rules.

pub mod anonymous;
pub mod assign;
pub mod assigned_mail;
pub mod assignments;
pub mod conflicts;
pub mod figures;
pub mod for_authors;
pub mod form;
pub mod invitation_mail;
pub mod paper_view;
pub mod progress;
pub mod reminders;
pub mod reviewers;
pub mod reviewing;
pub mod roster;
