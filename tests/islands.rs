//! The island mount points of issue 3 (DESIGN.md section 7): each island element with its
//! hydration trigger and the props the server gives it, checked against the content it
//! stands for and against the server fallback inside it (which is what visitors without
//! JavaScript get).

use std::collections::BTreeSet;

use axum::http::StatusCode;
use serde_json::Value;

use crate::common::fixture;
use crate::common::html::{ElementRef, Html, first, labelled, links, parse, select, text, texts};
use crate::common::{PAGES, app, app_at};
use conference::repo::content;
use time::macros::datetime;

/// The mount point of the island `name` in `page` (its `data-island` element, whose content is
/// the server's fallback) with its parsed props (`Null` when it has none).
fn island<'a>(page: &'a Html, name: &str) -> (ElementRef<'a>, Value) {
    let island = first(page, &format!("[data-island={name}]")).unwrap_or_else(|| panic!("a {name} island"));
    let props = island
        .attr("data-props")
        .map(|raw| serde_json::from_str(raw).unwrap_or_else(|e| panic!("{name} props are JSON ({e}): {raw}")))
        .unwrap_or(Value::Null);
    (island, props)
}

fn strings(value: &Value) -> Vec<String> {
    value.as_array().expect("an array").iter().map(|v| v.as_str().expect("a string").to_string()).collect()
}

#[tokio::test]
async fn every_page_has_the_notice_popup_with_the_site_details_and_no_visible_fallback() {
    let app = app().await;
    let mut paths: Vec<String> = app.page_paths().await.into_iter().map(|(p, _)| p).collect();
    paths.push("/no-such-page".into());
    for path in paths {
        let page = parse(&app.get(&path).await.2);
        let (mount, props) = island(&page, "NoticePopup");
        assert_eq!(mount.attr("data-hydrate"), Some("idle"), "{path}");
        assert!(mount.inner_html().trim().is_empty(), "the popup only appears after 1.5 s: no fallback on {path}");
        // The fixture seed's site row.
        assert_eq!(props["endorsement"], "Guild of Imaginary Harbours");
        assert_eq!(props["dates"], "21-23 March 2025");
        assert_eq!(props["venue"], "Quillmouth Institute of Tides, Port Quill, Lanternland");
        assert_eq!(props["paperDue"], fixture::PAPER_DUE);
        assert_eq!(props["website"], "https://fixcon.example.net");
        assert_eq!(props["email"], "desk@fixcon.example.net");
        assert_eq!(props["phone"], "+15550100200");
        assert_eq!(props["telHref"], "tel:+15550100200");
        assert_eq!(props["letterImage"], "/static/img/endorsement-letter.svg");
        assert_eq!(props["registerHref"], "/pricing");
    }
    // The letter the popup shows is served.
    let (status, _, _) = app.get("/static/img/endorsement-letter.svg").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn speakers_island_reads_its_groups_from_the_fallback_which_has_every_speaker_once() {
    let app = app().await;
    let html = app.page("/").await;
    let page = parse(&html);
    let (mount, props) = island(&page, "Speakers");
    assert_eq!(mount.attr("data-hydrate"), Some("visible"));
    // Only the tab to open: the speakers themselves are in the markup (issue 24).
    assert_eq!(props, serde_json::json!({ "initial": "keynote" }));

    // What the island reads (islands/src/lib/tabs.ts `groupsFromMarkup`): each group's
    // category and label, each card's photo, name, role and bio, in tab and `order` order.
    let groups = select(mount, "[data-category]");
    let categories: Vec<&str> = groups.iter().map(|g| g.attr("data-category").unwrap()).collect();
    assert_eq!(categories, ["guest", "keynote", "session"]);
    let labels: Vec<String> = groups.iter().map(|g| texts(*g, ".speakers__category").concat()).collect();
    assert_eq!(labels, ["Guest of Honor", "Keynote Speaker", "Session Chair"]);
    let speakers = content::speakers(&app.pool).await.unwrap();
    for group in &groups {
        let category = group.attr("data-category").unwrap();
        let expected: Vec<_> = speakers.iter().filter(|s| s.category == category).collect();
        let cards = select(*group, ".person-card");
        assert_eq!(cards.len(), expected.len(), "{category} cards");
        for (card, speaker) in cards.iter().zip(expected) {
            assert_eq!(texts(*card, ".person-card__name"), [speaker.name.as_str()]);
            assert_eq!(texts(*card, ".person-card__role"), [speaker.role.as_str()]);
            assert_eq!(first(*card, "img").and_then(|i| i.attr("src")), Some(speaker.image.as_str()));
            let bio: String = first(*card, ".person-card__more p").expect("a bio").text().collect();
            assert_eq!(bio, speaker.bio, "{}'s bio, line breaks and all", speaker.name);
            // Once in the page: not again in the island's props.
            assert_eq!(html.matches(&askama_escaped(&speaker.bio)).count(), 1, "{}'s bio once", speaker.name);
        }
    }
    assert_eq!(text(mount).matches("More info").count(), speakers.len());
}

/// `text` as askama's HTML escaping writes it.
fn askama_escaped(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&#34;").replace('\'', "&#39;")
}

/// The fixture seed's timeline (`tests/fixtures/content.sql`) as the island gets it at
/// 2025-03-07 16:30 UTC, which is 2025-03-08 00:30 at the venue (+08:00): the first two days
/// are over there, though the 7th is not over in UTC.
#[tokio::test]
async fn timeline_island_gets_the_dates_the_venue_offset_and_the_server_verdict() {
    let app = app_at(datetime!(2025-03-07 16:30 UTC)).await;
    let page = parse(&app.page("/").await);
    let (mount, props) = island(&page, "Timeline");
    assert_eq!(mount.attr("data-hydrate"), Some("visible"));
    assert_eq!(props["utcOffset"], "+08:00");
    let expected = [
        (
            "2025-02-28",
            "Abstract Submission Deadline",
            "Last day to send a fixture abstract.",
            "28 February 2025",
            true,
        ),
        ("2025-03-07", "Notification of Acceptance", "Fixture authors hear back.", "7 March 2025", true),
        ("2025-03-15", "Registration Deadline", "Fixture presenters register by this date.", "15 March 2025", false),
        ("2025-03-18", "Full Paper Submission Due", "Last day for the fixture full paper.", "18 March 2025", false),
        ("2025-03-21", "Conference Day 1", "Fixture opening and keynotes.", "21 March 2025", false),
        ("2025-03-22", "Conference Day 2", "Fixture sessions.", "22 March 2025", false),
        ("2025-03-23", "Conference Day 3", "Fixture closing.", "23 March 2025", false),
    ];
    let given: Vec<(&str, &str, &str, &str, bool)> = props["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| {
            let field = |name: &str| item[name].as_str().unwrap_or_else(|| panic!("{name} of {item}"));
            let passed = item["passed"].as_bool().unwrap_or_else(|| panic!("passed of {item}"));
            (field("date"), field("title"), field("description"), field("label"), passed)
        })
        .collect();
    assert_eq!(given, expected);
    // The fallback marks the same two items as past.
    assert_eq!(
        texts(mount, ".timeline__item--past .timeline__title del"),
        ["Abstract Submission Deadline", "Notification of Acceptance"]
    );
}

