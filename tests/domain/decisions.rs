//! `conference::decisions`: organisers staging and applying decisions (with their mails), and
//! the author's withdrawal and public details through the status link.

use conference::decisions::apply::{self, Applied};
use conference::decisions::authors::{self, Withdrawn};
use conference::decisions::stage::{self, Staged, Why};
use conference::decisions::states::Decision;
use conference::error::{AppError, Refused};
use conference::programme::authors::{PublicForm, PublicSet, set_public};
use conference::repo::audit::Actor;
use conference::repo::submissions::{Submission, by_reference};
use time::OffsetDateTime;
use time::macros::datetime;

use crate::common::TestApp;
use crate::decisions::{mails_to, state_of, submit_paper, version};
use crate::organiser::organisers_app;

fn chair() -> Actor {
    Actor { email: "chair@fixcon.example".into(), client: Some("203.0.113.9".into()) }
}

const NOW: OffsetDateTime = datetime!(2025-02-24 10:00 UTC);

/// The audit entries of `action`: (actor, client, object_id, details as JSON), oldest first.
async fn audited(app: &TestApp, action: &str) -> Vec<(String, Option<String>, String, serde_json::Value)> {
    let rows: Vec<(String, Option<String>, String, String)> =
        sqlx::query_as("SELECT actor, client, object_id, details FROM audit_log WHERE action = $1 ORDER BY id")
            .bind(action)
            .fetch_all(&app.pool)
            .await
            .unwrap();
    rows.into_iter().map(|(a, c, o, d)| (a, c, o, serde_json::from_str(&d).unwrap())).collect()
}

async fn submission(app: &TestApp, reference: &str) -> Submission {
    by_reference(&app.pool, reference).await.unwrap().expect("the submission")
}

/// Stages `decision` on `reference` at its current version, as the chair.
async fn staged(app: &TestApp, reference: &str, decision: Decision) {
    let items = [(reference.to_owned(), version(app, reference).await)];
    stage::stage(&app.pool, NOW, &chair(), &items, Some(decision), "", Why::Changed).await.unwrap();
}

#[tokio::test]
async fn staging_refuses_unknown_stale_and_withdrawn_items_and_stores_nothing() {
    let app = organisers_app().await;
    let ana = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let ben = submit_paper(&app, "ben@example.org", "Harbour bells").await;
    let (v_ana, v_ben) = (version(&app, &ana).await, version(&app, &ben).await);
    let accept = Some(Decision::Accepted);

    let unknown = [("P-2025-NOPE00".to_owned(), 1)];
    match stage::stage(&app.pool, NOW, &chair(), &unknown, accept, "", Why::Changed).await {
        Err(Refused::NotFound(message)) => assert_eq!(message, "No submission has the reference P-2025-NOPE00."),
        other => panic!("not found, got {other:?}"),
    }

    // A selection with one row drawn before a change: none of the selection is staged.
    let selection = [(ana.clone(), v_ana), (ben.clone(), v_ben - 1)];
    let refused = stage::stage(&app.pool, NOW, &chair(), &selection, accept, "", Why::Selection).await.unwrap_err();
    match &refused {
        Refused::Stale(message) => assert_eq!(*message, Why::Selection.message(&ben)),
        other => panic!("stale, got {other:?}"),
    }
    assert_eq!(Why::of(&refused, &selection, Why::Selection), Some((ben.as_str(), Why::Selection)));
    assert_eq!(state_of(&app, &ana).await, ("submitted".to_owned(), None), "the fresh row is not staged either");

    // The same decision again from the page that shows it: a 400, nothing changes.
    staged(&app, &ana, Decision::Accepted).await;
    let before = audited(&app, "submission.decision_staged").await.len();
    sqlx::query("UPDATE submissions SET state = 'accepted', pending_decision = NULL WHERE reference = $1")
        .bind(&ana)
        .execute(&app.pool)
        .await
        .unwrap();
    let again = [(ana.clone(), version(&app, &ana).await)];
    match stage::stage(&app.pool, NOW, &chair(), &again, accept, "", Why::Changed).await {
        Err(Refused::Failed(AppError::BadRequest(message))) => {
            assert_eq!(message, format!("Submission {ana} is accepted already. Nothing was changed."))
        }
        other => panic!("a 400, got {other:?}"),
    }

    // A withdrawn paper takes no decision.
    let ben_now = submission(&app, &ben).await;
    authors::withdraw(&app.pool, NOW, &authors::author(), &ben_now).await.unwrap();
    let withdrawn = [(ben.clone(), version(&app, &ben).await)];
    let refused = stage::stage(&app.pool, NOW, &chair(), &withdrawn, accept, "", Why::Changed).await.unwrap_err();
    assert!(matches!(&refused, Refused::NotAllowed(m) if *m == Why::Withdrawn.message(&ben)), "{refused:?}");
    assert_eq!(Why::of(&refused, &withdrawn, Why::Changed), Some((ben.as_str(), Why::Withdrawn)));
    assert_eq!(state_of(&app, &ben).await, ("withdrawn".to_owned(), None));
    assert_eq!(audited(&app, "submission.decision_staged").await.len(), before, "no refusal is audited");
}

