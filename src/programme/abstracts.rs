//! The public abstract of an accepted paper (issue 31 item 6): what the programme shows
//! beside its title and authors. One rule for everyone who writes it, the author on the
//! status page and organisers on `/organiser/programme`: at most [`ABSTRACT_MAX_WORDS`]
//! words, the spec's submission guideline ("abstract up to 250-300 words").

/// The most words a public abstract may have (spec, Paper submission guidelines).
pub const ABSTRACT_MAX_WORDS: usize = 300;

/// The most characters: 300 words of any real language fit many times over; this only keeps
/// a pasted file or a single endless "word" out of every programme page.
pub const ABSTRACT_MAX_CHARS: usize = 5000;

/// Why an abstract was refused, in words the writer acts on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AbstractError {
    #[error(
        "The public abstract has {words} words; it may have at most {ABSTRACT_MAX_WORDS} (the submission guidelines' limit). Shorten it and save again."
    )]
    TooManyWords { words: usize },
    #[error("The public abstract is longer than {ABSTRACT_MAX_CHARS} characters. Shorten it and save again.")]
    TooLong,
    #[error(
        "The public abstract contains a control character (such as NUL), which cannot be shown. Remove it and save again."
    )]
    ControlCharacter,
}

/// Words as a reader counts them: runs of text between spaces and line breaks.
pub fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}

/// Checks a public abstract as typed and returns it as stored: trimmed, line ends as `\n`.
/// Empty is allowed (no public abstract). Errors: more than [`ABSTRACT_MAX_WORDS`] words,
/// more than [`ABSTRACT_MAX_CHARS`] characters, or a control character other than a line
/// break or tab.
pub fn check_abstract(text: &str) -> Result<String, AbstractError> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let text = text.trim();
    if text.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Err(AbstractError::ControlCharacter);
    }
    let words = word_count(text);
    if words > ABSTRACT_MAX_WORDS {
        return Err(AbstractError::TooManyWords { words });
    }
    if text.chars().count() > ABSTRACT_MAX_CHARS {
        return Err(AbstractError::TooLong);
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_hundred_words_pass_and_one_more_does_not() {
        let words = |n: usize| vec!["tide"; n].join(" ");
        assert_eq!(check_abstract(&words(300)).as_deref(), Ok(words(300).as_str()));
        assert_eq!(check_abstract(&words(301)), Err(AbstractError::TooManyWords { words: 301 }));
        assert!(
            AbstractError::TooManyWords { words: 301 }.to_string().starts_with("The public abstract has 301 words")
        );
    }

    #[test]
    fn line_breaks_and_spaces_are_kept_inside_and_trimmed_outside() {
        assert_eq!(check_abstract("  One tide.\r\n\r\nTwo tides.  ").unwrap(), "One tide.\n\nTwo tides.");
        assert_eq!(check_abstract("").unwrap(), "");
        assert_eq!(word_count("a  b\n\nc\td"), 4);
    }

    #[test]
    fn control_characters_and_endless_words_are_refused() {
        assert_eq!(check_abstract("a\0b"), Err(AbstractError::ControlCharacter));
        assert_eq!(check_abstract(&"x".repeat(ABSTRACT_MAX_CHARS + 1)), Err(AbstractError::TooLong));
    }
}
