//! The organisers' assignment pages (`crate::handlers::organiser::assignments`): the
//! overview of who reviews which paper ([`OverviewPage`]), the preview of what is staged
//! ([`StagedPage`]) and one paper's reviewers ([`PaperPage`]).

use askama::Template;

use crate::review::assignments as domain;
use crate::views::layout::Layout;

/// The overview.
pub const PATH: &str = "/organiser/review/assignments";

/// The address of paper `reference`'s page.
pub fn paper_href(reference: &str) -> String {
    let segment = url::form_urlencoded::byte_serialize(reference.as_bytes()).collect::<String>();
    format!("{PATH}/{}", segment.replace('+', "%20"))
}

/// "1 paper" or "3 papers".
pub fn counted(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// Every submitted paper with its reviewers, a page of them, and the form that stages an
/// automatic assignment.
#[derive(Template)]
#[template(path = "organiser/assignments.html")]
pub struct OverviewPage {
    pub layout: Layout,
    pub notice: Option<String>,
    pub view: domain::Overview,
    pub automatic_action: &'static str,
    pub staged_href: &'static str,
}

impl OverviewPage {
    fn paper_href(&self, reference: &str) -> String {
        paper_href(reference)
    }
}

/// What is staged, per reviewer, with every reviewer's load and the forms that release or
/// discard it.
#[derive(Template)]
#[template(path = "organiser/assignments_staged.html")]
pub struct StagedPage {
    pub layout: Layout,
    pub notice: Option<String>,
    pub preview: domain::Preview,
    pub release_action: &'static str,
    pub discard_action: &'static str,
    pub overview: &'static str,
}

impl StagedPage {
    fn paper_href(&self, reference: &str) -> String {
        paper_href(reference)
    }
}

/// One paper's reviewers, and every accepted reviewer with "Assign" or the conflict that keeps
/// them off it.
#[derive(Template)]
#[template(path = "organiser/assignments_paper.html")]
pub struct PaperPage {
    pub layout: Layout,
    pub notice: Option<String>,
    pub problem: Option<String>,
    pub code: String,
    /// `Submitted`, or what it is now.
    pub state: String,
    pub open: bool,
    pub view: domain::PaperView,
    /// The paper page's address; its forms post to `/assign`, `/unassign` and `/conflict`
    /// below it.
    pub href: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_as_organisers_say_them() {
        assert_eq!(paper_href("P-2025 1"), "/organiser/review/assignments/P-2025%201");
        assert_eq!(counted(1, "mail", "mails"), "1 mail");
        assert_eq!(counted(3, "mail", "mails"), "3 mails");
    }
}
