//! The organiser area (DESIGN.md section 12): sign-in by a mailed link (`sign_in`), the
//! sessions and the extractors every organiser route takes (`session`), the dashboard
//! (`dashboard`), decisions on submissions (`decide`), the back office's lists and detail pages (`submissions`, `messages`, `orders`, `records`), their
//! query strings (`query`), form bodies (`form`), page shapes (`view`) and downloads (`download`).

pub mod assignments;
pub mod certificates;
pub mod check_in;
pub mod dashboard;
pub mod decide;
pub mod download;
pub mod form;
pub mod history;
pub mod lists;
pub mod messages;
pub mod notice;
pub mod orders;
pub mod programme;
pub mod query;
pub mod records;
pub mod review_progress;
pub mod reviewers;
pub mod reviews_csv;
pub mod session;
pub mod settings;
pub mod sign_in;
pub mod streams;
pub mod submission;
pub mod submissions;
