//! The organiser area (DESIGN.md section 12): sign-in by a mailed link (`sign_in`), the
//! sessions and the extractors every organiser route takes (`session`), the dashboard
//! (`dashboard`).

pub mod dashboard;
pub mod session;
pub mod sign_in;
