//! What authors learn of their paper's reviews (issue 32 item 8, DESIGN.md section 15): the
//! comments to authors of the submitted reviews, each under the reviewer's number on the paper
//! ("Reviewer 1:"), never a name and never the confidential comments. The decision mail's
//! `{reviews}` placeholder and the author's status page (after the decision) show them.

/// One reviewer's comments to the authors: their number on the paper and the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorComments {
    pub number: i64,
    pub text: String,
}

impl AuthorComments {
    /// `(number, comments_to_authors)` rows as stored, the text trimmed with line ends `\n`;
    /// every submitted review, with or without comments.
    pub fn from_rows(rows: Vec<(i64, String)>) -> Vec<AuthorComments> {
        rows.into_iter()
            .map(|(number, text)| AuthorComments { number, text: text.replace("\r\n", "\n").trim().to_owned() })
            .collect()
    }

    /// `Reviewer 2`.
    pub fn heading(&self) -> String {
        format!("Reviewer {}", self.number)
    }
}

/// Said when a paper was reviewed but no reviewer wrote to the authors.
pub const NO_COMMENTS: &str = "The reviewers left no comments for the authors.";

/// What `{reviews}` stands for, given a paper's submitted `reviews`: empty when it has none
/// (a conference deciding without review leaves no trace in its mails), [`NO_COMMENTS`] when
/// none of them wrote to the authors, else the comments under "Reviewer N:", one block each,
/// after a line that says what they are.
pub fn placeholder(reviews: &[AuthorComments]) -> String {
    if reviews.is_empty() {
        return String::new();
    }
    let blocks: Vec<String> =
        reviews.iter().filter(|r| !r.text.is_empty()).map(|r| format!("{}:\n{}", r.heading(), r.text)).collect();
    if blocks.is_empty() {
        return NO_COMMENTS.to_owned();
    }
    format!("The reviewers' comments:\n\n{}", blocks.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reviewers_are_numbered_and_empty_comments_left_out() {
        let reviews = AuthorComments::from_rows(vec![
            (1, "Clear and useful.\r\nMore data, please.  ".into()),
            (2, "  ".into()),
            (3, "Accept.".into()),
        ]);
        assert_eq!(
            placeholder(&reviews),
            "The reviewers' comments:\n\nReviewer 1:\nClear and useful.\nMore data, please.\n\nReviewer 3:\nAccept."
        );
        assert_eq!(placeholder(&reviews[1..2]), NO_COMMENTS);
        assert_eq!(placeholder(&[]), "");
    }
}
