//! The decision pages (`crate::handlers::organiser::decide`): the review of a selection
//! before its decision is staged ([`ReviewPage`]) and the preview of applying every pending
//! decision with its mails ([`ApplyPage`]).

use askama::Template;

use crate::views::layout::Layout;

/// The review of a selection: its count and references, and the button that stages the
/// decision on them. Showing it changes nothing.
#[derive(Template)]
#[template(path = "organiser/decide.html")]
pub struct ReviewPage {
    pub layout: Layout,
    pub heading: String,
    pub summary: String,
    pub decision: &'static str,
    pub items: Vec<(String, i64)>,
    pub action: &'static str,
    pub button: String,
}

/// A row of the preview: the reference and version the apply names, the decision's verb,
/// the mail's address and subject.
pub struct PreviewRow {
    pub reference: String,
    pub version: i64,
    pub decision: &'static str,
    pub to: String,
    pub subject: String,
}

/// The preview of applying: how many of each decision, every author's address and subject, and
/// the first mail in full; its button applies exactly these.
#[derive(Template)]
#[template(path = "organiser/apply.html")]
pub struct ApplyPage {
    pub layout: Layout,
    pub heading: &'static str,
    pub accepted: usize,
    pub rejected: usize,
    pub rows: Vec<PreviewRow>,
    /// The first mail in full: (to, subject, body).
    pub sample: Option<(String, String, String)>,
    /// What stands for the token in the sample's status link.
    pub stand_in: &'static str,
    pub action: &'static str,
}

/// The review page's heading, summary and button for `count` submissions getting the decision
/// whose verb is `verb` ("Accept"; `None`: the pending decision cleared).
pub fn review_words(verb: Option<&str>, count: usize) -> (String, String, String) {
    let plural = if count == 1 { "submission" } else { "submissions" };
    match verb {
        Some(verb) => (
            format!("{verb} {count} {plural}?"),
            format!("{count} {plural} will get the pending decision \"{verb}\":"),
            format!("Confirm: {} {count} {plural}", verb.to_lowercase()),
        ),
        None => (
            format!("Clear the pending decision of {count} {plural}?"),
            format!("{count} {plural} will have no pending decision:"),
            format!("Confirm: clear {count} {plural}"),
        ),
    }
}
