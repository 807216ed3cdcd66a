//! HTTP handlers, one module per area; `crate::http::router` mounts them and
//! [`page_table`] lists every page.

pub mod ahead;
pub mod api;
pub mod calendars;
pub mod exports;
pub mod extract;
pub mod organiser;
pub mod page_table;
pub mod pages;
pub mod render;
pub mod review;
pub mod seo;
pub mod state;
