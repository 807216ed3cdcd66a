//! CSV that a spreadsheet never runs: every cell that could start a formula gets a leading
//! `'` (OWASP, "CSV Injection"; DESIGN.md section 2), numbers and E.164 phone numbers stay
//! as they are.

use std::borrow::Cow;
use std::io::Write;

use crate::forms::validate::{PHONE_MAX_DIGITS, PHONE_MIN_DIGITS};

/// A `csv` writer whose every cell is made [`spreadsheet_safe`] first.
pub struct SafeWriter<W: Write>(pub csv::Writer<W>);

impl<W: Write> SafeWriter<W> {
    /// Writes one record (the header row or a data row).
    pub fn write_record<I, T>(&mut self, cells: I) -> csv::Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        self.0.write_record(cells.into_iter().map(|cell| spreadsheet_safe(cell.as_ref()).into_owned()))
    }
}

/// A cell that a spreadsheet shows as text. A value starting with `=`, `+`, `-`, `@`, tab or
/// carriage return would be run as a formula by Excel or LibreOffice (OWASP, "CSV Injection"),
/// so it gets a leading `'`; except a value that is only a number (`-12.50`) or a phone number
/// in E.164 form (`+12025550123`), which a spreadsheet reads as the number it is.
pub fn spreadsheet_safe(value: &str) -> Cow<'_, str> {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) && !is_plain_number(value) && !is_phone_number(value) {
        Cow::Owned(format!("'{value}"))
    } else {
        Cow::Borrowed(value)
    }
}

/// `[+-]digits[.digits]`: nothing a spreadsheet could take for a formula.
fn is_plain_number(value: &str) -> bool {
    let unsigned = value.strip_prefix(['+', '-']).unwrap_or(value);
    let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(int) && digits(frac)
}

/// E.164: `+` and 5 to 15 digits, nothing else.
fn is_phone_number(value: &str) -> bool {
    value.strip_prefix('+').is_some_and(|d| {
        (PHONE_MIN_DIGITS..=PHONE_MAX_DIGITS).contains(&d.len()) && d.bytes().all(|b| b.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::spreadsheet_safe;

    #[test]
    fn formulas_get_a_quote_numbers_and_phones_do_not() {
        for (input, want) in [
            ("=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"),
            ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("+63 2 8765 4390", "'+63 2 8765 4390"),
            ("+1", "+1"),
            ("+1e3", "'+1e3"),
            ("-.5", "'-.5"),
            ("+12025550123", "+12025550123"),
            ("-12.50", "-12.50"),
            ("219.00", "219.00"),
            ("Ada = Lovelace", "Ada = Lovelace"),
            ("", ""),
        ] {
            assert_eq!(spreadsheet_safe(input), want, "{input:?}");
        }
    }
}
