//! How the site is served: compression, caching, security headers, and the files for
//! crawlers and calendars (`/sitemap.xml`, `/robots.txt`, `/calendar.ics`).

use std::collections::BTreeSet;

use axum::http::StatusCode;

use conference::repo::content;

use crate::common::html::{content, first, parse, select};
use crate::common::inflate::{gunzip, unbrotli};
use crate::common::{BASE, HIGHLIGHT_SLUGS, PAGES, Reply, app};

// ---------------------------------------------------------------------------------------
// Compression and caching
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn pages_are_compressed_as_the_browser_accepts() {
    let app = app().await;
    let plain = app.request("/", &[]).await;
    assert_eq!(plain.status, StatusCode::OK);
    assert_eq!(plain.header("content-encoding"), None, "no Accept-Encoding, no compression");
    assert!(plain.text().starts_with("<!doctype html>"), "the plain answer is the page");

    let gzip = app.request("/", &[("accept-encoding", "gzip")]).await;
    assert_eq!(gzip.status, StatusCode::OK);
    assert_eq!(gzip.header("content-encoding"), Some("gzip"));
    assert!(gzip.header("vary").is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")), "Vary");
    let decoded = gunzip(&gzip.body);
    assert_eq!(String::from_utf8(decoded).unwrap(), plain.text(), "gzip decodes to the page");
    assert!(gzip.body.len() * 3 < plain.body.len(), "HTML compresses well");

    let br = app.request("/", &[("accept-encoding", "br")]).await;
    assert_eq!(br.status, StatusCode::OK);
    assert_eq!(br.header("content-encoding"), Some("br"));
    assert!(!br.body.is_empty() && br.body.len() * 3 < plain.body.len(), "brotli body is small");
    assert!(!br.text().contains("<!doctype"), "the brotli body is encoded");
    assert_eq!(String::from_utf8(unbrotli(&br.body)).unwrap(), plain.text(), "brotli decodes to the page");

    let preferred = app.request("/", &[("accept-encoding", "gzip, deflate, br")]).await;
    assert!(
        matches!(preferred.header("content-encoding"), Some("br" | "gzip")),
        "a browser's usual header gets compression"
    );
    let identity = app.request("/", &[("accept-encoding", "identity")]).await;
    assert_eq!(identity.header("content-encoding"), None);
}

#[tokio::test]
async fn json_is_compressed_too() {
    let app = app().await;
    let plain = app.request("/api/collections/schedule/records?perPage=500", &[]).await;
    let gzip = app.request("/api/collections/schedule/records?perPage=500", &[("accept-encoding", "gzip")]).await;
    assert_eq!(gzip.header("content-encoding"), Some("gzip"));
    assert_eq!(gunzip(&gzip.body), plain.body);
}

/// What a CDN in front of the site may keep (DESIGN.md section 9, `src/cache_control.rs`).
const PAGE_CACHE: &str = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";
const NO_STORE: &str = "private, no-store";

#[tokio::test]
async fn html_pages_may_be_held_by_a_shared_cache_for_a_minute() {
    let app = app().await;
    for (path, _) in app.page_paths().await {
        if path.starts_with("/Success") || path == "/Failed" {
            continue;
        }
        let (_, headers, _) = app.get(&path).await;
        assert_eq!(headers.get("cache-control").and_then(|v| v.to_str().ok()), Some(PAGE_CACHE), "{path}");
    }
    let (status, headers, _) = app.get("/no-such-page").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(headers.get("cache-control").and_then(|v| v.to_str().ok()), Some(PAGE_CACHE), "404 page");
    let compressed = app.request("/venue", &[("accept-encoding", "br")]).await;
    assert_eq!(compressed.header("cache-control"), Some(PAGE_CACHE), "the compressed form too");
}

#[tokio::test]
async fn payment_pages_and_every_api_answer_are_never_stored() {
    let app = app().await;
    let order = app.paid_order().await;
    for path in [
        format!("/Success?order={order}"),
        "/Success".into(),
        "/Failed".into(),
        "/test-gateway".into(),
        "/api/health".into(),
        "/api/collections/schedule/records".into(),
        "/api/collections/nope/records".into(),
        "/api/no-such-route".into(),
    ] {
        let reply = app.request(&path, &[]).await;
        assert_eq!(reply.header("cache-control"), Some(NO_STORE), "GET {path} ({})", reply.status);
    }
    // A material download is an API answer too; a POST's answer, refused or not, never cached.
    let (_, files) = app.json("/api/collections/download_buttons/records").await;
    let item = &files["items"][0];
    let path = format!(
        "/api/files/{}/{}/{}",
        item["collectionId"].as_str().expect("a material"),
        item["id"].as_str().expect("its id"),
        item["link"].as_str().expect("its file")
    );
    let reply = app.request(&path, &[]).await;
    assert_eq!(reply.status, StatusCode::OK, "GET {path}");
    assert_eq!(reply.header("cache-control"), Some(NO_STORE), "GET {path}");
    for (path, origin) in [("/api/newsletter", BASE), ("/api/contact", "https://evil.example")] {
        let reply = app.post(path, "application/json", "{\"email\":\"ana@example.org\"}", &[("origin", origin)]).await;
        assert_eq!(reply.header("cache-control"), Some(NO_STORE), "POST {path} ({})", reply.status);
    }
}

#[tokio::test]
async fn hashed_island_assets_are_cached_for_a_year() {
    let app = app().await;
    let page = parse(&app.page("/").await);
    let script = first(&page, "script[type=module]")
        .and_then(|t| t.attr("src").map(str::to_string))
        .expect("the islands' module script");
    assert!(script.starts_with("/assets/"), "{script}");
    let reply = app.request(&script, &[]).await;
    assert_eq!(reply.status, StatusCode::OK, "{script}");
    assert_eq!(reply.header("cache-control"), Some("public, max-age=31536000, immutable"));
    let content_type = reply.header("content-type").unwrap_or_default();
    assert!(content_type.contains("javascript"), "{script} is JavaScript: {content_type}");
    assert!(!reply.body.is_empty());
    assert_subresource_headers(&reply, &script);

    let mut others: Vec<String> = select(&page, "link[rel=stylesheet], link[rel=modulepreload]")
        .into_iter()
        .filter_map(|t| t.attr("href").map(str::to_string))
        .collect();
    others.retain(|h| h.starts_with("/assets/"));
    assert!(!others.is_empty(), "stylesheet and preload tags from the manifest");
    for href in others {
        let reply = app.request(&href, &[]).await;
        assert_eq!(reply.status, StatusCode::OK, "{href}");
        assert_eq!(reply.header("cache-control"), Some("public, max-age=31536000, immutable"), "{href}");
        assert_subresource_headers(&reply, &href);
    }

    let missing = app.request("/assets/main-00000000.js", &[]).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.header("content-security-policy").is_some(), "the 404 page is a document");
}

