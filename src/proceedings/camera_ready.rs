//! The author's camera-ready step (issue 44 item 1, DESIGN.md section 18), reached from the
//! private status link of an accepted paper: the final PDF (format-checked on every upload),
//! the paper's details ([`super::details`]) and the licence ([`super::licence`]), accepted by
//! typing the corresponding author's name. Each is an action of its own, so each part can be
//! replaced on its own; each change is audited (`camera_ready.pdf_accepted`,
//! `camera_ready.details_saved`, `camera_ready.licence_accepted`, actor `author`).
//!
//! Every action is refused, storing nothing (not allowed, 409), when the paper is not
//! accepted or was withdrawn, when the proceedings volume is locked, or after
//! `camera_ready_due` (DESIGN.md section 20; unset: the step never closes by date). Those
//! are decided again inside the write's transaction, so a page drawn before a change of
//! any of them stores nothing. A refusal never touches what was accepted before.

use serde_json::json;
use time::OffsetDateTime;

use super::details::{Author, Details, DetailsForm, one_line};
use super::format_check::{self, FormatRules};
use super::licence::LICENCE;
use crate::calendar::deadline::Key;
use crate::calendar::settings::Calendar;
use crate::clock::stamp::timestamp;
use crate::db::{Connection, Pool};
use crate::error::{AppError, Outcome, Refused};
use crate::repo::audit::{self, Actor};
use crate::repo::camera_ready::{self as store, NewDetails, NewPdf, Stored};
use crate::repo::submissions::Submission;

/// What the step holds for a paper now, and whether it takes changes.
#[derive(Debug, Clone)]
pub struct Step {
    pub stored: Option<Stored>,
    /// The stored details, read back.
    pub details: Option<StoredDetails>,
    /// Why no change is taken now (the words a refusal would give); `None` while open.
    pub closed: Option<String>,
    /// `camera_ready_due` in words (`Friday, 28 February 2025, 23:59 Singapore time
    /// (UTC+08:00)`); `None` when unset.
    pub due: Option<String>,
    /// Whether the file, the details and the licence are all in, the licence signed in the
    /// name of the corresponding author the details name now.
    pub complete: bool,
    /// The licence was accepted in the name of someone who is no longer the corresponding
    /// author: it stays stored (nothing accepted is lost) but is asked for again.
    pub licence_stale: bool,
}

/// The details as stored: keywords and authors read from their JSON.
#[derive(Debug, Clone)]
pub struct StoredDetails {
    pub title: String,
    pub abstract_text: String,
    pub keywords: Vec<String>,
    pub authors: Vec<Author>,
}

impl StoredDetails {
    fn of(stored: &Stored) -> Option<StoredDetails> {
        Some(StoredDetails {
            title: stored.title.clone()?,
            abstract_text: stored.abstract_text.clone()?,
            keywords: serde_json::from_str(stored.keywords.as_deref()?).ok()?,
            authors: serde_json::from_str(stored.authors.as_deref()?).ok()?,
        })
    }

    /// The corresponding author.
    pub fn corresponding(&self) -> Option<&Author> {
        self.authors.iter().find(|a| a.corresponding)
    }
}

/// Why `state` has no camera-ready step; `None` for an accepted paper.
fn not_accepted(state: &str) -> Option<String> {
    match state {
        "accepted" => None,
        "withdrawn" => Some("This paper was withdrawn, so it has no camera-ready step and nothing was changed.".into()),
        _ => Some("Only an accepted paper has a camera-ready step, so nothing was changed.".into()),
    }
}

/// Why nothing is taken now: the paper's state, the volume's lock, then the due date.
async fn why_closed(
    conn: &mut Connection,
    calendar: &Calendar,
    now: OffsetDateTime,
    id: i64,
) -> Outcome<Option<String>> {
    let state = store::paper_state(conn, id).await?.unwrap_or_default();
    if let Some(why) = not_accepted(&state) {
        return Ok(Some(why));
    }
    if store::volume_locked(conn).await? {
        return Ok(Some(format!(
            "The organisers have locked the proceedings volume, so nothing was changed. To change your paper now, write to {}.",
            calendar.contact_email
        )));
    }
    Ok(calendar.camera_ready_closed(now))
}

