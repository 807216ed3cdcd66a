//! `conference::review::reviewing`: opening a paper, saving a review, posting to the
//! discussion and declaring a conflict, as the reviewer (the audit log's actor).

use std::collections::BTreeMap;

use conference::clock::zone::Zone;
use conference::error::Refused;
use conference::repo::audit::Actor;
use conference::repo::reviews::AssignedPaper;
use conference::review::form::Sent;
use conference::review::reviewing::{self, Commented, ConflictDeclared, SaveAction, Saved};

use crate::common::review::add_reviewer;
use crate::common::{TestApp, fixture};
use crate::reviewing::{ADA, ADA_NAME, BEFORE, audited, plain_paper, release, reviewing_app, stored_review};

fn ada() -> Actor {
    Actor { email: ADA.into(), client: Some("198.51.100.7".into()) }
}

/// A reviewer with paper `R-TIDE01` released to them; their id, the paper and the zone.
async fn with_a_paper(app: &TestApp) -> (i64, AssignedPaper, Zone) {
    let id = add_reviewer(app, ADA, ADA_NAME, "Analytical Engines Ltd", "").await;
    let reference = plain_paper(app, "Tidal lanterns under load").await;
    release(app, &reference, "R-TIDE01", id, 1).await;
    let paper = reviewing::open(&app.pool, BEFORE, &ada(), id, "R-TIDE01", "/review/papers/R-TIDE01").await.unwrap();
    let zone = app.state.content.snapshot().await.zone.clone();
    (id, paper, zone)
}

/// A whole review: every criterion scored, a recommendation and a confidence.
fn whole() -> Sent {
    Sent {
        scores: BTreeMap::from([("tidal-rigour".into(), "4".into()), ("lantern-clarity".into(), "3".into())]),
        recommendation: "accept".into(),
        confidence: "4".into(),
        comments_to_authors: "The tides are well argued.".into(),
        confidential_comments: String::new(),
    }
}

/// The review actions of [`ADA`] in the audit log.
async fn actions(app: &TestApp) -> Vec<String> {
    audited(app, ADA).await.into_iter().map(|(action, _)| action).filter(|a| a.starts_with("review.")).collect()
}

#[tokio::test]
async fn a_paper_not_released_to_the_reviewer_is_not_found_and_the_refusal_is_audited() {
    let app = reviewing_app().await;
    let (id, _, _) = with_a_paper(&app).await;
    let refused = reviewing::open(&app.pool, BEFORE, &ada(), id, "R-NOPE99", "/review/papers/R-NOPE99").await;
    assert!(matches!(refused, Err(Refused::NotFound(ref words)) if words.is_empty()), "{refused:?}");
    let entries = audited(&app, ADA).await;
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].0, "review.access_refused");
    assert!(entries[0].1.contains("/review/papers/R-NOPE99"), "{}", entries[0].1);
}

#[tokio::test]
async fn save_refuses_late_bad_stale_or_backward_saves_and_stores_nothing() {
    let app = reviewing_app().await;
    let (id, paper, zone) = with_a_paper(&app).await;
    let save = |now, sent: Sent, action, version: &'static str| {
        let (app, paper, zone) = (&app, &paper, &zone);
        async move { reviewing::save(&app.pool, now, &ada(), zone, paper, &sent, action, version).await }
    };

    match save(fixture::REVIEW_DEADLINE_AT, whole(), SaveAction::Submit, "new").await {
        Err(Refused::NotAllowed(message)) => assert_eq!(
            message,
            format!(
                "The review deadline ({}) has passed: reviews can no longer be changed. Nothing was saved.",
                fixture::REVIEW_DEADLINE_LABEL
            )
        ),
        other => panic!("refused as not allowed, got {other:?}"),
    }
    let half = Sent { recommendation: String::new(), ..whole() };
    match save(BEFORE, half, SaveAction::Submit, "new").await {
        Err(Refused::Invalid { message, errors }) => {
            assert_eq!(message, "The review was not saved: please correct the fields marked below.");
            assert!(errors.contains_key("recommendation"), "{errors:?}");
        }
        other => panic!("refused as invalid, got {other:?}"),
    }
    let stale = save(BEFORE, whole(), SaveAction::Submit, "0123456789abcdef01234567").await;
    assert!(matches!(stale, Err(Refused::Stale(_))), "{stale:?}");
    assert_eq!(stored_review(&app, id).await, None, "nothing stored");
    assert!(actions(&app).await.is_empty(), "nothing audited");

    assert_eq!(save(BEFORE, whole(), SaveAction::Submit, "new").await.unwrap(), Saved::Submitted);
    let stored = conference::repo::reviews::review(&app.pool, paper.assignment_id).await.unwrap();
    let version = reviewing::version(stored.as_ref());
    let back = reviewing::save(&app.pool, BEFORE, &ada(), &zone, &paper, &whole(), SaveAction::Draft, &version).await;
    match back {
        Err(Refused::NotAllowed(message)) => assert!(message.contains("cannot go back to being a draft"), "{message}"),
        other => panic!("refused as not allowed, got {other:?}"),
    }
    assert_eq!(stored_review(&app, id).await.unwrap().0, "submitted", "still submitted");
    assert_eq!(actions(&app).await, ["review.submitted"], "the refusal is not audited");
}

