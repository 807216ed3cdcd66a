//! From a request to a handler and back: the router and its middleware stack (`router`),
//! the cache-hit fast path ahead of it (`cache_hits`), the POST guard (`guard`), body limits
//! (`body_limit`), security headers (`security`) and the `Cache-Control` policy
//! (`cache_control`).

pub mod body_limit;
pub mod cache_control;
pub mod cache_hits;
pub mod guard;
pub mod page_check;
pub mod response_headers;
pub mod router;
pub mod security;
pub mod trace;
