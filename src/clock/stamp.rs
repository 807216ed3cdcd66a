//! The stamps stored with rows, audit entries and mails: RFC 3339 in UTC with exactly six
//! fractional digits, so that they sort as text on both engines.

use time::OffsetDateTime;
use time::format_description::FormatItem;
use time::macros::format_description;

const STAMP: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]Z");

/// `at` as stored: RFC 3339 UTC with exactly six fractional digits.
pub fn timestamp(at: OffsetDateTime) -> String {
    at.to_offset(time::UtcOffset::UTC).format(STAMP).expect("a UTC date-time formats")
}

/// Current time as stored (see [`timestamp`]).
pub fn now_rfc3339() -> String {
    timestamp(OffsetDateTime::now_utc())
}
