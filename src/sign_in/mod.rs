//! Sign-in and roles, one mechanism for every role (DESIGN.md section 11): who may sign in to
//! which area, and the random secrets of links and sessions.

/// Who may sign in, and to which area: organisers, reviewers, desk staff.
pub mod roles;
/// Random link tokens and session ids, stored as their SHA-256.
pub mod secrets;
