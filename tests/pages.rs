//! Pages (spec section 2, DESIGN.md section 4): every route answers with a complete,
//! server-rendered page carrying its metadata, the shared navigation and footer, and the
//! content the spec lists for it.

use std::collections::{BTreeMap, BTreeSet};

use axum::http::StatusCode;
use serde_json::Value;

use conference::repo::content;

use crate::common::fixture::{self, PRESENTER_VIRTUAL};
use crate::common::html::{
    self, ElementRef, Html, by_id, content, first, href_of, labelled, links, parse, position, select, text, texts,
};
use crate::common::{BASE, HIGHLIGHT_SLUGS, PAID_ORDER, app, excerpt};

/// The `<main>` element: the page's own content, without header, footer and dock.
fn main_of(page: &Html) -> ElementRef<'_> {
    first(page, "main").expect("the page has a <main>")
}

/// Strips `PUBLIC_URL` from an absolute URL of the site.
fn site_path(url: &str) -> &str {
    url.strip_prefix(BASE).unwrap_or_else(|| panic!("{url} is an absolute URL of the site ({BASE})"))
}

// ---------------------------------------------------------------------------------------
// What every page has
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn every_route_answers_200_with_title_description_canonical_and_social_tags() {
    let app = app().await;
    let mut titles: BTreeMap<&str, String> = BTreeMap::new();
    let paths = app.page_paths().await;
    for (path, canonical_path) in &paths {
        let page = parse(&app.page(path).await);

        let title = html::title(&page);
        assert!(!title.is_empty(), "{path} has a <title>");
        match titles.get(canonical_path) {
            Some(first) => assert_eq!(first, &title, "{path} is the same page as {canonical_path}"),
            None => {
                titles.insert(canonical_path, title.clone());
            }
        }

        let description = html::meta(&page, "description").unwrap_or_default();
        assert!(description.len() >= 20, "{path} has a meta description, got {description:?}");

        let canonical = html::link_rel(&page, "canonical").unwrap_or_default();
        assert_eq!(canonical, format!("{BASE}{canonical_path}"), "canonical link of {path}");

        assert_eq!(html::meta(&page, "og:title").as_deref(), Some(title.as_str()), "og:title of {path}");
        assert!(html::meta(&page, "og:description").is_some_and(|d| !d.is_empty()), "og:description of {path}");
        assert_eq!(html::meta(&page, "og:url"), Some(canonical.clone()), "og:url of {path}");
        let og_type = html::meta(&page, "og:type").unwrap_or_default();
        assert!(["website", "article"].contains(&og_type.as_str()), "og:type of {path} is {og_type:?}");
        let og_image = html::meta(&page, "og:image").expect("og:image");
        let image = app.request(site_path(&og_image), &[]).await;
        assert_eq!(image.status, StatusCode::OK, "og:image {og_image} of {path} exists");
        // A raster image the preview scrapers render (they do not render SVG), 1200x630 as
        // declared, light enough to fetch quickly, with its type and alt text.
        let image_type = html::meta(&page, "og:image:type").unwrap_or_default();
        assert!(["image/png", "image/jpeg"].contains(&image_type.as_str()), "og:image:type of {path}: {image_type:?}");
        assert_eq!(image.header("content-type"), Some(image_type.as_str()), "{og_image} is served as {image_type}");
        assert_eq!(raster_size(&image.body), Some((1200, 630)), "{og_image} is 1200x630");
        assert!(image.body.len() < 150 * 1024, "{og_image} weighs {} bytes", image.body.len());
        assert_eq!(html::meta(&page, "twitter:image"), Some(og_image.clone()), "twitter:image of {path}");
        for alt in ["og:image:alt", "twitter:image:alt"] {
            assert!(html::meta(&page, alt).is_some_and(|a| a.len() > 10), "{alt} of {path}");
        }
        let card = html::meta(&page, "twitter:card").unwrap_or_default();
        assert!(["summary", "summary_large_image"].contains(&card.as_str()), "twitter:card of {path}: {card:?}");

        let favicon = html::link_rel(&page, "icon").expect("favicon link");
        let (status, _, _) = app.get(&favicon).await;
        assert_eq!(status, StatusCode::OK, "favicon {favicon} of {path} exists");
    }
    let distinct: BTreeSet<&String> = titles.values().collect();
    assert_eq!(distinct.len(), titles.len(), "every page has its own title: {titles:#?}");
}

/// Width and height of a PNG (IHDR, RFC 2083) or baseline/progressive JPEG (SOF0/SOF2).
fn raster_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() >= 24 {
        let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
        return Some((be(16), be(20)));
    }
    let mut i = 2;
    while bytes.starts_with(&[0xff, 0xd8]) && i + 9 < bytes.len() && bytes[i] == 0xff {
        let marker = bytes[i + 1];
        let length = u16::from_be_bytes([bytes[i + 2], bytes[i + 3]]) as usize;
        if marker == 0xc0 || marker == 0xc2 {
            let height = u16::from_be_bytes([bytes[i + 5], bytes[i + 6]]) as u32;
            let width = u16::from_be_bytes([bytes[i + 7], bytes[i + 8]]) as u32;
            return Some((width, height));
        }
        i += 2 + length;
    }
    None
}

