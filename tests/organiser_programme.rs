//! The organisers' programme (issue 31 items 2 and 3, DESIGN.md section 14): accepted papers
//! placed into the fixture's technical sessions, ordered, timed and removed; each conflict
//! shown where it arises and blocking publishing; versions published (the public programme
//! follows within 2 s; a moved talk's author mailed once; a stale page refused); bad forms;
//! the lock and a paper's public abstract and presenter; every action in the audit log; and
//! every route refused without a session or from another origin.

use std::time::{Duration, Instant};

use axum::http::StatusCode;

use crate::common::fixture;
use crate::common::html::{Html, first, parse, select, text, texts};
use crate::common::{Reply, TestApp, app_with};
use crate::decisions::{get, mails_to, post, preview_items, submit_paper};
use crate::organiser::{CHAIR, assert_refused_anonymous_and_foreign, sign_in};

const PAGE: &str = "/organiser/programme";
/// The fixture's two technical sessions: 2025-03-22, 09:00–12:00 each, in two rooms, so they
/// overlap.
const SESSION_A: &str = "session-a";
const SESSION_B: &str = "session-b";

/// An app whose organiser is [`CHAIR`], with room for the many POSTs of a programme (every
/// request of a test shares one client budget).
async fn programme_app() -> TestApp {
    app_with(|c| {
        c.organiser_email = Some(CHAIR.into());
        c.rate_limit_per_minute = 100_000;
    })
    .await
}

/// Stages `decision` on `references` and applies every pending decision, as an organiser does
/// on the list and the preview.
pub(crate) async fn decide_all(app: &TestApp, cookie: &str, references: &[String], decision: &str) {
    let list = get(app, cookie, "/organiser/submissions").await.text();
    let items: Vec<String> = select(&parse(&list), "input[name=item]")
        .into_iter()
        .filter_map(|input| input.value().attr("value").map(str::to_owned))
        .filter(|item| references.iter().any(|r| item.starts_with(&format!("{r}:"))))
        .collect();
    assert_eq!(items.len(), references.len(), "every paper is in the list: {items:?}");
    let selection: String = items.iter().map(|item| format!("&item={item}")).collect();
    let staged =
        post(app, cookie, "/organiser/submissions/decide/confirm", &format!("decision={decision}{selection}")).await;
    assert_eq!(staged.status, StatusCode::SEE_OTHER, "{}", staged.text());
    let preview = get(app, cookie, "/organiser/decisions").await.text();
    let applied = post(app, cookie, "/organiser/decisions/apply", &preview_items(&preview)).await;
    assert_eq!(applied.status, StatusCode::SEE_OTHER, "{}", applied.text());
}

/// Submits a paper titled `title` by `email` for each pair and accepts them all; their
/// references, in order.
pub(crate) async fn accepted_papers(app: &TestApp, cookie: &str, papers: &[(String, String)]) -> Vec<String> {
    let mut references = Vec::new();
    for (email, title) in papers {
        references.push(submit_paper(app, email, title).await);
    }
    decide_all(app, cookie, &references, "accepted").await;
    references
}

/// Ten papers by ten authors: "Tide paper 0" … "Tide paper 9".
fn ten_papers() -> Vec<(String, String)> {
    (0..10).map(|n| (format!("author{n}@example.org"), format!("Tide paper {n}"))).collect()
}

fn form(pairs: &[(&str, &str)]) -> String {
    url::form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish()
}

async fn place(app: &TestApp, cookie: &str, reference: &str, session: &str, minutes: &str) -> Reply {
    let body = form(&[("paper", reference), ("session", session), ("minutes", minutes)]);
    post(app, cookie, "/organiser/programme/place", &body).await
}

/// Places `reference` and follows the 303 back to the page; the page.
async fn placed(app: &TestApp, cookie: &str, reference: &str, session: &str, minutes: i64) -> Html {
    let reply = place(app, cookie, reference, session, &minutes.to_string()).await;
    back_to_page(app, cookie, reply, &format!("done=placed&paper={reference}")).await
}

/// Asserts `reply` is the 303 back to the page with `query`, and follows it.
async fn back_to_page(app: &TestApp, cookie: &str, reply: Reply, query: &str) -> Html {
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    let location = reply.header("location").unwrap().to_owned();
    assert_eq!(location, format!("{PAGE}?{query}"));
    let page = get(app, cookie, &location).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    parse(&page.text())
}

async fn programme(app: &TestApp, cookie: &str) -> Html {
    let reply = get(app, cookie, PAGE).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    parse(&reply.text())
}

/// A session's talks as the page lists them: (time, title).
fn talks(page: &Html, session: &str) -> Vec<(String, String)> {
    select(page, &format!("#session-{session} .programme-talk"))
        .into_iter()
        .map(|talk| (texts(talk, ".programme-talk__time").join(""), texts(talk, ".programme-talk__title").join("")))
        .collect()
}

fn left(page: &Html, session: &str) -> String {
    text(first(page, &format!("#left-{session}")).expect("the session's time left"))
}

fn conflicts(page: &Html) -> Vec<String> {
    texts(page, "#conflicts li")
}

