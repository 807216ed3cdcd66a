//! Sign-in and roles, one mechanism for every role (DESIGN.md section 11): who may sign in to
//! which area, the random secrets of links and sessions, and what a person does to sign in
//! and out.

/// Asking for a sign-in link, and using it to start a session.
pub mod links;
/// Who may sign in, and to which area: organisers, reviewers, desk staff.
pub mod roles;
/// Signing out, here or everywhere.
pub mod sessions;
