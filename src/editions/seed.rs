//! `conference edition seed` (DESIGN.md section 17): the next edition's content seed drafted
//! from the one in force. Every date and time moves by the same number of days, the
//! edition's year changes in the site's names, and each other mention of the old year is
//! listed for the organisers to edit. The seed's text is rewritten value by value, so its
//! comments and layout stay; the database is never read or written.
//!
//! A value is a date when the whole literal is one: `YYYY-MM-DD` (content dates, deadlines),
//! `YYYY-MM-DD HH:MM` (a wall-clock time in the event's zone: sessions, deadlines) or RFC 3339
//! (the countdown target, `created` stamps). Dates in prose ("21-23 March 2025") are not
//! guessed at: they hold the old year, so they are listed.

use std::path::{Path, PathBuf};

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, Duration, OffsetDateTime, UtcOffset};

use crate::clock::zone::{Zone, ZoneError, offset_label};
use crate::seed::literals::{self, Literal};

/// A drafted seed and what changed in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    /// The new seed's text.
    pub sql: String,
    /// Days every date moved (new start minus the current edition's first day).
    pub days: i64,
    /// The current edition's first day and the new one.
    pub from: Date,
    pub to: Date,
    /// How many values moved.
    pub moved: usize,
    /// Each site name that held the old year, and its new form (`ICSIFT 2025` → `ICSIFT 2027`).
    pub renamed: Vec<(String, String)>,
    /// The old year where it remains, for the organisers to edit.
    pub mentions: Vec<Mention>,
}

/// A literal of the new seed that still holds the old edition's year.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub table: String,
    pub row: String,
    pub column: String,
    /// The words around the first mention, on one line.
    pub excerpt: String,
}

impl std::fmt::Display for Mention {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let column = if self.column.is_empty() { "(no column)" } else { &self.column };
        write!(f, "table {}, row {}, field {}: {}", self.table, self.row, column, self.excerpt)
    }
}

/// Why no seed was drafted; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum DraftError {
    #[error("--start {0:?} is not a date: write it as YYYY-MM-DD, e.g. 2027-03-19")]
    BadStart(String),
    #[error("the seed has no site.{0} to draft from (a date YYYY-MM-DD in the site row)")]
    NoSiteDate(&'static str),
    #[error("the seed's site.time_zone: {0}")]
    Zone(#[from] ZoneError),
    #[error(
        "--start {start} is not after the current edition, which ends on {end}: the next edition starts after that day"
    )]
    StartTooEarly { start: Date, end: Date },
    #[error("moving the seed's {value:?} (table {table}, row {row}) by {days} days leaves the calendar")]
    OutOfRange { value: String, table: String, row: String, days: i64 },
    #[error("--out {0} is the seed in force; write the draft to another file and review it first")]
    OutIsInForce(String),
    #[error("cannot write --out {path}: {reason}")]
    Unwritable { path: String, reason: String },
}

/// Parses `--start` (`YYYY-MM-DD`).
pub fn parse_start(start: &str) -> Result<Date, DraftError> {
    crate::clock::dates::parse(start.trim()).ok_or_else(|| DraftError::BadStart(start.to_owned()))
}

/// The site row's values as the seed leaves them: the last assignment of each column wins,
/// as when the seed runs.
fn site_value<'a>(found: &'a [Literal], column: &str) -> Option<&'a Literal> {
    found.iter().rev().find(|l| l.table == "site" && l.column == column)
}

