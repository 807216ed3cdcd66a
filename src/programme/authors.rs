//! What an author sets for the programme through the private status link (issue 31 item 6):
//! an accepted paper's public abstract and presenter, until the programme is locked. The
//! actor is the audit log's `author` (`crate::decisions::authors::author`); the status link
//! itself is `crate::decisions::authors`.

use std::borrow::Cow;

use serde_json::json;
use time::OffsetDateTime;

use super::abstracts::check_abstract;
use super::draft::{self, Paper};
use crate::clock::stamp::timestamp;
use crate::db::Pool;
use crate::error::{AppError, Outcome, Refused};
use crate::repo::audit::{self, Actor};
use crate::repo::programme as programme_store;
use crate::repo::submissions::Submission;

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
