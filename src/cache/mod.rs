//! Answers prepared once and served from memory (DESIGN.md section 10): every page's bytes
//! with their brotli and gzip forms and strong `ETag`s, and the same for static files and
//! island assets.
//!
//! - `prepared`: one answer in every form, content negotiation and `If-None-Match`;
//! - `compress`: brotli and gzip at their top qualities;
//! - `pages`: rendered pages by route, fresh per content generation and minute or year;
//! - `files`: embedded files and island assets, prepared once;
//! - `control`: the `Cache-Control` values pages and private answers carry;
//! - `assets`: the embedded files themselves and the island tags a page needs, from Vite's
//!   manifest.

pub mod assets;
pub mod compress;
pub mod control;
pub mod files;
pub mod pages;
pub mod prepared;
