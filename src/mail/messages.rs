//! What organisers do with a contact message (DESIGN.md section 12, issue 20 item 4 and issue
//! 21 item 5): open it, which marks it read, and mark it answered or not with an internal
//! note. The pages are `crate::handlers::organiser::messages`; the SQL is
//! `crate::repo::messages`. The message's arrival and the organisers' notice are
//! [`super::contact`].

use serde_json::json;
use time::OffsetDateTime;

use crate::clock::stamp::timestamp;
use crate::db::Pool;
use crate::error::{Outcome, Refused};
use crate::repo::audit::{self, Actor};
use crate::repo::messages::{self, Received};

/// What [`mark_answered`] did: message `id` is now answered by `by` at `at` (who answered it
/// first, when it was answered before), or not answered (`None`), and holds `note`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageUpdated {
    pub id: String,
    /// (who, when as RFC 3339 UTC).
    pub answered: Option<(String, String)>,
    pub note: String,
}

/// The refusal of an id no message has (at most 40 of its characters are quoted).
fn no_message(id: &str) -> Refused {
    Refused::NotFound(format!("No message has the id {}.", id.chars().take(40).collect::<String>()))
}

/// Message `id` as an organiser opens it at `now`: the first opening marks it read, and the
/// answer carries that time as `read_at`. Refused as [`Refused::NotFound`] for an unknown id.
pub async fn open(pool: &Pool, now: OffsetDateTime, id: &str) -> Outcome<Received> {
    let mut received = messages::by_id(pool, id).await?.ok_or_else(|| no_message(id))?;
    if received.read_at.is_none() {
        let at = timestamp(now);
        messages::mark_read(pool, &received.message.id, &at).await?;
        received.read_at = Some(at);
    }
    Ok(received)
}

/// Marks message `id` answered by `actor` at `now` (`answered`), or not, and keeps `note`
/// (the organisers' internal note, checked by the form). Marking an answered message answered
/// again keeps who answered it and when. Audited as `message.updated` with answered and note,
/// before and after.
///
/// Refused as [`Refused::NotFound`] for an id no message has (or a message gone meanwhile).
pub async fn mark_answered(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    id: &str,
    answered: bool,
    note: &str,
) -> Outcome<MessageUpdated> {
    let before = messages::by_id(pool, id).await?.ok_or_else(|| no_message(id))?;
    let at = timestamp(now);
    let after = match (&before.answered_at, &before.answered_by, answered) {
        (Some(at), Some(by), true) => Some((by.clone(), at.clone())),
        (_, _, true) => Some((actor.email.clone(), at.clone())),
        (_, _, false) => None,
    };
    let mut tx = crate::db::begin_write(pool).await?;
    let by_at = after.as_ref().map(|(by, at)| (by.as_str(), at.as_str()));
    if !messages::set_answered(&mut tx, &before.message.id, by_at, note).await? {
        return Err(no_message(id));
    }
    let mut entry = actor.entry(&at, "message.updated").about("message", &before.message.id);
    entry.details = json!({
        "answered": { "before": before.answered_at.is_some(), "after": answered },
        "note": { "before": before.note, "after": note },
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(MessageUpdated { id: before.message.id, answered: after, note: note.to_owned() })
}
