//! What a deadline's value means (DESIGN.md section 20): a date (`YYYY-MM-DD`) is the end of
//! that day in the event's zone; `YYYY-MM-DD HH:MM` is that minute in the event's zone (the
//! seed's way of writing times); an RFC 3339 time (`2026-03-01T18:00:00+08:00`) is that
//! instant. A deadline has passed from the minute it names on (for a date: from the next
//! day's midnight).

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time};

use crate::clock::dates::{clock, day_label};
use crate::clock::zone::{Zone, offset_label};

/// One operational setting of DESIGN.md section 20.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    PaperDueDate,
    RegistrationCloses,
    ReviewDeadline,
    AttendeeChangesUntil,
    CameraReadyDue,
}

impl Key {
    /// Every key, in the order pages and `conference settings` list them.
    pub const ALL: [Key; 5] = [
        Key::PaperDueDate,
        Key::RegistrationCloses,
        Key::ReviewDeadline,
        Key::AttendeeChangesUntil,
        Key::CameraReadyDue,
    ];

    /// The key as stored and typed: `paper_due_date`, ...
    pub fn name(self) -> &'static str {
        match self {
            Key::PaperDueDate => "paper_due_date",
            Key::RegistrationCloses => "registration_closes",
            Key::ReviewDeadline => "review_deadline",
            Key::AttendeeChangesUntil => "attendee_changes_until",
            Key::CameraReadyDue => "camera_ready_due",
        }
    }

    /// The key named `name` (exactly as [`Key::name`] writes it).
    pub fn parse(name: &str) -> Option<Key> {
        Key::ALL.into_iter().find(|key| key.name() == name)
    }

    /// What people call it: `Paper submission due`.
    pub fn label(self) -> &'static str {
        match self {
            Key::PaperDueDate => "Paper submission due",
            Key::RegistrationCloses => "Registration closes",
            Key::ReviewDeadline => "Review deadline",
            Key::AttendeeChangesUntil => "Attendee changes until",
            Key::CameraReadyDue => "Camera-ready papers due",
        }
    }

    /// What it governs, in a sentence (DESIGN.md section 20).
    pub fn governs(self) -> &'static str {
        match self {
            Key::PaperDueDate => {
                "After it the submission page says submissions are closed and whom to write to, and no paper is accepted."
            }
            Key::RegistrationCloses => {
                "After it the ticket and custom-payment cards say registration is closed and no new payment starts; a payment started before still completes. Unset: the end of the event's last day."
            }
            Key::ReviewDeadline => {
                "Reviewers may write and change reviews until it; after it assignments can no longer be staged or released. Reminders count down to it."
            }
            Key::AttendeeChangesUntil => {
                "Attendees may change the name on their ticket until it. It may not be after the event's end."
            }
            Key::CameraReadyDue => "When the camera-ready papers of accepted submissions are due.",
        }
    }
}

/// A deadline read from its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct When {
    /// The instant it passes: `now >= at` means passed.
    pub at: OffsetDateTime,
    /// The wall-clock minute people are told, in the event's zone (23:59 for a whole day).
    pub local: PrimitiveDateTime,
    /// The zone's offset at [`When::at`].
    pub offset: time::UtcOffset,
    /// The zone's city (`Singapore`), for labels.
    pub city: String,
    /// The value as stored: `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, or RFC 3339 UTC to the minute.
    pub stored: String,
}

/// A value that is none of the accepted ways of writing a deadline.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "“{value}” is not a date or time: write YYYY-MM-DD (the end of that day in the event's zone, {zone}), \
     YYYY-MM-DD HH:MM (in the event's zone), or an RFC 3339 time such as 2026-03-01T18:00:00+08:00"
)]
pub struct ParseError {
    pub value: String,
    pub zone: String,
}

/// Reads `text` as a deadline in the event's `zone` (the module's rule). Surrounding blanks
/// are ignored; RFC 3339 seconds are dropped (the deadline moves to the start of its minute,
/// never later).
pub fn parse(text: &str, zone: &Zone) -> Result<When, ParseError> {
    let text = text.trim();
    let refused = || ParseError { value: text.chars().take(80).collect(), zone: zone.name.clone() };
    let of_local = |local: PrimitiveDateTime, at: OffsetDateTime, stored: String| When {
        offset: at.offset(),
        at,
        local,
        city: zone.city(),
        stored,
    };
    if let Ok(day) = Date::parse(text, format_description!("[year]-[month]-[day]")) {
        let next = day.next_day().ok_or_else(refused)?;
        let at = zone.localize(PrimitiveDateTime::new(next, Time::MIDNIGHT));
        let local = PrimitiveDateTime::new(day, Time::from_hms(23, 59, 0).unwrap_or(Time::MIDNIGHT));
        return Ok(of_local(local, at, text.to_owned()));
    }
    if let Ok(local) = PrimitiveDateTime::parse(text, format_description!("[year]-[month]-[day] [hour]:[minute]")) {
        return Ok(of_local(local, zone.localize(local), text.to_owned()));
    }
    if let Ok(instant) = OffsetDateTime::parse(text, &Rfc3339) {
        let instant = crate::clock::minute_start(instant);
        let shown = instant.to_offset(zone.offset_at(instant));
        let local = PrimitiveDateTime::new(shown.date(), shown.time());
        let stored = instant.to_offset(time::UtcOffset::UTC).format(&Rfc3339).map_err(|_| refused())?;
        return Ok(of_local(local, shown, stored));
    }
    Err(refused())
}

