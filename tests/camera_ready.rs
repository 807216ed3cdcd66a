//! The author's camera-ready step over HTTP (issue 44 item 1, DESIGN.md section 18): from the
//! status link of an accepted paper, a plain page whose three forms (the PDF as multipart,
//! the details, the licence) work without JavaScript; refusals answer with their status, an
//! error summary linking each field and what was typed; strangers, papers without a step,
//! a locked volume and a passed `camera_ready_due` change nothing. The domain's own refusals
//! are in tests/domain/camera_ready.rs.

use axum::http::StatusCode;
use conference::clock::Clock;
use time::macros::datetime;

use crate::authors_programme::{Paper, accept, authors_app, body, post, submit_paper};
use crate::common::html::{by_id, parse, select, text};
use crate::common::papers::{Body, LETTER, a4_text, paper};
use crate::common::{BASE, Reply, TestApp, app_with_clock};
use crate::domain::camera_ready::{good, with};

const BOUNDARY: &str = "camerareadyboundary";

/// The step's multipart POST of `pdf` as `paper.pdf`, same-origin.
async fn upload(app: &TestApp, paper: &Paper, pdf: &[u8]) -> Reply {
    let mut data = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"pdf\"; filename=\"paper.pdf\"\r\nContent-Type: application/pdf\r\n\r\n"
    )
    .into_bytes();
    data.extend_from_slice(pdf);
    data.extend(format!("\r\n--{BOUNDARY}--\r\n").bytes());
    let path = format!("{}/camera-ready/pdf", paper.link);
    app.post(&path, &format!("multipart/form-data; boundary={BOUNDARY}"), data, &[("origin", BASE)]).await
}

async fn details(app: &TestApp, paper: &Paper, pairs: &[(&str, &str)]) -> Reply {
    post(app, &format!("{}/camera-ready/details", paper.link), &body(pairs)).await
}

async fn licence(app: &TestApp, paper: &Paper, name: &str) -> Reply {
    post(app, &format!("{}/camera-ready/licence", paper.link), &body(&[("signature", name)])).await
}

fn saved_to(reply: &Reply, paper: &Paper, what: &str) {
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    assert_eq!(reply.headers["location"], format!("{}/camera-ready?saved={what}", paper.link));
}

/// The error summary's items: (link target, text).
fn summary(page: &str) -> Vec<(String, String)> {
    let page = parse(page);
    select(&page, "#error-summary li a")
        .iter()
        .map(|a| (a.value().attr("href").unwrap().to_owned(), text(*a)))
        .collect()
}

async fn accepted(app: &TestApp, email: &str) -> Paper {
    let paper = submit_paper(app, email, "Lantern tides").await;
    accept(app, &paper).await;
    paper
}