#[tokio::test]
async fn every_page_has_the_dock_footer_and_mobile_menu() {
    let app = app().await;
    let site = content::site(&app.pool).await.expect("site settings");
    let year = time::OffsetDateTime::now_utc().year().to_string();
    let dock = [
        ("Home", "/"),
        ("Committee", "/committee"),
        ("Gallery", "/gallery"),
        ("AboutUs", "/AboutUs"),
        ("Schedule", "/schedule"),
        ("Registration", "/pricing"),
        ("Submission", "/submission"),
    ];
    let mut paths = app.page_paths().await;
    paths.push(("/no-such-page".into(), ""));
    for (path, _) in &paths {
        let page = parse(&app.get(path).await.2);

        // The bottom dock: seven entries in the spec's order.
        let dock_nav = first(&page, ".dock").unwrap_or_else(|| panic!("{path} has the bottom dock"));
        let entries: Vec<(String, String)> = links(dock_nav).into_iter().map(|(href, label)| (label, href)).collect();
        let expected: Vec<(String, String)> = dock.iter().map(|(l, h)| (l.to_string(), h.to_string())).collect();
        assert_eq!(entries, expected, "dock of {path}");

        // The mobile menu opens and closes without JavaScript: <details>/<summary>.
        let menu = select(&page, "details")
            .into_iter()
            .find(|d| {
                let menu_links = links(*d);
                first(*d, "summary").is_some() && dock.iter().all(|(_, href)| menu_links.iter().any(|(h, _)| h == href))
            })
            .unwrap_or_else(|| panic!("{path} has a <details> mobile menu with the dock's links"));
        assert!(!text(menu).is_empty(), "mobile menu of {path} has a visible toggle");

        // The footer.
        let footer = first(&page, "footer").expect("footer");
        let footer_links = links(footer);
        let has = |href: &str| footer_links.iter().any(|(h, _)| h == href);
        assert!(has(&format!("mailto:{}", site.contact_email)), "footer of {path} links the contact email");
        assert!(
            footer_links.iter().any(|(h, t)| h.starts_with("tel:") && t == &site.contact_phone),
            "footer phone link on {path}"
        );
        for network in ["Facebook", "Instagram", "Twitter", "LinkedIn", "YouTube"] {
            let (href, _) = footer_links
                .iter()
                .find(|(_, t)| t == network)
                .unwrap_or_else(|| panic!("footer of {path} links {network}"));
            assert!(href.starts_with("https://"), "{network} link is absolute: {href}");
        }
        for (label, href) in [
            ("Register Now", "/pricing"),
            ("Submit your Paper", "/submission"),
            ("Nominate Now", "/awards"),
            ("Become a Sponsor", "/sponsorship"),
            ("View Venue", "/venue"),
            ("Event Calendar", "/schedule"),
        ] {
            assert!(
                footer_links.iter().any(|(h, t)| h == href && t == label),
                "footer quick link {label} -> {href} on {path}"
            );
        }
        for policy in ["/cancellation-policy", "/Terms-&-Conditions", "/Privacy-Policy", "/cookie-policy"] {
            assert!(has(policy), "footer legal list links {policy} on {path}");
        }
        let email_inputs = select(footer, "input[type=email]").len();
        assert_eq!(email_inputs, 1, "footer of {path} has the newsletter box");
        assert!(text(footer).contains("Newsletter"), "newsletter heading on {path}");
        assert!(text(footer).contains(&year), "footer of {path} shows the current year {year}");
    }
}

#[tokio::test]
async fn no_page_carries_inline_script() {
    let app = app().await;
    let mut paths = app.page_paths().await;
    paths.push(("/missing".into(), ""));
    for (path, _) in &paths {
        // The document a browser builds from the bytes sent: what it would run.
        let page = parse(&app.get(path).await.2);
        for script in select(&page, "script") {
            let body = content(script).trim().to_string();
            match script.attr("type") {
                Some("application/ld+json") => assert!(script.attr("src").is_none()),
                Some("module") => {
                    let src = script.attr("src").unwrap_or("");
                    assert!(src.starts_with("/assets/"), "module script of {path} is a same-origin file: {src:?}");
                    assert!(body.is_empty(), "module script of {path} has no inline body");
                }
                other => panic!("{path} has an inline or classic script (type {other:?}): {body}"),
            }
        }
        for element in select(&page, "*") {
            for (name, _) in element.value().attrs() {
                assert!(
                    !(name.starts_with("on") && name.len() > 2),
                    "{path}: <{}> has an inline event handler {name}",
                    element.value().name()
                );
            }
            if let Some(href) = element.attr("href") {
                assert!(!href.trim_start().to_ascii_lowercase().starts_with("javascript:"), "{path}: javascript: link");
            }
        }
    }
}

#[tokio::test]
async fn every_image_and_internal_link_of_every_page_resolves() {
    let app = app().await;
    let mut checked = BTreeSet::new();
    let mut broken = Vec::new();
    for (path, _) in app.page_paths().await {
        let page = parse(&app.page(&path).await);
        let srcs: Vec<String> = select(&page, "img[src]").iter().map(|e| e.attr("src").unwrap().to_string()).collect();
        let hrefs: Vec<String> = select(&page, "a[href]").iter().map(|e| e.attr("href").unwrap().to_string()).collect();
        for target in srcs.into_iter().chain(hrefs) {
            if target.starts_with("mailto:") || target.starts_with("tel:") || target.starts_with("http") {
                continue;
            }
            // A calendar subscription (`webcal:`) names a file of this site.
            let webcal = format!("webcal://{}", BASE.split("://").nth(1).unwrap());
            let target = target.strip_prefix(&webcal).map_or(target.clone(), str::to_owned);
            let target = target.split('#').next().unwrap_or("").to_string();
            let target = if target.is_empty() { path.to_string() } else { target };
            if !checked.insert(target.clone()) {
                continue;
            }
            if !target.starts_with('/') {
                broken.push(format!("{path}: {target:?} is not a site path"));
                continue;
            }
            let (status, _, _) = app.get(&target).await;
            if status != StatusCode::OK {
                broken.push(format!("{path}: {target} answers {status}"));
            }
        }
    }
    assert!(broken.is_empty(), "broken images or links:\n{}", broken.join("\n"));
}

