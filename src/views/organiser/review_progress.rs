//! The review progress page (`crate::handlers::organiser::review_progress`): how far
//! reviewing has come, the papers below their reviews and the reviewers with overdue ones
//! ([`ProgressPage`]).

use askama::Template;

use crate::repo::review_records::Progress;
use crate::review::progress;
use crate::views::layout::Layout;
use crate::views::organiser::submissions;

/// Where "Remind now" posts.
pub const REMIND: &str = "/organiser/review/remind/{id}";

/// A paper below its reviews, as the page lists it.
pub struct Paper {
    pub reference: String,
    pub href: String,
    pub title: String,
    pub reviews: String,
}

/// A reviewer with overdue reviews.
pub struct Overdue {
    pub name: String,
    pub email: String,
    pub count: i64,
    pub remind: String,
}

/// The review progress page.
#[derive(Template)]
#[template(path = "organiser/review_progress.html")]
pub struct ProgressPage {
    pub layout: Layout,
    /// What "Remind now" did, or why it did nothing: (text, `status` or `alert`).
    pub notice: Option<(String, &'static str)>,
    pub progress: Progress,
    pub needed: i64,
    /// The deadline in words, and how far off it is; `None` without one.
    pub deadline: Option<(String, String)>,
    pub passed: bool,
    pub under_count: i64,
    pub under: Vec<Paper>,
    /// Whether more papers are below their reviews than `under` lists.
    pub under_more: bool,
    /// The submissions list showing every paper below its reviews.
    pub under_all: String,
    pub overdue: Vec<Overdue>,
}

impl ProgressPage {
    /// The page of the domain's `view` of the progress, with `notice`.
    pub fn new(layout: Layout, notice: Option<(String, &'static str)>, view: progress::Progress) -> ProgressPage {
        let needed = view.needed;
        let under = view
            .figures
            .under
            .iter()
            .map(|p| Paper {
                href: submissions::href(&p.reference),
                reference: p.reference.clone(),
                title: p.paper_title.clone(),
                reviews: format!("{}/{needed}", p.reviews_submitted),
            })
            .collect();
        let overdue = view
            .overdue
            .iter()
            .map(|r| Overdue {
                remind: REMIND.replace("{id}", &r.id.to_string()),
                name: r.name.clone(),
                email: r.email.clone(),
                count: r.unsubmitted,
            })
            .collect();
        ProgressPage {
            layout,
            notice,
            progress: view.figures.progress,
            needed,
            deadline: view.deadline,
            passed: view.passed,
            under_count: view.figures.under_count,
            under,
            under_more: view.under_more,
            under_all: format!("{}?reviews_below={needed}&sort=reviews&dir=asc", submissions::PATH),
            overdue,
        }
    }
}
