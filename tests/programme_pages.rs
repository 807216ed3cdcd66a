//! The published programme as visitors read it (issue 31 items 3, 4 and 5; DESIGN.md section
//! 14): talks in their sessions on `/schedule` and the session pages, each talk's own page
//! with its metadata and `Event` JSON-LD, the changelog, the sitemap, and the calendars
//! (`/schedule.ics`, a talk's `.ics`, the starred talks' agenda) parsed back. Programmes come
//! from `common::programme`: the fixture's papers accepted, placed and published.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use serde_json::Value;
use time::macros::datetime;

use crate::common::fixture::{self, SESSIONS, ZONE_LABEL};
use crate::common::html::{ElementRef, Html, content, first, link_rel, meta, parse, select, text, texts, title};
use crate::common::ics::{events, property};
use crate::common::programme::{
    self, KEYNOTE_ROLE, KEYNOTE_SLUG, KEYNOTE_SPEAKER, KEYNOTE_TITLE, PAPERS, Paper, VERSION_ONE, id_of,
    publish_fixture_programme,
};
use crate::common::{BASE, TestApp, app};

fn main_of(page: &Html) -> ElementRef<'_> {
    first(page, "main").expect("the page has a <main>")
}

fn json_ld(page: &Html) -> Value {
    let scripts = select(page, "script[type='application/ld+json']");
    assert_eq!(scripts.len(), 1, "one JSON-LD block");
    serde_json::from_str(&content(scripts[0])).expect("JSON-LD parses")
}

fn host() -> &'static str {
    BASE.split("://").nth(1).unwrap()
}

/// The papers placed in `session`, in order.
fn papers_of(session: &str) -> Vec<Paper> {
    PAPERS.iter().filter(|p| p.session == session).copied().collect()
}

/// Asserts that a page shows no author's e-mail address or phone number anywhere (the
/// programme's public data only, DESIGN.md section 14) and no '@' in its main content (the
/// site's own contact address is in the footer).
fn assert_public_only(path: &str, body: &str) {
    for paper in PAPERS {
        assert!(!body.contains(paper.email), "{path} shows {}", paper.email);
        assert!(!body.contains(paper.phone), "{path} shows {}", paper.phone);
    }
    assert!(!text(main_of(&parse(body))).contains('@'), "{path}: an e-mail address in the main content");
}

/// Checks one `li.schedule-talk` against the islands' markup contract and `paper`'s values.
fn assert_talk_entry(entry: ElementRef<'_>, slug: &str, title: &str, by: &str, times: [&str; 2]) {
    assert_eq!(entry.attr("id"), Some(format!("talk-{slug}").as_str()));
    assert_eq!(entry.attr("data-talk"), Some(slug));
    let titles = select(entry, "[data-talk-title]");
    assert_eq!(titles.len(), 1, "{slug}: one title element");
    assert_eq!(text(titles[0]), title);
    let link = first(entry, "a").expect("the title links to the talk page");
    assert_eq!(link.attr("href"), Some(format!("/schedule/talks/{slug}").as_str()));
    assert_eq!(text(link), title);
    let star = select(entry, "span.schedule-talk__star[data-star-slot]");
    assert_eq!(star.len(), 1, "{slug}: the star slot");
    assert!(content(star[0]).is_empty() && star[0].children().next().is_none(), "{slug}: the star slot is empty");
    let time_elements = select(entry, "time");
    let datetimes: Vec<&str> = time_elements.iter().filter_map(|t| t.attr("datetime")).collect();
    assert_eq!(datetimes, times, "{slug}: start and end with the zone's offset");
    let shown: Vec<String> = time_elements.iter().map(|t| text(*t)).collect();
    assert_eq!(shown, [&times[0][11..16], &times[1][11..16]], "{slug}: event time as HH:MM");
    for t in &time_elements {
        assert_eq!(t.attr("data-zone-time"), Some("clock"), "{slug}: the zone island's mark");
    }
    assert!(text(entry).contains(by), "{slug}: {by} in {}", text(entry));
}

