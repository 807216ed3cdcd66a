//! `conference seed --check` (issue 22, DESIGN.md section 13): what an edited seed would
//! change, and which page it would break, reported before it goes live; nothing committed.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::{self, TestApp, fixture};

/// `conference seed --check --file SEED` against the app's database.
fn check(app: &TestApp, seed: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["seed", "--check", "--file"])
        .arg(seed)
        .env("DATA_DIR", app.dir.path())
        .env("DATABASE_URL", app.database_url())
        .env("RUST_LOG", "error")
        .output()
        .expect("the binary runs")
}

/// The fixture seed with `edit` applied, written to a file in the app's folder.
fn edited(app: &TestApp, name: &str, edit: impl FnOnce(&str) -> String) -> std::path::PathBuf {
    let path = app.dir.path().join(name);
    std::fs::write(&path, edit(fixture::SEED)).unwrap();
    path
}

/// `sql` without its `INSERT INTO table` statements.
fn without_inserts(sql: &str, table: &str) -> String {
    let insert = format!("INSERT INTO {table}");
    let kept: Vec<&str> = conference::cli::seed_check::statements(sql)
        .into_iter()
        .map(|(_, statement)| statement)
        .filter(|statement| !statement.starts_with(&insert))
        .collect();
    kept.join("\n")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

async fn site_name(app: &TestApp) -> String {
    let (name,): (String,) = sqlx::query_as("SELECT name FROM site").fetch_one(&app.pool).await.unwrap();
    name
}

#[tokio::test]
async fn a_good_seed_lists_the_site_fields_it_changes_and_commits_nothing() {
    let app = common::app().await;
    let version = conference::db::content_version(&app.pool).await.unwrap();
    let seed = edited(&app, "renamed.sql", |sql| sql.replacen(fixture::NAME, "Renamed Symposium", 1));
    let output = check(&app, &seed);
    assert!(output.status.success(), "{}{}", stdout(&output), stderr(&output));
    let printed = stdout(&output);
    assert!(printed.contains("site "), "{printed}");
    assert!(printed.contains("0 added, 0 removed, 1 changed"), "{printed}");
    assert!(printed.contains(&format!("site.name: {:?} -> \"Renamed Symposium\"", fixture::NAME)), "{printed}");
    assert!(printed.contains("every page renders"), "{printed}");
    assert_eq!(site_name(&app).await, fixture::NAME, "nothing was committed");
    assert_eq!(conference::db::content_version(&app.pool).await.unwrap(), version, "no reload was triggered");

    // The seed already applied changes nothing.
    let same = check(&app, &fixture::path());
    assert!(same.status.success(), "{}", stderr(&same));
    assert!(stdout(&same).contains("no row would change"), "{}", stdout(&same));
}

#[tokio::test]
async fn an_sql_error_is_reported_with_its_line_and_a_failing_status() {
    let app = common::app().await;
    let members = app.count("committee").await;
    let marker = "INSERT INTO committee (";
    let line = fixture::SEED.lines().position(|l| l.starts_with(marker)).expect("the committee's INSERT") + 1;
    let seed = edited(&app, "broken.sql", |sql| sql.replacen(marker, "INSERTT INTO committee (", 1));
    let output = check(&app, &seed);
    assert!(!output.status.success(), "a broken seed fails the check: {}", stdout(&output));
    let said = stderr(&output);
    assert!(said.contains(&format!("broken.sql:{line}:1: ")), "line {line}, column 1 is named: {said}");
    assert!(said.contains("INSERTT"), "the engine's message is shown: {said}");
    assert!(said.contains("nothing was changed"), "{said}");
    assert_eq!(app.count("committee").await, members, "the committee is untouched");
}

/// The fixture seed followed by a 12-row `INSERT INTO faqs` with `line` written after its
/// sixth row (or, when `line` starts with `(`, in place of it), in a file of the app's folder;
/// with the 1-based line of the seed file where that INSERT starts and where `line` is.
fn with_long_insert(app: &TestApp, name: &str, line: &str) -> (std::path::PathBuf, usize, usize) {
    let mut rows: Vec<String> = (1..=12)
        .map(|i| {
            format!("  ({}, 'Question {i}?', 'Answer {i}.', {}){}", 1000 + i, 100 + i, if i == 12 { ";" } else { "," })
        })
        .collect();
    if line.trim_start().starts_with('(') {
        rows[5] = line.to_owned();
    } else {
        rows.insert(6, line.to_owned());
    }
    let head = format!("{}\n\n-- Twelve more questions.\n", fixture::SEED.trim_end());
    let start = head.lines().count() + 1;
    let sql = format!("{head}INSERT INTO faqs (id, question, answer, position) VALUES\n{}\n", rows.join("\n"));
    let at = sql.lines().position(|l| l == line).expect("the line is in the seed") + 1;
    let path = app.dir.path().join(name);
    std::fs::write(&path, sql).unwrap();
    (path, start, at)
}

#[tokio::test]
async fn a_stray_line_inside_a_long_multi_row_insert_is_named_by_its_line_and_column() {
    let app = common::app().await;
    let questions = app.count("faqs").await;
    let (seed, start, line) = with_long_insert(&app, "stray.sql", "    INSERT");
    assert_eq!(line, start + 7, "the stray line is deep inside the statement");
    let output = check(&app, &seed);
    assert!(!output.status.success(), "a broken seed fails the check: {}", stdout(&output));
    let said = stderr(&output);
    // Column 5: after the four blanks; not the statement's first line, nor its column 1.
    assert!(said.contains(&format!("stray.sql:{line}:5: ")), "line {line}, column 5 is named: {said}");
    assert!(said.contains("INSERT"), "the engine's message is shown: {said}");
    assert!(said.contains("nothing was changed"), "{said}");
    assert_eq!(app.count("faqs").await, questions, "the questions are untouched");
}

#[tokio::test]
async fn an_unknown_column_in_a_row_of_a_long_insert_is_named_by_its_line_and_column() {
    let app = common::app().await;
    // Not a syntax error: SQLite names no token in its message, only its error offset does.
    let row = "  (1006, 'Question 6?', answr, 106),";
    let (seed, start, line) = with_long_insert(&app, "column.sql", row);
    assert_eq!(line, start + 6);
    let column = row.find("answr").unwrap() + 1;
    let output = check(&app, &seed);
    assert!(!output.status.success(), "a broken seed fails the check: {}", stdout(&output));
    let said = stderr(&output);
    assert!(said.contains(&format!("column.sql:{line}:{column}: ")), "line {line}, column {column} is named: {said}");
    assert!(said.contains("answr"), "the engine's message is shown: {said}");
}

#[tokio::test]
async fn a_seed_that_empties_the_committee_is_a_change_and_the_page_still_renders() {
    let app = common::app().await;
    let members = app.count("committee").await;
    assert!(members > 0, "the fixture has a committee");
    let seed = edited(&app, "no-committee.sql", |sql| without_inserts(sql, "committee"));
    let output = check(&app, &seed);
    assert!(output.status.success(), "{}{}", stdout(&output), stderr(&output));
    let printed = stdout(&output);
    assert!(printed.contains(&format!("0 added, {members} removed, 0 changed")), "{printed}");
    assert!(printed.lines().any(|l| l.starts_with("committee ")), "{printed}");
    assert!(printed.contains("every page renders"), "{printed}");
    assert_eq!(app.count("committee").await, members, "nothing was committed");
}

#[tokio::test]
async fn a_seed_that_breaks_a_page_fails_the_check_naming_the_page() {
    let app = common::app().await;
    // Without the site settings no page can render.
    let seed = edited(&app, "no-site.sql", |sql| without_inserts(sql, "site"));
    let output = check(&app, &seed);
    assert!(!output.status.success(), "{}", stdout(&output));
    let printed = stdout(&output);
    assert!(printed.contains("page /committee: answers 5"), "{printed}");
    assert!(stderr(&output).contains("would break with this seed"), "{}", stderr(&output));
    assert_eq!(site_name(&app).await, fixture::NAME, "nothing was committed");
}

#[tokio::test]
async fn a_decision_template_with_an_unknown_placeholder_fails_the_check_naming_its_line() {
    let app = common::app().await;
    let marker = "Your {paper_type} \"{title}\"";
    let line = fixture::SEED.lines().position(|l| l.starts_with(marker)).expect("the acceptance mail's line") + 1;
    let seed = edited(&app, "template.sql", |sql| sql.replacen(marker, "Your {paper_type} \"{titel}\"", 1));
    let output = check(&app, &seed);
    assert!(!output.status.success(), "an unknown placeholder fails the check: {}", stdout(&output));
    let said = stderr(&output);
    assert!(said.contains(&format!("template.sql: line {line}:")), "line {line} is named: {said}");
    assert!(said.contains("{titel}"), "the unknown name is shown: {said}");
}

/// The programme's rules (issue 31 item 1): `seed --check` fails naming the problem, and
/// `seed` itself refuses the same seed, changing nothing.
async fn refused(file: &str, edit: impl FnOnce(&str) -> String, says: &[&str]) {
    let app = common::app().await;
    let seed = edited(&app, file, edit);
    let output = check(&app, &seed);
    assert!(!output.status.success(), "the check fails: {}", stdout(&output));
    let said = stderr(&output);
    for words in says {
        assert!(said.contains(words), "{words:?} in {said}");
    }
    assert!(said.contains("nothing was changed"), "{said}");
    let version = conference::db::content_version(&app.pool).await.unwrap();
    let err = conference::seed::apply::seed_with(&app.pool, std::fs::read_to_string(&seed).unwrap()).await.unwrap_err();
    assert!(matches!(err, conference::seed::apply::SeedError::Programme(_)), "seed refuses it too: {err}");
    assert_eq!(conference::db::content_version(&app.pool).await.unwrap(), version, "nothing was applied");
    assert_eq!(site_name(&app).await, fixture::NAME);
}

#[tokio::test]
async fn an_unknown_time_zone_is_refused() {
    let zone = format!("'{}'", fixture::TIME_ZONE);
    refused(
        "zone.sql",
        |sql| sql.replacen(&zone, "'Asia/Atlantis'", 1),
        &["zone.sql: site.time_zone:", "\"Asia/Atlantis\" is not a time zone known to the tz database"],
    )
    .await;
}

#[tokio::test]
async fn a_session_that_ends_before_it_starts_is_refused_by_name() {
    refused(
        "ends.sql",
        |sql| {
            sql.replacen(
                "'lantern-hall', '2025-03-21 09:00', '2025-03-21 10:00'",
                "'lantern-hall', '2025-03-21 09:00', '2025-03-21 08:30'",
                1,
            )
        },
        &["session fixture-opening ends at 2025-03-21 08:30, which is not after it starts (2025-03-21 09:00)"],
    )
    .await;
}

#[tokio::test]
async fn a_room_used_twice_at_once_is_refused_naming_both_sessions() {
    refused(
        "room.sql",
        |sql| sql.replacen("'lantern-studies', 'tide-room-b'", "'lantern-studies', 'tide-room-a'", 1),
        &[
            "room tide-room-a is used twice at once: session session-a (2025-03-22 09:00 to 2025-03-22 12:00) and session session-b (2025-03-22 09:00 to 2025-03-22 12:00)",
        ],
    )
    .await;
}

/// Values that apply but would print wrong (issue 40 item 5): `seed --check` fails naming each
/// one and the value to change, and commits nothing. What it said.
async fn named_wrong(file: &str, edit: impl FnOnce(&str) -> String, says: &[&str]) -> String {
    let app = common::app().await;
    let seed = edited(&app, file, edit);
    let output = check(&app, &seed);
    assert!(!output.status.success(), "the check fails: {}", stdout(&output));
    let said = stderr(&output);
    for words in says {
        assert!(said.contains(words), "{words:?} in {said}");
    }
    assert!(said.contains("nothing was changed"), "{said}");
    assert_eq!(site_name(&app).await, fixture::NAME, "nothing was committed");
    said
}

#[tokio::test]
async fn a_utc_offset_that_is_not_the_time_zones_fails_the_check_naming_the_offset_to_write() {
    let zone = format!("'{}',\n    '+08:00',", fixture::TIME_ZONE);
    assert!(fixture::SEED.contains(&zone), "the fixture gives {} and +08:00", fixture::TIME_ZONE);
    named_wrong(
        "offset.sql",
        |sql| sql.replacen(&zone, &format!("'{}',\n    '+07:00',", fixture::TIME_ZONE), 1),
        &[&format!(
            "offset.sql: site.utc_offset is \"+07:00\", but site.time_zone {} is +08:00 on the conference's first day (2025-03-21); change site.utc_offset to \"+08:00\"",
            fixture::TIME_ZONE
        )],
    )
    .await;
}

#[tokio::test]
async fn a_missing_signature_image_fails_the_check_naming_the_signatory_and_the_path() {
    let row = format!("(1, '{}', 'Symposium Chair', 'chair.png')", fixture::CHAIR);
    assert!(fixture::SEED.contains(&row), "the fixture's chair signs with chair.png");
    named_wrong(
        "signature.sql",
        |sql| sql.replacen(&row, &format!("(1, '{}', 'Symposium Chair', 'chiar.png')", fixture::CHAIR), 1),
        &[&format!(
            "signature.sql: certificate signatory 1 ({}): its signature image seed/signatures/chiar.png is missing",
            fixture::CHAIR
        )],
    )
    .await;
}

#[tokio::test]
async fn every_wrong_value_is_named_at_once_one_a_line() {
    let zone = format!("'{}',\n    '+08:00',", fixture::TIME_ZONE);
    let row = format!("(1, '{}', 'Symposium Chair', 'chair.png')", fixture::CHAIR);
    let said = named_wrong(
        "both.sql",
        |sql| {
            sql.replacen(&zone, &format!("'{}',\n    '8',", fixture::TIME_ZONE), 1).replacen(
                &row,
                &format!("(1, '{}', 'Symposium Chair', 'missing/chair.png')", fixture::CHAIR),
                1,
            )
        },
        &[
            "both.sql: site.utc_offset \"8\" is not an offset written ±HH:MM",
            &format!(
                "both.sql: certificate signatory 1 ({}): its signature image seed/signatures/missing/chair.png is missing",
                fixture::CHAIR
            ),
        ],
    )
    .await;
    let named: Vec<&str> = said.lines().filter(|line| line.contains("both.sql: ")).collect();
    assert_eq!(named.len(), 2, "one line each: {said}");
}

#[tokio::test]
async fn the_production_seeds_offset_and_signature_images_pass_the_check() {
    let app = common::app().await;
    match conference::cli::seed_check::diff(&app.pool, conference::seed::apply::CONTENT_SEED).await {
        Ok(_) => {}
        Err(err) => panic!("migrations/seed/content.sql: {err}"),
    }
}
