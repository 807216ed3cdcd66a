//! Mail that cannot be aimed at others (issue 10; DESIGN.md section 5): the cap on
//! acknowledgement mails per address, and the signed links of the newsletter's double opt-in
//! and one-click unsubscribe (RFC 8058).

use ring::hmac;
use time::OffsetDateTime;

use crate::clock::stamp::timestamp;
use crate::db::{Connection, Engine, Pool};

/// Acknowledgement mails one address may get in [`ACK_WINDOW`], whatever the form.
pub const ACKS_PER_WINDOW: i64 = 3;

/// The window of [`ACKS_PER_WINDOW`]: 24 hours.
pub const ACK_WINDOW: time::Duration = time::Duration::hours(24);

/// Name of the key that signs the newsletter links (`signing_keys.name`).
const NEWSLETTER_KEY: &str = "newsletter-links";

/// The current time; one place, so an injectable clock can replace it.
pub fn now() -> OffsetDateTime {
    OffsetDateTime::now_utc()
}

/// Takes one of `address`'s acknowledgement mails for now, on `conn` (the transaction that
/// queues the mail). `false` when the address already had [`ACKS_PER_WINDOW`] in the last
/// [`ACK_WINDOW`]: the caller stores what the visitor sent and tells the organisers, but
/// sends no acknowledgement.
pub async fn take_acknowledgement(conn: &mut Connection, address: &str) -> Result<bool, sqlx::Error> {
    let address = address.trim().to_lowercase();
    if Engine::of(conn) == Engine::Postgres {
        // Instances taking the same address's last acknowledgement at once would each count
        // fewer than the cap: a lock per address, held to the end of the caller's transaction,
        // puts them in a row. SQLite needs none: it runs one write transaction at a time, and
        // the callers have written in theirs before they get here.
        sqlx::query("SELECT 1 FROM pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(format!("acknowledgement:{address}"))
            .execute(&mut *conn)
            .await?;
    }
    let now = now();
    let (sent,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM acknowledgements WHERE address = $1 AND created > $2")
        .bind(&address)
        .bind(timestamp(now - ACK_WINDOW))
        .fetch_one(&mut *conn)
        .await?;
    if sent >= ACKS_PER_WINDOW {
        return Ok(false);
    }
    sqlx::query("INSERT INTO acknowledgements (address, created) VALUES ($1, $2)")
        .bind(&address)
        .bind(timestamp(now))
        .execute(&mut *conn)
        .await?;
    Ok(true)
}

/// What a signed newsletter link does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkPurpose {
    Confirm,
    Unsubscribe,
}

impl LinkPurpose {
    fn as_str(self) -> &'static str {
        match self {
            LinkPurpose::Confirm => "confirm",
            LinkPurpose::Unsubscribe => "unsubscribe",
        }
    }
}

/// The HMAC-SHA256 key of the newsletter links: 32 random bytes made on first use and stored
/// in `signing_keys`, so every instance on the database shares it and nobody can guess it.
pub async fn newsletter_key(pool: &Pool) -> Result<hmac::Key, sqlx::Error> {
    let fresh: [u8; 32] = rand::random();
    sqlx::query("INSERT INTO signing_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
        .bind(NEWSLETTER_KEY)
        .bind(hex::encode(fresh))
        .execute(pool)
        .await?;
    let (secret,): (String,) =
        sqlx::query_as("SELECT secret FROM signing_keys WHERE name = $1").bind(NEWSLETTER_KEY).fetch_one(pool).await?;
    let bytes = hex::decode(secret.trim()).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    Ok(hmac::Key::new(hmac::HMAC_SHA256, &bytes))
}

fn message(purpose: LinkPurpose, email: &str) -> String {
    format!("{}\n{}", purpose.as_str(), email.trim().to_lowercase())
}

/// The token of a link: lowercase hex HMAC-SHA256 of the purpose and the lower-cased address.
pub fn sign(key: &hmac::Key, purpose: LinkPurpose, email: &str) -> String {
    hex::encode(hmac::sign(key, message(purpose, email).as_bytes()).as_ref())
}

/// Whether `token` is [`sign`]'s for this purpose and address (constant-time comparison).
pub fn verify(key: &hmac::Key, purpose: LinkPurpose, email: &str, token: &str) -> bool {
    hex::decode(token.trim())
        .ok()
        .is_some_and(|tag| hmac::verify(key, message(purpose, email).as_bytes(), &tag).is_ok())
}

/// The absolute link, on `PUBLIC_URL` (`base`): `/newsletter/confirm?email=..&token=..` or
/// `/newsletter/unsubscribe?email=..&token=..`.
pub fn link(base: &str, key: &hmac::Key, purpose: LinkPurpose, email: &str) -> String {
    let query = serde_urlencoded::to_string([("email", email), ("token", &sign(key, purpose, email))])
        .expect("string pairs always serialize");
    format!("{}/newsletter/{}?{query}", base.trim_end_matches('/'), purpose.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_bind_purpose_and_address() {
        let key = hmac::Key::new(hmac::HMAC_SHA256, b"unit test key");
        let other = hmac::Key::new(hmac::HMAC_SHA256, b"another key");
        let token = sign(&key, LinkPurpose::Confirm, "Ana@Example.org");
        assert!(verify(&key, LinkPurpose::Confirm, "ana@example.org", &token));
        assert!(!verify(&key, LinkPurpose::Unsubscribe, "ana@example.org", &token));
        assert!(!verify(&key, LinkPurpose::Confirm, "ben@example.org", &token));
        assert!(!verify(&other, LinkPurpose::Confirm, "ana@example.org", &token));
        assert!(!verify(&key, LinkPurpose::Confirm, "ana@example.org", "zz"));
        assert!(!verify(&key, LinkPurpose::Confirm, "ana@example.org", ""));
        let url = link("https://conf.example.org/", &key, LinkPurpose::Unsubscribe, "a+b@example.org");
        assert!(url.starts_with("https://conf.example.org/newsletter/unsubscribe?email=a%2Bb%40example.org&token="));
    }
}