#[tokio::test]
async fn staging_audits_each_row_with_its_pending_decision_and_note_before_and_after() {
    let app = organisers_app().await;
    let ana = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let items = [(ana.clone(), version(&app, &ana).await)];
    let done =
        stage::stage(&app.pool, NOW, &chair(), &items, Some(Decision::Rejected), "Thanks", Why::Changed).await.unwrap();
    assert_eq!(done, Staged { decision: Some(Decision::Rejected), count: 1 });
    assert_eq!(state_of(&app, &ana).await, ("submitted".to_owned(), Some("rejected".to_owned())));
    let entries = audited(&app, "submission.decision_staged").await;
    let (actor, client, object, details) = &entries[0];
    assert_eq!(
        (actor.as_str(), client.as_deref(), object.as_str()),
        ("chair@fixcon.example", Some("203.0.113.9"), ana.as_str())
    );
    assert_eq!(details["pending_decision"], serde_json::json!({ "before": null, "after": "rejected" }));
    assert_eq!(details["note"], serde_json::json!({ "before": "", "after": "Thanks" }));
}

#[tokio::test]
async fn applying_refuses_a_pending_decision_changed_since_the_preview_and_mails_nobody() {
    let app = organisers_app().await;
    let ana = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    staged(&app, &ana, Decision::Accepted).await;
    let previewed = apply::preview(&app.pool, &app.config).await.unwrap();
    assert_eq!((previewed.accepted, previewed.rejected, previewed.rows.len()), (1, 0, 1));
    assert!(previewed.sample.as_ref().unwrap().2.contains(apply::TOKEN_STAND_IN), "the stand-in for the token");
    let items = [(ana.clone(), previewed.rows[0].version)];
    // Another organiser changes the pending decision after the preview was drawn.
    staged(&app, &ana, Decision::Rejected).await;
    let refused = apply::apply(&app.pool, &app.config, NOW, &chair(), &items).await.unwrap_err();
    assert!(matches!(&refused, Refused::Stale(m) if *m == Why::Preview.message(&ana)), "{refused:?}");
    assert_eq!(Why::of(&refused, &items, Why::Preview), Some((ana.as_str(), Why::Preview)));
    assert_eq!(state_of(&app, &ana).await, ("submitted".to_owned(), Some("rejected".to_owned())));
    assert_eq!(mails_to(&app, "ana@example.org").await.len(), 1, "only the acknowledgement");
    assert!(audited(&app, "submission.decision_applied").await.is_empty(), "nothing audited");
}

#[tokio::test]
async fn applying_mails_each_author_once_and_audits_the_state_and_the_mail() {
    let app = organisers_app().await;
    let ana = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    staged(&app, &ana, Decision::Accepted).await;
    let items = [(ana.clone(), version(&app, &ana).await)];
    let done = apply::apply(&app.pool, &app.config, NOW, &chair(), &items).await.unwrap();
    assert_eq!(done, Applied { accepted: 1, rejected: 0, mails: 1 });
    assert_eq!(state_of(&app, &ana).await, ("accepted".to_owned(), None));
    let mails = mails_to(&app, "ana@example.org").await;
    assert_eq!(mails.len(), 2, "the acknowledgement, then the decision");
    assert!(mails[1].1.contains("/submission/status/"), "a new status link: {}", mails[1].1);

    let entries = audited(&app, "submission.decision_applied").await;
    let (actor, client, object, details) = &entries[0];
    assert_eq!(
        (actor.as_str(), client.as_deref(), object.as_str()),
        ("chair@fixcon.example", Some("203.0.113.9"), ana.as_str())
    );
    assert_eq!(details["state"], serde_json::json!({ "before": "submitted", "after": "accepted" }));
    assert_eq!(details["mail"]["to"], "ana@example.org");
    assert_eq!(details["mail"]["queued"], true);
    assert_eq!(details["mail"]["subject"], mails[1].0.as_str());

    // The same items again (a second click): nothing applied, nobody mailed, nothing audited.
    let again = apply::apply(&app.pool, &app.config, NOW, &chair(), &items).await.unwrap();
    assert_eq!(again, Applied::default());
    assert_eq!(mails_to(&app, "ana@example.org").await.len(), 2);
    assert_eq!(audited(&app, "submission.decision_applied").await.len(), 1);
}

