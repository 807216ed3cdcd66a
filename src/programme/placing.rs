//! How a talk is placed (issue 31 item 2, DESIGN.md section 14): what organisers do with the
//! draft placement on `/organiser/programme`, one function per action. An accepted paper is
//! placed at the end of a technical or poster session for some minutes ([`place`]; placing it
//! again where it is changes only its minutes), swapped with its neighbour ([`move_talk`]) or
//! taken out ([`remove`]). Each opens its own write transaction, reads the placement there,
//! writes its audit entry (`programme.placed`, `programme.moved`, `programme.removed`, about
//! the submission, with the session, position and minutes before and after) and answers what
//! it did or why it did nothing. Nothing here checks conflicts: the draft may hold them, and
//! publishing refuses them (`super::publish`). The SQL is `crate::repo::programme`.

use serde_json::json;
use time::OffsetDateTime;

use super::draft::PLACEABLE_KINDS;
use super::timetable::kind_label;
use crate::clock::stamp::timestamp;
use crate::db::{Connection, Pool};
use crate::error::{AppError, Outcome, Refused};
use crate::forms::validate::shown;
use crate::repo::audit::{self, Actor};
use crate::repo::content::Session;
use crate::repo::programme::{self as store, Placement};
use crate::repo::submissions::{self as rows, Submission};

/// A talk's shortest length in minutes: the `placements.minutes` CHECK (migration 0017).
pub const MINUTES_MIN: i64 = 1;
/// A talk's longest length in minutes (the same CHECK).
pub const MINUTES_MAX: i64 = 600;
/// What "Place a paper" offers.
pub const MINUTES_DEFAULT: i64 = 15;

/// A talk's length: whole minutes from [`MINUTES_MIN`] to [`MINUTES_MAX`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Minutes(i64);

impl Minutes {
    /// `typed` as a talk length; refused (400) with the range otherwise.
    pub fn parse(typed: &str) -> Outcome<Minutes> {
        typed.parse::<i64>().ok().and_then(Minutes::new).ok_or_else(|| {
            form_refused(format!(
                "\"{}\" is not a talk length: give whole minutes from {MINUTES_MIN} to {MINUTES_MAX}.",
                shown(typed)
            ))
        })
    }

    /// `minutes` when it is in range.
    pub fn new(minutes: i64) -> Option<Minutes> {
        (MINUTES_MIN..=MINUTES_MAX).contains(&minutes).then_some(Minutes(minutes))
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

/// Which neighbour a talk swaps with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Earlier,
    Later,
}

impl Direction {
    /// `earlier` or `later` as the form sends it; refused (400) otherwise.
    pub fn parse(typed: &str) -> Outcome<Direction> {
        match typed {
            "earlier" => Ok(Direction::Earlier),
            "later" => Ok(Direction::Later),
            other => {
                Err(form_refused(format!("\"{}\" is not a direction: use \"earlier\" or \"later\".", shown(other))))
            }
        }
    }

    /// The change of position: -1 or +1.
    fn by(self) -> i64 {
        match self {
            Direction::Earlier => -1,
            Direction::Later => 1,
        }
    }
}

/// What [`place`], [`move_talk`] or [`remove`] did to the paper `reference` (the submission's
/// reference, as its notice names it). `changed` is false when the draft already was so (a
/// second click): nothing was stored or audited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub reference: String,
    pub changed: bool,
}

/// Places accepted paper `reference` at the end of session `session` (a technical or poster
/// session of the seed) for `minutes`, or changes its minutes where it is. Audited as
/// `programme.placed`.
///
/// Refused (400) when no paper is chosen, the reference or session is unknown, the paper is
/// not accepted, or the session takes no papers (a keynote, a break).
pub async fn place(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    reference: &str,
    session: &str,
    minutes: Minutes,
) -> Outcome<Placed> {
    let paper = submission(pool, reference).await?;
    if paper.state != "accepted" {
        return Err(form_refused(format!(
            "Submission {} is {}; only accepted papers can be placed.",
            paper.submitted.reference,
            crate::repo::submissions::state_label(&paper.state).to_lowercase()
        )));
    }
    let session = placeable_session(pool, session).await?;
    let minutes = minutes.get();
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let before = store::placement(&mut tx, paper.id).await?;
    if before.as_ref().is_some_and(|p| p.session == session.slug && p.minutes == minutes) {
        return Ok(Placed { reference: paper.submitted.reference, changed: false });
    }
    store::place(&mut tx, paper.id, &session.slug, minutes, &at).await?;
    let after = store::placement(&mut tx, paper.id).await?;
    let (before, after) = (before.as_ref(), after.as_ref());
    let details = json!({
        "session": { "before": before.map(|p| &p.session), "after": after.map(|p| &p.session) },
        "position": { "before": before.map(|p| p.position), "after": after.map(|p| p.position) },
        "minutes": { "before": before.map(|p| p.minutes), "after": after.map(|p| p.minutes) },
    });
    record_on_submission(&mut tx, actor, &at, "programme.placed", &paper.submitted.reference, details).await?;
    tx.commit().await?;
    Ok(Placed { reference: paper.submitted.reference, changed: true })
}

