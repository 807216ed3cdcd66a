//! Reviewing a paper (issue 32 item 6, DESIGN.md section 15): the deadline, saving a draft,
//! submitting and editing a review, the paper's figures kept with its reviews, the committee's
//! discussion, declaring a conflict and recording a refused access, one function per action
//! of the reviewer (the actor, by their address). Each change is written with its audit
//! entry in one transaction and answers what it did or why it did nothing ([`Refused`]).
//!
//! Rules:
//! - Nothing a reviewer writes on a review changes after the deadline (`review_deadline`, a
//!   wall-clock time in the event's zone); before it, a draft may be saved again and again,
//!   and a submitted review may be edited and submitted again. Discussion and conflicts stay
//!   open after the deadline: organisers still decide from them.
//! - A form carries the review's [`version`] as it was drawn; a save from a form whose
//!   review changed since (another tab, another device) is refused as stale, never merged.
//! - The paper's figures (`reviews_submitted`, `review_score`, `review_spread`,
//!   `recommendations`) count the submitted reviews whose assignment stands, recomputed in
//!   the transaction of every change that can move them, under the submission's row lock.

use std::collections::BTreeMap;

use time::{OffsetDateTime, PrimitiveDateTime};

use super::form::{self, Checked, Form, Sent};
use crate::calendar::deadline::When;
use crate::clock::stamp::timestamp;
use crate::clock::zone::Zone;
use crate::db::{Connection, Pool};
use crate::error::{AppError, Outcome, Refused};
use crate::forms::validate::is_allowed_char;
use crate::repo::audit::{self, Actor, NewEntry};
use crate::repo::reviewers;
use crate::repo::reviews::{self, AssignedPaper, Review, ReviewValues};

/// The review deadline: the seed's wall-clock time in the event's zone, and the instant it
/// names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadline {
    pub local: PrimitiveDateTime,
    pub at: OffsetDateTime,
    when: When,
}

impl Deadline {
    /// The deadline `setting` names in `zone` (any way `crate::calendar::deadline` reads:
    /// `YYYY-MM-DD HH:MM`, a date, RFC 3339); `None` without one, or with one that does not
    /// read (logged; neither the seed's check nor `crate::calendar::change` lets one in).
    pub fn of(setting: Option<&str>, zone: &Zone) -> Option<Deadline> {
        let text = setting.map(str::trim).filter(|t| !t.is_empty())?;
        match crate::calendar::deadline::parse(text, zone) {
            Ok(when) => Some(Deadline { local: when.local, at: when.at, when }),
            Err(err) => {
                tracing::warn!(error = %err, "review_deadline does not read as a deadline");
                None
            }
        }
    }

    /// Whether reviews may no longer change at `now`: from the deadline's minute on.
    pub fn passed(&self, now: OffsetDateTime) -> bool {
        now >= self.at
    }

    /// `Monday, 3 March 2025, 18:00 Singapore time (UTC+08:00)`, as the calendar says every
    /// deadline ([`When::label`]).
    pub fn label(&self) -> String {
        self.when.label()
    }

    /// RFC 3339 with the zone's offset, for `<time datetime>`.
    pub fn iso(&self) -> String {
        self.when.iso()
    }
}

/// The audit entry of `actor` doing `action` on `paper` at `at`.
fn entry<'a>(actor: &'a Actor, at: &'a str, action: &'a str, paper: &'a AssignedPaper) -> NewEntry<'a> {
    actor.entry(at, action).about("submission", &paper.reference)
}

/// The review form of the seed. A form the seed's check would refuse cannot be stored by
/// `conference seed`; one broken by hand in the database is a server error, not a guess.
pub async fn review_form(pool: &Pool) -> Result<Form, AppError> {
    let rows = reviews::criteria(pool).await?;
    Form::from_rows(&rows).map_err(|err| AppError::internal("review form", err))
}

/// The paper `code` as reviewer `reviewer_id` may work on it: released to them and not
/// conflicted (`crate::repo::reviews::assigned_paper`).
///
/// Refused as not found, with no words (an unknown address's answer, the same for every
/// refusal), after recording `review.access_refused` with `path`, the address asked for.
pub async fn open(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    reviewer_id: i64,
    code: &str,
    path: &str,
) -> Outcome<AssignedPaper> {
    match reviews::assigned_paper(pool, reviewer_id, code).await? {
        Some(paper) => Ok(paper),
        None => {
            record_refusal(pool, actor, path, now).await?;
            Err(Refused::NotFound(String::new()))
        }
    }
}