// ---------------------------------------------------------------------------------------
// Home
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn home_shows_hero_banner_countdown_and_explore_venue() {
    // Before the fixture's conference ends: after it, the home page says it took place
    // (tests/clock.rs).
    let app = crate::common::app_at(time::macros::datetime!(2025-03-01 00:00 UTC)).await;
    let page = parse(&app.page("/").await);
    let visible = text(main_of(&page));

    assert!(visible.contains("Selected fixture papers appear in the Journal of Made-up Results"), "Scopus banner");
    let h1 = texts(&page, "h1");
    assert_eq!(h1, vec![fixture::NAME]);
    assert!(visible.contains("21-23 March 2025"), "hero dates");
    assert!(visible.contains(&format!("{}, {}", fixture::CITY, fixture::COUNTRY)), "hero place");
    assert!(visible.to_lowercase().contains("hybrid"), "hybrid note");
    assert!(visible.contains(fixture::ENDORSEMENT), "endorsement");
    assert_eq!(href_of(&page, "Explore Venue").as_deref(), Some("/venue"));

    let countdown = text(first(&page, "[role=timer]").expect("countdown"));
    let words: Vec<&str> = countdown.split_whitespace().collect();
    let labels: Vec<&str> = words.iter().skip(1).step_by(2).copied().collect();
    assert_eq!(labels, ["Days", "Hours", "Minutes", "Seconds"], "countdown units: {countdown}");
    let values: Vec<&str> = words.iter().step_by(2).copied().collect();
    assert!(values.iter().all(|v| v.parse::<u32>().is_ok()), "countdown values are numbers: {countdown}");
    assert_eq!(values, ["19", "16", "00", "00"], "left until 21 March 2025 00:00 in Singapore");
}

#[tokio::test]
async fn home_has_about_conference_block_with_materials() {
    let app = app().await;
    let page = parse(&app.page("/").await);
    let block = labelled(&page, "about-conference-title").expect("About Conference block");
    assert_eq!(texts(block, "h2").first().map(String::as_str), Some("About Conference"));
    assert_eq!(href_of(block, "Read more...").as_deref(), Some("/AboutConference"));
    assert!(text(block).contains("Download Conference Materials"));
    assert!(first(block, "img").is_some(), "the block has an image");

    let materials = content::materials(&app.pool).await.unwrap();
    assert_eq!(materials.len(), 3);
    let block_links = links(block);
    for material in &materials {
        let (href, _) = block_links
            .iter()
            .find(|(_, label)| label == material.title.trim())
            .unwrap_or_else(|| panic!("a button reads {:?} (title trimmed)", material.title.trim()));
        assert_eq!(href, &format!("/api/files/download_buttons/{}/{}", material.id, material.link));
        let reply = app.request(href, &[]).await;
        assert_eq!(reply.status, StatusCode::OK, "{href} downloads");
        assert!(reply.body.starts_with(b"%PDF"), "{href} is a PDF");
    }
}

#[tokio::test]
async fn home_has_three_highlight_cards_five_goals_and_the_objectives() {
    let app = app().await;
    let page = parse(&app.page("/").await);

    let highlights = labelled(&page, "highlights-title").expect("highlights section");
    let cards: Vec<String> =
        links(highlights).into_iter().map(|(href, _)| href).filter(|h| h.starts_with("/highlights/")).collect();
    let expected: Vec<String> = HIGHLIGHT_SLUGS.iter().map(|s| format!("/highlights/{s}")).collect();
    assert_eq!(cards, expected, "three highlight cards in order");
    assert!(text(highlights).contains("Tidal Computing, Lantern Studies"), "focus areas");

    let goals = labelled(&page, "goals-title").expect("goals row");
    assert_eq!(select(goals, "li").len(), 5, "five sustainability goals");
    for goal in content::goals(&app.pool).await.unwrap() {
        assert!(text(goals).contains(&goal.title), "goal {}", goal.title);
    }

    let objectives = labelled(&page, "objectives-title").expect("objectives");
    assert_eq!(texts(objectives, "h3"), ["Share Fixture Findings", "Meet at the Harbour"]);

    let visible = text(main_of(&page));
    for tile in ["42+ Lanterns Lit", "7+ Tides Counted"] {
        assert!(visible.contains(tile), "statistics tile {tile:?}");
    }
    let promo = visible.to_lowercase();
    assert!(promo.contains("a symposium that lights lanterns"), "the promo block: {promo}");
}