impl When {
    /// Whether it has passed at `now`.
    pub fn is_passed(&self, now: OffsetDateTime) -> bool {
        now >= self.at
    }

    /// `Monday, 3 March 2025, 18:00 Singapore time (UTC+08:00)`.
    pub fn label(&self) -> String {
        format!(
            "{}, {} {} time (UTC{})",
            day_label(self.local.date()),
            clock(self.local.time()),
            self.city,
            offset_label(self.offset)
        )
    }

    /// `3 March 2025`: the day in the event's zone.
    pub fn date_label(&self) -> String {
        let day = self.local.date();
        format!("{} {} {}", day.day(), day.month(), day.year())
    }

    /// RFC 3339 with the zone's offset, for `<time datetime>`.
    pub fn iso(&self) -> String {
        self.at.to_offset(self.offset).format(&Rfc3339).unwrap_or_default()
    }

    /// How far off it is at `now`, in words ([`words`]).
    pub fn words(&self, now: OffsetDateTime) -> String {
        words(self.at, now)
    }
}

/// How far `at` is from `now`, in words: `in 5 days`, `in 1 day`, `in 3 hours`,
/// `within the hour`; once passed: `passed`.
pub fn words(at: OffsetDateTime, now: OffsetDateTime) -> String {
    let left = at - now;
    if left <= Duration::ZERO {
        "passed".to_owned()
    } else if left >= Duration::hours(36) {
        // Rounded to the nearest day: a sweep a few minutes late still says "7 days".
        let days = (left + Duration::hours(12)).whole_days();
        format!("in {days} days")
    } else if left >= Duration::hours(1) {
        let hours = (left + Duration::minutes(30)).whole_hours();
        if hours == 1 { "in 1 hour".to_owned() } else { format!("in {hours} hours") }
    } else {
        "within the hour".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn singapore() -> Zone {
        Zone::fixed("Asia/Singapore", time::UtcOffset::from_hms(8, 0, 0).unwrap())
    }

    #[test]
    fn a_date_is_the_end_of_that_day_in_the_event_zone() {
        let when = parse("2025-03-18", &singapore()).unwrap();
        assert_eq!(when.at, datetime!(2025-03-18 16:00 UTC));
        assert!(!when.is_passed(datetime!(2025-03-18 23:59 +08:00)), "a minute before");
        assert!(when.is_passed(datetime!(2025-03-19 00:01 +08:00)), "a minute after");
        assert_eq!(when.stored, "2025-03-18");
        assert_eq!(when.label(), "Tuesday, 18 March 2025, 23:59 Singapore time (UTC+08:00)");
        assert_eq!(when.date_label(), "18 March 2025");
    }

    #[test]
    fn a_minute_and_an_rfc3339_time_are_accepted() {
        let minute = parse(" 2025-03-03 18:00 ", &singapore()).unwrap();
        assert_eq!(minute.at, datetime!(2025-03-03 10:00 UTC));
        assert_eq!(minute.stored, "2025-03-03 18:00");
        let instant = parse("2025-03-03T10:00:42Z", &singapore()).unwrap();
        assert_eq!(instant.at, datetime!(2025-03-03 10:00 UTC), "seconds dropped, never later");
        assert_eq!(instant.stored, "2025-03-03T10:00:00Z");
        assert_eq!(instant.label(), minute.label());
        assert_eq!(instant.iso(), "2025-03-03T18:00:00+08:00");
    }

    #[test]
    fn anything_else_is_refused_with_the_accepted_forms() {
        for bad in ["", "3 March 2025", "2025-02-30", "2025-03-03 25:00", "tomorrow", "2025-03-03T10:00"] {
            let err = parse(bad, &singapore()).unwrap_err().to_string();
            assert!(err.contains("write YYYY-MM-DD"), "{bad}: {err}");
        }
    }

    #[test]
    fn keys_read_back_by_name() {
        for key in Key::ALL {
            assert_eq!(Key::parse(key.name()), Some(key));
        }
        assert_eq!(Key::parse("paper_due"), None);
        assert_eq!(Key::ALL.map(Key::name), crate::repo::settings::KEYS);
    }

    #[test]
    fn words_say_how_far_off() {
        let at = datetime!(2025-03-03 10:00 UTC);
        assert_eq!(words(at, datetime!(2025-02-26 10:00 UTC)), "in 5 days");
        assert_eq!(words(at, datetime!(2025-03-03 07:00 UTC)), "in 3 hours");
        assert_eq!(words(at, datetime!(2025-03-03 09:30 UTC)), "within the hour");
        assert_eq!(words(at, datetime!(2025-03-03 10:00 UTC)), "passed");
    }
}