/// Every `<time>` of `scope` showing a time of day carries the zone island's mark, `clock`
/// for `HH:MM` and `date-clock` for `Friday, 21 March 2025, 09:00`; dates alone carry none.
fn assert_zone_marks(path: &str, scope: ElementRef<'_>) {
    for t in select(scope, "time") {
        let datetime = t.attr("datetime").unwrap_or_else(|| panic!("{path}: <time> without datetime"));
        let shown = text(t);
        match t.attr("data-zone-time") {
            Some("clock") => assert!(shown.len() == 5 && shown.as_bytes()[2] == b':', "{path}: clock {shown:?}"),
            Some("date-clock") => {
                let (day, clock) = shown.rsplit_once(", ").unwrap_or_else(|| panic!("{path}: {shown:?}"));
                assert!(day.contains(' ') && clock.len() == 5, "{path}: date-clock {shown:?}");
            }
            Some(other) => panic!("{path}: data-zone-time={other:?}"),
            None => assert!(!datetime.contains('T'), "{path}: {datetime} needs a mark"),
        }
    }
}

#[tokio::test]
async fn the_programme_lists_each_sessions_talks_in_order_with_times_authors_and_affiliation() {
    let app = app().await;
    let before = parse(&app.page("/schedule").await);
    assert!(select(&before, ".schedule-talk").is_empty(), "no talk before a version is published");

    publish_fixture_programme(&app).await;
    let body = app.page("/schedule").await;
    assert_public_only("/schedule", &body);
    let page = parse(&body);
    let main = main_of(&page);
    assert_zone_marks("/schedule", main);
    assert!(text(main).contains(&format!("Version 1: {VERSION_ONE}")), "the version in force is named");
    let changes = select(main, "a[href='/schedule/changes']");
    assert_eq!(changes.len(), 1, "/schedule links the changelog");

    let sessions = select(main, "li.schedule-session");
    assert_eq!(sessions.len(), SESSIONS.len());
    for (entry, session) in sessions.into_iter().zip(SESSIONS) {
        assert_eq!(entry.attr("data-starts"), Some(session.start), "{}", session.slug);
        assert_eq!(entry.attr("data-ends"), Some(session.end), "{}", session.slug);
        let talks = select(entry, "li.schedule-talk");
        match session.slug {
            "tidal-keynote" => {
                // A keynote shows its speaker as the talk.
                assert_eq!(talks.len(), 1);
                assert_talk_entry(
                    talks[0],
                    KEYNOTE_SLUG,
                    KEYNOTE_TITLE,
                    &format!("{KEYNOTE_SPEAKER} · {KEYNOTE_ROLE}"),
                    [session.start, session.end],
                );
            }
            "session-a" | "session-b" => {
                let papers = papers_of(session.slug);
                assert_eq!(talks.len(), papers.len(), "{}", session.slug);
                for (talk, paper) in talks.into_iter().zip(papers) {
                    let by = format!("{} · {}", paper.authors, paper.affiliation);
                    assert_talk_entry(talk, paper.slug, paper.title, &by, [paper.start, paper.end]);
                }
            }
            _ => assert!(talks.is_empty(), "{} has no talk", session.slug),
        }
    }
    // The sessions stay the programme's sub-events, each with its times, page, mode and place.
    let event = json_ld(&page);
    let sub = event["subEvent"].as_array().expect("subEvent");
    assert_eq!(sub.len(), SESSIONS.len());
    for (event, session) in sub.iter().zip(SESSIONS) {
        assert_eq!(event["@type"], "Event");
        assert_eq!(event["name"], session.title);
        assert_eq!((&event["startDate"], &event["endDate"]), (&session.start.into(), &session.end.into()));
        assert_eq!(event["url"], format!("{BASE}/schedule/sessions/{}", session.slug));
        assert!(event["eventAttendanceMode"].as_str().unwrap().starts_with("https://schema.org/"));
        assert!(!event["location"].as_array().unwrap().is_empty(), "{}: a location", session.slug);
    }
    // The old spelling is the same page.
    let alias = parse(&app.page("/Schedule").await);
    assert_eq!(texts(&alias, ".schedule-talk [data-talk-title]"), texts(&page, ".schedule-talk [data-talk-title]"));
}

