//! `conference::submissions::submit`: an author submitting a paper, kept with its row, its status
//! link and both mails, or refused once the paper deadline has passed with nothing kept.

use std::io::Write;

use conference::error::Refused;
use conference::papers::files::{UPLOAD_TEMP_PREFIX, UPLOAD_TEMP_SUFFIX};
use conference::papers::filetype::PaperKind;
use conference::repo::submissions::NewSubmission;
use conference::submissions::submit::{self, Upload};
use time::OffsetDateTime;
use time::macros::datetime;

use crate::api_submission::{assert_nothing_stored, pdf_of_size};
use crate::common::{TestApp, app};

/// Before the fixture's paper deadline (18 March 2099).
const OPEN: OffsetDateTime = datetime!(2025-02-24 10:00 +08:00);
/// The day after it.
const CLOSED: OffsetDateTime = datetime!(2099-03-20 00:00 +08:00);

fn details() -> NewSubmission {
    NewSubmission {
        name: "Ana Cruz".into(),
        number: "+639171234567".into(),
        email: "ana.cruz@example.org".into(),
        country: "Philippines".into(),
        author_name: "Ana Cruz".into(),
        co_author_name: "Ben Reyes".into(),
        paper_title: "Tides of the Lantern Coast".into(),
        department: "Physics".into(),
        university_organization: "University of Manila".into(),
        paper_type: "Full Paper".into(),
        presentation_type: "Oral".into(),
        message: "Thank you.".into(),
        conference_source: "Website".into(),
        ..NewSubmission::default()
    }
}

/// A PDF received as the handler receives one: a temporary file in `DATA_DIR/papers`.
fn upload(app: &TestApp, bytes: &[u8]) -> Upload {
    let dir = app.dir.path().join("papers");
    std::fs::create_dir_all(&dir).unwrap();
    let mut temp =
        tempfile::Builder::new().prefix(UPLOAD_TEMP_PREFIX).suffix(UPLOAD_TEMP_SUFFIX).tempfile_in(&dir).unwrap();
    temp.write_all(bytes).unwrap();
    Upload { temp, size: bytes.len() as u64, file_name: "tides.pdf".into() }
}

#[tokio::test]
async fn a_paper_after_the_deadline_is_refused_and_nothing_is_kept() {
    let app = app().await;
    let audited = app.count("audit_log").await;
    assert!(matches!(submit::open(&app.pool, CLOSED).await, Err(Refused::NotAllowed(_))));
    let paper = upload(&app, &pdf_of_size(2048));
    let refused = submit::submit(&app.pool, &app.config, CLOSED, details(), paper, PaperKind::Pdf).await;
    match refused {
        Err(Refused::NotAllowed(message)) => assert!(message.contains("closed"), "{message}"),
        other => panic!("refused as not allowed, got {other:?}"),
    }
    assert_nothing_stored(&app, "after the deadline").await;
    assert_eq!(app.count("submission_links").await, 0, "no status link");
    assert_eq!(app.count("audit_log").await, audited, "nothing audited");
}

#[tokio::test]
async fn a_paper_is_kept_with_its_row_status_link_and_both_mails() {
    let app = app().await;
    let audited = app.count("audit_log").await;
    let bytes = pdf_of_size(4096);
    let paper = upload(&app, &bytes);
    let submitted = submit::submit(&app.pool, &app.config, OPEN, details(), paper, PaperKind::Pdf).await.unwrap();
    let (reference, file_path, file_name, size): (String, String, String, i64) =
        sqlx::query_as("SELECT reference, file_path, file_name, file_size FROM submissions WHERE id = $1")
            .bind(submitted.id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(reference, submitted.reference);
    assert_eq!(file_path, format!("papers/{reference}.pdf"));
    assert_eq!((file_name.as_str(), size), ("tides.pdf", 4096));
    assert_eq!(app.stored_paper(&file_path).await.as_deref(), Some(bytes.as_slice()), "the paper byte for byte");
    let (created,): (String,) = sqlx::query_as("SELECT created FROM submission_links WHERE submission_id = $1")
        .bind(submitted.id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert!(created.starts_with("2025-02-24T02:00:00"), "the status link, stamped with the clock given: {created}");
    let mails: Vec<(String, String)> =
        sqlx::query_as("SELECT to_address, subject FROM outbox ORDER BY id").fetch_all(&app.pool).await.unwrap();
    assert_eq!(mails.len(), 2, "{mails:?}");
    assert_eq!(mails[0].0, "ana.cruz@example.org", "the acknowledgement first");
    assert!(mails[0].1.contains(&reference) && mails[1].1.contains(&reference), "{mails:?}");
    // The author holds no account: the submission's history starts with its row.
    assert_eq!(app.count("audit_log").await, audited);
}
