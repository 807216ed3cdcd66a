//! Order ids (spec section 9; CCAvenue's integration kit limits): `ORD`, the time in
//! milliseconds and a random suffix.

use std::time::{SystemTime, UNIX_EPOCH};

/// CCAvenue accepts alphanumeric order ids of at most this many characters (integration kit).
pub const ORDER_ID_MAX_LEN: usize = 30;

/// Characters of the random order-id suffix.
const SUFFIX_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// Length of the random order-id suffix.
pub const ORDER_ID_SUFFIX_LEN: usize = 6;

/// `ORD` + unix time in milliseconds + `suffix` (spec section 9: prefix ORD plus the
/// timestamp; the suffix keeps two orders in the same millisecond apart).
///
/// With a 13-digit timestamp and a 6-character suffix the id is 22 characters.
pub fn format_order_id(unix_millis: u64, suffix: &str) -> String {
    format!("ORD{unix_millis}{suffix}")
}

/// A fresh order id: [`format_order_id`] with the system clock and 6 random uppercase
/// alphanumerics from the thread's cryptographic RNG.
pub fn generate_order_id() -> String {
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0);
    let suffix: String = (0..ORDER_ID_SUFFIX_LEN)
        .map(|_| char::from(SUFFIX_ALPHABET[rand::random_range(0..SUFFIX_ALPHABET.len())]))
        .collect();
    format_order_id(millis, &suffix)
}

/// Whether `s` looks like an order id CCAvenue accepts: 1 to 30 ASCII alphanumerics.
/// Useful to vet an `order` query parameter before looking it up.
pub fn is_valid_order_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= ORDER_ID_MAX_LEN && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_id_format() {
        assert_eq!(format_order_id(1742515200000, "AB12CD"), "ORD1742515200000AB12CD");
        assert_eq!(format_order_id(0, "ZZZZZZ"), "ORD0ZZZZZZ");
        // Even the largest timestamp fits CCAvenue's limit.
        let max = format_order_id(u64::MAX, "ZZZZZZ");
        assert_eq!(max.len(), 29);
        assert!(is_valid_order_id(&max));
    }

    #[test]
    fn generated_order_ids() {
        let a = generate_order_id();
        let b = generate_order_id();
        assert_ne!(a, b);
        for id in [&a, &b] {
            assert!(is_valid_order_id(id), "{id}");
            assert!(id.starts_with("ORD"));
            let (digits, suffix) = id[3..].split_at(id.len() - 3 - ORDER_ID_SUFFIX_LEN);
            assert!(digits.len() >= 13 && digits.bytes().all(|c| c.is_ascii_digit()), "{id}");
            assert!(suffix.bytes().all(|c| SUFFIX_ALPHABET.contains(&c)), "{id}");
        }
    }

    #[test]
    fn order_id_validation() {
        assert!(is_valid_order_id("ORD1742515200000AB12CD"));
        assert!(!is_valid_order_id(""));
        assert!(!is_valid_order_id("ORD-1"));
        assert!(!is_valid_order_id("ORD1 "));
        assert!(!is_valid_order_id(&"A".repeat(31)));
        assert!(!is_valid_order_id("ORDé"));
    }
}