/// The conflicts marked at the talk of `reference`.
fn marked(page: &Html, reference: &str) -> Vec<String> {
    texts(page, &format!("#talk-{reference} .programme-talk__conflicts li"))
}

fn publish_disabled(page: &Html) -> bool {
    first(page, "#publish button[type=submit]").expect("the publish button").value().attr("disabled").is_some()
}

fn expected_number(page: &Html) -> String {
    first(page, "#publish input[name=expected]").unwrap().value().attr("value").unwrap().to_owned()
}

async fn publish(app: &TestApp, cookie: &str, name: &str, expected: &str) -> Reply {
    post(app, cookie, "/organiser/programme/publish", &form(&[("name", name), ("expected", expected)])).await
}

/// The programme's audit entries, oldest first: (action, object id).
async fn programme_actions(app: &TestApp) -> Vec<(String, Option<String>)> {
    sqlx::query_as("SELECT action, object_id FROM audit_log WHERE action LIKE 'programme.%' ORDER BY id")
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

/// (submission reference, session, position, minutes) of every placement.
async fn placements(app: &TestApp) -> Vec<(String, String, i64, i64)> {
    sqlx::query_as(
        "SELECT s.reference, p.session, p.position, p.minutes FROM placements p
         JOIN submissions s ON s.id = p.submission_id ORDER BY p.session, p.position",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap()
}

/// The row id of submission `reference`.
async fn id_of(app: &TestApp, reference: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM submissions WHERE reference = $1")
        .bind(reference)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

fn titles(n: std::ops::Range<usize>) -> Vec<String> {
    n.map(|i| format!("Tide paper {i}")).collect()
}

#[tokio::test]
async fn ten_accepted_papers_are_placed_ordered_timed_and_removed() {
    let app = programme_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let refs = accepted_papers(&app, &cookie, &ten_papers()).await;

    // The dashboard and the area's header lead here.
    let dashboard = parse(&get(&app, &cookie, "/organiser").await.text());
    assert!(select(&dashboard, "a[href='/organiser/programme']").len() >= 2, "dashboard link and header link");
    let reply = get(&app, &cookie, PAGE).await;
    assert_eq!(reply.header("cache-control"), Some("private, no-store"));
    assert_eq!(reply.header("x-robots-tag"), Some("noindex"));
    let page = parse(&reply.text());
    let current = first(&page, "nav[aria-label='Organiser area'] a[aria-current=page]").unwrap();
    assert_eq!(text(current), "Programme");
    assert_eq!(
        texts(&page, "h2[id^=day-]"),
        ["Friday, 21 March 2025", "Saturday, 22 March 2025", "Sunday, 23 March 2025"]
    );
    assert_eq!(left(&page, SESSION_A), "180 min left");
    assert!(
        text(first(&page, "#session-session-a .programme-session__facts").unwrap())
            .contains("09:00–12:00 · Tide Room A")
    );
    // The keynote's speaker comes from the seed, read-only.
    let keynote = first(&page, "#session-tidal-keynote").unwrap();
    assert!(text(keynote).contains("Speaker: Prof. Caspian Threlkeld"), "{}", text(keynote));
    assert!(select(keynote, "form").is_empty(), "a keynote takes no papers");
    // Sessions of other kinds are not listed.
    assert!(first(&page, "#session-fixture-opening").is_none());
    // Each "Place a paper" offers the ten accepted papers, and 15 minutes.
    let options = select(&page, "#place-session-a-paper option");
    assert_eq!(options.len(), 11, "a placeholder and ten papers");
    assert_eq!(first(&page, "#place-session-a-minutes").unwrap().value().attr("value"), Some("15"));
    assert_eq!(conflicts(&page), Vec::<String>::new());
    assert!(text(first(&page, "#conflicts").unwrap()).contains("No conflicts"));

    // Five papers in each session, 15 minutes each.
    for (n, reference) in refs.iter().enumerate() {
        placed(&app, &cookie, reference, if n < 5 { SESSION_A } else { SESSION_B }, 15).await;
    }
    let page = programme(&app, &cookie).await;
    let times = ["09:00–09:15", "09:15–09:30", "09:30–09:45", "09:45–10:00", "10:00–10:15"];
    let expected = |titles: Vec<String>| times.iter().map(|t| t.to_string()).zip(titles).collect::<Vec<_>>();
    assert_eq!(talks(&page, SESSION_A), expected(titles(0..5)));
    assert_eq!(talks(&page, SESSION_B), expected(titles(5..10)));
    assert_eq!(left(&page, SESSION_A), "105 min left");
    assert_eq!(select(&page, "#place-session-a-paper option").len(), 0, "no paper is waiting");
    assert!(text(first(&page, "#session-session-a").unwrap()).contains("No accepted paper is waiting for a place."));
    // The first talk cannot go earlier, the last not later.
    let first_talk = first(&page, &format!("#talk-{}", refs[0])).unwrap();
    assert!(first(first_talk, "button[value=earlier]").unwrap().value().attr("disabled").is_some());
    assert!(first(first_talk, "button[value=later]").unwrap().value().attr("disabled").is_none());

    // Reorder: the third talk one earlier; then the notice says so.
    let moved =
        post(&app, &cookie, "/organiser/programme/move", &form(&[("paper", &refs[2]), ("direction", "earlier")])).await;
    let page = back_to_page(&app, &cookie, moved, &format!("done=moved&paper={}", refs[2])).await;
    assert_eq!(text(first(&page, "#notice").unwrap()), "“Tide paper 2” moved; the session below shows its new place.");
    let order: Vec<String> = talks(&page, SESSION_A).into_iter().map(|(_, title)| title).collect();
    assert_eq!(order, ["Tide paper 0", "Tide paper 2", "Tide paper 1", "Tide paper 3", "Tide paper 4"]);

    // A longer talk pushes the ones after it and uses more of the session.
    let page = placed(&app, &cookie, &refs[2], SESSION_A, 40).await;
    assert_eq!(text(first(&page, "#notice").unwrap()), "“Tide paper 2” is placed; the session below shows it.");
    let session_a = talks(&page, SESSION_A);
    assert_eq!(session_a[1], ("09:15–09:55".to_owned(), "Tide paper 2".to_owned()));
    assert_eq!(session_a[2], ("09:55–10:10".to_owned(), "Tide paper 1".to_owned()));
    assert_eq!(left(&page, SESSION_A), "80 min left");

    // Remove: the gap closes and the paper waits again.
    let removed = post(&app, &cookie, "/organiser/programme/remove", &form(&[("paper", &refs[0])])).await;
    let page = back_to_page(&app, &cookie, removed, &format!("done=removed&paper={}", refs[0])).await;
    assert_eq!(text(first(&page, "#notice").unwrap()), "“Tide paper 0” was taken out of the programme.");
    let order: Vec<String> = talks(&page, SESSION_A).into_iter().map(|(_, title)| title).collect();
    assert_eq!(order, ["Tide paper 2", "Tide paper 1", "Tide paper 3", "Tide paper 4"]);
    assert_eq!(talks(&page, SESSION_A)[0].0, "09:00–09:40");
    assert_eq!(left(&page, SESSION_A), "95 min left");
    let waiting: Vec<String> = texts(&page, "#place-session-b-paper option");
    assert_eq!(waiting.len(), 2);
    assert!(waiting[1].starts_with(&format!("{} · Tide paper 0 (Ana Cruz)", refs[0])), "{waiting:?}");
    let stored: Vec<(String, i64)> =
        placements(&app).await.into_iter().filter(|p| p.1 == SESSION_A).map(|p| (p.0, p.2)).collect();
    assert_eq!(stored, [(refs[2].clone(), 1), (refs[1].clone(), 2), (refs[3].clone(), 3), (refs[4].clone(), 4)]);

    // Each change is in the audit log, about its paper, in an organiser's words on the paper's page.
    let actions: Vec<(String, Option<String>)> = programme_actions(&app).await;
    assert_eq!(actions.iter().filter(|(a, _)| a == "programme.placed").count(), 11);
    assert_eq!(
        actions[10..],
        [
            ("programme.moved".to_owned(), Some(refs[2].clone())),
            ("programme.placed".to_owned(), Some(refs[2].clone())),
            ("programme.removed".to_owned(), Some(refs[0].clone())),
        ]
    );
    let history = parse(&get(&app, &cookie, &format!("/organiser/submissions/{}", refs[2])).await.text());
    let history = texts(&history, "div[aria-label=History] tbody tr td:nth-child(3)");
    assert!(
        history.ends_with(&[
            "Placed in the programme".to_owned(),
            "Moved in its session".to_owned(),
            "Placed in the programme".to_owned()
        ]),
        "{history:?}"
    );
}

#[tokio::test]
async fn each_conflict_shows_where_it_arises_and_blocks_publishing() {
    let app = programme_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let papers = vec![
        ("same@example.org".to_owned(), "Lantern tides".to_owned()),
        ("same@example.org".to_owned(), "Harbour bells".to_owned()),
        ("third@example.org".to_owned(), "Quill currents".to_owned()),
        ("fourth@example.org".to_owned(), "Moon pulls".to_owned()),
    ];
    let refs = accepted_papers(&app, &cookie, &papers).await;
    let refused_publish = |page: &Html| {
        assert!(publish_disabled(page), "the button is disabled while conflicts remain");
        assert!(first(page, "#publish-blocked").is_some());
    };
    async fn publish_is_refused(app: &TestApp, cookie: &str, expected_conflict: &str) {
        let reply = publish(app, cookie, "Draft", "1").await;
        assert_eq!(reply.status, StatusCode::CONFLICT, "{}", reply.text());
        let page = parse(&reply.text());
        assert!(
            text(first(&page, "[role=alert]").unwrap())
                .contains("conflict(s); resolve them before publishing. Nothing was published.")
        );
        assert!(conflicts(&page).iter().any(|c| c == expected_conflict), "{:?}", conflicts(&page));
        assert_eq!(
            first(&page, "#version-name").unwrap().value().attr("value"),
            Some("Draft"),
            "the name typed is kept"
        );
        assert_eq!(app.count("programme_versions").await, 0, "nothing stored");
    }

    // 1. One presenter (by e-mail) in two overlapping sessions.
    placed(&app, &cookie, &refs[0], SESSION_A, 20).await;
    let page = placed(&app, &cookie, &refs[1], SESSION_B, 20).await;
    let twice = "same@example.org presents “Lantern tides” in Fixture session A and “Harbour bells” in Fixture session B, which overlap.";
    assert_eq!(conflicts(&page), [twice]);
    assert_eq!(marked(&page, &refs[0]), [format!("Conflict: {twice}")]);
    assert_eq!(marked(&page, &refs[1]), [format!("Conflict: {twice}")]);
    refused_publish(&page);
    publish_is_refused(&app, &cookie, twice).await;
    let reply = post(&app, &cookie, "/organiser/programme/remove", &form(&[("paper", &refs[1])])).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);

    // 2. A talk past its session's end (180 minutes: 20 + 170).
    let page = placed(&app, &cookie, &refs[2], SESSION_A, 170).await;
    let overrun = "“Quill currents” runs 10 min past the end of Fixture session A.";
    assert_eq!(conflicts(&page), [overrun]);
    assert_eq!(marked(&page, &refs[2]), [format!("Conflict: {overrun}")]);
    assert_eq!(left(&page, SESSION_A), "10 min over");
    assert!(marked(&page, &refs[0]).is_empty(), "the talk before it is fine");
    refused_publish(&page);
    publish_is_refused(&app, &cookie, overrun).await;
    let page = placed(&app, &cookie, &refs[2], SESSION_A, 160).await;
    assert_eq!(left(&page, SESSION_A), "0 min left");
    assert_eq!(conflicts(&page), Vec::<String>::new());
    assert!(!publish_disabled(&page));

    // 3. A placed paper that is no longer accepted (rejected after all).
    placed(&app, &cookie, &refs[3], SESSION_B, 15).await;
    decide_all(&app, &cookie, &refs[3..4], "rejected").await;
    let page = programme(&app, &cookie).await;
    let rejected = "“Moon pulls” is rejected, no longer accepted.";
    assert_eq!(conflicts(&page), [rejected]);
    assert_eq!(marked(&page, &refs[3]), [format!("Conflict: {rejected}")]);
    refused_publish(&page);
    publish_is_refused(&app, &cookie, rejected).await;
    // It cannot be placed again, only taken out.
    let again = place(&app, &cookie, &refs[3], SESSION_B, "20").await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST);
    let reply = post(&app, &cookie, "/organiser/programme/remove", &form(&[("paper", &refs[3])])).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);

    // 4. A placement in a session the seed then drops.
    placed(&app, &cookie, &refs[1], SESSION_B, 15).await;
    let seed = fixture::SEED.lines().filter(|line| !line.starts_with("('session-b',")).collect::<Vec<_>>().join("\n");
    conference::seed::apply::seed_with(&app.pool, seed).await.expect("the seed without session B applies");
    let page = programme(&app, &cookie).await;
    assert!(first(&page, "#session-session-b").is_none(), "the session is gone");
    let dropped = "“Harbour bells” is placed in session session-b, which does not take papers or no longer exists.";
    assert_eq!(conflicts(&page), [dropped]);
    assert_eq!(marked(&page, &refs[1]), [format!("Conflict: {dropped}")]);
    refused_publish(&page);
    publish_is_refused(&app, &cookie, dropped).await;
    let removed = post(&app, &cookie, "/organiser/programme/remove", &form(&[("paper", &refs[1])])).await;
    let page = back_to_page(&app, &cookie, removed, &format!("done=removed&paper={}", refs[1])).await;
    assert_eq!(conflicts(&page), Vec::<String>::new());
    assert!(!publish_disabled(&page));
    assert_eq!(app.count("programme_versions").await, 0);
}

