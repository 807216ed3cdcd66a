//! Content in memory (issue 9, DESIGN.md section 10): `conference seed` run by another
//! process shows up without a restart, a broken seed leaves the last good content served,
//! and a page request reads no SQL.

use std::time::{Duration, Instant};

use axum::http::StatusCode;

use crate::common::html::{parse, text};
use crate::common::{PAGES, TestApp, app, excerpt, fixture};

/// The member renamed, the highlight re-slugged: visible in /committee, the collections API
/// and the sitemap.
const OLD_NAME: &str = fixture::CHAIR;
const NEW_NAME: &str = "Prof. Juana Live-Update";
const OLD_SLUG: &str = "smart-future-technologies";
const NEW_SLUG: &str = "smart-future-live";

/// Runs the built binary's `seed --file` on `sql` against the app's database, as an
/// organiser would from a shell while the site serves. Returns whether it succeeded.
async fn seed_from_another_process(app: &TestApp, sql: &str) -> bool {
    let file = app.dir.path().join("edited-content.sql");
    std::fs::write(&file, sql).expect("seed copy written");
    seed_file(app, &file).await.status.success()
}

/// The built binary's `seed --file <file>` on the app's database; its exit status and output.
async fn seed_file(app: &TestApp, file: &std::path::Path) -> std::process::Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["seed", "--file"])
        .arg(file)
        .env("DATABASE_URL", app.database_url())
        .env("DATA_DIR", app.dir.path())
        .env("RUST_LOG", "warn")
        .kill_on_drop(true)
        .output()
        .await
        .expect("the conference binary runs")
}

fn edited_seed() -> String {
    let seed = fixture::SEED;
    assert!(seed.contains(OLD_NAME) && seed.contains(&format!("'{OLD_SLUG}'")), "the seed has what the test edits");
    seed.replace(OLD_NAME, NEW_NAME).replace(&format!("'{OLD_SLUG}'"), &format!("'{NEW_SLUG}'"))
}

/// What the site shows of the edit: (committee page, collections API, sitemap) have the new
/// content and not the old.
async fn shows_new_content(app: &TestApp) -> (bool, bool, bool) {
    let committee = app.page("/committee").await;
    let (_, _, api) = app.get("/api/collections/committee/records?perPage=500").await;
    let (_, _, sitemap) = app.get("/sitemap.xml").await;
    (
        committee.contains(NEW_NAME) && !committee.contains(OLD_NAME),
        api.contains(NEW_NAME) && !api.contains(OLD_NAME),
        sitemap.contains(&format!("/highlights/{NEW_SLUG}<")) && !sitemap.contains(&format!("/highlights/{OLD_SLUG}<")),
    )
}

