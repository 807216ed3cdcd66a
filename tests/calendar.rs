//! The conference calendar (issue 42 items 1 to 3, DESIGN.md section 20): deadlines organisers
//! move at `/organiser/settings` or with `conference settings`, forms that close by them at
//! the minute, in the event's zone (the fixture's: Singapore, UTC+08:00), and review
//! assignments refused after the review deadline.

use std::process::Command;

use axum::http::StatusCode;
use serde_json::json;
use time::macros::datetime;

use crate::api_submission::{Form, submit};
use crate::common::html::{by_id, parse, select, text};
use crate::common::payer::checkout;
use crate::common::payments::{answer, location, send_answer, status_of};
use crate::common::review::add_reviewer;
use crate::common::{BASE, Reply, TestApp, app_with_clock, fixture};
use crate::organiser::sign_in;
use conference::calendar::change::{self, Actor};
use conference::ccavenue::crypto;
use conference::clock::Clock;
use conference::payments::config::TEST_WORKING_KEY;

const CHAIR: &str = "chair@fixcon.example";
const SETTINGS: &str = "/organiser/settings";
/// The fixture's contact address, whom a closed form names.
const CONTACT: &str = "desk@fixcon.example.net";

async fn app_at(now: time::OffsetDateTime) -> TestApp {
    app_with_clock(
        |c| {
            c.organiser_email = Some(CHAIR.into());
            c.rate_limit_per_minute = 100_000;
        },
        Clock::fixed(now),
    )
    .await
}

/// POSTs the settings form as the organiser with `cookie`.
async fn save(app: &TestApp, cookie: &str, pairs: &[(&str, &str)]) -> Reply {
    let body = serde_urlencoded::to_string(pairs).unwrap();
    app.post(SETTINGS, "application/x-www-form-urlencoded", body, &[("origin", BASE), ("cookie", cookie)]).await
}

/// Sets deadlines as an operator would (`conference settings set`), and reloads this
/// instance's content as its watcher would within a second.
async fn set(app: &TestApp, pairs: &[(&str, &str)]) {
    let typed: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let actor = Actor { name: "cli", client: None };
    change::set(&app.pool, &typed, actor, app.state.clock.now()).await.expect("the values are good");
    app.state.content.reload().await.unwrap();
}

#[tokio::test]
async fn submissions_close_a_minute_after_the_due_day_ends_and_reopen_when_the_date_moves() {
    let app = app_at(datetime!(2025-03-18 23:59 +08:00)).await;
    let cookie = sign_in(&app, CHAIR).await;
    let saved = save(&app, &cookie, &[("paper_due_date", "2025-03-18")]).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());

    // One minute before the end of 18 March in Singapore: the form is there and takes a paper.
    let page = parse(&app.page("/submission").await);
    assert!(!select(&page, "form[action='/api/paper-submission']").is_empty(), "the form is offered");
    assert!(by_id(&page, "submissions-closed").is_none());
    let (status, answer) = submit(&app, &Form::valid()).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let (rows, papers) = (app.count("submissions").await, app.stored_papers().await);

    // One minute after: the page says so and whom to write to, and the API stores nothing.
    app.state.clock.set(datetime!(2025-03-19 00:01 +08:00));
    let page = parse(&app.page("/submission").await);
    assert!(select(&page, "form[action='/api/paper-submission']").is_empty(), "no form once closed");
    let closed = text(by_id(&page, "submissions-closed").expect("the closed notice"));
    assert!(closed.contains("Paper submissions are closed (the deadline was 18 March 2025)"), "{closed}");
    assert!(closed.contains(CONTACT), "{closed}");
    let (status, answer) = submit(&app, &Form::valid()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["message"].as_str().unwrap(), closed);
    assert_eq!((app.count("submissions").await, app.stored_papers().await), (rows, papers), "nothing stored");

    // Moving the date opens the form again at once.
    let saved = save(&app, &cookie, &[("paper_due_date", "2025-04-30")]).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    let page = parse(&app.page("/submission").await);
    assert!(!select(&page, "form[action='/api/paper-submission']").is_empty(), "the form is back");
    assert!(text(page.root_element()).contains("30 April 2025"), "the due date shown is the new one");
    assert_eq!(submit(&app, &Form::valid()).await.0, StatusCode::CREATED);

    // Another instance over the same database refuses and accepts by the same calendar.
    let other = app.another_instance().await;
    assert_eq!(submit(&other, &Form::valid()).await.0, StatusCode::CREATED);
    set(&app, &[("paper_due_date", "2025-03-01")]).await;
    assert_eq!(submit(&other, &Form::valid()).await.0, StatusCode::CONFLICT);
}

