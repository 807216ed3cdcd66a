//! The submissions' list of the back office (`crate::handlers::organiser::submissions`): its
//! rows and columns, its filters' controls, and the notice of what a selection staged
//! ([`SubmissionsPage`]).

use crate::clock::zone::Zone;
use crate::repo::submissions::{STATES, Submission, state_label};
use crate::review::figures;
use crate::views::organiser::shared::{Cell, Control, ListPage};

/// The list's address.
pub const PATH: &str = "/organiser/submissions";

/// The list's columns, in the order of [`row`]'s cells.
pub const COLUMNS: [&str; 12] = [
    "Reference",
    "Title",
    "Authors",
    "E-mail",
    "Paper type",
    "Received",
    "State",
    "Pending decision",
    "Reviews",
    "Score",
    "Spread",
    "Recommendations",
];

/// The most reviews `reviews_below` takes (the settings allow 10 per paper).
pub const REVIEWS_BELOW_MAX: i64 = 10;

/// The choices of `reviews_below`: fewer than 1 (none) up to the reviews a paper needs, and
/// the value asked for when it is beyond them.
/// The control of `reviews_below` with `value` asked for, up to the `needed` reviews.
pub fn reviews_below_control(value: String, needed: i64) -> Control {
    let asked = value.parse::<i64>().unwrap_or(0);
    let mut options = vec![(String::new(), "All".to_owned())];
    for n in 1..=needed.max(asked).clamp(1, REVIEWS_BELOW_MAX) {
        let label = if n == 1 { "None submitted".to_owned() } else { format!("Fewer than {n}") };
        options.push((n.to_string(), label));
    }
    Control { name: "reviews_below", label: "Submitted reviews", kind: "select", value, options }
}

/// The address of one submission's page.
pub fn href(reference: &str) -> String {
    format!("{PATH}/{reference}")
}

/// What the list says on top after a selection was staged: the text and links on.
pub struct Notice {
    pub text: String,
    pub links: Vec<(String, String)>,
}

/// The submissions' list: a [`ListPage`] with the notice of what was staged.
#[derive(askama::Template)]
#[template(path = "organiser/submissions.html")]
pub struct SubmissionsPage {
    pub list: ListPage,
    pub notice: Option<Notice>,
}

impl std::ops::Deref for SubmissionsPage {
    type Target = ListPage;

    fn deref(&self) -> &ListPage {
        &self.list
    }
}

/// Submission `s` as the list shows it: its cells in the order of [`COLUMNS`], selectable by
/// `<reference>:<version>`; `pending` its pending decision in words ("Accept", or empty),
/// `needed` the reviews a paper needs, times in `zone`.
pub fn row(pending: &str, s: Submission, needed: i64, zone: &Zone) -> Vec<Cell> {
    let authors = if s.submitted.co_author_name.is_empty() {
        s.submitted.author_name.clone()
    } else {
        format!("{}; {}", s.submitted.author_name, s.submitted.co_author_name)
    };
    vec![
        Cell::link(s.submitted.reference.clone(), href(&s.submitted.reference))
            .selectable(format!("{}:{}", s.submitted.reference, s.version)),
        Cell::text(s.submitted.paper_title),
        Cell::text(authors),
        Cell::text(s.submitted.email),
        Cell::text(s.submitted.paper_type),
        Cell::time(&s.created, zone),
        Cell::text(state_label(&s.state)),
        Cell::text(pending),
        Cell::text(format!("{}/{needed}", s.review.reviews_submitted)),
        Cell::text(figures::score(s.review.review_score)),
        Cell::text(figures::spread(s.review.review_spread)),
        Cell::text(figures::recommendation_counts(&s.review.recommendations)),
    ]
}

/// The list's filters, each showing the `value` of its query parameter; `paper_types` the
/// form's paper types, `needed` the reviews a paper needs.
pub fn controls(value: impl Fn(&str) -> String, paper_types: &[(&str, &str)], needed: i64) -> Vec<Control> {
    vec![
        Control::search("Search title, author, e-mail, reference", value("q")),
        Control::select("paper_type", "Paper type", value("paper_type"), paper_types),
        Control::select("state", "State", value("state"), &STATES),
        Control::select(
            "pending",
            "Pending decision",
            value("pending"),
            &[("any", "Any pending"), ("accepted", "Accept"), ("rejected", "Reject")],
        ),
        reviews_below_control(value("reviews_below"), needed),
        Control::select(
            "disagreement",
            "Reviewers disagree",
            value("disagreement"),
            &[("yes", "Scores 2 points or more apart")],
        ),
        Control::date("from", "Received from", value("from")),
        Control::date("to", "Received until", value("to")),
        Control::select(
            "sort",
            "Sort by",
            value("sort"),
            &[
                ("received", "Received"),
                ("reference", "Reference"),
                ("title", "Title"),
                ("score", "Review score"),
                ("reviews", "Reviews submitted"),
            ],
        ),
        Control::select("dir", "Order", value("dir"), &[("desc", "Descending"), ("asc", "Ascending")]),
    ]
}
