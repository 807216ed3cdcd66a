//! Mail that cannot be aimed at others (issue 10; DESIGN.md section 5): at most 3
//! acknowledgement mails per address in 24 hours whatever the form; newsletter double opt-in
//! with a signed link; RFC 8058 one-click unsubscribe; the subscribers export's status.

use axum::http::StatusCode;
use serde_json::json;

use conference::handlers::api::newsletter::{ALREADY_SUBSCRIBED, SUBSCRIBED};

use crate::api_submission::{Form, submit};
use crate::common::html::{parse, texts};
use crate::common::{BASE, TestApp, app};

/// (status, confirmed) of an address.
async fn subscriber(app: &TestApp, email: &str) -> (String, Option<String>) {
    sqlx::query_as("SELECT status, confirmed FROM subscribers WHERE lower(email) = lower($1)")
        .bind(email)
        .fetch_one(&app.pool)
        .await
        .expect("the address is stored")
}

/// Queued mails to `to`: (subject, text body, list_unsubscribe).
async fn mails_to(app: &TestApp, to: &str) -> Vec<(String, String, Option<String>)> {
    sqlx::query_as("SELECT subject, text_body, list_unsubscribe FROM outbox WHERE to_address = $1 ORDER BY id")
        .bind(to)
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

/// The site path (with query) of the first `PUBLIC_URL` link in `text` that contains `path`.
fn link_in(text: &str, path: &str) -> String {
    let start = text.find(&format!("{BASE}{path}")).unwrap_or_else(|| panic!("a {path} link in:\n{text}"));
    let url: String = text[start..].chars().take_while(|c| !c.is_whitespace() && *c != '"' && *c != '>').collect();
    url.strip_prefix(BASE).unwrap().to_string()
}

async fn sign_up(app: &TestApp, email: &str) -> (StatusCode, serde_json::Value) {
    app.post_json("/api/newsletter", &json!({ "email": email })).await
}

#[tokio::test]
async fn a_sign_up_is_pending_until_its_signed_link_is_opened() {
    let app = app().await;
    let (status, answer) = sign_up(&app, "ana@example.org").await;
    assert_eq!(status, StatusCode::CREATED);
    let message = answer["message"].as_str().unwrap();
    assert!(message.starts_with("Thank you for subscribing!\n"), "the spec's message stays first: {message:?}");
    assert!(message.contains("confirm"), "then asks to confirm from the inbox: {message:?}");
    assert_eq!(message, SUBSCRIBED);
    assert_eq!(subscriber(&app, "ana@example.org").await, ("pending".into(), None));

    let mails = mails_to(&app, "ana@example.org").await;
    assert_eq!(mails.len(), 1, "one confirmation mail");
    let confirm = link_in(&mails[0].1, "/newsletter/confirm?");
    assert!(mails[0].2.as_deref().is_some_and(|u| u.starts_with(&format!("{BASE}/newsletter/unsubscribe?"))));

    // Signing up again sends nothing more.
    let (status, answer) = sign_up(&app, "ANA@example.org").await;
    assert_eq!((status, answer["message"].as_str().unwrap()), (StatusCode::OK, ALREADY_SUBSCRIBED));
    assert_eq!(mails_to(&app, "ana@example.org").await.len(), 1);

    // Tampered, foreign or wrong-purpose links change nothing.
    let token = confirm.split("token=").nth(1).unwrap().to_string();
    let flipped = format!("{}{}", &token[..token.len() - 1], if token.ends_with('0') { '1' } else { '0' });
    let unsubscribe_token = mails[0].2.as_deref().unwrap().split("token=").nth(1).unwrap().to_string();
    for bad in [
        format!("/newsletter/confirm?email=ana%40example.org&token={flipped}"),
        format!("/newsletter/confirm?email=ben%40example.org&token={token}"),
        format!("/newsletter/confirm?email=ana%40example.org&token={unsubscribe_token}"),
        "/newsletter/confirm?email=ana%40example.org&token=zz".into(),
        "/newsletter/confirm?email=ana%40example.org".into(),
        "/newsletter/confirm".into(),
    ] {
        let (status, _, _) = app.get(&bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
        assert_eq!(subscriber(&app, "ana@example.org").await.0, "pending", "{bad}");
    }

    let (status, _, body) = app.get(&confirm).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body.contains("Subscription confirmed"));
    let (state, confirmed) = subscriber(&app, "ana@example.org").await;
    assert_eq!(state, "subscribed");
    let confirmed = confirmed.expect("the confirmation time is stored");
    assert!(time::OffsetDateTime::parse(&confirmed, &time::format_description::well_known::Rfc3339).is_ok());

    let mut out = Vec::new();
    conference::export::export(&app.pool, conference::export::ExportKind::Subscribers, &mut out).await.unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("id,created,email,status,confirmed\n"), "{text}");
    assert!(text.contains(&format!(",ana@example.org,subscribed,{confirmed}")), "{text}");
}

