//! Integration tests of the conference website: one binary (fast to link), one module
//! per area of the spec. Every test drives `conference::app` over its own fresh database.

mod common;

mod api_collections;
mod api_contact;
mod api_files;
mod api_newsletter;
mod api_submission;
mod checkout_pages;
mod connections;
mod crash;
mod fuzz;
mod health;
mod islands;
mod mail;
mod pages;
mod payments;
mod protection;
mod seed;
mod serving;
mod sweep;
mod test_gateway;
