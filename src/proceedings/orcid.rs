//! ORCID iDs (DESIGN.md section 18): sixteen characters in four groups of four, the last a
//! check character of ISO 7064 MOD 11-2 over the first fifteen digits (ORCID's "Structure of
//! the ORCID Identifier": digits 0-9, and `X` for a check value of 10).

/// Where an iD is written as a link; typing it with this prefix (or `http://`, or without
/// `https://`) is accepted too.
pub const ORCID_URL: &str = "https://orcid.org/";

/// Why a typed iD is not one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OrcidError {
    #[error("an ORCID iD is 16 characters in four groups of four, such as 0000-0002-1825-0097")]
    Shape,
    #[error(
        "the last character of this ORCID iD does not match the others (its check digit is wrong); please copy it from your ORCID record"
    )]
    CheckDigit,
}

/// The check character of the fifteen `digits` (ISO 7064 MOD 11-2).
pub fn check_character(digits: &[u8; 15]) -> char {
    let total = digits.iter().fold(0u32, |total, &d| (total + u32::from(d)) * 2);
    match (12 - total % 11) % 11 {
        10 => 'X',
        n => char::from_digit(n, 10).unwrap_or('0'),
    }
}

/// `typed` as the canonical `0000-0002-1825-0097`, its check character verified. Blanks
/// around it, an `orcid.org` prefix, missing hyphens and a lower-case `x` are accepted.
pub fn parse(typed: &str) -> Result<String, OrcidError> {
    let typed = typed.trim();
    let bare = ["https://orcid.org/", "http://orcid.org/", "orcid.org/"]
        .iter()
        .find_map(|prefix| typed.strip_prefix(prefix))
        .unwrap_or(typed);
    let chars: Vec<char> = bare.chars().filter(|&c| c != '-').map(|c| c.to_ascii_uppercase()).collect();
    let well_placed = bare.chars().filter(|&c| c == '-').count() == 0
        || (bare.len() == 19 && bare.char_indices().all(|(i, c)| (c == '-') == matches!(i, 4 | 9 | 14)));
    if chars.len() != 16 || !well_placed {
        return Err(OrcidError::Shape);
    }
    let mut digits = [0u8; 15];
    for (slot, c) in digits.iter_mut().zip(&chars) {
        *slot = c.to_digit(10).ok_or(OrcidError::Shape)? as u8;
    }
    let last = chars[15];
    if !(last.is_ascii_digit() || last == 'X') {
        return Err(OrcidError::Shape);
    }
    if check_character(&digits) != last {
        return Err(OrcidError::CheckDigit);
    }
    let text: String = chars.iter().collect();
    Ok(format!("{}-{}-{}-{}", &text[0..4], &text[4..8], &text[8..12], &text[12..16]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orcids_own_examples_pass() {
        // ORCID's documentation examples, one with the check character X.
        assert_eq!(parse("0000-0002-1825-0097").unwrap(), "0000-0002-1825-0097");
        assert_eq!(parse(" https://orcid.org/0000-0001-5109-3700 ").unwrap(), "0000-0001-5109-3700");
        assert_eq!(parse("000000021694233x").unwrap(), "0000-0002-1694-233X");
    }

    #[test]
    fn a_wrong_check_digit_or_shape_is_refused() {
        assert_eq!(parse("0000-0002-1825-0098"), Err(OrcidError::CheckDigit));
        assert_eq!(parse("0000-0002-1694-2330"), Err(OrcidError::CheckDigit));
        for bad in ["", "0000-0002-1825-009", "0000-0002-1825-00970", "0000-000A-1825-0097", "00-000002-1825-0097"] {
            assert_eq!(parse(bad), Err(OrcidError::Shape), "{bad}");
        }
    }
}
