//! IANA time zones (`site.time_zone`, `Asia/Manila`): the UTC offset of a wall-clock time in
//! the event's zone, for the programme's `<time datetime>` values, JSON-LD and calendars.
//!
//! The rules come from the machine's tz database (`/usr/share/zoneinfo`, Debian's `tzdata`;
//! `TZDIR` names another folder), read as TZif files (RFC 8536), rather than from a crate that
//! embeds the whole database: the programme needs one zone, and the `time` crate has offsets
//! but no zone names. Dates past the file's last transition take the footer's standard offset
//! (zones without daylight saving time, like Manila) or the last transition's offset.

use std::path::PathBuf;

use time::{OffsetDateTime, PrimitiveDateTime, UtcOffset};

/// Where the tz database is read from: `TZDIR` when set, else `/usr/share/zoneinfo`.
pub fn tz_dir() -> PathBuf {
    std::env::var_os("TZDIR").map_or_else(|| PathBuf::from("/usr/share/zoneinfo"), PathBuf::from)
}

/// A time zone's offsets: its transitions (UTC seconds, offset from then on), the offset
/// before the first one, and the one after the last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zone {
    pub name: String,
    initial: i32,
    transitions: Vec<(i64, i32)>,
    after: Option<i32>,
}

/// Why a zone could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZoneError {
    #[error("{name:?} is not an IANA time zone name (such as Asia/Manila)")]
    BadName { name: String },
    #[error("{name:?} is not a time zone known to the tz database in {dir}")]
    Unknown { name: String, dir: String },
    #[error("the tz database file of {name:?} cannot be read: {reason}")]
    Unreadable { name: String, reason: String },
}

impl Zone {
    /// A zone whose offset never changes (when the tz database is not there).
    pub fn fixed(name: &str, offset: UtcOffset) -> Zone {
        Zone { name: name.to_owned(), initial: offset.whole_seconds(), transitions: Vec::new(), after: None }
    }

    /// Reads `name` from the tz database ([`tz_dir`]).
    pub fn load(name: &str) -> Result<Zone, ZoneError> {
        let well_formed = !name.is_empty()
            && name.split('/').all(|part| {
                !part.is_empty()
                    && part != "."
                    && part != ".."
                    && part.chars().all(|c| c.is_ascii_alphanumeric() || "_-+".contains(c))
            });
        if !well_formed {
            return Err(ZoneError::BadName { name: name.to_owned() });
        }
        let dir = tz_dir();
        let bytes = std::fs::read(dir.join(name)).map_err(|err| match err.kind() {
            std::io::ErrorKind::NotFound | std::io::ErrorKind::IsADirectory => {
                ZoneError::Unknown { name: name.to_owned(), dir: dir.display().to_string() }
            }
            _ => ZoneError::Unreadable { name: name.to_owned(), reason: err.to_string() },
        })?;
        parse(name, &bytes)
            .ok_or_else(|| ZoneError::Unreadable { name: name.to_owned(), reason: "not a TZif file".into() })
    }

    /// The offset in force at `instant`.
    pub fn offset_at(&self, instant: OffsetDateTime) -> UtcOffset {
        let at = instant.unix_timestamp();
        let seconds = match self.transitions.iter().rposition(|(time, _)| *time <= at) {
            None => self.initial,
            Some(last) if last + 1 == self.transitions.len() => self.after.unwrap_or(self.transitions[last].1),
            Some(i) => self.transitions[i].1,
        };
        UtcOffset::from_whole_seconds(seconds).unwrap_or(UtcOffset::UTC)
    }

    /// A wall-clock time in this zone with its offset. In a gap or an overlap of a daylight
    /// saving change, the offset in force just before the change.
    pub fn localize(&self, local: PrimitiveDateTime) -> OffsetDateTime {
        let before = self.offset_at(local.assume_utc() - time::Duration::days(1));
        let guess = self.offset_at(local.assume_offset(before));
        let offset = if self.offset_at(local.assume_offset(guess)) == guess { guess } else { before };
        local.assume_offset(offset)
    }

    /// The zone's city as people say it: `Asia/Manila` → `Manila`, `America/Los_Angeles` →
    /// `Los Angeles`.
    pub fn city(&self) -> String {
        self.name.rsplit('/').next().unwrap_or(&self.name).replace('_', " ")
    }
}

/// `+08:00`, `-03:30`.
pub fn offset_label(offset: UtcOffset) -> String {
    let (h, m, _) = offset.as_hms();
    let sign = if offset.is_negative() { '-' } else { '+' };
    format!("{sign}{:02}:{:02}", h.unsigned_abs(), m.unsigned_abs())
}

