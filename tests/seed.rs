//! The content seeds (DESIGN.md sections 2-3). The production seed organisers edit,
//! `conference::seed::apply::CONTENT_SEED`, is checked for being well formed only (it applies, every
//! page answers with it, what it points at exists), never for the names, prices or dates an
//! organiser chooses; the other tests run on `tests/fixtures/content.sql`. Both seeds
//! replace content only when re-applied.

use std::collections::{BTreeMap, BTreeSet};

use axum::http::StatusCode;

use conference::cache::assets::static_exists;
use conference::db::{Engine, Pool};
use conference::repo::content;

use crate::common::{HIGHLIGHT_SLUGS, TestApp, app, excerpt, fixture};

/// Content tables: those the content migration creates, and the decision mails' templates
/// (migration 0012, issue 21), which organisers edit in the seed too.
fn content_tables() -> BTreeSet<String> {
    // The content migration's tables, and the programme's (0016, which dropped `schedule`).
    let sql = concat!(
        include_str!("../migrations/sqlite/0001_content.sql"),
        include_str!("../migrations/sqlite/0016_programme.sql")
    );
    let mut tables: BTreeSet<String> = sql
        .lines()
        .filter_map(|l| l.trim().strip_prefix("CREATE TABLE "))
        .map(|rest| rest.split(|c: char| c.is_whitespace() || c == '(').next().unwrap().to_string())
        .collect();
    for dropped in sql.lines().filter_map(|l| l.trim().strip_prefix("DROP TABLE ")) {
        tables.remove(dropped.trim_end_matches(';'));
    }
    tables.insert("mail_templates".into());
    // The review form and the webmail domains (migration 0019, issue 32).
    tables.insert("review_criteria".into());
    tables.insert("webmail_domains".into());
    // Who signs the certificates (migration 0022, issue 33 item 5).
    tables.insert("certificate_signatories".into());
    tables
}

async fn table_counts(app: &TestApp) -> BTreeMap<String, i64> {
    let sql = match app.engine() {
        Engine::Sqlite => {
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' \
             AND name <> '_sqlx_migrations'"
        }
        Engine::Postgres => {
            "SELECT CAST(table_name AS TEXT) FROM information_schema.tables
             WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations'"
        }
    };
    let names: Vec<(String,)> = sqlx::query_as(sql).fetch_all(&app.pool).await.unwrap();
    let mut counts = BTreeMap::new();
    for (name,) in names {
        counts.insert(name.clone(), app.count(&name).await);
    }
    counts
}

/// An app whose content is the production seed (applied over the fixture, as `conference
/// seed` does, and loaded into the content snapshot).
async fn app_on_production_seed() -> TestApp {
    let app = app().await;
    conference::seed::apply::seed(&app.pool).await.expect("the production seed applies");
    assert!(app.state.content.reload().await.expect("content reloads"), "a new content snapshot");
    app
}

#[tokio::test]
async fn reapplying_a_seed_is_idempotent_and_leaves_visitor_data_alone() {
    let app = app().await;
    // Stands for any visitors' table (messages, orders, submissions...).
    app.exec("CREATE TABLE visitor_notes (id TEXT PRIMARY KEY, note TEXT NOT NULL)").await;
    app.exec("INSERT INTO visitor_notes (id, note) VALUES ('n1', 'kept across seeds')").await;

    for (name, apply) in [("fixture", false), ("production", true)] {
        let reseed = || async {
            if apply {
                conference::seed::apply::seed(&app.pool).await.expect("production seed applies")
            } else {
                fixture::seed(&app.pool).await.expect("fixture seed applies")
            }
        };
        reseed().await;
        let before = table_counts(&app).await;
        reseed().await;
        reseed().await;
        let after = table_counts(&app).await;
        assert_eq!(before, after, "the same rows after seeding the {name} seed again");
        let (note,): (String,) = sqlx::query_as("SELECT note FROM visitor_notes").fetch_one(&app.pool).await.unwrap();
        assert_eq!(note, "kept across seeds", "the {name} seed leaves visitors' data alone");
        app.state.content.reload().await.expect("content reloads");
        let (status, _, _) = app.get("/").await;
        assert_eq!(status, StatusCode::OK, "the site works after re-seeding the {name} seed");
    }
}

