//! Who the organisers are, and the secrets of their sign-in (DESIGN.md section 12; OWASP's
//! Authentication, Forgot Password and Session Management cheat sheets).
//!
//! Organisers are the addresses of `ORGANISER_EMAIL`, compared trimmed and case-insensitively
//! and checked on every request, so an address taken off the list loses its sessions at its
//! next request. Without `ORGANISER_EMAIL` nobody is an organiser (fail closed: the site's
//! contact address, which receives the notices, is not made an administrator by default).
//! Sign-in links and session ids are 32 bytes from the operating system's generator, handed
//! out as base64url and stored only as their SHA-256, so a copy of the database opens nothing.

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::SecureRandom;

use crate::config::Config;

/// How long a sign-in link works (DESIGN.md section 12).
pub const LINK_LIFETIME: Duration = Duration::from_secs(15 * 60);

/// Sign-in links one address may ask for per hour, an organiser's or not.
pub const LINKS_PER_HOUR: i64 = 5;

/// Random bytes in a link token and in a session id: 256 bits (OWASP asks for at least 64
/// bits of entropy for a session id, DESIGN.md for 128).
pub const SECRET_BYTES: usize = 32;

/// Who a sign-in link and a session are for (DESIGN.md section 15): every role signs in by
/// the same mailed link and holds the same kind of session, which carries its role. A
/// session reaches its own role's area only; anywhere else it answers as no session would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `ORGANISER_EMAIL`'s addresses: `/organiser/...`.
    Organiser,
    /// Reviewers who accepted their invitation (table `reviewers`): `/review/...`.
    Reviewer,
    /// Desk staff, `CHECKIN_EMAIL`'s addresses (DESIGN.md section 16): `/organiser/check-in`
    /// and nothing else.
    CheckIn,
}

impl Role {
    /// The name stored in `organiser_links.role` and `organiser_sessions.role`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Organiser => "organiser",
            Role::Reviewer => "reviewer",
            Role::CheckIn => "checkin",
        }
    }

    /// The stored name read back; `None` for a role this build does not know.
    pub fn parse(name: &str) -> Option<Role> {
        match name {
            "organiser" => Some(Role::Organiser),
            "reviewer" => Some(Role::Reviewer),
            "checkin" => Some(Role::CheckIn),
            _ => None,
        }
    }

    /// Where the role's area starts: its sign-in page, or its home once signed in.
    pub fn home(self) -> &'static str {
        match self {
            Role::Organiser => "/organiser",
            Role::Reviewer => "/review",
            Role::CheckIn => CHECK_IN_HOME,
        }
    }

    /// Who the role's people are, in the sign-in page's and mail's words.
    pub fn people(self) -> &'static str {
        match self {
            Role::Organiser => "organisers",
            Role::Reviewer => "reviewers",
            Role::CheckIn => "check-in desks",
        }
    }
}

/// An address as organisers are compared: trimmed, lower-cased.
pub fn normalise(email: &str) -> String {
    email.trim().to_ascii_lowercase()
}

/// Whether `email` is one of `ORGANISER_EMAIL`'s addresses.
pub fn is_organiser(config: &Config, email: &str) -> bool {
    let email = normalise(email);
    !email.is_empty()
        && config.organiser_email.as_deref().is_some_and(|list| list.split(',').any(|entry| normalise(entry) == email))
}

/// The check-in desk's page, desk staff's home (DESIGN.md section 16).
pub const CHECK_IN_HOME: &str = "/organiser/check-in";

/// Whether `email` is one of `CHECKIN_EMAIL`'s addresses (desk staff), compared as organisers
/// are and read on every request; without `CHECKIN_EMAIL` there are no desk staff.
pub fn is_desk_staff(config: &Config, email: &str) -> bool {
    let email = normalise(email);
    !email.is_empty()
        && config.checkin_email.as_deref().is_some_and(|list| list.split(',').any(|entry| normalise(entry) == email))
}

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
    fn organisers_are_the_listed_addresses_trimmed_and_case_insensitive() {
        let mut config = Config::for_tests("data".into());
        assert!(!is_organiser(&config, "chair@example.org"), "no list, no organisers");
        config.organiser_email = Some(" Chair@Example.org , treasurer@example.org".into());
        assert!(is_organiser(&config, "chair@example.org"));
        assert!(is_organiser(&config, " TREASURER@example.org "));
        assert!(!is_organiser(&config, "chair@example.org.evil"));
        assert!(!is_organiser(&config, ""));
        config.organiser_email = Some(",,".into());
        assert!(!is_organiser(&config, ""), "empty entries name nobody");
    }

    #[test]
    fn desk_staff_are_the_listed_addresses_and_nobody_without_a_list() {
        let mut config = Config::for_tests("data".into());
        assert!(!is_desk_staff(&config, "door@example.org"), "no list, no desk staff");
        config.checkin_email = Some(" Door@Example.org ,hall@example.org".into());
        assert!(is_desk_staff(&config, "door@example.org"));
        assert!(is_desk_staff(&config, "HALL@example.org "));
        assert!(!is_desk_staff(&config, "chair@example.org"));
        assert!(!is_organiser(&config, "door@example.org"), "desk staff are not organisers");
        assert_eq!(Role::parse(Role::CheckIn.as_str()), Some(Role::CheckIn));
        assert_eq!(Role::CheckIn.as_str(), "checkin");
    }

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
