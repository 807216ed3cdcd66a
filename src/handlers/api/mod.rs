//! JSON APIs under `/api` (DESIGN.md section 5).

pub mod collections;
pub mod files;
pub mod health;
pub mod forms;
pub mod payments;