#[tokio::test]
async fn the_seeds_only_delete_content_tables() {
    let content = content_tables();
    assert!(content.contains("site") && content.contains("dates"), "content tables read from the migration");
    for (name, seed) in [("production", conference::seed::apply::CONTENT_SEED), ("fixture", fixture::SEED)] {
        let deleted: BTreeSet<String> = seed
            .lines()
            .filter_map(|l| l.trim().strip_prefix("DELETE FROM "))
            .map(|rest| rest.trim_end_matches(';').trim().to_string())
            .collect();
        assert_eq!(deleted, content, "the {name} seed empties every content table and no other");
        for statement in ["DROP ", "TRUNCATE "] {
            assert!(
                !seed.lines().any(|l| l.trim_start().to_uppercase().starts_with(statement)),
                "the {name} seed has no {statement}statement"
            );
        }
    }
}

#[tokio::test]
async fn the_production_seed_is_well_formed_and_every_page_answers_with_it() {
    let app = app_on_production_seed().await;
    let pool = &app.pool;
    assert_eq!(app.count("site").await, 1, "one site settings row");
    let site = content::site(pool).await.unwrap();
    assert_ne!(site.name, fixture::NAME, "the production seed replaced the fixture");
    assert!(!site.name.trim().is_empty() && !site.short_name.trim().is_empty(), "the site has a name");
    let date = time::macros::format_description!("[year]-[month]-[day]");
    let start = time::Date::parse(&site.start_date, date).expect("start_date is YYYY-MM-DD");
    let end = time::Date::parse(&site.end_date, date).expect("end_date is YYYY-MM-DD");
    assert!(start <= end, "the conference ends on or after its first day");
    time::Date::parse(&site.paper_due_date, date).expect("paper_due_date is YYYY-MM-DD");
    time::OffsetDateTime::parse(&site.countdown_target, &time::format_description::well_known::Rfc3339)
        .expect("countdown_target is RFC 3339");
    for item in content::dates(pool).await.unwrap() {
        time::Date::parse(&item.date, date).unwrap_or_else(|e| panic!("date {} ({e})", item.date));
    }

    // The ids the payment API takes (DESIGN.md section 5), each with a positive price.
    let plans = content::ticket_plans(pool).await.unwrap();
    assert!(!plans.is_empty(), "at least one ticket plan");
    for plan in &plans {
        assert!(fixture::PLANS.iter().any(|p| p.id == plan.id), "plan id {} is one of DESIGN.md's", plan.id);
        assert!(plan.price_cents > 0 && plan.currency == "USD", "{} costs a positive USD amount", plan.id);
    }
    let packages = content::sponsor_packages(pool).await.unwrap();
    assert!(!packages.is_empty(), "at least one sponsor package");
    for package in &packages {
        assert!(
            ["platinum", "diamond", "gold", "silver"].contains(&package.id.as_str()),
            "package id {} is one of DESIGN.md's",
            package.id
        );
        assert!(package.price_cents > 0 && package.currency == "USD", "{} costs a positive USD amount", package.id);
    }

    let slugs: Vec<String> = content::highlights(pool).await.unwrap().into_iter().map(|h| h.slug).collect();
    assert_eq!(slugs, HIGHLIGHT_SLUGS, "the spec's three highlights");
    for member in content::committee(pool).await.unwrap() {
        assert!(content::COMMITTEE_GROUPS.contains(&member.committee.as_str()), "group {:?}", member.committee);
    }
    assert!(!content::speakers(pool).await.unwrap().is_empty(), "speakers");
    assert!(!content::dates(pool).await.unwrap().is_empty(), "important dates");
    let policies: BTreeSet<String> = content::policies(pool).await.unwrap().into_iter().map(|p| p.slug).collect();
    for slug in ["cancellation-policy", "terms-and-conditions", "privacy-policy", "cookie-policy"] {
        assert!(policies.contains(slug), "the {slug} page has its policy");
        assert!(!content::policy_sections(pool, slug).await.unwrap().is_empty(), "{slug} has sections");
    }

    // The session pages are the production seed's, not the fixture's.
    let sessions = content::sessions(pool).await.unwrap();
    assert!(!sessions.is_empty(), "the programme has sessions");
    let mut paths: Vec<String> = app
        .page_paths()
        .await
        .into_iter()
        .map(|(path, _)| path)
        .filter(|path| !path.starts_with("/schedule/sessions/"))
        .collect();
    paths.extend(sessions.iter().map(|s| format!("/schedule/sessions/{}", s.slug)));
    paths.push("/schedule.ics".into());
    for path in paths {
        let (status, _, body) = app.get(&path).await;
        assert_eq!(status, StatusCode::OK, "GET {path} answers 200 on the production seed: {}", excerpt(&body));
        // A block whose rows cannot be read shows the spec's error text instead.
        assert!(!body.contains("Failed to load") && !body.contains("Error: "), "{path}: {}", excerpt(&body));
        if path != "/" {
            continue;
        }
        assert!(body.contains(&html_escape(&site.short_name)), "the home page shows the seed's conference");
    }
}

