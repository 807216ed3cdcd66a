//! Changing deadlines (DESIGN.md section 20, issue 42 item 1): what an organiser does at
//! `/organiser/settings` and an operator with `conference settings set KEY=VALUE ...`.
//!
//! All or nothing: every value is checked first (a known key, a value that reads as a
//! deadline, `attendee_changes_until` not after the event's end), and one refusal changes
//! nothing. The changed values are stored in the `settings` table (which a later seed leaves
//! alone), each with an audit entry `settings.changed` naming the old and new value, and the
//! content version is raised in the same transaction, so every instance's pages follow within
//! a poll of the content watcher (`crate::content::store`). A review deadline already passed
//! is accepted with a warning.

use serde_json::json;
use time::OffsetDateTime;

use super::deadline::{self, Key};
use super::settings::{Calendar, event_zone};
use crate::db::{self, Pool};
use crate::repo::audit::{self, NewEntry};
use crate::repo::settings::{self as store, Override};

/// Who changes: an organiser's address or `cli` (the audit log's actor), and the client
/// address when known.
#[derive(Debug, Clone, Copy)]
pub struct Actor<'a> {
    pub name: &'a str,
    pub client: Option<&'a str>,
}

/// One value changed: the key, the value in force before (`None`: unset) and the new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changed {
    pub key: Key,
    pub before: Option<String>,
    pub after: String,
}

/// What a change did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The values that changed (a value typed as it already was is left out).
    pub changed: Vec<Changed>,
    /// Accepted, but worth saying: a review deadline already passed.
    pub warnings: Vec<String>,
}

