//! The stream links' page (`crate::handlers::organiser::streams`): every online or hybrid
//! session of the programme with its stream link and its form ([`StreamsPage`]).

use askama::Template;

use crate::programme::timetable::Programme;
use crate::repo::streams::StreamLink;
use crate::views::layout::Layout;
use crate::views::organiser::shared::{Moment, when};

/// The page's address.
pub const PATH: &str = "/organiser/streams";

/// One streamed session of the page, with its form.
pub struct Row {
    pub slug: String,
    pub title: String,
    /// `Saturday, 22 March 2025, 09:00–12:00`.
    pub when: String,
    pub mode: String,
    pub action: String,
    pub url: String,
    pub label: String,
    /// Who set the link and when; `None` without a link.
    pub set: Option<(Moment, String)>,
    /// Why this session's form was refused (shown with what was typed).
    pub error: Option<String>,
}

/// The stream links' page: the streamed sessions, each with its form.
#[derive(Template)]
#[template(path = "organiser/streams.html")]
pub struct StreamsPage {
    pub layout: Layout,
    pub zone: String,
    pub rows: Vec<Row>,
    pub notice: Option<String>,
    /// A refusal about a session the page does not list (an in-person one).
    pub problem: Option<String>,
    pub url_max: usize,
    pub label_max: usize,
}

/// A form refused: the session, what was typed (address, label) and why.
pub struct Refused {
    pub slug: String,
    pub url: String,
    pub label: String,
    pub error: String,
}

/// The streamed sessions of `programme` with their stored `links` (set by whom, when, in the
/// programme's zone), and what was typed in the form that was `refused`.
pub fn rows(programme: &Programme, links: &[StreamLink], refused: Option<&Refused>) -> Vec<Row> {
    programme
        .sessions
        .iter()
        .filter(|s| s.streamed())
        .map(|s| {
            let link = links.iter().find(|l| l.session == s.session.slug);
            let typed = refused.filter(|r| r.slug == s.session.slug);
            Row {
                slug: s.session.slug.clone(),
                title: s.session.title.clone(),
                when: format!("{}, {}–{}", s.day_label(), s.start_label(), s.end_label()),
                mode: s.mode_label(),
                action: format!("{PATH}/{}", s.session.slug),
                url: typed.map_or_else(|| link.map(|l| l.url.clone()).unwrap_or_default(), |r| r.url.clone()),
                label: typed.map_or_else(|| link.map(|l| l.label.clone()).unwrap_or_default(), |r| r.label.clone()),
                set: link.map(|l| (when(&l.updated, &programme.zone), l.updated_by.clone())),
                error: typed.map(|r| r.error.clone()),
            }
        })
        .collect()
}
