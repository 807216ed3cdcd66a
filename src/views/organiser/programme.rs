//! The organisers' programme pages (`crate::handlers::organiser::programme`): the draft with
//! its sessions, talks, conflicts, lock and what publishing would change ([`ProgrammePage`]),
//! and a paper's public abstract and presenter ([`PaperPage`]). The forms' addresses are
//! here, named by the templates and routed by the handler.

use askama::Template;

use crate::programme::draft::Paper;
use crate::programme::overview::{DayRow, TalkRow};
use crate::views::layout::Layout;
use crate::views::organiser::shared::Moment;

/// The organisers' programme page.
pub const PATH: &str = "/organiser/programme";
/// Where "Place a paper" and a talk's "Save minutes" post.
pub const PLACE: &str = "/organiser/programme/place";
/// Where a talk's "Earlier" and "Later" post.
pub const MOVE: &str = "/organiser/programme/move";
/// Where a talk's "Remove" posts.
pub const REMOVE: &str = "/organiser/programme/remove";
/// Where "Lock authors' edits" and "Unlock" post.
pub const LOCK: &str = "/organiser/programme/lock";
/// Where "Publish" posts.
pub const PUBLISH: &str = "/organiser/programme/publish";

/// The address of a paper's public abstract and presenter.
pub fn paper_href(reference: &str) -> String {
    format!("{PATH}/papers/{}", url_segment(reference))
}

/// `value` as one segment of an address: percent-encoded, a space as `%20`.
pub fn url_segment(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>().replace('+', "%20")
}

/// The programme page; its forms' addresses and limits are this module's and
/// `crate::programme`'s constants, named in the template.
#[derive(Template)]
#[template(path = "organiser/programme.html")]
pub struct ProgrammePage {
    pub layout: Layout,
    /// What the last form did (`role="status"`).
    pub notice: Option<String>,
    /// Why the last form changed nothing (`role="alert"`).
    pub problem: Option<String>,
    /// The event's zone, `Asia/Manila`.
    pub zone: String,
    pub conflicts: Vec<String>,
    pub days: Vec<DayRow>,
    /// Placements in a session that takes no papers or no longer exists.
    pub stray: Vec<TalkRow>,
    /// Accepted papers not placed yet: (reference, label).
    pub waiting: Vec<(String, String)>,
    /// Every accepted or placed paper, for the links to their abstract and presenter:
    /// (reference, title).
    pub papers: Vec<(String, String)>,
    /// The latest version: its number, name and when it was published.
    pub latest: Option<(i64, String, Moment)>,
    pub next_number: i64,
    pub changes: Vec<String>,
    pub talk_count: usize,
    pub session_count: usize,
    /// What was typed in the version's name (shown again after a refusal).
    pub name: String,
    /// Locked: (when, by whom).
    pub lock: Option<(Moment, String)>,
}

impl ProgrammePage {
    /// A version is published and the draft changes nothing of it: nothing to publish.
    fn unchanged(&self) -> bool {
        self.latest.is_some() && self.changes.is_empty()
    }
}

/// A paper's public abstract and presenter.
#[derive(Template)]
#[template(path = "organiser/programme_paper.html")]
pub struct PaperPage {
    pub layout: Layout,
    pub paper: Paper,
    pub state: String,
    /// Where it is placed: "Fixture session A, 09:00–09:15", or `None`.
    pub placed: Option<String>,
    pub presenter: String,
    pub public_abstract: String,
    pub problem: Option<String>,
    pub lock: Option<(Moment, String)>,
    pub action: String,
    pub words: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_papers_address_escapes_its_reference() {
        assert_eq!(paper_href("P-2025 1"), "/organiser/programme/papers/P-2025%201");
    }
}