#[tokio::test]
async fn home_lists_speakers_by_category() {
    let app = app().await;
    let page = parse(&app.page("/").await);
    let section = labelled(&page, "speakers-title").expect("speakers section");
    let labels = ["Guest of Honor", "Keynote Speaker", "Session Chair"];
    assert_eq!(texts(section, "h3"), labels, "speaker categories in tab order");

    let starts: Vec<usize> = labels.iter().map(|l| position(section, "h3", l)).collect();
    let speakers = content::speakers(&app.pool).await.unwrap();
    assert!(!speakers.is_empty());
    for speaker in &speakers {
        let group = ["guest", "keynote", "session"].iter().position(|c| *c == speaker.category).unwrap();
        let at = position(section, "*", &speaker.name);
        let end = starts.get(group + 1).copied().unwrap_or(usize::MAX);
        assert!(starts[group] < at && at < end, "{} is listed under {}", speaker.name, labels[group]);
        assert!(text(section).contains(speaker.bio.split_whitespace().take(6).collect::<Vec<_>>().join(" ").as_str()));
    }
    assert_eq!(text(section).matches("More info").count(), speakers.len(), "each speaker has More info");
}

#[tokio::test]
async fn home_shows_the_timeline_faq_and_co_organizers() {
    let app = app().await;
    let page = parse(&app.page("/").await);

    let timeline = labelled(&page, "dates-title").expect("timeline");
    let dates = content::dates(&app.pool).await.unwrap();
    assert_eq!(dates.len(), 7);
    let mut last = 0;
    for date in &dates {
        let time = format!("[datetime=\"{}\"]", date.date);
        assert!(first(timeline, &time).is_some(), "timeline shows {}", date.date);
        let at = position(timeline, "*", &date.title);
        assert!(at > last, "{} comes in created order", date.title);
        last = at;
    }
    assert!(text(timeline).contains("28 February 2025"), "dates are written out for people");

    let faq = labelled(&page, "faq-title").expect("FAQ");
    let questions = content::faqs(&app.pool).await.unwrap();
    assert_eq!(questions.len(), 4);
    let summaries = texts(faq, "summary");
    assert_eq!(summaries, questions.iter().map(|q| q.title.clone()).collect::<Vec<_>>(), "four FAQ questions");
    assert_eq!(select(faq, "details").len(), 4);

    let logos: Vec<(String, String)> = select(&page, "img")
        .iter()
        .map(|t| (t.attr("src").unwrap_or("").to_string(), t.attr("alt").unwrap_or("").to_string()))
        .collect();
    for co in content::co_organizers(&app.pool).await.unwrap() {
        assert!(logos.contains(&(co.img_url.clone(), co.img_title.clone())), "co-organizer logo {}", co.img_title);
    }
}

#[tokio::test]
async fn home_contact_form_has_the_five_labelled_fields_and_submit() {
    let app = app().await;
    let page = parse(&app.page("/").await);
    let section = by_id(&page, "form").expect("the contact section has the anchor id=\"form\"");
    let form = first(section, "form").expect("a <form>");
    let controls = select(form, "input, textarea");
    for (label, name, kind) in [
        ("Name", "name", None),
        ("Phone / Whatsapp.no", "number", Some("tel")),
        ("Email address", "email", Some("email")),
        ("Country", "country", None),
        ("Message", "message", None),
    ] {
        let label_tag = select(form, "label")
            .into_iter()
            .find(|t| text(*t) == label)
            .unwrap_or_else(|| panic!("a visible label {label:?}"));
        let target = label_tag.attr("for").expect("label points at its control");
        let control =
            controls.iter().find(|t| t.attr("id") == Some(target)).unwrap_or_else(|| panic!("control #{target}"));
        assert_eq!(control.attr("name"), Some(name), "{label} posts as {name}");
        assert!(control.attr("required").is_some(), "{label} is required");
        if let Some(kind) = kind {
            assert_eq!(control.attr("type"), Some(kind), "{label} input type");
        }
    }
    let submit = first(form, "button[type=submit]").expect("a submit button");
    assert_eq!(text(submit), "Submit");
}

