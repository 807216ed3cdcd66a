//! Integration tests of the conference website: one binary (fast to link), one module
//! per area of the spec. Every test drives `conference::app` over its own fresh database.

mod common;

mod api_collections;
mod api_contact;
mod api_files;
mod api_newsletter;
mod api_submission;
mod authors_programme;
mod backup;
mod budget;
mod checkout_pages;
mod clock;
mod connections;
mod crash;
mod database;
mod decisions;
mod downloads;
mod exports;
mod frab;
mod fuzz;
mod health;
mod islands;
mod layers;
mod live_content;
mod mail;
mod mail_consent;
mod organiser;
mod organiser_lists;
mod organiser_notes;
mod organiser_programme;
mod page_cache;
mod pages;
mod panics;
mod payments;
mod payments_mode;
mod programme;
mod programme_pages;
mod protection;
mod seed;
mod seed_check;
mod serving;
mod startup;
mod sweep;
mod test_gateway;
mod tls;
