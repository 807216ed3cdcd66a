//! The operational settings of the conference calendar (issue 42, DESIGN.md section 20,
//! migration 0023): the seed's values in the `site` row and the organisers' values in
//! `settings`, which a later seed never touches. The rules (what a value means, which one is
//! in force) are `crate::calendar`'s.

use serde::Serialize;
use sqlx::FromRow;

use crate::db::Connection;

/// The keys `settings` may hold, in the order pages list them; also the `site` columns that
/// hold the seed's values.
pub const KEYS: [&str; 5] =
    ["paper_due_date", "registration_closes", "review_deadline", "attendee_changes_until", "camera_ready_due"];

/// An organisers' value: the key, the value as stored, when (RFC 3339 UTC) and by whom (an
/// organiser's address or `cli`).
#[derive(Debug, Clone, PartialEq, Eq, FromRow, Serialize)]
pub struct Override {
    pub key: String,
    pub value: String,
    pub changed_at: String,
    pub changed_by: String,
}

/// The seed's values (`site` row; `None` for NULL or blank), the event's last day, zone and
/// contact address, as the calendar reads them.
#[derive(Debug, Clone, Default, PartialEq, Eq, FromRow, Serialize)]
pub struct SeedValues {
    pub paper_due_date: Option<String>,
    pub registration_closes: Option<String>,
    pub review_deadline: Option<String>,
    pub attendee_changes_until: Option<String>,
    pub camera_ready_due: Option<String>,
    /// `YYYY-MM-DD`, the event's last day.
    pub end_date: String,
    /// The event's zone (IANA) and its offset, as the snapshot reads them.
    pub time_zone: String,
    pub utc_offset: String,
    /// Whom a closed form tells people to write to.
    pub contact_email: String,
}

impl SeedValues {
    /// The seed's value of `key` (one of [`KEYS`]), blank as `None`.
    pub fn get(&self, key: &str) -> Option<&str> {
        let value = match key {
            "paper_due_date" => &self.paper_due_date,
            "registration_closes" => &self.registration_closes,
            "review_deadline" => &self.review_deadline,
            "attendee_changes_until" => &self.attendee_changes_until,
            "camera_ready_due" => &self.camera_ready_due,
            _ => &None,
        };
        value.as_deref().map(str::trim).filter(|v| !v.is_empty())
    }
}

/// Everything the calendar is made of: the seed's values and the organisers' values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stored {
    pub seed: SeedValues,
    pub overrides: Vec<Override>,
}

/// SQL for the value of `key` in force in the `site` row's query: the organisers' value, else
/// the seed's column. `key` must be one of [`KEYS`] (a constant of the caller, never input).
pub fn effective_sql(key: &str) -> String {
    debug_assert!(KEYS.contains(&key), "{key} is no calendar setting");
    format!("COALESCE((SELECT value FROM settings WHERE key = '{key}'), {key})")
}

const SEED: &str = "SELECT paper_due_date, registration_closes, review_deadline, attendee_changes_until, \
                    camera_ready_due, end_date, time_zone, utc_offset, contact_email FROM site WHERE id = 1";
const OVERRIDES: &str = "SELECT key, value, changed_at, changed_by FROM settings ORDER BY key";

/// The seed's values and the organisers' values on `conn`: a pool's connection, or a
/// transaction (what a change is checked against). A database without a `site` row reads as
/// no seed values (every setting then falls back to its default).
pub async fn stored(conn: &mut Connection) -> Result<Stored, sqlx::Error> {
    let seed = sqlx::query_as(SEED).fetch_optional(&mut *conn).await?.unwrap_or_default();
    let overrides = sqlx::query_as(OVERRIDES).fetch_all(&mut *conn).await?;
    Ok(Stored { seed, overrides })
}

/// Stores the organisers' value of `change.key` on `conn` (inserted or replaced).
pub async fn set(conn: &mut Connection, change: &Override) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO settings (key, value, changed_at, changed_by) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, changed_at = excluded.changed_at, \
         changed_by = excluded.changed_by",
    )
    .bind(&change.key)
    .bind(&change.value)
    .bind(&change.changed_at)
    .bind(&change.changed_by)
    .execute(conn)
    .await?;
    Ok(())
}