#[tokio::test]
async fn an_accepted_author_goes_from_the_status_link_to_ready_without_javascript() {
    let app = authors_app().await;
    let paper = accepted(&app, "ana@example.org").await;
    let status = parse(&app.page(&paper.link).await);
    let link = by_id(&status, "camera-ready-link").expect("the status page links to the step");
    assert_eq!(link.value().attr("href"), Some(format!("{}/camera-ready", paper.link).as_str()));

    let (code, headers, page) = app.get(&format!("{}/camera-ready", paper.link)).await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(headers["referrer-policy"], "no-referrer");
    assert!(headers["x-robots-tag"].to_str().unwrap().contains("noindex"));
    let html = parse(&page);
    let form = select(&html, "form[enctype='multipart/form-data']");
    assert_eq!(form.len(), 1, "the PDF's form is a plain multipart form");
    for input in select(&html, "main form input:not([type=hidden]), main form textarea") {
        let id = input.value().attr("id").expect("every field has an id");
        assert_eq!(select(&html, &format!("label[for='{id}']")).len(), 1, "{id} has one label");
    }
    assert_eq!(by_id(&html, "title").unwrap().value().attr("value"), Some("Lantern tides"), "prefilled");
    assert_eq!(text(by_id(&html, "camera-ready-complete").unwrap()), "Not ready");

    // A file that fails: 422, each failure listed, linked to the file field.
    let failed = upload(&app, &paper, &paper_of_letter()).await;
    assert_eq!(failed.status, StatusCode::UNPROCESSABLE_ENTITY);
    let items = summary(&failed.text());
    assert!(items.iter().any(|(href, text)| href == "#pdf" && text.contains("A4")), "{items:?}");

    saved_to(&upload(&app, &paper, &a4_text(6)).await, &paper, "pdf");
    saved_to(&details(&app, &paper, &good()).await, &paper, "details");
    saved_to(&licence(&app, &paper, "Ben Reyes").await, &paper, "licence");
    let page = parse(&app.page(&format!("{}/camera-ready?saved=licence", paper.link)).await);
    assert_eq!(text(by_id(&page, "status-notice").unwrap()), "The licence is accepted.");
    assert_eq!(text(by_id(&page, "camera-ready-complete").unwrap()), "Ready");
    let state = text(by_id(&page, "camera-ready-state").unwrap());
    assert!(state.contains("6 pages") && state.contains("Accepted by Ben Reyes"), "{state}");
    // Times as the rest of the site shows them: in the event's zone, not a stored UTC stamp.
    let zone = app.state.event_zone().await;
    let abbreviation = zone.abbreviation_at(app.state.clock.now());
    assert!(state.contains(&format!(" {abbreviation}")) && !state.contains("Z ("), "{state}");
    let actions: Vec<String> =
        sqlx::query_scalar("SELECT action FROM audit_log WHERE action LIKE 'camera_ready.%' ORDER BY id")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(actions, ["camera_ready.pdf_accepted", "camera_ready.details_saved", "camera_ready.licence_accepted"]);
}

fn paper_of_letter() -> Vec<u8> {
    paper(&[(LETTER, Body::Text); 5])
}

#[tokio::test]
async fn bad_details_answer_422_with_the_summary_and_keep_what_was_typed_and_saved() {
    let app = authors_app().await;
    let paper = accepted(&app, "ana@example.org").await;
    saved_to(&details(&app, &paper, &good()).await, &paper, "details");
    let cases: Vec<(Vec<(&str, &str)>, &str)> = vec![
        (with("author-1-orcid", &["0000-0002-1825-0098"]), "#author-1-orcid"),
        (with("corresponding", &[]), "#corresponding-1"),
        (with("corresponding", &["1", "2"]), "#corresponding-1"),
        (with("keyword", &["one", "two"]), "#keyword-1"),
        (with("keyword", &["a", "b", "c", "d", "e", "f"]), "#keyword-1"),
    ];
    for (pairs, target) in cases {
        let reply = details(&app, &paper, &pairs).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{target}");
        let page = reply.text();
        let items = summary(&page);
        assert!(items.iter().any(|(href, _)| href == target), "{target}: {items:?}");
        assert_eq!(by_id(&parse(&page), "author-2-name").unwrap().value().attr("value"), Some("Ben Reyes"), "kept");
    }
    let refused = licence(&app, &paper, "Somebody Else").await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(summary(&refused.text()).iter().any(|(href, text)| href == "#signature" && text.contains("Ben Reyes")));
    let title: String = sqlx::query_scalar("SELECT title FROM camera_ready").fetch_one(&app.pool).await.unwrap();
    assert_eq!(title, "Lantern tides, final", "what was saved stays");
}

