//! POST `/api/newsletter` (DESIGN.md section 5; spec section 5): an address is stored once,
//! 201 when new and 200 when it was already there; a bad address is refused and stores nothing.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::html::{by_id, first, parse};
use crate::common::{BASE, app};

/// The answer to a new sign-up as a visitor reads it, with the double opt-in's request to
/// confirm (DESIGN.md section 8): written here, not read from the code under test.
const SUBSCRIBED: &str =
    "Thank you for subscribing!\nPlease confirm your subscription with the link we have just emailed you.";

#[tokio::test]
async fn a_new_address_is_201_and_the_same_address_again_is_200_with_one_row() {
    let app = app().await;
    let (status, answer) = app.post_json("/api/newsletter", &json!({ "email": "ana@example.org" })).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    assert_eq!(answer["message"], SUBSCRIBED);

    for again in ["ana@example.org", "  Ana@Example.ORG "] {
        let (status, answer) = app.post_json("/api/newsletter", &json!({ "email": again })).await;
        assert_eq!(status, StatusCode::OK, "{again:?} is the same subscriber: {answer}");
        assert_eq!(answer["message"], "You are already subscribed.");
    }
    assert_eq!(app.count("subscribers").await, 1);
    let (email,): (String,) = sqlx::query_as("SELECT email FROM subscribers").fetch_one(&app.pool).await.unwrap();
    assert_eq!(email, "ana@example.org", "kept as first entered");

    let (status, _) = app.post_json("/api/newsletter", &json!({ "email": "ben@example.org" })).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(app.count("subscribers").await, 2);
}

#[tokio::test]
async fn concurrent_sign_ups_of_one_address_store_one_row() {
    let app = app().await;
    let body = json!({ "email": "same@example.org" });
    let answers = futures_join(&app, &body).await;
    let mut statuses: Vec<u16> = answers.iter().map(|s| s.as_u16()).collect();
    statuses.sort();
    assert_eq!(statuses, [200, 200, 200, 201], "exactly one sign-up is the new one");
    assert_eq!(app.count("subscribers").await, 1);
}

async fn futures_join(app: &crate::common::TestApp, body: &Value) -> Vec<StatusCode> {
    let (a, b, c, d) = tokio::join!(
        app.post_json("/api/newsletter", body),
        app.post_json("/api/newsletter", body),
        app.post_json("/api/newsletter", body),
        app.post_json("/api/newsletter", body),
    );
    vec![a.0, b.0, c.0, d.0]
}

#[tokio::test]
async fn a_missing_or_malformed_or_overlong_address_is_a_422_naming_email() {
    let app = app().await;
    let long = format!("{}@{}.org", "a".repeat(64), ["b".repeat(63), "c".repeat(63), "d".repeat(63)].join("."));
    for (body, reason) in [
        (json!({}), "Email address is required"),
        (json!({ "email": "" }), "Email address is required"),
        (json!({ "email": "   " }), "Email address is required"),
        (json!({ "email": null }), "Email address is required"),
        (json!({ "email": "ana" }), "Please enter a valid email address"),
        (json!({ "email": "ana@example" }), "Please enter a valid email address"),
        (json!({ "email": "ana@exa mple.org" }), "Please enter a valid email address"),
        (json!({ "email": long }), "Email address must be at most 254 characters"),
        (json!({ "email": ["ana@example.org"] }), "Email address must be text"),
    ] {
        let (status, answer) = app.post_json("/api/newsletter", &body).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(answer["errors"]["email"], reason, "{body} -> {answer}");
        assert_eq!(answer["message"], reason);
    }
    assert_eq!(app.count("subscribers").await, 0);
}