#[tokio::test]
async fn filters_keep_the_talks_of_the_sessions_they_keep() {
    let app = app().await;
    publish_fixture_programme(&app).await;
    let page = parse(&app.page("/schedule?track=lantern-studies").await);
    let shown = texts(main_of(&page), ".schedule-talk [data-talk-title]");
    assert_eq!(shown, papers_of("session-b").iter().map(|p| p.title).collect::<Vec<_>>());
    let page = parse(&app.page("/schedule?day=2025-03-21").await);
    assert_eq!(texts(main_of(&page), ".schedule-talk [data-talk-title]"), [KEYNOTE_TITLE]);
    let page = parse(&app.page("/schedule?day=2025-03-22&mode=hybrid").await);
    assert_eq!(select(main_of(&page), ".schedule-talk").len(), PAPERS.len());
    let page = parse(&app.page("/schedule?mode=online").await);
    assert!(select(main_of(&page), ".schedule-talk").is_empty());
}

#[tokio::test]
async fn session_pages_list_their_talks() {
    let app = app().await;
    publish_fixture_programme(&app).await;
    for session in ["session-a", "session-b"] {
        let path = format!("/schedule/sessions/{session}");
        let body = app.page(&path).await;
        assert_public_only(&path, &body);
        let page = parse(&body);
        let main = main_of(&page);
        assert_zone_marks(&path, main);
        let talks = select(main, "li.schedule-talk");
        let papers = papers_of(session);
        assert_eq!(talks.len(), papers.len(), "{path}");
        for (talk, paper) in talks.into_iter().zip(papers) {
            let by = format!("{} · {}", paper.authors, paper.affiliation);
            assert_talk_entry(talk, paper.slug, paper.title, &by, [paper.start, paper.end]);
        }
        let start = first(main, ".session-page__time time").unwrap();
        assert_eq!(start.attr("data-zone-time"), Some("date-clock"));
        assert_eq!(text(start), "Saturday, 22 March 2025, 09:00");
    }
    let keynote = parse(&app.page("/schedule/sessions/tidal-keynote").await);
    assert_eq!(texts(main_of(&keynote), ".schedule-talk [data-talk-title]"), [KEYNOTE_TITLE]);
    assert!(text(main_of(&keynote)).contains(KEYNOTE_SPEAKER));
}

