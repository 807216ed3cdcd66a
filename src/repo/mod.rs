//! All SQL lives here, in functions taking a connection or pool, grouped by area.

pub mod assignments;
pub mod attendees;
pub mod audit;
pub mod camera_ready;
pub mod certificates;
pub mod check_ins;
pub mod content;
pub mod dashboard;
pub mod decisions;
pub mod filter;
pub mod messages;
pub mod orders;
pub mod organisers;
pub mod outbox;
pub mod papers;
pub mod programme;
pub mod published;
pub mod receipts;
pub mod review_records;
pub mod reviewers;
pub mod reviews;
pub mod settings;
pub mod streams;
pub mod submissions;
pub mod subscribers;
