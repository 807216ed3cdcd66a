//! What the reviewer's home, `/review` with a session, shows: their papers with each review's
//! state, and the deadline.

use askama::Template;

use crate::repo::reviews::MyPaper;
use crate::views::layout::Layout;
use crate::views::review::shared::{paper_href, state_label};

/// The reviewer's home as drawn (`templates/review/home.html`): their papers and the deadline.
#[derive(Template)]
#[template(path = "review/home.html")]
pub struct HomePage {
    pub layout: Layout,
    pub name: String,
    pub email: String,
    pub notice: Option<&'static str>,
    /// The deadline's label and RFC 3339 time, `None` while none is set.
    pub deadline: Option<(String, String)>,
    pub deadline_passed: bool,
    /// How far off the deadline is, in words (`in 5 days`), while it has not passed.
    pub deadline_words: Option<String>,
    pub hides_authors: bool,
    pub papers: Vec<PaperLine>,
    /// How many of `papers` have a submitted review.
    pub submitted: usize,
}

/// One paper of the list.
pub struct PaperLine {
    pub code: String,
    pub href: String,
    pub title: String,
    pub state: &'static str,
}

impl PaperLine {
    /// A paper of the reviewer's list, its state as the list says it.
    pub fn of(p: MyPaper) -> PaperLine {
        PaperLine {
            href: paper_href(&p.review_code),
            state: state_label(p.review_state.as_deref()),
            code: p.review_code,
            title: p.title,
        }
    }
}