#[tokio::test]
async fn registration_closes_at_the_end_of_its_day_but_an_order_started_before_completes() {
    let app = app_at(datetime!(2025-03-23 23:59 +08:00)).await;
    set(&app, &[("registration_closes", "2025-03-23")]).await;
    let page = parse(&app.page("/pricing").await);
    assert!(!select(&page, "[data-island=TicketCheckout]").is_empty(), "Register Now is offered");
    assert!(select(&page, ".ticket-card__closed").is_empty());
    let started = crate::common::payments::initiate(&app, &checkout(json!({"plan": "presenter-virtual"}))).await;
    let orders = app.count("orders").await;

    app.state.clock.set(datetime!(2025-03-24 00:01 +08:00));
    let page = parse(&app.page("/pricing").await);
    assert!(select(&page, "[data-island=TicketCheckout]").is_empty(), "no Register Now, no Pay Now");
    assert!(select(&page, "[data-island=CustomPayment]").is_empty(), "no custom payment");
    let closed = select(&page, ".ticket-card__closed");
    assert_eq!(closed.len(), fixture::PLANS.len() + 1, "every card and the custom payment");
    assert!(closed.iter().all(|c| text(*c) == "Registration closed"));
    let notice = text(by_id(&page, "registration-closed").unwrap());
    assert!(notice.contains("Registration closed on 23 March 2025") && notice.contains(CONTACT), "{notice}");
    for target in [json!({"plan": "presenter-virtual"}), json!({"customAmount": "100"})] {
        let reply = crate::common::payments::post_json(&app, "/api/ccavenue-initiate", &checkout(target)).await;
        assert_eq!(reply.status, StatusCode::CONFLICT, "{}", reply.text());
        assert!(reply.text().contains("Registration closed on 23 March 2025"), "{}", reply.text());
    }
    assert_eq!(app.count("orders").await, orders, "nothing stored");

    // The gateway's answer for the order started a minute before the close still counts.
    let amount = fixture::PRESENTER_VIRTUAL.amount;
    let enc = crypto::encrypt(&answer(&started.order_id, "Success", amount, "USD").to_query_string(), TEST_WORKING_KEY);
    let reply = send_answer(&app, &enc, &started.order_id).await;
    assert_eq!(location(&reply), format!("/Success?order={}", started.order_id));
    assert_eq!(status_of(&app, &started.order_id).await, "success");
}

#[tokio::test]
async fn the_settings_page_shows_each_deadline_and_audits_a_change_with_both_values() {
    let app = app_at(datetime!(2025-02-26 18:00 +08:00)).await;
    assert_eq!(app.request(SETTINGS, &[]).await.status, StatusCode::SEE_OTHER, "organisers only");
    let cookie = sign_in(&app, CHAIR).await;
    let page = app.request(SETTINGS, &[("cookie", &cookie)]).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = parse(&page.text());
    let review = text(by_id(&html, "setting-review_deadline").unwrap());
    assert!(review.contains(fixture::REVIEW_DEADLINE_LABEL), "{review}");
    assert!(review.contains("Open: in 5 days") && review.contains("From the content seed"), "{review}");
    assert!(review.contains("staged or released"), "what it governs: {review}");
    let registration = text(by_id(&html, "setting-registration_closes").unwrap());
    assert!(registration.contains("Thursday, 31 December 2099, 23:59 Singapore time (UTC+08:00)"), "{registration}");
    assert!(!select(&html, "a[href='/organiser/settings']").is_empty(), "linked in the organiser nav");

    let saved = save(&app, &cookie, &[("review_deadline", "2025-03-10 12:00"), ("camera_ready_due", "")]).await;
    assert_eq!(saved.status, StatusCode::OK);
    assert!(saved.text().contains("review_deadline: 2025-03-03 18:00 → 2025-03-10 12:00"), "{}", saved.text());
    let entries: Vec<(String, String, String)> =
        sqlx::query_as("SELECT actor, object_id, details FROM audit_log WHERE action = 'settings.changed'")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!((entries[0].0.as_str(), entries[0].1.as_str()), (CHAIR, "review_deadline"));
    let details: serde_json::Value = serde_json::from_str(&entries[0].2).unwrap();
    assert_eq!(details["value"], json!({"before": "2025-03-03 18:00", "after": "2025-03-10 12:00"}));

    // The value outlives a later seed.
    conference::seed::apply::seed_with(&app.pool, fixture::SEED.to_owned()).await.unwrap();
    let page = app.request(SETTINGS, &[("cookie", &cookie)]).await.text();
    assert!(page.contains(&format!("Set by {CHAIR}")), "{page}");
    assert!(page.contains("Monday, 10 March 2025, 12:00 Singapore time"), "{page}");
}