/// A TZif file (RFC 8536): the version 2+ data block (64-bit times) when there is one.
fn parse(name: &str, bytes: &[u8]) -> Option<Zone> {
    let header = |at: usize| -> Option<(u8, [usize; 6])> {
        let h = bytes.get(at..at + 44)?;
        if &h[..4] != b"TZif" {
            return None;
        }
        let count = |i: usize| u32::from_be_bytes(h[20 + 4 * i..24 + 4 * i].try_into().unwrap()) as usize;
        Some((h[4], [count(0), count(1), count(2), count(3), count(4), count(5)]))
    };
    let (version, counts) = header(0)?;
    let block = |time_size: usize, c: [usize; 6]| {
        let [isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt] = c;
        timecnt * time_size + timecnt + typecnt * 6 + charcnt + leapcnt * (time_size + 4) + isstdcnt + isutcnt
    };
    let (start, counts, time_size) = if version >= b'2' {
        let second = 44 + block(4, counts);
        (second + 44, header(second)?.1, 8)
    } else {
        (44, counts, 4)
    };
    let [_, _, _, timecnt, typecnt, _] = counts;
    let data = bytes.get(start..start + block(time_size, counts))?;
    let times = &data[..timecnt * time_size];
    let indices = &data[timecnt * time_size..timecnt * (time_size + 1)];
    let types = &data[timecnt * (time_size + 1)..timecnt * (time_size + 1) + typecnt * 6];
    let utoff = |i: usize| -> Option<i32> { Some(i32::from_be_bytes(types.get(i * 6..i * 6 + 4)?.try_into().ok()?)) };
    let mut transitions = Vec::with_capacity(timecnt);
    for i in 0..timecnt {
        let raw = &times[i * time_size..(i + 1) * time_size];
        let time = if time_size == 8 {
            i64::from_be_bytes(raw.try_into().ok()?)
        } else {
            i64::from(i32::from_be_bytes(raw.try_into().ok()?))
        };
        transitions.push((time, utoff(usize::from(indices[i]))?));
    }
    // RFC 8536 section 3.2: local time before the first transition is type 0's.
    let initial = utoff(0)?;
    // The footer (version 2+): a POSIX TZ string between newlines. Without a comma it names
    // one standard offset for all later times (`PST-8`: UTC+8, the sign reversed).
    let after = if version >= b'2' {
        let footer = bytes.get(start + block(time_size, counts)..)?;
        let footer = std::str::from_utf8(footer).ok()?.trim_matches('\n');
        posix_standard_offset(footer)
    } else {
        None
    };
    Some(Zone { name: name.to_owned(), initial, transitions, after })
}

/// The offset of a POSIX TZ string without daylight saving rules (`PST-8`, `<+0530>-5:30`),
/// in seconds east of UTC; `None` for one with rules (the table's last offset stands).
fn posix_standard_offset(tz: &str) -> Option<i32> {
    if tz.is_empty() || tz.contains(',') {
        return None;
    }
    let rest = if let Some(quoted) = tz.strip_prefix('<') {
        quoted.split_once('>')?.1
    } else {
        tz.trim_start_matches(|c: char| c.is_ascii_alphabetic())
    };
    if rest.chars().any(|c| c.is_ascii_alphabetic()) {
        return None; // a daylight-saving name without rules: not a fixed offset
    }
    let (sign, digits) = match rest.strip_prefix('-') {
        Some(digits) => (1, digits),
        None => (-1, rest.strip_prefix('+').unwrap_or(rest)),
    };
    let mut parts = digits.split(':').map(|p| p.parse::<i32>().ok());
    let hours = parts.next()??;
    let minutes = parts.next().flatten().unwrap_or(0);
    let seconds = parts.next().flatten().unwrap_or(0);
    Some(sign * (hours * 3600 + minutes * 60 + seconds))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn posix_footers_without_rules_are_fixed_offsets() {
        assert_eq!(posix_standard_offset("PST-8"), Some(8 * 3600));
        assert_eq!(posix_standard_offset("<+0530>-5:30"), Some(5 * 3600 + 1800));
        assert_eq!(posix_standard_offset("UTC0"), Some(0));
        assert_eq!(posix_standard_offset("EST5"), Some(-5 * 3600));
        assert_eq!(posix_standard_offset("CET-1CEST,M3.5.0,M10.5.0/3"), None);
    }

    #[test]
    fn names_that_leave_the_database_are_refused() {
        for name in ["", "../etc/passwd", "Asia/../../x", "/etc/passwd", "Asia//Manila", "Asia/Ma nila"] {
            assert!(matches!(Zone::load(name), Err(ZoneError::BadName { .. })), "{name}");
        }
    }

    #[test]
    fn manila_is_eight_hours_ahead_and_a_fixed_zone_stays_put() {
        let utc8 = UtcOffset::from_hms(8, 0, 0).unwrap();
        if let Ok(manila) = Zone::load("Asia/Manila") {
            assert_eq!(manila.offset_at(datetime!(2025-03-21 01:00 UTC)), utc8);
            assert_eq!(manila.localize(datetime!(2025-03-21 09:00)), datetime!(2025-03-21 09:00 +8));
            assert_eq!(manila.city(), "Manila");
        }
        let fixed = Zone::fixed("Asia/Manila", utc8);
        assert_eq!(fixed.localize(datetime!(2040-01-01 00:00)), datetime!(2040-01-01 00:00 +8));
        assert_eq!(offset_label(utc8), "+08:00");
        assert_eq!(offset_label(UtcOffset::from_hms(-3, -30, 0).unwrap()), "-03:30");
    }

    #[test]
    fn daylight_saving_zones_change_offset_with_the_date() {
        let Ok(berlin) = Zone::load("Europe/Berlin") else { return };
        assert_eq!(berlin.localize(datetime!(2025-03-21 09:00)), datetime!(2025-03-21 09:00 +1));
        assert_eq!(berlin.localize(datetime!(2025-07-01 09:00)), datetime!(2025-07-01 09:00 +2));
        let Ok(la) = Zone::load("America/Los_Angeles") else { return };
        assert_eq!(la.city(), "Los Angeles");
        assert_eq!(la.localize(datetime!(2025-03-21 09:00)), datetime!(2025-03-21 09:00 -7));
    }
}
