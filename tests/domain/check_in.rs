//! `conference::attendance::check_in`: the desk's check of a scanned or typed code.

use conference::attendance::check_in::{self, Answer};
use conference::config::CheckInDays;
use conference::error::Refused;
use conference::repo::audit::Actor;

use crate::check_in::{FIRST_DAY, app, check_ins, ticket};
use crate::common::TestApp;
use crate::common::fixture::LISTENER_PHYSICAL;

fn door() -> Actor {
    Actor { email: "door@fixcon.example".into(), client: Some("203.0.113.7".into()) }
}

/// Checks `typed` in as [`door`] at the first day's morning, on the conference's days.
async fn check(app: &TestApp, typed: &str) -> Result<Answer, Refused> {
    let zone = app.state.content.snapshot().await.zone.clone();
    let days = ("2025-03-21", "2025-03-23");
    check_in::check_in(&app.pool, typed, "http://x", &door(), FIRST_DAY, &zone, &CheckInDays::Conference, days).await
}

async fn audited(app: &TestApp) -> Vec<(String, Option<String>, Option<String>, String)> {
    sqlx::query_as("SELECT actor, client, object_id, details FROM audit_log WHERE action = 'ticket.checked_in'")
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn an_empty_or_overlong_code_is_refused_for_its_field_and_checks_nothing_in() {
    let app = app().await;
    ticket(&app, LISTENER_PHYSICAL, "Ada Desk").await;
    for typed in ["  ", &"A".repeat(301)] {
        match check(&app, typed).await {
            Err(Refused::Invalid { message, errors }) => assert_eq!(errors.get("code"), Some(&message)),
            other => panic!("refused as invalid, got {other:?}"),
        }
    }
    assert!(check_ins(&app).await.is_empty(), "nothing checked in");
    assert!(audited(&app).await.is_empty(), "nothing audited");
}

#[tokio::test]
async fn a_check_in_is_audited_by_the_desk_about_the_order_once_a_day() {
    let app = app().await;
    let (order_id, code) = ticket(&app, LISTENER_PHYSICAL, "Ada Desk").await;
    let Ok(Answer::Valid(valid)) = check(&app, &code).await else { panic!("valid") };
    assert_eq!(valid.order_id, order_id);
    match check(&app, &code).await {
        Ok(Answer::Already { by, .. }) => assert_eq!(by, "door@fixcon.example"),
        other => panic!("already, got {other:?}"),
    }
    assert_eq!(check_ins(&app).await, vec![(order_id.clone(), "2025-03-21".into(), "door@fixcon.example".into())]);
    let entries = audited(&app).await;
    assert_eq!(entries.len(), 1, "the second scan records nothing");
    let (actor, client, object, details) = &entries[0];
    assert_eq!((actor.as_str(), client.as_deref()), ("door@fixcon.example", Some("203.0.113.7")));
    assert_eq!(object.as_deref(), Some(order_id.as_str()));
    let details: serde_json::Value = serde_json::from_str(details).unwrap();
    assert_eq!(details["day"], "2025-03-21");
    assert_eq!(details["mode"], "physical");
}
