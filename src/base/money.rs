//! Money: every amount is an `i64` count of cents (1/100 of the currency unit).
//!
//! Decimal input is parsed as an exact decimal string, never through `f64`, so `0.1 + 0.2`
//! problems cannot reach a charge. Rounding is done once, at the end, half up (a half cent
//! goes up), which is what the spec's "amount x 1.06 shown with two decimals" (spec section
//! 9) reads as and what DESIGN section 5 fixes for the custom payment ("cents rounded half
//! up"). Rounding the amount to cents first and then adding tax would round twice and can
//! be a cent off; [`custom_total_cents`] avoids that.

/// Currency of every order and amount the site shows (spec section 9: currency USD).
pub const CURRENCY: &str = "USD";

/// The spec's message for any invalid amount (spec section 8).
pub const INVALID_AMOUNT_MESSAGE: &str = "Please enter a valid amount";

/// Largest amount accepted from a visitor, in cents: 1,000,000.00. Far above any ticket or
/// sponsor package (spec section 9: the largest is 15,000), low enough that a typo or an
/// attack cannot create an absurd order.
pub const MAX_AMOUNT_CENTS: i64 = 100_000_000;

/// Tax added to a custom payment, in percent (spec section 9: "6% tax added").
pub const CUSTOM_TAX_PERCENT: u32 = 6;

/// Why an amount was refused. Every variant displays as the spec's single message,
/// [`INVALID_AMOUNT_MESSAGE`]; the variant says why, for logs and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    /// Nothing but whitespace.
    #[error("Please enter a valid amount")]
    Empty,
    /// Not a plain decimal number: signs, exponents, `NaN`, `inf`, letters, separators...
    #[error("Please enter a valid amount")]
    NotANumber,
    /// Zero, or so small it rounds to zero cents.
    #[error("Please enter a valid amount")]
    NotPositive,
    /// Above [`MAX_AMOUNT_CENTS`].
    #[error("Please enter a valid amount")]
    TooLarge,
}

/// A plain decimal: integer digits without leading zeros, fraction digits as typed.
struct Decimal<'a> {
    int: &'a str,
    frac: &'a str,
}

/// Parses `digits[.digits]` (either side may be empty, not both), after trimming, and
/// checks `0 < value <= MAX_AMOUNT_CENTS / 100` exactly.
fn parse_decimal(input: &str) -> Result<Decimal<'_>, AmountError> {
    let s = input.trim();
    if s.is_empty() {
        return Err(AmountError::Empty);
    }
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let all_digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(int) || !all_digits(frac) || (int.is_empty() && frac.is_empty()) {
        return Err(AmountError::NotANumber);
    }
    let int = int.trim_start_matches('0');
    let frac_zero = frac.bytes().all(|b| b == b'0');
    if int.is_empty() && frac_zero {
        return Err(AmountError::NotPositive);
    }
    // MAX is 1,000,000.00: seven integer digits, and exactly 1000000 only with a zero fraction.
    let max_units = (MAX_AMOUNT_CENTS / 100).to_string();
    if int.len() > max_units.len()
        || (int.len() == max_units.len() && (int > max_units.as_str() || (int == max_units && !frac_zero)))
    {
        return Err(AmountError::TooLarge);
    }
    Ok(Decimal { int, frac })
}

/// Exact `value * multiplier / 100`, in cents, rounded half up once.
///
/// The value in cents is `D * 100 / 10^k` where `D` is the decimal's digits and `k` the
/// number of fraction digits; so `value * m / 100` in cents is `D * m / 10^k`. The product
/// `D * m` is computed on the digit string (any length), its last `k` digits are the
/// remainder, and a first remainder digit of 5 or more means "at least half": round up.
fn cents_times(d: &Decimal<'_>, multiplier: u32) -> i64 {
    // digits of D * multiplier, most significant first
    let mut product: Vec<u8> = Vec::with_capacity(d.int.len() + d.frac.len() + 4);
    let mut carry: u32 = 0;
    for b in d.int.bytes().chain(d.frac.bytes()).rev() {
        let v = u32::from(b - b'0') * multiplier + carry;
        product.push((v % 10) as u8);
        carry = v / 10;
    }
    while carry > 0 {
        product.push((carry % 10) as u8);
        carry /= 10;
    }
    product.reverse();
    let k = d.frac.len();
    let split = product.len().saturating_sub(k);
    let (quotient, remainder) = product.split_at(split);
    // The product has a digit for every input digit (leading zeros included), so the
    // remainder is exactly k digits. The quotient has at most 7 + 3 significant digits
    // (value <= 1e6, multiplier < 1000), so it fits an i64.
    let q = quotient.iter().fold(0i64, |acc, &digit| acc * 10 + i64::from(digit));
    match remainder.first() {
        Some(&digit) if digit >= 5 => q + 1,
        _ => q,
    }
}

