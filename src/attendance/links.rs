//! The attendee's private link `PUBLIC_URL/attendee/<token>` (DESIGN.md section 16): 32
//! random bytes, base64url, of which only the SHA-256 is stored
//! ([`crate::base::secrets::Secret`]). A ticket gets one with its receipt mail and one more each
//! time "send my link again" mails it; every one keeps working, so a stranger who knows an
//! order's id and address can make the site mail its owner but cannot take a link away.

use crate::base::secrets::Secret;
use crate::db::Connection;
use crate::repo::attendees;

/// Where attendee links live.
pub const PREFIX: &str = "/attendee/";

/// The link of `token`: `PUBLIC_URL/attendee/<token>` (`base_url` without a trailing slash).
pub fn url(base_url: &str, token: &str) -> String {
    format!("{base_url}{PREFIX}{token}")
}

/// A new link to ticket `ticket_id`, stored (hashed) on `conn`, the transaction of the mail
/// that carries it; returns the token.
pub async fn new_link(conn: &mut Connection, ticket_id: i64, created: &str) -> Result<String, sqlx::Error> {
    let secret = Secret::generate();
    attendees::insert_link(conn, &secret.hash, ticket_id, created).await?;
    Ok(secret.token)
}