/// A script or stylesheet leaves without the headers only a document reads (CSP, framing,
/// permissions, COOP: some 500 bytes a file), and keeps `nosniff` and the referrer policy.
fn assert_subresource_headers(reply: &Reply, path: &str) {
    for name in ["content-security-policy", "x-frame-options", "permissions-policy", "cross-origin-opener-policy"] {
        assert_eq!(reply.header(name), None, "{path} carries {name}");
    }
    assert_eq!(reply.header("x-content-type-options"), Some("nosniff"), "{path}");
    assert!(reply.header("referrer-policy").is_some(), "{path}: Referrer-Policy");
}

#[tokio::test]
async fn static_images_revalidate_with_an_etag() {
    let app = app().await;
    let reply = app.request("/static/img/logo.svg", &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.header("content-type").is_some_and(|c| c.starts_with("image/svg+xml")));
    assert!(reply.header("cache-control").is_some_and(|c| c.contains("max-age")), "a Cache-Control");
    let etag = reply.header("etag").expect("an ETag").to_string();

    let again = app.request("/static/img/logo.svg", &[("if-none-match", &etag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty(), "304 has no body");
    assert_eq!(again.header("etag"), Some(etag.as_str()));

    let stale = app.request("/static/img/logo.svg", &[("if-none-match", "\"something-else\"")]).await;
    assert_eq!(stale.status, StatusCode::OK);
    let other = app.request("/static/img/favicon.svg", &[]).await;
    assert_ne!(other.header("etag"), Some(etag.as_str()), "each file has its own ETag");
    assert_eq!(app.request("/static/img/nope.svg", &[]).await.status, StatusCode::NOT_FOUND);
}

// ---------------------------------------------------------------------------------------
// Security headers
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn pages_and_apis_carry_security_headers() {
    let app = app().await;
    for path in [
        "/",
        "/pricing",
        "/venue",
        "/no-such-page",
        "/api/health",
        "/api/collections/dates/records",
        "/api/collections/dates/records?page=0",
        "/api/nope",
        "/static/img/logo.svg",
        "/sitemap.xml",
    ] {
        let reply = app.request(path, &[]).await;
        let csp = reply.header("content-security-policy").unwrap_or_else(|| panic!("{path}: CSP"));
        let directives: Vec<&str> = csp.split(';').map(str::trim).collect();
        let script_src = directives.iter().find(|d| d.starts_with("script-src")).expect("script-src");
        assert!(script_src.contains("'self'"), "{path}: {script_src}");
        assert!(
            !script_src.contains("'unsafe-inline'") && !script_src.contains("'unsafe-eval'"),
            "{path}: {script_src}"
        );
        assert!(directives.contains(&"frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert!(reply.header("referrer-policy").is_some_and(|r| !r.is_empty()), "{path}: Referrer-Policy");
    }
    // The venue's map embed is allowed to load.
    let reply = app.request("/venue", &[]).await;
    let csp = reply.header("content-security-policy").unwrap();
    let frame_src = csp.split(';').map(str::trim).find(|d| d.starts_with("frame-src")).expect("frame-src");
    assert!(frame_src.contains("https://www.google.com"), "{frame_src}");
}

// ---------------------------------------------------------------------------------------
// Sitemap, robots, calendar
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn sitemap_lists_every_page_with_absolute_urls() {
    let app = app().await;
    let reply = app.request("/sitemap.xml", &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.header("content-type").is_some_and(|c| c.contains("xml")));
    let xml = reply.text();
    assert!(xml.starts_with("<?xml"), "an XML document");
    assert!(xml.contains("http://www.sitemaps.org/schemas/sitemap/0.9"));

    // The sitemap is XML, not HTML, but of a kind the HTML parser reads the same: plain elements
    // (lower case), text and the predefined character references, no CDATA.
    let locs: Vec<String> = select(&parse(&xml), "loc").into_iter().map(content).collect();
    let paths: BTreeSet<String> = locs
        .iter()
        .map(|loc| loc.strip_prefix(BASE).unwrap_or_else(|| panic!("{loc} is absolute on {BASE}")).to_string())
        .collect();
    assert_eq!(paths.len(), locs.len(), "no URL twice");
    for (_, canonical) in PAGES.iter().filter(|(p, _)| !["/Success", "/Failed"].contains(p)) {
        assert!(paths.contains(*canonical), "sitemap lists {canonical}");
    }
    for slug in HIGHLIGHT_SLUGS {
        assert!(paths.contains(&format!("/highlights/{slug}")), "sitemap lists the {slug} highlight");
    }
    for excluded in ["/Success", "/Failed", "/Schedule", "/Terms-%26-Conditions"] {
        assert!(!paths.contains(excluded), "sitemap leaves out {excluded}");
    }
    for path in &paths {
        let (status, _, _) = app.get(path).await;
        assert_eq!(status, StatusCode::OK, "sitemap entry {path} answers");
    }
}

#[tokio::test]
async fn robots_txt_names_the_sitemap() {
    let app = app().await;
    let (status, headers, body) = app.get("/robots.txt").await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["content-type"].to_str().unwrap().starts_with("text/plain"));
    assert!(body.contains("User-agent: *"));
    assert!(body.lines().any(|l| l.trim() == format!("Sitemap: {BASE}/sitemap.xml")), "{body}");
    assert!(!body.lines().any(|l| l.trim() == "Disallow: /"), "the site may be crawled");
}

/// What a first-match robots.txt parser (Python's `urllib.robotparser`, the original 1994
/// convention) decides for `path`: the first `Allow`/`Disallow` line whose value prefixes it.
fn first_match_allows(robots: &str, path: &str) -> bool {
    for line in robots.lines() {
        let Some((field, value)) = line.split_once(':') else { continue };
        let value = value.trim();
        let allow = match field.trim().to_ascii_lowercase().as_str() {
            "allow" => true,
            "disallow" => false,
            _ => continue,
        };
        if !value.is_empty() && path.starts_with(value) {
            return allow;
        }
    }
    true
}

#[tokio::test]
async fn robots_txt_keeps_apis_and_payment_pages_out_even_for_first_match_parsers() {
    let app = app().await;
    let (_, _, body) = app.get("/robots.txt").await;
    for path in ["/api/contact", "/api/ccavenue-handle", "/Success", "/Failed?order=ORD1", "/test-gateway"] {
        assert!(!first_match_allows(&body, path), "{path} is disallowed:\n{body}");
    }
    for path in ["/", "/pricing", "/committee", "/static/img/og-image.png"] {
        assert!(first_match_allows(&body, path), "{path} is allowed:\n{body}");
    }
}

/// Content lines of an iCalendar text, unfolded (RFC 5545 section 3.1).
fn unfold(ics: &str) -> Vec<String> {
    ics.replace("\r\n ", "").replace("\r\n\t", "").split("\r\n").filter(|l| !l.is_empty()).map(str::to_string).collect()
}

#[tokio::test]
async fn calendar_holds_the_conference_and_its_important_dates() {
    let app = app().await;
    let reply = app.request("/calendar.ics", &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.header("content-type").is_some_and(|c| c.starts_with("text/calendar")));
    let ics = reply.text();
    assert!(ics.starts_with("BEGIN:VCALENDAR\r\n"), "starts with BEGIN:VCALENDAR");
    assert!(ics.ends_with("END:VCALENDAR\r\n"), "ends with END:VCALENDAR");
    assert!(!ics.replace("\r\n", "").contains('\n') && !ics.replace("\r\n", "").contains('\r'), "CRLF line ends only");
    for line in ics.split("\r\n") {
        assert!(line.len() <= 75, "{line:?} is {} octets", line.len());
    }

    let lines = unfold(&ics);
    assert!(lines.contains(&"VERSION:2.0".to_string()));
    assert!(lines.iter().any(|l| l.starts_with("PRODID:")));

    let mut events: Vec<Vec<String>> = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in &lines {
        match line.as_str() {
            "BEGIN:VEVENT" => current = Some(Vec::new()),
            "END:VEVENT" => events.push(current.take().expect("END:VEVENT after BEGIN:VEVENT")),
            _ => {
                if let Some(event) = current.as_mut() {
                    event.push(line.clone());
                }
            }
        }
    }
    assert!(current.is_none(), "every VEVENT is closed");

    let dates = content::dates(&app.pool).await.unwrap();
    assert_eq!(events.len(), 1 + dates.len(), "the conference and one event per important date");
    let mut uids = BTreeSet::new();
    for event in &events {
        let uid = event.iter().find(|l| l.starts_with("UID:")).expect("every VEVENT has a UID");
        assert!(uids.insert(uid.clone()), "UIDs are unique: {uid}");
        let stamp = event.iter().find(|l| l.starts_with("DTSTAMP:")).expect("every VEVENT has a DTSTAMP");
        assert!(stamp.ends_with('Z') && stamp.len() == "DTSTAMP:".len() + 16, "{stamp}");
        assert!(event.iter().any(|l| l.starts_with("SUMMARY:")), "every VEVENT has a SUMMARY");
    }

    let conference = events
        .iter()
        .find(|e| {
            e.contains(&"DTSTART;VALUE=DATE:20250321".to_string())
                && e.contains(&"DTEND;VALUE=DATE:20250324".to_string())
        })
        .expect("a VEVENT for the whole conference, 21-23 March 2025 (end exclusive)");
    assert!(conference.iter().any(|l| l.starts_with("SUMMARY:") && l.contains("Fixture Symposium")), "{conference:?}");
    assert!(
        conference.iter().any(|l| l.starts_with("LOCATION:") && l.contains(crate::common::fixture::VENUE)),
        "{conference:?}"
    );

    for date in &dates {
        let start = format!("DTSTART;VALUE=DATE:{}", date.date.replace('-', ""));
        let event = events
            .iter()
            .find(|e| e.contains(&start) && e.iter().any(|l| l.starts_with("SUMMARY:") && l.contains(&date.title)))
            .unwrap_or_else(|| panic!("a VEVENT for {} on {}", date.title, date.date));
        assert!(event.iter().any(|l| l.starts_with("DTEND;VALUE=DATE:")), "{} has an end", date.title);
    }
}

#[tokio::test]
async fn favicon_ico_redirects_to_the_site_icon() {
    let app = app().await;
    let (status, headers, _) = app.get("/favicon.ico").await;
    assert_eq!(status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(headers.get("location").unwrap(), "/static/img/favicon.svg");
}

/// The `href`s of a page's `<link rel="stylesheet">`s, in document order.
fn stylesheet_links(page: &str) -> Vec<String> {
    select(&parse(page), "link[rel=stylesheet]")
        .into_iter()
        .filter_map(|t| t.attr("href").map(str::to_string))
        .collect()
}

/// Issue 13: a page's render-blocking CSS is ONE stylesheet: the site-wide sheet, or the bundle
/// of the site-wide sheet and the page's own rules. The home page does not wait for the
/// checkout or paper-form rules; /pricing and /submission get theirs without a second request.
#[tokio::test]
async fn each_page_links_one_stylesheet_with_the_site_wide_rules_and_only_its_own() {
    let app = app().await;
    let sheets = stylesheet_links;
    let committee = sheets(&app.page("/committee").await);
    assert_eq!(committee.len(), 1, "/committee: {committee:?}");
    let site_css = app.request(&committee[0], &[]).await.text();
    // A site-wide rule (the skip link of every page), as every page's sheet must hold it.
    assert!(site_css.contains(".skip-link{"), "the site-wide sheet styles the skip link");
    for (path, _) in PAGES.iter() {
        let (status, _, page) = app.get(path).await;
        if status != StatusCode::OK {
            continue; // /Success and /Failure redirect without an order
        }
        let links = sheets(&page);
        assert_eq!(links.len(), 1, "{path}: one render-blocking stylesheet: {links:?}");
        let reply = app.request(&links[0], &[]).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}: {}", links[0]);
        assert!(reply.header("content-type").unwrap_or_default().contains("text/css"), "{}", links[0]);
        let css = reply.text();
        assert!(css.contains(".skip-link{") && css.contains(".site-footer"), "{path}: the site-wide rules are in");
    }
    let home = sheets(&app.page("/").await);
    let pricing = sheets(&app.page("/pricing").await);
    let submission = sheets(&app.page("/submission").await);
    assert!(home != pricing && home != submission && pricing != submission, "{home:?} {pricing:?} {submission:?}");
    let home_css = app.request(&home[0], &[]).await.text();
    let checkout_css = app.request(&pricing[0], &[]).await.text();
    let submission_css = app.request(&submission[0], &[]).await.text();
    assert!(checkout_css.contains(".ticket-card{"), "/pricing's sheet holds the ticket cards");
    assert!(submission_css.contains(".paper-drop{"), "/submission's sheet holds the paper drop zone");
    assert!(home_css.contains(".goal-card{"), "the home sheet holds the goal cards");
    for (name, css) in [("site-wide", &site_css), ("home", &home_css)] {
        assert!(
            !css.contains(".ticket-card{") && !css.contains(".paper-drop{"),
            "the {name} sheet leaves out the checkout and paper-form rules"
        );
    }
    assert!(!checkout_css.contains(".paper-drop{"), "/pricing's sheet leaves out the paper form");
}

/// Issue 13 (first-render cost): the stylesheet's mask icons (`--i`, base.css) are views of ONE
/// sprite file, not a `data:` URL each. Chrome builds an SVG document per image URL during the
/// first style pass, which made a third of the home page's blocking time; one shared sprite is
/// built once and cached for a year. Every icon a sheet names must exist in the sprite, or it
/// would silently render as nothing.
#[tokio::test]
async fn mask_icons_are_views_of_one_cached_sprite() {
    let app = app().await;
    let mut sheets = BTreeSet::new();
    for (path, _) in PAGES.iter() {
        let (status, _, page) = app.get(path).await;
        if status == StatusCode::OK {
            sheets.extend(stylesheet_links(&page));
        }
    }
    let mut sprites = BTreeSet::new();
    let mut views = BTreeSet::new();
    for sheet in &sheets {
        let css = app.request(sheet, &[]).await.text();
        for declaration in css.split("--i:").skip(1) {
            let value = declaration.split([';', '}']).next().unwrap_or_default().trim();
            let url = value
                .strip_prefix("url(")
                .and_then(|v| v.strip_suffix(')'))
                .map(|v| v.trim_matches('"'))
                .unwrap_or_else(|| panic!("{sheet}: --i is not a url(): {value}"));
            let (file, view) = url.split_once('#').unwrap_or_else(|| panic!("{sheet}: --i names no view: {url}"));
            assert!(file.starts_with("/assets/") && file.ends_with(".svg"), "{sheet}: --i is not the sprite: {url}");
            sprites.insert(file.to_string());
            views.insert(view.to_string());
        }
    }
    assert_eq!(sprites.len(), 1, "one sprite for every mask icon: {sprites:?}");
    for dock_icon in ["home", "committee", "gallery", "about", "schedule", "ticket", "upload"] {
        assert!(views.contains(dock_icon), "the dock's {dock_icon} icon: {views:?}");
    }
    let sprite = sprites.first().unwrap();
    let reply = app.request(sprite, &[]).await;
    assert_eq!(reply.status, StatusCode::OK, "{sprite}");
    assert_eq!(reply.header("content-type"), Some("image/svg+xml"));
    assert!(reply.header("cache-control").unwrap_or_default().contains("immutable"), "{sprite} is hashed and cached");
    let svg = reply.text();
    for view in &views {
        assert!(svg.contains(&format!("<view id=\"{view}\"")), "{sprite} has no view {view}");
    }
}