#[tokio::test]
async fn home_carries_event_json_ld() {
    let app = app().await;
    let page = parse(&app.page("/").await);
    let scripts = select(&page, "script[type='application/ld+json']");
    assert_eq!(scripts.len(), 1, "one JSON-LD block");
    let json: Value = serde_json::from_str(&content(scripts[0])).expect("JSON-LD parses");

    assert_eq!(json["@context"], "https://schema.org");
    assert_eq!(json["@type"], "Event");
    assert_eq!(json["name"], fixture::NAME);
    let start = json["startDate"].as_str().expect("startDate");
    let end = json["endDate"].as_str().expect("endDate");
    assert!(start.starts_with("2025-03-21") && start.ends_with("+08:00"), "startDate {start}");
    assert!(end.starts_with("2025-03-23") && end.ends_with("+08:00"), "endDate {end}");
    assert_eq!(json["eventAttendanceMode"], "https://schema.org/MixedEventAttendanceMode");
    assert!(json["eventStatus"].as_str().is_some_and(|s| s.starts_with("https://schema.org/Event")));

    let locations = json["location"].as_array().expect("location is an array");
    let place = locations.iter().find(|l| l["@type"] == "Place").expect("a Place");
    assert_eq!(place["address"]["@type"], "PostalAddress");
    assert_eq!(place["address"]["addressLocality"], fixture::CITY);
    assert_eq!(place["address"]["addressCountry"], "XL");
    let virtual_location = locations.iter().find(|l| l["@type"] == "VirtualLocation").expect("a VirtualLocation");
    let virtual_url = virtual_location["url"].as_str().unwrap_or("");
    assert!(virtual_url.starts_with(&format!("{BASE}/")), "the virtual location is on PUBLIC_URL: {virtual_url}");

    // The speakers, as performers: a Person with the name, and the organisation of the role
    // ("Rector, Quillmouth Institute of Tides") as affiliation.
    let performers = json["performer"].as_array().expect("performer is an array");
    let speakers = content::speakers(&app.pool).await.unwrap();
    assert_eq!(performers.len(), speakers.len());
    assert!(performers.iter().all(|p| p["@type"] == "Person"));
    let speaker = speakers.iter().find(|s| s.role.contains(", ")).expect("a speaker with title and organisation");
    let (title, organisation) = speaker.role.split_once(", ").unwrap();
    let person = performers.iter().find(|p| p["name"] == speaker.name.as_str()).expect("the speaker performs");
    assert_eq!(person["jobTitle"], title);
    assert_eq!(person["affiliation"]["@type"], "Organization");
    assert_eq!(person["affiliation"]["name"], organisation);
    assert!(performers.iter().all(|p| p["affiliation"]["name"].as_str().is_some_and(|n| !n.is_empty())));

    assert!(json["organizer"]["name"].as_str().is_some_and(|n| !n.is_empty()), "organizer");
    let image = match &json["image"] {
        Value::Array(images) => images.first().and_then(Value::as_str).unwrap_or("").to_string(),
        other => other.as_str().unwrap_or("").to_string(),
    };
    assert!(image.starts_with(BASE), "image is absolute: {image}");

    let offers = json["offers"].as_array().expect("offers");
    let prices: Vec<String> = offers
        .iter()
        .map(|o| match &o["price"] {
            Value::String(s) => s.clone(),
            Value::Number(n) => format!("{:.2}", n.as_f64().unwrap()),
            other => panic!("price {other}"),
        })
        .collect();
    assert_eq!(prices, fixture::PLANS.map(|p| p.amount));
    assert!(offers.iter().all(|o| o["priceCurrency"] == "USD" && o["@type"] == "Offer"));
}

#[tokio::test]
async fn home_still_renders_when_the_timeline_fails() {
    let app = app().await;
    app.exec("DROP TABLE dates").await;
    let page = parse(&app.page("/").await);
    let visible = text(&page);
    assert!(visible.contains("Failed to load timeline dates"), "the timeline block shows the spec's error");
    assert!(visible.contains("About Conference"), "the rest of the page is there");
    assert!(visible.contains("Frequently Asked Questions"));
    assert!(by_id(&page, "form").is_some(), "the contact form is there");
}

// ---------------------------------------------------------------------------------------
// Committee, schedule, gallery
// ---------------------------------------------------------------------------------------

const GROUPS: [&str; 4] =
    ["Core Committee", "Advisory Board - Education", "Advisory Board - Management", "Advisory Board - Engineering"];

#[tokio::test]
async fn committee_groups_come_in_the_spec_order() {
    let app = app().await;
    let page = parse(&app.page("/committee").await);
    let headings: Vec<String> =
        texts(main_of(&page), "h2").into_iter().filter(|h| GROUPS.contains(&h.as_str())).collect();
    assert_eq!(headings, GROUPS);
    let positions: Vec<usize> = GROUPS.iter().map(|g| position(&page, "h2", g)).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "groups in order");

    for member in content::committee(&app.pool).await.unwrap() {
        let group = GROUPS.iter().position(|g| *g == member.committee).unwrap();
        let at = position(&page, "*", &member.name);
        let end = positions.get(group + 1).copied().unwrap_or(usize::MAX);
        assert!(positions[group] < at && at < end, "{} is under {}", member.name, member.committee);
    }
    let placeholder = "img[src='/static/img/placeholder-person.svg']";
    assert!(first(&page, placeholder).is_some(), "members without a photo get the placeholder");
}

#[tokio::test]
async fn an_empty_committee_group_is_hidden() {
    let app = app().await;
    app.exec("DELETE FROM committee WHERE committee = 'Advisory Board - Management'").await;
    let page = parse(&app.page("/committee").await);
    let headings = texts(main_of(&page), "h2");
    assert!(!headings.iter().any(|h| h == "Advisory Board - Management"), "empty group hidden: {headings:?}");
    let shown: Vec<&String> = headings.iter().filter(|h| GROUPS.contains(&h.as_str())).collect();
    assert_eq!(shown, ["Core Committee", "Advisory Board - Education", "Advisory Board - Engineering"]);
}

#[tokio::test]
async fn committee_failure_shows_the_error_text() {
    let app = app().await;
    app.exec("DROP TABLE committee").await;
    let page = app.page("/committee").await;
    assert!(text(main_of(&parse(&page))).contains("Error: "), "the spec's 'Error: {{message}}'");
    // Nowhere in the bytes sent, markup or not.
    assert!(!page.contains("no such table"), "database details stay in the log");
}

#[tokio::test]
async fn schedule_is_reachable_in_both_spellings_with_the_timetable() {
    let app = app().await;
    for path in ["/schedule", "/Schedule"] {
        let page = app.page(path).await;
        assert!(!page.contains("Loading schedule..."), "content is in the first HTML");
        let page = parse(&page);
        let h1 = texts(&page, "h1").join(" ").to_lowercase();
        assert!(h1.contains("shaping tomorrow") && h1.contains("sustainable landscape"), "{path} heading: {h1}");
        // Issue 31: the timetable replaces the four images of the same programme.
        assert!(select(main_of(&page), "img").is_empty(), "{path} shows no schedule images");
        let titles = texts(main_of(&page), ".schedule-session__title");
        let expected: Vec<&str> = fixture::SESSIONS.iter().map(|s| s.title).collect();
        assert_eq!(titles, expected, "{path} lists every session in time order");
    }
}

