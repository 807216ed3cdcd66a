//! `conference::review::assignments`: staging, releasing and discarding assignments, and
//! assigning by hand.

use conference::error::Refused;
use conference::repo::audit::Actor;
use conference::review::assignments::{self, ByHand, Discarded, Released, Staged};
use time::macros::datetime;

use crate::review_assignment::{assignment_app, audited, live, three_reviewers, twelve_papers};

fn chair() -> Actor {
    Actor { email: "chair@example.org".into(), client: Some("203.0.113.9".into()) }
}

/// The conference's focus areas as the fixture's reviewers name their topics.
const AREAS: &str = "Tidal Computing\nLantern Studies\n";

#[tokio::test]
async fn stage_automatic_is_refused_after_the_review_deadline_and_stages_nothing() {
    let app = assignment_app().await;
    twelve_papers(&app).await;
    three_reviewers(&app).await;
    // One minute after the fixture's review deadline (3 March 2025, 23:59 in Manila).
    let late = datetime!(2025-03-04 00:00 +08:00);
    let refused = assignments::stage_automatic(&app.pool, late, &chair(), AREAS).await;
    match refused {
        Err(Refused::NotAllowed(message)) => {
            assert!(message.contains("/organiser/settings"), "the message names where the deadline moves: {message}")
        }
        other => panic!("refused as not allowed, got {other:?}"),
    }
    assert!(live(&app).await.is_empty(), "nothing staged");
    assert!(audited(&app, "review.assignments_staged").await.is_empty(), "nothing audited");

    // With no paper short of a reviewer there is nothing to stage and nothing to record.
    let early = datetime!(2025-02-24 10:00 +08:00);
    let first = assignments::stage_automatic(&app.pool, early, &chair(), AREAS).await.unwrap();
    assert_eq!(first, Staged { count: 24 }, "two reviewers for each of twelve papers");
    let again = assignments::stage_automatic(&app.pool, early, &chair(), AREAS).await.unwrap();
    assert_eq!(again, Staged { count: 0 });
    assert_eq!(audited(&app, "review.assignments_staged").await.len(), 1, "an empty run is not audited");
}