#[tokio::test]
async fn goals_island_gets_the_five_goals_and_keeps_the_row_as_fallback() {
    let app = app().await;
    let page = parse(&app.page("/").await);
    let (mount, props) = island(&page, "GoalsRow");
    assert_eq!(mount.attr("data-hydrate"), Some("visible"));
    let goals = content::goals(&app.pool).await.unwrap();
    let given: Vec<&str> = props["goals"].as_array().unwrap().iter().map(|g| g["title"].as_str().unwrap()).collect();
    assert_eq!(given, goals.iter().map(|g| g.title.as_str()).collect::<Vec<_>>());
    assert_eq!(given.len(), 5);
    assert!(first(mount, ".goals__row[tabindex='0']").is_some());
}

#[tokio::test]
async fn materials_island_downloads_what_the_fallback_links_download() {
    let app = app().await;
    for path in ["/", "/AboutConference"] {
        let page = parse(&app.page(path).await);
        let (mount, props) = island(&page, "Materials");
        assert_eq!(mount.attr("data-hydrate"), Some("visible"));
        let fallback_links: Vec<(String, String)> = links(mount);
        let items = props["materials"].as_array().unwrap();
        assert_eq!(items.len(), fallback_links.len());
        for (item, (href, label)) in items.iter().zip(&fallback_links) {
            assert_eq!(item["href"], href.as_str(), "{path}");
            assert_eq!(item["title"], label.as_str(), "{path}: title trimmed like the button");
            let reply = app.request(href, &[]).await;
            assert_eq!(reply.status, StatusCode::OK);
            let disposition = reply.header("content-disposition").unwrap_or_default().to_string();
            assert!(disposition.contains(item["fileName"].as_str().unwrap()), "{disposition}");
        }
    }
}