#[tokio::test]
async fn a_saved_review_is_audited_by_its_reviewer_with_what_changed() {
    let app = reviewing_app().await;
    let (_, paper, zone) = with_a_paper(&app).await;
    let saved = reviewing::save(&app.pool, BEFORE, &ada(), &zone, &paper, &whole(), SaveAction::Submit, "new").await;
    assert_eq!(saved.unwrap(), Saved::Submitted);
    let (actor, client, details): (String, Option<String>, String) =
        sqlx::query_as("SELECT actor, client, details FROM audit_log WHERE action = 'review.submitted'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!((actor.as_str(), client.as_deref()), (ADA, Some("198.51.100.7")));
    let details: serde_json::Value = serde_json::from_str(&details).unwrap();
    assert_eq!(details["review_code"], "R-TIDE01");
    assert_eq!(details["reviewer"], 1);
    assert_eq!(details["recommendation"]["after"], "accept");
    assert!(details["changed"].as_array().unwrap().iter().any(|c| c == "scores"), "{details}");
}

#[tokio::test]
async fn comment_and_conflict_refuse_without_their_input_and_audit_when_done() {
    let app = reviewing_app().await;
    let (_, paper, _) = with_a_paper(&app).await;
    match reviewing::comment(&app.pool, BEFORE, &ada(), &paper, " \r\n ").await {
        Err(Refused::Invalid { message, errors }) => {
            assert_eq!(message, "The message was not posted: please correct it below.");
            assert_eq!(errors.get("body").map(String::as_str), Some("Write a message before posting it."));
        }
        other => panic!("refused as invalid, got {other:?}"),
    }
    match reviewing::declare_conflict(&app.pool, BEFORE, &ada(), &paper, false).await {
        Err(Refused::Invalid { message, .. }) => assert!(message.starts_with("Nothing was changed: tick"), "{message}"),
        other => panic!("refused as invalid, got {other:?}"),
    }
    let comments: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM review_comments").fetch_one(&app.pool).await.unwrap();
    assert_eq!(comments, 0, "nothing posted");
    assert!(actions(&app).await.is_empty(), "nothing audited");

    let Commented { id } = reviewing::comment(&app.pool, BEFORE, &ada(), &paper, "Agreed.").await.unwrap();
    let declared = reviewing::declare_conflict(&app.pool, BEFORE, &ada(), &paper, true).await.unwrap();
    assert_eq!(declared, ConflictDeclared { review_code: "R-TIDE01".into() });
    assert_eq!(actions(&app).await, ["review.commented", "review.conflict_declared"]);
    let entries = audited(&app, ADA).await;
    let commented: serde_json::Value = serde_json::from_str(&entries[0].1).unwrap();
    assert_eq!(commented["comment"], id);
    assert_eq!(commented["review_code"], "R-TIDE01");
    let open =
        reviewing::open(&app.pool, BEFORE, &ada(), paper.reviewer_id, "R-TIDE01", "/review/papers/R-TIDE01").await;
    assert!(matches!(open, Err(Refused::NotFound(_))), "the paper left the reviewer's list: {open:?}");
}