#[tokio::test]
async fn strangers_papers_without_a_step_and_foreign_origins_are_refused() {
    let app = authors_app().await;
    let submitted = submit_paper(&app, "ana@example.org", "Harbour bells").await;
    let accepted_paper = accepted(&app, "ben@example.org").await;
    let forged = Paper {
        id: 0,
        reference: String::new(),
        link: format!("/submission/status/{}", "A".repeat(43)),
        email: String::new(),
    };
    assert_eq!(app.get(&format!("{}/camera-ready", forged.link)).await.0, StatusCode::NOT_FOUND);
    assert_eq!(details(&app, &forged, &good()).await.status, StatusCode::NOT_FOUND);
    assert_eq!(upload(&app, &forged, &a4_text(5)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(licence(&app, &forged, "Ben Reyes").await.status, StatusCode::NOT_FOUND);

    // The other paper's link opens the other paper, which is not accepted: its status page, 409.
    let (code, _, page) = app.get(&format!("{}/camera-ready", submitted.link)).await;
    assert_eq!(code, StatusCode::CONFLICT);
    assert!(page.contains("Only an accepted paper has a camera-ready step"), "{page}");
    assert_eq!(details(&app, &submitted, &good()).await.status, StatusCode::CONFLICT);

    app.exec("UPDATE submissions SET state = 'withdrawn'").await;
    let reply = upload(&app, &accepted_paper, &a4_text(5)).await;
    assert_eq!(reply.status, StatusCode::CONFLICT);
    assert!(reply.text().contains("withdrawn"));

    let foreign = app
        .post(
            &format!("{}/camera-ready/licence", accepted_paper.link),
            "application/x-www-form-urlencoded",
            "signature=Ben",
            &[("origin", "https://evil.example")],
        )
        .await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN);
    assert_eq!(app.count("camera_ready").await, 0, "nothing stored");
}

#[tokio::test]
async fn a_locked_volume_and_a_passed_due_date_close_the_step_and_keep_what_was_handed_in() {
    let app = app_with_clock(|c| c.rate_limit_per_minute = 10_000, Clock::fixed(datetime!(2025-02-24 10:00 UTC))).await;
    let paper = accepted(&app, "ana@example.org").await;
    saved_to(&upload(&app, &paper, &a4_text(5)).await, &paper, "pdf");
    app.exec("UPDATE site SET camera_ready_due = '2025-03-01'").await;

    app.state.clock.set(datetime!(2025-03-01 23:59 +08:00));
    saved_to(&details(&app, &paper, &good()).await, &paper, "details");
    app.state.clock.set(datetime!(2025-03-02 00:01 +08:00));
    let late = details(&app, &paper, &with("title", &["Late"])).await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    assert!(late.text().contains("Camera-ready papers were due by Saturday, 1 March 2025, 23:59 Singapore time"));
    let page = parse(&app.page(&format!("{}/camera-ready", paper.link)).await);
    assert!(by_id(&page, "camera-ready-closed").is_some());
    assert!(select(&page, "main form").is_empty(), "no form is offered once closed");

    app.exec("UPDATE site SET camera_ready_due = NULL").await;
    app.exec("UPDATE proceedings_volumes SET locked = 1").await;
    let locked = upload(&app, &paper, &a4_text(7)).await;
    assert_eq!(locked.status, StatusCode::CONFLICT);
    assert!(locked.text().contains("locked the proceedings volume"));
    let (pages, title): (i64, String) =
        sqlx::query_as("SELECT pdf_pages, title FROM camera_ready").fetch_one(&app.pool).await.unwrap();
    assert_eq!((pages, title.as_str()), (5, "Lantern tides, final"));
}

#[tokio::test]
async fn a_file_over_the_size_rule_is_told_its_size_and_a_body_over_the_route_limit_is_413() {
    let app = authors_app().await;
    let paper = accepted(&app, "ana@example.org").await;
    // Over the format check's 10 MB but within the form's limit: the check says why.
    let mut large = a4_text(5);
    large.resize(11_000_000, b' ');
    let reply = upload(&app, &paper, &large).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(summary(&reply.text()).iter().any(|(href, _)| href == "#pdf"), "{}", reply.text());
    // Over the route's limit (conference::handlers::pages::camera_ready::PDF_BODY_LIMIT): 413.
    let huge = vec![b' '; conference::handlers::pages::camera_ready::PDF_BODY_LIMIT + 1];
    assert_eq!(upload(&app, &paper, &huge).await.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(app.count("camera_ready").await, 0, "nothing stored");
}
