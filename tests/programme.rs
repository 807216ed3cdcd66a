//! The programme (issue 31 items 1, 4 and 5; DESIGN.md section 14): `/schedule` with its
//! days, times in the event's zone and filters, the session pages with their metadata and
//! `Event` JSON-LD, the sitemap's entries and `/schedule.ics`.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;

use crate::common::fixture::{self, PROGRAMME_DAYS, SESSIONS, TRACKS, ZONE_LABEL};
use crate::common::html::{ElementRef, Html, content, first, link_rel, meta, parse, select, text, texts, title};
use crate::common::ics::{events, property};
use crate::common::{BASE, TestApp, app};

fn main_of(page: &Html) -> ElementRef<'_> {
    first(page, "main").expect("the page has a <main>")
}

/// The session titles a page lists, in order.
fn listed(page: &Html) -> Vec<String> {
    texts(main_of(page), ".schedule-session__title")
}

fn titles(slugs: &[&str]) -> Vec<String> {
    slugs.iter().map(|slug| SESSIONS.iter().find(|s| s.slug == *slug).unwrap().title.to_owned()).collect()
}

/// The `dt` → `dd` facts of a session's entry.
fn facts(entry: ElementRef<'_>) -> Vec<(String, String)> {
    select(entry, "dl > div").into_iter().map(|row| (texts(row, "dt").join(""), texts(row, "dd").join(""))).collect()
}

fn json_ld(page: &Html) -> Value {
    let scripts = select(page, "script[type='application/ld+json']");
    assert_eq!(scripts.len(), 1, "one JSON-LD block");
    serde_json::from_str(&content(scripts[0])).expect("JSON-LD parses")
}

#[tokio::test]
async fn the_programme_shows_each_day_with_its_sessions_in_time_order_and_event_time() {
    let app = app().await;
    let page = parse(&app.page("/schedule").await);
    let main = main_of(&page);
    assert!(
        text(main).contains(&format!("Times are in {ZONE_LABEL}.")),
        "the zone is named in visible text: {}",
        text(main)
    );
    let days: Vec<ElementRef> = select(main, ".schedule-day").into_iter().collect();
    let headings: Vec<String> = days.iter().map(|d| texts(*d, "h3").join("")).collect();
    assert_eq!(headings, PROGRAMME_DAYS.map(|(_, label)| label.to_owned()), "days as headings, in order");
    for (day, (date, _)) in days.iter().zip(PROGRAMME_DAYS) {
        assert_eq!(first(*day, "h3 time").unwrap().attr("datetime"), Some(date));
    }
    assert_eq!(
        listed(&page),
        SESSIONS.map(|s| s.title.to_owned()),
        "sessions in time order (the seed lists them out of order)"
    );

    let entries = select(main, ".schedule-session");
    assert_eq!(entries.len(), SESSIONS.len());
    for (entry, session) in entries.into_iter().zip(SESSIONS) {
        let times: Vec<&str> = select(entry, "time").into_iter().filter_map(|t| t.attr("datetime")).collect();
        assert_eq!(times, [session.start, session.end], "{}: <time datetime> with the zone's offset", session.slug);
        let shown: Vec<String> = select(entry, "time").into_iter().map(text).collect();
        assert_eq!(shown, [&session.start[11..16], &session.end[11..16]], "{}: event time on the page", session.slug);
        let facts = facts(entry);
        let fact = |name: &str| facts.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        assert_eq!(fact("Room"), Some(session.room), "{}", session.slug);
        assert_eq!(fact("Mode"), Some(session.mode), "{}", session.slug);
        assert_eq!(fact("Track"), session.track, "{}", session.slug);
        assert_eq!(fact("Chair"), session.chair, "{}", session.slug);
        let link = first(entry, "a").unwrap().attr("href").unwrap();
        assert_eq!(link, format!("/schedule/sessions/{}", session.slug));
    }
    // Public data only: the page names no one's address or number but the site's footer.
    assert!(!text(main).contains('@'), "no e-mail address in the programme");
}

