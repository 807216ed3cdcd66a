//! The secrets of sign-in and of private links (OWASP's Authentication, Forgot Password and
//! Session Management cheat sheets): sign-in links, session ids, and the authors', attendees'
//! and reviewers' private links. Each is 32 bytes from the operating system's generator,
//! handed out as base64url and stored only as its SHA-256, so a copy of the database opens
//! nothing.

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::SecureRandom;

/// How long a sign-in link works (DESIGN.md section 12).
pub const LINK_LIFETIME: Duration = Duration::from_secs(15 * 60);

/// Sign-in links one address may ask for per hour, an organiser's or not.
pub const LINKS_PER_HOUR: i64 = 5;

/// Random bytes in a link token and in a session id: 256 bits (OWASP asks for at least 64
/// bits of entropy for a session id, DESIGN.md for 128).
pub const SECRET_BYTES: usize = 32;

/// A fresh secret: what the organiser holds (`token`, base64url) and what is stored (`hash`).
pub struct Secret {
    pub token: String,
    pub hash: String,
}

impl Secret {
    /// [`SECRET_BYTES`] from the operating system's generator (`getrandom`, through ring).
    pub fn generate() -> Secret {
        let mut bytes = [0u8; SECRET_BYTES];
        ring::rand::SystemRandom::new().fill(&mut bytes).expect("the operating system's random generator works");
        let token = URL_SAFE_NO_PAD.encode(bytes);
        let hash = hash(&token);
        Secret { token, hash }
    }
}

/// What is stored of a token or session id: its SHA-256, lowercase hex.
pub fn hash(token: &str) -> String {
    hex::encode(ring::digest::digest(&ring::digest::SHA256, token.as_bytes()))
}

/// Whether `token` has the shape of a secret this module hands out (43 base64url
/// characters), so anything else is refused before it reaches the database.
pub fn is_well_formed(token: &str) -> bool {
    token.len() == 43 && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_random_base64url_and_stored_as_sha256() {
        let a = Secret::generate();
        let b = Secret::generate();
        assert_ne!(a.token, b.token);
        assert!(is_well_formed(&a.token), "{}", a.token);
        assert_eq!(a.hash.len(), 64);
        assert_eq!(a.hash, hash(&a.token));
        assert_ne!(a.hash, a.token);
        // SHA-256 of "abc" (FIPS 180-2, appendix B.1).
        assert_eq!(hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert!(!is_well_formed("short"));
        assert!(!is_well_formed(&format!("{}=", &a.token[..42])));
    }
}
