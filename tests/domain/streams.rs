//! `conference::attendance::streams::set`: an organiser sets, changes or removes a streamed
//! session's link.

use conference::attendance::streams::{self, Saved};
use conference::error::Refused;
use conference::programme::timetable::Programme;
use conference::repo::audit::Actor;
use serde_json::Value;
use time::OffsetDateTime;
use time::macros::datetime;

use crate::common::{TestApp, app};

const NOW: OffsetDateTime = datetime!(2025-03-10 02:00 UTC);
const URL: &str = "https://stream.example.org/live/session-a";

fn chair() -> Actor {
    Actor { email: "chair@example.org".into(), client: Some("203.0.113.9".into()) }
}

/// `session`'s link set to `url` and `label` by [`chair`], with the app's programme.
async fn set(app: &TestApp, session: &str, url: &str, label: &str) -> Result<Saved, Refused> {
    let snapshot = app.state.content.snapshot().await;
    let programme = Programme::of(&snapshot).expect("the fixture's programme");
    streams::set(&app.pool, NOW, &chair(), &programme, session, url, label).await
}

/// An audit entry: (actor, client, action, session, details).
type Entry<D> = (String, Option<String>, String, Option<String>, D);

/// The stream entries, oldest first: (actor, client, action, session, details).
async fn audited(app: &TestApp) -> Vec<Entry<Value>> {
    let rows: Vec<Entry<String>> = sqlx::query_as(
        "SELECT actor, client, action, object_id, details FROM audit_log WHERE action LIKE 'stream.%' ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    rows.into_iter().map(|(a, c, action, id, d)| (a, c, action, id, serde_json::from_str(&d).unwrap())).collect()
}

#[tokio::test]
async fn setting_a_stream_refuses_unknown_and_in_person_sessions_and_bad_input_and_stores_nothing() {
    let app = app().await;
    let unknown = set(&app, "no-such-session", URL, "").await;
    assert!(matches!(&unknown, Err(Refused::NotFound(m)) if m == "The programme has no session no-such-session."));
    match set(&app, "tidal-keynote", URL, "").await {
        Err(Refused::Conflicted(message)) => assert!(message.starts_with("This session is in person only")),
        other => panic!("an in-person session has no stream, got {other:?}"),
    }
    for (url, label, field) in [("ftp://files.example.org/", "", "url"), (URL, &*"a".repeat(81), "label")] {
        match set(&app, "session-a", url, label).await {
            Err(Refused::Invalid { errors, .. }) => assert!(errors.contains_key(field), "{errors:?}"),
            other => panic!("refused as invalid ({field}), got {other:?}"),
        }
    }
    assert_eq!(set(&app, "session-a", "", "").await.unwrap(), Saved::Unchanged, "no link to remove");
    assert_eq!(app.count("stream_links").await, 0, "nothing stored");
    assert!(audited(&app).await.is_empty(), "nothing audited");
}

#[tokio::test]
async fn setting_and_removing_a_stream_is_audited_with_the_address_before_and_after() {
    let app = app().await;
    assert_eq!(set(&app, "session-a", URL, " Zoom ").await.unwrap(), Saved::Set);
    assert_eq!(set(&app, "session-a", URL, "Zoom").await.unwrap(), Saved::Unchanged, "a second click");
    assert_eq!(set(&app, "session-a", "", "").await.unwrap(), Saved::Removed);
    assert_eq!(app.count("stream_links").await, 0);
    let entries = audited(&app).await;
    let actions: Vec<(&str, Option<&str>)> = entries.iter().map(|e| (e.2.as_str(), e.3.as_deref())).collect();
    assert_eq!(actions, [("stream.set", Some("session-a")), ("stream.removed", Some("session-a"))]);
    assert!(entries.iter().all(|e| e.0 == "chair@example.org" && e.1.as_deref() == Some("203.0.113.9")));
    assert_eq!(entries[0].4["url"], serde_json::json!({ "before": null, "after": URL }));
    assert_eq!(entries[0].4["label"]["after"], "Zoom");
    assert_eq!(entries[1].4["url"], serde_json::json!({ "before": URL, "after": null }));
}