#[tokio::test]
async fn gallery_shows_a_header_and_the_images() {
    let app = app().await;
    let page = parse(&app.page("/gallery").await);
    assert_eq!(texts(&page, "h1"), ["Gallery"]);
    let images = select(main_of(&page), "img");
    let gallery = content::gallery(&app.pool).await.unwrap();
    assert_eq!(images.len(), gallery.len());
    assert!(images.iter().all(|t| t.attr("alt").is_some_and(|a| !a.is_empty())), "every image has alt text");
}

// ---------------------------------------------------------------------------------------
// About pages, awards, sponsorship, venue, submission
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn about_us_has_the_spec_blocks() {
    let app = app().await;
    let page = parse(&app.page("/AboutUs").await);
    let main = main_of(&page);
    let visible = text(main);
    for network in ["Facebook", "Instagram", "Twitter", "LinkedIn", "YouTube"] {
        assert!(links(main).iter().any(|(_, t)| t == network), "banner social link {network}");
    }
    for heading in ["Why Attend", "Who Can Attend", "Our Vision"] {
        assert!(texts(main, "h2").iter().any(|h| h == heading), "{heading} block");
    }
    for fact in ["Date", "Attendees", "Focus areas", "Goal"] {
        assert!(texts(main, "dt").iter().any(|t| t == fact), "objective card shows {fact}");
    }
    assert_eq!(href_of(main, "Register Now").as_deref(), Some("/pricing"));
    assert!(visible.contains("300+ Fixture Guests"), "the impact statistic");
    assert!(select(main, "img").len() >= 3, "logo, partner logos and vision images");
}

#[tokio::test]
async fn about_conference_has_overview_why_who_and_register() {
    let app = app().await;
    let page = parse(&app.page("/AboutConference").await);
    let main = main_of(&page);
    let headings = texts(main, "h2");
    for heading in ["Overview", "Why Attend", "Who Can Attend", "About Conference"] {
        assert!(headings.iter().any(|h| h == heading), "{heading} on /AboutConference: {headings:?}");
    }
    let register: Vec<String> = links(main).into_iter().filter(|(_, t)| t == "Register Now").map(|(h, _)| h).collect();
    assert_eq!(register, ["/pricing"]);
}

#[tokio::test]
async fn pricing_shows_tickets_custom_payment_policy_steps_and_support() {
    let app = app().await;
    let page = parse(&app.page("/pricing").await);
    let main = main_of(&page);
    let headings = texts(main, "h2");
    for heading in ["Presenter Tickets", "Listener Tickets", "Custom Payment"] {
        assert!(headings.iter().any(|h| h == heading), "{heading}: {headings:?}");
    }
    for (plan, features) in fixture::PLANS.iter().zip([
        &["Fixture Ticket", "Fixture Certificate"][..],
        &["Fixture Ticket", "Fixture Certificate", "Lantern Dinner"],
        &["Fixture Ticket"],
        &["Fixture Ticket", "Lantern Dinner"],
    ]) {
        let card = by_id(main, &format!("plan-{}", plan.id)).unwrap_or_else(|| panic!("ticket card {}", plan.id));
        let card_text = text(card);
        let amount = plan.amount.trim_end_matches(".00");
        assert!(card_text.contains("USD") && card_text.contains(amount), "{} costs {amount} USD: {card_text}", plan.id);
        assert_eq!(texts(card, "li"), features, "{} lists its features", plan.id);
    }
    let presenter = text(labelled(main, "presenter-title").unwrap());
    assert!(
        presenter.contains(fixture::PRESENTER_VIRTUAL.title) && presenter.contains(fixture::PRESENTER_PHYSICAL.title)
    );
    let listener = text(labelled(main, "listener-title").unwrap());
    assert!(listener.contains(fixture::LISTENER_VIRTUAL.title) && listener.contains(fixture::LISTENER_PHYSICAL.title));
    assert!(!presenter.contains(fixture::LISTENER_VIRTUAL.title), "listener plans are not under presenters");

    assert_eq!(href_of(main, "View Full Policy").as_deref(), Some("/cancellation-policy"));
    assert!(text(main).to_lowercase().contains("journal publication carries a separate fee"));
    let steps = labelled(main, "steps-title").expect("registration process");
    let step_titles = texts(steps, "h3");
    assert_eq!(step_titles.len(), 5, "five registration steps: {step_titles:?}");
    let steps_text = text(steps).to_lowercase();
    for word in ["website", "category", "form", "payment", "confirmation"] {
        assert!(steps_text.contains(word), "a step about {word}");
    }
    assert!(text(main).contains("Need Assistance"));
    assert!(href_of(main, "Contact Support").is_some(), "a Contact Support button");
}

#[tokio::test]
async fn prices_on_the_site_come_from_the_database() {
    let app = app().await;
    app.exec("UPDATE ticket_plans SET price_cents = 25000 WHERE id = 'presenter-virtual'").await;
    let pricing = parse(&app.page("/pricing").await);
    assert!(text(by_id(&pricing, "plan-presenter-virtual").unwrap()).contains("250"));
    let home = parse(&app.page("/").await);
    let script = first(&home, "script[type='application/ld+json']").unwrap();
    let json: Value = serde_json::from_str(&content(script)).unwrap();
    assert_eq!(json["offers"][0]["price"], "250.00");
}