/// A change refused: nothing was stored.
#[derive(Debug, thiserror::Error)]
pub enum ChangeError {
    /// Each problem as (the key as typed, a sentence saying what is wrong).
    #[error("{}; nothing was changed", .0.iter().map(|(k, m)| format!("{k}: {m}")).collect::<Vec<_>>().join("; "))]
    Refused(Vec<(String, String)>),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

/// Sets each `(key, value)` of `typed` as `actor` at `now`. A blank value leaves that setting
/// as it is. Refuses them all, storing nothing, when any key is unknown or any value is bad
/// ([`ChangeError::Refused`], every problem named).
pub async fn set(
    pool: &Pool,
    typed: &[(String, String)],
    actor: Actor<'_>,
    now: OffsetDateTime,
) -> Result<Outcome, ChangeError> {
    let mut tx = db::begin_write(pool).await?;
    let stored = store::stored(&mut tx).await?;
    let calendar = Calendar::build(&stored, &event_zone(&stored.seed));
    let checked = match check(&calendar, typed, now) {
        Ok(checked) => checked,
        Err(problems) => {
            tx.rollback().await?;
            return Err(ChangeError::Refused(problems));
        }
    };
    let at = crate::clock::stamp::timestamp(now);
    let mut outcome = Outcome { warnings: checked.warnings, changed: Vec::new() };
    for (key, after) in checked.values {
        let before = calendar.entry(key).text.clone();
        if before.as_deref() == Some(after.as_str()) {
            continue;
        }
        let row = Override {
            key: key.name().to_owned(),
            value: after.clone(),
            changed_at: at.clone(),
            changed_by: actor.name.to_owned(),
        };
        store::set(&mut tx, &row).await?;
        let mut entry = NewEntry::new(&at, actor.name, actor.client, "settings.changed").about("setting", key.name());
        entry.details = json!({ "value": { "before": before, "after": after } });
        audit::record(&mut tx, &entry).await?;
        outcome.changed.push(Changed { key, before, after });
    }
    if outcome.changed.is_empty() {
        tx.rollback().await?;
        return Ok(outcome);
    }
    db::bump_content_version(&mut tx).await?;
    tx.commit().await?;
    Ok(outcome)
}

/// The values to store (as stored: `crate::calendar::deadline::When::stored`) and the
/// warnings, or every problem.
#[derive(Debug)]
struct Checked {
    values: Vec<(Key, String)>,
    warnings: Vec<String>,
}

fn check(
    calendar: &Calendar,
    typed: &[(String, String)],
    now: OffsetDateTime,
) -> Result<Checked, Vec<(String, String)>> {
    let mut problems = Vec::new();
    let mut values: Vec<(Key, String)> = Vec::new();
    let mut warnings = Vec::new();
    for (name, value) in typed {
        let Some(key) = Key::parse(name.trim()) else {
            let known = Key::ALL.map(Key::name).join(", ");
            problems.push((name.clone(), format!("there is no setting “{name}”; the settings are {known}")));
            continue;
        };
        if values.iter().any(|(k, _)| *k == key) {
            problems.push((name.clone(), "given twice".to_owned()));
            continue;
        }
        if value.trim().is_empty() {
            continue;
        }
        let when = match deadline::parse(value, &calendar.zone) {
            Ok(when) => when,
            Err(err) => {
                problems.push((name.clone(), err.to_string()));
                continue;
            }
        };
        if key == Key::AttendeeChangesUntil
            && let Some(end) = &calendar.event_end
            && when.at > end.at
        {
            problems.push((
                name.clone(),
                format!(
                    "{} is after the event's end ({}): attendees may change their tickets until the event ends at the latest",
                    when.label(),
                    end.label()
                ),
            ));
            continue;
        }
        if key == Key::ReviewDeadline && when.is_passed(now) {
            warnings.push(format!(
                "The review deadline {} has already passed: reviewers cannot write or change reviews, and no assignment can be staged or released, until you move it.",
                when.label()
            ));
        }
        values.push((key, when.stored));
    }
    if problems.is_empty() { Ok(Checked { values, warnings }) } else { Err(problems) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repo::settings::{SeedValues, Stored};
    use time::macros::datetime;

    fn calendar() -> Calendar {
        let seed = SeedValues {
            paper_due_date: Some("2025-02-20".into()),
            end_date: "2025-03-23".into(),
            time_zone: "Asia/Singapore".into(),
            utc_offset: "+08:00".into(),
            ..SeedValues::default()
        };
        let zone = crate::clock::zone::Zone::fixed("Asia/Singapore", time::UtcOffset::from_hms(8, 0, 0).unwrap());
        Calendar::build(&Stored { seed, overrides: vec![] }, &zone)
    }

    fn typed(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn good_values_are_stored_as_the_rule_reads_them() {
        let now = datetime!(2025-01-10 00:00 UTC);
        let checked = check(
            &calendar(),
            &typed(&[
                ("paper_due_date", " 2026-05-01 "),
                ("review_deadline", "2026-06-01T10:00:30Z"),
                ("camera_ready_due", ""),
            ]),
            now,
        )
        .unwrap();
        assert_eq!(
            checked.values,
            vec![(Key::PaperDueDate, "2026-05-01".into()), (Key::ReviewDeadline, "2026-06-01T10:00:00Z".into())]
        );
        assert!(checked.warnings.is_empty());
    }

    #[test]
    fn an_unknown_key_a_bad_date_or_a_late_attendee_change_refuses_everything() {
        let now = datetime!(2025-01-10 00:00 UTC);
        let problems = check(
            &calendar(),
            &typed(&[
                ("paper_due_date", "2026-05-01"),
                ("paper_due", "2026-05-01"),
                ("registration_closes", "next week"),
                ("attendee_changes_until", "2025-03-24"),
            ]),
            now,
        )
        .unwrap_err();
        let keys: Vec<&str> = problems.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["paper_due", "registration_closes", "attendee_changes_until"]);
        assert!(problems[0].1.contains("there is no setting “paper_due”"), "{problems:?}");
        assert!(problems[1].1.contains("is not a date or time"), "{problems:?}");
        assert!(problems[2].1.contains("after the event's end"), "{problems:?}");
        // The event's last day itself is fine.
        assert!(check(&calendar(), &typed(&[("attendee_changes_until", "2025-03-23")]), now).is_ok());
    }

    #[test]
    fn a_review_deadline_already_passed_is_accepted_with_a_warning() {
        let now = datetime!(2025-03-10 00:00 UTC);
        let checked = check(&calendar(), &typed(&[("review_deadline", "2025-03-03 18:00")]), now).unwrap();
        assert_eq!(checked.values, vec![(Key::ReviewDeadline, "2025-03-03 18:00".into())]);
        assert!(checked.warnings[0].contains("has already passed"), "{:?}", checked.warnings);
    }
}