/// The step of `s` at `now`. Refused (not allowed) for a paper that is not accepted or was
/// withdrawn: it has no step to show.
pub async fn step(pool: &Pool, now: OffsetDateTime, s: &Submission) -> Outcome<Step> {
    if let Some(why) = not_accepted(&s.state) {
        return Err(Refused::NotAllowed(why));
    }
    let calendar = Calendar::load(pool).await?;
    let mut conn = pool.acquire().await?;
    let closed = why_closed(&mut conn, &calendar, now, s.id).await?;
    let stored = store::get(&mut conn, s.id).await?;
    let details = stored.as_ref().and_then(StoredDetails::of);
    let signed = stored.as_ref().and_then(|r| r.licence_signed.as_deref());
    let corresponding = details.as_ref().and_then(|d| d.corresponding()).map(|a| a.name.as_str());
    let licence_stale = matches!((signed, corresponding), (Some(signed), Some(now)) if !names(signed, now));
    let licence_current = signed.is_some() && corresponding.is_some() && !licence_stale;
    let complete = stored.as_ref().is_some_and(|r| r.pdf_at.is_some()) && licence_current;
    let due = calendar.entry(Key::CameraReadyDue).when.as_ref().map(|w| w.label());
    Ok(Step { stored, details, closed, due, complete, licence_stale })
}

/// Opens the write's transaction once the step is open for `s` at `now` (refused, not
/// allowed, otherwise).
async fn open(pool: &Pool, now: OffsetDateTime, s: &Submission) -> Outcome<crate::db::Transaction> {
    let calendar = Calendar::load(pool).await?;
    let mut tx = crate::db::begin_write(pool).await?;
    if let Some(why) = why_closed(&mut tx, &calendar, now, s.id).await? {
        return Err(Refused::NotAllowed(why));
    }
    Ok(tx)
}

/// What [`hand_in_pdf`] did: the file stored, with its pages and SHA-256 (hex).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfAccepted {
    pub pages: u32,
    pub bytes: u64,
    pub sha256: String,
    /// Whether it replaced an earlier file.
    pub replaced: bool,
}