#[tokio::test]
async fn bad_settings_change_nothing_and_say_why_and_a_past_review_deadline_only_warns() {
    let app = app_at(datetime!(2025-03-05 12:00 +08:00)).await;
    let cookie = sign_in(&app, CHAIR).await;
    for (pairs, says) in [
        (vec![("paper_due_date", "2025-04-01"), ("paper_due", "2025-04-01")], "there is no setting “paper_due”"),
        (vec![("paper_due_date", "1 April 2025")], "“1 April 2025” is not a date or time"),
        (vec![("attendee_changes_until", "2025-03-24")], "after the event"),
    ] {
        let refused = save(&app, &cookie, &pairs).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{pairs:?}");
        assert!(refused.text().contains(says), "{says}: {}", refused.text());
    }
    assert_eq!(app.count("settings").await, 0, "nothing stored");
    let audited: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'settings.changed'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(audited, 0);

    let warned = save(&app, &cookie, &[("review_deadline", "2025-03-04")]).await;
    assert_eq!(warned.status, StatusCode::OK);
    assert!(warned.text().contains("has already passed"), "{}", warned.text());
    assert_eq!(app.count("settings").await, 1);

    // A cross-site POST is refused like every organiser form.
    let forged = app
        .post(SETTINGS, "application/x-www-form-urlencoded", "review_deadline=2030-01-01", &[("cookie", &cookie)])
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
}

/// `conference settings` and `conference settings set`, against the app's database.
fn cli(app: &TestApp, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(args)
        .env("DATA_DIR", app.dir.path())
        .env("DATABASE_URL", app.database_url())
        .env("RUST_LOG", "error")
        .output()
        .expect("the binary runs")
}

