//! Organisers stage a pending decision (issue 21, DESIGN.md section 12 "Decisions"): on one
//! submission from its page (with a note for the author's mail), or on a selection of the
//! list after reviewing it. Nobody is mailed until the pending decisions are applied
//! (`super::apply`).
//!
//! Every item is `(reference, version)`, the version the organiser saw: each change is a
//! conditional `UPDATE` on it (`crate::repo::decisions::set_pending`), so a form drawn before
//! someone else's change is refused as stale and, for a selection, none of its rows changes.

use serde_json::json;
use time::OffsetDateTime;

use super::states::{Decision, shown, state_label};
use crate::clock::stamp::timestamp;
use crate::db::Pool;
use crate::error::{AppError, Outcome, Refused};
use crate::repo::audit::{self, Actor};
use crate::repo::decisions as store;
use crate::repo::submissions as rows;

/// Why a well-made decision form changed nothing: the refusal's words
/// ([`Why::message`]), and where the organisers' pages say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// One submission's page was drawn before someone else's change.
    Changed,
    /// A selection held a row changed since the list was drawn.
    Selection,
    /// The author withdrew the paper: it takes no decision.
    Withdrawn,
    /// A previewed pending decision changed before the apply (`super::apply`).
    Preview,
}

impl Why {
    /// What the organiser is told about submission `r`, word for word.
    pub fn message(self, r: &str) -> String {
        match self {
            Why::Changed => format!(
                "Submission {r} was changed by someone else since this page was loaded, so nothing was changed. \
                 Open it as it is now and decide again."
            ),
            Why::Selection => format!(
                "Submission {r} was changed by someone else since the list was loaded, so none of the selected \
                 submissions was changed. Open the list again and decide again."
            ),
            Why::Withdrawn => {
                format!("Submission {r} was withdrawn by its author; it takes no decision. Nothing was changed.")
            }
            Why::Preview => format!(
                "The pending decision of {r} changed since this preview was loaded, so nothing was applied \
                 and nobody was mailed. Open the preview again."
            ),
        }
    }

    /// The refusal of `reference` for this reason: not allowed for a withdrawn paper, stale
    /// otherwise (both 409).
    pub fn refuse(self, reference: &str) -> Refused {
        match self {
            Why::Withdrawn => Refused::NotAllowed(self.message(reference)),
            _ => Refused::Stale(self.message(reference)),
        }
    }

    /// The item of `items` that `refused` names, with the reason, when it is one of this
    /// area's refusals of an item (a handler answers those with a page of their own).
    pub fn of<'a>(refused: &Refused, items: &'a [(String, i64)], stale: Why) -> Option<(&'a str, Why)> {
        let (message, why) = match refused {
            Refused::NotAllowed(message) => (message, Why::Withdrawn),
            Refused::Stale(message) => (message, stale),
            _ => return None,
        };
        items.iter().map(|(reference, _)| reference.as_str()).find(|r| why.message(r) == *message).map(|r| (r, why))
    }
}

/// Most rows one decision form may name (a conference's whole programme fits).
pub const ITEMS_MAX: usize = 2000;

/// A form's decision: `accepted`, `rejected`, or `none` (clear the pending one); anything
/// else, or nothing chosen, is a 400.
pub fn decision(value: &str) -> Outcome<Option<Decision>> {
    let bad = |message: &str| Refused::Failed(AppError::BadRequest(message.to_owned()));
    match value {
        "" => {
            Err(bad("No decision was chosen. Choose Accept, Reject or \"Clear the pending decision\", then try again."))
        }
        "none" => Ok(None),
        other => Decision::parse(other)
            .map(Some)
            .ok_or_else(|| bad("The decision must be \"accepted\", \"rejected\" or \"none\".")),
    }
}

