//! IANA time zones (`site.time_zone`, `Asia/Manila`): the UTC offset of a wall-clock time in
//! the event's zone, for the programme's `<time datetime>` values, JSON-LD and calendars.
//!
//! The rules come from the machine's tz database (`/usr/share/zoneinfo`, Debian's `tzdata`;
//! `TZDIR` names another folder): this module checks the name and reads the zone's file, and
//! the `tz-rs` crate (`tz`) parses it as a TZif file (RFC 8536), footer included, so dates past
//! the file's last transition follow the footer's POSIX TZ rule, daylight saving time included
//! (slim files rely on it). Neither a crate that embeds the whole database (the programme needs
//! one zone) nor the `time` crate (offsets, but no zone names) does this. A file without a
//! footer rule keeps its last transition's offset.

use std::path::PathBuf;

use time::{OffsetDateTime, PrimitiveDateTime, UtcOffset};

/// Where the tz database is read from: `TZDIR` when set, else `/usr/share/zoneinfo`.
pub fn tz_dir() -> PathBuf {
    std::env::var_os("TZDIR").map_or_else(|| PathBuf::from("/usr/share/zoneinfo"), PathBuf::from)
}

/// A time zone's offsets: its name and its rules as `tz-rs` read them (transitions, local time
/// types, the footer's rule for later dates).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zone {
    pub name: String,
    rules: tz::TimeZone,
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
        // `UtcOffset` stays within ±25:59:59, which `tz-rs` accepts (it refuses only i32::MIN).
        let rules = tz::TimeZone::fixed(offset.whole_seconds()).unwrap_or_else(|_| tz::TimeZone::utc());
        Zone { name: name.to_owned(), rules }
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
        let rules = tz::TimeZone::from_tz_data(&bytes)
            .map_err(|_| ZoneError::Unreadable { name: name.to_owned(), reason: "not a TZif file".into() })?;
        Ok(Zone { name: name.to_owned(), rules })
    }

    /// The offset in force at `instant`.
    pub fn offset_at(&self, instant: OffsetDateTime) -> UtcOffset {
        let rules = self.rules.as_ref();
        let seconds = match rules.find_local_time_type(instant.unix_timestamp()) {
            Ok(local) => local.ut_offset(),
            // Past the last transition of a file without a footer rule: that transition's
            // offset stays.
            Err(tz::TzError::NoAvailableLocalTimeType) => rules
                .transitions()
                .last()
                .and_then(|last| rules.local_time_types().get(last.local_time_type_index()))
                .map_or(0, |local| local.ut_offset()),
            Err(_) => 0,
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

    /// The zone's abbreviation at `instant` as the tz database gives it: `PST` in Manila,
    /// `+08` in Singapore, `CET` or `CEST` in Berlin. A fixed zone has none: its offset then.
    pub fn abbreviation_at(&self, instant: OffsetDateTime) -> String {
        match self.rules.as_ref().find_local_time_type(instant.unix_timestamp()) {
            Ok(local) if !local.time_zone_designation().is_empty() => local.time_zone_designation().to_owned(),
            _ => format!("UTC{}", offset_label(self.offset_at(instant))),
        }
    }

    /// `instant` as people read it in this zone, to the minute, with the zone's abbreviation:
    /// `21 Mar 2025, 09:00 PST`. The one format of every time the organiser area shows.
    pub fn readable(&self, instant: OffsetDateTime) -> String {
        let local = instant.to_offset(self.offset_at(instant));
        let format = time::macros::format_description!("[day padding:none] [month repr:short] [year], [hour]:[minute]");
        let shown = local.format(format).unwrap_or_else(|_| local.to_string());
        format!("{shown} {}", self.abbreviation_at(instant))
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

/// `instant` in UTC as HTML's `<time datetime>` takes it: `2026-12-02T01:24:35.346Z` (at
/// most three digits of a second, which HTML allows; stored times carry six).
pub fn html_datetime(instant: OffsetDateTime) -> String {
    let utc = instant.to_offset(UtcOffset::UTC);
    let format =
        time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    utc.format(format).unwrap_or_else(|_| utc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    /// Reads a zone from the tz database, which these tests need: a machine without it fails
    /// them, saying so, rather than skipping them.
    fn load(name: &str) -> Zone {
        let dir = tz_dir();
        assert!(
            dir.join(name).is_file(),
            "the tz database has no {name} in {}: install Debian's tzdata (or set TZDIR)",
            dir.display()
        );
        Zone::load(name).unwrap_or_else(|err| panic!("{err}"))
    }

    #[test]
    fn a_time_reads_in_the_zone_with_its_abbreviation_and_keeps_its_instant() {
        let manila = load("Asia/Manila");
        let at = datetime!(2025-03-21 01:00:30.346623 UTC);
        assert_eq!(manila.readable(at), "21 Mar 2025, 09:00 PST");
        assert_eq!(load("Asia/Singapore").readable(at), "21 Mar 2025, 09:00 +08");
        let berlin = load("Europe/Berlin");
        assert_eq!(berlin.readable(datetime!(2025-07-01 10:05 UTC)), "1 Jul 2025, 12:05 CEST");
        assert_eq!(berlin.readable(datetime!(2025-01-01 10:05 UTC)), "1 Jan 2025, 11:05 CET");
        let fixed = Zone::fixed("Asia/Manila", UtcOffset::from_hms(8, 0, 0).unwrap());
        assert_eq!(fixed.readable(at), "21 Mar 2025, 09:00 UTC+08:00");
        assert_eq!(html_datetime(at), "2025-03-21T01:00:30.346Z");
    }

    #[test]
    fn names_that_leave_the_database_are_refused() {
        for name in ["", "../etc/passwd", "Asia/../../x", "/etc/passwd", "Asia//Manila", "Asia/Ma nila"] {
            assert!(matches!(Zone::load(name), Err(ZoneError::BadName { .. })), "{name}");
        }
        assert!(matches!(Zone::load("Asia/Nowhere"), Err(ZoneError::Unknown { .. })));
        assert!(matches!(Zone::load("Asia"), Err(ZoneError::Unknown { .. })));
    }

    #[test]
    fn manila_is_eight_hours_ahead_and_a_fixed_zone_stays_put() {
        let utc8 = UtcOffset::from_hms(8, 0, 0).unwrap();
        let manila = load("Asia/Manila");
        assert_eq!(manila.offset_at(datetime!(2025-03-21 01:00 UTC)), utc8);
        assert_eq!(manila.offset_at(datetime!(2090-07-01 01:00 UTC)), utc8);
        assert_eq!(manila.localize(datetime!(2025-03-21 09:00)), datetime!(2025-03-21 09:00 +8));
        assert_eq!(manila.city(), "Manila");
        let fixed = Zone::fixed("Asia/Manila", utc8);
        assert_eq!(fixed.localize(datetime!(2040-01-01 00:00)), datetime!(2040-01-01 00:00 +8));
        assert_eq!(offset_label(utc8), "+08:00");
        assert_eq!(offset_label(UtcOffset::from_hms(-3, -30, 0).unwrap()), "-03:30");
    }

    #[test]
    fn daylight_saving_zones_change_offset_with_the_date() {
        let la = load("America/Los_Angeles");
        assert_eq!(la.city(), "Los Angeles");
        assert_eq!(la.localize(datetime!(2025-01-15 09:00)), datetime!(2025-01-15 09:00 -8));
        assert_eq!(la.localize(datetime!(2025-03-21 09:00)), datetime!(2025-03-21 09:00 -7));
        // Past 2037, where fat files end and slim ones always are: the footer's rule.
        assert_eq!(la.localize(datetime!(2050-01-15 09:00)), datetime!(2050-01-15 09:00 -8));
        assert_eq!(la.localize(datetime!(2050-07-15 09:00)), datetime!(2050-07-15 09:00 -7));
        let berlin = load("Europe/Berlin");
        assert_eq!(berlin.localize(datetime!(2025-03-21 09:00)), datetime!(2025-03-21 09:00 +1));
        assert_eq!(berlin.localize(datetime!(2025-07-01 09:00)), datetime!(2025-07-01 09:00 +2));
    }

    #[test]
    fn around_a_change_the_offset_in_force_is_taken() {
        let la = load("America/Los_Angeles");
        // 2025-03-09: 02:00 PST becomes 03:00 PDT (10:00 UTC).
        assert_eq!(la.offset_at(datetime!(2025-03-09 09:59:59 UTC)), UtcOffset::from_hms(-8, 0, 0).unwrap());
        assert_eq!(la.offset_at(datetime!(2025-03-09 10:00 UTC)), UtcOffset::from_hms(-7, 0, 0).unwrap());
        assert_eq!(la.localize(datetime!(2025-03-09 01:59)), datetime!(2025-03-09 01:59 -8));
        assert_eq!(la.localize(datetime!(2025-03-09 02:30)), datetime!(2025-03-09 02:30 -8)); // the gap
        assert_eq!(la.localize(datetime!(2025-03-09 03:00)), datetime!(2025-03-09 03:00 -7));
        // 2025-11-02: 02:00 PDT becomes 01:00 PST (09:00 UTC); 01:00-01:59 happens twice.
        assert_eq!(la.localize(datetime!(2025-11-02 00:59)), datetime!(2025-11-02 00:59 -7));
        assert_eq!(la.localize(datetime!(2025-11-02 01:30)), datetime!(2025-11-02 01:30 -7)); // the overlap
        assert_eq!(la.localize(datetime!(2025-11-02 02:00)), datetime!(2025-11-02 02:00 -8));
        // The same changes in 2045 come from the footer's rule (M3.2.0, M11.1.0).
        assert_eq!(la.localize(datetime!(2045-03-12 01:59)), datetime!(2045-03-12 01:59 -8));
        assert_eq!(la.localize(datetime!(2045-03-12 03:00)), datetime!(2045-03-12 03:00 -7));
        assert_eq!(la.localize(datetime!(2045-11-05 01:30)), datetime!(2045-11-05 01:30 -7));
        assert_eq!(la.localize(datetime!(2045-11-05 02:00)), datetime!(2045-11-05 02:00 -8));
    }

    #[test]
    fn a_slim_file_follows_its_footer_rule() {
        // TZif v2 with no transitions, one local time type (PST) and the footer
        // `PST8PDT,M3.2.0,M11.1.0`: every change comes from the rule, as in `zic -b slim` files.
        fn header(typecnt: u32, charcnt: u32) -> Vec<u8> {
            let mut h = b"TZif2".to_vec();
            h.extend([0; 15]);
            for count in [0, 0, 0, 0, typecnt, charcnt] {
                h.extend(u32::to_be_bytes(count));
            }
            h
        }
        let mut data = Vec::new();
        for _ in 0..2 {
            data.extend(header(1, 4));
            data.extend(i32::to_be_bytes(-8 * 3600));
            data.extend([0, 0]); // not DST, designation at 0
            data.extend(b"PST\0");
        }
        data.extend(b"\nPST8PDT,M3.2.0,M11.1.0\n");
        let rules = tz::TimeZone::from_tz_data(&data).unwrap();
        let zone = Zone { name: "Test/Slim".into(), rules };
        assert_eq!(zone.localize(datetime!(2025-01-15 09:00)), datetime!(2025-01-15 09:00 -8));
        assert_eq!(zone.localize(datetime!(2025-03-21 09:00)), datetime!(2025-03-21 09:00 -7));
        assert_eq!(zone.localize(datetime!(2025-03-09 02:30)), datetime!(2025-03-09 02:30 -8));
        assert_eq!(zone.localize(datetime!(2025-11-02 01:30)), datetime!(2025-11-02 01:30 -7));
    }
}
