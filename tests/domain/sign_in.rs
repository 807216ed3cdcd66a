//! `conference::sign_in::links` and `conference::sign_in::sessions`: asking for a sign-in
//! link, signing in with it, signing out here and everywhere.

use conference::base::secrets::{self, Secret};
use conference::error::Refused;
use conference::repo::audit::Actor;
use conference::sign_in::links::{self, LINK_NOT_VALID, LinkRequested, NOT_AN_ADDRESS, TOO_MANY_LINKS};
use conference::sign_in::roles::Role;
use conference::sign_in::sessions::{self, SignedOutEverywhere};
use time::OffsetDateTime;
use time::macros::datetime;

use crate::common::TestApp;
use crate::organiser::{CHAIR, organisers_app_at};

const NOW: OffsetDateTime = datetime!(2025-02-24 10:00 +08:00);
const CLIENT: Option<&str> = Some("203.0.113.9");

/// The audit entries of `action`: (actor, client, object type, object id, details).
async fn audited(app: &TestApp, action: &str) -> Vec<(String, Option<String>, Option<String>, Option<String>, String)> {
    sqlx::query_as("SELECT actor, client, object_type, object_id, details FROM audit_log WHERE action = $1 ORDER BY id")
        .bind(action)
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

/// A link for `email` in `role` stored as `request_link` stores one, and its token.
async fn stored_link(app: &TestApp, email: &str, role: Role) -> String {
    let secret = Secret::generate();
    let (created, expires) = (stamp(NOW), stamp(NOW + secrets::LINK_LIFETIME));
    let mut tx = conference::db::begin_write(&app.pool).await.unwrap();
    conference::repo::organisers::insert_link(&mut tx, email, role.as_str(), &secret.hash, &created, &expires)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    secret.token
}

fn stamp(at: OffsetDateTime) -> String {
    conference::clock::stamp::timestamp(at)
}

#[tokio::test]
async fn request_link_refuses_a_bad_address_and_the_sixth_link_in_an_hour_storing_nothing() {
    let app = organisers_app_at(conference::clock::Clock::fixed(NOW)).await;
    let refused = links::request_link(&app.pool, &app.config, NOW, Role::Organiser, "chair at fixcon", CLIENT).await;
    match refused {
        Err(Refused::Invalid { message, errors }) => {
            assert_eq!(message, NOT_AN_ADDRESS);
            assert_eq!(errors.get("email").map(String::as_str), Some(NOT_AN_ADDRESS), "the field is named");
        }
        other => panic!("refused as invalid, got {other:?}"),
    }
    assert_eq!(app.count("organiser_links").await, 0, "no link stored");

    for _ in 0..secrets::LINKS_PER_HOUR {
        links::request_link(&app.pool, &app.config, NOW, Role::Organiser, CHAIR, CLIENT).await.unwrap();
    }
    let sixth = links::request_link(&app.pool, &app.config, NOW, Role::Reviewer, CHAIR, CLIENT).await;
    assert!(matches!(&sixth, Err(Refused::NotAllowed(m)) if m == TOO_MANY_LINKS), "{sixth:?}");
    assert_eq!(app.count("organiser_links").await, secrets::LINKS_PER_HOUR, "the limit is per address, any role");
    assert_eq!(app.count("outbox").await, secrets::LINKS_PER_HOUR, "no sixth mail");
    assert_eq!(audited(&app, "auth.link_requested").await.len(), secrets::LINKS_PER_HOUR as usize);
    // An hour on, the address may ask again.
    let later = NOW + time::Duration::HOUR + time::Duration::SECOND;
    assert!(links::request_link(&app.pool, &app.config, later, Role::Organiser, CHAIR, CLIENT).await.is_ok());
}

#[tokio::test]
async fn request_link_mails_and_audits_a_holder_only() {
    let app = organisers_app_at(conference::clock::Clock::fixed(NOW)).await;
    let asked = links::request_link(&app.pool, &app.config, NOW, Role::Organiser, " Chair@FixCon.example ", CLIENT)
        .await
        .unwrap();
    assert_eq!(asked, LinkRequested { email: CHAIR.to_owned(), mailed: true });
    let entries = audited(&app, "auth.link_requested").await;
    assert_eq!(entries.len(), 1);
    let (actor, client, object_type, object_id, _) = &entries[0];
    assert_eq!((actor.as_str(), client.as_deref()), (CHAIR, CLIENT));
    assert_eq!((object_type.as_deref(), object_id.as_deref()), (Some("organiser"), Some(CHAIR)));
    let at: String = sqlx::query_scalar("SELECT at FROM audit_log WHERE action = 'auth.link_requested'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert!(at.starts_with("2025-02-24T02:00:00"), "stamped with the clock it was given, in UTC: {at}");

    // Another address gets a stored link (the same work, the same answer) but no mail and
    // no entry; so does an organiser asking for a reviewer's link.
    for (email, role) in [("someone@example.org", Role::Organiser), (CHAIR, Role::Reviewer)] {
        let asked = links::request_link(&app.pool, &app.config, NOW, role, email, CLIENT).await.unwrap();
        assert!(!asked.mailed, "{email} as {role:?}");
    }
    assert_eq!(app.count("organiser_links").await, 3);
    assert_eq!(app.count("outbox").await, 1);
    assert_eq!(audited(&app, "auth.link_requested").await.len(), 1);
}

#[tokio::test]
async fn sign_in_refuses_a_link_that_does_not_work_and_starts_no_session() {
    let app = organisers_app_at(conference::clock::Clock::fixed(NOW)).await;
    let other_role = stored_link(&app, CHAIR, Role::Reviewer).await;
    let not_a_holder = stored_link(&app, "someone@example.org", Role::Organiser).await;
    let expired = stored_link(&app, CHAIR, Role::Organiser).await;
    let late = NOW + secrets::LINK_LIFETIME + time::Duration::SECOND;
    for (token, at) in [
        ("not-a-token", NOW),
        (Secret::generate().token.as_str(), NOW),
        (other_role.as_str(), NOW),
        (not_a_holder.as_str(), NOW),
        (expired.as_str(), late),
    ] {
        let refused = links::sign_in(&app.pool, &app.config, at, Role::Organiser, token, CLIENT).await;
        assert!(matches!(&refused, Err(Refused::NotFound(m)) if m == LINK_NOT_VALID), "{token}: {refused:?}");
        assert_eq!(links::link_holder(&app.pool, &app.config, at, Role::Organiser, token).await.unwrap(), None);
    }
    assert_eq!(app.count("organiser_sessions").await, 0, "no session");
    assert!(audited(&app, "auth.signed_in").await.is_empty(), "nothing audited");
    let used: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM organiser_links WHERE used IS NOT NULL")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(used, 0, "a refused link is left unused");
}

#[tokio::test]
async fn sign_in_uses_the_link_once_and_audits_the_session_it_starts() {
    let app = organisers_app_at(conference::clock::Clock::fixed(NOW)).await;
    let token = stored_link(&app, CHAIR, Role::Organiser).await;
    let holder = links::link_holder(&app.pool, &app.config, NOW, Role::Organiser, &token).await.unwrap();
    assert_eq!(holder.as_deref(), Some(CHAIR), "reading the link uses nothing up");
    let signed_in = links::sign_in(&app.pool, &app.config, NOW, Role::Organiser, &token, CLIENT).await.unwrap();
    assert_eq!(signed_in.email, CHAIR);
    let stored: String = sqlx::query_scalar("SELECT email FROM organiser_sessions WHERE id_hash = $1")
        .bind(secrets::hash(&signed_in.session_token))
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(stored, CHAIR, "the session's id is stored as its hash");
    let entries = audited(&app, "auth.signed_in").await;
    assert_eq!(entries.len(), 1);
    let (actor, client, object_type, object_id, _) = &entries[0];
    assert_eq!((actor.as_str(), client.as_deref()), (CHAIR, CLIENT));
    assert_eq!((object_type.as_deref(), object_id.as_deref()), (Some("organiser"), Some(CHAIR)));

    let again = links::sign_in(&app.pool, &app.config, NOW, Role::Organiser, &token, CLIENT).await;
    assert!(matches!(again, Err(Refused::NotFound(_))), "a link works once");
    assert_eq!(audited(&app, "auth.signed_in").await.len(), 1);
}

#[tokio::test]
async fn signing_out_ends_one_session_or_all_and_audits_who_did() {
    let app = organisers_app_at(conference::clock::Clock::fixed(NOW)).await;
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let token = stored_link(&app, CHAIR, Role::Organiser).await;
        tokens.push(links::sign_in(&app.pool, &app.config, NOW, Role::Organiser, &token, CLIENT).await.unwrap());
    }
    let first: i64 = sqlx::query_scalar("SELECT id FROM organiser_sessions WHERE id_hash = $1")
        .bind(secrets::hash(&tokens[0].session_token))
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let chair = Actor { email: CHAIR.into(), client: Some("198.51.100.7".into()) };
    sessions::sign_out(&app.pool, NOW, &chair, first).await.unwrap();
    assert_eq!(app.count("organiser_sessions").await, 2, "this session only");
    let out = audited(&app, "auth.signed_out").await;
    assert_eq!(out.len(), 1);
    assert_eq!((out[0].0.as_str(), out[0].1.as_deref()), (CHAIR, Some("198.51.100.7")));

    let everywhere = sessions::sign_out_everywhere(&app.pool, NOW, &chair).await.unwrap();
    assert_eq!(everywhere, SignedOutEverywhere { sessions: 2 });
    assert_eq!(app.count("organiser_sessions").await, 0);
    let all = audited(&app, "auth.signed_out_everywhere").await;
    assert_eq!(all.len(), 1);
    assert_eq!((all[0].0.as_str(), all[0].1.as_deref()), (CHAIR, Some("198.51.100.7")));
    let details: serde_json::Value = serde_json::from_str(&all[0].4).unwrap();
    assert_eq!(details["sessions"], 2);
}
