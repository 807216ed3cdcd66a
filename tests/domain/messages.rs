//! `conference::mail::messages`: an organiser opening a contact message and marking it
//! answered or not, with an internal note.

use conference::error::Refused;
use conference::mail::messages::{self, MessageUpdated};
use conference::repo::audit::Actor;
use conference::repo::messages::NewMessage;
use time::OffsetDateTime;
use time::macros::datetime;

use crate::common::{TestApp, app};

const NOW: OffsetDateTime = datetime!(2025-02-24 10:00 +08:00);

fn chair() -> Actor {
    Actor { email: "chair@fixcon.example".into(), client: Some("203.0.113.9".into()) }
}

/// A stored contact message; its id.
async fn message(app: &TestApp) -> String {
    let new = NewMessage {
        name: "Ana Cruz".into(),
        number: "+639171234567".into(),
        email: "ana@example.org".into(),
        country: "Philippines".into(),
        message: "Is there a student rate?".into(),
    };
    let mut tx = conference::db::begin_write(&app.pool).await.unwrap();
    let stored = conference::repo::messages::insert(&mut tx, &new).await.unwrap();
    tx.commit().await.unwrap();
    stored.id
}

/// The `message.updated` entries: (actor, client, object id, details).
async fn updates(app: &TestApp) -> Vec<(String, Option<String>, Option<String>, serde_json::Value)> {
    let rows: Vec<(String, Option<String>, Option<String>, String)> = sqlx::query_as(
        "SELECT actor, client, object_id, details FROM audit_log WHERE action = 'message.updated' ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    rows.into_iter().map(|(a, c, o, d)| (a, c, o, serde_json::from_str(&d).unwrap())).collect()
}

#[tokio::test]
async fn an_unknown_message_is_refused_as_not_found_and_nothing_is_recorded() {
    let app = app().await;
    let id = message(&app).await;
    let refused = messages::mark_answered(&app.pool, NOW, &chair(), "nosuchmessage", true, "noted").await;
    assert!(
        matches!(&refused, Err(Refused::NotFound(m)) if m == "No message has the id nosuchmessage."),
        "{refused:?}"
    );
    let opened = messages::open(&app.pool, NOW, &"x".repeat(60)).await;
    assert!(
        matches!(&opened, Err(Refused::NotFound(m)) if m.contains(&"x".repeat(40)) && !m.contains(&"x".repeat(41)))
    );
    assert!(updates(&app).await.is_empty(), "nothing audited");
    let (answered, note): (Option<String>, String) =
        sqlx::query_as("SELECT answered_at, note FROM messages WHERE id = $1")
            .bind(&id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!((answered, note.as_str()), (None, ""), "the other message is untouched");
}

#[tokio::test]
async fn marking_answered_is_audited_before_and_after_and_keeps_the_first_answerer() {
    let app = app().await;
    let id = message(&app).await;
    let opened = messages::open(&app.pool, NOW, &id).await.unwrap();
    assert!(opened.read_at.as_deref().is_some_and(|at| at.starts_with("2025-02-24T02:00:00")), "read now");
    let later = NOW + time::Duration::HOUR;
    assert_eq!(messages::open(&app.pool, later, &id).await.unwrap().read_at, opened.read_at, "first reading counts");

    let updated = messages::mark_answered(&app.pool, NOW, &chair(), &id, true, "Sent the student rate").await.unwrap();
    let answered = Some(("chair@fixcon.example".to_owned(), conference::clock::stamp::timestamp(NOW)));
    assert_eq!(
        updated,
        MessageUpdated { id: id.clone(), answered: answered.clone(), note: "Sent the student rate".into() }
    );
    let entries = updates(&app).await;
    assert_eq!(entries.len(), 1);
    let (actor, client, object, details) = &entries[0];
    assert_eq!(
        (actor.as_str(), client.as_deref(), object.as_deref()),
        ("chair@fixcon.example", Some("203.0.113.9"), Some(id.as_str()))
    );
    assert_eq!(details["answered"], serde_json::json!({ "before": false, "after": true }));
    assert_eq!(details["note"], serde_json::json!({ "before": "", "after": "Sent the student rate" }));

    // Another organiser saving the form again keeps who answered and when.
    let treasurer = Actor { email: "treasurer@fixcon.example".into(), client: None };
    let again = messages::mark_answered(&app.pool, later, &treasurer, &id, true, "").await.unwrap();
    assert_eq!(again.answered, answered);
    let unanswered = messages::mark_answered(&app.pool, later, &treasurer, &id, false, "").await.unwrap();
    assert_eq!(unanswered.answered, None);
    let entries = updates(&app).await;
    assert_eq!(entries.len(), 3);
    assert_eq!(entries[2].0, "treasurer@fixcon.example");
    assert_eq!(entries[2].3["answered"], serde_json::json!({ "before": true, "after": false }));
}
