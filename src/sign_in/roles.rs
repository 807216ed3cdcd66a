//! Who may sign in, and to which area (DESIGN.md sections 12, 15 and 16).
//!
//! Organisers are the addresses of `ORGANISER_EMAIL`, desk staff those of `CHECKIN_EMAIL`,
//! compared trimmed and case-insensitively and checked on every request, so an address taken
//! off a list loses its sessions at its next request. Without `ORGANISER_EMAIL` nobody is an
//! organiser (fail closed: the site's contact address, which receives the notices, is not made
//! an administrator by default). Reviewers are the `reviewers` table's accepted invitations.

use crate::config::Config;
use crate::repo::organisers as store;

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
            Role::Organiser => store::ORGANISER,
            Role::Reviewer => store::REVIEWER,
            Role::CheckIn => store::CHECKIN,
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
pub use crate::forms::validate::normalise_email as normalise;

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
}
