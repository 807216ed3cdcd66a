//! `conference::proceedings::camera_ready` (issue 44 item 1): the author's camera-ready step
//! called as its handlers call it. Each refusal stores nothing and keeps what was accepted
//! before; each change is audited; the step closes at `camera_ready_due` in the event's zone
//! (Singapore, UTC+08:00, in the fixture).

use std::borrow::Cow;

use conference::calendar::change::{self, Actor as Changer};
use conference::decisions::authors::{author, by_token, withdraw};
use conference::error::Refused;
use conference::proceedings::camera_ready::{accept_licence, hand_in_pdf, save_details, step};
use conference::proceedings::details::DetailsForm;
use conference::proceedings::format_check::FormatRules;
use conference::proceedings::licence::LICENCE;
use conference::repo::submissions::{Submission, by_reference};
use time::OffsetDateTime;
use time::macros::datetime;

use crate::authors_programme::{Paper, accept, authors_app, submit_paper};
use crate::common::TestApp;
use crate::common::papers::{A4, Body, LETTER, a4_text, paper};

/// A bad details form, the field its refusal names and words of that refusal.
type Case = (Vec<(&'static str, &'static str)>, &'static str, &'static str);

const NOW: OffsetDateTime = datetime!(2025-02-24 10:00 UTC);

async fn submission(app: &TestApp, paper: &Paper) -> Submission {
    by_reference(&app.pool, &paper.reference).await.unwrap().expect("the submission")
}

/// An accepted paper and its submission as read now.
async fn accepted(app: &TestApp, email: &str) -> (Paper, Submission) {
    let paper = submit_paper(app, email, "Lantern tides").await;
    accept(app, &paper).await;
    let s = submission(app, &paper).await;
    (paper, s)
}

/// A details form from (name, value) pairs.
pub(crate) fn form(pairs: &[(&str, &str)]) -> DetailsForm {
    DetailsForm::read(pairs.iter().map(|&(n, v)| (Cow::Borrowed(n), Cow::Borrowed(v))))
}

/// A good details form: three keywords, two authors, the second corresponding.
pub(crate) fn good() -> Vec<(&'static str, &'static str)> {
    vec![
        ("title", "Lantern tides, final"),
        ("abstract", "We study lanterns and tides."),
        ("keyword", "tides"),
        ("keyword", "lanterns"),
        ("keyword", "harbours"),
        ("author-1-name", "Ana Cruz"),
        ("author-1-affiliation", "University of Manila"),
        ("author-1-email", "ana@example.org"),
        ("author-1-orcid", "0000-0002-1825-0097"),
        ("author-2-name", "Ben Reyes"),
        ("author-2-affiliation", "Harbour Institute"),
        ("author-2-email", "ben@example.org"),
        ("corresponding", "2"),
    ]
}

