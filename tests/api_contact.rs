//! POST `/api/contact` (DESIGN.md section 5; spec sections 3, 5 and 8): a contact message is
//! stored and the organisers' notice queued in the outbox; every bad input gets a clear
//! status and message and stores nothing.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::{BASE, TestApp, app};

fn valid() -> Value {
    json!({
        "name": "Ana Cruz",
        "number": "+639171234567",
        "email": "ana.cruz@example.org",
        "country": "Philippines",
        "message": "Is there a student discount for the virtual ticket?\nThanks!",
    })
}

fn with(field: &str, value: Value) -> Value {
    let mut body = valid();
    body[field] = value;
    body
}

fn without(field: &str) -> Value {
    let mut body = valid();
    body.as_object_mut().unwrap().remove(field);
    body
}

/// Messages and queued mails: what a refused request must leave untouched.
async fn stored(app: &TestApp) -> (i64, i64) {
    (app.count("messages").await, app.count("outbox").await)
}

/// Asserts a 422 naming `field` with `reason`, and that nothing was stored.
async fn assert_refused(app: &TestApp, body: Value, field: &str, reason: &str) {
    let before = stored(app).await;
    let (status, answer) = app.post_json("/api/contact", &body).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body} -> {answer}");
    assert_eq!(answer["errors"][field], reason, "{body} -> {answer}");
    assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()), "{answer}");
    assert_eq!(stored(app).await, before, "a refused message stores and queues nothing");
}

#[tokio::test]
async fn a_valid_message_is_stored_and_the_organisers_notice_queued() {
    let app = app().await;
    let (status, answer) = app.post_json("/api/contact", &valid()).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let id = answer["id"].as_str().expect("201 {\"id\"}");

    let row: (String, String, String, String, String) =
        sqlx::query_as("SELECT name, number, email, country, message FROM messages WHERE id = $1")
            .bind(id)
            .fetch_one(&app.pool)
            .await
            .expect("the message is stored under its id");
    assert_eq!(
        row,
        (
            "Ana Cruz".into(),
            "+639171234567".into(),
            "ana.cruz@example.org".into(),
            "Philippines".into(),
            "Is there a student discount for the virtual ticket?\nThanks!".into()
        )
    );

    let site_email: (String,) = sqlx::query_as("SELECT contact_email FROM site").fetch_one(&app.pool).await.unwrap();
    let mail: (String, Option<String>, String, String, String, String) =
        sqlx::query_as("SELECT to_address, reply_to, subject, text_body, html_body, status FROM outbox")
            .fetch_one(&app.pool)
            .await
            .expect("one notice is queued");
    assert_eq!(mail.0, site_email.0, "without ORGANISER_EMAIL the site's contact email gets the notice");
    assert_eq!(mail.1.as_deref(), Some("ana.cruz@example.org"), "organisers reply straight to the visitor");
    assert!(mail.2.contains("Ana Cruz"), "subject names the visitor: {}", mail.2);
    for part in [&mail.3, &mail.4] {
        for value in ["Ana Cruz", "+639171234567", "ana.cruz@example.org", "Philippines", "student discount"] {
            assert!(part.contains(value), "both parts of the notice show {value}: {part}");
        }
    }
    assert_eq!(mail.5, "pending");
}

#[tokio::test]
async fn organiser_email_setting_names_who_gets_the_notice() {
    let app = crate::common::app_with(|c| c.organiser_email = Some("team@example.org".into())).await;
    let (status, _) = app.post_json("/api/contact", &valid()).await;
    assert_eq!(status, StatusCode::CREATED);
    let (to,): (String,) = sqlx::query_as("SELECT to_address FROM outbox").fetch_one(&app.pool).await.unwrap();
    assert_eq!(to, "team@example.org");
}

#[tokio::test]
async fn values_are_trimmed_and_line_ends_normalised() {
    let app = app().await;
    let mut body = valid();
    body["name"] = json!("  Ana \t Cruz  ");
    body["message"] = json!("  Line one\r\nLine two  ");
    let (status, answer) = app.post_json("/api/contact", &body).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let (name, message): (String, String) =
        sqlx::query_as("SELECT name, message FROM messages").fetch_one(&app.pool).await.unwrap();
    assert_eq!((name.as_str(), message.as_str()), ("Ana Cruz", "Line one\nLine two"));
}