#[tokio::test]
async fn stage_automatic_audits_who_staged_what_in_its_transaction() {
    let app = assignment_app().await;
    let references = twelve_papers(&app).await;
    three_reviewers(&app).await;
    let now = datetime!(2025-02-24 10:00 +08:00);
    let staged = assignments::stage_automatic(&app.pool, now, &chair(), AREAS).await.unwrap();
    assert_eq!(staged.count, 24);
    assert_eq!(live(&app).await.len(), 24);
    let (actor, client, at): (String, Option<String>, String) =
        sqlx::query_as("SELECT actor, client, at FROM audit_log WHERE action = 'review.assignments_staged'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!((actor.as_str(), client.as_deref()), ("chair@example.org", Some("203.0.113.9")));
    assert!(at.starts_with("2025-02-24T02:00:00"), "stamped with the clock it was given, in UTC: {at}");
    let details: serde_json::Value =
        serde_json::from_str(&audited(&app, "review.assignments_staged").await[0].1).unwrap();
    assert_eq!(details["count"], 24);
    let pairs = details["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 24);
    assert!(pairs.iter().all(|pair| references.contains(&pair[0].as_str().unwrap().to_owned())));
}

/// The preview's `mark`, as its forms carry it.
async fn mark(app: &crate::common::TestApp) -> String {
    assignments::preview(&app.pool).await.unwrap().mark
}

/// Staged assignment mails queued: (to, dedupe key).
async fn assigned_mails(app: &crate::common::TestApp) -> Vec<(String, String)> {
    sqlx::query_as("SELECT to_address, dedupe_key FROM outbox WHERE dedupe_key LIKE 'review-assigned:%' ORDER BY id")
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

const REVIEW_URL: &str = "https://fix.example/review";

#[tokio::test]
async fn release_and_discard_refuse_a_stale_mark_and_release_the_deadline_and_change_nothing() {
    let app = assignment_app().await;
    twelve_papers(&app).await;
    three_reviewers(&app).await;
    let early = datetime!(2025-02-24 10:00 +08:00);
    assignments::stage_automatic(&app.pool, early, &chair(), AREAS).await.unwrap();
    let zone = app.state.content.snapshot().await.zone.clone();
    let staged = live(&app).await;
    assert_eq!(staged.len(), 24);

    // A preview drawn before someone else's change.
    let stale = "23:1";
    let released = assignments::release(&app.pool, early, &chair(), &app.config, &zone, REVIEW_URL, stale).await;
    assert!(matches!(&released, Err(Refused::Stale(m)) if m.contains("open the preview again")), "{released:?}");
    let discarded = assignments::discard(&app.pool, early, &chair(), stale).await;
    assert!(matches!(&discarded, Err(Refused::Stale(m)) if m.contains("open the preview again")), "{discarded:?}");
    // After the review deadline, even with the right mark.
    let late = datetime!(2025-03-04 00:00 +08:00);
    let released =
        assignments::release(&app.pool, late, &chair(), &app.config, &zone, REVIEW_URL, &mark(&app).await).await;
    assert!(matches!(released, Err(Refused::NotAllowed(_))), "{released:?}");

    assert_eq!(live(&app).await, staged, "everything still staged");
    assert!(assigned_mails(&app).await.is_empty(), "nobody mailed");
    assert!(audited(&app, "review.assignments_released").await.is_empty());
    assert!(audited(&app, "review.assignments_discarded").await.is_empty());
}

#[tokio::test]
async fn release_mails_each_reviewer_once_and_audits_it_and_discard_audits_its_count() {
    let app = assignment_app().await;
    let references = twelve_papers(&app).await;
    let (ada, bo, cy) = three_reviewers(&app).await;
    let now = datetime!(2025-02-24 10:00 +08:00);
    let zone = app.state.content.snapshot().await.zone.clone();
    assignments::stage_automatic(&app.pool, now, &chair(), AREAS).await.unwrap();
    let mark_now = mark(&app).await;
    let released =
        assignments::release(&app.pool, now, &chair(), &app.config, &zone, REVIEW_URL, &mark_now).await.unwrap();
    assert_eq!(released, Released { count: 24, mails: 3 });
    assert!(live(&app).await.iter().all(|(_, _, _, state)| state == "released"));
    assert_eq!(assigned_mails(&app).await.len(), 3, "one mail per reviewer");
    // The same form again (a second click): nothing staged, nothing done, nothing recorded.
    let again =
        assignments::release(&app.pool, now, &chair(), &app.config, &zone, REVIEW_URL, &mark_now).await.unwrap();
    assert_eq!(again, Released { count: 0, mails: 0 });
    let entries = audited(&app, "review.assignments_released").await;
    assert_eq!(entries.len(), 1);
    let (actor, client): (String, Option<String>) =
        sqlx::query_as("SELECT actor, client FROM audit_log WHERE action = 'review.assignments_released'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!((actor.as_str(), client.as_deref()), ("chair@example.org", Some("203.0.113.9")));
    let details: serde_json::Value = serde_json::from_str(&entries[0].1).unwrap();
    assert_eq!((details["count"].as_i64(), details["mails"].as_i64()), (Some(24), Some(3)));
    assert_eq!(details["reviewers"].as_array().unwrap().len(), 3);

    // Discard: the third reviewer of a paper free of conflicts, staged by hand, withdrawn.
    let paper = &references[4];
    let on_it: Vec<i64> = live(&app).await.into_iter().filter(|(r, ..)| r == paper).map(|(_, id, ..)| id).collect();
    let third = [ada, bo, cy].into_iter().find(|id| !on_it.contains(id)).unwrap();
    assignments::assign_one(&app.pool, now, &chair(), paper, &third.to_string()).await.unwrap();
    let discarded = assignments::discard(&app.pool, now, &chair(), &mark(&app).await).await.unwrap();
    assert_eq!(discarded, Discarded { count: 1 });
    assert_eq!(assignments::preview(&app.pool).await.unwrap().count, 0);
    let entries = audited(&app, "review.assignments_discarded").await;
    assert_eq!(entries.len(), 1);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&entries[0].1).unwrap()["count"], 1);
}

#[tokio::test]
async fn assigning_by_hand_refuses_unknowns_conflicts_repeats_and_the_deadline_and_stores_nothing() {
    let app = assignment_app().await;
    let references = twelve_papers(&app).await;
    let (ada, bo, cy) = three_reviewers(&app).await;
    let now = datetime!(2025-02-24 10:00 +08:00);
    let manila = references[0].as_str();
    let (ada, bo, cy) = (ada.to_string(), bo.to_string(), cy.to_string());

    let unknown_paper = assignments::assign_one(&app.pool, now, &chair(), "P-2025-NOSUCH", &ada).await;
    assert!(matches!(unknown_paper, Err(Refused::NotFound(_))), "{unknown_paper:?}");
    let unknown_reviewer = assignments::unassign(&app.pool, now, &chair(), manila, "abc").await;
    assert!(
        matches!(&unknown_reviewer, Err(Refused::Invalid { message, .. }) if message.starts_with("\"abc\" is not a reviewer")),
        "{unknown_reviewer:?}"
    );
    // Cy is at the authors' university.
    let conflicted = assignments::assign_one(&app.pool, now, &chair(), manila, &cy).await;
    assert!(
        matches!(&conflicted, Err(Refused::Conflicted(m)) if m.starts_with("Cy Reyes cannot review this paper:")),
        "{conflicted:?}"
    );
    let late = datetime!(2025-03-04 00:00 +08:00);
    let closed = assignments::assign_one(&app.pool, late, &chair(), manila, &ada).await;
    assert!(matches!(closed, Err(Refused::NotAllowed(_))), "{closed:?}");
    let not_assigned = assignments::unassign(&app.pool, now, &chair(), manila, &bo).await;
    assert!(
        matches!(&not_assigned, Err(Refused::Stale(m)) if m == "Bo Lantern does not review this paper (any more). Nothing was changed."),
        "{not_assigned:?}"
    );
    assert!(live(&app).await.is_empty(), "nothing staged");
    for action in ["review.assigned", "review.unassigned", "review.conflict_declared"] {
        assert!(audited(&app, action).await.is_empty(), "nothing audited: {action}");
    }

    // Twice the same: the second is stale, and only the first is stored and audited.
    assignments::assign_one(&app.pool, now, &chair(), manila, &ada).await.unwrap();
    let twice = assignments::assign_one(&app.pool, now, &chair(), manila, &ada).await;
    assert!(matches!(twice, Err(Refused::Stale(_))), "{twice:?}");
    assignments::declare_conflict(&app.pool, now, &chair(), manila, &bo).await.unwrap();
    let declared_again = assignments::declare_conflict(&app.pool, now, &chair(), manila, &bo).await;
    assert!(matches!(declared_again, Err(Refused::Stale(_))), "{declared_again:?}");
    assert_eq!(live(&app).await.len(), 1);
    assert_eq!(audited(&app, "review.assigned").await.len(), 1);
    assert_eq!(audited(&app, "review.conflict_declared").await.len(), 1);
}

#[tokio::test]
async fn assigning_unassigning_and_declaring_a_conflict_audit_the_paper_and_the_reviewer() {
    let app = assignment_app().await;
    let references = twelve_papers(&app).await;
    let (ada, bo, _) = three_reviewers(&app).await;
    let now = datetime!(2025-02-24 10:00 +08:00);
    let paper = references[5].as_str();

    let assigned = assignments::assign_one(&app.pool, now, &chair(), paper, &ada.to_string()).await.unwrap();
    assert_eq!(assigned, ByHand { reference: paper.to_owned(), reviewer_id: ada, number: Some(1) });
    assignments::assign_one(&app.pool, now, &chair(), paper, &bo.to_string()).await.unwrap();
    let unassigned = assignments::unassign(&app.pool, now, &chair(), paper, &ada.to_string()).await.unwrap();
    assert_eq!(unassigned.number, Some(1));
    let declared = assignments::declare_conflict(&app.pool, now, &chair(), paper, &bo.to_string()).await.unwrap();
    assert_eq!(declared, ByHand { reference: paper.to_owned(), reviewer_id: bo, number: Some(2) });
    assert!(live(&app).await.is_empty(), "both withdrawn");

    let entries: Vec<(String, Option<String>, String, String, String)> = sqlx::query_as(
        "SELECT actor, client, action, object_type, object_id FROM audit_log \
         WHERE action IN ('review.assigned', 'review.unassigned', 'review.conflict_declared') ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    let actions: Vec<&str> = entries.iter().map(|e| e.2.as_str()).collect();
    assert_eq!(actions, ["review.assigned", "review.assigned", "review.unassigned", "review.conflict_declared"]);
    assert!(entries.iter().all(|e| e.0 == "chair@example.org" && e.1.as_deref() == Some("203.0.113.9")));
    assert!(entries.iter().all(|e| e.3 == "submission" && e.4 == paper));
    let details = |n: usize, action: &'static str| {
        let app = &app;
        async move { serde_json::from_str::<serde_json::Value>(&audited(app, action).await[n].1).unwrap() }
    };
    let first = details(0, "review.assigned").await;
    assert_eq!(first["reviewer"], "Ada Lovelace <ada@engines.example>");
    assert_eq!((first["reviewer_number"].as_i64(), first["assignment"].as_str()), (Some(1), Some("staged")));
    let unassigned = details(0, "review.unassigned").await;
    assert_eq!(unassigned["assignment"], serde_json::json!({ "before": "staged", "after": "withdrawn" }));
    let conflict = details(0, "review.conflict_declared").await;
    assert_eq!(conflict["reviewer"], "Bo Lantern <bo@lanternworks.example>");
    assert_eq!(conflict["withdrawn"], "Reviewer 2 (staged)");
}
