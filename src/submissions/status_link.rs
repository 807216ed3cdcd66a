//! The author's private status link (DESIGN.md section 12 "Decisions"): where it points. It
//! is handed out when a paper is submitted and again with each decision mail; the token is a
//! `crate::base::secrets::Secret`, stored only as its hash.

use crate::config::Config;

/// Where an author's status link points, before the token.
pub const STATUS_PREFIX: &str = "/submission/status/";

/// The address of a status link: `PUBLIC_URL/submission/status/<token>` (never the request's
/// `Host`, which a client chooses).
pub fn status_link(config: &Config, token: &str) -> String {
    format!("{}{STATUS_PREFIX}{token}", config.base_url())
}