#[tokio::test]
async fn a_seed_from_another_process_shows_in_pages_api_and_sitemap_within_two_seconds() {
    let app = app().await;
    assert_eq!(shows_new_content(&app).await, (false, false, false), "the old content is served first");
    assert!(app.page("/committee").await.contains(OLD_NAME));

    assert!(seed_from_another_process(&app, &edited_seed()).await, "the edited seed applies");
    let seeded = Instant::now();
    let mut seen = shows_new_content(&app).await;
    while seen != (true, true, true) && seeded.elapsed() < Duration::from_secs(2) {
        tokio::time::sleep(Duration::from_millis(50)).await;
        seen = shows_new_content(&app).await;
    }
    assert_eq!(seen, (true, true, true), "page, collections API and sitemap show the seed within 2 s");
    let (status, _, _) = app.get(&format!("/highlights/{NEW_SLUG}")).await;
    assert_eq!(status, StatusCode::OK, "the new highlight address answers");
    let (status, _, _) = app.get(&format!("/highlights/{OLD_SLUG}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "the old one is gone");
}

#[tokio::test]
async fn a_seed_file_with_an_error_changes_nothing_and_the_site_keeps_its_content() {
    let app = app().await;
    let before = app.page("/committee").await;
    let version = conference::db::content_version(&app.pool).await.unwrap();
    // The edit is there, then a statement that fails: the whole seed rolls back.
    let broken = format!("{}\nINSERT INTO no_such_table VALUES (1);\n", edited_seed());
    assert!(!seed_from_another_process(&app, &broken).await, "a broken seed file fails");
    assert_eq!(conference::db::content_version(&app.pool).await.unwrap(), version, "no new content version");
    let deadline = Instant::now() + Duration::from_millis(2500);
    while Instant::now() < deadline {
        assert_eq!(shows_new_content(&app).await, (false, false, false), "nothing of the broken seed shows");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert_eq!(app.page("/committee").await, before, "the same page, byte for byte");
}

#[tokio::test]
async fn a_seed_file_that_does_not_exist_is_an_error_and_applies_no_other_seed() {
    let app = app().await;
    let version = conference::db::content_version(&app.pool).await.unwrap();
    let output = seed_file(&app, &app.dir.path().join("contnet.sql")).await;
    assert!(!output.status.success(), "a mistyped seed path fails");
    // The log line (tracing writes to stdout) names the file.
    let said = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(said.contains("contnet.sql does not exist; nothing was changed"), "it names the file: {said}");
    assert_eq!(conference::db::content_version(&app.pool).await.unwrap(), version, "no seed was applied");
    assert!(app.page("/committee").await.contains(OLD_NAME), "the fixture's content is still served");
}

#[tokio::test]
async fn content_that_cannot_be_loaded_after_a_seed_leaves_the_last_good_content_served() {
    let app = app().await;
    let home = app.page("/").await;
    assert!(text(&parse(&home)).contains("Lanterns Lit"), "statistics are shown");
    // A seed that commits but leaves the content unreadable: the server cannot build a
    // complete snapshot of that version, so it keeps serving the last one it had.
    let breaking = format!("{}\nDROP TABLE statistics;\n", edited_seed());
    assert!(seed_from_another_process(&app, &breaking).await, "the seed itself commits");
    let deadline = Instant::now() + Duration::from_millis(2500);
    while Instant::now() < deadline {
        let page = app.page("/").await;
        assert!(text(&parse(&page)).contains("Lanterns Lit"), "statistics are still shown");
        assert_eq!(shows_new_content(&app).await, (false, false, false), "no half-loaded version shows");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Content tables: those the content migration and the programme's (0016, which dropped
/// `schedule`) create.
fn content_tables() -> Vec<String> {
    let sql = concat!(
        include_str!("../migrations/sqlite/0001_content.sql"),
        include_str!("../migrations/sqlite/0016_programme.sql")
    );
    let dropped: Vec<&str> =
        sql.lines().filter_map(|l| l.trim().strip_prefix("DROP TABLE ")).map(|t| t.trim_end_matches(';')).collect();
    sql.lines()
        .filter_map(|l| l.trim().strip_prefix("CREATE TABLE "))
        .map(|rest| rest.split(|c: char| c.is_whitespace() || c == '(').next().unwrap().to_string())
        .filter(|table| !dropped.contains(&table.as_str()))
        .collect()
}

#[tokio::test]
async fn requests_read_no_sql_once_the_content_is_loaded() {
    let app = app().await;
    let paths = app.page_paths().await;
    let mut before = Vec::new();
    for (path, _) in &paths {
        before.push(app.page(path).await);
    }
    // Every content table out of reach: any query for content would now fail.
    let tables = content_tables();
    assert!(tables.len() > 20, "content tables read from the migration: {tables:?}");
    for table in &tables {
        app.exec(&format!("ALTER TABLE {table} RENAME TO {table}_gone")).await;
    }
    for ((path, _), before) in paths.iter().zip(&before) {
        let page = app.page(path).await;
        // /Success and /Failed read orders, which stay; every other page is the same bytes.
        if !path.starts_with("/Success") && path != "/Failed" {
            assert_eq!(&page, before, "{path} is served from memory");
        }
        assert!(!page.contains("Failed to load") && !page.contains("Error: "), "{path}: {}", excerpt(&page));
    }
    for name in crate::common::COLLECTIONS {
        let (status, json) = app.json(&format!("/api/collections/{name}/records?sort=-created")).await;
        assert_eq!(status, StatusCode::OK, "{name}");
        assert!(json["totalItems"].as_i64().unwrap() > 0, "{name} lists its records");
    }
    let (status, _, sitemap) = app.get("/sitemap.xml").await;
    assert_eq!(status, StatusCode::OK);
    assert!(sitemap.contains("/highlights/"));
    let (status, _, calendar) = app.get("/calendar.ics").await;
    assert_eq!(status, StatusCode::OK);
    assert!(calendar.contains("Conference Day 1"));
    let (status, _, not_found) = app.get("/no-such-page").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(not_found.contains("Oops! Page Not Found"), "the 404 page keeps its layout");
    assert_eq!(PAGES.len(), paths.len());
}