/// The version a review form carries: `new` before anything was saved, else a digest of the
/// stored review (its state, answers, choices, comments and last change), so any change
/// since the form was drawn, even within one clock tick, makes it stale.
pub fn version(review: Option<&Review>) -> String {
    let Some(r) = review else { return "new".into() };
    let text = serde_json::json!([
        r.id,
        r.state,
        r.answers,
        r.score,
        r.recommendation,
        r.confidence,
        r.comments_to_authors,
        r.confidential_comments,
        r.updated
    ])
    .to_string();
    hex::encode(&ring::digest::digest(&ring::digest::SHA256, text.as_bytes()).as_ref()[..12])
}

/// What the reviewer asked for: keep a draft, or submit (again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveAction {
    Draft,
    Submit,
}

/// What a save did, as the audit log names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    /// `review.draft_saved`.
    Draft,
    /// `review.submitted`: submitted for the first time.
    Submitted,
    /// `review.edited`: a submitted review changed (and submitted again).
    Edited,
}

impl Saved {
    /// The audit log's action.
    pub fn action(self) -> &'static str {
        match self {
            Saved::Draft => "review.draft_saved",
            Saved::Submitted => "review.submitted",
            Saved::Edited => "review.edited",
        }
    }
}

/// What the page says when a save was refused for its fields.
pub const SAVE_INVALID: &str = "The review was not saved: please correct the fields marked below.";
/// The refusal of a save from a form whose review changed since it was drawn.
const SAVE_STALE: &str = "This review was changed in another window since this page was opened. Nothing was saved: reload the page to see the review as it is now, then make your change again.";
/// The refusal of a draft save of a review already submitted: it would take it back.
const ALREADY_SUBMITTED: &str = "This review is already submitted, so it cannot go back to being a draft. Use \"Submit review\" to save your changes. Nothing was saved.";

/// Saves `sent` as the review of `paper` by `actor` at `now` (the review deadline read in the
/// event's `zone`), with its audit entry ([`Saved::action`]) and, for a submitted review,
/// the paper's figures, in one transaction.
///
/// Refused, checked in this order: as not allowed (409) once the deadline has passed; as
/// invalid (422, [`SAVE_INVALID`] with each field's message keyed by the form's names,
/// [`form::check`]); as stale (409) when `version_sent` is not the stored review's
/// [`version`]; as not allowed (409) for a draft of a review already submitted.
#[allow(clippy::too_many_arguments)]
pub async fn save(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    zone: &Zone,
    paper: &AssignedPaper,
    sent: &Sent,
    action: SaveAction,
    version_sent: &str,
) -> Outcome<Saved> {
    let settings = reviewers::settings(pool).await?;
    let deadline = Deadline::of(settings.review_deadline.as_deref(), zone);
    if let Some(deadline) = deadline.filter(|d| d.passed(now)) {
        return Err(Refused::NotAllowed(format!(
            "The review deadline ({}) has passed: reviews can no longer be changed. Nothing was saved.",
            deadline.label()
        )));
    }
    let form = review_form(pool).await?;
    let checked = form::check(&form, sent, action == SaveAction::Submit)
        .map_err(|errors| Refused::Invalid { message: SAVE_INVALID.to_owned(), errors })?;
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    reviews::lock_submission(&mut tx, paper.submission_id).await?;
    let stored = reviews::review_of(&mut tx, paper.assignment_id).await?;
    if version(stored.as_ref()) != version_sent {
        return Err(Refused::Stale(SAVE_STALE.to_owned()));
    }
    let was_submitted = stored.as_ref().is_some_and(|r| r.state == "submitted");
    let saved = match (action, was_submitted) {
        (SaveAction::Draft, true) => return Err(Refused::NotAllowed(ALREADY_SUBMITTED.to_owned())),
        (SaveAction::Draft, false) => Saved::Draft,
        (SaveAction::Submit, false) => Saved::Submitted,
        (SaveAction::Submit, true) => Saved::Edited,
    };
    let answers = checked.answers_json();
    let submitted_at = match (&stored, saved) {
        (_, Saved::Draft) => None,
        (Some(review), Saved::Edited) => review.submitted_at.clone().or(Some(at.clone())),
        _ => Some(at.clone()),
    };
    let values = ReviewValues {
        state: if saved == Saved::Draft { "draft" } else { "submitted" },
        answers: &answers,
        score: checked.score(),
        recommendation: checked.recommendation.map(form::Recommendation::as_str),
        confidence: checked.confidence,
        comments_to_authors: &checked.comments_to_authors,
        confidential_comments: &checked.confidential_comments,
        at: &at,
        submitted_at: submitted_at.as_deref(),
    };
    match &stored {
        None => {
            if let Err(err) = reviews::insert_review(&mut tx, paper, &values).await {
                // Two first saves at once: the second finds the first's row.
                return Err(match &err {
                    sqlx::Error::Database(db) if db.is_unique_violation() => Refused::Stale(SAVE_STALE.to_owned()),
                    _ => err.into(),
                });
            }
        }
        Some(review) => {
            if !reviews::update_review(&mut tx, review.id, &review.updated, &values).await? {
                return Err(Refused::Stale(SAVE_STALE.to_owned()));
            }
        }
    }
    let entry =
        NewEntry { details: details(paper, stored.as_ref(), &checked), ..entry(actor, &at, saved.action(), paper) };
    audit::record(&mut tx, &entry).await?;
    if saved != Saved::Draft {
        recount(&mut tx, paper.submission_id).await?;
    }
    tx.commit().await?;
    Ok(saved)
}

