//! An author submits a paper (spec section 3, DESIGN.md section 5): the paper kept under a
//! fresh reference, its row, the author's private status link (issue 21) and both mails
//! (the author's acknowledgement, the organisers' notice with the paper attached), all or
//! nothing. The request is read by `crate::handlers::api::submission`, which checks the
//! fields and the file's type before calling [`submit`].
//!
//! On SQLite the file is moved to `DATA_DIR/papers/<reference>.<ext>` first, then the row and
//! both mails are written in one transaction; if that fails the moved file is removed again,
//! so nothing is half stored. On PostgreSQL the paper goes into the database instead
//! (`repo::papers`), in the row's transaction, so every instance has it; there the row is
//! where a reference drawn twice shows, and another one is drawn.
//!
//! A submission writes no audit entry: the author holds no account, and the submission's
//! history on the organisers' page starts with its row.

use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;
use time::OffsetDateTime;

use super::mails::compose_mails;
use crate::base::secrets::Secret;
use crate::clock::stamp::timestamp;
use crate::config::Config;
use crate::db::{Engine, Pool};
use crate::error::{AppError, Outcome, Refused};
use crate::mail;
use crate::papers::files::{PAPERS_DIR, new_reference, upload_name};
use crate::papers::filetype::PaperKind;
use crate::repo::decisions as submission_links;
use crate::repo::papers;
use crate::repo::submissions::{self, NewSubmission};

/// A paper as received: in a temporary file in `DATA_DIR/papers`, removed when dropped.
#[derive(Debug)]
pub struct Upload {
    pub temp: NamedTempFile,
    /// Bytes.
    pub size: u64,
    /// The client's file name, as sent.
    pub file_name: String,
}

/// What [`submit`] stored: the row `id` and the paper's `reference` (e.g. `P-2025-7KQ4M9`),
/// which both mails quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted {
    pub id: i64,
    pub reference: String,
}

/// Refused as [`Refused::NotAllowed`] (409) once `paper_due_date` has passed at `now`
/// (DESIGN.md section 20); the message says so and whom to write to. The handler asks before
/// a byte of the paper is read, and [`submit`] again.
pub async fn open(pool: &Pool, now: OffsetDateTime) -> Outcome<()> {
    let closed = crate::calendar::gates::submissions_closed(pool, now)
        .await
        .map_err(|e| AppError::internal("the paper deadline", e))?;
    match closed {
        Some(message) => Err(Refused::NotAllowed(message)),
        None => Ok(()),
    }
}

/// Stores the paper `upload` of type `kind` with its checked `fields` at `now`: the file under a fresh
/// reference (`DATA_DIR/papers`, or the database on PostgreSQL), the row, the author's status
/// link (only its hash is stored) and both mails queued, the acknowledgement only while the
/// address is within 3 a day (DESIGN.md section 5).
///
/// Refused after the paper deadline ([`open`]); any failure to store is
/// [`Refused::Failed`] (500), with nothing kept.
pub async fn submit(
    pool: &Pool,
    config: &Config,
    now: OffsetDateTime,
    fields: NewSubmission,
    upload: Upload,
    kind: PaperKind,
) -> Outcome<Submitted> {
    open(pool, now).await?;
    let store = Store { pool, config, now };
    let ctx = mail::Context::load(pool, config).await.map_err(|e| internal("loading the site for mail", e))?;
    let papers = config.data_dir.join(PAPERS_DIR);
    // SQLite: the file in place first; PostgreSQL: the temporary file is copied in with the row.
    let (reference, stored, temp) = match Engine::of_pool(pool) {
        Engine::Sqlite => {
            let (reference, stored) = persist(upload.temp, &papers, kind).await?;
            (reference, Some(stored), None)
        }
        Engine::Postgres => (new_reference(), None, Some(upload.temp)),
    };

    let mut new = NewSubmission {
        file_type: kind.mime().to_owned(),
        file_size: i64::try_from(upload.size).unwrap_or(i64::MAX),
        ..fields
    };
    name_by_reference(&mut new, &reference, &upload.file_name, kind);
    let written = match temp {
        // The paper goes in with the row: a reference drawn twice (1 in 10^9 a pair) is drawn
        // again instead of failing the author's submission.
        Some(temp) => {
            let (ctx, paper, store) = (&ctx, temp.path(), &store);
            retry_taken_reference(&mut new, &upload.file_name, kind, new_reference, |attempt| async move {
                store.write_row_and_mails(ctx, &attempt, Some(paper)).await
            })
            .await
        }
        // The file's name already holds the reference, and `persist` never reuses the name of
        // a stored paper: a taken reference here is a row whose paper is gone, kept as it is.
        None => store.write_row_and_mails(&ctx, &new, None).await.map_err(Written::into_refusal),
    };
    match written {
        Ok(id) => Ok(Submitted { id, reference: new.reference }),
        Err(err) => {
            // Neither a stray file nor a row without its file (DESIGN.md section 5).
            let Some(stored) = stored else { return Err(err) };
            if let Err(remove) = tokio::fs::remove_file(&stored).await {
                tracing::error!(path = %stored.display(), error = %remove, "could not remove a paper whose row failed");
            }
            Err(err)
        }
    }
}

