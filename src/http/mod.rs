//! From a request to a handler and back: the router and its middleware stack (`router`),
//! the cache-hit fast path ahead of it (`cache_hits`), the POST guard (`guard`), body limits
//! (`body_limit`), security headers (`security`), the `Cache-Control` policy
//! (`cache_control`), what may be compressed (`compressible`), response bodies that end once
//! and panics that are counted (`body_guard`, `panics`).

pub mod body_guard;
pub mod body_limit;
pub mod cache_control;
pub mod cache_hits;
pub mod compressible;
pub mod guard;
pub mod page_check;
pub mod panics;
pub mod response_headers;
pub mod router;
pub mod security;
pub mod trace;
