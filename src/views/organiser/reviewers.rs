//! The reviewers' page (`crate::handlers::organiser::reviewers`): the reviewers as organisers
//! invite and remove them, the counts by state, and the forms that invite one or many
//! ([`ReviewersPage`]).

use std::collections::BTreeMap;

use askama::Template;

use crate::clock::zone::Zone;
use crate::repo::content::lines;
use crate::repo::reviewers::Listed;
use crate::views::layout::Layout;
use crate::views::organiser::shared::{Moment, Pager, when, word};

/// The reviewers' page.
pub const PATH: &str = "/organiser/reviewers";

/// A reviewer as the page lists them.
pub struct Row {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub affiliation: String,
    pub topics: String,
    pub state: String,
    pub invited: Moment,
    /// When they accepted or declined; `None` before.
    pub answered: Option<Moment>,
    pub papers: i64,
    pub handed_back: i64,
    /// Whether "Send again" is offered (an open invitation).
    pub resend: bool,
    /// Whether "Remove" is offered.
    pub remove: bool,
}

/// The one-reviewer form as typed, with its field errors.
#[derive(Default)]
pub struct InviteForm {
    pub name: String,
    pub email: String,
    pub affiliation: String,
    /// The chosen focus areas, as sent.
    pub topics: Vec<String>,
    /// Field name → message.
    pub errors: BTreeMap<String, String>,
}

impl InviteForm {
    fn error(&self, field: &str) -> Option<&String> {
        self.errors.get(field)
    }

    fn chose(&self, area: &str) -> bool {
        self.topics.iter().any(|t| t.trim().eq_ignore_ascii_case(area))
    }
}

/// The CSV form as pasted, with what is wrong with it.
#[derive(Default)]
pub struct ImportForm {
    pub text: String,
    /// Why nobody was invited.
    pub problem: Option<String>,
    /// Each bad row: `Line 3: ...`.
    pub lines: Vec<String>,
}

/// The reviewers' page: the counts by state, a page of reviewers, and the two invite forms
/// as typed with their errors.
#[derive(Template)]
#[template(path = "organiser/reviewers.html")]
pub struct ReviewersPage {
    pub layout: Layout,
    pub notice: Option<String>,
    pub problem: Option<String>,
    pub summary: Vec<(String, i64)>,
    pub rows: Vec<Row>,
    /// This page of the reviewers and the links to its neighbours.
    pub pager: Pager,
    /// The conference's focus areas (`site.focus_areas`).
    pub areas: Vec<String>,
    pub invite: InviteForm,
    pub import: ImportForm,
    pub invite_action: &'static str,
    pub import_action: &'static str,
    pub max_rows: usize,
    pub name_max: usize,
    pub affiliation_max: usize,
}

impl ReviewersPage {
    fn resend_action(&self, id: &i64) -> String {
        format!("{PATH}/{id}/resend")
    }

    fn remove_action(&self, id: &i64) -> String {
        format!("{PATH}/{id}/remove")
    }
}

/// Reviewer `r` as the page lists them, their times in `zone`.
pub fn row(r: Listed, zone: &Zone) -> Row {
    Row {
        resend: r.state == "invited",
        remove: r.state != "removed",
        id: r.id,
        name: r.name,
        email: r.email,
        affiliation: r.affiliation,
        topics: lines(&r.topics).join(", "),
        state: word(&r.state),
        invited: when(&r.invited_at, zone),
        answered: r.answered_at.as_deref().map(|at| when(at, zone)),
        papers: r.live_papers,
        handed_back: r.handed_back,
    }
}