/// Drafts the next edition from the seed `sql`, starting on `start` (the new first day).
///
/// Errors: the seed lacks the site's dates or a known zone; `start` is not after the current
/// edition's last day; a moved date leaves the calendar.
pub fn draft(sql: &str, start: Date) -> Result<Draft, DraftError> {
    let found = literals::literals(sql);
    let date_of = |column: &'static str| {
        site_value(&found, column)
            .and_then(|l| crate::clock::dates::parse(&l.value))
            .ok_or(DraftError::NoSiteDate(column))
    };
    let (first, last) = (date_of("start_date")?, date_of("end_date")?);
    if start <= last {
        return Err(DraftError::StartTooEarly { start, end: last });
    }
    let zone_name = site_value(&found, "time_zone").map_or("", |l| l.value.as_str());
    let zone = Zone::load(zone_name)?;
    let days = (start - first).whole_days();
    let (old_year, new_year) = (first.year().to_string(), start.year().to_string());
    let renamed = renamed_names(&found, &old_year, &new_year);
    let new_offset = offset_label(zone.localize(start.with_time(time::macros::time!(9:00))).offset());

    let mut out = String::with_capacity(sql.len());
    let mut copied = 0;
    let (mut moved, mut mentions) = (0, Vec::new());
    for literal in &found {
        let value = if literal.table == "site" && literal.column == "utc_offset" {
            // The offset of the zone on the new first day, as `seed --check` wants it.
            Some(new_offset.clone())
        } else {
            match moved_value(&literal.value, days, &zone) {
                Moved::Value(value) => {
                    moved += 1;
                    Some(value)
                }
                Moved::OutOfRange => {
                    return Err(DraftError::OutOfRange {
                        value: literal.value.clone(),
                        table: literal.table.clone(),
                        row: literal.row.clone(),
                        days,
                    });
                }
                Moved::NotADate => {
                    let text = renamed.iter().fold(literal.value.clone(), |text, (old, new)| text.replace(old, new));
                    mentions.extend(year_excerpts(&text, &old_year).into_iter().map(|excerpt| Mention {
                        table: literal.table.clone(),
                        row: literal.row.clone(),
                        column: literal.column.clone(),
                        excerpt,
                    }));
                    (text != literal.value).then_some(text)
                }
            }
        };
        if let Some(value) = value {
            out.push_str(&sql[copied..literal.span.start]);
            out.push_str(&literals::quote(&value));
            copied = literal.span.end;
        }
    }
    out.push_str(&sql[copied..]);
    Ok(Draft { sql: out, days, from: first, to: start, moved, renamed, mentions })
}

/// The site's names (`name`, `short_name`, `edition`) that hold the old year as a word, with
/// the new year in its place; longest first, so that a name containing another is replaced
/// whole.
fn renamed_names(found: &[Literal], old_year: &str, new_year: &str) -> Vec<(String, String)> {
    let mut renamed: Vec<(String, String)> = ["name", "short_name", "edition"]
        .into_iter()
        .filter_map(|column| site_value(found, column))
        .filter(|l| year_at(&l.value, old_year).is_some())
        .map(|l| (l.value.clone(), replace_year(&l.value, old_year, new_year)))
        .filter(|(old, new)| old != new)
        .collect();
    renamed.sort_by_key(|(old, _)| std::cmp::Reverse(old.len()));
    renamed.dedup();
    renamed
}

/// The byte offsets of each `year` in `text` that stands as a number of its own (not part of
/// a longer run of digits).
fn years_at<'a>(text: &'a str, year: &'a str) -> impl Iterator<Item = usize> + 'a {
    let bytes = text.as_bytes();
    text.match_indices(year).map(|(at, _)| at).filter(move |&at| {
        let before = at.checked_sub(1).map(|b| bytes[b]);
        let after = bytes.get(at + year.len()).copied();
        !before.is_some_and(|b| b.is_ascii_digit()) && !after.is_some_and(|b| b.is_ascii_digit())
    })
}

/// The first of [`years_at`].
fn year_at(text: &str, year: &str) -> Option<usize> {
    years_at(text, year).next()
}

/// `text` with every `year` standing on its own replaced by `new`.
fn replace_year(text: &str, year: &str, new: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = year_at(rest, year) {
        out.push_str(&rest[..at]);
        out.push_str(new);
        rest = &rest[at + year.len()..];
    }
    out.push_str(rest);
    out
}

/// For each `year` in `text`, about 30 characters either side of it, cut at spaces and on
/// one line.
fn year_excerpts(text: &str, year: &str) -> Vec<String> {
    years_at(text, year).map(|at| excerpt(text, at, at + year.len())).collect()
}

/// `text[at..end]` with about 30 characters either side, cut at spaces, on one line.
fn excerpt(text: &str, at: usize, end: usize) -> String {
    let mut from = text[..at].char_indices().rev().nth(29).map_or(0, |(i, _)| i);
    if from > 0 {
        from = text[from..at].find(char::is_whitespace).map_or(from, |space| from + space + 1);
    }
    let mut to = text[end..].char_indices().nth(30).map_or(text.len(), |(i, _)| end + i);
    if to < text.len() {
        to = text[end..to].rfind(char::is_whitespace).map_or(to, |space| end + space);
    }
    let open = if from > 0 { "..." } else { "" };
    let close = if to < text.len() { "..." } else { "" };
    let words = text[from..to].split_whitespace().collect::<Vec<_>>().join(" ");
    format!("\"{open}{words}{close}\"")
}

