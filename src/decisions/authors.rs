//! What an author does through the private status link (issue 21, DESIGN.md section 12
//! "Decisions"; issue 31 item 6): the submission the link opens, withdrawing it before a
//! decision is applied, and an accepted paper's public abstract and presenter until the
//! programme is locked. The actor is the audit log's `author` ([`author`]): the link's holder
//! is not named, and no client address is kept for them.

use std::borrow::Cow;

use serde_json::json;
use time::OffsetDateTime;

use crate::db::Pool;
use crate::error::{AppError, Outcome, Refused};
use crate::mail::outbox::timestamp;
use crate::programme::abstracts::check_abstract;
use crate::programme::draft::{self, Paper};
use crate::repo::audit::{self, AUTHOR, Actor};
use crate::repo::decisions as store;
use crate::repo::programme as programme_store;
use crate::repo::review_records;
use crate::repo::submissions::Submission;
use crate::review::for_authors::AuthorComments;
use crate::sign_in::secrets;

/// The holder of a status link as the audit log names them.
pub fn author() -> Actor {
    Actor { email: AUTHOR.to_owned(), client: None }
}

/// The submission `token` opens; `None` for a malformed or unknown token (the token is the
/// only key: only its SHA-256 is stored, `crate::sign_in::secrets`).
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

/// An accepted paper's public abstract and presenter as the programme shows them (the
/// stored presenter if one of the authors, else the first author), its authors to choose
/// from, and whether the programme is locked (no form then).
#[derive(Debug, Clone)]
pub struct PublicDetails {
    pub text: String,
    pub presenter: String,
    pub authors: Vec<String>,
    pub locked: bool,
}

/// [`PublicDetails`] of `s` as stored now.
pub async fn public_details(pool: &Pool, s: &Submission) -> Outcome<PublicDetails> {
    let (text, presenter) = programme_store::public_fields(pool, s.id).await?;
    let paper = Paper::of(s, &presenter, &text);
    let locked = programme_store::locked(pool).await?.is_some();
    Ok(PublicDetails { text: paper.r#abstract, presenter: paper.presenter, authors: paper.authors, locked })
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

/// The public details' form as posted, each field at most once: `version` the page was drawn
/// from, `abstract`, `presenter` (one of the authors' names).
#[derive(Debug, Clone, Default)]
pub struct PublicForm {
    pub version: Option<String>,
    pub text: String,
    pub presenter: Option<String>,
}

impl PublicForm {
    /// Reads `version`, `abstract` and `presenter` from a form's (name, value) pairs; other
    /// fields are ignored. A field sent twice is the 400's message (nothing is guessed).
    pub fn read<'a>(pairs: impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)>) -> Result<PublicForm, &'static str> {
        let mut form = PublicForm::default();
        let mut seen: Vec<Cow<'a, str>> = Vec::new();
        for (name, value) in pairs {
            if !["version", "abstract", "presenter"].contains(&name.as_ref()) {
                continue;
            }
            if seen.contains(&name) {
                return Err(
                    "The form sent a field more than once, so nothing was saved. Please use the form on this page.",
                );
            }
            match name.as_ref() {
                "version" => form.version = Some(value.trim().to_owned()),
                "abstract" => form.text = value.into_owned(),
                _ => form.presenter = Some(value.into_owned()),
            }
            seen.push(name);
        }
        Ok(form)
    }
}

/// Whether `s` takes a public abstract and presenter now: refused (not allowed, 409) unless
/// it is accepted and the programme is not locked.
pub async fn public_details_open(pool: &Pool, s: &Submission) -> Outcome<()> {
    if s.state != "accepted" {
        return Err(Refused::NotAllowed(
            "Only an accepted paper has a public abstract and presenter, so nothing was saved.".into(),
        ));
    }
    if programme_store::locked(pool).await?.is_some() {
        return Err(Refused::NotAllowed(
            "The organisers have locked the programme, so nothing was saved. Please write to the organisers to change your talk's public abstract or presenter."
                .into(),
        ));
    }
    Ok(())
}

/// What [`set_public`] stored: the abstract as checked (trimmed, line ends `\n`) and the
/// presenter as the authors' list spells the name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicSet {
    pub text: String,
    pub presenter: String,
}

/// Sets accepted paper `s`'s public abstract (at most 300 words,
/// `crate::programme::abstracts`) and presenter (one of its authors) from `form`, audited as
/// `programme.paper_edited` with both before and after.
///
/// Refused as not allowed ([`public_details_open`]); with a 400 (`Refused::Failed`, the
/// author's form shown again) for a missing version, an abstract too long or a presenter
/// who is not an author; as stale when the form's version is not the row's, before or while
/// storing (nothing of it is kept).
pub async fn set_public(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    s: &Submission,
    form: &PublicForm,
) -> Outcome<PublicSet> {
    public_details_open(pool, s).await?;
    let bad = |message: String| Refused::Failed(AppError::BadRequest(message));
    let Some(version) = form.version.as_deref().and_then(|v| v.parse::<i64>().ok()) else {
        return Err(bad("The form did not say which version of the page it came from, so nothing was saved. Please use the form on this page.".into()));
    };
    let text = check_abstract(&form.text).map_err(|err| bad(format!("{err} Nothing was saved.")))?;
    let authors = draft::authors(&s.submitted.author_name, &s.submitted.co_author_name);
    let chosen = form.presenter.as_deref().map(str::trim).unwrap_or_default();
    let Some(presenter) = authors.iter().find(|a| a.eq_ignore_ascii_case(chosen)).cloned() else {
        return Err(bad(format!(
            "Choose who presents the talk among the paper's authors ({}). Nothing was saved.",
            authors.join(", ")
        )));
    };
    let stale = || {
        Refused::Stale("These details were changed since this page was opened (in another window, or by the organisers), so nothing was saved. Here they are as they are now.".into())
    };
    if version != s.version {
        return Err(stale());
    }
    let (text_before, presenter_before) = programme_store::public_fields(pool, s.id).await?;
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    programme_store::set_public_fields(&mut tx, s.id, &text, &presenter).await?;
    // The version now is one more than the form's unless someone changed the row meanwhile:
    // then nothing of this is kept.
    if programme_store::version_of(&mut tx, s.id).await? != Some(version + 1) {
        tx.rollback().await?;
        return Err(stale());
    }
    let mut entry = actor.entry(&at, "programme.paper_edited");
    entry.object_type = Some("submission");
    entry.object_id = Some(&s.submitted.reference);
    entry.details = json!({
        "public_abstract": { "before": text_before, "after": text },
        "presenter": { "before": presenter_before, "after": presenter },
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    tracing::info!(reference = s.submitted.reference, "public abstract and presenter set by the author");
    Ok(PublicSet { text, presenter })
}