/// Swaps placed paper `reference` with its neighbour `direction` in its session. Audited as
/// `programme.moved` (the session, the position before and after).
///
/// Refused (400) for an unknown or unplaced paper, or one already first (last) of its session.
pub async fn move_talk(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    reference: &str,
    direction: Direction,
) -> Outcome<Placed> {
    let paper = submission(pool, reference).await?;
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let before = placement_of(&mut tx, &paper).await?;
    if !store::shift(&mut tx, paper.id, direction.by()).await? {
        let word = if direction == Direction::Earlier { "first" } else { "last" };
        return Err(form_refused(format!(
            "“{}” is already the {word} talk of its session; nothing was changed.",
            paper.submitted.paper_title.trim()
        )));
    }
    let details = json!({
        "session": before.session,
        "position": { "before": before.position, "after": before.position + direction.by() },
    });
    record_on_submission(&mut tx, actor, &at, "programme.moved", &paper.submitted.reference, details).await?;
    tx.commit().await?;
    Ok(Placed { reference: paper.submitted.reference, changed: true })
}

/// Takes paper `reference` out of the draft, whatever its state, so that a withdrawn paper's
/// placement (a conflict) can be taken out. Audited as `programme.removed`.
///
/// Refused (400) for an unknown paper or one not in the programme.
pub async fn remove(pool: &Pool, now: OffsetDateTime, actor: &Actor, reference: &str) -> Outcome<Placed> {
    let paper = submission(pool, reference).await?;
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let before = placement_of(&mut tx, &paper).await?;
    store::unplace(&mut tx, paper.id).await?;
    let details = json!({
        "session": { "before": before.session, "after": null },
        "position": { "before": before.position, "after": null },
        "minutes": { "before": before.minutes, "after": null },
    });
    record_on_submission(&mut tx, actor, &at, "programme.removed", &paper.submitted.reference, details).await?;
    tx.commit().await?;
    Ok(Placed { reference: paper.submitted.reference, changed: true })
}

/// A refused programme form: 400, and `/organiser/programme` shows the page again with the
/// message (its tests assert that status, older than [`Refused`]).
pub(super) fn form_refused(message: String) -> Refused {
    Refused::Failed(AppError::BadRequest(message))
}

/// `actor`'s entry `action` about submission `reference`, with `details`, on `conn`.
pub(super) async fn record_on_submission(
    conn: &mut Connection,
    actor: &Actor,
    at: &str,
    action: &str,
    reference: &str,
    details: serde_json::Value,
) -> Result<(), AppError> {
    let entry = audit::NewEntry { details, ..actor.entry(at, action).about("submission", reference) };
    audit::record(conn, &entry).await?;
    Ok(())
}

/// The submission a form's `paper` names; refused (400) when there is none.
async fn submission(pool: &Pool, reference: &str) -> Outcome<Submission> {
    if reference.is_empty() {
        return Err(form_refused("No paper was chosen. Choose one and try again.".into()));
    }
    rows::by_reference(pool, reference)
        .await?
        .ok_or_else(|| form_refused(format!("No submission has the reference {}.", shown(reference))))
}

/// Where `paper` is placed, read on `conn`; refused (400) when it is not in the programme.
async fn placement_of(conn: &mut Connection, paper: &Submission) -> Outcome<Placement> {
    store::placement(conn, paper.id).await?.ok_or_else(|| {
        form_refused(format!(
            "“{}” ({}) is not in the programme; nothing was changed.",
            paper.submitted.paper_title.trim(),
            paper.submitted.reference
        ))
    })
}

/// The seed's session `slug`, when it takes papers ([`PLACEABLE_KINDS`]).
async fn placeable_session(pool: &Pool, slug: &str) -> Outcome<Session> {
    let sessions = crate::repo::content::sessions(pool).await?;
    let Some(session) = sessions.into_iter().find(|s| s.slug == slug) else {
        return Err(form_refused(format!("The programme has no session {}.", shown(slug))));
    };
    if !PLACEABLE_KINDS.contains(&session.kind.as_str()) {
        return Err(form_refused(format!(
            "{} is a {} session; only technical and poster sessions take papers.",
            session.title,
            kind_label(&session.kind).to_lowercase()
        )));
    }
    Ok(session)
}