/// Parses a visitor's decimal amount (`"100"`, `"100.5"`, `" 12.34 "`) into cents.
///
/// Accepts ASCII digits with at most one `.`, surrounding whitespace trimmed. More than two
/// decimals are rounded half up to cents (`"0.125"` is 13 cents). Refuses empty input,
/// signs, exponents, `NaN`/`inf`, separators and anything else; zero or an amount that
/// rounds to zero cents; and amounts above [`MAX_AMOUNT_CENTS`].
pub fn parse_amount(input: &str) -> Result<i64, AmountError> {
    let d = parse_decimal(input)?;
    match cents_times(&d, 100) {
        0 => Err(AmountError::NotPositive),
        c => Ok(c),
    }
}

/// An amount written by the payment gateway (`amount` of `encResp`, `order_amt` of the status
/// API), in cents, exactly: `"219"`, `"219.0"` and `"219.00"` are 21900; `"218.995"` and
/// `"219.001"` are `None`, since they are no whole number of cents and must never be rounded
/// into a match with a stored amount (DESIGN.md section 6). Otherwise the rules of
/// [`parse_amount`].
pub fn parse_exact_cents(input: &str) -> Option<i64> {
    let d = parse_decimal(input).ok()?;
    if d.frac.len() > 2 && d.frac[2..].bytes().any(|b| b != b'0') {
        return None;
    }
    match cents_times(&d, 100) {
        0 => None,
        c => Some(c),
    }
}

/// The total charged for a custom payment, in cents: the exact decimal amount x 1.06,
/// rounded half up to cents once (spec section 9, DESIGN section 5).
///
/// `"100"` is 10600; `"0.25"` is 0.265 so 27; `"33.335"` is 35.3351 so 3534; `"0.01"` is
/// 0.0106 so 1. The amount itself is validated as in [`parse_amount`] (positive, at most
/// 1,000,000.00); a total that rounds to zero cents is refused too.
pub fn custom_total_cents(input: &str) -> Result<i64, AmountError> {
    let d = parse_decimal(input)?;
    match cents_times(&d, 100 + CUSTOM_TAX_PERCENT) {
        0 => Err(AmountError::NotPositive),
        c => Ok(c),
    }
}