/// What becomes of one literal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Moved {
    /// A date or time, moved.
    Value(String),
    /// A date that would leave the years `time` knows.
    OutOfRange,
    /// Not a date: left as it is.
    NotADate,
}

/// `value` moved by `days` when the whole of it is a date or time (module doc); a wall-clock
/// time keeps its clock, an RFC 3339 time keeps its clock time in `zone` and takes the
/// zone's offset on the new day (a `Z` time stays written in UTC). A time written in an
/// offset that is not the zone's keeps its clock time in that offset.
pub fn moved_value(value: &str, days: i64, zone: &Zone) -> Moved {
    let shift = |date: Date| date.checked_add(Duration::days(days));
    if value.len() == 10
        && let Some(date) = crate::clock::dates::parse(value)
    {
        return shift(date).map_or(Moved::OutOfRange, |date| Moved::Value(date_text(date)));
    }
    if let Some((day, clock)) = value.split_once(' ')
        && let Some(date) = crate::clock::dates::parse(day).filter(|_| day.len() == 10)
        && is_clock(clock)
    {
        return shift(date).map_or(Moved::OutOfRange, |date| Moved::Value(format!("{} {clock}", date_text(date))));
    }
    let Ok(instant) = OffsetDateTime::parse(value, &Rfc3339) else { return Moved::NotADate };
    let utc = value.ends_with(['Z', 'z']);
    let in_zone = utc || instant.offset() == zone.offset_at(instant);
    let local = if in_zone { instant.to_offset(zone.offset_at(instant)) } else { instant };
    let Some(day) = shift(local.date()) else { return Moved::OutOfRange };
    let moved = if in_zone {
        zone.localize(day.with_time(local.time()))
    } else {
        day.with_time(local.time()).assume_offset(instant.offset())
    };
    // The text after the seconds: a fraction, then `Z` or the offset.
    let suffix_at =
        value.find(['Z', 'z', '+']).or_else(|| value.rfind('-').filter(|&at| at > 10)).unwrap_or(value.len());
    let fraction = value.get(19..suffix_at).unwrap_or("");
    let (shown, offset) =
        if utc { (moved.to_offset(UtcOffset::UTC), "Z".to_owned()) } else { (moved, offset_label(moved.offset())) };
    let format = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
    match shown.format(format) {
        Ok(text) => Moved::Value(format!("{text}{fraction}{offset}")),
        Err(_) => Moved::OutOfRange,
    }
}

fn date_text(date: Date) -> String {
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}

