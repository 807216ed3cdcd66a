//! The forms the calendar closes (DESIGN.md section 20, issue 42 items 2 and 3), each as a
//! message that says what closed, when, and what to do instead; `None` while it is open.
//! Pages and APIs ask the same functions, so what a page offers and what its API accepts
//! never disagree.

use time::OffsetDateTime;

use super::deadline::Key;
use super::settings::Calendar;
use crate::db::Pool;

/// Where organisers move a deadline (the page of `crate::handlers::organiser::settings`).
pub const SETTINGS_PATH: &str = "/organiser/settings";

/// What the cards of `/pricing` say once registration has closed (issue 42 item 2).
pub const REGISTRATION_CLOSED: &str = "Registration closed";

impl Calendar {
    /// After `paper_due_date`: `Paper submissions are closed (the deadline was 18 March 2025).
    /// To send a paper now, write to desk@example.org.`
    pub fn submissions_closed(&self, now: OffsetDateTime) -> Option<String> {
        let entry = self.entry(Key::PaperDueDate);
        entry.is_passed(now).then(|| {
            let when =
                entry.when.as_ref().map(|w| format!(" (the deadline was {})", w.date_label())).unwrap_or_default();
            format!("Paper submissions are closed{when}. To send a paper now, write to {}.", self.contact_email)
        })
    }

    /// After `registration_closes`: `Registration closed on 23 March 2025. To register now,
    /// write to desk@example.org.`
    pub fn registration_closed(&self, now: OffsetDateTime) -> Option<String> {
        let entry = self.entry(Key::RegistrationCloses);
        entry.is_passed(now).then(|| {
            let when = entry.when.as_ref().map(|w| format!(" on {}", w.date_label())).unwrap_or_default();
            format!("{REGISTRATION_CLOSED}{when}. To register now, write to {}.", self.contact_email)
        })
    }

    /// After `camera_ready_due` (DESIGN.md section 18): `Camera-ready papers were due by
    /// Friday, 28 February 2025, 23:59 Singapore time (UTC+08:00), so nothing was changed. To
    /// change your paper now, write to desk@example.org.`
    pub fn camera_ready_closed(&self, now: OffsetDateTime) -> Option<String> {
        let entry = self.entry(Key::CameraReadyDue);
        entry.is_passed(now).then(|| {
            let when = entry.when.as_ref().map(|w| format!(" by {}", w.label())).unwrap_or_default();
            format!(
                "Camera-ready papers were due{when}, so nothing was changed. To change your paper now, write to {}.",
                self.contact_email
            )
        })
    }

    /// After `review_deadline`: why assignments can be neither staged nor released, naming
    /// the setting's page ([`SETTINGS_PATH`]).
    pub fn assignments_closed(&self, now: OffsetDateTime) -> Option<String> {
        let entry = self.entry(Key::ReviewDeadline);
        entry.is_passed(now).then(|| {
            let when = entry.when.as_ref().map(|w| format!(", {},", w.label())).unwrap_or_default();
            format!(
                "The review deadline{when} has passed: reviewers could not write their reviews, so no assignment is \
                 staged or released. Move the review deadline in the settings ({SETTINGS_PATH}) first."
            )
        })
    }
}

/// [`Calendar::submissions_closed`] as the database holds the calendar now.
pub async fn submissions_closed(pool: &Pool, now: OffsetDateTime) -> Result<Option<String>, sqlx::Error> {
    Ok(Calendar::load(pool).await?.submissions_closed(now))
}

/// [`Calendar::registration_closed`] as the database holds the calendar now.
pub async fn registration_closed(pool: &Pool, now: OffsetDateTime) -> Result<Option<String>, sqlx::Error> {
    Ok(Calendar::load(pool).await?.registration_closed(now))
}

/// [`Calendar::assignments_closed`] as the database holds the calendar now.
pub async fn assignments_closed(pool: &Pool, now: OffsetDateTime) -> Result<Option<String>, sqlx::Error> {
    Ok(Calendar::load(pool).await?.assignments_closed(now))
}