#[tokio::test]
async fn each_talk_has_a_page_with_its_facts_metadata_and_event_json_ld() {
    let app = app().await;
    programme::place_fixture_papers(&app).await;
    // The author of the first paper gave a public abstract and chose who presents.
    let first_paper = &PAPERS[0];
    let abstract_text = "Small harbours can run engines on the tide.";
    let id = id_of(&app, first_paper).await;
    let mut conn = app.pool.acquire().await.unwrap();
    conference::repo::programme::set_public_fields(&mut conn, id, abstract_text, "Ben Uy").await.unwrap();
    drop(conn);
    programme::publish(&app, 1, VERSION_ONE, programme::VERSION_ONE_AT).await;

    for paper in PAPERS {
        let path = format!("/schedule/talks/{}", paper.slug);
        let body = app.page(&path).await;
        assert_public_only(&path, &body);
        let page = parse(&body);
        let main = main_of(&page);
        let session = SESSIONS.iter().find(|s| s.slug == paper.session).unwrap();

        assert_eq!(texts(&page, "h1"), [paper.title], "{path}");
        let shown = text(main);
        for fact in [paper.authors, paper.affiliation, session.title, session.room, session.mode, "Oral presentation"] {
            assert!(shown.contains(fact), "{path} shows {fact:?}: {shown}");
        }
        assert!(shown.contains(session.track.unwrap()), "{path}: the track");
        assert!(shown.contains(&format!("Times are in {ZONE_LABEL}.")), "{path}");
        let presenter = if paper.slug == first_paper.slug { "Ben Uy" } else { paper.author };
        let facts: Vec<(String, String)> = select(main, "dl > div")
            .into_iter()
            .map(|row| (texts(row, "dt").join(""), texts(row, "dd").join("")))
            .collect();
        assert!(facts.contains(&("Presenter".into(), presenter.into())), "{path}: {facts:?}");
        assert!(facts.contains(&("Session".into(), session.title.into())), "{path}: {facts:?}");
        let session_link = first(main, "dd a").unwrap();
        assert_eq!(session_link.attr("href"), Some(format!("/schedule/sessions/{}", session.slug).as_str()));
        assert_eq!(shown.contains(abstract_text), paper.slug == first_paper.slug, "{path}: the abstract when given");

        assert_zone_marks(&path, main);
        let times = select(main, "time");
        let datetimes: Vec<&str> = times.iter().filter_map(|t| t.attr("datetime")).collect();
        assert_eq!(datetimes, [paper.start, paper.end], "{path}");
        assert_eq!(text(times[0]), format!("Saturday, 22 March 2025, {}", &paper.start[11..16]));

        let ics = first(main, "a[href$='.ics']").expect("a calendar link");
        assert_eq!(ics.attr("href"), Some(format!("{path}.ics").as_str()));
        assert_eq!(text(ics), "Add to your calendar (.ics)");

        let url = format!("{BASE}{path}");
        assert_eq!(link_rel(&page, "canonical").as_deref(), Some(url.as_str()), "{path}");
        assert_eq!(meta(&page, "og:url").as_deref(), Some(url.as_str()));
        assert_eq!(title(&page), format!("{} | {}", paper.title, fixture::SHORT_NAME));
        assert_eq!(meta(&page, "og:title"), Some(title(&page)));
        let description = meta(&page, "description").unwrap();
        assert!(description.contains(paper.authors) && description.contains(&paper.start[11..16]), "{description}");
        assert!(description.chars().count() <= 300, "{description}");
        assert_eq!(meta(&page, "og:description"), Some(description));

        let event = json_ld(&page);
        assert_eq!(event["@context"], "https://schema.org");
        assert_eq!(event["@type"], "Event");
        assert_eq!(event["name"], paper.title);
        assert_eq!(event["startDate"], paper.start);
        assert_eq!(event["endDate"], paper.end);
        assert_eq!(event["url"], url);
        assert_eq!(event["eventAttendanceMode"], "https://schema.org/MixedEventAttendanceMode");
        let types: Vec<&str> =
            event["location"].as_array().unwrap().iter().map(|l| l["@type"].as_str().unwrap()).collect();
        assert_eq!(types, ["Place", "VirtualLocation"], "{path}: hybrid");
        let place = &event["location"][0];
        assert!(place["name"].as_str().unwrap().contains(session.room), "{place}");
        assert_eq!(place["address"]["addressLocality"], fixture::CITY);
        assert_eq!(event["superEvent"]["@type"], "Event");
        assert_eq!(event["superEvent"]["name"], fixture::NAME);
        assert_eq!(event["superEvent"]["url"], format!("{BASE}/"));
        assert_eq!(event["performer"]["name"], presenter);
        for paper in PAPERS {
            assert!(!event.to_string().contains(paper.email), "{path}: JSON-LD names {}", paper.email);
        }
    }

    // The keynote: in person, so only the venue; its speaker and biography.
    let path = format!("/schedule/talks/{KEYNOTE_SLUG}");
    let page = parse(&app.page(&path).await);
    let shown = text(main_of(&page));
    assert!(shown.contains(KEYNOTE_SPEAKER) && shown.contains(KEYNOTE_ROLE) && shown.contains("Keynote"), "{shown}");
    assert!(shown.contains("Professor Caspian Threlkeld computes with tides."), "the speaker's biography");
    let event = json_ld(&page);
    assert_eq!(event["eventAttendanceMode"], "https://schema.org/OfflineEventAttendanceMode");
    let types: Vec<&str> = event["location"].as_array().unwrap().iter().map(|l| l["@type"].as_str().unwrap()).collect();
    assert_eq!(types, ["Place"]);
}

#[tokio::test]
async fn an_unknown_talk_is_a_404_page_reading_talk_not_found() {
    let app = app().await;
    let paths = [format!("/schedule/talks/{}", PAPERS[0].slug), "/schedule/talks/no-such-talk".to_owned()];
    for path in &paths {
        let (status, _, body) = app.get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path} before any version");
        assert_eq!(texts(&parse(&body), "h1"), ["Talk not found"], "{path}");
        let (status, _, _) = app.get(&format!("{path}.ics")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}.ics");
    }
    publish_fixture_programme(&app).await;
    app.page(&paths[0]).await;
    for path in ["/schedule/talks/no-such-talk", "/schedule/talks/no-such-talk.ics", "/schedule/talks/.ics"] {
        let (status, _, body) = app.get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(texts(&parse(&body), "h1"), ["Talk not found"], "{path}");
    }
    let generation = app.state.content.generation().unwrap();
    assert!(app.state.pages.get("/schedule/talks/no-such-talk", generation, app.state.clock.now()).is_none());
}