#[tokio::test]
async fn filters_by_day_track_and_mode_are_a_plain_get_form() {
    let app = app().await;
    let page = parse(&app.page("/schedule").await);
    let form = first(main_of(&page), "form.schedule-filters").expect("the filter form");
    assert_eq!(form.attr("method"), Some("get"));
    assert_eq!(form.attr("action"), Some("/schedule"));
    let names: Vec<&str> = select(form, "select").into_iter().filter_map(|s| s.attr("name")).collect();
    assert_eq!(names, ["day", "track", "mode"]);
    let days: Vec<&str> = select(form, "select[name=day] option").into_iter().filter_map(|o| o.attr("value")).collect();
    assert_eq!(days, ["", PROGRAMME_DAYS[0].0, PROGRAMME_DAYS[1].0, PROGRAMME_DAYS[2].0]);
    let tracks: Vec<String> = select(form, "select[name=track] option").into_iter().map(text).collect();
    assert_eq!(tracks, ["All tracks", TRACKS[0].1, TRACKS[1].1]);
    for select_element in select(form, "select") {
        let id = select_element.attr("id").unwrap();
        assert!(first(form, &format!("label[for={id}]")).is_some(), "{id} has a label");
    }

    for (query, expected) in [
        ("day=2025-03-22", vec!["session-a", "session-b"]),
        ("track=lantern-studies", vec!["session-b", "lantern-posters"]),
        ("mode=online", vec!["lantern-posters"]),
        ("mode=in_person", vec!["tidal-keynote"]),
        ("day=2025-03-23&mode=hybrid", vec!["fixture-closing"]),
        ("day=&track=&mode=", SESSIONS.iter().map(|s| s.slug).collect()),
        ("utm_source=newsletter", SESSIONS.iter().map(|s| s.slug).collect()),
    ] {
        let page = parse(&app.page(&format!("/schedule?{query}")).await);
        assert_eq!(listed(&page), titles(&expected), "?{query}");
        let canonical = link_rel(&page, "canonical").unwrap();
        assert_eq!(canonical, format!("{BASE}/schedule"), "?{query}: one canonical programme");
    }
    let page = parse(&app.page("/schedule?track=tidal-computing&day=2025-03-21").await);
    let selected: Vec<&str> = select(&page, "option[selected]").into_iter().filter_map(|o| o.attr("value")).collect();
    assert_eq!(selected, ["2025-03-21", "tidal-computing"], "the form shows the filter in force");
    assert!(title(&page).contains("Tidal Computing"), "{}", title(&page));

    let none = parse(&app.page("/schedule?day=2025-03-21&track=lantern-studies").await);
    assert!(listed(&none).is_empty());
    assert!(text(main_of(&none)).contains("No session matches these filters."));
}

