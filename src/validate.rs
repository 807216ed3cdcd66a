//! Rules for what visitors type that every form shares: one e-mail rule (issue 11: four
//! copies with two rules before) and the text rules of DESIGN.md section 5.

use email_address::{EmailAddress, Options};

/// Longest email address (RFC 5321 path limit), in characters.
pub const EMAIL_MAX_CHARS: usize = 254;

/// An address the site can mail: RFC 5322's `addr-spec` as the `email_address` crate reads
/// it, with a dotted domain (an address without one cannot be mailed from the internet), no
/// `[IP]` literal, no display name, ASCII only (a relay without SMTPUTF8 refuses the rest)
/// and at most [`EMAIL_MAX_CHARS`].
pub fn is_valid_email(address: &str) -> bool {
    let options = Options::default().with_required_tld().without_domain_literal().without_display_text();
    // A domain that can be resolved: letters, digits, hyphens and dots (RFC 1123 host names).
    let host_ok = |domain: &str| domain.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
    address.len() <= EMAIL_MAX_CHARS
        && address.is_ascii()
        && address.rsplit_once('@').is_some_and(|(_, domain)| host_ok(domain))
        && !address.contains('"')
        && EmailAddress::parse_with_options(address, options).is_ok()
}

/// Whether a character may stand in a text field: DESIGN.md section 5 refuses NUL and
/// every other control character except tab and newline (line ends arrive as CR LF from
/// forms and are normalised to `\n` before this check).
pub fn is_allowed_char(c: char) -> bool {
    !c.is_control() || c == '\t' || c == '\n'
}

/// Whether a value holds nothing a person wrote: only white space and control characters
/// (such a required field counts as missing).
pub fn is_blank(value: &str) -> bool {
    value.chars().all(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_email_rule() {
        for good in
            ["ana@example.org", "a.b+tag@mail.example.co.uk", "x_y@sub-domain.example", "o'neil@example.ie", "a@b.co"]
        {
            assert!(is_valid_email(good), "{good}");
        }
        for bad in [
            "",
            "ana",
            "ana@",
            "@example.org",
            "ana@example",
            "ana@@example.org",
            "ana @example.org",
            "ana@exa mple.org",
            "ana@-example.org",
            "ana@example..org",
            "ana@exa_mple.org",
            "ána@example.org",
            "a@[127.0.0.1]",
            "Ana <ana@example.org>",
            "<a@b.co>",
            "a@b.co,c@d.co",
            "\"a b\"@example.org",
            "a@b.co\r\nBcc: x@y.org",
        ] {
            assert!(!is_valid_email(bad), "{bad}");
        }
        assert!(!is_valid_email(&format!("{}@example.org", "a".repeat(65))));
    }

    #[test]
    fn text_rules() {
        assert!(is_blank(" \t\n\0\u{1}"));
        assert!(!is_blank(" a "));
        assert!(is_allowed_char('\n') && is_allowed_char('\t') && is_allowed_char('é'));
        assert!(!is_allowed_char('\0') && !is_allowed_char('\r') && !is_allowed_char('\u{7f}'));
    }
}
