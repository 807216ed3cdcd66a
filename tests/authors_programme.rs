//! Authors and the programme (issue 31 items 3 and 6): the status page of an accepted paper
//! shows where the latest published version put it, with its calendar entry and the island
//! that adds the time in the author's own zone; until the
//! organisers lock the programme its author sets the public abstract (at most 300 words) and
//! the presenter there, with the withdrawal's protections; a talk that moves mails its paper
//! once, with the new time and an `.ics` that replaces the old entry, whichever instance
//! publishes and whichever sends; and the submission form says what the programme publishes.

use axum::http::StatusCode;
use conference::programme::moved_mail::MovedTalkMail;
use conference::programme::publish::{PublishError, publish};
use conference::programme::{Published, Talk};
use conference::repo::programme as store;
use mail_parser::MimeHeaders;

use crate::api_submission::{Form, submit};
use crate::common::html::{ElementRef, Html, content, first, parse, select, text, texts};
use crate::common::ics::{events, property};
use crate::common::{BASE, Reply, TestApp, app_with};

const FORM: &str = "application/x-www-form-urlencoded";
/// Who publishes in these tests.
const CHAIR: &str = "chair@example.org";
/// The authors of `Form::valid`'s paper, in order.
const AUTHORS: [&str; 3] = ["Ana Cruz", "Ben Reyes", "Carla Santos"];

/// A paper submitted through the public form.
pub(crate) struct Paper {
    pub(crate) id: i64,
    pub(crate) reference: String,
    /// The status page's path, from the acknowledgement.
    pub(crate) link: String,
    pub(crate) email: String,
}

pub(crate) async fn authors_app() -> TestApp {
    app_with(|c| c.rate_limit_per_minute = 10_000).await
}

pub(crate) async fn submit_paper(app: &TestApp, email: &str, title: &str) -> Paper {
    let form = Form::valid().with("email", email).with("paperTitle", title);
    let (status, answer) = submit(app, &form).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let reference = answer["reference"].as_str().unwrap().to_owned();
    let id: i64 = sqlx::query_scalar("SELECT id FROM submissions WHERE reference = $1")
        .bind(&reference)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let ack: String = sqlx::query_scalar("SELECT text_body FROM outbox WHERE to_address = $1 ORDER BY id LIMIT 1")
        .bind(email)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let prefix = format!("{BASE}/submission/status/");
    let at = ack.find(&prefix).unwrap_or_else(|| panic!("a status link in {ack}"));
    let link: String = ack[at..].chars().take_while(|c| !c.is_whitespace()).collect();
    Paper { id, reference, link: link.strip_prefix(BASE).unwrap().to_owned(), email: email.to_owned() }
}

async fn version(app: &TestApp, paper: &Paper) -> i64 {
    sqlx::query_scalar("SELECT version FROM submissions WHERE id = $1")
        .bind(paper.id)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

/// Accepts `paper` the way organisers do: a pending decision, then applied.
pub(crate) async fn accept(app: &TestApp, paper: &Paper) {
    let v = version(app, paper).await;
    let mut conn = app.pool.acquire().await.unwrap();
    let staged = conference::repo::decisions::set_pending(&mut conn, &paper.reference, v, Some("accepted"), "")
        .await
        .unwrap()
        .expect("staged");
    conference::repo::decisions::apply(&mut conn, &paper.reference, staged, "2025-02-01T00:00:00.000000Z")
        .await
        .unwrap()
        .expect("applied");
}

async fn place(app: &TestApp, paper: &Paper, session: &str, minutes: i64) {
    let mut conn = app.pool.acquire().await.unwrap();
    store::place(&mut conn, paper.id, session, minutes, "2025-02-01T00:00:00.000000Z").await.unwrap();
}

/// The moved-talk mail as the publish handler makes it.
async fn moved_mail(app: &TestApp) -> MovedTalkMail {
    let site = conference::repo::content::site(&app.pool).await.unwrap();
    let zone = app.state.content.snapshot().await.zone.clone();
    MovedTalkMail::new(&site, &app.config, zone)
}

/// Publishes version `number` from `app`, then loads it into `app`'s content (as the watcher
/// does within a second).
async fn publish_as(app: &TestApp, number: i64, name: &str) -> Result<Published, PublishError> {
    let moved = moved_mail(app).await;
    let result =
        publish(&app.pool, number, name, CHAIR, None, app.state.clock.now(), &|v, t, p| moved.mail(v, t, p)).await;
    app.state.content.reload().await.unwrap();
    result
}

/// A same-origin form POST.
pub(crate) async fn post(app: &TestApp, path: &str, body: &str) -> Reply {
    app.post(path, FORM, body.to_owned(), &[("origin", BASE)]).await
}

/// A form body: each pair URL-encoded.
pub(crate) fn body(pairs: &[(&str, &str)]) -> String {
    serde_urlencoded::to_string(pairs).unwrap()
}

fn notice(page: &Html) -> String {
    first(page, "#status-notice").map(text).unwrap_or_default()
}

fn main_of(page: &Html) -> ElementRef<'_> {
    first(page, "main").expect("the page has a <main>")
}

