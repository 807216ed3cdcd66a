//! `conference::review::reviewers`: inviting reviewers one by one or from a pasted list,
//! sending an invitation again, removing a reviewer, and the reviewer's answer.

use conference::error::Refused;
use conference::handlers::review::invitation;
use conference::repo::audit::Actor;
use conference::review::reviewers::{self, Answer, Answered, Imported, Removed, Resent, Typed};
use time::macros::datetime;

use crate::common::TestApp;
use crate::common::review::add_reviewer;
use crate::reviewers::{LANTERN, TIDAL, audit_of, chair_app, invitation_link, invitations};

fn chair() -> Actor {
    Actor { email: "chair@fixcon.example".into(), client: Some("203.0.113.9".into()) }
}

const NOW: time::OffsetDateTime = datetime!(2025-02-10 09:00 UTC);
const AREAS: [&str; 2] = [TIDAL, LANTERN];

fn typed<'a>(name: &'a str, email: &'a str, topics: &'a [&'a str]) -> Typed<'a> {
    Typed { name, email, affiliation: "Analytical Engines", topics }
}

async fn invite(app: &TestApp, typed: Typed<'_>) -> Result<reviewers::Invited, Refused> {
    let links = invitation::links(&app.config);
    reviewers::invite(&app.pool, &app.config, &links, NOW, &chair(), typed, &AREAS).await
}

/// How many reviewers are stored, and how many audit entries name one.
async fn stored_and_audited(app: &TestApp) -> (i64, i64) {
    let reviewers = sqlx::query_scalar("SELECT COUNT(*) FROM reviewers").fetch_one(&app.pool).await.unwrap();
    let audited = sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action LIKE 'reviewer.%'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    (reviewers, audited)
}

fn invalid(refused: Result<impl std::fmt::Debug, Refused>) -> (String, Vec<(String, String)>) {
    match refused {
        Err(Refused::Invalid { message, errors }) => (message, errors.into_iter().collect()),
        other => panic!("refused as invalid, got {other:?}"),
    }
}

#[tokio::test]
async fn invite_and_import_refuse_bad_or_taken_addresses_and_store_nothing() {
    let (app, _) = chair_app().await;
    add_reviewer(&app, "bea@critics.example", "Beatrix", "", "").await;
    let before = stored_and_audited(&app).await;

    let (message, errors) = invalid(invite(&app, typed("", "not an address", &["Basket Weaving"])).await);
    assert_eq!(message, "Nobody was invited: please correct the form below.");
    let fields: Vec<&str> = errors.iter().map(|(field, _)| field.as_str()).collect();
    assert_eq!(fields, ["email", "name", "topics"], "each bad field by the form's name: {errors:?}");

    let (_, errors) = invalid(invite(&app, typed("Beatrix", " BEA@critics.example ", &[TIDAL])).await);
    assert_eq!(errors, [("email".to_owned(), "bea@critics.example is already a reviewer.".to_owned())]);

    let links = invitation::links(&app.config);
    let text = "Ada,ada@engines.example,,Tidal Computing\nBea,bea@critics.example,,\nCy,not-an-address,,\n";
    let imported = reviewers::import(&app.pool, &app.config, &links, NOW, &chair(), text, &AREAS).await;
    let (message, errors) = invalid(imported);
    assert!(message.starts_with("Nobody was invited: 1 line has a problem."), "{message}");
    let lines: Vec<&str> = errors.iter().map(|(_, line)| line.as_str()).collect();
    assert_eq!(lines.len(), 1, "the address check runs first, then the stored states: {lines:?}");
    assert!(lines[0].starts_with("Line 3: "), "{lines:?}");
    let text = "Ada,ada@engines.example,,Tidal Computing\nBea,bea@critics.example,,\n";
    let imported = reviewers::import(&app.pool, &app.config, &links, NOW, &chair(), text, &AREAS).await;
    let (_, errors) = invalid(imported);
    assert_eq!(errors[0].1, "Line 2: bea@critics.example is already a reviewer.");

    assert_eq!(stored_and_audited(&app).await, before, "nobody stored, nothing audited");
    assert!(invitations(&app, "ada@engines.example").await.is_empty(), "no mail");
}

#[tokio::test]
async fn invite_and_import_audit_who_invited_whom_with_the_mail() {
    let (app, _) = chair_app().await;
    let invited = invite(&app, typed("Ada Lovelace", "Ada@Engines.example", &[LANTERN, TIDAL])).await.unwrap();
    let entries = audit_of(&app, invited.id).await;
    assert_eq!(entries.len(), 1);
    let (actor, action, details) = &entries[0];
    assert_eq!((actor.as_str(), action.as_str()), ("chair@fixcon.example", "reviewer.invited"));
    let details: serde_json::Value = serde_json::from_str(details).unwrap();
    assert_eq!(details["email"], "ada@engines.example");
    assert_eq!(details["topics"], "Tidal Computing, Lantern Studies", "in the seed's order");
    assert_eq!(details["via"], "form");
    assert_eq!(details["state"]["after"], "invited");
    assert_eq!(details["mail"]["to"], "ada@engines.example");
    let client: Option<String> = sqlx::query_scalar("SELECT client FROM audit_log WHERE action = 'reviewer.invited'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(client.as_deref(), Some("203.0.113.9"));
    assert!(invitation_link(&app, "ada@engines.example").await.starts_with("/review/invitation/"));

    let links = invitation::links(&app.config);
    let text = "name,email\nBea,bea@critics.example\nCy,cy@critics.example\n";
    let imported = reviewers::import(&app.pool, &app.config, &links, NOW, &chair(), text, &AREAS).await.unwrap();
    assert_eq!(imported, Imported { count: 2 });
    let vias: Vec<String> =
        sqlx::query_scalar("SELECT details FROM audit_log WHERE action = 'reviewer.invited' ORDER BY id")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(vias.len(), 3);
    assert!(vias[1..].iter().all(|d| d.contains("\"via\":\"csv\"")), "{vias:?}");
    assert_eq!(invitations(&app, "cy@critics.example").await.len(), 1, "each gets a mail of their own");
}

#[tokio::test]
async fn resend_and_remove_refuse_unknown_or_closed_reviewers_and_change_nothing() {
    let (app, _) = chair_app().await;
    let links = invitation::links(&app.config);
    let accepted = add_reviewer(&app, "bea@critics.example", "Beatrix", "", "").await;
    let before = stored_and_audited(&app).await;

    let unknown = reviewers::resend(&app.pool, &app.config, &links, NOW, &chair(), 999).await;
    assert!(matches!(unknown, Err(Refused::NotFound(ref m)) if m == "No reviewer has the number 999."), "{unknown:?}");
    let unknown = reviewers::remove(&app.pool, NOW, &chair(), 999).await;
    assert!(matches!(unknown, Err(Refused::NotFound(_))), "{unknown:?}");
    match reviewers::resend(&app.pool, &app.config, &links, NOW, &chair(), accepted).await {
        Err(Refused::NotAllowed(message)) => assert_eq!(
            message,
            "Beatrix (bea@critics.example) is accepted, so there is no open invitation to send again; nothing was sent."
        ),
        other => panic!("refused as not allowed, got {other:?}"),
    }
    assert_eq!(stored_and_audited(&app).await, before, "nothing audited");
    assert!(invitations(&app, "bea@critics.example").await.is_empty(), "nothing sent");

    reviewers::remove(&app.pool, NOW, &chair(), accepted).await.unwrap();
    let again = reviewers::remove(&app.pool, NOW, &chair(), accepted).await;
    match again {
        Err(Refused::NotAllowed(message)) => {
            assert_eq!(message, "Beatrix (bea@critics.example) was removed already; nothing was changed.")
        }
        other => panic!("refused as not allowed, got {other:?}"),
    }
    assert_eq!(audit_of(&app, accepted).await.len(), 1, "only the first removal is audited");
}

#[tokio::test]
async fn resend_and_remove_audit_the_change_and_what_it_ended() {
    let (app, _) = chair_app().await;
    let links = invitation::links(&app.config);
    let id = invite(&app, typed("Ada Lovelace", "ada@engines.example", &[TIDAL])).await.unwrap().id;
    let first = invitation_link(&app, "ada@engines.example").await;
    let later = datetime!(2025-02-11 09:00 UTC);
    let resent = reviewers::resend(&app.pool, &app.config, &links, later, &chair(), id).await.unwrap();
    assert_eq!(resent, Resent { id });
    assert_ne!(invitation_link(&app, "ada@engines.example").await, first, "a new link");
    let removed = reviewers::remove(&app.pool, later, &chair(), id).await.unwrap();
    assert_eq!(removed, Removed { id, handed_back: 0, sessions: 0 });

    let entries = audit_of(&app, id).await;
    let actions: Vec<&str> = entries.iter().map(|(_, action, _)| action.as_str()).collect();
    assert_eq!(actions, ["reviewer.invited", "reviewer.invitation_resent", "reviewer.removed"]);
    assert!(entries.iter().all(|(actor, _, _)| actor == "chair@fixcon.example"));
    let resent: serde_json::Value = serde_json::from_str(&entries[1].2).unwrap();
    assert!(resent["invited_at"]["after"].as_str().unwrap().starts_with("2025-02-11T09:00:00"), "{resent}");
    assert_eq!(resent["mail"]["to"], "ada@engines.example");
    let removed: serde_json::Value = serde_json::from_str(&entries[2].2).unwrap();
    assert_eq!(removed["state"]["before"], "invited");
    assert_eq!((removed["handed_back"].as_i64(), removed["sessions"].as_i64()), (Some(0), Some(0)));
}

#[tokio::test]
async fn the_answer_is_refused_for_a_link_that_opens_nothing_and_audited_by_the_reviewer() {
    let (app, _) = chair_app().await;
    let id = invite(&app, typed("Ada Lovelace", "ada@engines.example", &[TIDAL])).await.unwrap().id;
    let link = invitation_link(&app, "ada@engines.example").await;
    let token = link.rsplit('/').next().unwrap();

    for bad in ["not-a-token", "A".repeat(43).as_str()] {
        let refused = reviewers::answer(&app.pool, NOW, Some("198.51.100.7"), bad, Answer::Accept).await;
        assert!(matches!(refused, Err(Refused::NotFound(_))), "{refused:?}");
    }
    assert_eq!(audit_of(&app, id).await.len(), 1, "only the invitation is audited");

    let answered = reviewers::answer(&app.pool, NOW, Some("198.51.100.7"), token, Answer::Decline).await.unwrap();
    assert_eq!(answered, Answered { id, email: "ada@engines.example".into(), answer: Answer::Decline });
    let again = reviewers::answer(&app.pool, NOW, None, token, Answer::Accept).await;
    assert!(matches!(again, Err(Refused::NotFound(_))), "answered once: {again:?}");

    let (actor, client, details): (String, Option<String>, String) =
        sqlx::query_as("SELECT actor, client, details FROM audit_log WHERE action = 'reviewer.declined'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!((actor.as_str(), client.as_deref()), ("ada@engines.example", Some("198.51.100.7")));
    let details: serde_json::Value = serde_json::from_str(&details).unwrap();
    assert_eq!(details["state"]["after"], "declined");
    assert_eq!(audit_of(&app, id).await.len(), 2);
}