/// `HH:MM` or `HH:MM:SS`, as the seed writes wall-clock times.
fn is_clock(text: &str) -> bool {
    let parts: Vec<&str> = text.split(':').collect();
    (2..=3).contains(&parts.len()) && parts.iter().all(|p| p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Drafts from `sql` (read from `source`, if a file) and writes the draft to `out`, whole or
/// not at all (a temporary file in `out`'s folder, renamed). `in_force` names the seed files
/// `conference seed` applies; `out` may be none of them.
///
/// Errors: as [`draft`]; `out` is a seed in force or cannot be written.
pub fn write(sql: &str, start: Date, out: &Path, in_force: &[PathBuf]) -> Result<Draft, DraftError> {
    let target = comparable(out);
    if in_force.iter().any(|seed| seed.exists() && comparable(seed) == target) {
        return Err(DraftError::OutIsInForce(out.display().to_string()));
    }
    let drafted = draft(sql, start)?;
    let unwritable = |reason: String| DraftError::Unwritable { path: out.display().to_string(), reason };
    if out.is_dir() {
        return Err(unwritable("it is a folder".to_owned()));
    }
    let folder = match out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(&folder).map_err(|err| unwritable(err.to_string()))?;
    std::io::Write::write_all(&mut file, drafted.sql.as_bytes()).map_err(|err| unwritable(err.to_string()))?;
    file.persist(out).map_err(|err| unwritable(err.error.to_string()))?;
    Ok(drafted)
}

/// `path` made absolute with its links resolved, or as far as it exists (a new file in an
/// existing folder).
fn comparable(path: &Path) -> PathBuf {
    if let Ok(path) = path.canonicalize() {
        return path;
    }
    match (path.parent().and_then(|parent| parent.canonicalize().ok()), path.file_name()) {
        (Some(parent), Some(name)) => parent.join(name),
        _ => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        crate::clock::dates::parse(text).unwrap()
    }

    fn zone(name: &str) -> Zone {
        let zone = Zone::load(name);
        assert!(zone.is_ok(), "the tz database has no {name}: install Debian's tzdata ({zone:?})");
        zone.unwrap()
    }

    fn moved(value: &str, days: i64, zone: &Zone) -> String {
        match moved_value(value, days, zone) {
            Moved::Value(value) => value,
            other => panic!("{value} did not move: {other:?}"),
        }
    }

    #[test]
    fn dates_move_across_month_ends_and_leap_days() {
        let utc = Zone::fixed("UTC", UtcOffset::UTC);
        assert_eq!(moved("2025-01-31", 28, &utc), "2025-02-28");
        assert_eq!(moved("2025-01-31", 29, &utc), "2025-03-01");
        assert_eq!(moved("2027-02-28", 1, &utc), "2027-03-01", "2027 has no 29 February");
        assert_eq!(moved("2028-02-28", 1, &utc), "2028-02-29", "2028 has one");
        assert_eq!(moved("2024-02-29", 365, &utc), "2025-02-28");
        assert_eq!(moved("2025-03-21", 728, &utc), "2027-03-19", "104 weeks: the same weekday");
        assert_eq!(moved("2025-12-31", 1, &utc), "2026-01-01");
        assert_eq!(moved("2025-03-14 23:59", 728, &utc), "2027-03-12 23:59", "a wall-clock time keeps its clock");
        assert_eq!(moved("2025-04-30 08:00:30", 1, &utc), "2025-05-01 08:00:30");
        assert_eq!(moved_value("9999-12-31", 1, &utc), Moved::OutOfRange);
    }

    #[test]
    fn only_a_whole_date_moves() {
        let utc = Zone::fixed("UTC", UtcOffset::UTC);
        for text in ["21 March 2025", "2025", "2025-03-21 and 22", "2025-3-21", "ICSIFT 2025", "2025-03-21 9:00", ""] {
            assert_eq!(moved_value(text, 7, &utc), Moved::NotADate, "{text}");
        }
    }

    #[test]
    fn rfc_3339_times_keep_their_clock_time_and_take_the_zones_offset() {
        let manila = zone("Asia/Manila");
        assert_eq!(moved("2025-03-21T00:00:00+08:00", 728, &manila), "2027-03-19T00:00:00+08:00");
        assert_eq!(moved("2024-11-01T08:00:00Z", 728, &manila), "2026-10-30T08:00:00Z");
        assert_eq!(moved("2024-11-01T08:00:00.250Z", 1, &manila), "2024-11-02T08:00:00.250Z", "the fraction stays");
        // Berlin moves from winter time (+01:00) to summer time (+02:00): 09:00 stays 09:00.
        let berlin = zone("Europe/Berlin");
        assert_eq!(moved("2025-03-21T09:00:00+01:00", 14, &berlin), "2025-04-04T09:00:00+02:00");
        assert_eq!(moved("2025-07-01T09:00:00+02:00", 183, &berlin), "2025-12-31T09:00:00+01:00");
        // A UTC stamp keeps its clock time in Berlin (09:00 CET, then 09:00 CEST).
        assert_eq!(moved("2025-03-21T08:00:00Z", 14, &berlin), "2025-04-04T07:00:00Z");
        // A time written in an offset that is not the zone's keeps its clock time there.
        assert_eq!(moved("2025-03-21T09:00:00-05:00", 14, &berlin), "2025-04-04T09:00:00-05:00");
        assert_eq!(moved("2025-03-21T09:00:00+00:00", 14, &berlin), "2025-04-04T09:00:00+00:00");
    }

    const SEED: &str = "-- EXCON 2025: a seed\nINSERT INTO site (id, name, short_name, edition, description, start_date, end_date, countdown_target, time_zone, utc_offset, paper_due_date) VALUES\n(1, 'Example Conference', 'EXCON 2025', '2025 edition', 'EXCON 2025 meets on 21-23 March 2025; the 2025 edition is the 12th since 2013.', '2025-03-21', '2025-03-23', '2025-03-21T00:00:00+01:00', 'Europe/Berlin', '+01:00', '2025-02-28');\nUPDATE site SET review_deadline = '2025-03-03 23:59' WHERE id = 1;\nINSERT INTO dates (id, date, title, created) VALUES ('d-1', '2025-03-21', 'Day 1 of EXCON 2025', '2024-11-01T08:00:00Z');\n";

    #[test]
    fn a_draft_moves_every_date_renames_the_edition_and_lists_what_is_left() {
        zone("Europe/Berlin");
        let drafted = draft(SEED, date("2027-06-18")).unwrap();
        assert_eq!(drafted.days, 819);
        let found = literals::literals(&drafted.sql);
        let value = |table: &str, column: &str| {
            found.iter().find(|l| l.table == table && l.column == column).map(|l| l.value.clone()).unwrap()
        };
        assert_eq!(value("site", "start_date"), "2027-06-18");
        assert_eq!(value("site", "end_date"), "2027-06-20");
        assert_eq!(value("site", "countdown_target"), "2027-06-18T00:00:00+02:00", "summer time in June");
        assert_eq!(value("site", "utc_offset"), "+02:00", "the zone's offset on the new first day");
        assert_eq!(value("site", "paper_due_date"), "2027-05-28");
        assert_eq!(value("site", "review_deadline"), "2027-05-31 23:59");
        assert_eq!(value("site", "short_name"), "EXCON 2027");
        assert_eq!(value("site", "edition"), "2027 edition");
        assert_eq!(value("dates", "date"), "2027-06-18");
        assert_eq!(value("dates", "title"), "Day 1 of EXCON 2027");
        assert_eq!(value("dates", "created"), "2027-01-29T08:00:00Z");
        assert_eq!(
            value("site", "description"),
            "EXCON 2027 meets on 21-23 March 2025; the 2027 edition is the 12th since 2013."
        );
        assert_eq!(drafted.moved, 7);
        assert!(drafted.sql.starts_with("-- EXCON 2025: a seed\n"), "comments stay as they were");
        assert_eq!(drafted.mentions.len(), 1, "{:?}", drafted.mentions);
        assert_eq!(
            drafted.mentions[0].to_string(),
            "table site, row 1, field description: \"...2027 meets on 21-23 March 2025; the 2027 edition is the...\""
        );
    }

    #[test]
    fn each_mention_of_the_year_is_listed_with_the_words_around_it() {
        let text = "Abstracts by 28 February 2025, papers by 18 March 2025. Since 2012025 and 20250.";
        assert_eq!(
            year_excerpts(text, "2025"),
            [
                "\"Abstracts by 28 February 2025, papers by 18 March 2025....\"",
                "\"...2025, papers by 18 March 2025. Since 2012025 and 20250.\""
            ],
            "a longer number is no mention"
        );
        assert_eq!(year_excerpts("line one\n2025\tline two", "2025"), ["\"line one 2025 line two\""]);
        assert!(year_excerpts("no year", "2025").is_empty());
    }

    #[test]
    fn a_start_on_or_before_the_last_day_or_a_bad_seed_is_refused() {
        for start in ["2025-03-23", "2025-03-01", "2024-12-01"] {
            let err = draft(SEED, date(start)).unwrap_err();
            assert!(matches!(err, DraftError::StartTooEarly { .. }), "{start}: {err}");
            assert!(err.to_string().contains("ends on 2025-03-23"), "{err}");
        }
        assert!(draft(SEED, date("2025-03-24")).is_ok(), "the day after the last day is the first allowed");
        assert!(matches!(parse_start("2027-02-29"), Err(DraftError::BadStart(_))), "2027 has no 29 February");
        assert!(matches!(parse_start("19/03/2027"), Err(DraftError::BadStart(_))));
        let no_end = SEED.replace("'2025-03-23'", "NULL");
        assert!(matches!(draft(&no_end, date("2027-03-19")), Err(DraftError::NoSiteDate("end_date"))));
        let no_zone = SEED.replace("'Europe/Berlin'", "'Mars/Olympus'");
        assert!(matches!(draft(&no_zone, date("2027-03-19")), Err(DraftError::Zone(_))));
    }
}