#[tokio::test]
async fn unreadable_bodies_and_foreign_origins_are_refused() {
    let app = app().await;
    type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)], StatusCode);
    let cases: [Case; 6] = [
        ("application/json", "", &[("origin", BASE)], StatusCode::BAD_REQUEST),
        ("application/json", "{email:", &[("origin", BASE)], StatusCode::BAD_REQUEST),
        ("application/json", "[]", &[("origin", BASE)], StatusCode::BAD_REQUEST),
        ("text/plain", "{\"email\":\"ana@example.org\"}", &[("origin", BASE)], StatusCode::UNSUPPORTED_MEDIA_TYPE),
        ("", "{\"email\":\"ana@example.org\"}", &[("origin", BASE)], StatusCode::UNSUPPORTED_MEDIA_TYPE),
        (
            "application/json",
            "{\"email\":\"ana@example.org\"}",
            &[("origin", "http://127.0.0.1:4000")],
            StatusCode::FORBIDDEN,
        ),
    ];
    for (content_type, body, headers, expected) in cases {
        let reply = app.post("/api/newsletter", content_type, body, headers).await;
        assert_eq!(reply.status, expected, "{content_type:?} {body:?} {headers:?}");
        let answer: Value = serde_json::from_slice(&reply.body).expect("JSON answer");
        assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()), "{answer}");
    }
    let huge = json!({ "email": "ana@example.org", "padding": "x".repeat(65 * 1024) }).to_string();
    let reply = app.post("/api/newsletter", "application/json", huge, &[("origin", BASE)]).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(app.count("subscribers").await, 0);
}

#[tokio::test]
async fn the_honeypot_gets_the_normal_answer_and_nothing_is_stored() {
    let app = app().await;
    let (status, answer) =
        app.post_json("/api/newsletter", &json!({ "email": "bot@example.org", "_gotcha": "buy now" })).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(answer["message"], SUBSCRIBED);
    assert_eq!(app.count("subscribers").await, 0);
}

#[tokio::test]
async fn a_plain_html_form_post_goes_back_to_its_page_with_a_confirmation() {
    let app = app().await;
    let headers = [("origin", BASE), ("accept", "text/html"), ("referer", "http://127.0.0.1:3000/venue")];
    let reply = app
        .post("/api/newsletter", "application/x-www-form-urlencoded", "email=ana%40example.org&_gotcha=", &headers)
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(reply.header("location"), Some("/venue#newsletter-subscribed"));
    assert_eq!(app.count("subscribers").await, 1);

    let reply = app.post("/api/newsletter", "application/x-www-form-urlencoded", "email=nope", &headers).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(reply.header("location"), Some("/venue#newsletter-error"));
    assert_eq!(app.count("subscribers").await, 1);
}

#[tokio::test]
async fn every_page_footer_has_the_newsletter_form_and_its_no_script_notices() {
    let app = app().await;
    for path in ["/", "/venue", "/pricing"] {
        let page = parse(&app.page(path).await);
        let form = first(&page, "form[action='/api/newsletter']").unwrap_or_else(|| panic!("{path}"));
        assert!(first(form, "[name=_gotcha]").is_some(), "{path} carries the honeypot");
        assert!(by_id(&page, "newsletter-subscribed").is_some(), "{path} has the confirmation a form post returns to");
        assert!(by_id(&page, "newsletter-error").is_some(), "{path}");
    }
}

#[tokio::test]
async fn organisers_export_subscribers_as_csv() {
    let app = app().await;
    for email in ["ana@example.org", "ben@example.org", "ANA@example.org"] {
        app.post_json("/api/newsletter", &json!({ "email": email })).await;
    }
    let mut out = Vec::new();
    conference::export::export(&app.pool, conference::export::ExportKind::Subscribers, &mut out).await.expect("export");
    let mut reader = csv::Reader::from_reader(out.as_slice());
    assert_eq!(reader.headers().unwrap().iter().collect::<Vec<_>>(), ["id", "created", "email", "status", "confirmed"]);
    let emails: Vec<String> = reader.records().map(|r| r.unwrap()[2].to_owned()).collect();
    assert_eq!(emails, ["ana@example.org", "ben@example.org"]);
}