#[tokio::test]
async fn one_click_unsubscribe_works_and_needs_the_signed_link() {
    let app = app().await;
    sign_up(&app, "ana@example.org").await;
    let mails = mails_to(&app, "ana@example.org").await;
    let confirm = link_in(&mails[0].1, "/newsletter/confirm?");
    app.get(&confirm).await;
    let unsubscribe = mails[0].2.clone().unwrap().strip_prefix(BASE).unwrap().to_string();

    // The page a person opens shows a button and changes nothing by itself.
    let (status, _, body) = app.get(&unsubscribe).await;
    assert_eq!(status, StatusCode::OK);
    let buttons = texts(&parse(&body), "form[method=post] button");
    assert!(buttons.iter().any(|b| b == "Unsubscribe"), "a form posts the unsubscription: {body}");
    assert_eq!(subscriber(&app, "ana@example.org").await.0, "subscribed");

    let bad = unsubscribe.replace("ana%40example.org", "ben%40example.org");
    let reply = app.post(&bad, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click", &[]).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(subscriber(&app, "ana@example.org").await.0, "subscribed");

    // RFC 8058: the mail provider POSTs `List-Unsubscribe=One-Click` to the URL, no Origin.
    let reply = app.post(&unsubscribe, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click", &[]).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    assert_eq!(subscriber(&app, "ana@example.org").await.0, "unsubscribed");
    // An old confirmation link does not bring the address back.
    app.get(&confirm).await;
    assert_eq!(subscriber(&app, "ana@example.org").await.0, "unsubscribed");
}

#[tokio::test]
async fn newsletter_mails_carry_the_rfc_8058_headers() {
    let app = app().await;
    sign_up(&app, "ana@example.org").await;
    let now = time::OffsetDateTime::now_utc() + time::Duration::minutes(1);
    let queued = conference::mail::outbox::claim_next(&app.pool, now, time::Duration::minutes(5))
        .await
        .unwrap()
        .expect("the confirmation is queued");
    let from: lettre::message::Mailbox = "Conference <info@example.org>".parse().unwrap();
    let message = conference::mail::worker::build_message(&queued, &from, app.dir.path(), None).unwrap();
    let raw = String::from_utf8(message.formatted()).unwrap();
    let unsubscribe = queued.mail.list_unsubscribe.clone().unwrap();
    assert!(raw.contains(&format!("List-Unsubscribe: <{unsubscribe}>")), "{raw}");
    assert!(raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"), "{raw}");
}

#[tokio::test]
async fn the_signing_key_is_random_per_database_and_stored() {
    let (a, b) = (app().await, app().await);
    sign_up(&a, "ana@example.org").await;
    sign_up(&b, "ana@example.org").await;
    let la = link_in(&mails_to(&a, "ana@example.org").await[0].1, "/newsletter/confirm?");
    let lb = link_in(&mails_to(&b, "ana@example.org").await[0].1, "/newsletter/confirm?");
    assert_ne!(la, lb, "no key that exists without configuration is shared");
    let (status, _, _) = b.get(&la).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "one site's link is worthless on another");
    assert_eq!(a.count("signing_keys").await, 1);
}

#[tokio::test]
async fn at_most_three_acknowledgements_per_address_a_day_whatever_the_form() {
    let app = crate::common::app_with(|c| c.rate_limit_per_minute = 1000).await;
    let victim = "ana.cruz@example.org";
    // One newsletter confirmation, then four paper submissions in the victim's name.
    sign_up(&app, victim).await;
    for i in 0..4 {
        let (status, answer) = submit(&app, &Form::valid().with("paperTitle", &format!("Paper {i}"))).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
    }
    assert_eq!(app.count("submissions").await, 4, "every submission is stored");
    let to_victim = mails_to(&app, victim).await;
    assert_eq!(to_victim.len(), 3, "three acknowledgements, no more: {to_victim:#?}");
    let site = conference::repo::content::site(&app.pool).await.unwrap();
    let notices = mails_to(&app, &site.contact_email).await;
    assert_eq!(notices.len(), 4, "organisers are told of every submission");

    // Letter case does not make another address; another address has its own budget.
    let (status, _) = sign_up(&app, "ANA.CRUZ@example.org").await;
    assert_eq!(status, StatusCode::OK);
    sign_up(&app, "ben@example.org").await;
    assert_eq!(mails_to(&app, victim).await.len(), 3);
    assert_eq!(mails_to(&app, "ben@example.org").await.len(), 1);

    // A day later the address may be acknowledged again.
    app.exec("UPDATE acknowledgements SET created = '2000-01-01T00:00:00.000000Z'").await;
    let (status, _) = submit(&app, &Form::valid()).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(mails_to(&app, victim).await.len(), 4);
}

/// The cap holds when one address's submissions arrive at once (on PostgreSQL each is its own
/// transaction, as on several instances): all are stored, three are acknowledged.
#[tokio::test]
async fn the_acknowledgement_cap_holds_for_submissions_at_the_same_moment() {
    let app = crate::common::app_with(|c| c.rate_limit_per_minute = 1000).await;
    let victim = "ana.cruz@example.org";
    let form = |i: u32| Form::valid().with("paperTitle", &format!("Paper {i}"));
    let (f0, f1, f2, f3, f4, f5) = (form(0), form(1), form(2), form(3), form(4), form(5));
    let answers = tokio::join!(
        submit(&app, &f0),
        submit(&app, &f1),
        submit(&app, &f2),
        submit(&app, &f3),
        submit(&app, &f4),
        submit(&app, &f5)
    );
    for (status, answer) in [answers.0, answers.1, answers.2, answers.3, answers.4, answers.5] {
        assert_eq!(status, StatusCode::CREATED, "{answer}");
    }
    assert_eq!(app.count("submissions").await, 6, "every submission is stored");
    assert_eq!(mails_to(&app, victim).await.len(), 3, "three acknowledgements, however they arrive");
    assert_eq!(app.count("acknowledgements").await, 3);
}
