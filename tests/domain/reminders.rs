//! `conference::review::reminders::remind_now`: an organiser's "remind now" to one reviewer.

use conference::error::Refused;
use conference::repo::audit::Actor;
use conference::review::reminders::{self, Reminded};
use time::macros::datetime;

use crate::common::review::add_reviewer;
use crate::review_decisions::{assign, paper, reminders as queued, review_app, set_deadline};

fn chair() -> Actor {
    Actor { email: "chair@example.org".into(), client: Some("203.0.113.9".into()) }
}

/// `review.reminded` entries: (actor, client, object type, object id, details).
async fn reminded(app: &crate::common::TestApp) -> Vec<(String, Option<String>, String, String, String)> {
    sqlx::query_as(
        "SELECT actor, client, object_type, object_id, details FROM audit_log WHERE action = 'review.reminded' ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn remind_now_refuses_anyone_but_a_reviewer_with_unsubmitted_reviews_and_mails_nobody() {
    let now = datetime!(2025-02-28 09:00 UTC);
    let app = review_app(now).await;
    set_deadline(&app, "2025-02-28 17:00").await;
    let idle = add_reviewer(&app, "sam@reviewers.example", "Sam Idle", "Fog Institute", "Tides").await;
    for id in ["99999".to_owned(), "abc".to_owned()] {
        let refused = reminders::remind_now(&app.pool, &app.config, now, &chair(), &id).await;
        assert!(matches!(&refused, Err(Refused::NotFound(m)) if m == "No reviewer has this number."), "{refused:?}");
    }
    let refused = reminders::remind_now(&app.pool, &app.config, now, &chair(), &idle.to_string()).await;
    assert!(
        matches!(&refused, Err(Refused::NotAllowed(m))
            if m == "Sam Idle (sam@reviewers.example) has no unsubmitted review, so nobody was mailed."),
        "{refused:?}"
    );
    assert!(queued(&app).await.is_empty(), "nobody mailed");
    assert!(reminded(&app).await.is_empty(), "nothing audited");
}

#[tokio::test]
async fn remind_now_queues_one_mail_a_minute_and_audits_each_press() {
    let now = datetime!(2025-02-28 09:00 UTC);
    let app = review_app(now).await;
    set_deadline(&app, "2025-02-28 17:00").await;
    let rita = add_reviewer(&app, "rita@reviewers.example", "Rita Reviewer", "Fog Institute", "Tides").await;
    let (submission, _) = paper(&app, "author@papers.example", "Fog signals", "R-FOG234").await;
    assign(&app, submission, rita, 1, "released").await;

    let first = reminders::remind_now(&app.pool, &app.config, now, &chair(), &rita.to_string()).await.unwrap();
    assert_eq!(first, Reminded { reviewer_id: rita, queued: true });
    // A second press within the minute mails nobody twice, and is recorded as such.
    let second = reminders::remind_now(&app.pool, &app.config, now, &chair(), &rita.to_string()).await.unwrap();
    assert_eq!(second, Reminded { reviewer_id: rita, queued: false });
    let mails = queued(&app).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(
        (mails[0].0.as_str(), mails[0].1.as_str()),
        (format!("review-reminder:now:{rita}:2025-02-28T09:00").as_str(), "rita@reviewers.example")
    );

    let entries = reminded(&app).await;
    assert_eq!(entries.len(), 2);
    let (actor, client, object_type, object_id, details) = &entries[0];
    assert_eq!((actor.as_str(), client.as_deref()), ("chair@example.org", Some("203.0.113.9")));
    assert_eq!((object_type.as_str(), object_id.clone()), ("reviewer", rita.to_string()));
    let details: serde_json::Value = serde_json::from_str(details).unwrap();
    assert_eq!(details["papers"], 1);
    assert_eq!(
        (details["mail"]["to"].as_str(), details["mail"]["queued"].as_bool()),
        (Some("rita@reviewers.example"), Some(true))
    );
    let again: serde_json::Value = serde_json::from_str(&entries[1].4).unwrap();
    assert_eq!(again["mail"]["queued"], false);
}
