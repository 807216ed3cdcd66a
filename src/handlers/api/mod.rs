//! JSON APIs under `/api` (DESIGN.md section 5).

pub mod collections;
pub mod contact;
pub mod files;
pub mod health;
pub mod newsletter;
pub mod forms;
pub mod payments;
pub mod submission;
