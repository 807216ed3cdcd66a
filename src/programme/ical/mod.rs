//! The site's calendars (issue 31 items 3 and 5, RFC 5545): one talk's entry and the rules
//! every calendar of the site follows ([`entry`]), the programme's calendars built from the
//! published version ([`feeds`]), and the conference's important dates ([`dates`]).

/// `/calendar.ics`: the conference and its important dates as all-day events.
pub mod dates;
/// A talk as a calendar entry, and the site's calendar rules (`UID` host, newlines, header).
pub mod entry;
/// `/schedule.ics`, one talk's `.ics` and a visitor's agenda, from the content snapshot.
pub mod feeds;
