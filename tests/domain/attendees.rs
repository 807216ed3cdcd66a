//! `conference::attendance::attendee`: the name on a ticket, changed by its attendee.

use conference::attendance::attendee::{self, NameChange};
use conference::error::Refused;
use conference::repo::attendees::ticket_by_code;
use conference::repo::audit::{ATTENDEE, Actor};
use time::OffsetDateTime;
use time::macros::datetime;

use crate::check_in::{app, ticket};
use crate::common::TestApp;
use crate::common::fixture::LISTENER_PHYSICAL;

fn holder() -> Actor {
    Actor { email: ATTENDEE.into(), client: None }
}

/// Before the fixture's `attendee_changes_until`.
const OPEN: OffsetDateTime = datetime!(2025-03-07 09:00 UTC);

async fn change(app: &TestApp, code: &str, now: OffsetDateTime, typed: &str) -> Result<NameChange, Refused> {
    let zone = app.state.content.snapshot().await.zone.clone();
    let ticket = ticket_by_code(&app.pool, code).await.unwrap().unwrap();
    attendee::change_name(&app.pool, now, &zone, &holder(), &ticket, typed).await
}

async fn audited(app: &TestApp) -> Vec<(String, Option<String>, String, String)> {
    sqlx::query_as("SELECT actor, client, object_id, details FROM audit_log WHERE action = 'ticket.name_changed'")
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

async fn name(app: &TestApp, code: &str) -> String {
    ticket_by_code(&app.pool, code).await.unwrap().unwrap().holder_name
}

#[tokio::test]
async fn a_bad_name_a_closed_window_and_a_refunded_ticket_change_nothing() {
    let app = app().await;
    let (order_id, code) = ticket(&app, LISTENER_PHYSICAL, "Ada Name").await;
    match change(&app, &code, OPEN, "").await {
        Err(Refused::Invalid { message, errors }) => {
            assert_eq!(message, "The name was not changed: please correct it below.");
            assert!(errors.contains_key("name"));
        }
        other => panic!("invalid, got {other:?}"),
    }
    let closed = change(&app, &code, datetime!(2025-03-21 01:00 UTC), "Ada Lovelace").await;
    assert!(
        matches!(&closed, Err(Refused::NotAllowed(m)) if m.contains("can no longer be changed here")),
        "{closed:?}"
    );
    sqlx::query("UPDATE tickets SET refunded_at = '2025-03-06T00:00:00Z' WHERE order_id = $1")
        .bind(&order_id)
        .execute(&app.pool)
        .await
        .unwrap();
    let refunded = change(&app, &code, OPEN, "Ada Lovelace").await;
    assert!(
        matches!(&refunded, Err(Refused::NotAllowed(m)) if m.starts_with("This ticket was refunded")),
        "{refunded:?}"
    );
    assert_eq!(name(&app, &code).await, "Ada Name");
    assert!(audited(&app).await.is_empty(), "nothing audited");
}

#[tokio::test]
async fn a_name_change_is_audited_by_the_attendee_with_before_and_after() {
    let app = app().await;
    let (order_id, code) = ticket(&app, LISTENER_PHYSICAL, "Ada Name").await;
    let changed = change(&app, &code, OPEN, "  Ada Lovelace ").await.unwrap();
    assert!(matches!(changed, NameChange::Changed { ref after, .. } if after == "Ada Lovelace"), "{changed:?}");
    assert_eq!(change(&app, &code, OPEN, "Ada Lovelace").await.unwrap(), NameChange::Unchanged);
    assert_eq!(name(&app, &code).await, "Ada Lovelace");
    let entries = audited(&app).await;
    assert_eq!(entries.len(), 1, "the same name again records nothing");
    let (actor, client, object, details) = &entries[0];
    assert_eq!((actor.as_str(), client.as_deref(), object.as_str()), (ATTENDEE, None, order_id.as_str()));
    let details: serde_json::Value = serde_json::from_str(details).unwrap();
    assert_eq!(details["holder_name"], serde_json::json!({ "before": "Ada Name", "after": "Ada Lovelace" }));
}
