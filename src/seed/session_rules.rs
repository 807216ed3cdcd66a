//! The content seed's rules for the programme (issue 31 item 1): the event's zone is one the
//! tz database knows, every session ends after it starts, and no room holds two sessions at
//! once. `conference seed` and `seed --check` refuse a seed that breaks one
//! (`crate::seed::apply::check_programme`), naming the sessions.

use time::PrimitiveDateTime;
use time::macros::format_description;

use crate::clock::zone::{Zone, ZoneError};

/// The session times as the seed writes them: `YYYY-MM-DD HH:MM` in the event's zone.
pub fn parse_local(text: &str) -> Option<PrimitiveDateTime> {
    PrimitiveDateTime::parse(text, format_description!("[year]-[month]-[day] [hour]:[minute]")).ok()
}

/// The seed's way of writing a wall-clock time: `YYYY-MM-DD HH:MM`, the inverse of
/// [`parse_local`].
pub fn format_local(at: PrimitiveDateTime) -> String {
    at.format(format_description!("[year]-[month]-[day] [hour]:[minute]")).unwrap_or_default()
}

/// What the rules read of one session.
#[derive(Debug, Clone)]
pub struct SessionTimes {
    pub slug: String,
    pub room: String,
    pub starts_at: String,
    pub ends_at: String,
}

/// A programme the seed may not publish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgrammeError {
    #[error("site.time_zone: {0}; nothing was changed")]
    Zone(ZoneError),
    #[error("session {slug}: {field} {value:?} is not a time written YYYY-MM-DD HH:MM; nothing was changed")]
    BadTime { slug: String, field: &'static str, value: String },
    #[error("session {slug} ends at {ends_at}, which is not after it starts ({starts_at}); nothing was changed")]
    EndsBeforeStart { slug: String, starts_at: String, ends_at: String },
    #[error(
        "room {room} is used twice at once: session {first} ({first_time}) and session {second} ({second_time}); nothing was changed"
    )]
    RoomTwice { room: String, first: String, first_time: String, second: String, second_time: String },
    #[error("session {slug}: speaker {speaker:?} is not one of the seed's speakers; nothing was changed")]
    UnknownSpeaker { slug: String, speaker: String },
}

/// Checks the zone and the sessions; the first problem found, in session order.
pub fn check(time_zone: &str, sessions: &[SessionTimes]) -> Result<(), ProgrammeError> {
    Zone::load(time_zone).map_err(ProgrammeError::Zone)?;
    check_sessions(sessions)
}

/// The sessions' rules alone: times well written, each ending after it starts, one session
/// per room at a time.
pub fn check_sessions(sessions: &[SessionTimes]) -> Result<(), ProgrammeError> {
    let mut timed = Vec::with_capacity(sessions.len());
    for session in sessions {
        let parse = |field: &'static str, value: &str| {
            parse_local(value).ok_or_else(|| ProgrammeError::BadTime {
                slug: session.slug.clone(),
                field,
                value: value.to_owned(),
            })
        };
        let (start, end) = (parse("starts_at", &session.starts_at)?, parse("ends_at", &session.ends_at)?);
        if end <= start {
            return Err(ProgrammeError::EndsBeforeStart {
                slug: session.slug.clone(),
                starts_at: session.starts_at.clone(),
                ends_at: session.ends_at.clone(),
            });
        }
        timed.push((session, start, end));
    }
    // Sorted by room then start, two sessions of a room overlap only if neighbours do, or one
    // runs past several: compare each with the latest-ending earlier one of its room.
    timed.sort_by(|a, b| (&a.0.room, a.1, &a.0.slug).cmp(&(&b.0.room, b.1, &b.0.slug)));
    let mut latest: Option<&(&SessionTimes, PrimitiveDateTime, PrimitiveDateTime)> = None;
    for entry in &timed {
        if let Some(previous) = latest.filter(|p| p.0.room == entry.0.room) {
            if entry.1 < previous.2 {
                let time = |s: &SessionTimes| format!("{} to {}", s.starts_at, s.ends_at);
                return Err(ProgrammeError::RoomTwice {
                    room: entry.0.room.clone(),
                    first: previous.0.slug.clone(),
                    first_time: time(previous.0),
                    second: entry.0.slug.clone(),
                    second_time: time(entry.0),
                });
            }
            if entry.2 <= previous.2 {
                continue;
            }
        }
        latest = Some(entry);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(slug: &str, room: &str, starts_at: &str, ends_at: &str) -> SessionTimes {
        SessionTimes { slug: slug.into(), room: room.into(), starts_at: starts_at.into(), ends_at: ends_at.into() }
    }

    #[test]
    fn a_room_may_hold_sessions_back_to_back_but_not_overlapping() {
        let fine = [
            session("a", "hall", "2025-03-21 09:00", "2025-03-21 10:00"),
            session("b", "hall", "2025-03-21 10:00", "2025-03-21 11:00"),
            session("c", "room", "2025-03-21 09:30", "2025-03-21 10:30"),
        ];
        assert_eq!(check_times(&fine), Ok(()));
        let long = [
            session("long", "hall", "2025-03-21 09:00", "2025-03-21 17:00"),
            session("short", "hall", "2025-03-21 09:30", "2025-03-21 10:00"),
            session("later", "hall", "2025-03-21 12:00", "2025-03-21 13:00"),
        ];
        let err = check_times(&long).unwrap_err().to_string();
        assert!(err.contains("room hall is used twice at once: session long"), "{err}");
        let three = [
            session("long", "hall", "2025-03-21 09:00", "2025-03-21 17:00"),
            session("short", "hall", "2025-03-21 08:00", "2025-03-21 08:30"),
            session("x", "hall", "2025-03-21 16:00", "2025-03-21 18:00"),
        ];
        assert!(
            check_times(&three)
                .unwrap_err()
                .to_string()
                .contains("session long (2025-03-21 09:00 to 2025-03-21 17:00) and session x")
        );
    }

    fn check_times(sessions: &[SessionTimes]) -> Result<(), ProgrammeError> {
        check_sessions(sessions)
    }
}
