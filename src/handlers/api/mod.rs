//! JSON APIs under `/api` (DESIGN.md section 5). The visitor forms (`contact`, `newsletter`,
//! `submission`) are protected by the router-wide `crate::protect::guard` (origin, rate
//! limit); contact and newsletter read their body through `crate::protect::Submission`, the
//! paper upload through its own multipart reader.

pub mod collections;
pub mod contact;
pub mod files;
pub mod health;
pub mod newsletter;
pub mod payments;
pub mod submission;
