//! `conference::attendance::certificates`: releasing, revoking and reissuing certificates.

use conference::attendance::certificates::{self, Event, Released};
use conference::error::Refused;
use conference::mail::Context;
use conference::repo::audit::Actor;
use time::macros::datetime;

use crate::certificates::{ALMA, LAST_DAY, app, audited, check_in, pay_as, stored};
use crate::common::TestApp;
use crate::common::fixture::LISTENER_PHYSICAL;

fn chair() -> Actor {
    Actor { email: "chair@example.org".into(), client: Some("203.0.113.9".into()) }
}

/// What a release and a reissue take besides the pool: the mail's context and the event.
async fn mail_and_event(app: &TestApp) -> (Context, Event) {
    let ctx = Context::load(&app.pool, &app.state.config).await.unwrap();
    (ctx, Event::of(app.state.content.snapshot().await.site().unwrap()))
}

async fn release(app: &TestApp, now: time::OffsetDateTime) -> Result<Released, Refused> {
    let (ctx, event) = mail_and_event(app).await;
    let zone = app.state.content.snapshot().await.zone.clone();
    certificates::release(&app.pool, &ctx, &event, &zone, &chair(), now).await
}

#[tokio::test]
async fn an_early_release_an_unknown_code_a_missing_reason_and_a_bad_name_change_nothing() {
    let app = app().await;
    let alma = pay_as(&app, LISTENER_PHYSICAL, ALMA.0, ALMA.1).await;
    check_in(&app, &alma).await;
    match release(&app, datetime!(2025-03-22 15:59 UTC)).await {
        Err(Refused::NotAllowed(message)) => assert!(message.contains("Nothing was issued."), "{message}"),
        other => panic!("not allowed before the last day, got {other:?}"),
    }
    assert!(stored(&app).await.is_empty(), "nothing issued");
    assert!(matches!(release(&app, LAST_DAY).await, Ok(Released::Issued { attendance: 1, .. })));
    let code = stored(&app).await[0].0.clone();
    let before = audited(&app).await.len();

    let unknown = certificates::revoke(&app.pool, &"Z".repeat(26), "typo", &chair(), LAST_DAY).await;
    assert!(matches!(unknown, Err(Refused::NotFound(_))), "{unknown:?}");
    match certificates::revoke(&app.pool, &code, "  ", &chair(), LAST_DAY).await {
        Err(Refused::Invalid { errors, .. }) => assert!(errors.contains_key("reason")),
        other => panic!("invalid without a reason, got {other:?}"),
    }
    let (ctx, event) = mail_and_event(&app).await;
    match certificates::reissue(&app.pool, &ctx, &event, &code, "", &chair(), LAST_DAY).await {
        Err(Refused::Invalid { errors, .. }) => assert!(errors.contains_key("name")),
        other => panic!("invalid without a name, got {other:?}"),
    }
    assert!(!stored(&app).await[0].5, "still valid");
    assert_eq!(stored(&app).await.len(), 1, "nothing reissued");
    assert_eq!(audited(&app).await.len(), before, "nothing audited");

    certificates::revoke(&app.pool, &code, "Issued by mistake", &chair(), LAST_DAY).await.unwrap();
    match certificates::revoke(&app.pool, &code, "again", &chair(), LAST_DAY).await {
        Err(Refused::Stale(message)) => {
            assert_eq!(message, format!("Certificate {code} was revoked already, so nothing was changed."))
        }
        other => panic!("stale, got {other:?}"),
    }
}

#[tokio::test]
async fn release_revoke_and_reissue_are_audited_by_the_organiser() {
    let app = app().await;
    let alma = pay_as(&app, LISTENER_PHYSICAL, ALMA.0, ALMA.1).await;
    check_in(&app, &alma).await;
    let Ok(Released::Issued { number, mails, .. }) = release(&app, LAST_DAY).await else { panic!("issued") };
    assert_eq!(mails, 1);
    let code = stored(&app).await[0].0.clone();
    let (ctx, event) = mail_and_event(&app).await;
    let reissued = certificates::reissue(&app.pool, &ctx, &event, &code, "Alma B. Reyes", &chair(), LAST_DAY).await;
    let new_code = reissued.unwrap().new_code;
    certificates::revoke(&app.pool, &new_code, "Duplicate", &chair(), LAST_DAY).await.unwrap();

    let entries = audited(&app).await;
    let actions: Vec<&str> = entries.iter().map(|(a, _, _)| a.as_str()).collect();
    assert_eq!(actions, ["certificates.released", "certificate.reissued", "certificate.revoked"]);
    assert_eq!(entries[0].1, number.to_string());
    assert_eq!(entries[0].2["attendance"], 1);
    assert_eq!((entries[1].1.as_str(), &entries[1].2["replaced_by"]), (code.as_str(), &serde_json::json!(new_code)));
    assert_eq!(entries[1].2["holder_name"]["after"], "Alma B. Reyes");
    assert_eq!((entries[2].1.as_str(), &entries[2].2["reason"]), (new_code.as_str(), &serde_json::json!("Duplicate")));
    let who: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT actor, client FROM audit_log WHERE action LIKE 'certificate%'")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert!(who.iter().all(|(a, c)| a == "chair@example.org" && c.as_deref() == Some("203.0.113.9")), "{who:?}");
}
