//! Server-rendered pages: one module per page or group of similar pages, each with its
//! template struct and handler.

pub mod about;
pub mod attendee;
pub mod camera_ready;
pub mod certificate;
pub mod changes;
pub mod errors;
pub mod home;
pub mod info;
pub mod newsletter;
pub mod payment_result;
pub mod policies;
pub mod schedule;
pub mod submission_status;
pub mod talk;
pub mod test_gateway;