/// A failure to store, as a 500 doing `context`.
fn internal(context: &'static str, err: impl std::error::Error + Send + Sync + 'static) -> Refused {
    Refused::Failed(AppError::internal(context, err))
}

/// Renames the temporary file to `papers/<reference>.<ext>` under a fresh reference (a
/// reference whose file exists already is never reused) and makes the rename durable.
async fn persist(temp: NamedTempFile, papers: &Path, kind: PaperKind) -> Result<(String, PathBuf), Refused> {
    let papers = papers.to_path_buf();
    tokio::task::spawn_blocking(move || -> std::io::Result<(String, PathBuf)> {
        std::fs::create_dir_all(&papers)?;
        let mut temp = temp;
        let mut attempts = 0;
        loop {
            let reference = new_reference();
            let target = papers.join(format!("{reference}.{}", kind.extension()));
            match temp.persist_noclobber(&target) {
                Ok(_) => {
                    // The rename itself on disk (the folder's entry), not only the bytes.
                    #[cfg(unix)]
                    std::fs::File::open(&papers)?.sync_all()?;
                    return Ok((reference, target));
                }
                Err(err) if err.error.kind() == std::io::ErrorKind::AlreadyExists && attempts < 5 => {
                    attempts += 1;
                    temp = err.file;
                }
                Err(err) => return Err(err.error),
            }
        }
    })
    .await
    .map_err(|e| internal("storing the paper", e))?
    .map_err(|e| internal("storing the paper", e))
}

/// The reference and what is named after it: the stored file and, when the upload's own name
/// has nothing usable, the attachment's name.
fn name_by_reference(new: &mut NewSubmission, reference: &str, sent_name: &str, kind: PaperKind) {
    new.reference = reference.to_owned();
    new.file_path = format!("{PAPERS_DIR}/{reference}.{}", kind.extension());
    new.file_name = upload_name(sent_name, reference, kind);
}

/// Why a row was not written: its reference is taken, or any other refusal.
#[derive(Debug)]
enum Written {
    ReferenceTaken,
    Refused(Refused),
}

impl Written {
    fn into_refusal(self) -> Refused {
        match self {
            Written::ReferenceTaken => {
                internal("storing the submission", std::io::Error::other("the paper's reference is taken"))
            }
            Written::Refused(refusal) => refusal,
        }
    }
}

impl From<Refused> for Written {
    fn from(refusal: Refused) -> Self {
        Written::Refused(refusal)
    }
}

/// Draws a new reference while `write` finds the current one taken, at most
/// [`REFERENCE_ATTEMPTS`] references in all; what is named after the reference follows it
/// ([`name_by_reference`]).
async fn retry_taken_reference<W>(
    new: &mut NewSubmission,
    sent_name: &str,
    kind: PaperKind,
    mut draw: impl FnMut() -> String,
    mut write: impl FnMut(NewSubmission) -> W,
) -> Result<i64, Refused>
where
    W: Future<Output = Result<i64, Written>>,
{
    let mut attempt = 1;
    loop {
        match write(new.clone()).await {
            Err(Written::ReferenceTaken) if attempt < REFERENCE_ATTEMPTS => {
                tracing::warn!(reference = new.reference, "paper reference drawn twice; drawing another");
                attempt += 1;
                name_by_reference(new, &draw(), sent_name, kind);
            }
            other => return other.map_err(Written::into_refusal),
        }
    }
}

/// References drawn for one submission before it fails (each is taken with a chance of about
/// stored papers / 10^9).
const REFERENCE_ATTEMPTS: u32 = 5;

/// Where and when [`submit`] stores: the pool, the configuration (the status link's base URL)
/// and the time of the submission.
struct Store<'a> {
    pool: &'a Pool,
    config: &'a Config,
    now: OffsetDateTime,
}