#[tokio::test]
async fn the_command_line_lists_and_sets_deadlines_and_seed_check_names_them() {
    let app = crate::common::app().await;
    let listed = cli(&app, &["settings"]);
    assert!(listed.status.success());
    let out = String::from_utf8_lossy(&listed.stdout).into_owned();
    for key in
        ["paper_due_date", "registration_closes", "review_deadline", "attendee_changes_until", "camera_ready_due"]
    {
        assert!(out.contains(key), "{key}: {out}");
    }

    let bad = cli(&app, &["settings", "set", "paper_due_date=2026-01-01", "nonsense=2026-01-01"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("there is no setting"), "{bad:?}");
    let bad = cli(&app, &["settings", "set", "review_deadline=soon"]);
    assert!(!bad.status.success());
    assert_eq!(app.count("settings").await, 0, "nothing stored");

    let good = cli(&app, &["settings", "set", "review_deadline=2099-06-01"]);
    assert!(good.status.success(), "{good:?}");
    assert!(String::from_utf8_lossy(&good.stdout).contains("review_deadline: 2025-03-03 18:00 -> 2099-06-01"));
    let actor: String = sqlx::query_scalar("SELECT actor FROM audit_log WHERE action = 'settings.changed'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(actor, "cli");

    let seed = app.dir.path().join("seed.sql");
    std::fs::write(&seed, fixture::SEED).unwrap();
    let checked = cli(&app, &["seed", "--check", "--file", seed.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&checked.stdout).into_owned();
    assert!(out.contains("settings.review_deadline: \"2099-06-01\" set by cli"), "{out}");
}

/// The settings page as an attacker meets it (OWASP Session Management and CSRF): no session,
/// a made-up session cookie, a reviewer's or desk staff's session, each refused on GET and
/// POST with nothing stored; only the organiser's own session from the site's origin saves.
#[tokio::test]
async fn the_settings_page_answers_organisers_only() {
    let app = crate::check_in::app().await;
    let chair = sign_in(&app, crate::organiser::CHAIR).await;
    let body = "review_deadline=2030-01-01";
    crate::organiser::assert_refused_anonymous_and_foreign(&app, SETTINGS, body, &chair).await;
    let anonymous = app.request(SETTINGS, &[]).await;
    assert_eq!((anonymous.status, anonymous.header("location")), (StatusCode::SEE_OTHER, Some("/organiser")));

    let forged = format!("__Host-organiser_session={}", "A".repeat(43));
    let guessed = app.request(SETTINGS, &[("cookie", &forged)]).await;
    assert_eq!((guessed.status, guessed.header("location")), (StatusCode::SEE_OTHER, Some("/organiser")));
    let guessed = save(&app, &forged, &[("review_deadline", "2030-01-01")]).await;
    assert_eq!((guessed.status, guessed.header("location")), (StatusCode::SEE_OTHER, Some("/organiser")));

    add_reviewer(&app, "ada@engines.example", "Ada Lovelace", "Analytical Engines Ltd", "Tidal Computing").await;
    let reviewer = crate::common::review::reviewer_sign_in(&app, "ada@engines.example").await;
    let desk = crate::check_in::desk_sign_in(&app, crate::check_in::DOOR).await;
    for (who, cookie) in [("reviewer", &reviewer), ("desk staff", &desk)] {
        assert_eq!(app.request(SETTINGS, &[("cookie", cookie)]).await.status, StatusCode::NOT_FOUND, "{who}");
        let saved = save(&app, cookie, &[("review_deadline", "2030-01-01")]).await;
        assert_eq!(saved.status, StatusCode::NOT_FOUND, "{who}");
    }
    assert_eq!(app.count("settings").await, 0, "nothing stored by any of them");

    let saved = save(&app, &chair, &[("review_deadline", "2030-01-01")]).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    assert_eq!(app.count("settings").await, 1);
}

#[tokio::test]
async fn assignments_are_refused_after_the_review_deadline_and_no_mail_names_a_passed_one() {
    // Five days before the fixture's deadline (3 March 2025, 18:00 Singapore time).
    let app = app_at(datetime!(2025-02-26 18:00 +08:00)).await;
    let mut cookie = sign_in(&app, CHAIR).await;
    add_reviewer(&app, "ada@engines.example", "Ada Lovelace", "Analytical Engines Ltd", "Tidal Computing").await;
    add_reviewer(&app, "bo@lanternworks.example", "Bo Lantern", "Lantern Works", "Lantern Studies").await;
    for n in 0..2 {
        let form = Form::valid().with("email", &format!("author{n}@inst{n}.example.org"));
        assert_eq!(submit(&app, &form).await.0, StatusCode::CREATED);
    }
    let post = |path: &'static str, body: String, cookie: String| {
        let app = &app;
        async move {
            app.post(path, "application/x-www-form-urlencoded", body, &[("origin", BASE), ("cookie", &cookie)]).await
        }
    };
    let staged = post("/organiser/review/assignments/automatic", String::new(), cookie.clone()).await;
    assert_eq!(staged.status, StatusCode::SEE_OTHER, "{}", staged.text());
    let preview = app.request("/organiser/review/assignments/staged", &[("cookie", &cookie)]).await.text();
    let mark = select(&parse(&preview), "form[action='/organiser/review/assignments/release'] input[name=mark]")
        .first()
        .and_then(|i| i.value().attr("value").map(str::to_owned))
        .expect("the release form");
    let released = post("/organiser/review/assignments/release", format!("mark={mark}"), cookie.clone()).await;
    assert_eq!(released.status, StatusCode::SEE_OTHER, "{}", released.text());
    let mails: Vec<String> = sqlx::query_scalar("SELECT text_body FROM outbox WHERE subject LIKE '%to review'")
        .fetch_all(&app.pool)
        .await
        .unwrap();
    assert_eq!(mails.len(), 2);
    for mail in &mails {
        assert!(mail.contains(&format!("Reviews are due by {}, in 5 days.", fixture::REVIEW_DEADLINE_LABEL)), "{mail}");
    }
    let home = crate::common::review::reviewer_sign_in(&app, "ada@engines.example").await;
    let page = app.request("/review", &[("cookie", &home)]).await.text();
    assert!(page.contains(&format!("{}</time>, in 5 days", fixture::REVIEW_DEADLINE_LABEL)), "{page}");

    // One minute before the deadline it is still allowed; one minute after, refused with a
    // link to the setting, and nothing is mailed.
    app.state.clock.set(datetime!(2025-03-03 17:59 +08:00));
    cookie = sign_in(&app, CHAIR).await;
    let staged = post("/organiser/review/assignments/automatic", String::new(), cookie.clone()).await;
    assert_eq!(staged.status, StatusCode::SEE_OTHER, "{}", staged.text());
    app.state.clock.set(datetime!(2025-03-03 18:01 +08:00));
    let outbox = app.count("outbox").await;
    for (path, body) in [
        ("/organiser/review/assignments/automatic", String::new()),
        ("/organiser/review/assignments/release", format!("mark={mark}")),
    ] {
        let refused = post(path, body, cookie.clone()).await;
        assert_eq!(refused.status, StatusCode::CONFLICT, "{path}");
        let page = parse(&refused.text());
        assert!(text(page.root_element()).contains("The review deadline, Monday, 3 March 2025, 18:00"), "{path}");
        assert!(!select(&page, "main a[href='/organiser/settings']").is_empty(), "{path} links to the setting");
    }
    assert_eq!(app.count("outbox").await, outbox, "nothing mailed after the deadline");
    let named: Vec<String> = sqlx::query_scalar("SELECT text_body FROM outbox").fetch_all(&app.pool).await.unwrap();
    assert!(named.iter().all(|m| !m.contains("passed") || !m.contains(fixture::REVIEW_DEADLINE_LABEL)));

    // Moved: released again.
    let saved = save(&app, &cookie, &[("review_deadline", "2025-03-10")]).await;
    assert_eq!(saved.status, StatusCode::OK);
    let preview = app.request("/organiser/review/assignments/staged", &[("cookie", &cookie)]).await;
    assert_eq!(preview.status, StatusCode::OK);
}

/// Issue 42's "Done when", on the shipped 2025 seed in December 2026: submission and
/// registration say they are closed and their APIs answer 409; once an organiser moves the
/// deadlines to next year a paper is taken and a ticket order starts.
#[tokio::test]
async fn with_the_shipped_seed_the_forms_are_closed_until_an_organiser_moves_the_deadlines() {
    let app = app_at(datetime!(2026-12-02 10:00 UTC)).await;
    conference::seed::apply::seed(&app.pool).await.unwrap();
    app.state.content.reload().await.unwrap();
    let page = parse(&app.page("/submission").await);
    assert!(by_id(&page, "submissions-closed").is_some(), "submissions closed");
    assert_eq!(submit(&app, &Form::valid()).await.0, StatusCode::CONFLICT);
    let page = parse(&app.page("/pricing").await);
    assert!(by_id(&page, "registration-closed").is_some(), "registration closed");
    let plan = conference::repo::content::ticket_plans(&app.pool).await.unwrap()[0].id.clone();
    let order = checkout(json!({ "plan": plan }));
    let reply = crate::common::payments::post_json(&app, "/api/ccavenue-initiate", &order).await;
    assert_eq!(reply.status, StatusCode::CONFLICT, "{}", reply.text());

    let cookie = sign_in(&app, CHAIR).await;
    let saved = save(
        &app,
        &cookie,
        &[("paper_due_date", "2027-03-01"), ("registration_closes", "2027-03-01"), ("review_deadline", "2027-03-15")],
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    assert!(by_id(&parse(&app.page("/submission").await), "submissions-closed").is_none());
    assert_eq!(submit(&app, &Form::valid()).await.0, StatusCode::CREATED);
    assert!(by_id(&parse(&app.page("/pricing").await), "registration-closed").is_none());
    let reply = crate::common::payments::post_json(&app, "/api/ccavenue-initiate", &order).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text());
}
