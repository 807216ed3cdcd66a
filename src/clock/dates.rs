//! Dates and times as pages, mails and forms show them: content dates stored as `YYYY-MM-DD`,
//! the countdown target, wall-clock times (`09:05`), days (`Friday, 21 March 2025`) and RFC
//! 3339 instants with the zone's offset.

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime};

/// Parses a content date (`YYYY-MM-DD`).
pub fn parse(date: &str) -> Option<Date> {
    Date::parse(date, format_description!("[year]-[month]-[day]")).ok()
}

/// "21 March 2025"; the input unchanged when it is not a date.
pub fn long(date: &str) -> String {
    match parse(date) {
        Some(d) => format!("{} {} {}", d.day(), d.month(), d.year()),
        None => date.to_string(),
    }
}

/// "21-23 March 2025", "30 March - 2 April 2025" or "30 December 2025 - 2 January 2026".
pub fn range_label(start: &str, end: &str) -> String {
    match (parse(start), parse(end)) {
        (Some(s), Some(e)) if s == e => long(start),
        (Some(s), Some(e)) if s.year() == e.year() && s.month() == e.month() => {
            format!("{}-{} {} {}", s.day(), e.day(), s.month(), s.year())
        }
        (Some(s), Some(e)) if s.year() == e.year() => {
            format!("{} {} - {} {} {}", s.day(), s.month(), e.day(), e.month(), e.year())
        }
        _ => format!("{} - {}", long(start), long(end)),
    }
}

/// Whether a content date's day has fully passed at `now` in the site's `utc_offset`
/// (`+08:00`). The timeline greys out such entries (spec section 4: Timeline).
pub fn has_passed(date: &str, utc_offset: &str, now: OffsetDateTime) -> bool {
    let Some(day) = parse(date) else { return false };
    let offset =
        time::UtcOffset::parse(utc_offset, format_description!("[offset_hour sign:mandatory]:[offset_minute]"))
            .unwrap_or(time::UtcOffset::UTC);
    now.to_offset(offset).date() > day
}

/// Days, hours, minutes and seconds left until a target (spec section 3: Countdown value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Remaining {
    pub days: i64,
    pub hours: i64,
    pub minutes: i64,
    pub seconds: i64,
}

impl Remaining {
    /// Time left from `now` until the RFC 3339 `target`; all zeros once it has passed
    /// (spec section 4: the countdown stops) or when the target is not a valid time.
    pub fn until(target: &str, now: OffsetDateTime) -> Remaining {
        let left = OffsetDateTime::parse(target, &Rfc3339).map(|t| (t - now).whole_seconds().max(0)).unwrap_or(0);
        Remaining { days: left / 86_400, hours: left % 86_400 / 3600, minutes: left % 3600 / 60, seconds: left % 60 }
    }

    /// The four units as (label, two-digit value), in display order.
    pub fn units(&self) -> [(&'static str, String); 4] {
        [
            ("Days", format!("{:02}", self.days)),
            ("Hours", format!("{:02}", self.hours)),
            ("Minutes", format!("{:02}", self.minutes)),
            ("Seconds", format!("{:02}", self.seconds)),
        ]
    }
}

/// `09:05`: a wall-clock time as every programme page, mail and form shows it.
pub fn clock(at: time::Time) -> String {
    format!("{:02}:{:02}", at.hour(), at.minute())
}

/// RFC 3339 with the zone's offset and seconds, `2025-03-21T09:00:00+08:00`.
pub fn iso(at: OffsetDateTime) -> String {
    at.format(format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second][offset_hour sign:mandatory]:[offset_minute]"
    ))
    .unwrap_or_default()
}

/// `Friday, 21 March 2025`.
pub fn day_label(date: Date) -> String {
    format!("{}, {} {} {}", date.weekday(), date.day(), date.month(), date.year())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn ranges_read_naturally() {
        assert_eq!(range_label("2025-03-21", "2025-03-23"), "21-23 March 2025");
        assert_eq!(range_label("2025-03-30", "2025-04-02"), "30 March - 2 April 2025");
        assert_eq!(range_label("2025-03-21", "2025-03-21"), "21 March 2025");
    }

    #[test]
    fn remaining_counts_down_and_stops_at_zero() {
        let target = "2025-03-21T00:00:00+08:00";
        let r = Remaining::until(target, datetime!(2025-03-19 15:58:30 UTC));
        assert_eq!(r, Remaining { days: 1, hours: 0, minutes: 1, seconds: 30 });
        let past = Remaining::until(target, datetime!(2025-03-21 00:00:01 UTC));
        assert_eq!(past, Remaining { days: 0, hours: 0, minutes: 0, seconds: 0 });
    }

    #[test]
    fn a_day_passes_at_midnight_in_the_venue_time_zone() {
        // 2025-03-18 16:30 UTC is 2025-03-19 00:30 in Manila.
        assert!(has_passed("2025-03-18", "+08:00", datetime!(2025-03-18 16:30 UTC)));
        assert!(!has_passed("2025-03-18", "+08:00", datetime!(2025-03-18 15:30 UTC)));
    }
}
