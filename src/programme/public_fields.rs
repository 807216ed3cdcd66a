//! What the programme shows of a paper besides its title and authors, its public abstract and
//! presenter, and the lock on authors' edits of them (issue 31 items 4 and 6, DESIGN.md
//! section 14), as organisers see and change them. Authors edit the same fields from their
//! status page until an organiser locks them ([`set_lock`]); organisers may edit them
//! ([`edit_paper`]) whether or not they are locked. Each action is one write transaction
//! with its audit entry; the SQL is `crate::repo::programme`.

use serde_json::json;
use time::OffsetDateTime;

use super::abstracts;
use super::changes::{slot_label, talk_slot};
use super::draft::Paper;
use super::placing::{Placed, form_refused, record_on_submission};
use super::publish::Workbench;
use crate::clock::stamp::timestamp;
use crate::db::Pool;
use crate::error::{Outcome, Refused};
use crate::forms::validate::shown;
use crate::repo::audit::{self, Actor};
use crate::repo::programme as store;
use crate::repo::submissions as rows;

/// What [`set_lock`] did: `locked` is the state now; `changed` is false when it already was
/// so (another organiser, a second click), and then nothing was stored or audited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lock {
    pub locked: bool,
    pub changed: bool,
}

/// The lock form's `lock`: `yes` (lock) or `no` (unlock); refused (400) otherwise.
pub fn lock_wanted(typed: &str) -> Outcome<bool> {
    match typed {
        "yes" => Ok(true),
        "no" => Ok(false),
        other => Err(form_refused(format!("\"lock\" must be \"yes\" or \"no\", not \"{}\".", shown(other)))),
    }
}

/// Stops (`lock`) or allows again authors' edits of their public abstract and presenter,
/// recording when and by whom. Audited as `programme.locked` or `programme.unlocked`.
pub async fn set_lock(pool: &Pool, now: OffsetDateTime, actor: &Actor, lock: bool) -> Outcome<Lock> {
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let before = store::locked(&mut *tx).await?;
    if before.is_some() == lock {
        return Ok(Lock { locked: lock, changed: false });
    }
    store::set_locked(&mut tx, lock.then_some((at.as_str(), actor.email.as_str()))).await?;
    let mut entry = actor.entry(&at, if lock { "programme.locked" } else { "programme.unlocked" });
    entry.details = json!({ "locked": { "before": before.is_some(), "after": lock } });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Lock { locked: lock, changed: true })
}

/// An accepted or placed paper as its page on `/organiser/programme/papers/...` shows it.
#[derive(Debug, Clone)]
pub struct PaperView {
    pub paper: Paper,
    /// Where it is placed in the draft: "Fixture session A, Room, 2025-03-22 09:00–09:15".
    pub placed: Option<String>,
    /// The stored public abstract (empty until written).
    pub public_abstract: String,
    /// The chosen presenter, or the paper's first author when none was chosen.
    pub presenter: String,
    /// Authors' edits locked: (when, RFC 3339 UTC; by whom).
    pub lock: Option<(String, String)>,
}

/// Paper `reference` with its public fields and place. Refused as not found (404) for an
/// unknown reference, and with 400 for a paper the programme cannot show (not accepted and
/// not placed).
pub async fn paper_view(pool: &Pool, reference: &str) -> Outcome<PaperView> {
    let (bench, paper) = programme_paper(pool, reference).await?;
    let placed = bench.draft.talks.iter().find(|t| t.submission == Some(paper.id)).map(|t| {
        let slot = talk_slot(&bench.draft, t);
        slot_label(&slot)
    });
    let (public_abstract, stored_presenter) = store::public_fields(pool, paper.id).await?;
    let presenter = if stored_presenter.is_empty() { paper.presenter.clone() } else { stored_presenter };
    let lock = store::locked(pool).await?;
    Ok(PaperView { paper, placed, public_abstract, presenter, lock })
}

/// Saves paper `reference`'s public abstract (`typed_abstract`, [`abstracts::check_abstract`])
/// and presenter (`chosen`, one of its authors, in any case). Audited as
/// `programme.paper_edited` with both fields before and after; nothing when they are unchanged.
///
/// Refused as [`paper_view`] refuses, and with 400 for an abstract too long or a presenter
/// who is not an author.
pub async fn edit_paper(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    reference: &str,
    typed_abstract: &str,
    chosen: &str,
) -> Outcome<Placed> {
    let (_, paper) = programme_paper(pool, reference).await?;
    let text = abstracts::check_abstract(typed_abstract).map_err(|e| form_refused(e.to_string()))?;
    let Some(presenter) = paper.authors.iter().find(|a| a.eq_ignore_ascii_case(chosen)).cloned() else {
        return Err(form_refused(format!(
            "\"{}\" is not an author of this paper. Choose one of: {}.",
            shown(chosen),
            paper.authors.join(", ")
        )));
    };
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let (abstract_before, presenter_before) = store::public_fields(&mut *tx, paper.id).await?;
    if abstract_before == text && presenter_before == presenter {
        return Ok(Placed { reference: paper.reference, changed: false });
    }
    store::set_public_fields(&mut tx, paper.id, &text, &presenter).await?;
    let details = json!({
        "presenter": { "before": presenter_before, "after": presenter },
        "public_abstract": { "before": abstract_before, "after": text },
    });
    record_on_submission(&mut tx, actor, &at, "programme.paper_edited", &paper.reference, details).await?;
    tx.commit().await?;
    Ok(Placed { reference: paper.reference, changed: true })
}

/// The accepted or placed paper `reference` (what the programme may show) and the workbench
/// it was found in.
async fn programme_paper(pool: &Pool, reference: &str) -> Outcome<(Workbench, Paper)> {
    let Some(submission) = rows::by_reference(pool, reference).await? else {
        return Err(Refused::NotFound(format!("No submission has the reference {}.", shown(reference))));
    };
    let bench = Workbench::load(pool).await?;
    let Some(paper) = bench.papers.iter().find(|p| p.id == submission.id).cloned() else {
        return Err(form_refused(format!(
            "Submission {} is {}; only accepted papers have a public abstract and presenter.",
            submission.submitted.reference,
            crate::repo::submissions::state_label(&submission.state).to_lowercase()
        )));
    };
    Ok((bench, paper))
}