#[tokio::test]
async fn a_text_field_sent_as_another_json_type_is_refused_on_that_field() {
    let app = app().await;
    for field in ["name", "number", "email", "country", "message"] {
        let label = match field {
            "name" => "Name",
            "number" => "Phone / Whatsapp.no",
            "email" => "Email address",
            "country" => "Country",
            _ => "Message",
        };
        for value in [json!(639171234567_u64), json!(true), json!(["Ana"]), json!({"text": "Ana"})] {
            assert_refused(&app, with(field, value), field, &format!("{label} must be text")).await;
        }
    }
}

#[tokio::test]
async fn control_characters_are_refused_and_a_blank_message_is_missing() {
    let app = app().await;
    assert_refused(&app, with("message", json!("\u{0}\u{0}\u{0}")), "message", "Message is required").await;
    assert_refused(&app, with("message", json!(" \u{1}\n\t\u{7f} ")), "message", "Message is required").await;
    let refused = "contains characters that are not allowed";
    assert_refused(&app, with("message", json!("Hello\u{0}there")), "message", &format!("Message {refused}")).await;
    assert_refused(&app, with("name", json!("Ana\u{1b}[31mCruz")), "name", &format!("Name {refused}")).await;
    assert_refused(&app, with("country", json!("Philippines\u{0}")), "country", &format!("Country {refused}")).await;
    // Tab and newline are what people type.
    let (status, answer) = app.post_json("/api/contact", &with("message", json!("Line one\n\tindented"))).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
}

#[tokio::test]
async fn each_required_field_missing_is_named_with_the_payloads_own_key() {
    let app = app().await;
    for (field, reason) in [
        ("name", "Name is required"),
        ("number", "Phone / Whatsapp.no is required"),
        ("email", "Email address is required"),
        ("country", "Country is required"),
        ("message", "Message is required"),
    ] {
        assert_refused(&app, without(field), field, reason).await;
        assert_refused(&app, with(field, json!("   ")), field, reason).await;
        assert_refused(&app, with(field, Value::Null), field, reason).await;
    }
}

