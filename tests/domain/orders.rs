//! `conference::payments::by_hand`: an order's internal note and a refund recorded by hand.

use conference::error::Refused;
use conference::payments::by_hand;
use conference::repo::audit::Actor;
use serde_json::json;

use crate::certificates::{ALMA, app, pay_as};
use crate::common::TestApp;
use crate::common::fixture::LISTENER_PHYSICAL;
use crate::common::payments::{checkout, initiate};

fn chair() -> Actor {
    Actor { email: "chair@example.org".into(), client: Some("203.0.113.9".into()) }
}

/// (action, actor, client, object id, details) of the orders' audit entries.
async fn audited(app: &TestApp) -> Vec<(String, String, Option<String>, String, String)> {
    sqlx::query_as(
        "SELECT action, actor, client, object_id, details FROM audit_log WHERE action LIKE 'order.%' ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap()
}

async fn refunded_at(app: &TestApp, order_id: &str) -> Option<String> {
    sqlx::query_scalar("SELECT refunded_at FROM orders WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn refunds_of_unknown_or_unpaid_orders_and_notes_of_unknown_ones_are_refused() {
    let app = app().await;
    let now = app.state.clock.now();
    let unpaid = initiate(&app, &checkout(json!({ "plan": LISTENER_PHYSICAL.id }))).await.order_id;
    assert!(matches!(by_hand::refund(&app.pool, now, &chair(), "NO-SUCH").await, Err(Refused::NotFound(_))));
    assert!(matches!(by_hand::set_note(&app.pool, now, &chair(), "NO-SUCH", "x").await, Err(Refused::NotFound(_))));
    match by_hand::refund(&app.pool, now, &chair(), &unpaid).await {
        Err(Refused::NotAllowed(message)) => {
            assert_eq!(message, format!("Order {unpaid} was not paid; nothing was changed."))
        }
        other => panic!("not allowed, got {other:?}"),
    }
    assert_eq!(refunded_at(&app, &unpaid).await, None);
    assert!(audited(&app).await.is_empty(), "nothing audited");
}

#[tokio::test]
async fn a_refund_and_a_note_are_audited_by_the_organiser_and_a_second_refund_is_refused() {
    let app = app().await;
    let now = app.state.clock.now();
    let paid = pay_as(&app, LISTENER_PHYSICAL, ALMA.0, ALMA.1).await;
    let refunded = by_hand::refund(&app.pool, now, &chair(), &paid).await.unwrap();
    assert_eq!(refunded.order_id, paid);
    assert!(refunded.credit_note.is_some(), "a paid registration's receipt gets its credit note");
    assert!(refunded_at(&app, &paid).await.is_some());
    match by_hand::refund(&app.pool, now, &chair(), &paid).await {
        Err(Refused::NotAllowed(message)) => assert!(message.contains("is marked refunded already"), "{message}"),
        other => panic!("not allowed, got {other:?}"),
    }
    by_hand::set_note(&app.pool, now, &chair(), &paid, "Called back").await.unwrap();
    let entries = audited(&app).await;
    assert_eq!(entries.len(), 2, "the refused second refund records nothing");
    let (action, actor, client, object, details) = &entries[0];
    assert_eq!(
        (action.as_str(), actor.as_str(), client.as_deref()),
        ("order.refunded", "chair@example.org", Some("203.0.113.9"))
    );
    assert_eq!(object, &paid);
    let details: serde_json::Value = serde_json::from_str(details).unwrap();
    assert_eq!(details["credit_note"].as_str(), refunded.credit_note.as_deref());
    let (action, _, _, _, details) = &entries[1];
    assert_eq!(action, "order.note");
    let details: serde_json::Value = serde_json::from_str(details).unwrap();
    assert_eq!(details["note"]["after"], "Called back");
}
