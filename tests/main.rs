//! Integration tests of the conference website: one binary (fast to link), one module
//! per area of the spec. Every test drives `conference::app` over its own fresh database.

mod common;

mod api_collections;
mod api_files;
mod health;
mod pages;
mod seed;
mod serving;
