//! What an author does through the private status link (issue 21, DESIGN.md section 12
//! "Decisions"; issue 31 item 6): the submission the link opens, withdrawing it before a
//! decision is applied, and an accepted paper's public abstract and presenter until the
//! programme is locked. The actor is the audit log's `author` ([`author`]): the link's holder
//! is not named, and no client address is kept for them.

use serde_json::json;
use time::OffsetDateTime;

use crate::base::secrets;
use crate::clock::stamp::timestamp;
use crate::db::Pool;
use crate::error::{Outcome, Refused};
use crate::repo::audit::{self, AUTHOR, Actor};
use crate::repo::decisions as store;
use crate::repo::review_records;
use crate::repo::submissions::Submission;
use crate::review::for_authors::AuthorComments;

/// The holder of a status link as the audit log names them.
pub fn author() -> Actor {
    Actor { email: AUTHOR.to_owned(), client: None }
}

/// The submission `token` opens; `None` for a malformed or unknown token (the token is the
/// only key: only its SHA-256 is stored, `crate::base::secrets`).
pub async fn by_token(pool: &Pool, token: &str) -> Outcome<Option<Submission>> {
    if !secrets::is_well_formed(token) {
        return Ok(None);
    }
    Ok(store::by_link(pool, &secrets::hash(token)).await?)
}

/// The state as the author sees it: a pending decision is not one yet.
pub fn public_state(s: &Submission) -> &'static str {
    match s.state.as_str() {
        "accepted" => "Accepted",
        "rejected" => "Rejected",
        "withdrawn" => "Withdrawn",
        _ => "Submitted",
    }
}

/// One reviewer's comments to the authors: "Reviewer 2" and the text in paragraphs of
/// non-empty lines (issue 32 item 8).
#[derive(Debug, Clone)]
pub struct ReviewerComments {
    pub heading: String,
    pub paragraphs: Vec<Vec<String>>,
}

/// The comments of a decided paper's submitted reviews: `None` before a decision is applied,
/// for a withdrawn paper, or for a paper decided without reviews; empty when no reviewer
/// wrote to the authors. Reviewers are numbered, never named; the confidential comments
/// never leave the committee.
pub async fn reviewer_comments(pool: &Pool, s: &Submission) -> Outcome<Option<Vec<ReviewerComments>>> {
    if s.state != "accepted" && s.state != "rejected" {
        return Ok(None);
    }
    let mut conn = pool.acquire().await?;
    let reviews = AuthorComments::from_rows(review_records::for_authors(&mut conn, s.id).await?);
    if reviews.is_empty() {
        return Ok(None);
    }
    let shown = reviews
        .iter()
        .filter(|r| !r.text.is_empty())
        .map(|r| ReviewerComments {
            heading: r.heading(),
            paragraphs: r
                .text
                .split("\n\n")
                .map(|p| p.lines().map(str::to_owned).filter(|l| !l.trim().is_empty()).collect::<Vec<_>>())
                .filter(|p| !p.is_empty())
                .collect(),
        })
        .collect();
    Ok(Some(shown))
}

/// What [`withdraw`] did: `reference` is withdrawn now, and its pending decision (if any)
/// went with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withdrawn {
    pub reference: String,
}

/// The author withdraws `s` (as read through their link) while no decision is applied; a
/// pending decision goes with it. Audited as `submission.withdrawn` with the state and the
/// pending decision before and after.
///
/// Refused (not allowed, 409) when `s` is withdrawn already or a decision was applied, with
/// the words the status page shows.
pub async fn withdraw(pool: &Pool, now: OffsetDateTime, actor: &Actor, s: &Submission) -> Outcome<Withdrawn> {
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    if !store::withdraw(&mut tx, s.id).await? {
        return Err(Refused::NotAllowed(if s.state == "withdrawn" {
            "This submission is withdrawn already.".to_owned()
        } else {
            "A decision on this submission has been made, so it can no longer be withdrawn here. Please write to the organisers."
                .to_owned()
        }));
    }
    let mut entry = actor.entry(&at, "submission.withdrawn");
    entry.object_type = Some("submission");
    entry.object_id = Some(&s.submitted.reference);
    entry.details = json!({
        "state": { "before": s.state, "after": "withdrawn" },
        "pending_decision": { "before": s.pending_decision, "after": null },
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    tracing::info!(reference = s.submitted.reference, "submission withdrawn by its author");
    Ok(Withdrawn { reference: s.submitted.reference.clone() })
}