/// The audit entry's details of a save: which paper and reviewer number, the fields that
/// changed and the score and recommendation before and after.
fn details(paper: &AssignedPaper, before: Option<&Review>, after: &Checked) -> serde_json::Value {
    let old_answers = before.map(|r| form::answers_of(&r.answers)).unwrap_or_default();
    let old_recommendation = before.and_then(|r| r.recommendation.clone());
    let new_recommendation = after.recommendation.map(|r| r.as_str().to_owned());
    let mut changed = Vec::new();
    if old_answers != after.answers {
        changed.push("scores");
    }
    if old_recommendation != new_recommendation {
        changed.push("recommendation");
    }
    if before.and_then(|r| r.confidence) != after.confidence {
        changed.push("confidence");
    }
    if before.map_or("", |r| r.comments_to_authors.as_str()) != after.comments_to_authors {
        changed.push("comments_to_authors");
    }
    if before.map_or("", |r| r.confidential_comments.as_str()) != after.confidential_comments {
        changed.push("confidential_comments");
    }
    serde_json::json!({
        "review_code": paper.review_code,
        "reviewer": paper.reviewer_number,
        "changed": changed,
        "score": { "before": before.and_then(|r| r.score), "after": after.score() },
        "recommendation": { "before": old_recommendation, "after": new_recommendation },
    })
}

/// Recomputes and writes a paper's figures from its counted reviews, on `conn` (the caller's
/// transaction, which holds the submission's row lock).
async fn recount(conn: &mut Connection, submission_id: i64) -> Result<(), sqlx::Error> {
    let counted = reviews::counted_reviews(conn, submission_id).await?;
    let figures = form::figures(&counted);
    reviews::set_figures(
        conn,
        submission_id,
        figures.submitted,
        figures.score,
        figures.spread,
        &figures.recommendations,
    )
    .await
}

/// Most characters in one message of a paper's discussion.
pub const COMMENT_MAX_CHARS: usize = 5_000;

/// A discussion message as the rules take it: trimmed, line ends as `\n`, 1 to
/// [`COMMENT_MAX_CHARS`] characters of text; else the message to show.
pub fn check_comment(body: &str) -> Result<String, String> {
    let text = body.replace("\r\n", "\n").replace('\r', "\n").trim().to_owned();
    if text.is_empty() {
        return Err("Write a message before posting it.".into());
    }
    if text.chars().count() > COMMENT_MAX_CHARS {
        return Err(format!("A message may have at most {COMMENT_MAX_CHARS} characters."));
    }
    if !text.chars().all(is_allowed_char) {
        return Err("The message contains a control character; remove it.".into());
    }
    Ok(text)
}

/// What [`comment`] did: message `id` is in the paper's discussion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Commented {
    pub id: i64,
}

/// What the page says when a message was refused.
pub const COMMENT_INVALID: &str = "The message was not posted: please correct it below.";

/// Adds `body` to the paper's discussion as its reviewer's, with the audit entry
/// `review.commented`. Discussion stays open after the deadline.
///
/// Refused as invalid (422, [`COMMENT_INVALID`], the message's error under `body`) when it
/// breaks [`check_comment`].
pub async fn comment(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    paper: &AssignedPaper,
    body: &str,
) -> Outcome<Commented> {
    let text = check_comment(body).map_err(|error| Refused::Invalid {
        message: COMMENT_INVALID.to_owned(),
        errors: BTreeMap::from([("body".to_owned(), error)]),
    })?;
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let id = reviews::add_comment(&mut tx, paper.submission_id, Some(paper.reviewer_id), None, &text, &at).await?;
    let entry = NewEntry {
        details: serde_json::json!({
            "review_code": paper.review_code,
            "reviewer": paper.reviewer_number,
            "comment": id,
        }),
        ..entry(actor, &at, "review.commented", paper)
    };
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Commented { id })
}