/// The author hands in `pdf` (sent as `name`) as `s`'s final version. The format check
/// (`rules`) runs on a blocking thread; a file that fails is refused (invalid, 422) with
/// each failure keyed by its rule and its pages named, and the file accepted before stays.
/// An empty file is refused the same way.
pub async fn hand_in_pdf(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    s: &Submission,
    name: &str,
    pdf: Vec<u8>,
    rules: &FormatRules,
) -> Outcome<PdfAccepted> {
    // Closed steps answer before any work on the file.
    open(pool, now, s).await?.rollback().await?;
    if pdf.is_empty() {
        return Err(Refused::Invalid {
            message: "Choose the PDF file of your final paper; none was sent, so nothing was changed.".into(),
            errors: [("pdf".to_owned(), "Choose a PDF file.".to_owned())].into(),
        });
    }
    let checked_rules = rules.clone();
    let (pdf, report) = tokio::task::spawn_blocking(move || {
        let report = format_check::check(&pdf, &checked_rules);
        (pdf, report)
    })
    .await
    .map_err(|err| AppError::internal("format check", err))?;
    if !report.passed() {
        return Err(Refused::Invalid {
            message: "The PDF does not meet the proceedings' format, so it was not accepted; the file you handed in \
                      before (if any) stays. Please correct each point below and upload it again."
                .into(),
            errors: report.errors(),
        });
    }
    let pages = report.pages.unwrap_or(0);
    let sha256 = hex::encode(ring::digest::digest(&ring::digest::SHA256, &pdf));
    let name = one_line(name).chars().take(200).collect::<String>();
    let at = timestamp(now);
    let mut tx = open(pool, now, s).await?;
    let before = store::get(&mut tx, s.id).await?.and_then(|r| r.pdf_sha256);
    let file = NewPdf { bytes: &pdf, name: &name, pages: i64::from(pages), sha256: &sha256 };
    store::set_pdf(&mut tx, s.id, &file, &at).await?;
    let mut entry = actor.entry(&at, "camera_ready.pdf_accepted");
    entry.object_type = Some("submission");
    entry.object_id = Some(&s.submitted.reference);
    entry.details = json!({
        "name": name, "bytes": pdf.len(), "pages": pages,
        "sha256": { "before": before, "after": sha256 },
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    tracing::info!(reference = s.submitted.reference, pages, "camera-ready PDF accepted");
    Ok(PdfAccepted { pages, bytes: pdf.len() as u64, sha256, replaced: before.is_some() })
}

/// What [`save_details`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetailsSaved {
    pub details: Details,
    /// Whether they replaced earlier ones.
    pub replaced: bool,
}

/// The author sets `s`'s title, abstract, keywords and authors from `form`. Refused
/// (invalid, 422) with every problem keyed by its field ([`DetailsForm::check`]: 3 to 5
/// keywords, a bad ORCID iD, no or two corresponding authors, ...); what was stored before
/// stays. Audited with the values before and after.
pub async fn save_details(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    s: &Submission,
    form: &DetailsForm,
) -> Outcome<DetailsSaved> {
    let mut tx = open(pool, now, s).await?;
    let details = form.check().map_err(|errors| Refused::Invalid {
        message: "Some details need correcting, so nothing was changed; see each point below.".into(),
        errors,
    })?;
    let keywords = serde_json::to_string(&details.keywords).map_err(|e| AppError::internal("keywords", e))?;
    let authors = serde_json::to_string(&details.authors).map_err(|e| AppError::internal("authors", e))?;
    let at = timestamp(now);
    let before = store::get(&mut tx, s.id).await?.and_then(|r| StoredDetails::of(&r));
    let new = NewDetails {
        title: &details.title,
        abstract_text: &details.abstract_text,
        keywords: &keywords,
        authors: &authors,
    };
    store::set_details(&mut tx, s.id, &new, &at).await?;
    let mut entry = actor.entry(&at, "camera_ready.details_saved");
    entry.object_type = Some("submission");
    entry.object_id = Some(&s.submitted.reference);
    entry.details = json!({
        "title": { "before": before.as_ref().map(|b| &b.title), "after": details.title },
        "keywords": { "before": before.as_ref().map(|b| &b.keywords), "after": details.keywords },
        "authors": { "before": before.as_ref().map(|b| &b.authors), "after": details.authors },
        "abstract_changed": before.as_ref().is_none_or(|b| b.abstract_text != details.abstract_text),
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(DetailsSaved { details, replaced: before.is_some() })
}

/// What [`accept_licence`] did: the licence text's version accepted, signed with `signed` at
/// `at` (RFC 3339 UTC).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LicenceAccepted {
    pub version: &'static str,
    pub signed: String,
    pub at: String,
}

/// Whether `typed` names `author` (blanks collapsed, case ignored).
fn names(typed: &str, author: &str) -> bool {
    one_line(typed).to_lowercase() == one_line(author).to_lowercase()
}

/// The author accepts [`LICENCE`] for `s` by typing `typed`, which must be the stored
/// corresponding author's name. Refused (invalid, 422) before the author list is saved or
/// when the name differs; an acceptance stored before stays. Stored with the time and the
/// licence text's version; audited.
pub async fn accept_licence(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    s: &Submission,
    typed: &str,
) -> Outcome<LicenceAccepted> {
    let mut tx = open(pool, now, s).await?;
    let stored = store::get(&mut tx, s.id).await?;
    let Some(corresponding) = stored.as_ref().and_then(StoredDetails::of).and_then(|d| d.corresponding().cloned())
    else {
        return Err(Refused::Invalid {
            message:
                "Save the paper's details with its corresponding author first; the licence is accepted in their name."
                    .into(),
            errors: [("signature".to_owned(), "Save the author list first.".to_owned())].into(),
        });
    };
    if !names(typed, &corresponding.name) {
        return Err(Refused::Invalid {
            message: "The licence is accepted by typing the corresponding author's name exactly as the author list \
                      gives it, so nothing was changed."
                .into(),
            errors: [(
                "signature".to_owned(),
                format!("Type the corresponding author's name, {}.", corresponding.name),
            )]
            .into(),
        });
    }
    let at = timestamp(now);
    let signed = one_line(typed);
    store::set_licence(&mut tx, s.id, LICENCE.version, &signed, &at).await?;
    let mut entry = actor.entry(&at, "camera_ready.licence_accepted");
    entry.object_type = Some("submission");
    entry.object_id = Some(&s.submitted.reference);
    entry.details = json!({
        "licence": LICENCE.name, "version": LICENCE.version, "signed": signed,
        "before": stored.and_then(|r| r.licence_version),
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(LicenceAccepted { version: LICENCE.version, signed, at })
}