/// `good()` with `name`'s values replaced by `values` (none: left out).
pub(crate) fn with(name: &str, values: &[&'static str]) -> Vec<(&'static str, &'static str)> {
    let mut pairs: Vec<_> = good().into_iter().filter(|(n, _)| *n != name).collect();
    let key = good().into_iter().find(|(n, _)| *n == name).map(|(n, _)| n).unwrap_or("corresponding");
    pairs.extend(values.iter().map(|v| (key, *v)));
    pairs
}

async fn audited(app: &TestApp, action: &str) -> Vec<serde_json::Value> {
    let rows: Vec<(String, String, String)> =
        sqlx::query_as("SELECT actor, object_id, details FROM audit_log WHERE action = $1 ORDER BY id")
            .bind(action)
            .fetch_all(&app.pool)
            .await
            .unwrap();
    rows.into_iter()
        .map(|(actor, _, details)| {
            assert_eq!(actor, "author");
            serde_json::from_str(&details).unwrap()
        })
        .collect()
}

/// (pdf sha256, title, licence signed) as stored.
async fn stored(app: &TestApp, s: &Submission) -> (Option<String>, Option<String>, Option<String>) {
    sqlx::query_as("SELECT pdf_sha256, title, licence_signed FROM camera_ready WHERE submission_id = $1")
        .bind(s.id)
        .fetch_optional(&app.pool)
        .await
        .unwrap()
        .unwrap_or((None, None, None))
}

fn invalid(refused: Refused) -> (String, std::collections::BTreeMap<String, String>) {
    match refused {
        Refused::Invalid { message, errors } => (message, errors),
        other => panic!("invalid, got {other:?}"),
    }
}

fn not_allowed(refused: Refused) -> String {
    match refused {
        Refused::NotAllowed(message) => message,
        other => panic!("not allowed, got {other:?}"),
    }
}

#[tokio::test]
async fn an_accepted_author_hands_in_pdf_details_and_licence_each_audited() {
    let app = authors_app().await;
    let (paper, s) = accepted(&app, "ana@example.org").await;
    let rules = FormatRules::default();

    let before = step(&app.pool, NOW, &s).await.unwrap();
    assert!(before.closed.is_none() && !before.complete && before.stored.is_none());

    let pdf = hand_in_pdf(&app.pool, NOW, &author(), &s, "final.pdf", a4_text(6), &rules).await.unwrap();
    assert_eq!((pdf.pages, pdf.replaced), (6, false));
    let saved = save_details(&app.pool, NOW, &author(), &s, &form(&good())).await.unwrap();
    assert_eq!(saved.details.corresponding().unwrap().name, "Ben Reyes");
    assert_eq!(saved.details.authors[0].orcid.as_deref(), Some("0000-0002-1825-0097"));
    let licence = accept_licence(&app.pool, NOW, &author(), &s, "  ben   REYES ").await.unwrap();
    assert_eq!((licence.version, licence.signed.as_str()), (LICENCE.version, "ben REYES"));
    assert_eq!(licence.at, "2025-02-24T10:00:00.000000Z");

    let after = step(&app.pool, NOW, &s).await.unwrap();
    assert!(after.complete, "file, details and licence are in");
    let row = after.stored.unwrap();
    assert_eq!((row.pdf_pages, row.licence_version.as_deref()), (Some(6), Some(LICENCE.version)));
    assert_eq!(conference::repo::camera_ready::pdf(&app.pool, s.id).await.unwrap().unwrap(), a4_text(6));

    let pdfs = audited(&app, "camera_ready.pdf_accepted").await;
    assert_eq!(pdfs.len(), 1);
    assert_eq!((pdfs[0]["pages"].as_i64(), pdfs[0]["sha256"]["before"].is_null()), (Some(6), true));
    let details = audited(&app, "camera_ready.details_saved").await;
    assert_eq!(details[0]["title"]["after"], "Lantern tides, final");
    assert_eq!(details[0]["authors"]["after"][1]["corresponding"], true);
    let licences = audited(&app, "camera_ready.licence_accepted").await;
    assert_eq!(
        (licences[0]["version"].as_str(), licences[0]["signed"].as_str()),
        (Some(LICENCE.version), Some("ben REYES"))
    );
    let object: String =
        sqlx::query_scalar("SELECT object_id FROM audit_log WHERE action = 'camera_ready.pdf_accepted'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(object, paper.reference);
}

#[tokio::test]
async fn every_part_can_be_replaced_and_the_audit_keeps_before_and_after() {
    let app = authors_app().await;
    let (_, s) = accepted(&app, "ana@example.org").await;
    let rules = FormatRules::default();
    let first = hand_in_pdf(&app.pool, NOW, &author(), &s, "a.pdf", a4_text(5), &rules).await.unwrap();
    let second = hand_in_pdf(&app.pool, NOW, &author(), &s, "b.pdf", a4_text(7), &rules).await.unwrap();
    assert!(second.replaced);
    let pdfs = audited(&app, "camera_ready.pdf_accepted").await;
    assert_eq!(pdfs[1]["sha256"]["before"].as_str(), Some(first.sha256.as_str()));
    assert_eq!(pdfs[1]["sha256"]["after"].as_str(), Some(second.sha256.as_str()));

    save_details(&app.pool, NOW, &author(), &s, &form(&good())).await.unwrap();
    let retitled = with("title", &["Lantern tides, revised"]);
    let again = save_details(&app.pool, NOW, &author(), &s, &form(&retitled)).await.unwrap();
    assert!(again.replaced);
    let details = audited(&app, "camera_ready.details_saved").await;
    assert_eq!(details[1]["title"]["before"], "Lantern tides, final");
    assert_eq!(details[1]["title"]["after"], "Lantern tides, revised");
    accept_licence(&app.pool, NOW, &author(), &s, "Ben Reyes").await.unwrap();
    accept_licence(&app.pool, NOW, &author(), &s, "Ben Reyes").await.unwrap();
    assert_eq!(audited(&app, "camera_ready.licence_accepted").await[1]["before"].as_str(), Some(LICENCE.version));
    assert!(step(&app.pool, NOW, &s).await.unwrap().complete);

    // A new corresponding author: the stored acceptance stays, but is asked for again in their name.
    save_details(&app.pool, NOW, &author(), &s, &form(&with("corresponding", &["1"]))).await.unwrap();
    let now = step(&app.pool, NOW, &s).await.unwrap();
    assert!(now.licence_stale && !now.complete);
    assert_eq!(stored(&app, &s).await.2.as_deref(), Some("Ben Reyes"));
    accept_licence(&app.pool, NOW, &author(), &s, "Ana Cruz").await.unwrap();
    let now = step(&app.pool, NOW, &s).await.unwrap();
    assert!(!now.licence_stale && now.complete);
    assert_eq!(stored(&app, &s).await.0, Some(second.sha256));
}

#[tokio::test]
async fn a_pdf_that_fails_the_check_is_refused_with_each_failure_and_the_last_accepted_stays() {
    let app = authors_app().await;
    let (_, s) = accepted(&app, "ana@example.org").await;
    let rules = FormatRules::default();
    let good = hand_in_pdf(&app.pool, NOW, &author(), &s, "a.pdf", a4_text(5), &rules).await.unwrap();

    let letter = paper(&[(LETTER, Body::Text); 5]);
    let (message, errors) =
        invalid(hand_in_pdf(&app.pool, NOW, &author(), &s, "l.pdf", letter, &rules).await.unwrap_err());
    assert!(message.contains("not accepted") && message.contains("stays"), "{message}");
    assert!(errors.keys().any(|k| k.contains("page_size")), "{errors:?}");
    let short = a4_text(2);
    let (_, errors) = invalid(hand_in_pdf(&app.pool, NOW, &author(), &s, "s.pdf", short, &rules).await.unwrap_err());
    assert!(errors.contains_key("page_count"), "{errors:?}");
    let scan = paper(&[(A4, Body::Text), (A4, Body::Scan), (A4, Body::Text), (A4, Body::Text)]);
    invalid(hand_in_pdf(&app.pool, NOW, &author(), &s, "scan.pdf", scan, &rules).await.unwrap_err());
    let (_, errors) = invalid(hand_in_pdf(&app.pool, NOW, &author(), &s, "", Vec::new(), &rules).await.unwrap_err());
    assert!(errors.contains_key("pdf"));

    assert_eq!(stored(&app, &s).await.0, Some(good.sha256), "the accepted file stays");
    assert_eq!(audited(&app, "camera_ready.pdf_accepted").await.len(), 1, "refusals are not changes");
}

#[tokio::test]
async fn bad_details_are_refused_field_by_field_and_what_was_saved_stays() {
    let app = authors_app().await;
    let (_, s) = accepted(&app, "ana@example.org").await;
    save_details(&app.pool, NOW, &author(), &s, &form(&good())).await.unwrap();

    let cases: Vec<Case> = vec![
        (with("author-1-orcid", &["0000-0002-1825-0098"]), "author-1-orcid", "check digit"),
        (with("author-1-orcid", &["1234"]), "author-1-orcid", "16 characters"),
        (with("corresponding", &[]), "corresponding", "exactly one"),
        (with("corresponding", &["1", "2"]), "corresponding", "Only one"),
        (with("keyword", &["one", "two"]), "keywords", "2 were given"),
        (with("keyword", &["a", "b", "c", "d", "e", "f"]), "keywords", "6 were given"),
        (with("author-2-email", &["ben@"]), "author-2-email", "e-mail"),
        (with("title", &["  "]), "title", "title"),
    ];
    for (pairs, key, words) in cases {
        let (message, errors) = invalid(save_details(&app.pool, NOW, &author(), &s, &form(&pairs)).await.unwrap_err());
        assert!(message.contains("nothing was changed"), "{message}");
        assert!(errors.get(key).is_some_and(|m| m.contains(words)), "{key}: {errors:?}");
    }
    assert_eq!(stored(&app, &s).await.1.as_deref(), Some("Lantern tides, final"));
    assert_eq!(audited(&app, "camera_ready.details_saved").await.len(), 1);

    // The licence is signed by the corresponding author only, once the list is saved.
    let (_, errors) = invalid(accept_licence(&app.pool, NOW, &author(), &s, "Ana Cruz").await.unwrap_err());
    assert!(errors["signature"].contains("Ben Reyes"), "{errors:?}");
    assert_eq!(stored(&app, &s).await.2, None);
    let (_, other) = accepted(&app, "carla@example.org").await;
    let (message, _) = invalid(accept_licence(&app.pool, NOW, &author(), &other, "Ana Cruz").await.unwrap_err());
    assert!(message.contains("first"), "{message}");
}

#[tokio::test]
async fn papers_without_a_step_and_unknown_tokens_are_refused() {
    let app = authors_app().await;
    let submitted = submit_paper(&app, "ana@example.org", "Harbour bells").await;
    let s = submission(&app, &submitted).await;
    let message = not_allowed(step(&app.pool, NOW, &s).await.unwrap_err());
    assert!(message.contains("Only an accepted paper"), "{message}");
    let message = not_allowed(save_details(&app.pool, NOW, &author(), &s, &form(&good())).await.unwrap_err());
    assert!(message.contains("Only an accepted paper"), "{message}");

    // Withdrawn after the page was drawn: the action reads the state again.
    let (_, accepted_s) = accepted(&app, "ben@example.org").await;
    let withdrawn = submit_paper(&app, "carla@example.org", "Quiet piers").await;
    let w = submission(&app, &withdrawn).await;
    withdraw(&app.pool, NOW, &author(), &w).await.unwrap();
    let message = not_allowed(
        hand_in_pdf(&app.pool, NOW, &author(), &w, "a.pdf", a4_text(5), &FormatRules::default()).await.unwrap_err(),
    );
    assert!(message.contains("withdrawn"), "{message}");
    sqlx::query("UPDATE submissions SET state = 'withdrawn' WHERE id = $1")
        .bind(accepted_s.id)
        .execute(&app.pool)
        .await
        .unwrap();
    let message = not_allowed(accept_licence(&app.pool, NOW, &author(), &accepted_s, "Ben").await.unwrap_err());
    assert!(message.contains("withdrawn"), "{message}");

    // A token that is no paper's opens nothing; another paper's opens that paper only.
    assert!(by_token(&app.pool, &"A".repeat(43)).await.unwrap().is_none());
    assert!(by_token(&app.pool, "short").await.unwrap().is_none());
    let token = submitted.link.rsplit('/').next().unwrap();
    assert_eq!(by_token(&app.pool, token).await.unwrap().unwrap().id, s.id);
    assert_eq!(app.count("camera_ready").await, 0, "nothing stored");
}

#[tokio::test]
async fn a_locked_volume_refuses_every_change_and_keeps_what_was_handed_in() {
    let app = authors_app().await;
    let (_, s) = accepted(&app, "ana@example.org").await;
    save_details(&app.pool, NOW, &author(), &s, &form(&good())).await.unwrap();
    app.exec("UPDATE proceedings_volumes SET locked = 1").await;
    let step_now = step(&app.pool, NOW, &s).await.unwrap();
    assert!(step_now.closed.as_deref().is_some_and(|m| m.contains("locked")));
    for refused in [
        hand_in_pdf(&app.pool, NOW, &author(), &s, "a.pdf", a4_text(5), &FormatRules::default()).await.map(|_| ()),
        save_details(&app.pool, NOW, &author(), &s, &form(&with("title", &["Other"]))).await.map(|_| ()),
        accept_licence(&app.pool, NOW, &author(), &s, "Ben Reyes").await.map(|_| ()),
    ] {
        assert!(not_allowed(refused.unwrap_err()).contains("locked the proceedings volume"));
    }
    assert_eq!(stored(&app, &s).await, (None, Some("Lantern tides, final".into()), None));
}

#[tokio::test]
async fn the_step_closes_at_the_end_of_camera_ready_due_in_the_event_zone() {
    let app = authors_app().await;
    let (_, s) = accepted(&app, "ana@example.org").await;
    let cli = Changer { name: "cli", client: None };
    change::set(&app.pool, &[("camera_ready_due".into(), "2025-03-01".into())], cli, NOW).await.unwrap();
    // The end of 1 March in Singapore (UTC+08:00) is 16:00 UTC.
    let before = datetime!(2025-03-01 23:59 +08:00);
    let after = datetime!(2025-03-02 00:01 +08:00);
    assert!(step(&app.pool, before, &s).await.unwrap().closed.is_none());
    save_details(&app.pool, before, &author(), &s, &form(&good())).await.unwrap();
    let message =
        not_allowed(save_details(&app.pool, after, &author(), &s, &form(&with("title", &["Late"]))).await.unwrap_err());
    assert_eq!(
        message,
        "Camera-ready papers were due by Saturday, 1 March 2025, 23:59 Singapore time (UTC+08:00), so nothing was \
         changed. To change your paper now, write to desk@fixcon.example.net."
    );
    assert!(step(&app.pool, after, &s).await.unwrap().closed.is_some());
    // An RFC 3339 time is that instant; organisers moving the date open the step again.
    change::set(&app.pool, &[("camera_ready_due".into(), "2025-03-02T10:00:00+08:00".into())], cli, after)
        .await
        .unwrap();
    save_details(&app.pool, after, &author(), &s, &form(&with("title", &["On time"]))).await.unwrap();
    let late = datetime!(2025-03-02 10:01 +08:00);
    not_allowed(accept_licence(&app.pool, late, &author(), &s, "Ben Reyes").await.unwrap_err());
    assert_eq!(stored(&app, &s).await.1.as_deref(), Some("On time"));
}