/// The `dt` → `dd` pairs of a description list.
fn facts(list: ElementRef<'_>) -> Vec<(String, String)> {
    let terms = texts(list, "dt");
    let values = texts(list, "dd");
    terms.into_iter().zip(values).collect()
}

fn fact(list: ElementRef<'_>, name: &str) -> String {
    facts(list).into_iter().find(|(n, _)| n == name).map(|(_, v)| v).unwrap_or_else(|| panic!("no {name}"))
}

/// The (abstract, presenter) stored for `paper`.
async fn stored(app: &TestApp, paper: &Paper) -> (String, String) {
    store::public_fields(&app.pool, paper.id).await.unwrap()
}

async fn audit_actions(app: &TestApp, action: &str) -> Vec<(String, String, String)> {
    sqlx::query_as("SELECT actor, object_id, details FROM audit_log WHERE action = $1 ORDER BY id")
        .bind(action)
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

/// `talk-moved:<id>:<version>` mails in the outbox: (key, to, subject, text body, attachment
/// name, attachment bytes).
type Queued = (String, String, String, String, Option<String>, Option<Vec<u8>>);

async fn moved_mails(app: &TestApp) -> Vec<Queued> {
    sqlx::query_as(
        "SELECT dedupe_key, to_address, subject, text_body, attachment_name, attachment_data FROM outbox
         WHERE dedupe_key LIKE 'talk-moved:%' ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap()
}

/// The talk of `paper` in the latest published version.
async fn talk_of(app: &TestApp, paper: &Paper) -> Talk {
    let latest = store::latest(&app.pool).await.unwrap().expect("a published version");
    latest.talks.into_iter().find(|t| t.submission == Some(paper.id)).expect("the paper is in the programme")
}

#[tokio::test]
async fn the_submission_form_says_what_the_programme_publishes() {
    let app = authors_app().await;
    let page = parse(&app.page("/submission").await);
    let sentence = first(&page, "#paper-published").expect("the sentence");
    assert_eq!(
        text(sentence),
        "If your paper is accepted, its title and its authors' names and affiliations are published in the conference programme."
    );
    // Outside the form the island replaces, so it reads the same with and without JavaScript.
    assert!(first(&page, ".paper-form-island #paper-published").is_none());
}

#[tokio::test]
async fn an_accepted_paper_shows_its_session_time_room_mode_and_calendar_once_published() {
    let app = authors_app().await;
    let first_paper = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let mine = submit_paper(&app, "ben@example.org", "Harbour bells").await;
    let waiting = submit_paper(&app, "cy@example.org", "Undecided tides").await;

    // Submitted: neither the programme nor the public details.
    let page = parse(&app.page(&waiting.link).await);
    assert!(first(&page, "#talk-place").is_none() && first(&page, "#not-placed").is_none());
    assert!(first(&page, "textarea[name=abstract]").is_none());

    // Accepted, before any version is published: not in the programme yet, the form offered.
    accept(&app, &first_paper).await;
    accept(&app, &mine).await;
    let page = parse(&app.page(&mine.link).await);
    assert!(first(&page, "#talk-place").is_none());
    assert!(
        text(first(&page, "#not-placed").unwrap()).starts_with("Your paper is not in the published programme yet.")
    );
    assert!(first(&page, "textarea[name=abstract]").is_some());

    // Placed in the draft only: still not shown; visitors and authors only see published.
    place(&app, &first_paper, "session-a", 20).await;
    place(&app, &mine, "session-a", 25).await;
    assert!(first(&parse(&app.page(&mine.link).await), "#talk-place").is_none());

    publish_as(&app, 1, "First programme").await.expect("version 1 publishes");
    let reply = app.request(&mine.link, &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header("cache-control"), Some("private, no-store"));
    assert_eq!(reply.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(reply.header("x-robots-tag"), Some("noindex"));
    let page = parse(&reply.text());
    assert!(first(&page, "#not-placed").is_none());
    let main = main_of(&page);
    assert!(text(main).contains("Times are in Singapore time (UTC+08:00)."), "the zone named: {}", text(main));
    let place = first(&page, "#talk-place").expect("the talk's place");
    let slug = talk_of(&app, &mine).await.slug;
    assert_eq!(slug, "harbour-bells");
    assert_eq!(fact(place, "Session"), "Fixture session A");
    assert_eq!(first(place, "a[href='/schedule/sessions/session-a']").map(text).as_deref(), Some("Fixture session A"));
    // The second talk of the session starts after the first's 20 minutes and lasts 25.
    assert_eq!(fact(place, "Day and time"), "Saturday, 22 March 2025, 09:20 – 09:45");
    let times = select(place, "time");
    assert_eq!(times[0].attr("datetime"), Some("2025-03-22T09:20:00+08:00"));
    assert_eq!(times[0].attr("data-zone-time"), Some("date-clock"), "the zone switch converts it to the author's time");
    assert_eq!(times[1].attr("datetime"), Some("2025-03-22T09:45:00+08:00"));
    assert_eq!(times[1].attr("data-zone-time"), Some("clock"));
    // The author's own time: the ZoneSwitch island in its line mode, in the same line, empty
    // (without JavaScript the page reads in event time); no switch rewrites the page.
    let mounts = select(&page, "[data-island=ZoneSwitch]");
    assert_eq!(mounts.len(), 1, "one zone island on the status page");
    let own = first(place, "dd > [data-island=ZoneSwitch]").expect("the author's own time, in the time's line");
    assert_eq!(own.attr("data-hydrate"), Some("idle"));
    let props: serde_json::Value = serde_json::from_str(own.attr("data-props").unwrap()).unwrap();
    assert_eq!(
        props,
        serde_json::json!({ "zone": crate::common::fixture::TIME_ZONE, "zoneName": "Singapore time", "line": true })
    );
    assert!(own.inner_html().trim().is_empty());
    assert_eq!(fact(place, "Room"), "Tide Room A");
    assert_eq!(fact(place, "Mode"), "Hybrid");
    assert_eq!(fact(place, "Talk page"), "Harbour bells");
    assert!(first(place, "a[href='/schedule/talks/harbour-bells']").is_some());
    let ics = first(main, "a[href='/schedule/talks/harbour-bells.ics']").expect("the talk's calendar");
    assert_eq!(text(ics), "Add to your calendar (.ics)");
    // Only this paper: not the other talk of the session, and no address.
    assert!(!text(main).contains("Lantern tides"));
    assert!(!text(main).contains('@'));

    // Withdrawn from the next version: the page says so again.
    let mut conn = app.pool.acquire().await.unwrap();
    store::unplace(&mut conn, mine.id).await.unwrap();
    drop(conn);
    publish_as(&app, 2, "Without harbour bells").await.expect("version 2 publishes");
    let page = parse(&app.page(&mine.link).await);
    assert!(first(&page, "#talk-place").is_none());
    assert!(first(&page, "#not-placed").is_some());
}

#[tokio::test]
async fn the_author_sets_the_public_abstract_and_presenter_until_the_programme_is_locked() {
    let app = authors_app().await;
    let paper = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    accept(&app, &paper).await;
    let page = parse(&app.page(&paper.link).await);
    let form = first(&page, "form[action$='/programme']").expect("the public details form");
    assert_eq!(form.attr("method"), Some("post"));
    assert_eq!(form.attr("action"), Some(format!("{}/programme", paper.link).as_str()));
    let label = text(first(form, "label[for=public-abstract]").unwrap());
    assert!(label.contains("at most 300 words"), "the count rule in the label: {label}");
    let v = version(&app, &paper).await;
    assert_eq!(first(form, "input[name=version]").unwrap().attr("value"), Some(v.to_string().as_str()));
    let choices: Vec<&str> =
        select(form, "input[name=presenter]").into_iter().filter_map(|i| i.attr("value")).collect();
    assert_eq!(choices, AUTHORS, "the paper's authors, as radio buttons");
    let checked: Vec<&str> =
        select(form, "input[name=presenter][checked]").into_iter().filter_map(|i| i.attr("value")).collect();
    assert_eq!(checked, ["Ana Cruz"], "the first author until another is chosen");

    let text_in = "Lanterns that follow the tide.\r\n\r\nA second paragraph.";
    let saved = post(
        &app,
        &format!("{}/programme", paper.link),
        &body(&[("version", &v.to_string()), ("abstract", text_in), ("presenter", "Ben Reyes")]),
    )
    .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text());
    assert_eq!(saved.header("location"), Some(format!("{}?saved=1", paper.link).as_str()));
    assert_eq!(saved.header("cache-control"), Some("private, no-store"));
    assert_eq!(saved.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(
        stored(&app, &paper).await,
        ("Lanterns that follow the tide.\n\nA second paragraph.".to_owned(), "Ben Reyes".to_owned())
    );
    let page = parse(&app.page(&format!("{}?saved=1", paper.link)).await);
    assert_eq!(notice(&page), "Your talk's public abstract and presenter are saved.");
    assert_eq!(
        content(first(&page, "textarea[name=abstract]").unwrap()),
        "Lanterns that follow the tide.\n\nA second paragraph."
    );
    let checked: Vec<&str> =
        select(&page, "input[name=presenter][checked]").into_iter().filter_map(|i| i.attr("value")).collect();
    assert_eq!(checked, ["Ben Reyes"]);
    let entries = audit_actions(&app, "programme.paper_edited").await;
    assert_eq!(entries.len(), 1);
    assert_eq!((entries[0].0.as_str(), entries[0].1.as_str()), ("author", paper.reference.as_str()));
    let details: serde_json::Value = serde_json::from_str(&entries[0].2).unwrap();
    assert_eq!(details["presenter"]["before"], "");
    assert_eq!(details["presenter"]["after"], "Ben Reyes");

    // The next version publishes them.
    place(&app, &paper, "session-b", 20).await;
    publish_as(&app, 1, "First programme").await.unwrap();
    let talk = talk_of(&app, &paper).await;
    assert_eq!(talk.presenter, "Ben Reyes");
    assert_eq!(talk.r#abstract, "Lanterns that follow the tide.\n\nA second paragraph.");

    // Locked: the values read-only, and a POST changes nothing.
    let mut conn = app.pool.acquire().await.unwrap();
    store::set_locked(&mut conn, Some(("2025-03-01T00:00:00.000000Z", CHAIR))).await.unwrap();
    drop(conn);
    let page = parse(&app.page(&paper.link).await);
    assert!(first(&page, "form[action$='/programme']").is_none(), "no form once locked");
    assert!(text(first(&page, "#programme-locked").unwrap()).starts_with("The organisers have locked the programme"));
    let shown = first(&page, "#public-details").unwrap();
    assert_eq!(content(first(shown, "dd").unwrap()), "Lanterns that follow the tide.\n\nA second paragraph.");
    assert_eq!(fact(shown, "Presenter"), "Ben Reyes");
    let v = version(&app, &paper).await;
    let refused = post(
        &app,
        &format!("{}/programme", paper.link),
        &body(&[("version", &v.to_string()), ("abstract", "Changed"), ("presenter", "Ana Cruz")]),
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(
        notice(&parse(&refused.text())).starts_with("The organisers have locked the programme, so nothing was saved.")
    );
    assert_eq!(stored(&app, &paper).await.1, "Ben Reyes");
    assert_eq!(version(&app, &paper).await, v);

    // Unlocked again, the form is back.
    let mut conn = app.pool.acquire().await.unwrap();
    store::set_locked(&mut conn, None).await.unwrap();
    drop(conn);
    assert!(first(&parse(&app.page(&paper.link).await), "form[action$='/programme']").is_some());
}

#[tokio::test]
async fn bad_public_details_are_a_400_with_the_message_and_store_nothing() {
    let app = authors_app().await;
    let paper = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    accept(&app, &paper).await;
    let v = version(&app, &paper).await.to_string();
    let path = format!("{}/programme", paper.link);
    let too_long = vec!["tide"; 301].join(" ");
    let just_right = vec!["tide"; 300].join(" ");
    for (form, says) in [
        (
            body(&[("version", &v), ("abstract", &too_long), ("presenter", "Ana Cruz")]),
            "The public abstract has 301 words; it may have at most 300 (the submission guidelines' limit). Shorten it and save again. Nothing was saved.",
        ),
        (
            body(&[("version", &v), ("abstract", "Tides\u{0}and lanterns"), ("presenter", "Ana Cruz")]),
            "The public abstract contains a control character (such as NUL), which cannot be shown. Remove it and save again. Nothing was saved.",
        ),
        (
            body(&[("version", &v), ("abstract", "Tides"), ("presenter", "Mallory Intruder")]),
            "Choose who presents the talk among the paper's authors (Ana Cruz, Ben Reyes, Carla Santos). Nothing was saved.",
        ),
        (
            body(&[("version", &v), ("abstract", "Tides"), ("presenter", "Ana\u{1b}Cruz")]),
            "Choose who presents the talk among the paper's authors (Ana Cruz, Ben Reyes, Carla Santos). Nothing was saved.",
        ),
        (
            body(&[("version", &v), ("abstract", "Tides")]),
            "Choose who presents the talk among the paper's authors (Ana Cruz, Ben Reyes, Carla Santos). Nothing was saved.",
        ),
        (
            body(&[("abstract", "Tides"), ("presenter", "Ana Cruz")]),
            "The form did not say which version of the page it came from, so nothing was saved. Please use the form on this page.",
        ),
        (
            body(&[("version", "seven"), ("abstract", "Tides"), ("presenter", "Ana Cruz")]),
            "The form did not say which version of the page it came from, so nothing was saved. Please use the form on this page.",
        ),
        (
            body(&[("version", &v), ("abstract", "Tides"), ("presenter", "Ana Cruz"), ("presenter", "Ben Reyes")]),
            "The form sent a field more than once, so nothing was saved. Please use the form on this page.",
        ),
    ] {
        let reply = post(&app, &path, &form).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{form}");
        assert_eq!(reply.header("cache-control"), Some("private, no-store"), "{form}");
        assert_eq!(reply.header("referrer-policy"), Some("no-referrer"), "{form}");
        let page = parse(&reply.text());
        assert_eq!(notice(&page), says, "{form}");
        assert!(first(&page, "footer").is_some(), "a whole page");
    }
    // What was typed is shown again with the message.
    let reply =
        post(&app, &path, &body(&[("version", &v), ("abstract", &too_long), ("presenter", "Carla Santos")])).await;
    let page = parse(&reply.text());
    assert_eq!(content(first(&page, "textarea[name=abstract]").unwrap()), too_long);
    let checked: Vec<&str> =
        select(&page, "input[name=presenter][checked]").into_iter().filter_map(|i| i.attr("value")).collect();
    assert_eq!(checked, ["Carla Santos"]);

    assert_eq!(stored(&app, &paper).await, (String::new(), String::new()), "nothing stored");
    assert_eq!(version(&app, &paper).await.to_string(), v);
    assert!(audit_actions(&app, "programme.paper_edited").await.is_empty());

    // Exactly 300 words pass.
    let saved =
        post(&app, &path, &body(&[("version", &v), ("abstract", &just_right), ("presenter", "Ana Cruz")])).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text());
    assert_eq!(stored(&app, &paper).await.0, just_right);
}

#[tokio::test]
async fn the_public_details_form_refuses_strangers_forged_origins_and_stale_pages() {
    let app = authors_app().await;
    let paper = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let waiting = submit_paper(&app, "ben@example.org", "Harbour bells").await;
    accept(&app, &paper).await;
    let v = version(&app, &paper).await.to_string();
    let form = body(&[("version", &v), ("abstract", "Tides"), ("presenter", "Ana Cruz")]);
    let path = format!("{}/programme", paper.link);

    // No token, a malformed one or one we never sent: 404 and nothing about any paper.
    let forged = format!("/submission/status/{}/programme", "A".repeat(43));
    for target in [forged.as_str(), "/submission/status/short/programme", "/submission/status//programme"] {
        let reply = post(&app, target, &form).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{target}");
        assert!(!reply.text().contains("Lantern tides"), "{target}");
    }
    // Another origin, or no proof of the same one: 403 before anything is read.
    for headers in [
        vec![("origin", "https://attacker.example")],
        vec![("origin", "null")],
        vec![("sec-fetch-site", "cross-site")],
        vec![],
    ] {
        let reply = app.post(&path, FORM, form.clone(), &headers).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{headers:?}");
    }
    assert_eq!(stored(&app, &paper).await, (String::new(), String::new()));

    // A paper that is not accepted has no public details.
    let wv = version(&app, &waiting).await.to_string();
    let reply = post(
        &app,
        &format!("{}/programme", waiting.link),
        &body(&[("version", &wv), ("abstract", "Bells"), ("presenter", "Ana Cruz")]),
    )
    .await;
    assert_eq!(reply.status, StatusCode::CONFLICT);
    assert_eq!(
        notice(&parse(&reply.text())),
        "Only an accepted paper has a public abstract and presenter, so nothing was saved."
    );
    assert_eq!(stored(&app, &waiting).await, (String::new(), String::new()));

    // A page drawn before another change (the organisers, or another window) stores nothing.
    let saved = post(&app, &path, &form).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER);
    let stale = post(&app, &path, &body(&[("version", &v), ("abstract", "Older"), ("presenter", "Ben Reyes")])).await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert_eq!(stale.header("cache-control"), Some("private, no-store"));
    let page = parse(&stale.text());
    assert!(notice(&page).starts_with("These details were changed since this page was opened"), "{}", notice(&page));
    assert_eq!(content(first(&page, "textarea[name=abstract]").unwrap()), "Tides", "the details as they are now");
    let now = version(&app, &paper).await.to_string();
    assert_eq!(first(&page, "input[name=version]").unwrap().attr("value"), Some(now.as_str()));
    assert_eq!(stored(&app, &paper).await, ("Tides".to_owned(), "Ana Cruz".to_owned()));
    assert_eq!(audit_actions(&app, "programme.paper_edited").await.len(), 1);
}

#[tokio::test]
async fn a_moved_talk_mails_its_paper_the_new_time_with_a_calendar_entry_once() {
    let app = authors_app().await;
    let stays = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let moves = submit_paper(&app, "ben@example.org", "Harbour bells").await;
    for paper in [&stays, &moves] {
        accept(&app, paper).await;
        place(&app, paper, "session-a", 20).await;
    }
    publish_as(&app, 1, "First programme").await.unwrap();
    assert!(moved_mails(&app).await.is_empty(), "the first version moves nothing");

    // The second talk goes to session B, at its start; the first stays where it was.
    place(&app, &moves, "session-b", 20).await;
    publish_as(&app, 2, "Harbour bells moved").await.unwrap();
    let mails = moved_mails(&app).await;
    assert_eq!(mails.len(), 1, "only the moved talk's paper: {mails:?}");
    let (key, to, subject, text_body, name, data) = &mails[0];
    assert_eq!(key, &format!("talk-moved:{}:2", moves.id));
    assert_eq!(to, &moves.email);
    assert_eq!(subject, "[FIXCON 2025] New time for your talk “Harbour bells”");
    for line in [
        "Dear Ana Cruz, Ben Reyes, Carla Santos,",
        "Day: Saturday, 22 March 2025",
        "Time: 09:00–09:20 Singapore time (UTC+08:00)",
        "Session: Fixture session B",
        "Room: Tide Room B",
        "Mode: Hybrid",
        &format!("Talk page: {BASE}/schedule/talks/harbour-bells"),
        &moves.reference,
    ] {
        assert!(text_body.contains(line), "{line:?} in {text_body}");
    }
    assert!(!text_body.contains("/submission/status/"), "no status link: the mail has no token");
    assert_eq!(name.as_deref(), Some("talk-harbour-bells.ics"));

    // The calendar entry: the same UID as the talk's calendar, a higher SEQUENCE, UTC times.
    let calendar = String::from_utf8(data.clone().expect("the .ics is in the outbox row")).unwrap();
    let parsed = events(&calendar);
    assert_eq!(parsed.len(), 1);
    let event = &parsed[0];
    let host = BASE.split("://").nth(1).unwrap();
    assert_eq!(property(event, "UID"), Some(format!("talk-harbour-bells@{host}").as_str()));
    let sequence: u32 = property(event, "SEQUENCE").unwrap().parse().unwrap();
    assert!(sequence >= 1, "raised by the move: {sequence}");
    assert_eq!(i64::from(sequence), talk_of(&app, &moves).await.sequence);
    assert_eq!(property(event, "DTSTART"), Some("20250322T010000Z"));
    assert_eq!(property(event, "DTEND"), Some("20250322T012000Z"));
    assert_eq!(property(event, "SUMMARY"), Some("Harbour bells"));
    assert_eq!(property(event, "URL"), Some(format!("{BASE}/schedule/talks/harbour-bells").as_str()));
    assert!(property(event, "LOCATION").unwrap().starts_with("Tide Room B\\, Quillmouth Institute of Tides"));
    assert!(property(event, "DTSTAMP").is_some_and(|s| s.ends_with('Z')));
    let description = property(event, "DESCRIPTION").unwrap();
    assert!(description.starts_with("Ana Cruz\\, Ben Reyes\\, Carla Santos\\nUniversity of Manila\\nPresented by Ana Cruz\\nOral in Fixture session B (Hybrid)"), "{description}");
    assert!(calendar.contains("METHOD:PUBLISH"));
    for line in calendar.split("\r\n") {
        assert!(line.len() <= 75, "folded at 75 octets: {line:?}");
    }

    // The worker sends it with the calendar attached, from the row (no file under DATA_DIR).
    let stub = lettre::transport::stub::AsyncStubTransport::new_ok();
    let worker = conference::mail::Worker::new(
        app.pool.clone(),
        conference::mail::MailTransport::Stub(stub.clone()),
        &app.config,
    );
    worker.run_once().await.unwrap();
    let messages = stub.messages().await;
    let sent = messages
        .iter()
        .map(|(_, raw)| mail_parser::MessageParser::default().parse(raw.as_bytes()).unwrap())
        .find(|m| m.subject().is_some_and(|s| s.contains("New time for your talk")))
        .expect("the moved-talk mail was sent");
    assert_eq!(sent.subject(), Some("[FIXCON 2025] New time for your talk “Harbour bells”"));
    let attachment = sent.attachments().next().expect("an attachment");
    assert_eq!(attachment.attachment_name(), Some("talk-harbour-bells.ics"));
    assert_eq!(attachment.content_type().map(|t| (t.ctype(), t.subtype())), Some(("text", Some("calendar"))));
    assert_eq!(attachment.contents(), calendar.as_bytes());
    let html = sent.body_html(0).unwrap();
    assert!(html.contains(&format!("href=\"{BASE}/schedule/talks/harbour-bells\"")), "{html}");
    assert!(html.contains("09:00–09:20 Singapore time (UTC+08:00)"), "{html}");

    // Publishing again without a move mails nobody; publishing a taken number does nothing.
    publish_as(&app, 3, "Unchanged").await.unwrap();
    assert!(matches!(publish_as(&app, 3, "Again").await, Err(PublishError::Taken(3))));
    assert_eq!(moved_mails(&app).await.len(), 1);
}

/// PostgreSQL only (issue 31 item 8): two instances on one database publish the same next
/// version at once after a talk moved; one version is made and the moved paper is mailed
/// once, and the two instances' mail workers, running at once with different `DATA_DIR`s,
/// send it once, with its calendar.
///
/// Ignored rather than passing on SQLite (see tests/mail.rs): there one writer at a time
/// makes the race impossible, and run anyway it fails.
#[tokio::test]
#[ignore = "PostgreSQL only: run with TEST_DATABASE_URL and --include-ignored"]
async fn two_instances_publishing_at_once_mail_a_moved_talk_exactly_once() {
    let app = authors_app().await;
    assert_eq!(
        app.engine(),
        conference::db::Engine::Postgres,
        "two instances racing on one database: this test runs with TEST_DATABASE_URL set"
    );
    let elsewhere = tempfile::tempdir().unwrap();
    let other = app.another_instance_with(|c| c.data_dir = elsewhere.path().to_path_buf()).await;
    let stays = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let moves = submit_paper(&other, "ben@example.org", "Harbour bells").await;
    for paper in [&stays, &moves] {
        accept(&app, paper).await;
        place(&app, paper, "session-a", 20).await;
    }
    publish_as(&app, 1, "First programme").await.unwrap();
    place(&other, &moves, "session-b", 30).await;

    // Both instances publish version 2 at once.
    let (one, two) = (moved_mail(&app).await, moved_mail(&other).await);
    let at = app.state.clock.now();
    let (mail_one, mail_two) = (|v: &_, t: &_, p: &_| one.mail(v, t, p), |v: &_, t: &_, p: &_| two.mail(v, t, p));
    let (a, b) = tokio::join!(
        publish(&app.pool, 2, "From the first", CHAIR, None, at, &mail_one),
        publish(&other.pool, 2, "From the second", CHAIR, None, at, &mail_two),
    );
    let published = [a.is_ok(), b.is_ok()];
    assert_eq!(published.iter().filter(|ok| **ok).count(), 1, "one version 2: {a:?} / {b:?}");
    let refused = if a.is_ok() { b } else { a };
    assert!(matches!(refused, Err(PublishError::Taken(2))), "{refused:?}");
    assert_eq!(app.count("programme_versions").await, 2);
    let mails = moved_mails(&app).await;
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0].0, format!("talk-moved:{}:2", moves.id));
    let published_entries = audit_actions(&app, "programme.published").await;
    assert_eq!(published_entries.len(), 2, "versions 1 and 2, once each");

    // The two instances' workers, at once, twice over: the mail goes once.
    let stubs =
        [lettre::transport::stub::AsyncStubTransport::new_ok(), lettre::transport::stub::AsyncStubTransport::new_ok()];
    let mut runs = tokio::task::JoinSet::new();
    for (instance, stub) in [(&app, &stubs[0]), (&other, &stubs[1]), (&app, &stubs[0]), (&other, &stubs[1])] {
        let worker = conference::mail::Worker::new(
            instance.pool.clone(),
            conference::mail::MailTransport::Stub(stub.clone()),
            &instance.config,
        );
        runs.spawn(async move { worker.run_once().await.expect("worker runs") });
    }
    while let Some(summary) = runs.join_next().await {
        let summary = summary.unwrap();
        assert_eq!(summary.failed, 0, "{summary:?}");
    }
    let mut moved_sent = 0;
    for stub in &stubs {
        for (_, raw) in stub.messages().await {
            let message = mail_parser::MessageParser::default().parse(raw.as_bytes()).unwrap();
            if message.subject().is_some_and(|s| s.contains("New time for your talk “Harbour bells”")) {
                moved_sent += 1;
                let attachment = message.attachments().next().expect("the calendar");
                assert_eq!(attachment.attachment_name(), Some("talk-harbour-bells.ics"));
                assert!(String::from_utf8_lossy(attachment.contents()).contains("SEQUENCE:1"));
            }
        }
    }
    assert_eq!(moved_sent, 1, "sent once across both instances");
    let (status, attempts): (String, i64) = sqlx::query_as("SELECT status, attempts FROM outbox WHERE dedupe_key = $1")
        .bind(&mails[0].0)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!((status.as_str(), attempts), ("sent", 1));
    drop(other);
}
