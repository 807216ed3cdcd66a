//! The conference's dates as iCalendar (RFC 5545), served as `/calendar.ics`: the
//! conference itself and each important date of the content as all-day events, so visitors
//! can subscribe or import them. Follows the site's calendar rules ([`super::entry`]).

use icalendar::{Component, DatePerhapsTime, Event, EventLike, Property};
use time::OffsetDateTime;

use super::entry::{calendar as published, host_of, one_newline};
use crate::repo::content::{DateItem, Site};

/// The body of `/calendar.ics` (RFC 5545): the conference and each important date as an
/// all-day `VEVENT`, stamped with `now` (the clock's minute); `base_url` is `PUBLIC_URL`
/// without its trailing `/`, whose host ends every `UID`. `icalendar` escapes the TEXT values and
/// folds lines at 75 octets. A date that is not `YYYY-MM-DD` is left out (and logged): one
/// invalid `DTSTART` makes calendar apps drop the whole subscription.
pub fn calendar(site: &Site, dates: &[DateItem], base_url: &str, now: OffsetDateTime) -> String {
    let host = host_of(base_url);
    // DTSTAMP from the site's clock (which tests set); the crate would stamp the wall clock.
    let stamp = DatePerhapsTime::from(now).to_property("DTSTAMP");

    let mut calendar = published(&site.short_name, &site.short_name);
    let conference = all_day(
        &format!("conference@{host}"),
        &stamp,
        &site.start_date,
        &site.end_date,
        &site.name,
        &format!("{} {base_url}/", site.tagline),
    );
    if let Some(mut conference) = conference {
        let place = format!("{}, {}, {}, {}", site.venue_name, site.street_address, site.city, site.country);
        calendar.push(conference.location(&one_newline(&place)).done());
    }
    for date in dates {
        let summary = format!("{}: {}", site.short_name, date.title);
        let uid = format!("date-{}@{host}", date.id);
        let event = all_day(&uid, &stamp, &date.date, &date.date, &summary, &date.description);
        if let Some(event) = event {
            calendar.push(event);
        }
    }
    calendar.to_string()
}

/// An all-day `VEVENT` from `first` to `last` (`YYYY-MM-DD`, both included). `None`, logged,
/// when either is not a date.
fn all_day(uid: &str, stamp: &Property, first: &str, last: &str, summary: &str, description: &str) -> Option<Event> {
    let (Some(start), Some(last_day)) = (crate::clock::dates::parse(first), crate::clock::dates::parse(last)) else {
        tracing::warn!(uid, first, last, "calendar: a date is not YYYY-MM-DD, its event is left out");
        return None;
    };
    let mut event = Event::new();
    event
        .uid(uid)
        .append_property(stamp.clone())
        .starts(start)
        // An all-day DTEND is exclusive (RFC 5545 section 3.6.1).
        .ends(last_day.next_day().unwrap_or(last_day))
        .summary(&one_newline(summary))
        .description(&one_newline(description));
    Some(event)
}

#[cfg(test)]
mod tests {
    use icalendar::Calendar;
    use time::macros::datetime;

    use super::*;

    fn stamp() -> Property {
        DatePerhapsTime::from(datetime!(2031-12-31 23:59:30 UTC)).to_property("DTSTAMP")
    }

    /// The calendar text of one event, and its content lines unfolded (RFC 5545 section 3.1).
    fn written(event: Event) -> (String, Vec<String>) {
        let text = Calendar::empty().push(event).to_string();
        let lines = text.replace("\r\n ", "").split("\r\n").map(str::to_owned).collect();
        (text, lines)
    }

    #[test]
    fn text_is_escaped_and_long_lines_fold_at_75_octets() {
        let summary = "Opening, keynote; lunch \\ posters\r\nin the hall";
        let description = "é".repeat(60);
        let (text, lines) =
            written(all_day("u@host", &stamp(), "2025-03-21", "2025-03-21", summary, &description).unwrap());
        for line in text.split("\r\n") {
            assert!(line.len() <= 75, "{line:?} is {} octets", line.len());
        }
        assert!(!text.replace("\r\n", "").contains(['\r', '\n']), "CRLF line ends only: {text:?}");
        assert!(lines.contains(&r"SUMMARY:Opening\, keynote\; lunch \\ posters\nin the hall".to_owned()), "{lines:#?}");
        assert!(lines.contains(&format!("DESCRIPTION:{description}")), "{lines:#?}");
    }

    #[test]
    fn an_all_day_event_ends_the_day_after_and_is_stamped_by_the_clock() {
        let (_, lines) = written(all_day("u@host", &stamp(), "2025-12-30", "2025-12-31", "New year", "").unwrap());
        for expected in
            ["DTSTART;VALUE=DATE:20251230", "DTEND;VALUE=DATE:20260101", "DTSTAMP:20311231T235930Z", "UID:u@host"]
        {
            assert!(lines.contains(&expected.to_owned()), "{expected} in {lines:#?}");
        }
    }

    #[test]
    fn a_date_that_is_not_a_date_leaves_its_event_out() {
        assert!(all_day("u@host", &stamp(), "2025-03-21", "21 March", "x", "").is_none());
        assert!(all_day("u@host", &stamp(), "2025-02-30", "2025-03-01", "x", "").is_none());
    }
}
