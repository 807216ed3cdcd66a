//! The settings page (`crate::handlers::organiser::settings`): every operational deadline
//! with its value in the event's zone, what it governs and where the value comes from, and
//! the form that changes them, with what a change did or why it was refused
//! ([`SettingsPage`]).

use askama::Template;

use crate::calendar::change::Outcome;
use crate::calendar::overview::{self, Line, Overview};
use crate::views::layout::Layout;

/// One deadline as the page shows it: its line of the calendar, and the form's field.
pub struct Row {
    pub key: &'static str,
    pub label: &'static str,
    pub governs: &'static str,
    pub line: Line,
    /// What the field holds: the value as stored, or what was typed into a refused form.
    pub typed: String,
    /// Why this field was refused.
    pub error: Option<String>,
}

/// The settings page: the deadlines and the one form that changes them.
#[derive(Template)]
#[template(path = "organiser/settings.html")]
pub struct SettingsPage {
    pub layout: Layout,
    pub zone: String,
    pub rows: Vec<Row>,
    pub notice: Option<String>,
    pub warnings: Vec<String>,
    /// Problems of a refused form that name no field of the page (an unknown key).
    pub problems: Vec<String>,
}

/// A refused form: what was typed and what was wrong, per key as typed.
pub struct Refused {
    pub typed: Vec<(String, String)>,
    pub problems: Vec<(String, String)>,
}

/// The value paired with `key` (as typed) in `pairs`.
fn value_of(pairs: &[(String, String)], key: &str) -> Option<String> {
    pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
}

impl SettingsPage {
    /// The page of the calendar's `overview`, with what a change did (`outcome`) or the form
    /// that was `refused`, each field holding what was typed.
    pub fn new(layout: Layout, overview: Overview, outcome: Option<Outcome>, refused: Option<Refused>) -> SettingsPage {
        let rows: Vec<Row> = overview
            .lines
            .into_iter()
            .map(|line| {
                let name = line.key.name();
                Row {
                    key: name,
                    label: line.key.label(),
                    governs: line.key.governs(),
                    typed: refused
                        .as_ref()
                        .and_then(|r| value_of(&r.typed, name))
                        .unwrap_or_else(|| line.stored.clone()),
                    error: refused.as_ref().and_then(|r| value_of(&r.problems, name)),
                    line,
                }
            })
            .collect();
        let problems = refused
            .as_ref()
            .map(|r| {
                let unknown = r.problems.iter().filter(|(k, _)| !rows.iter().any(|row| row.key == k));
                unknown.map(|(k, m)| format!("{k}: {m}")).collect()
            })
            .unwrap_or_default();
        let notice = outcome.as_ref().map(overview::changed_words);
        SettingsPage {
            layout,
            zone: overview.zone,
            rows,
            notice,
            warnings: outcome.map(|o| o.warnings).unwrap_or_default(),
            problems,
        }
    }
}