/// What the paper's page says when "I have a conflict" was sent without its confirmation.
pub const CONFLICT_UNCONFIRMED: &str = "Nothing was changed: tick \"Yes, I have a conflict with this paper\" to confirm, then press \"I have a conflict\" again.";

/// What [`declare_conflict`] did: the paper left the reviewer's list (its assignment is
/// withdrawn) and its figures were counted again without their review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConflictDeclared {
    pub review_code: String,
}

/// "I have a conflict", `confirmed` by its box: records the reviewer's conflict with the
/// paper, withdraws the assignment (so the paper leaves the reviewer's list and pages) and
/// recounts the paper's figures without this reviewer's review; audited as
/// `review.conflict_declared`. Open after the deadline too.
///
/// Refused as invalid (422, [`CONFLICT_UNCONFIRMED`]) without the confirmation.
pub async fn declare_conflict(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    paper: &AssignedPaper,
    confirmed: bool,
) -> Outcome<ConflictDeclared> {
    if !confirmed {
        return Err(Refused::invalid(CONFLICT_UNCONFIRMED));
    }
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    reviews::lock_submission(&mut tx, paper.submission_id).await?;
    reviews::declare_conflict(&mut tx, paper.reviewer_id, paper.submission_id, "reviewer", &at).await?;
    reviews::withdraw_assignment(&mut tx, paper.assignment_id).await?;
    recount(&mut tx, paper.submission_id).await?;
    let entry = NewEntry {
        details: serde_json::json!({ "review_code": paper.review_code, "reviewer": paper.reviewer_number }),
        ..entry(actor, &at, "review.conflict_declared", paper)
    };
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(ConflictDeclared { review_code: paper.review_code.clone() })
}

/// Most characters of a refused path kept in the audit log.
const PATH_MAX_CHARS: usize = 200;

/// Records that `actor` asked for `path`, a paper they may not see (unknown, not released to
/// them, withdrawn or conflicted): `review.access_refused` with the path.
async fn record_refusal(pool: &Pool, actor: &Actor, path: &str, now: OffsetDateTime) -> Result<(), sqlx::Error> {
    let at = timestamp(now);
    let path: String = path.chars().take(PATH_MAX_CHARS).collect();
    let entry = NewEntry { details: serde_json::json!({ "path": path }), ..actor.entry(&at, "review.access_refused") };
    let mut tx = crate::db::begin_write(pool).await?;
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::{datetime, offset};

    #[test]
    fn the_deadline_is_a_wall_clock_time_in_the_events_zone() {
        let zone = Zone::fixed("Asia/Singapore", offset!(+8));
        let deadline = Deadline::of(Some("2025-03-03 18:00"), &zone).unwrap();
        assert_eq!(deadline.at, datetime!(2025-03-03 10:00 UTC));
        assert!(!deadline.passed(datetime!(2025-03-03 09:59:59 UTC)));
        assert!(deadline.passed(datetime!(2025-03-03 10:00 UTC)), "the deadline's own minute is past it");
        assert_eq!(deadline.label(), "Monday, 3 March 2025, 18:00 Singapore time (UTC+08:00)");
        assert_eq!(deadline.iso(), "2025-03-03T18:00:00+08:00");
        assert_eq!(Deadline::of(None, &zone), None);
        assert_eq!(Deadline::of(Some("soon"), &zone), None);
    }

    #[test]
    fn comments_are_text_of_a_bounded_length() {
        assert_eq!(check_comment("  Agreed.\r\nSee section 3. "), Ok("Agreed.\nSee section 3.".into()));
        assert!(check_comment(" \n ").is_err());
        assert!(check_comment(&"x".repeat(COMMENT_MAX_CHARS + 1)).is_err());
        assert!(check_comment("bell\u{7}").is_err());
    }

    #[test]
    fn a_version_changes_with_any_stored_change() {
        let review = Review {
            id: 1,
            assignment_id: 2,
            state: "draft".into(),
            answers: "[]".into(),
            score: None,
            recommendation: None,
            confidence: None,
            comments_to_authors: String::new(),
            confidential_comments: String::new(),
            created: "t".into(),
            updated: "t".into(),
            submitted_at: None,
        };
        assert_eq!(version(None), "new");
        let first = version(Some(&review));
        assert_eq!(first.len(), 24);
        assert_eq!(version(Some(&review.clone())), first);
        let commented = Review { comments_to_authors: "x".into(), ..review };
        assert_ne!(version(Some(&commented)), first, "same clock tick, other content");
    }
}
