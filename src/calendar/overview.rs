//! The calendar as `/organiser/settings` shows it (issue 42 item 1, DESIGN.md section 20):
//! each deadline's value in the event's zone, whether it has passed, where the value comes
//! from, and what a change did, in words. Changing values is [`super::change`].

use time::OffsetDateTime;

use super::change::Outcome;
use super::deadline::Key;
use super::settings::{Calendar, Source};
use crate::db::Pool;

/// One deadline as organisers read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub key: Key,
    /// `Monday, 3 March 2025, 18:00 Singapore time (UTC+08:00)`, or why there is none.
    pub value: String,
    /// RFC 3339 in the event's zone; `None` without a readable value.
    pub iso: Option<String>,
    /// `Passed`, `Open: in 5 days`, `Nothing closes by it`.
    pub state: String,
    pub passed: bool,
    /// Where the value comes from, in words.
    pub source: String,
    /// What the form's field starts with: the value as stored, blank for a default or none.
    pub stored: String,
}

/// Every deadline in [`Key::ALL`]'s order, and the event's zone with its offset at `now`
/// (`Asia/Singapore (UTC+08:00)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overview {
    pub zone: String,
    pub lines: Vec<Line>,
}

/// The calendar in force at `now`, in words.
pub async fn overview(pool: &Pool, now: OffsetDateTime) -> Result<Overview, sqlx::Error> {
    let calendar = Calendar::load(pool).await?;
    let lines = calendar
        .entries
        .iter()
        .map(|entry| {
            let passed = entry.is_passed(now);
            let (value, state) = match (&entry.when, &entry.text) {
                (Some(when), _) => {
                    let state = if passed { "Passed".to_owned() } else { format!("Open: {}", when.words(now)) };
                    (when.label(), state)
                }
                (None, Some(text)) => (format!("“{text}” does not read as a date"), "Passed (unreadable)".to_owned()),
                (None, None) => ("Not set".to_owned(), "Nothing closes by it".to_owned()),
            };
            Line {
                key: entry.key,
                value,
                iso: entry.when.as_ref().map(|w| w.iso()),
                state,
                passed,
                source: source_words(&entry.source),
                stored: match entry.source {
                    Source::Default | Source::Unset => String::new(),
                    _ => entry.text.clone().unwrap_or_default(),
                },
            }
        })
        .collect();
    let zone = format!("{} ({})", calendar.zone.name, crate::clock::zone::offset_label(calendar.zone.offset_at(now)));
    Ok(Overview { zone, lines })
}

fn source_words(source: &Source) -> String {
    match source {
        Source::Organisers { by, at } => format!("Set by {by} at {at} (a later seed keeps it)"),
        Source::Seed => "From the content seed".to_owned(),
        Source::Default => "Default: the end of the event's last day".to_owned(),
        Source::Unset => "Not set".to_owned(),
    }
}

/// What a change did, in one sentence: `Nothing changed.`, or `Saved. key: before → after; ...`.
pub fn changed_words(outcome: &Outcome) -> String {
    if outcome.changed.is_empty() {
        return "Nothing changed.".to_owned();
    }
    let changed: Vec<String> = outcome
        .changed
        .iter()
        .map(|c| format!("{}: {} → {}", c.key.name(), c.before.as_deref().unwrap_or("not set"), c.after))
        .collect();
    format!("Saved. {}.", changed.join("; "))
}