#[tokio::test]
async fn awards_lists_three_main_and_three_sustainability_awards() {
    let app = app().await;
    let page = parse(&app.page("/awards").await);
    let main = main_of(&page);
    let awards = texts(main, "h3");
    assert_eq!(
        awards,
        ["Brightest Talk", "Clearest Tide Chart", "Young Keeper", "Steady Lantern", "Calm Harbour", "Second Wick"]
    );
    let all = links(main);
    assert!(all.iter().any(|(h, t)| t == "Register Now" && h == "/pricing"));
    let nominate: Vec<&(String, String)> = all.iter().filter(|(_, t)| t.starts_with("Nominate Now")).collect();
    assert!(!nominate.is_empty() && nominate.iter().all(|(h, _)| h == "/awards"), "Nominate Now links here");
}

#[tokio::test]
async fn sponsorship_lists_every_package_with_its_price() {
    let app = app().await;
    let page = parse(&app.page("/sponsorship").await);
    let main = main_of(&page);
    for fixture::Package { id, title, shown, .. } in fixture::PACKAGES {
        let price = shown.trim_end_matches(".00");
        let card = text(by_id(main, &format!("package-{id}")).unwrap_or_else(|| panic!("{title} package")));
        assert!(card.contains(title) && card.contains(price) && card.contains("USD"), "{title}: {card}");
    }
    let platinum = text(by_id(main, "package-platinum").unwrap());
    assert!(platinum.contains("Banner on the pier") && platinum.contains("Three fixture tickets"), "its benefits");
    let gold = text(by_id(main, "package-gold").unwrap());
    assert!(gold.contains("Logo on the lanterns") && !gold.contains("Banner on the pier"), "its own benefits");
    let prospectus = links(main).into_iter().find(|(_, t)| t.contains("Prospectus")).expect("prospectus button");
    assert!(prospectus.0.starts_with("/api/files/download_buttons/"));
    assert!(text(main).to_lowercase().contains("custom package"), "custom-package contact button");
}

#[tokio::test]
async fn venue_has_a_map_directions_and_four_attractions() {
    let app = app().await;
    let page = parse(&app.page("/venue").await);
    let main = main_of(&page);
    let iframe = first(main, "iframe").expect("a map embed");
    assert!(iframe.attr("src").is_some_and(|s| s.starts_with("https://www.google.com/maps")), "map src");
    assert!(iframe.attr("title").is_some_and(|t| !t.is_empty()), "the map has a title");
    let directions = href_of(main, "Get directions").expect("directions link");
    assert!(directions.starts_with("https://"), "{directions}");
    assert!(text(main).contains(fixture::VENUE) && text(main).contains(fixture::CITY));
    let attractions = labelled(main, "attractions-title").expect("attractions");
    assert_eq!(texts(attractions, "h3").len(), 4, "four nearby attractions");
}

#[tokio::test]
async fn submission_shows_guidelines_and_the_paper_form() {
    let app = app().await;
    let page = parse(&app.page("/submission").await);
    let main = main_of(&page);
    let visible = text(main);
    assert!(visible.contains(fixture::PAPER_DUE), "paper due date");
    assert!(visible.contains("250-300 words") && visible.contains("3-5 keywords"), "guidelines");
    let form = first(main, "form").expect("paper form");
    let named = |name: &str| select(form, &format!("[name={name}]"));
    assert!(named("file").iter().any(|t| t.attr("type") == Some("file")), "one file part");
    let values =
        |name: &str| named(name).iter().filter_map(|t| t.attr("value").map(str::to_string)).collect::<Vec<_>>();
    let paper_types = values("paperType");
    assert_eq!(paper_types, ["Abstract", "Full Paper"]);
    let presentation = values("presentationType");
    assert_eq!(presentation, ["Poster", "Oral"]);
    let source = named("conferenceSource").into_iter().next().expect("conferenceSource select");
    let options: Vec<String> =
        select(source, "option").iter().map(|t| t.attr("value").unwrap_or("").to_string()).collect();
    assert_eq!(
        options,
        [
            "",
            "conference-alerts",
            "email",
            "friend-colleague-supervisor",
            "conference-alarm",
            "facebook",
            "google-search",
            "eventbrite",
            "linkedin",
            "others"
        ]
    );
    assert!(text(source).starts_with("Select an option"));
    for field in [
        "authorName",
        "coAuthorName",
        "number",
        "email",
        "country",
        "paperTitle",
        "department",
        "universityOrganization",
        "message",
    ] {
        assert!(!named(field).is_empty(), "field {field}");
    }
}

// ---------------------------------------------------------------------------------------
// Policies, highlights, payment results
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn terms_are_reached_with_a_raw_or_encoded_ampersand() {
    let app = app().await;
    let raw = app.page("/Terms-&-Conditions").await;
    let encoded = app.page("/Terms-%26-Conditions").await;
    assert_eq!(raw, encoded, "one page under both spellings");
    assert_eq!(texts(&parse(&raw), "h1"), ["Terms & Conditions"]);
}