/// `&` escaped as the templates escape it (the only character the names here need).
fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
}

/// Every image a content row names.
async fn content_images(pool: &Pool) -> Vec<String> {
    let site = content::site(pool).await.unwrap();
    let mut images: Vec<String> = vec![site.letter_image, site.og_image, site.logo];
    images.extend(content::committee(pool).await.unwrap().into_iter().filter_map(|m| m.img));
    images.extend(content::speakers(pool).await.unwrap().into_iter().map(|s| s.image));
    images.extend(content::co_organizers(pool).await.unwrap().into_iter().map(|c| c.img_url));
    images.extend(content::partners(pool, "sponsor").await.unwrap().into_iter().map(|p| p.logo));
    images.extend(content::partners(pool, "partner").await.unwrap().into_iter().map(|p| p.logo));
    images.extend(content::highlights(pool).await.unwrap().into_iter().map(|h| h.image));
    images.extend(content::attractions(pool).await.unwrap().into_iter().map(|a| a.image));
    images.extend(content::gallery(pool).await.unwrap().into_iter().map(|g| g.image));
    for kind in ["main", "sustainability"] {
        images.extend(content::awards(pool, kind).await.unwrap().into_iter().map(|a| a.icon));
    }
    images.extend(content::goals(pool).await.unwrap().into_iter().map(|g| g.icon));
    images.extend(content::objectives(pool).await.unwrap().into_iter().map(|o| o.icon));
    images.extend(content::sponsor_packages(pool).await.unwrap().into_iter().map(|p| p.icon));
    images
}

#[tokio::test]
async fn every_image_either_seed_names_exists() {
    let fixture_app = app().await;
    let production = app_on_production_seed().await;
    for (name, app) in [("fixture", &fixture_app), ("production", &production)] {
        let images = content_images(&app.pool).await;
        assert!(images.len() > 20, "the {name} seed names images: {images:?}");
        let missing: Vec<&String> =
            images.iter().filter(|path| !(path.starts_with("/static/") && static_exists(path))).collect();
        assert!(missing.is_empty(), "images named by the {name} seed but missing under static/: {missing:?}");
        for path in images.iter().take(5) {
            let (status, _, _) = app.get(path).await;
            assert_eq!(status, StatusCode::OK, "{path} is served");
        }
    }
}

#[tokio::test]
async fn every_download_button_of_either_seed_has_its_file() {
    let fixture_app = app().await;
    let production = app_on_production_seed().await;
    for (name, app) in [("fixture", &fixture_app), ("production", &production)] {
        let materials = content::materials(&app.pool).await.unwrap();
        assert!(!materials.is_empty(), "the {name} seed has materials");
        for material in materials {
            let path = format!("/api/files/download_buttons/{}/{}", material.id, material.link);
            let reply = app.request(&path, &[]).await;
            assert_eq!(reply.status, StatusCode::OK, "{name} seed: {path}");
            assert!(!reply.body.is_empty());
        }
    }
}