/// Cents as the gateway's decimal string: `10600` -> `"106.00"`, no thousands separator.
pub fn format_cents(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// Cents for people: `(1_500_000, "USD")` -> `"USD 15,000.00"`.
pub fn format_display(cents: i64, currency: &str) -> String {
    let plain = format_cents(cents);
    let (sign, rest) = plain.strip_prefix('-').map_or(("", plain.as_str()), |r| ("-", r));
    let (units, frac) = rest.split_once('.').expect("format_cents writes a point");
    let mut grouped = String::with_capacity(units.len() + units.len() / 3);
    for (i, c) in units.chars().enumerate() {
        if i > 0 && (units.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{currency} {sign}{grouped}.{frac}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_amount_valid() {
        let cases: &[(&str, i64)] = &[
            ("100", 10_000),
            ("100.5", 10_050),
            ("100.50", 10_050),
            (" 12.34 ", 1_234),
            ("\t7\n", 700),
            ("0.01", 1),
            ("0.005", 1), // half a cent goes up
            ("0.125", 13),
            ("0.124999", 12),
            ("1.995", 200),
            ("2.345", 235),
            ("007.10", 710),
            (".5", 50),
            ("5.", 500),
            ("219", 21_900),
            ("15000.00", 1_500_000),
            ("999999.99", 99_999_999),
            ("999999.995", 100_000_000),
            ("1000000", 100_000_000),
            ("1000000.00000", 100_000_000),
            ("0.0100000000000000000000000000000000000000001", 1),
            ("12.345000000000000000000000000000000000000000", 1_235),
        ];
        for &(input, want) in cases {
            assert_eq!(parse_amount(input), Ok(want), "input {input:?}");
        }
    }

    #[test]
    fn parse_amount_invalid() {
        use AmountError::*;
        let cases: &[(&str, AmountError)] = &[
            ("", Empty),
            ("   ", Empty),
            ("-5", NotANumber),
            ("-0", NotANumber),
            ("+5", NotANumber),
            ("1e3", NotANumber),
            ("1E3", NotANumber),
            ("NaN", NotANumber),
            ("inf", NotANumber),
            ("Infinity", NotANumber),
            ("abc", NotANumber),
            ("12abc", NotANumber),
            ("1,000", NotANumber),
            ("1 000", NotANumber),
            ("1.2.3", NotANumber),
            (".", NotANumber),
            ("$5", NotANumber),
            ("٣", NotANumber), // non-ASCII digit
            ("0x10", NotANumber),
            ("0", NotPositive),
            ("0.00", NotPositive),
            ("000.000", NotPositive),
            ("0.004", NotPositive),
            ("0.0049999", NotPositive),
            ("1000000.01", TooLarge),
            ("1000000.0000001", TooLarge),
            ("1000001", TooLarge),
            ("9999999", TooLarge),
            ("99999999999999999999999999999999", TooLarge),
        ];
        for &(input, want) in cases {
            assert_eq!(parse_amount(input), Err(want), "input {input:?}");
        }
    }

    #[test]
    fn every_error_shows_the_spec_message() {
        for e in [AmountError::Empty, AmountError::NotANumber, AmountError::NotPositive, AmountError::TooLarge] {
            assert_eq!(e.to_string(), INVALID_AMOUNT_MESSAGE);
        }
        assert_eq!(INVALID_AMOUNT_MESSAGE, "Please enter a valid amount");
    }

    #[test]
    fn gateway_amounts_are_exact() {
        for (input, want) in [("219", 21_900), ("219.0", 21_900), ("219.00", 21_900), ("219.000", 21_900), ("0.01", 1)]
        {
            assert_eq!(parse_exact_cents(input), Some(want), "{input}");
        }
        for input in ["218.995", "219.001", "219.0001", "0.001", "", "-219", "2.19e2", "219,00", "0"] {
            assert_eq!(parse_exact_cents(input), None, "{input}");
        }
    }

    #[test]
    fn custom_totals() {
        let cases: &[(&str, i64)] = &[
            ("100", 10_600),
            ("0.01", 1),       // 0.0106
            ("0.05", 5),       // 0.053
            ("0.25", 27),      // 0.265, half up
            ("0.75", 80),      // 0.795, half up
            ("33.335", 3_534), // 35.3351, not 35.34 from rounding 33.34 first
            ("33.33", 3_533),  // 35.3298
            ("10.005", 1_061), // 10.6053; rounding the amount first gives 10.01 -> 10.6106 -> 1061 too
            ("0.005", 1),      // 0.0053
            ("1.125", 119),    // 1.1925
            ("12.5", 1_325),   // 13.25
            ("219", 23_214),   // 232.14
            ("99.99", 10_599), // 105.9894
            ("1000000", 106_000_000),
            (" 50 ", 5_300),
        ];
        for &(input, want) in cases {
            assert_eq!(custom_total_cents(input), Ok(want), "input {input:?}");
        }
    }

    #[test]
    fn custom_total_avoids_double_rounding() {
        // 0.0048 is 0.48 of a cent: as an amount it rounds to 0 cents, but 0.0048 * 1.06 =
        // 0.005088 rounds to 1 cent. The total is computed from the exact input.
        assert_eq!(parse_amount("0.0048"), Err(AmountError::NotPositive));
        assert_eq!(custom_total_cents("0.0048"), Ok(1));
        // 2.3549: amount rounds to 2.35 -> 2.491 -> 249; exact 2.496194 -> 250.
        assert_eq!(custom_total_cents("2.3549"), Ok(250));
    }

    #[test]
    fn custom_total_invalid() {
        use AmountError::*;
        for (input, want) in [
            ("", Empty),
            ("-1", NotANumber),
            ("1e2", NotANumber),
            ("NaN", NotANumber),
            ("0", NotPositive),
            ("0.0047", NotPositive), // 0.004982
            ("1000000.01", TooLarge),
        ] {
            assert_eq!(custom_total_cents(input), Err(want), "input {input:?}");
        }
    }

    #[test]
    fn format_cents_table() {
        for (cents, want) in [
            (10_600, "106.00"),
            (0, "0.00"),
            (1, "0.01"),
            (50, "0.50"),
            (21_900, "219.00"),
            (1_500_000, "15000.00"),
            (106_000_000, "1060000.00"),
            (-1_234, "-12.34"),
        ] {
            assert_eq!(format_cents(cents), want);
        }
    }

    #[test]
    fn format_display_table() {
        for (cents, want) in [
            (1_500_000, "USD 15,000.00"),
            (10_600, "USD 106.00"),
            (99_999, "USD 999.99"),
            (100_000, "USD 1,000.00"),
            (7, "USD 0.07"),
            (106_000_000, "USD 1,060,000.00"),
            (-123_456, "USD -1,234.56"),
        ] {
            assert_eq!(format_display(cents, "USD"), want);
        }
        assert_eq!(format_display(1_200_000, "INR"), "INR 12,000.00");
    }
}