#[tokio::test]
async fn the_sitemap_lists_each_talk_page_and_the_changelog() {
    let app = app().await;
    let (_, _, sitemap) = app.get("/sitemap.xml").await;
    assert!(sitemap.contains(&format!("<loc>{BASE}/schedule/changes</loc>")), "{sitemap}");
    assert!(!sitemap.contains("/schedule/talks/"), "no talk before a version: {sitemap}");
    publish_fixture_programme(&app).await;
    let (_, _, sitemap) = app.get("/sitemap.xml").await;
    for slug in PAPERS.iter().map(|p| p.slug).chain([KEYNOTE_SLUG]) {
        assert!(sitemap.contains(&format!("<loc>{BASE}/schedule/talks/{slug}</loc>")), "{slug}: {sitemap}");
    }
    assert!(!sitemap.contains(".ics") && !sitemap.contains("{slug}"), "{sitemap}");
}

/// The changelog's versions as (heading, publication line, lines as a browser shows them).
fn versions(page: &Html) -> Vec<(String, String, Vec<String>)> {
    let shown = |e: ElementRef<'_>| content(e).split_whitespace().collect::<Vec<_>>().join(" ");
    select(main_of(page), ".changes-version")
        .into_iter()
        .map(|v| {
            (
                texts(v, "h2").join(""),
                texts(v, ".changes-version__date").join(""),
                select(v, "li").into_iter().map(shown).collect(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_changelog_lists_each_versions_changes_newest_first() {
    let app = app().await;
    let page = parse(&app.page("/schedule/changes").await);
    assert_eq!(texts(&page, "h1"), ["Programme changes"]);
    assert!(text(main_of(&page)).contains("The programme has not been published yet"), "{}", text(main_of(&page)));
    assert!(versions(&page).is_empty());

    publish_fixture_programme(&app).await;
    let page = parse(&app.page("/schedule/changes").await);
    let v1 = versions(&page);
    assert_eq!(v1.len(), 1);
    assert_eq!(v1[0].0, "Version 1: Version one");
    assert_eq!(v1[0].1, "Published 1 March 2025");
    assert!(v1[0].2.is_empty());
    assert!(text(main_of(&page)).contains("The first published programme."));

    // Version 2: one talk moves to the other session, one is taken out, a new one comes in.
    let moved = &PAPERS[1];
    let removed = &PAPERS[3];
    let moved_id = id_of(&app, moved).await;
    let mut conn = app.pool.acquire().await.unwrap();
    conference::repo::programme::unplace(&mut conn, id_of(&app, removed).await).await.unwrap();
    drop(conn);
    programme::place(&app, moved_id, "session-b", 15).await;
    let added = Paper {
        reference: "P-2025-FIX005",
        title: "Lantern Tides Revisited",
        slug: "lantern-tides-revisited",
        email: "hal.reed@tides.example",
        phone: "+15550109005",
        author: "Hal Reed",
        authors: "Hal Reed",
        ..PAPERS[0]
    };
    let added_id = programme::accepted(&app, &added).await;
    programme::place(&app, added_id, "session-a", 25).await;
    programme::publish(&app, 2, "Version two", datetime!(2025-03-05 02:00 UTC)).await;

    // Version 3: the seed moves the closing two hours later.
    let seed = fixture::SEED.replace(
        "'lantern-hall', '2025-03-23 14:00', '2025-03-23 15:00'",
        "'lantern-hall', '2025-03-23 16:00', '2025-03-23 17:00'",
    );
    assert_ne!(seed, fixture::SEED, "the fixture has the closing the test moves");
    conference::seed::apply::seed_with(&app.pool, seed).await.expect("seed applies");
    programme::publish(&app, 3, "Version three", datetime!(2025-03-07 02:00 UTC)).await;

    let body = app.page("/schedule/changes").await;
    assert_public_only("/schedule/changes", &body);
    let page = parse(&body);
    assert_zone_marks("/schedule/changes", main_of(&page));
    let all = versions(&page);
    let headings: Vec<&str> = all.iter().map(|v| v.0.as_str()).collect();
    assert_eq!(headings, ["Version 3: Version three", "Version 2: Version two", "Version 1: Version one"]);
    assert_eq!(all[0].1, "Published 7 March 2025");
    assert_eq!(
        all[0].2,
        [
            "Session retimed: Fixture closing, from Sunday, 23 March 2025, 14:00–15:00 · Lantern Hall → to Sunday, 23 March 2025, 16:00–17:00 · Lantern Hall"
        ]
    );
    assert_eq!(all[1].1, "Published 5 March 2025");
    assert_eq!(
        all[1].2,
        [
            "Added: Lantern Tides Revisited, to Fixture session A · Saturday, 22 March 2025, 09:20–09:45 · Tide Room A",
            "Moved: Counting Waves with Lanterns, from Fixture session A · Saturday, 22 March 2025, 09:20–09:35 · Tide Room A → to Fixture session B · Saturday, 22 March 2025, 09:30–09:45 · Tide Room B",
            "Removed: A Survey of Lantern Studies, was Fixture session B · Saturday, 22 March 2025, 09:30–09:50 · Tide Room B",
        ]
    );
    // Talks the programme still has link to their page; a removed one cannot.
    let v2 = select(main_of(&page), ".changes-version").into_iter().nth(1).unwrap();
    let hrefs: Vec<&str> = select(v2, "li a").into_iter().filter_map(|a| a.attr("href")).collect();
    assert_eq!(hrefs, ["/schedule/talks/lantern-tides-revisited", "/schedule/talks/counting-waves-with-lanterns"]);

    // The moved talk shows at its new place.
    let schedule = parse(&app.page("/schedule/sessions/session-b").await);
    let talks = select(main_of(&schedule), "li.schedule-talk");
    assert_talk_entry(
        talks[1],
        moved.slug,
        moved.title,
        moved.authors,
        ["2025-03-22T09:30:00+08:00", "2025-03-22T09:45:00+08:00"],
    );
}

#[tokio::test]
async fn a_published_version_shows_on_the_programme_within_two_seconds() {
    let app = app().await;
    // Cached before: the page must be rendered again for the new version.
    assert!(!app.page("/schedule").await.contains(PAPERS[0].title));
    programme::place_fixture_papers(&app).await;
    // As another instance would publish: this app learns of it only from its content watcher.
    programme::publish_unseen(&app, 1, VERSION_ONE, programme::VERSION_ONE_AT).await;
    let published = Instant::now();
    let mut shown = app.page("/schedule").await.contains(PAPERS[0].title);
    while !shown && published.elapsed() < Duration::from_secs(2) {
        tokio::time::sleep(Duration::from_millis(50)).await;
        shown = app.page("/schedule").await.contains(PAPERS[0].title);
    }
    assert!(shown, "the talk is on /schedule within 2 s of publishing");
    app.page(&format!("/schedule/talks/{}", PAPERS[0].slug)).await;
}

// ---------------------------------------------------------------------------------------
// Calendars
// ---------------------------------------------------------------------------------------

fn by_uid<'a>(events: &'a [Vec<String>], uid: &str) -> &'a [String] {
    events.iter().find(|e| property(e, "UID") == Some(uid)).unwrap_or_else(|| panic!("{uid} in {events:#?}"))
}

async fn calendar(app: &TestApp, path: &str) -> String {
    let reply = app.request(path, &[]).await;
    assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text());
    assert_eq!(reply.header("content-type"), Some("text/calendar; charset=utf-8"), "{path}");
    let text = reply.text();
    for line in text.split("\r\n") {
        assert!(line.len() <= 75, "{path}: folded at 75 octets: {line:?}");
    }
    text
}

fn assert_paper_event(event: &[String], paper: &Paper, sequence: &str, stamp: &str) {
    assert_eq!(property(event, "SUMMARY"), Some(paper.title), "{}", paper.slug);
    assert_eq!(property(event, "DTSTART"), Some(paper.start_utc), "{}", paper.slug);
    assert_eq!(property(event, "DTEND"), Some(paper.end_utc), "{}", paper.slug);
    assert_eq!(property(event, "SEQUENCE"), Some(sequence), "{}", paper.slug);
    assert_eq!(property(event, "DTSTAMP"), Some(stamp), "{}: the version's publication", paper.slug);
    assert_eq!(property(event, "URL"), Some(format!("{BASE}/schedule/talks/{}", paper.slug).as_str()));
    let description = property(event, "DESCRIPTION").unwrap();
    assert!(description.contains(&paper.authors.replace(',', "\\,")), "{description}");
    assert!(!description.contains(paper.email) && !description.contains(paper.phone), "{description}");
}

#[tokio::test]
async fn the_programme_calendar_has_every_session_and_every_talk() {
    let app = app().await;
    publish_fixture_programme(&app).await;
    let text = calendar(&app, "/schedule.ics").await;
    let all = events(&text);
    assert_eq!(all.len(), SESSIONS.len() + PAPERS.len() + 1, "sessions, papers and the keynote");
    let stamp = "20250301T093000Z";
    for session in SESSIONS {
        let event = by_uid(&all, &format!("session-{}@{}", session.slug, host()));
        assert_eq!(property(event, "DTSTART"), Some(session.start_utc));
        assert_eq!(property(event, "SEQUENCE"), Some("0"));
        assert_eq!(property(event, "DTSTAMP"), Some(stamp));
    }
    for paper in &PAPERS {
        let event = by_uid(&all, &format!("talk-{}@{}", paper.slug, host()));
        assert_paper_event(event, paper, "0", stamp);
    }
    let keynote = by_uid(&all, &format!("talk-{KEYNOTE_SLUG}@{}", host()));
    assert_eq!(property(keynote, "DTSTART"), Some(SESSIONS[1].start_utc));
    assert!(property(keynote, "DESCRIPTION").unwrap().contains(KEYNOTE_SPEAKER));
    // Each session is followed by its talks.
    let uids: Vec<&str> = all.iter().map(|e| property(e, "UID").unwrap()).collect();
    let a = uids.iter().position(|u| u.starts_with("session-session-a@")).unwrap();
    assert_eq!(uids[a + 1], format!("talk-{}@{}", PAPERS[0].slug, host()));
    assert_eq!(uids[a + 2], format!("talk-{}@{}", PAPERS[1].slug, host()));
    assert!(!text.contains('\u{0}'));
}

#[tokio::test]
async fn a_talk_calendar_keeps_its_uid_and_raises_its_sequence_when_the_talk_moves() {
    let app = crate::common::app_at(datetime!(2025-03-02 10:00 UTC)).await;
    publish_fixture_programme(&app).await;
    let moved = &PAPERS[1];
    let path = format!("/schedule/talks/{}.ics", moved.slug);
    let first_text = calendar(&app, &path).await;
    let first = events(&first_text);
    assert_eq!(first.len(), 1);
    assert_eq!(property(&first[0], "UID"), Some(format!("talk-{}@{}", moved.slug, host()).as_str()));
    assert_paper_event(&first[0], moved, "0", "20250301T093000Z");
    assert!(property(&first[0], "LOCATION").unwrap().contains("Tide Room A"));
    // Cached, and the same bytes a minute later: nothing in it reads the clock.
    let generation = app.state.content.generation().unwrap();
    assert!(
        app.state
            .pages
            .get(&format!("/schedule/talks/{}.ics", moved.slug), generation, app.state.clock.now())
            .is_some()
    );
    app.state.clock.set(datetime!(2025-03-02 10:07 UTC));
    assert_eq!(calendar(&app, &path).await, first_text);

    // Version 2 moves it to session B after the talk there: same UID, SEQUENCE 1.
    let mut conn = app.pool.acquire().await.unwrap();
    conference::repo::programme::unplace(&mut conn, id_of(&app, &PAPERS[3]).await).await.unwrap();
    drop(conn);
    programme::place(&app, id_of(&app, moved).await, "session-b", 15).await;
    programme::publish(&app, 2, "Version two", datetime!(2025-03-05 02:00 UTC)).await;
    let after = events(&calendar(&app, &path).await);
    assert_eq!(property(&after[0], "UID"), property(&first[0], "UID"), "the same entry");
    assert_eq!(property(&after[0], "SEQUENCE"), Some("1"), "raised by the move");
    assert_eq!(property(&after[0], "DTSTART"), Some("20250322T013000Z"));
    assert_eq!(property(&after[0], "DTSTAMP"), Some("20250305T020000Z"));
    assert!(property(&after[0], "LOCATION").unwrap().contains("Tide Room B"));
    // A talk that did not move keeps its SEQUENCE.
    let still = events(&calendar(&app, &format!("/schedule/talks/{}.ics", PAPERS[0].slug)).await);
    assert_eq!(property(&still[0], "SEQUENCE"), Some("0"));
    let whole = events(&calendar(&app, "/schedule.ics").await);
    let entry = by_uid(&whole, &format!("talk-{}@{}", moved.slug, host()));
    assert_eq!(property(entry, "SEQUENCE"), Some("1"));
}

#[tokio::test]
async fn the_agenda_calendar_has_the_talks_named_in_programme_order() {
    let app = app().await;
    publish_fixture_programme(&app).await;
    // Named out of order, with spaces: the programme's order.
    let query = format!("{}, {},{}", PAPERS[3].slug, KEYNOTE_SLUG, PAPERS[0].slug);
    let path = format!("/schedule/agenda.ics?talks={}", query.replace(' ', "%20"));
    let reply = app.request(&path, &[]).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("text/calendar; charset=utf-8"));
    let all = events(&reply.text());
    let uids: Vec<&str> = all.iter().map(|e| property(e, "UID").unwrap()).collect();
    let expected: Vec<String> =
        [KEYNOTE_SLUG, PAPERS[0].slug, PAPERS[3].slug].iter().map(|s| format!("talk-{s}@{}", host())).collect();
    assert_eq!(uids, expected);
    assert_paper_event(&all[1], &PAPERS[0], "0", "20250301T093000Z");
}

#[tokio::test]
async fn a_bad_agenda_is_a_400_naming_the_problem() {
    let app = app().await;
    publish_fixture_programme(&app).await;
    let a = PAPERS[0].slug;
    let many: Vec<String> = (0..301).map(|n| format!("t{n}")).collect();
    let many = many.join(",");
    for (query, says) in [
        ("", "No talks are named."),
        ("utm_source=x", "No talks are named."),
        ("talks=", "The list of talks is empty."),
        (&format!("talks={a},,{a}") as &str, "The list of talks has an empty entry"),
        (&format!("talks={a},"), "The list of talks has an empty entry"),
        (&format!("talks={a},no-such-talk"), "There is no talk \"no-such-talk\" in the programme."),
        (&format!("talks={a},{a}"), &format!("The talk \"{a}\" is named twice")),
        (&format!("talks={a}&talks={a}"), "The parameter talks is given twice"),
        (&format!("talks={many}"), "An agenda holds at most 300 talks; this one names 301."),
    ] {
        let path =
            if query.is_empty() { "/schedule/agenda.ics".to_owned() } else { format!("/schedule/agenda.ics?{query}") };
        let (status, _, body) = app.get(&path).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        let heading = texts(&parse(&body), "h1").join(" ");
        assert!(heading.contains(says), "{path}: {heading}");
    }
    // 300 names are read (and the first unknown one is named).
    let three_hundred: Vec<String> = (0..300).map(|n| format!("t{n}")).collect();
    let (status, _, body) = app.get(&format!("/schedule/agenda.ics?talks={}", three_hundred.join(","))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(texts(&parse(&body), "h1").join("").contains("There is no talk \"t0\""));
}

// ---------------------------------------------------------------------------------------
// Size
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn the_programme_of_250_talks_in_40_sessions_is_at_most_60_kb_gzip() {
    let app = app().await;
    let talks = crate::common::programme::publish_large_programme(&app, 40, 250).await;
    assert_eq!(talks, 250);
    let reply = app.request("/schedule", &[("accept-encoding", "gzip")]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header("content-encoding"), Some("gzip"));
    let identity = app.request("/schedule", &[]).await;
    let page = parse(&identity.text());
    assert_eq!(select(&page, "li.schedule-talk").len(), 250);
    assert_eq!(select(&page, "li.schedule-session").len(), 40);
    eprintln!(
        "/schedule with 250 talks in 40 sessions: {} bytes, {} bytes gzip",
        identity.body.len(),
        reply.body.len()
    );
    assert!(reply.body.len() <= 60 * 1024, "/schedule is {} bytes gzip", reply.body.len());
}