#[tokio::test]
async fn an_unknown_filter_value_is_a_400_page_saying_what_is_allowed() {
    let app = app().await;
    for (query, says) in [
        ("day=2025-03-24", "Allowed days: 2025-03-21, 2025-03-22, 2025-03-23."),
        ("day=Friday", "Allowed days: 2025-03-21, 2025-03-22, 2025-03-23."),
        ("track=knitting", "Allowed tracks: tidal-computing, lantern-studies."),
        ("mode=remote", "Allowed modes: in_person, online, hybrid."),
        ("mode=online&mode=hybrid", "The filter mode is given twice"),
    ] {
        let (status, headers, body) = app.get(&format!("/schedule?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "?{query}");
        assert!(headers.get("content-type").unwrap().to_str().unwrap().starts_with("text/html"));
        let page = parse(&body);
        let heading = texts(&page, "h1").join(" ");
        assert!(heading.contains(says), "?{query}: {heading}");
        assert!(first(&page, "footer").is_some(), "a whole page, with the site's footer");
    }
}

#[tokio::test]
async fn filtered_views_are_kept_in_memory_under_one_entry_per_filter() {
    let app = app().await;
    let first_spelling = app.page("/schedule?mode=online&day=2025-03-23").await;
    let generation = app.state.content.generation().unwrap();
    let kept = app.state.pages.get("/schedule?day=2025-03-23&mode=online", generation, app.state.clock.now());
    assert!(kept.is_some(), "kept under its filter in a fixed order");
    app.exec("ALTER TABLE sessions RENAME TO sessions_gone").await;
    let second_spelling = app.page("/schedule?day=2025-03-23&mode=online&utm_source=x").await;
    assert_eq!(first_spelling, second_spelling, "the same entry, and no SQL");
    assert_eq!(listed(&parse(&app.page("/schedule?mode=in_person").await)), titles(&["tidal-keynote"]));
}

#[tokio::test]
async fn each_session_has_a_page_with_its_metadata_and_event_json_ld() {
    let app = app().await;
    for session in SESSIONS {
        let path = format!("/schedule/sessions/{}", session.slug);
        let page = parse(&app.page(&path).await);
        assert_eq!(texts(&page, "h1"), [session.title], "{path}");
        let url = format!("{BASE}{path}");
        assert_eq!(link_rel(&page, "canonical").as_deref(), Some(url.as_str()), "{path}");
        assert_eq!(meta(&page, "og:url").as_deref(), Some(url.as_str()), "{path}");
        assert_eq!(title(&page), format!("{} | {}", session.title, fixture::SHORT_NAME));
        assert_eq!(meta(&page, "og:title"), Some(title(&page)));
        let description = meta(&page, "description").unwrap();
        assert!(description.contains(&session.start[11..16]) && description.contains(session.room), "{description}");
        assert_eq!(meta(&page, "og:description"), Some(description));
        let main = main_of(&page);
        assert!(text(main).contains(&format!("Times are in {ZONE_LABEL}.")), "{path}");
        let times: Vec<&str> = select(main, "time").into_iter().filter_map(|t| t.attr("datetime")).collect();
        assert_eq!(times, [session.start, session.end], "{path}");

        let event = json_ld(&page);
        assert_eq!(event["@context"], "https://schema.org");
        assert_eq!(event["@type"], "Event");
        assert_eq!(event["name"], session.title);
        assert_eq!(event["startDate"], session.start);
        assert_eq!(event["endDate"], session.end);
        assert_eq!(event["url"], url);
        assert_eq!(event["superEvent"]["@type"], "Event");
        assert_eq!(event["superEvent"]["name"], fixture::NAME);
        assert_eq!(event["superEvent"]["url"], format!("{BASE}/"));
        let locations = event["location"].as_array().expect("location is an array");
        let types: Vec<&str> = locations.iter().map(|l| l["@type"].as_str().unwrap()).collect();
        let (mode, expected_types) = match session.mode {
            "In person" => ("https://schema.org/OfflineEventAttendanceMode", vec!["Place"]),
            "Online" => ("https://schema.org/OnlineEventAttendanceMode", vec!["VirtualLocation"]),
            _ => ("https://schema.org/MixedEventAttendanceMode", vec!["Place", "VirtualLocation"]),
        };
        assert_eq!(event["eventAttendanceMode"], mode, "{path}");
        assert_eq!(types, expected_types, "{path}");
        if let Some(place) = locations.iter().find(|l| l["@type"] == "Place") {
            let name = place["name"].as_str().unwrap();
            assert!(name.contains(session.room) && name.contains(fixture::VENUE), "{name}");
            assert_eq!(place["address"]["addressLocality"], fixture::CITY);
        }
        if let Some(online) = locations.iter().find(|l| l["@type"] == "VirtualLocation") {
            assert!(online["url"].as_str().unwrap().starts_with(BASE), "{online}");
        }
    }
    let (status, _, body) = app.get("/schedule/sessions/no-such-session").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(texts(&parse(&body), "h1"), ["Session not found"]);
}

#[tokio::test]
async fn the_programme_lists_its_sessions_as_sub_events() {
    let app = app().await;
    let page = parse(&app.page("/schedule").await);
    let event = json_ld(&page);
    assert_eq!(event["@type"], "Event");
    assert_eq!(event["name"], fixture::NAME);
    let sub: &Vec<Value> = event["subEvent"].as_array().expect("subEvent");
    let names: Vec<&str> = sub.iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, SESSIONS.map(|s| s.title));
    for (event, session) in sub.iter().zip(SESSIONS) {
        assert_eq!(event["@type"], "Event");
        assert_eq!(event["startDate"], session.start);
        assert_eq!(event["url"], format!("{BASE}/schedule/sessions/{}", session.slug));
        assert!(event["eventAttendanceMode"].as_str().unwrap().starts_with("https://schema.org/"));
    }
}

#[tokio::test]
async fn the_sitemap_lists_every_session_page() {
    let app = app().await;
    let (status, _, sitemap) = app.get("/sitemap.xml").await;
    assert_eq!(status, StatusCode::OK);
    assert!(sitemap.contains(&format!("<loc>{BASE}/schedule</loc>")));
    for session in SESSIONS {
        assert!(sitemap.contains(&format!("<loc>{BASE}/schedule/sessions/{}</loc>", session.slug)), "{}", session.slug);
    }
    assert!(!sitemap.contains("schedule.ics") && !sitemap.contains("{slug}"), "{sitemap}");
}

#[tokio::test]
async fn the_programme_calendar_has_every_session_in_utc_with_stable_uids() {
    let app = app().await;
    let reply = app.request("/schedule.ics", &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header("content-type"), Some("text/calendar; charset=utf-8"));
    let calendar = reply.text();
    let parsed = events(&calendar);
    assert_eq!(parsed.len(), SESSIONS.len());
    let host = BASE.split("://").nth(1).unwrap();
    for (event, session) in parsed.iter().zip(SESSIONS) {
        assert_eq!(property(event, "UID"), Some(format!("session-{}@{host}", session.slug).as_str()));
        assert_eq!(property(event, "DTSTART"), Some(session.start_utc), "{}", session.slug);
        assert_eq!(property(event, "DTEND"), Some(session.end_utc), "{}", session.slug);
        assert_eq!(property(event, "SUMMARY"), Some(session.title));
        assert_eq!(property(event, "URL"), Some(format!("{BASE}/schedule/sessions/{}", session.slug).as_str()));
        assert!(property(event, "LOCATION").unwrap().contains(session.room), "{event:?}");
        assert!(property(event, "DTSTAMP").is_some_and(|s| s.ends_with('Z')));
    }
    for line in calendar.split("\r\n") {
        assert!(line.len() <= 75, "folded at 75 octets: {line:?}");
    }

    // Served from memory like a page, and answered ahead of the stack.
    let generation = app.state.content.generation().unwrap();
    assert!(app.state.pages.get("/schedule.ics", generation, app.state.clock.now()).is_some());
    let answer = app.router.dispatch(Request::get("/schedule.ics").body(Body::empty()).unwrap(), None);
    assert!(matches!(answer, conference::http::cache_hits::HitOrMiss::Hit(_)));

    // A session retitled and moved keeps its UID: a subscribed calendar updates its entry.
    let seed = fixture::SEED.replace("'Fixture session A'", "'Fixture session A, retitled'").replace(
        "'tide-room-a', '2025-03-22 09:00', '2025-03-22 12:00'",
        "'tide-room-a', '2025-03-22 13:00', '2025-03-22 15:00'",
    );
    conference::seed::apply::seed_with(&app.pool, seed).await.expect("seed applies");
    assert!(app.state.content.reload().await.unwrap());
    let after = events(&app.request("/schedule.ics", &[]).await.text());
    let moved =
        after.iter().find(|e| property(e, "SUMMARY") == Some("Fixture session A\\, retitled")).expect("retitled");
    assert_eq!(property(moved, "UID"), Some(format!("session-session-a@{host}").as_str()));
    assert_eq!(property(moved, "DTSTART"), Some("20250322T050000Z"));
    let uids = |events: &[Vec<String>]| {
        let mut uids: Vec<String> = events.iter().map(|e| property(e, "UID").unwrap().to_owned()).collect();
        uids.sort();
        uids
    };
    assert_eq!(uids(&after), uids(&parsed), "the same UIDs");
}

#[tokio::test]
async fn the_programme_page_offers_the_calendar_to_subscribe_and_download() {
    let app: TestApp = app().await;
    let page = parse(&app.page("/schedule").await);
    let host = BASE.split("://").nth(1).unwrap();
    let hrefs: Vec<&str> = select(main_of(&page), "a").into_iter().filter_map(|a| a.attr("href")).collect();
    assert!(hrefs.contains(&format!("webcal://{host}/schedule.ics").as_str()), "{hrefs:?}");
    assert!(hrefs.contains(&"/schedule.ics"), "{hrefs:?}");
}