#[tokio::test]
async fn the_author_withdraws_once_before_a_decision_as_author_in_the_audit_log() {
    let app = organisers_app().await;
    let ana = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let ben = submit_paper(&app, "ben@example.org", "Harbour bells").await;
    staged(&app, &ana, Decision::Rejected).await;
    let s = submission(&app, &ana).await;
    let done = authors::withdraw(&app.pool, NOW, &authors::author(), &s).await.unwrap();
    assert_eq!(done, Withdrawn { reference: ana.clone() });
    assert_eq!(state_of(&app, &ana).await, ("withdrawn".to_owned(), None), "the pending decision goes with it");
    let entries = audited(&app, "submission.withdrawn").await;
    let (actor, client, object, details) = &entries[0];
    assert_eq!((actor.as_str(), client.as_deref(), object.as_str()), ("author", None, ana.as_str()));
    assert_eq!(details["state"], serde_json::json!({ "before": "submitted", "after": "withdrawn" }));
    assert_eq!(details["pending_decision"], serde_json::json!({ "before": "rejected", "after": null }));

    // Twice, or after a decision is applied: refused, nothing stored or audited.
    let withdrawn = submission(&app, &ana).await;
    match authors::withdraw(&app.pool, NOW, &authors::author(), &withdrawn).await {
        Err(Refused::NotAllowed(message)) => assert_eq!(message, "This submission is withdrawn already."),
        other => panic!("not allowed, got {other:?}"),
    }
    staged(&app, &ben, Decision::Accepted).await;
    apply::apply(&app.pool, &app.config, NOW, &chair(), &[(ben.clone(), version(&app, &ben).await)]).await.unwrap();
    let decided = submission(&app, &ben).await;
    match authors::withdraw(&app.pool, NOW, &authors::author(), &decided).await {
        Err(Refused::NotAllowed(message)) => {
            assert!(message.starts_with("A decision on this submission has been made"))
        }
        other => panic!("not allowed, got {other:?}"),
    }
    assert_eq!(state_of(&app, &ben).await.0, "accepted");
    assert_eq!(audited(&app, "submission.withdrawn").await.len(), 1);
}

#[tokio::test]
async fn the_public_details_are_refused_unless_accepted_current_and_well_formed_and_audited_when_set() {
    let app = organisers_app().await;
    let ana = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let author = authors::author();
    let form = |version: i64, presenter: &str| PublicForm {
        version: Some(version.to_string()),
        text: "Tides, lanterns and the harbour.".into(),
        presenter: Some(presenter.into()),
    };
    let s = submission(&app, &ana).await;
    let refused = set_public(&app.pool, NOW, &author, &s, &form(s.version, "Ana Cruz")).await;
    assert!(matches!(&refused, Err(Refused::NotAllowed(m)) if m.starts_with("Only an accepted paper")), "{refused:?}");

    staged(&app, &ana, Decision::Accepted).await;
    apply::apply(&app.pool, &app.config, NOW, &chair(), &[(ana.clone(), version(&app, &ana).await)]).await.unwrap();
    let s = submission(&app, &ana).await;
    match set_public(&app.pool, NOW, &author, &s, &form(s.version, "Somebody Else")).await {
        Err(Refused::Failed(AppError::BadRequest(message))) => {
            assert!(message.starts_with("Choose who presents the talk among the paper's authors"), "{message}")
        }
        other => panic!("a 400, got {other:?}"),
    }
    let refused = set_public(&app.pool, NOW, &author, &s, &form(s.version - 1, "Ana Cruz")).await;
    assert!(matches!(&refused, Err(Refused::Stale(m)) if m.starts_with("These details were changed")), "{refused:?}");
    assert_eq!(version(&app, &ana).await, s.version, "nothing stored");
    assert!(audited(&app, "programme.paper_edited").await.is_empty(), "nothing audited");

    let done = set_public(&app.pool, NOW, &author, &s, &form(s.version, "ben reyes")).await.unwrap();
    assert_eq!(done, PublicSet { text: "Tides, lanterns and the harbour.".into(), presenter: "Ben Reyes".into() });
    let entries = audited(&app, "programme.paper_edited").await;
    let (actor, client, object, details) = &entries[0];
    assert_eq!((actor.as_str(), client.as_deref(), object.as_str()), ("author", None, ana.as_str()));
    assert_eq!(details["presenter"]["after"], "Ben Reyes");
    assert_eq!(details["public_abstract"]["after"], "Tides, lanterns and the harbour.");
}
