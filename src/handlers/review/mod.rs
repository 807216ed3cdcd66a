//! The reviewers' area, `/review/...` (issue 32, DESIGN.md section 15): signing in by the
//! shared mailed link (`crate::handlers::organiser::sign_in` with `Role::Reviewer`), the
//! extractors every reviewer route takes (`session`) and the reviewer's home (`home`).

pub mod home;
pub mod invitation;
pub mod papers;
pub mod session;