impl Store<'_> {
    /// `paper`: the temporary file to copy into the database with the row (PostgreSQL), or
    /// `None` when the file is already in place under `DATA_DIR` (SQLite).
    async fn write_row_and_mails(
        &self,
        ctx: &mail::Context,
        new: &NewSubmission,
        paper: Option<&Path>,
    ) -> Result<i64, Written> {
        // The author's private status link (issue 21): only its hash is stored.
        let link = Secret::generate();
        let status_link = super::status_link::status_link(self.config, &link.token);
        let (ack, notice) =
            compose_mails(ctx, new, status_link).map_err(|e| internal("rendering the submission mails", e))?;
        let db = |e| internal("storing the submission", e);
        let mut tx = crate::db::begin_write(self.pool).await.map_err(db)?;
        let id = match submissions::insert(&mut tx, new).await {
            Ok(id) => id,
            Err(err) if submissions::is_reference_taken(&err) => return Err(Written::ReferenceTaken),
            Err(err) => return Err(db(err).into()),
        };
        submission_links::add_link(&mut tx, id, &link.hash, &timestamp(self.now)).await.map_err(db)?;
        if let Some(paper) = paper {
            let mut file = tokio::fs::File::open(paper).await.map_err(|e| internal("reading the uploaded paper", e))?;
            papers::store(&mut tx, id, &mut file).await.map_err(db)?;
        }
        // At most 3 acknowledgements per address a day (DESIGN.md section 5): the paper is stored
        // and the organisers told either way.
        if mail::consent::take_acknowledgement(&mut tx, &new.email).await.map_err(db)? {
            mail::enqueue(&mut tx, &ack).await.map_err(db)?;
        } else {
            tracing::warn!(
                reference = new.reference,
                "submission acknowledgement not sent: limit reached for the address"
            );
        }
        mail::enqueue(&mut tx, &notice).await.map_err(db)?;
        tx.commit().await.map_err(db)?;
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn submission(reference: &str, sent_name: &str) -> NewSubmission {
        let mut new = NewSubmission {
            reference: String::new(),
            name: "Ana Cruz".into(),
            number: "+639171234567".into(),
            email: "ana.cruz@example.org".into(),
            country: "Philippines".into(),
            author_name: "Ana Cruz".into(),
            co_author_name: String::new(),
            paper_title: "Solar".into(),
            department: "Physics".into(),
            university_organization: "UP".into(),
            paper_type: "Full Paper".into(),
            presentation_type: "Oral".into(),
            message: String::new(),
            conference_source: "Website".into(),
            file_path: String::new(),
            file_name: String::new(),
            file_type: PaperKind::Pdf.mime().into(),
            file_size: 1,
        };
        name_by_reference(&mut new, reference, sent_name, PaperKind::Pdf);
        new
    }

    /// A writer that finds the first `taken` references taken, then stores; it records the
    /// references it was given.
    fn writer(
        taken: usize,
        seen: &std::sync::Mutex<Vec<NewSubmission>>,
    ) -> impl FnMut(NewSubmission) -> std::future::Ready<Result<i64, Written>> {
        move |attempt| {
            let mut seen = seen.lock().unwrap();
            seen.push(attempt);
            std::future::ready(if seen.len() <= taken { Err(Written::ReferenceTaken) } else { Ok(42) })
        }
    }

    #[tokio::test]
    async fn a_taken_reference_is_drawn_again_and_the_paper_named_after_the_new_one() {
        let drawn = ["P-2025-BBBBBB", "P-2025-CCCCCC"];
        let mut draws = drawn.iter().map(|r| r.to_string());
        let seen = std::sync::Mutex::new(Vec::new());
        let mut new = submission("P-2025-AAAAAA", "");
        let id = retry_taken_reference(&mut new, "", PaperKind::Pdf, || draws.next().unwrap(), writer(2, &seen)).await;
        assert_eq!(id.ok(), Some(42));
        let seen = seen.into_inner().unwrap();
        let tried: Vec<&str> = seen.iter().map(|s| s.reference.as_str()).collect();
        assert_eq!(tried, ["P-2025-AAAAAA", "P-2025-BBBBBB", "P-2025-CCCCCC"]);
        assert_eq!(new.reference, "P-2025-CCCCCC", "the answer quotes the stored reference");
        assert_eq!(new.file_path, "papers/P-2025-CCCCCC.pdf");
        assert_eq!(new.file_name, "P-2025-CCCCCC.pdf", "a nameless upload is named after the reference");

        let seen = std::sync::Mutex::new(Vec::new());
        let mut named = submission("P-2025-AAAAAA", "My paper.pdf");
        let mut draws = drawn.iter().map(|r| r.to_string());
        retry_taken_reference(&mut named, "My paper.pdf", PaperKind::Pdf, || draws.next().unwrap(), writer(1, &seen))
            .await
            .expect("stored on the second reference");
        assert_eq!((named.reference.as_str(), named.file_name.as_str()), ("P-2025-BBBBBB", "My paper.pdf"));
    }

    #[tokio::test]
    async fn a_reference_taken_every_time_fails_after_a_few_draws() {
        let seen = std::sync::Mutex::new(Vec::new());
        let mut new = submission("P-2025-AAAAAA", "");
        let result =
            retry_taken_reference(&mut new, "", PaperKind::Pdf, new_reference, writer(usize::MAX, &seen)).await;
        assert!(matches!(result, Err(Refused::Failed(_))), "{result:?}");
        assert_eq!(seen.into_inner().unwrap().len(), REFERENCE_ATTEMPTS as usize);
    }
}