#[tokio::test]
async fn an_empty_object_names_all_five_fields_and_leads_with_the_first() {
    let app = app().await;
    let (status, answer) = app.post_json("/api/contact", &json!({})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let keys: Vec<&String> = answer["errors"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["country", "email", "message", "name", "number"]);
    assert_eq!(answer["message"], "Name is required", "the message is the first problem in form order");
    assert_eq!(stored(&app).await, (0, 0));
}

#[tokio::test]
async fn a_malformed_email_is_refused() {
    let app = app().await;
    for email in
        ["ana", "ana@", "@example.org", "ana@example", "ana cruz@example.org", "ana@@example.org", "ana@exa_mple.org"]
    {
        assert_refused(&app, with("email", json!(email)), "email", "Please enter a valid email address").await;
    }
}

#[tokio::test]
async fn a_phone_number_that_is_not_one_is_refused() {
    let app = app().await;
    for number in ["call me maybe", "1234", "+63 917 ABC 4567"] {
        assert_refused(&app, with("number", json!(number)), "number", "Please enter a valid phone number").await;
    }
}

#[tokio::test]
async fn every_field_has_a_length_bound() {
    let app = app().await;
    let long_email =
        format!("{}@{}.org", "a".repeat(64), "b".repeat(63) + "." + &"c".repeat(63) + "." + &"d".repeat(63));
    assert!(long_email.len() > 254);
    let cases = [
        ("name", json!("N".repeat(121)), "Name must be at most 120 characters"),
        ("number", json!(format!("+1 {}", "5".repeat(30))), "Phone / Whatsapp.no must be at most 32 characters"),
        ("email", json!(long_email), "Email address must be at most 254 characters"),
        ("country", json!("C".repeat(81)), "Country must be at most 80 characters"),
        ("message", json!("m".repeat(5001)), "Message must be at most 5000 characters"),
    ];
    for (field, value, reason) in cases {
        assert_refused(&app, with(field, value), field, reason).await;
    }
    // The bounds themselves are accepted (characters, not bytes).
    let mut at_bounds = valid();
    at_bounds["name"] = json!("é".repeat(120));
    at_bounds["country"] = json!("C".repeat(80));
    at_bounds["message"] = json!("ü".repeat(5000));
    let (status, answer) = app.post_json("/api/contact", &at_bounds).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
}

#[tokio::test]
async fn a_field_that_is_not_text_is_refused() {
    let app = app().await;
    assert_refused(&app, with("name", json!(["Ana"])), "name", "Name must be text").await;
    assert_refused(&app, with("message", json!({"text": "hi"})), "message", "Message must be text").await;
    assert_refused(&app, with("country", json!(true)), "country", "Country must be text").await;
}

#[tokio::test]
async fn control_characters_are_refused() {
    let app = app().await;
    assert_refused(&app, with("name", json!("Ana\u{0}Cruz")), "name", "Name contains characters that are not allowed")
        .await;
    assert_refused(
        &app,
        with("message", json!("hello\u{1b}[2J")),
        "message",
        "Message contains characters that are not allowed",
    )
    .await;
}

#[tokio::test]
async fn a_body_that_is_not_a_json_object_is_a_400_with_a_clear_message() {
    let app = app().await;
    for (body, message) in [
        ("", "The request body is empty: send a JSON object"),
        ("   ", "The request body is empty: send a JSON object"),
        ("{\"name\": ", "The request body is not valid JSON"),
        ("name=Ana", "The request body is not valid JSON"),
        ("[1, 2]", "The request body must be a JSON object"),
        ("\"hello\"", "The request body must be a JSON object"),
    ] {
        let reply = app.post("/api/contact", "application/json", body, &[("origin", BASE)]).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{body:?}");
        let answer: Value = serde_json::from_slice(&reply.body).expect("JSON answer");
        assert!(answer["message"].as_str().unwrap().starts_with(message), "{body:?} -> {answer}");
    }
    assert_eq!(stored(&app).await, (0, 0));
}

#[tokio::test]
async fn a_wrong_content_type_is_a_415() {
    let app = app().await;
    let body = valid().to_string();
    for content_type in ["", "text/plain", "multipart/form-data; boundary=x", "application/xml"] {
        let reply = app.post("/api/contact", content_type, body.clone(), &[("origin", BASE)]).await;
        assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{content_type:?}");
        let answer: Value = serde_json::from_slice(&reply.body).expect("JSON answer");
        assert!(answer["message"].as_str().unwrap().contains("application/json"), "{answer}");
    }
    // Parameters and letter case of the media type do not matter.
    let reply = app.post("/api/contact", "Application/JSON; charset=utf-8", body, &[("origin", BASE)]).await;
    assert_eq!(reply.status, StatusCode::CREATED);
}

#[tokio::test]
async fn a_body_over_the_limit_is_a_413() {
    let app = app().await;
    let body = with("message", json!("x".repeat(70 * 1024))).to_string();
    let reply = app.post("/api/contact", "application/json", body, &[("origin", BASE)]).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    let answer: Value = serde_json::from_slice(&reply.body).expect("JSON answer");
    assert_eq!(answer["message"], "The request body is too large (limit 65536 bytes)");
    assert_eq!(stored(&app).await, (0, 0));
}

#[tokio::test]
async fn a_cross_origin_post_is_a_403_and_a_post_without_origin_is_judged_on_content() {
    let app = app().await;
    let body = valid().to_string();
    let reply = app.post("/api/contact", "application/json", body.clone(), &[("origin", "https://evil.example")]).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
    let answer: Value = serde_json::from_slice(&reply.body).unwrap();
    assert_eq!(answer["message"], "Cross-origin requests are not allowed");
    assert_eq!(stored(&app).await, (0, 0));

    let reply = app.post("/api/contact", "application/json", body, &[]).await;
    assert_eq!(reply.status, StatusCode::CREATED, "a client without Origin (curl, a script) is welcome");
}

#[tokio::test]
async fn the_honeypot_gets_the_normal_answer_and_nothing_is_stored() {
    let app = app().await;
    let (status, answer) = app.post_json("/api/contact", &with("_gotcha", json!("http://spam.example"))).await;
    assert_eq!(status, StatusCode::CREATED);
    assert!(answer["id"].as_str().is_some_and(|id| id.len() == 15), "looks like a real answer: {answer}");
    assert_eq!(stored(&app).await, (0, 0), "nothing stored, nothing mailed");

    // Even a bot's invalid form gets the normal answer: it learns nothing.
    let (status, _) = app.post_json("/api/contact", &json!({ "_gotcha": "x" })).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(stored(&app).await, (0, 0));

    // An empty honeypot (every person's form carries one) is no reason to discard.
    let (status, _) = app.post_json("/api/contact", &with("_gotcha", json!(""))).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(stored(&app).await, (1, 1));
}

#[tokio::test]
async fn a_plain_html_form_post_is_stored_and_sent_back_to_its_page_with_a_confirmation() {
    let app = app().await;
    let form = "name=Ana+Cruz&number=%2B639171234567&email=ana%40example.org&country=Philippines&message=Hello%0D%0Athere&_gotcha=";
    let headers = [
        ("origin", BASE),
        ("accept", "text/html,application/xhtml+xml"),
        ("referer", "http://127.0.0.1:3000/?utm=x#top"),
    ];
    let reply = app.post("/api/contact", "application/x-www-form-urlencoded", form, &headers).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(reply.header("location"), Some("/?utm=x#contact-sent"));
    let (message,): (String,) = sqlx::query_as("SELECT message FROM messages").fetch_one(&app.pool).await.unwrap();
    assert_eq!(message, "Hello\nthere");

    // A refused form goes back to the page's error notice; nothing is stored.
    let reply = app.post("/api/contact", "application/x-www-form-urlencoded", "name=Ana", &headers).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(reply.header("location"), Some("/?utm=x#contact-error"));
    assert_eq!(stored(&app).await, (1, 1));

    // A foreign Referer never becomes the redirect target.
    let foreign = [("accept", "text/html"), ("referer", "https://evil.example/phish")];
    let reply = app.post("/api/contact", "application/x-www-form-urlencoded", form, &foreign).await;
    assert_eq!(reply.header("location"), Some("/#contact-sent"));

    // Nor does a path a browser reads as another host (issue 11).
    for referer in [
        "http://127.0.0.1:3000/\\evil.example",
        "http://127.0.0.1:3000//evil.example/x",
        "/\\evil.example",
        "//evil.example",
        "http://127.0.0.1:3000@evil.example/",
    ] {
        let headers = [("accept", "text/html"), ("referer", referer)];
        let reply = app.post("/api/contact", "application/x-www-form-urlencoded", form, &headers).await;
        assert_eq!(reply.header("location"), Some("/#contact-sent"), "Referer {referer}");
    }
}

#[tokio::test]
async fn a_form_encoded_post_from_a_script_gets_json() {
    let app = app().await;
    let form = "name=Ana&number=5551234567&email=ana%40example.org&country=US&message=Hi";
    let reply = app.post("/api/contact", "application/x-www-form-urlencoded", form, &[]).await;
    assert_eq!(reply.status, StatusCode::CREATED);
    let reply = app.post("/api/contact", "application/x-www-form-urlencoded", "name=Ana", &[]).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    let answer: Value = serde_json::from_slice(&reply.body).unwrap();
    assert_eq!(answer["errors"]["email"], "Email address is required");
}

#[tokio::test]
async fn only_post_is_allowed() {
    let app = app().await;
    let (status, _, _) = app.get("/api/contact").await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn organisers_export_messages_as_csv() {
    let app = app().await;
    let (status, _) = app.post_json("/api/contact", &valid()).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = app.post_json("/api/contact", &with("message", json!("=HYPERLINK(\"http://evil\")"))).await;
    assert_eq!(status, StatusCode::CREATED);

    let mut out = Vec::new();
    conference::export::export(&app.pool, conference::export::ExportKind::Messages, &mut out).await.expect("export");
    let mut reader = csv::Reader::from_reader(out.as_slice());
    let headers: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(headers, ["id", "created", "name", "number", "email", "country", "message"]);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(&rows[0][2], "Ana Cruz");
    assert_eq!(&rows[0][3], "+639171234567");
    assert_eq!(&rows[0][6], "Is there a student discount for the virtual ticket?\nThanks!", "line breaks survive");
    assert_eq!(&rows[1][6], "'=HYPERLINK(\"http://evil\")", "a formula is exported as text");
}