/// A form's selected items, each `<reference>:<version>`: at least one and at most
/// [`ITEMS_MAX`], each reference once (the first wins); anything else is a 400.
pub fn items<'a>(values: impl Iterator<Item = &'a str>) -> Outcome<Vec<(String, i64)>> {
    let bad = |message: String| Refused::Failed(AppError::BadRequest(message));
    let mut items: Vec<(String, i64)> = Vec::new();
    for value in values {
        let parsed = value
            .rsplit_once(':')
            .and_then(|(reference, version)| Some((reference.to_owned(), version.parse::<i64>().ok()?)))
            .filter(|(reference, _)| !reference.is_empty() && reference.len() <= 40);
        let Some(item) = parsed else {
            return Err(bad(format!("\"{}\" is not a selected submission (reference:version).", shown(value))));
        };
        if !items.iter().any(|(r, _)| *r == item.0) {
            items.push(item);
        }
    }
    if items.is_empty() {
        return Err(bad("No submission is selected. Tick at least one row.".into()));
    }
    if items.len() > ITEMS_MAX {
        return Err(bad(format!("At most {ITEMS_MAX} submissions can be decided at once.")));
    }
    Ok(items)
}

/// What [`stage`] did: every item now has `decision` as its pending decision (`None`:
/// cleared), `count` rows in all, each audited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Staged {
    pub decision: Option<Decision>,
    pub count: usize,
}

impl Staged {
    /// What the list says after a selection was staged.
    pub fn notice(&self) -> String {
        let count = self.count;
        let rows = if count == 1 { "1 submission".to_owned() } else { format!("{count} submissions") };
        let have = if count == 1 { "has" } else { "have" };
        match self.decision {
            Some(d) => format!(
                "{rows} now {have} the pending decision \"{}\". Nobody is mailed until the decisions are applied.",
                d.verb()
            ),
            None => format!("{rows} now {have} no pending decision."),
        }
    }
}

/// What a submission's page says after its pending decision (`pending`, `None`: cleared) was
/// saved: that nobody is mailed yet.
pub fn saved(pending: Option<Decision>) -> String {
    match pending {
        Some(d) => {
            format!("The pending decision \"{}\" is saved. Nobody is mailed until the decisions are applied.", d.verb())
        }
        None => "Saved: this submission has no pending decision.".to_owned(),
    }
}

/// Stages `decision` (`None` clears it) with `note` on each of `items` (`(reference,
/// version)`, at least one) in one transaction, each audited as
/// `submission.decision_staged` with the pending decision and note before and after.
///
/// Refused, with nothing stored, when an item is unknown (not found), withdrawn (not
/// allowed, [`Why::Withdrawn`]), changed since its version (stale, `stale` says why: one
/// page's [`Why::Changed`] or a selection's [`Why::Selection`]), or already in the state
/// asked for at that version (a 400: the form offered nothing to change).
pub async fn stage(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    items: &[(String, i64)],
    decision: Option<Decision>,
    note: &str,
    stale: Why,
) -> Outcome<Staged> {
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    for (reference, version) in items {
        let Some(before) = rows::by_reference(pool, reference).await? else {
            return Err(Refused::NotFound(format!("No submission has the reference {}.", shown(reference))));
        };
        if before.state == "withdrawn" {
            return Err(Why::Withdrawn.refuse(reference));
        }
        if decision.is_some_and(|d| d.as_str() == before.state) && before.version == *version {
            return Err(Refused::Failed(AppError::BadRequest(format!(
                "Submission {reference} is {} already. Nothing was changed.",
                state_label(&before.state).to_lowercase()
            ))));
        }
        if store::set_pending(&mut tx, reference, *version, decision.map(Decision::as_str), note).await?.is_none() {
            return Err(stale.refuse(reference));
        }
        let mut entry = actor.entry(&at, "submission.decision_staged");
        entry.object_type = Some("submission");
        entry.object_id = Some(reference);
        entry.details = json!({
            "pending_decision": { "before": before.pending_decision, "after": decision.map(Decision::as_str) },
            "note": { "before": before.decision_note, "after": note },
        });
        audit::record(&mut tx, &entry).await?;
    }
    tx.commit().await?;
    Ok(Staged { decision, count: items.len() })
}
