//! The conference website: one axum server that renders every page and owns every API.
//!
//! `routes::app` builds the router; `server` runs it. Content comes from the database
//! (`repo`), pages from askama templates (`handlers::pages`), islands from `islands/`.

pub mod assets;
pub mod cache_control;
pub mod ccavenue;
pub mod client_ip;
pub mod config;
pub mod connections;
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

pub use routes::app;
