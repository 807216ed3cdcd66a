//! The content seed (DESIGN.md sections 2-3): re-applying it replaces content only, it
//! holds what the spec requires, and everything it points at exists.

use std::collections::{BTreeMap, BTreeSet};

use axum::http::StatusCode;

use conference::assets::static_exists;
use conference::db::Engine;
use conference::repo::content;

use crate::common::{TestApp, app};

/// Content tables: those the content migration creates.
fn content_tables() -> BTreeSet<String> {
    let sql = include_str!("../migrations/sqlite/0001_content.sql");
    sql.lines()
        .filter_map(|l| l.trim().strip_prefix("CREATE TABLE "))
        .map(|rest| rest.split(|c: char| c.is_whitespace() || c == '(').next().unwrap().to_string())
        .collect()
}

async fn table_counts(app: &TestApp) -> BTreeMap<String, i64> {
    let sql = match app.engine() {
        Engine::Sqlite => {
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations'"
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

#[tokio::test]
async fn reapplying_the_seed_is_idempotent_and_leaves_visitor_data_alone() {
    let app = app().await;
    // Stands for any visitors' table (messages, orders, submissions...).
    app.exec("CREATE TABLE visitor_notes (id TEXT PRIMARY KEY, note TEXT NOT NULL)").await;
    app.exec("INSERT INTO visitor_notes (id, note) VALUES ('n1', 'kept across seeds')").await;

    let before = table_counts(&app).await;
    conference::db::seed(&app.pool).await.expect("seed re-applies");
    conference::db::seed(&app.pool).await.expect("seed re-applies twice");
    let after = table_counts(&app).await;
    assert_eq!(before, after, "the same rows after seeding again");

    let (note,): (String,) = sqlx::query_as("SELECT note FROM visitor_notes").fetch_one(&app.pool).await.unwrap();
    assert_eq!(note, "kept across seeds");
    let (status, _, _) = app.get("/").await;
    assert_eq!(status, StatusCode::OK, "the site works after re-seeding");
}

#[tokio::test]
async fn the_seed_only_deletes_content_tables() {
    let content = content_tables();
    assert!(content.contains("site") && content.contains("dates"), "content tables read from the migration");
    let deleted: BTreeSet<String> = conference::db::CONTENT_SEED
        .lines()
        .filter_map(|l| l.trim().strip_prefix("DELETE FROM "))
        .map(|rest| rest.trim_end_matches(';').trim().to_string())
        .collect();
    assert!(!deleted.is_empty());
    let foreign: Vec<&String> = deleted.difference(&content).collect();
    assert!(foreign.is_empty(), "the seed deletes only content tables, not {foreign:?}");
    for statement in ["DROP ", "TRUNCATE "] {
        assert!(
            !conference::db::CONTENT_SEED.lines().any(|l| l.trim_start().to_uppercase().starts_with(statement)),
            "the seed has no {statement}statement"
        );
    }
}

#[tokio::test]
async fn the_seed_holds_the_content_the_spec_requires() {
    let app = app().await;
    let pool = &app.pool;

    let (groups,): (i64,) =
        sqlx::query_as("SELECT COUNT(DISTINCT committee) FROM committee").fetch_one(pool).await.unwrap();
    assert_eq!(groups, 4, "four committee groups");
    let (categories,): (i64,) =
        sqlx::query_as("SELECT COUNT(DISTINCT category) FROM speakers").fetch_one(pool).await.unwrap();
    assert_eq!(categories, 3, "three speaker categories");

    let plans: BTreeMap<String, (i64, String)> =
        content::ticket_plans(pool).await.unwrap().into_iter().map(|p| (p.id, (p.price_cents, p.currency))).collect();
    let usd = |cents: i64| (cents, "USD".to_string());
    assert_eq!(
        plans,
        BTreeMap::from([
            ("presenter-virtual".to_string(), usd(21900)),
            ("presenter-physical".to_string(), usd(31900)),
            ("listener-virtual".to_string(), usd(9900)),
            ("listener-physical".to_string(), usd(19900)),
        ]),
        "four ticket plans, prices in cents"
    );

    let packages: Vec<(String, i64)> =
        content::sponsor_packages(pool).await.unwrap().into_iter().map(|p| (p.id, p.price_cents)).collect();
    assert_eq!(
        packages,
        [
            ("platinum".to_string(), 1_500_000),
            ("diamond".to_string(), 1_200_000),
            ("gold".to_string(), 1_000_000),
            ("silver".to_string(), 750_000)
        ],
        "four sponsor packages, prices in cents"
    );

    let slugs: Vec<String> = content::highlights(pool).await.unwrap().into_iter().map(|h| h.slug).collect();
    assert_eq!(slugs, crate::common::HIGHLIGHT_SLUGS);
    assert_eq!(app.count("awards").await, 6, "six awards");
    assert_eq!(content::awards(pool, "main").await.unwrap().len(), 3);
    assert_eq!(content::awards(pool, "sustainability").await.unwrap().len(), 3);
    assert_eq!(app.count("goals").await, 5, "five goals");
    assert_eq!(app.count("objectives").await, 4, "four objectives");
    assert_eq!(app.count("faqs").await, 4, "four FAQ questions");
    assert_eq!(app.count("attractions").await, 4, "four attractions");
    assert_eq!(app.count("policies").await, 4, "four policies");
    assert_eq!(app.count("site").await, 1, "one site settings row");
    assert_eq!(content::about_items(pool, "registration_step").await.unwrap().len(), 5, "five registration steps");

    let site = content::site(pool).await.unwrap();
    assert_eq!((site.start_date.as_str(), site.end_date.as_str()), ("2025-03-21", "2025-03-23"));
    assert_eq!(site.countdown_target, "2025-03-21T00:00:00+08:00");
    assert_eq!(site.paper_due_date, "2025-03-18");
    assert_eq!(site.city, "Manila");
}

#[tokio::test]
async fn every_image_the_content_names_exists() {
    let app = app().await;
    let pool = &app.pool;
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
    assert!(images.len() > 40);
    let missing: Vec<&String> =
        images.iter().filter(|path| !(path.starts_with("/static/") && static_exists(path))).collect();
    assert!(missing.is_empty(), "images named by content rows but missing under static/: {missing:?}");
    for path in images.iter().take(5) {
        let (status, _, _) = app.get(path).await;
        assert_eq!(status, StatusCode::OK, "{path} is served");
    }
}

#[tokio::test]
async fn every_download_button_has_its_file() {
    let app = app().await;
    let materials = content::materials(&app.pool).await.unwrap();
    assert!(!materials.is_empty());
    for material in materials {
        let path = format!("/api/files/download_buttons/{}/{}", material.id, material.link);
        let reply = app.request(&path, &[]).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert!(!reply.body.is_empty());
    }
}
