//! Time: the clock pages read "now" from (countdown, timeline marks, footer year, calendar
//! stamp), injectable so tests can render before, at and after a date (issue 13, point 7);
//! the event's IANA zone; content dates as pages show them.

/// Content dates (`YYYY-MM-DD`) as pages show them, and the countdown.
pub mod dates;
/// The RFC 3339 UTC stamps stored with rows, audit entries and mails.
pub mod stamp;
/// IANA time zones from the machine's tz database: a wall-clock time's UTC offset.
pub mod zone;

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use time::OffsetDateTime;

/// The real clock by default; [`Clock::fixed`] gives one that tests set and move.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    /// Unix time in seconds when fixed.
    fixed: Option<Arc<AtomicI64>>,
}

impl Clock {
    /// The system clock.
    pub fn system() -> Clock {
        Clock { fixed: None }
    }

    /// A clock standing at `at` (whole seconds) until [`Clock::set`] moves it.
    pub fn fixed(at: OffsetDateTime) -> Clock {
        Clock { fixed: Some(Arc::new(AtomicI64::new(at.unix_timestamp()))) }
    }

    /// Moves a fixed clock (every copy of it); does nothing to the system clock.
    pub fn set(&self, at: OffsetDateTime) {
        if let Some(fixed) = &self.fixed {
            fixed.store(at.unix_timestamp(), Ordering::Relaxed);
        }
    }

    /// Whether a test fixed this clock.
    pub fn is_fixed(&self) -> bool {
        self.fixed.is_some()
    }

    /// Now, in UTC.
    pub fn now(&self) -> OffsetDateTime {
        match &self.fixed {
            None => OffsetDateTime::now_utc(),
            Some(fixed) => {
                OffsetDateTime::from_unix_timestamp(fixed.load(Ordering::Relaxed)).unwrap_or(OffsetDateTime::UNIX_EPOCH)
            }
        }
    }
}

/// The start of the minute `at` falls in (pages cached per minute, the dashboard's week).
pub fn minute_start(at: OffsetDateTime) -> OffsetDateTime {
    at.replace_second(0).and_then(|t| t.replace_nanosecond(0)).unwrap_or(at)
}
