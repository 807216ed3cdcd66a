//! Which value of each deadline is in force (DESIGN.md section 20): the organisers' value
//! (`/organiser/settings`, `conference settings set`), else the seed's, else the default
//! (`registration_closes`: the end of the event's last day; the others: none).
//!
//! Fail closed: a stored value that does not read as a deadline counts as passed (and is
//! logged), so a typo never keeps a form open for good.

use time::OffsetDateTime;

use super::deadline::{self, Key, When};
use crate::clock::zone::Zone;
use crate::db::Pool;
use crate::repo::settings::{self as store, Stored};

/// Where a value in force comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Set by an organiser (their address) or `cli`, at an RFC 3339 UTC time.
    Organisers { by: String, at: String },
    /// The content seed's `site` row.
    Seed,
    /// The rule's default (`registration_closes`: the event's last day).
    Default,
    /// No value at all: nothing closes by it.
    Unset,
}

/// One setting with its value in force.
#[derive(Debug, Clone)]
pub struct Entry {
    pub key: Key,
    /// The value as stored (`None` when unset).
    pub text: Option<String>,
    /// The deadline it names; `None` when unset or unreadable.
    pub when: Option<When>,
    pub source: Source,
    /// The seed's value, when it has one (what `seed` would give without the organisers').
    pub seed: Option<String>,
}

impl Entry {
    /// Whether the value does not read as a deadline (it then counts as passed).
    pub fn unreadable(&self) -> bool {
        self.text.is_some() && self.when.is_none()
    }

    /// Whether it has passed at `now`: an unreadable value has (fail closed), an unset one
    /// never does.
    pub fn is_passed(&self, now: OffsetDateTime) -> bool {
        match (&self.when, self.unreadable()) {
            (Some(when), _) => when.is_passed(now),
            (None, unreadable) => unreadable,
        }
    }
}

/// Every operational setting in force, in [`Key::ALL`]'s order, and the event's zone.
#[derive(Debug, Clone)]
pub struct Calendar {
    pub entries: Vec<Entry>,
    pub zone: Zone,
    /// The end of the event (the end of its last day), when the seed's `end_date` reads.
    pub event_end: Option<When>,
    /// The site's contact address: whom a closed form tells people to write to.
    pub contact_email: String,
}

impl Calendar {
    /// The calendar of `stored` in `zone` (the rule of this module).
    pub fn build(stored: &Stored, zone: &Zone) -> Calendar {
        let event_end = deadline::parse(&stored.seed.end_date, zone).ok();
        let entries = Key::ALL
            .into_iter()
            .map(|key| {
                let seed = stored.seed.get(key.name()).map(str::to_owned);
                let own = stored.overrides.iter().find(|o| o.key == key.name());
                let (text, source) = match (own, &seed) {
                    (Some(own), _) => (
                        Some(own.value.clone()),
                        Source::Organisers { by: own.changed_by.clone(), at: own.changed_at.clone() },
                    ),
                    (None, Some(seed)) => (Some(seed.clone()), Source::Seed),
                    (None, None) if key == Key::RegistrationCloses && !stored.seed.end_date.is_empty() => {
                        (Some(stored.seed.end_date.clone()), Source::Default)
                    }
                    (None, None) => (None, Source::Unset),
                };
                let when = text.as_deref().and_then(|t| match deadline::parse(t, zone) {
                    Ok(when) => Some(when),
                    Err(err) => {
                        tracing::warn!(setting = key.name(), error = %err, "unreadable deadline; counted as passed");
                        None
                    }
                });
                Entry { key, text, when, source, seed }
            })
            .collect();
        Calendar { entries, zone: zone.clone(), event_end, contact_email: stored.seed.contact_email.clone() }
    }

    /// The calendar as the database holds it now (what a refusal is decided on: fresher than
    /// any snapshot).
    pub async fn load(pool: &Pool) -> Result<Calendar, sqlx::Error> {
        let stored = store::stored(&mut *pool.acquire().await?).await?;
        Ok(Calendar::build(&stored, &event_zone(&stored.seed)))
    }

    /// The entry of `key`.
    pub fn entry(&self, key: Key) -> &Entry {
        // Every key has an entry: `build` makes one per key of `Key::ALL`.
        self.entries.iter().find(|e| e.key == key).unwrap_or(&self.entries[0])
    }

    /// Whether `key`'s deadline has passed at `now` ([`Entry::is_passed`]).
    pub fn is_passed(&self, key: Key, now: OffsetDateTime) -> bool {
        self.entry(key).is_passed(now)
    }
}

/// The event's zone of the seed's `time_zone` (tz database), else its `utc_offset` all year,
/// as the content snapshot reads it.
pub fn event_zone(seed: &store::SeedValues) -> Zone {
    Zone::load(&seed.time_zone).unwrap_or_else(|_| {
        let offset = time::UtcOffset::parse(
            &seed.utc_offset,
            time::macros::format_description!("[offset_hour sign:mandatory]:[offset_minute]"),
        )
        .unwrap_or(time::UtcOffset::UTC);
        Zone::fixed(&seed.time_zone, offset)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repo::settings::{Override, SeedValues};
    use time::macros::datetime;

    fn seed() -> SeedValues {
        SeedValues {
            paper_due_date: Some("2025-02-20".into()),
            review_deadline: Some("2025-03-03 18:00".into()),
            end_date: "2025-03-23".into(),
            time_zone: "Asia/Singapore".into(),
            utc_offset: "+08:00".into(),
            contact_email: "desk@example.org".into(),
            ..SeedValues::default()
        }
    }

    fn zone() -> Zone {
        Zone::fixed("Asia/Singapore", time::UtcOffset::from_hms(8, 0, 0).unwrap())
    }

    #[test]
    fn the_organisers_value_wins_then_the_seed_then_the_default() {
        let stored = Stored {
            seed: seed(),
            overrides: vec![Override {
                key: "paper_due_date".into(),
                value: "2026-05-01".into(),
                changed_at: "2026-12-01T00:00:00Z".into(),
                changed_by: "chair@example.org".into(),
            }],
        };
        let calendar = Calendar::build(&stored, &zone());
        let paper = calendar.entry(Key::PaperDueDate);
        assert_eq!(paper.text.as_deref(), Some("2026-05-01"));
        assert_eq!(paper.seed.as_deref(), Some("2025-02-20"));
        assert!(matches!(paper.source, Source::Organisers { .. }));
        assert_eq!(calendar.entry(Key::ReviewDeadline).source, Source::Seed);
        let registration = calendar.entry(Key::RegistrationCloses);
        assert_eq!((registration.text.as_deref(), &registration.source), (Some("2025-03-23"), &Source::Default));
        assert!(!registration.is_passed(datetime!(2025-03-23 23:59 +08:00)));
        assert!(registration.is_passed(datetime!(2025-03-24 00:01 +08:00)));
        let camera = calendar.entry(Key::CameraReadyDue);
        assert_eq!(camera.source, Source::Unset);
        assert!(!camera.is_passed(datetime!(2099-01-01 00:00 UTC)), "unset never closes anything");
    }

    #[test]
    fn an_unreadable_value_counts_as_passed() {
        let stored = Stored { seed: SeedValues { paper_due_date: Some("soon".into()), ..seed() }, overrides: vec![] };
        let calendar = Calendar::build(&stored, &zone());
        assert!(calendar.entry(Key::PaperDueDate).unreadable());
        assert!(calendar.is_passed(Key::PaperDueDate, datetime!(2000-01-01 00:00 UTC)));
    }
}
