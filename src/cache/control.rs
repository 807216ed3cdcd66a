//! The `Cache-Control` values the site's answers carry (DESIGN.md section 9); which answer
//! gets which is decided by `crate::http::cache_control`, and cached pages are prepared with
//! [`PAGE`] so a hit is complete.

/// HTML pages: revalidated by browsers, held 60 s by shared caches, served stale while
/// revalidating for up to 10 minutes (RFC 9111 `s-maxage`, RFC 5861).
pub const PAGE: &str = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";

/// Answers no cache may keep: API answers, payment outcomes, errors.
pub const PRIVATE: &str = "private, no-store";