#[tokio::test]
async fn terms_and_privacy_are_accordions_with_one_section_open_at_a_time() {
    let app = app().await;
    for path in ["/Terms-&-Conditions", "/Privacy-Policy"] {
        let page = parse(&app.page(path).await);
        let sections = select(main_of(&page), "details");
        assert!(sections.len() >= 3, "{path} has accordion sections");
        let names: BTreeSet<&str> = sections.iter().map(|t| t.attr("name").unwrap_or("")).collect();
        assert_eq!(names.len(), 1, "{path}: sections share one exclusive group");
        assert!(!names.contains(""), "{path}: the group has a name");
    }
    for (path, heading) in [("/cancellation-policy", "Cancellation Policy"), ("/cookie-policy", "Cookie Policy")] {
        let page = parse(&app.page(path).await);
        assert_eq!(texts(&page, "h1"), [heading]);
    }
}

#[tokio::test]
async fn highlight_pages_list_topics_and_link_back_home() {
    let app = app().await;
    for slug in HIGHLIGHT_SLUGS {
        let page = parse(&app.page(&format!("/highlights/{slug}")).await);
        let main = main_of(&page);
        assert_eq!(href_of(main, "Back").as_deref(), Some("/"), "Back link on {slug}");
        let topics = content::highlight_topics(&app.pool, slug).await.unwrap();
        assert!(topics.len() >= 3, "{slug} has topics");
        let shown = texts(main, "h3");
        assert_eq!(shown, topics.iter().map(|t| t.title.clone()).collect::<Vec<_>>(), "{slug} topics");
    }
}

#[tokio::test]
async fn an_unknown_highlight_is_not_found() {
    let app = app().await;
    for path in
        ["/highlights/unknown", "/highlights/SUSTAINABLE-TECHNOLOGIES", "/highlights/sustainable-technologies%00"]
    {
        let (status, _, page) = app.get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        let document = parse(&page);
        assert!(text(&document).contains("Highlight not found"), "{path}: {}", excerpt(&page));
        assert_eq!(href_of(&document, "Go back home").as_deref(), Some("/"));
    }
}

#[tokio::test]
async fn success_shows_a_paid_order_and_failed_the_way_back() {
    let app = app().await;
    let order = app.paid_order().await;
    let success = app.page(&format!("/Success?order={order}")).await;
    // Nowhere in the bytes sent, markup or not.
    assert!(!success.contains("ada@example.org"), "no e-mail address on a shareable page");
    let success = parse(&success);
    let visible = text(main_of(&success));
    assert!(visible.contains("success"), "{visible}");
    assert!(
        visible.contains(PRESENTER_VIRTUAL.title) && visible.contains(PRESENTER_VIRTUAL.amount),
        "plan and amount: {visible}"
    );
    assert!(visible.contains("Ada") && !visible.contains("Lovelace"), "the payer's first name only");

    let failed = parse(&app.page("/Failed").await);
    assert!(text(main_of(&failed)).contains("Failed"));
    assert!(links(main_of(&failed)).iter().any(|(h, _)| h == "/pricing"), "a way back to /pricing");
    for page in [&success, &failed] {
        assert!(html::meta(page, "robots").is_some_and(|r| r.contains("noindex")), "payment results are not indexed");
    }
}

#[tokio::test]
async fn success_without_a_paid_order_goes_to_failed() {
    let app = app().await;
    app.exec(&format!("UPDATE orders SET status = 'failure' WHERE order_id = '{}'", app.paid_order().await)).await;
    for (path, location) in [
        ("/Success", "/Failed"),
        ("/Success?order=not%20an%20id", "/Failed"),
        ("/Success?order=ORD1NOSUCHORDER", "/Failed?order=ORD1NOSUCHORDER"),
        (&format!("/Success?order={PAID_ORDER}") as &str, &format!("/Failed?order={PAID_ORDER}") as &str),
    ] {
        let (status, headers, _) = app.get(path).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{path}");
        assert_eq!(headers.get("location").and_then(|v| v.to_str().ok()), Some(location), "{path}");
    }
    let failed = parse(&app.page(&format!("/Failed?order={PAID_ORDER}")).await);
    assert!(text(main_of(&failed)).contains("failure"), "/Failed shows the order's status");
}

// ---------------------------------------------------------------------------------------
// Not found
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn unknown_paths_answer_the_not_found_page() {
    let app = app().await;
    for path in [
        "/does-not-exist",
        "/highlights",
        "/committee/core/members",
        "/a/b/c/d/e",
        "/pricing/extra",
        "/%E2%9C%93-unicode",
        "/with%20space",
        "/%3Cscript%3Ealert(1)%3C/script%3E",
        "/wp-admin/index.php?x=1&y=%27",
        "/.env",
        "/Terms-and-Conditions",
    ] {
        let (status, headers, page) = app.get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(headers["content-type"].to_str().unwrap().starts_with("text/html"), "{path} is a page");
        // On the raw body: no echo of the address as markup anywhere in the bytes sent.
        assert!(!page.contains("<script>alert"), "{path}: the address is never echoed as markup");
        let document = parse(&page);
        let visible = text(&document);
        assert!(visible.contains("Oops! Page Not Found"), "{path}: {}", excerpt(&page));
        assert!(visible.contains("The page you're looking for doesn't exist or has been moved."), "{path}");
        assert_eq!(href_of(&document, "Go back home").as_deref(), Some("/"), "{path}");
        assert!(html::meta(&document, "robots").is_some_and(|r| r.contains("noindex")), "{path}: not indexed");
    }
}
