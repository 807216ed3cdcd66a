//! Decisions on submissions (issue 21, DESIGN.md section 12 "Decisions"): the states, the
//! decisions organisers stage and apply with their mails, and what an author does through the
//! private status link. One file per responsibility:
//!
//! - [`states`]: the states, [`Decision`], the status links;
//! - [`mails`]: the decision mails made from the seed's templates;
//! - [`stage`]: organisers staging (or clearing) a pending decision;
//! - [`apply`]: the preview of the pending decisions, and applying them with their mails;
//! - [`reviews`]: what organisers decide from, a submission's reviews and discussion;
//! - [`authors`]: the author's status page and withdrawing (the public abstract and presenter
//!   they set for the programme are `crate::programme::authors`).

pub mod apply;
pub mod authors;
pub mod mails;
pub mod reviews;
pub mod stage;
pub mod states;

// The names other areas' pages use, where they always were.
pub use states::state_label;
