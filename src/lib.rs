//! The conference website: one axum server that renders every page and owns every API.
//!
//! `routes::app` builds the router; `server` runs it. Content comes from the database
//! (`repo`) into an in-memory snapshot (`content`); pages are askama templates rendered from
//! it (`handlers::pages`) and kept compressed (`cache`); islands come from `islands/`.

pub mod assets;
pub mod cache;
pub mod cache_control;
pub mod cache_hits;
pub mod ccavenue;
pub mod client_ip;
pub mod clock;
pub mod config;
pub mod connections;
pub mod content;
pub mod dates;
pub mod db;
pub mod error;
pub mod export;
pub mod handlers;
pub mod layout;
pub mod mail;
pub mod money;
pub mod paper_form;
pub mod payments;
pub mod protect;
pub mod repo;
pub mod routes;
pub mod security;
pub mod server;
pub mod state;
pub mod sweep;
pub mod validate;

pub use cache_hits::App;
pub use routes::app;
