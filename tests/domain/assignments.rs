//! `conference::review::assignments`: staging, releasing and discarding assignments, and
//! assigning by hand.

use conference::error::Refused;
use conference::repo::audit::Actor;
use conference::review::assignments::{self, Staged};
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
