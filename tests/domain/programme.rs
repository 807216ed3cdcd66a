//! `conference::programme::{placing, public_fields, publish}`: how a talk is placed, moved and
//! taken out; the lock on authors' edits and a paper's public fields; publishing a version.

use conference::error::{AppError, Outcome, Refused};
use conference::programme::placing::{self, Direction, Minutes, Placed};
use conference::programme::public_fields::{self, Lock};
use conference::programme::publish;
use conference::repo::audit::Actor;
use serde_json::Value;
use time::OffsetDateTime;
use time::macros::datetime;

use crate::common::programme::{PAPERS, accepted, moved_mail, place};
use crate::common::{TestApp, app};

const NOW: OffsetDateTime = datetime!(2025-03-10 02:00 UTC);

fn chair() -> Actor {
    Actor { email: "chair@example.org".into(), client: Some("203.0.113.9".into()) }
}

/// The message of a refusal the programme page shows again with 400.
fn bad_request<T: std::fmt::Debug>(outcome: Outcome<T>) -> String {
    match outcome {
        Err(Refused::Failed(AppError::BadRequest(message))) => message,
        other => panic!("refused with 400, got {other:?}"),
    }
}

/// The placement: (submission id, session, position, minutes).
async fn placements(app: &TestApp) -> Vec<(i64, String, i64, i64)> {
    sqlx::query_as("SELECT submission_id, session, position, minutes FROM placements ORDER BY session, position")
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

/// An audit entry: (actor, client, action, object id, details, at).
type Entry<D> = (String, Option<String>, String, Option<String>, D, String);

/// The entries whose action starts with `prefix`, oldest first: (actor, client, action,
/// object id, details, at).
async fn audited(app: &TestApp, prefix: &str) -> Vec<Entry<Value>> {
    let rows: Vec<Entry<String>> = sqlx::query_as(
        "SELECT actor, client, action, object_id, details, at FROM audit_log WHERE action LIKE $1 ORDER BY id",
    )
    .bind(format!("{prefix}%"))
    .fetch_all(&app.pool)
    .await
    .unwrap();
    rows.into_iter()
        .map(|(actor, client, action, id, details, at)| {
            (actor, client, action, id, serde_json::from_str(&details).unwrap(), at)
        })
        .collect()
}

#[tokio::test]
async fn placing_refuses_what_it_cannot_place_or_move_and_stores_nothing() {
    let app = app().await;
    let placed = accepted(&app, &PAPERS[0]).await;
    let withdrawn = accepted(&app, &PAPERS[1]).await;
    sqlx::query("UPDATE submissions SET state = 'withdrawn' WHERE id = $1")
        .bind(withdrawn)
        .execute(&app.pool)
        .await
        .unwrap();
    let (first, second) = (PAPERS[0].reference, PAPERS[1].reference);
    let minutes = Minutes::new(20).unwrap();
    let organiser = chair();

    for typed in ["0", "601", "ten"] {
        assert!(bad_request(Minutes::parse(typed)).contains("is not a talk length"), "{typed}");
    }
    assert!(bad_request(Direction::parse("sideways")).contains("use \"earlier\" or \"later\""));
    let place_in = |reference: &'static str, session: &'static str| {
        placing::place(&app.pool, NOW, &organiser, reference, session, minutes)
    };
    assert_eq!(bad_request(place_in("", "session-a").await), "No paper was chosen. Choose one and try again.");
    assert_eq!(bad_request(place_in("P-NOPE", "session-a").await), "No submission has the reference P-NOPE.");
    assert!(bad_request(place_in(second, "session-a").await).ends_with("only accepted papers can be placed."));
    assert_eq!(bad_request(place_in(first, "no-such-session").await), "The programme has no session no-such-session.");
    assert!(
        bad_request(place_in(first, "tidal-keynote").await)
            .ends_with("only technical and poster sessions take papers.")
    );
    let not_placed = bad_request(placing::move_talk(&app.pool, NOW, &chair(), first, Direction::Later).await);
    assert!(not_placed.ends_with("is not in the programme; nothing was changed."), "{not_placed}");
    assert_eq!(bad_request(placing::remove(&app.pool, NOW, &chair(), first).await), not_placed);

    // Placed alone in its session, it is both its first and its last talk.
    place(&app, placed, "session-a", 20).await;
    let earlier = bad_request(placing::move_talk(&app.pool, NOW, &chair(), first, Direction::Earlier).await);
    assert!(earlier.ends_with("is already the first talk of its session; nothing was changed."), "{earlier}");
    let later = bad_request(placing::move_talk(&app.pool, NOW, &chair(), first, Direction::Later).await);
    assert!(later.ends_with("is already the last talk of its session; nothing was changed."), "{later}");

    assert_eq!(placements(&app).await, [(placed, "session-a".to_owned(), 1, 20)], "nothing else stored");
    assert!(audited(&app, "programme.").await.is_empty(), "nothing audited");
}

#[tokio::test]
async fn placing_audits_who_placed_moved_and_removed_which_talk_in_its_transaction() {
    let app = app().await;
    let (a, b) = (accepted(&app, &PAPERS[0]).await, accepted(&app, &PAPERS[1]).await);
    let (first, second) = (PAPERS[0].reference, PAPERS[1].reference);
    let at = |minutes| Minutes::new(minutes).unwrap();
    let placed = placing::place(&app.pool, NOW, &chair(), first, "session-a", at(20)).await.unwrap();
    assert_eq!(placed, Placed { reference: first.to_owned(), changed: true });
    let again = placing::place(&app.pool, NOW, &chair(), first, "session-a", at(20)).await.unwrap();
    assert!(!again.changed, "a second click changes nothing");
    placing::place(&app.pool, NOW, &chair(), second, "session-a", at(15)).await.unwrap();
    placing::move_talk(&app.pool, NOW, &chair(), second, Direction::Earlier).await.unwrap();
    assert_eq!(placements(&app).await, [(b, "session-a".to_owned(), 1, 15), (a, "session-a".to_owned(), 2, 20)]);
    placing::place(&app.pool, NOW, &chair(), first, "session-a", at(30)).await.unwrap();
    placing::remove(&app.pool, NOW, &chair(), second).await.unwrap();
    assert_eq!(placements(&app).await, [(a, "session-a".to_owned(), 1, 30)], "the gap is closed");

    let entries = audited(&app, "programme.").await;
    let actions: Vec<(&str, Option<&str>)> =
        entries.iter().map(|(_, _, action, id, _, _)| (action.as_str(), id.as_deref())).collect();
    assert_eq!(
        actions,
        [
            ("programme.placed", Some(first)),
            ("programme.placed", Some(second)),
            ("programme.moved", Some(second)),
            ("programme.placed", Some(first)),
            ("programme.removed", Some(second)),
        ]
    );
    for (actor, client, _, _, _, stamp) in &entries {
        assert_eq!((actor.as_str(), client.as_deref()), ("chair@example.org", Some("203.0.113.9")));
        assert!(stamp.starts_with("2025-03-10T02:00:00"), "stamped with the clock it was given: {stamp}");
    }
    let details: Vec<&Value> = entries.iter().map(|e| &e.4).collect();
    assert_eq!(details[0]["session"], serde_json::json!({ "before": null, "after": "session-a" }));
    assert_eq!(details[0]["minutes"]["after"], 20);
    assert_eq!(details[2]["position"], serde_json::json!({ "before": 2, "after": 1 }));
    assert_eq!(details[3]["minutes"], serde_json::json!({ "before": 20, "after": 30 }));
    assert_eq!(details[4]["session"], serde_json::json!({ "before": "session-a", "after": null }));
}

#[tokio::test]
async fn the_lock_and_a_papers_public_fields_refuse_bad_input_and_audit_each_change() {
    let app = app().await;
    accepted(&app, &PAPERS[0]).await;
    let reference = PAPERS[0].reference;
    let organiser = chair();
    let edit = |text: &'static str, presenter: &'static str| {
        public_fields::edit_paper(&app.pool, NOW, &organiser, reference, text, presenter)
    };
    let unknown = public_fields::edit_paper(&app.pool, NOW, &chair(), "P-NOPE", "Text.", "Ana Cruz").await;
    assert!(matches!(unknown, Err(Refused::NotFound(_))), "{unknown:?}");
    assert!(bad_request(edit("Text.", "Somebody Else").await).contains("is not an author of this paper"));
    let long = "word ".repeat(301);
    let too_long = public_fields::edit_paper(&app.pool, NOW, &organiser, reference, &long, "Ana Cruz").await;
    assert!(bad_request(too_long).contains("at most 300"));
    assert!(audited(&app, "programme.").await.is_empty(), "nothing audited");
    let view = public_fields::paper_view(&app.pool, reference).await.unwrap();
    assert_eq!((view.public_abstract.as_str(), view.presenter.as_str()), ("", "Ana Cruz"), "nothing stored");

    let locked = public_fields::set_lock(&app.pool, NOW, &chair(), true).await.unwrap();
    assert_eq!(locked, Lock { locked: true, changed: true });
    let twice = public_fields::set_lock(&app.pool, NOW, &chair(), true).await.unwrap();
    assert_eq!(twice, Lock { locked: true, changed: false });
    let view = public_fields::paper_view(&app.pool, reference).await.unwrap();
    assert_eq!(view.lock.map(|(_, by)| by).as_deref(), Some("chair@example.org"));
    public_fields::set_lock(&app.pool, NOW, &chair(), false).await.unwrap();
    let saved = edit("A short public abstract.", "ben uy").await.unwrap();
    assert!(saved.changed);
    assert!(!edit("A short public abstract.", "Ben Uy").await.unwrap().changed, "the same again");

    let entries = audited(&app, "programme.").await;
    let actions: Vec<&str> = entries.iter().map(|e| e.2.as_str()).collect();
    assert_eq!(actions, ["programme.locked", "programme.unlocked", "programme.paper_edited"]);
    assert!(entries.iter().all(|e| e.0 == "chair@example.org" && e.1.as_deref() == Some("203.0.113.9")));
    assert_eq!(entries[0].4["locked"], serde_json::json!({ "before": false, "after": true }));
    assert_eq!(entries[2].3.as_deref(), Some(reference));
    assert_eq!(entries[2].4["presenter"], serde_json::json!({ "before": "", "after": "Ben Uy" }));
    assert_eq!(entries[2].4["public_abstract"]["after"], "A short public abstract.");
}

#[tokio::test]
async fn publishing_refuses_a_bad_form_conflicts_and_a_stale_number_and_audits_the_version() {
    let app = app().await;
    let id = accepted(&app, &PAPERS[0]).await;
    let organiser = chair();
    let publish = |expected: &'static str, name: &'static str| {
        publish::publish_version(&app.pool, NOW, &organiser, expected, name, &moved_mail)
    };
    assert_eq!(
        bad_request(publish("x", "Version one").await),
        "The form's version number is not a number. Load the page again."
    );
    assert!(bad_request(publish("1", " ").await).starts_with("Give the version a name"));
    // Ten hours in a three-hour session: an overrun, which publishing waits for.
    place(&app, id, "session-a", 600).await;
    match publish("1", "Version one").await {
        Err(Refused::NotAllowed(message)) => assert!(message.ends_with("Nothing was published."), "{message}"),
        other => panic!("refused while in conflict, got {other:?}"),
    }
    assert_eq!(app.count("programme_versions").await, 0, "nothing published");
    assert!(audited(&app, "programme.").await.is_empty(), "nothing audited");

    sqlx::query("UPDATE placements SET minutes = 20").execute(&app.pool).await.unwrap();
    let version = publish("1", "Version one").await.unwrap();
    assert_eq!((version.number, version.name.as_str()), (1, "Version one"));
    match publish("1", "Version one again").await {
        Err(Refused::Stale(message)) => assert!(message.starts_with("Version 1 was just published"), "{message}"),
        other => panic!("a page drawn before version 1 is stale, got {other:?}"),
    }
    let entries = audited(&app, "programme.").await;
    assert_eq!(entries.len(), 1, "one version, one entry");
    let (actor, client, action, object, details, _) = &entries[0];
    assert_eq!((actor.as_str(), client.as_deref()), ("chair@example.org", Some("203.0.113.9")));
    assert_eq!((action.as_str(), object.as_deref()), ("programme.published", Some("1")));
    assert!(version.talks.iter().any(|t| t.submission == Some(id)), "the placed paper is a talk of it");
    let talks = u64::try_from(version.talks.len()).unwrap();
    assert_eq!((details["name"].as_str(), details["talks"].as_u64()), (Some("Version one"), Some(talks)));
}