#[tokio::test]
async fn about_fade_in_marks_the_block_and_hides_nothing() {
    let app = app().await;
    for path in ["/", "/AboutConference"] {
        let page = parse(&app.page(path).await);
        let (mount, props) = island(&page, "AboutFadeIn");
        assert_eq!(mount.attr("data-hydrate"), Some("visible"));
        assert_eq!(props, Value::Null);
        assert!(mount.inner_html().trim().is_empty());
        // The content itself is plain, visible markup: no inline style hides it (no mention of
        // opacity anywhere in the block's markup, attributes included).
        let block = labelled(&page, "about-conference-title").unwrap();
        assert!(!block.html().contains("opacity"), "{path}: nothing is hidden by the server");
    }
}

#[tokio::test]
async fn policy_accordion_gets_the_sections_and_keeps_details_as_fallback() {
    let app = app().await;
    for (path, slug) in [("/Terms-&-Conditions", "terms-and-conditions"), ("/Privacy-Policy", "privacy-policy")] {
        let page = parse(&app.page(path).await);
        let (mount, props) = island(&page, "PolicyAccordion");
        assert_eq!(mount.attr("data-hydrate"), Some("load"));
        let sections = content::policy_sections(&app.pool, slug).await.unwrap();
        let given = props["sections"].as_array().unwrap();
        assert_eq!(given.len(), sections.len());
        for (g, s) in given.iter().zip(&sections) {
            assert_eq!(g["id"], s.id.as_str());
            assert_eq!(g["heading"], s.heading.as_str());
            assert_eq!(strings(&g["paragraphs"]), content::paragraphs(&s.body));
        }
        let details = select(mount, "details");
        assert_eq!(details.len(), sections.len(), "{path}: one <details> per section without JavaScript");
    }
}

#[tokio::test]
async fn policy_pages_mark_their_sections_for_the_footer_panel() {
    let app = app().await;
    for policy in content::policies(&app.pool).await.unwrap() {
        let page = parse(&app.page(&policy.link).await);
        let sections = content::policy_sections(&app.pool, &policy.slug).await.unwrap();
        let marked = select(&page, "[data-policy-heading]").len();
        assert_eq!(marked, sections.len(), "{}: every section heading is marked", policy.link);
        for section in &sections {
            let heading = first(&page, &format!("[data-policy-heading=\"{}\"]", section.id))
                .unwrap_or_else(|| panic!("{}: heading of {}", policy.link, section.id));
            assert_eq!(text(heading), section.heading);
            let paragraphs = texts(&page, &format!("[data-policy-text=\"{}\"]", section.id));
            assert_eq!(paragraphs, content::paragraphs(&section.body), "{}: text of {}", policy.link, section.id);
        }
    }
}

#[tokio::test]
async fn footer_policy_panel_gets_names_links_and_summaries_only() {
    let app = app().await;
    let policies = content::policies(&app.pool).await.unwrap();
    for (path, _) in PAGES.iter().filter(|(p, _)| *p != "/Success") {
        let page = parse(&app.page(path).await);
        let (mount, props) = island(&page, "PolicyPanel");
        assert_eq!(mount.attr("data-hydrate"), Some("intent"));
        let given = props["policies"].as_array().unwrap();
        assert_eq!(given.len(), policies.len());
        for (g, p) in given.iter().zip(&policies) {
            assert_eq!(g["name"], p.name.as_str());
            assert_eq!(g["link"], p.link.as_str());
            assert_eq!(g["summary"], p.summary.as_str());
            let keys: BTreeSet<&str> = g.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(keys, BTreeSet::from(["link", "name", "slug", "summary"]), "no section text on every page");
        }
        let fallback_links: Vec<String> = links(mount).into_iter().map(|(h, _)| h).collect();
        assert_eq!(fallback_links, policies.iter().map(|p| p.link.clone()).collect::<Vec<_>>(), "{path}");
    }
}

