//! View models more than one page uses.

use time::OffsetDateTime;

use crate::clock::dates;
use serde_json::Value;

use crate::repo::content::{DateItem, SPEAKER_CATEGORIES, Speaker};

/// Speakers of one category with the spec's label (Guest of Honor, ...).
pub struct SpeakerGroup {
    pub category: &'static str,
    pub label: &'static str,
    pub speakers: Vec<Speaker>,
}

/// Groups speakers by category in tab order; empty categories are dropped.
pub fn speaker_groups(speakers: Vec<Speaker>) -> Vec<SpeakerGroup> {
    SPEAKER_CATEGORIES
        .iter()
        .map(|(category, label)| SpeakerGroup {
            category,
            label,
            speakers: speakers.iter().filter(|s| s.category == *category).cloned().collect(),
        })
        .filter(|g| !g.speakers.is_empty())
        .collect()
}

/// One entry of the important-dates timeline.
pub struct TimelineItem {
    pub date: String,
    pub label: String,
    pub title: String,
    pub description: String,
    /// The day is over in the venue's time zone: shown greyed and struck through.
    pub passed: bool,
}

pub fn timeline(dates: Vec<DateItem>, utc_offset: &str, now: OffsetDateTime) -> Vec<TimelineItem> {
    dates
        .into_iter()
        .map(|d| TimelineItem {
            label: dates::long(&d.date),
            passed: dates::has_passed(&d.date, utc_offset, now),
            date: d.date,
            title: d.title,
            description: d.description,
        })
        .collect()
}

/// A site path or URL of the seed (`virtual_url`) on `PUBLIC_URL` (`base`, no trailing `/`):
/// `https://host/path?q` or `/path?q` become `{base}/path?q`, anything else `{base}/`.
pub fn on_base(base: &str, url: &str) -> String {
    let path = match url.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None if url.starts_with('/') => url,
        None => "/",
    };
    format!("{base}{path}")
}

/// JSON-LD as it may stand inside `<script>`: a `<` in a value can never close the element.
pub fn script_json(value: &Value) -> String {
    value.to_string().replace('<', "\\u003c")
}