/// Polls `/schedule` until it shows every title, for at most 2 s after `since`.
async fn public_programme_shows(app: &TestApp, titles: &[String], since: Instant) -> bool {
    loop {
        let page = text(&parse(&app.page("/schedule").await));
        if titles.iter().all(|t| page.contains(t.as_str())) {
            return true;
        }
        if since.elapsed() > Duration::from_secs(2) {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn publishing_makes_versions_the_public_programme_shows_and_a_moved_talk_mails_once() {
    let app = programme_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let refs = accepted_papers(&app, &cookie, &ten_papers()).await;
    for (n, reference) in refs.iter().enumerate() {
        placed(&app, &cookie, reference, if n < 5 { SESSION_A } else { SESSION_B }, 15).await;
    }
    let before = text(&parse(&app.page("/schedule").await));
    assert!(!before.contains("Tide paper 0"), "visitors see no draft");

    // Version 1: the page offers number 1, says what it holds, and publishes.
    let page = programme(&app, &cookie).await;
    assert_eq!(expected_number(&page), "1");
    assert_eq!(text(first(&page, "#changes").unwrap()), "The first version: 11 talks in 6 sessions.");
    assert_eq!(text(first(&page, "label[for=version-name]").unwrap()), "Name of version 1");
    assert!(text(first(&page, "#publish").unwrap()).contains("Nothing is published yet"));
    let reply = publish(&app, &cookie, "  First programme ", "1").await;
    let published = Instant::now();
    let page = back_to_page(&app, &cookie, reply, "done=published&version=1").await;
    assert!(text(first(&page, "#notice").unwrap()).starts_with("Version 1 “First programme” is published."));
    assert_eq!(expected_number(&page), "2");
    assert!(text(first(&page, "#publish").unwrap()).contains("Published now: Version 1 “First programme”"));
    assert_eq!(text(first(&page, "#changes").unwrap()), "Nothing: the draft is the published version.");
    let versions = conference::repo::programme::versions(&app.pool).await.unwrap();
    assert_eq!(versions.iter().map(|v| (v.number, v.name.as_str())).collect::<Vec<_>>(), [(1, "First programme")]);
    assert!(public_programme_shows(&app, &titles(0..10), published).await, "/schedule shows the ten talks within 2 s");
    assert_eq!(mails_moved(&app).await, Vec::<(String, String)>::new(), "the first version moves nobody");

    // Move one talk: the last of session A to the end of session B.
    let moved_paper = &refs[4];
    let page = placed(&app, &cookie, moved_paper, SESSION_B, 15).await;
    assert_eq!(
        texts(&page, "#changes li"),
        [
            "Talk moved: “Tide paper 4”, from Fixture session A, Tide Room A, 2025-03-22 10:00–10:15 to Fixture session B, Tide Room B, 2025-03-22 10:15–10:30"
        ]
    );
    let reply = publish(&app, &cookie, "Second programme", "2").await;
    back_to_page(&app, &cookie, reply, "done=published&version=2").await;
    let versions = conference::repo::programme::versions(&app.pool).await.unwrap();
    assert_eq!(versions[0].number, 2);
    assert_eq!(versions[0].name, "Second programme");
    let moves: Vec<&str> = versions[0]
        .changes
        .iter()
        .filter_map(|c| match c {
            conference::programme::Change::TalkMoved { title, .. } => Some(title.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(moves, ["Tide paper 4"], "{:?}", versions[0].changes);
    let id = id_of(&app, moved_paper).await;
    assert_eq!(mails_moved(&app).await, [(format!("talk-moved:{id}:2"), "author4@example.org".to_owned())]);
    let mail = mails_to(&app, "author4@example.org").await.pop().unwrap();
    assert_eq!(mail.0, "[FIXCON 2025] New time for your talk “Tide paper 4”");
    assert!(
        ["Day: Saturday, 22 March 2025", "Time: 10:15–10:30", "Session: Fixture session B", "Room: Tide Room B"]
            .iter()
            .all(|line| mail.1.contains(line)),
        "{}",
        mail.1
    );

    // A page drawn before version 2 was published still offers 2: refused, nothing stored or
    // mailed.
    let stale = publish(&app, &cookie, "Stale", "2").await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    let page = parse(&stale.text());
    assert_eq!(
        text(first(&page, "[role=alert]").unwrap()),
        "Version 2 was just published by someone else; look at the programme again before publishing. Nothing was published."
    );
    assert_eq!(expected_number(&page), "3", "the page as it is now offers the next number");
    assert_eq!(app.count("programme_versions").await, 2);
    assert_eq!(mails_moved(&app).await.len(), 1);

    // Publishing is in the audit log with its number, and the dashboard names it.
    let published: Vec<Option<String>> = programme_actions(&app)
        .await
        .into_iter()
        .filter(|(a, _)| a == "programme.published")
        .map(|(_, id)| id)
        .collect();
    assert_eq!(published, [Some("1".to_owned()), Some("2".to_owned())]);
    let dashboard = parse(&get(&app, &cookie, "/organiser").await.text());
    let latest = texts(&dashboard, "div[aria-label='Latest actions'] tbody tr");
    assert!(
        latest[0].contains("Programme version published") && latest[0].contains("Programme version 2"),
        "{latest:?}"
    );
}

/// The moved-talk mails queued: (outbox key, to).
async fn mails_moved(app: &TestApp) -> Vec<(String, String)> {
    sqlx::query_as("SELECT dedupe_key, to_address FROM outbox WHERE dedupe_key LIKE 'talk-moved:%' ORDER BY id")
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn the_lock_and_a_papers_public_abstract_and_presenter() {
    let app = programme_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let refs = accepted_papers(&app, &cookie, &[("ana@example.org".to_owned(), "Lantern tides".to_owned())]).await;
    let reference = &refs[0];

    // Lock and unlock: the page says which, and the log has both.
    let page = programme(&app, &cookie).await;
    assert!(text(first(&page, "#lock-state").unwrap()).starts_with("Authors can add a public abstract"));
    let locked = post(&app, &cookie, "/organiser/programme/lock", "lock=yes").await;
    let page = back_to_page(&app, &cookie, locked, "done=locked").await;
    assert!(text(first(&page, "#lock-state").unwrap()).starts_with("Locked since "));
    assert_eq!(texts(&page, "#lock button"), ["Unlock authors' edits"]);
    assert!(
        conference::repo::programme::locked(&app.pool)
            .await
            .unwrap()
            .is_some_and(|(_, by)| by == "chair@fixcon.example")
    );

    // Organisers edit a paper's public fields even when locked.
    let path = format!("/organiser/programme/papers/{reference}");
    let paper = parse(&get(&app, &cookie, &path).await.text());
    let presenters = texts(&paper, "#presenter option");
    assert_eq!(presenters, ["Ana Cruz", "Ben Reyes", "Carla Santos"]);
    let three_hundred = vec!["tide"; 300].join(" ");
    let saved = post(&app, &cookie, &path, &form(&[("presenter", "Ben Reyes"), ("abstract", &three_hundred)])).await;
    let page = back_to_page(&app, &cookie, saved, &format!("done=paper&paper={reference}")).await;
    assert_eq!(
        text(first(&page, "#notice").unwrap()),
        "The public abstract and presenter of “Lantern tides” were saved."
    );
    let id = id_of(&app, reference).await;
    let stored = conference::repo::programme::public_fields(&app.pool, id).await.unwrap();
    assert_eq!(stored, (three_hundred.clone(), "Ben Reyes".to_owned()));
    let paper = parse(&get(&app, &cookie, &path).await.text());
    assert_eq!(first(&paper, "#presenter option[selected]").map(text), Some("Ben Reyes".to_owned()));
    assert!(text(first(&paper, "#abstract-rule").unwrap()).contains("now 300"));

    // 301 words: refused with the rule, the typed text kept, nothing stored.
    let too_long = format!("{three_hundred} more");
    let refused = post(&app, &cookie, &path, &form(&[("presenter", "Carla Santos"), ("abstract", &too_long)])).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let page = parse(&refused.text());
    assert!(
        text(first(&page, "[role=alert]").unwrap())
            .starts_with("The public abstract has 301 words; it may have at most 300")
    );
    assert_eq!(text(first(&page, "#public-abstract").unwrap()), too_long);
    assert_eq!(conference::repo::programme::public_fields(&app.pool, id).await.unwrap().1, "Ben Reyes");

    let unlocked = post(&app, &cookie, "/organiser/programme/lock", "lock=no").await;
    let page = back_to_page(&app, &cookie, unlocked, "done=unlocked").await;
    assert_eq!(texts(&page, "#lock button"), ["Lock authors' edits"]);
    assert!(conference::repo::programme::locked(&app.pool).await.unwrap().is_none());
    // Unlocking again changes and logs nothing.
    let again = post(&app, &cookie, "/organiser/programme/lock", "lock=no").await;
    assert_eq!(again.status, StatusCode::SEE_OTHER);
    let actions: Vec<String> = programme_actions(&app).await.into_iter().map(|(a, _)| a).collect();
    assert_eq!(actions, ["programme.locked", "programme.paper_edited", "programme.unlocked"]);
    let audit = parse(&get(&app, &cookie, "/organiser/audit").await.text());
    let listed = texts(&audit, "tbody tr").join("\n");
    for action in ["programme.locked", "programme.paper_edited", "programme.unlocked"] {
        assert!(listed.contains(action), "{action} in {listed}");
    }
    // The dashboard names them in an organiser's words.
    let dashboard = parse(&get(&app, &cookie, "/organiser").await.text());
    let latest = texts(&dashboard, "div[aria-label='Latest actions'] tbody tr td:nth-child(3)");
    assert_eq!(
        latest[..3],
        ["Authors' edits unlocked", "Public abstract and presenter edited", "Authors' edits locked"]
    );
}

#[tokio::test]
async fn bad_forms_are_400_with_a_message_and_change_nothing() {
    let app = programme_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let refs = accepted_papers(
        &app,
        &cookie,
        &[
            ("ana@example.org".to_owned(), "Lantern tides".to_owned()),
            ("ben@example.org".to_owned(), "Harbour bells".to_owned()),
        ],
    )
    .await;
    let submitted = submit_paper(&app, "cy@example.org", "Quill currents").await;
    placed(&app, &cookie, &refs[0], SESSION_A, 15).await;
    let (a, b) = (refs[0].as_str(), refs[1].as_str());
    let long_name = "n".repeat(81);
    let too_many_words = vec!["tide"; 301].join(" ");
    let cases: Vec<(&str, String)> = vec![
        ("/organiser/programme/place", form(&[("session", SESSION_A), ("minutes", "15")])),
        ("/organiser/programme/place", form(&[("paper", ""), ("session", SESSION_A), ("minutes", "15")])),
        ("/organiser/programme/place", form(&[("paper", "P-2025-NOPE00"), ("session", SESSION_A), ("minutes", "15")])),
        ("/organiser/programme/place", form(&[("paper", &submitted), ("session", SESSION_A), ("minutes", "15")])),
        ("/organiser/programme/place", form(&[("paper", b), ("session", "no-such-session"), ("minutes", "15")])),
        ("/organiser/programme/place", form(&[("paper", b), ("session", "tidal-keynote"), ("minutes", "15")])),
        ("/organiser/programme/place", form(&[("paper", b), ("session", "fixture-opening"), ("minutes", "15")])),
        ("/organiser/programme/place", form(&[("paper", b), ("session", SESSION_A), ("minutes", "0")])),
        ("/organiser/programme/place", form(&[("paper", b), ("session", SESSION_A), ("minutes", "601")])),
        ("/organiser/programme/place", form(&[("paper", b), ("session", SESSION_A), ("minutes", "1.5")])),
        ("/organiser/programme/place", form(&[("paper", b), ("session", SESSION_A), ("minutes", "ten")])),
        ("/organiser/programme/place", form(&[("paper", b), ("session", SESSION_A)])),
        ("/organiser/programme/place", form(&[("paper", b), ("paper", a), ("session", SESSION_A), ("minutes", "15")])),
        ("/organiser/programme/move", form(&[("paper", a), ("direction", "sideways")])),
        ("/organiser/programme/move", form(&[("paper", a), ("direction", "earlier")])),
        ("/organiser/programme/move", form(&[("paper", a), ("direction", "later")])),
        ("/organiser/programme/move", form(&[("paper", b), ("direction", "later")])),
        ("/organiser/programme/move", form(&[("paper", "P-2025-NOPE00"), ("direction", "later")])),
        ("/organiser/programme/remove", form(&[("paper", b)])),
        ("/organiser/programme/remove", form(&[("paper", "P-2025-NOPE00")])),
        ("/organiser/programme/remove", String::new()),
        ("/organiser/programme/lock", form(&[("lock", "maybe")])),
        ("/organiser/programme/lock", String::new()),
        ("/organiser/programme/publish", form(&[("name", "   "), ("expected", "1")])),
        ("/organiser/programme/publish", form(&[("name", &long_name), ("expected", "1")])),
        ("/organiser/programme/publish", form(&[("name", "Final"), ("expected", "one")])),
        ("/organiser/programme/publish", form(&[("name", "Final")])),
    ];
    let paper = format!("/organiser/programme/papers/{a}");
    let paper_cases: Vec<(&str, String)> = vec![
        (&paper, form(&[("presenter", "Ana Cruz"), ("abstract", &too_many_words)])),
        (&paper, form(&[("presenter", "Someone Else"), ("abstract", "Short.")])),
        (&paper, form(&[("abstract", "Short.")])),
        (&paper, form(&[("presenter", "Ana Cruz"), ("abstract", "Nul \u{0} inside.")])),
    ];
    let audit_before = app.count("audit_log").await;
    let placements_before = placements(&app).await;
    for (path, body) in cases.iter().chain(paper_cases.iter()) {
        let reply = post(&app, &cookie, path, body).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{path} {body}: {}", reply.text());
        let page = parse(&reply.text());
        assert_eq!(select(&page, "nav[aria-label='Organiser area']").len(), 1, "{path} {body}: an organiser page");
        let alert = text(first(&page, "[role=alert]").expect("the message"));
        assert!(!alert.is_empty(), "{path} {body}");
    }
    // A few of the messages, as the organiser reads them.
    let said = |reply: Reply| text(first(&parse(&reply.text()), "[role=alert]").unwrap());
    let message = said(place(&app, &cookie, &submitted, SESSION_A, "15").await);
    assert_eq!(message, format!("Submission {submitted} is submitted; only accepted papers can be placed."));
    let message = said(place(&app, &cookie, b, "tidal-keynote", "15").await);
    assert_eq!(
        message,
        "Keynote: Computing with tides is a keynote session; only technical and poster sessions take papers."
    );
    let message = said(place(&app, &cookie, b, SESSION_A, "601").await);
    assert_eq!(message, "\"601\" is not a talk length: give whole minutes from 1 to 600.");
    let message = said(place(&app, &cookie, "P-2025-NOPE00", SESSION_A, "15").await);
    assert_eq!(message, "No submission has the reference P-2025-NOPE00.");
    let message = said(place(&app, &cookie, b, "no-such-session", "15").await);
    assert_eq!(message, "The programme has no session no-such-session.");
    // A paper the programme cannot show has no public-fields page; an unknown one is 404.
    let not_accepted = format!("/organiser/programme/papers/{submitted}");
    assert_eq!(get(&app, &cookie, &not_accepted).await.status, StatusCode::BAD_REQUEST);
    let body = form(&[("presenter", "Ana Cruz"), ("abstract", "Short.")]);
    assert_eq!(post(&app, &cookie, &not_accepted, &body).await.status, StatusCode::BAD_REQUEST);
    let unknown = "/organiser/programme/papers/P-2025-NOPE00";
    assert_eq!(get(&app, &cookie, unknown).await.status, StatusCode::NOT_FOUND);
    assert_eq!(post(&app, &cookie, unknown, &body).await.status, StatusCode::NOT_FOUND);
    // The page's own address: unknown notices are 400 too.
    for query in ["?done=maybe", "?done=placed", "?paper=x", "?x=1", "?done=published&version=9"] {
        assert_eq!(get(&app, &cookie, &format!("{PAGE}{query}")).await.status, StatusCode::BAD_REQUEST, "{query}");
    }

    assert_eq!(placements(&app).await, placements_before, "no placement changed");
    assert_eq!(app.count("audit_log").await, audit_before, "nothing was logged");
    assert_eq!(app.count("programme_versions").await, 0);
    assert!(conference::repo::programme::locked(&app.pool).await.unwrap().is_none());
    let id = id_of(&app, a).await;
    assert_eq!(
        conference::repo::programme::public_fields(&app.pool, id).await.unwrap(),
        (String::new(), String::new())
    );
}

#[tokio::test]
async fn every_programme_route_is_refused_without_a_session_or_from_another_origin() {
    let app = programme_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let refs = accepted_papers(&app, &cookie, &[("ana@example.org".to_owned(), "Lantern tides".to_owned())]).await;
    let r = refs[0].as_str();
    let paper = format!("/organiser/programme/papers/{r}");
    let posts: Vec<(&str, String)> = vec![
        ("/organiser/programme/place", form(&[("paper", r), ("session", SESSION_A), ("minutes", "15")])),
        ("/organiser/programme/move", form(&[("paper", r), ("direction", "later")])),
        ("/organiser/programme/remove", form(&[("paper", r)])),
        ("/organiser/programme/lock", form(&[("lock", "yes")])),
        ("/organiser/programme/publish", form(&[("name", "Forged"), ("expected", "1")])),
        (&paper, form(&[("presenter", "Ana Cruz"), ("abstract", "Forged.")])),
    ];
    for (path, body) in &posts {
        assert_refused_anonymous_and_foreign(&app, path, body, &cookie).await;
        let bare = app.post(path, "application/x-www-form-urlencoded", body.clone(), &[("cookie", &cookie)]).await;
        assert_eq!(bare.status, StatusCode::FORBIDDEN, "{path}: no proof of the same origin");
    }
    let forged = format!("organiser_session={}", "A".repeat(43));
    for path in [PAGE, paper.as_str()] {
        for headers in [&[][..], &[("cookie", forged.as_str())][..]] {
            let reply = app.request(path, headers).await;
            assert_eq!(reply.status, StatusCode::SEE_OTHER, "{path} {headers:?}");
            assert_eq!(reply.header("location"), Some("/organiser"), "{path}");
            assert!(!reply.text().contains("Lantern tides"));
        }
    }
    assert_eq!(app.count("placements").await, 0);
    assert_eq!(app.count("programme_versions").await, 0);
    assert_eq!(programme_actions(&app).await, Vec::<(String, Option<String>)>::new());
    assert!(conference::repo::programme::locked(&app.pool).await.unwrap().is_none());
    // The sitemap and robots keep it out, like the rest of the area.
    assert!(!app.request("/sitemap.xml", &[]).await.text().contains("/organiser/programme"));
}

// ---------------------------------------------------------------------------------------
// Issue 42 item 4: the programme's roughness
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn publish_is_disabled_with_nothing_changed_and_the_changelog_shows_a_new_version_at_once() {
    let app = programme_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let refs = accepted_papers(&app, &cookie, &ten_papers()[..2]).await;
    placed(&app, &cookie, &refs[0], SESSION_A, 15).await;
    // The changelog is seen (and cached) before the first version.
    assert!(!text(&parse(&app.page("/schedule/changes").await)).contains("“First programme”"));

    let reply = publish(&app, &cookie, "First programme", "1").await;
    let page = back_to_page(&app, &cookie, reply, "done=published&version=1").await;
    // Right after publishing, with no poll of the content in between: version 1 is listed.
    let changes = text(&parse(&app.page("/schedule/changes").await));
    assert!(changes.contains("First programme"), "{changes}");
    // Nothing changed since: the button is disabled and the page says why.
    assert!(publish_disabled(&page), "nothing to publish");
    assert_eq!(
        text(first(&page, "#publish-unchanged").unwrap()),
        "Nothing changed since the published version, so there is nothing to publish."
    );
    // A change enables it again.
    let page = placed(&app, &cookie, &refs[1], SESSION_B, 15).await;
    assert!(!publish_disabled(&page));
    assert!(first(&page, "#publish-unchanged").is_none());
}

#[tokio::test]
async fn a_poster_placed_in_an_oral_session_is_warned_about_and_not_in_a_poster_session() {
    let app = programme_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let refs = accepted_papers(&app, &cookie, &ten_papers()[..2]).await;
    sqlx::query("UPDATE submissions SET presentation_type = 'Poster' WHERE reference = $1")
        .bind(&refs[0])
        .execute(&app.pool)
        .await
        .unwrap();
    let warning = "Its authors asked to present it as a poster, and this is an oral session. Check with them, or place it in a poster session.";
    let page = placed(&app, &cookie, &refs[0], SESSION_A, 15).await;
    let notice = text(first(&page, "#notice").unwrap());
    assert!(notice.ends_with(&format!("Warning: {warning}")), "{notice}");
    assert_eq!(text(first(&page, &format!("#warning-{}", refs[0])).unwrap()), format!("Warning: {warning}"));
    // An oral paper in the same session: no warning.
    let page = placed(&app, &cookie, &refs[1], SESSION_A, 15).await;
    assert!(!text(first(&page, "#notice").unwrap()).contains("Warning"));
    assert!(first(&page, &format!("#warning-{}", refs[1])).is_none());
    // The poster in the poster session: no warning either.
    let page = placed(&app, &cookie, &refs[0], "lantern-posters", 15).await;
    assert!(!text(first(&page, "#notice").unwrap()).contains("Warning"), "{}", text(first(&page, "#notice").unwrap()));
    assert!(first(&page, &format!("#warning-{}", refs[0])).is_none());
}
