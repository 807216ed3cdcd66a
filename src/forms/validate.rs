//! Rules for what visitors type that every form shares: one e-mail rule (issue 11: four
//! copies with two rules before) and the text rules of DESIGN.md section 5.

use std::collections::BTreeMap;

use email_address::{EmailAddress, Options};
use serde_json::{Map, Value};

use crate::error::AppError;

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

/// At most 40 characters of what a request sent, as a refusal quotes it: enough to know it
/// again (a paper's reference is 14), never a whole pasted text.
pub fn shown(value: &str) -> String {
    value.chars().take(40).collect()
}

/// An address as it is compared and stored for sign-in and look-ups: trimmed, lower-cased
/// (organisers, desk staff, reviewers, attendees resending their links).
pub fn normalise_email(email: &str) -> String {
    email.trim().to_ascii_lowercase()
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

/// Most digits a phone number may have: 15, E.164's maximum (ITU-T E.164 section 6.2.1),
/// country code included. Every form and the checkout read this one rule (it was 20 in the
/// forms and 15 in the checkout); the islands mirror it (`islands/src/lib/validate.ts`).
pub const PHONE_MAX_DIGITS: usize = 15;

/// Fewest digits: a short local number.
pub const PHONE_MIN_DIGITS: usize = 5;

/// A phone number as people write it: digits with `+`, spaces, `-`, `.`, `(` and `)`, and
/// [`PHONE_MIN_DIGITS`] to [`PHONE_MAX_DIGITS`] digits.
pub fn is_valid_phone(number: &str) -> bool {
    let digits = number.chars().filter(char::is_ascii_digit).count();
    number.chars().all(|c| c.is_ascii_digit() || " +-.()".contains(c))
        && (PHONE_MIN_DIGITS..=PHONE_MAX_DIGITS).contains(&digits)
}

/// Collects field errors while reading a form (`crate::handlers::extract::Submission`); [`Check::finish`] turns them into
/// the 422 answer. Every reader trims the value and returns it (empty when it is wrong).
pub struct Check<'a> {
    fields: &'a Map<String, Value>,
    errors: BTreeMap<String, String>,
    /// The first error in form order: the 422's `message`.
    first: Option<String>,
}

impl<'a> Check<'a> {
    /// Checks fields gathered some other way (e.g. the text parts of a multipart upload),
    /// with the same rules and messages as `Submission::check`.
    pub fn new(fields: &'a Map<String, Value>) -> Self {
        Check { fields, errors: BTreeMap::new(), first: None }
    }

    fn fail(&mut self, name: &str, reason: String) -> String {
        if self.first.is_none() {
            self.first = Some(reason.clone());
        }
        self.errors.entry(name.to_owned()).or_insert(reason);
        String::new()
    }

    /// The raw text of `name`: `None` when absent, null or blank (only white space and
    /// control characters). Text fields are JSON strings (DESIGN.md section 5): a number,
    /// boolean, array or object is refused on the field.
    fn raw(&mut self, name: &str, label: &str) -> Result<Option<String>, ()> {
        match self.fields.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if is_blank(s) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => {
                self.fail(name, format!("{label} must be text"));
                Err(())
            }
        }
    }

    /// A required one-line text of at most `max_chars` characters. Runs of white space
    /// (tabs, line breaks) become one space: these values end up in mail headers and CSV.
    pub fn line(&mut self, name: &str, label: &str, max_chars: usize) -> String {
        let Ok(raw) = self.raw(name, label) else { return String::new() };
        let Some(raw) = raw else { return self.fail(name, format!("{label} is required")) };
        if raw.replace("\r\n", "\n").chars().any(|c| !is_allowed_char(c)) {
            return self.fail(name, format!("{label} contains characters that are not allowed"));
        }
        let value = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        self.bounded(name, label, value, max_chars)
    }

    /// A required text that may span lines, at most `max_chars` characters. Line ends are
    /// normalised to `\n`.
    pub fn text(&mut self, name: &str, label: &str, max_chars: usize) -> String {
        let Ok(raw) = self.raw(name, label) else { return String::new() };
        let Some(raw) = raw else { return self.fail(name, format!("{label} is required")) };
        let value = raw.replace("\r\n", "\n").replace('\r', "\n").trim().to_owned();
        self.bounded(name, label, value, max_chars)
    }

    fn bounded(&mut self, name: &str, label: &str, value: String, max_chars: usize) -> String {
        if value.chars().count() > max_chars {
            return self.fail(name, format!("{label} must be at most {max_chars} characters"));
        }
        if value.chars().any(|c| !is_allowed_char(c)) {
            return self.fail(name, format!("{label} contains characters that are not allowed"));
        }
        value
    }

    /// A required email address in a valid format ([`is_valid_email`]).
    pub fn email(&mut self, name: &str, label: &str) -> String {
        let value = self.line(name, label, EMAIL_MAX_CHARS);
        if value.is_empty() {
            return value;
        }
        if !is_valid_email(&value) {
            return self.fail(name, "Please enter a valid email address".into());
        }
        value
    }

    /// A required phone number ([`is_valid_phone`]), at most `max_chars` characters.
    pub fn phone(&mut self, name: &str, label: &str, max_chars: usize) -> String {
        let value = self.line(name, label, max_chars);
        if value.is_empty() {
            return value;
        }
        if !is_valid_phone(&value) {
            return self.fail(name, "Please enter a valid phone number".into());
        }
        value
    }

    /// `Ok` when every field passed; else the 422 whose message is the first problem in
    /// form order and whose `errors` name every field with one.
    pub fn finish(self) -> Result<(), AppError> {
        match self.first {
            None => Ok(()),
            Some(message) => Err(AppError::Unprocessable { message, errors: self.errors }),
        }
    }
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

    #[test]
    fn phone_rule_accepts_written_numbers() {
        for good in ["+15551234567", "+63 917 123 4567", "(02) 8123-4567", "555.123.4567"] {
            assert!(is_valid_phone(good), "{good}");
        }
        for bad in ["call me", "1234", "+1 555 CALL NOW", "123456789012345678901"] {
            assert!(!is_valid_phone(bad), "{bad}");
        }
        // E.164's 15 digits at most, the same in every form and the checkout.
        assert!(is_valid_phone("+63 917 123 4567 890"));
        assert!(!is_valid_phone("+63 917 123 4567 8901"));
    }
}