#[tokio::test]
async fn gallery_island_gets_the_images_its_fallback_links_to() {
    let app = app().await;
    let page = parse(&app.page("/gallery").await);
    let (mount, props) = island(&page, "GalleryViewer");
    assert_eq!(mount.attr("data-hydrate"), Some("idle"));
    let hrefs: Vec<String> = links(mount).into_iter().map(|(h, _)| h).collect();
    let images = props["images"].as_array().unwrap();
    assert_eq!(images.iter().map(|i| i["image"].as_str().unwrap().to_string()).collect::<Vec<_>>(), hrefs);
    for image in images {
        assert!(image["title"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(image["width"].as_i64().unwrap() > 0 && image["height"].as_i64().unwrap() > 0);
    }
}

#[tokio::test]
async fn mobile_menu_island_gets_the_menu_links_with_the_current_page() {
    let app = app().await;
    let page = parse(&app.page("/gallery").await);
    let (mount, props) = island(&page, "MobileMenu");
    assert_eq!(mount.attr("data-hydrate"), Some("load"));
    let given: Vec<(String, bool)> = props["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["href"].as_str().unwrap().to_string(), l["current"].as_bool().unwrap()))
        .collect();
    let fallback_hrefs: Vec<String> = links(mount).into_iter().map(|(h, _)| h).collect();
    assert_eq!(given.iter().map(|(h, _)| h.clone()).collect::<Vec<_>>(), fallback_hrefs);
    assert_eq!(given.iter().filter(|(_, c)| *c).map(|(h, _)| h.as_str()).collect::<Vec<_>>(), ["/gallery"]);
    assert!(first(mount, "details.mobile-menu").is_some());
}

/// The accessibility scan (islands/e2e/a11y.spec.ts) keeps its own list of pages, since
/// Playwright declares its tests before the server runs; this keeps that list in step with
/// the route table: a page added to `routes::PAGES` fails here until the scan covers it.
/// A second spelling of a page (same canonical) is the same page, so it is scanned once, and
/// so is one session page for all of them; and
/// `/Success` without a paid order is the `/Failed` page it redirects to.
#[test]
fn the_accessibility_scan_covers_every_page_of_the_route_table() {
    let spec = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/islands/e2e/a11y.spec.ts"))
        .expect("islands/e2e/a11y.spec.ts");
    for (path, _) in PAGES.iter().filter(|(path, canonical)| path == canonical && *path != "/Success") {
        // The session pages are one template over the programme's rows: one of them is scanned.
        let path = if path.starts_with("/schedule/sessions/") { "/schedule/sessions/session-a" } else { path };
        assert!(spec.contains(&format!("'{path}'")), "a11y.spec.ts scans {path}");
    }
    for (path, canonical) in PAGES.iter().filter(|(path, canonical)| path != canonical) {
        assert!(spec.contains(&format!("'{canonical}'")), "a11y.spec.ts scans {canonical}, which {path} shows");
    }
}

/// The programme's islands (issue 31 item 4) right after the sentence naming the zone, with the
/// event's zone in their props, over the markup they read (islands/src/lib/zone.ts, agenda.ts):
/// every time of day marked with what its text shows, every session with its start and end.
/// The day headings' dates are not times of day, and stay as they are.
#[tokio::test]
async fn the_schedule_pages_mount_the_zone_switch_and_the_agenda_over_the_times_they_read() {
    use crate::common::fixture::{SESSIONS, TIME_ZONE};
    let app = app().await;
    for (path, sessions) in [("/schedule", &SESSIONS[..]), ("/schedule/sessions/session-a", &SESSIONS[2..3])] {
        let page = parse(&app.page(path).await);
        let sentence = first(&page, ".schedule-zone").expect("the zone named");
        let after: Vec<ElementRef> = sentence.next_siblings().filter_map(ElementRef::wrap).take(2).collect();
        let names: Vec<Option<&str>> = after.iter().map(|e| e.attr("data-island")).collect();
        assert_eq!(names, [Some("ZoneSwitch"), Some("Agenda")], "{path}");
        let (zone_switch, props) = island(&page, "ZoneSwitch");
        assert_eq!(zone_switch.attr("data-hydrate"), Some("idle"));
        assert_eq!(props, serde_json::json!({ "zone": TIME_ZONE, "zoneName": "Singapore time" }), "{path}");
        let (agenda, props) = island(&page, "Agenda");
        assert_eq!(agenda.attr("data-hydrate"), Some("idle"));
        assert_eq!(props, serde_json::json!({ "icsPath": "/schedule/agenda.ics" }), "{path}");
        // No fallback: without JavaScript the page reads in event time, with no stars.
        assert!(zone_switch.inner_html().trim().is_empty() && agenda.inner_html().trim().is_empty());

        let times: Vec<(String, String)> = select(&page, "time[data-zone-time]")
            .iter()
            .map(|t| (t.attr("datetime").unwrap().to_owned(), t.attr("data-zone-time").unwrap().to_owned()))
            .collect();
        let expected: Vec<(String, String)> = sessions
            .iter()
            .flat_map(|s| {
                let start = if path == "/schedule" { "clock" } else { "date-clock" };
                [(s.start.to_owned(), start.to_owned()), (s.end.to_owned(), "clock".to_owned())]
            })
            .collect();
        assert_eq!(times, expected, "{path}");
        assert!(select(&page, ".schedule-day__title time[data-zone-time]").is_empty());
    }
    let page = parse(&app.page("/schedule").await);
    let spans: Vec<(&str, &str)> = select(&page, "li.schedule-session")
        .iter()
        .map(|s| (s.attr("data-starts").unwrap(), s.attr("data-ends").unwrap()))
        .collect();
    assert_eq!(spans, SESSIONS.iter().map(|s| (s.start, s.end)).collect::<Vec<_>>());
}
