//! `conference edition seed` (issue 43 item 1, DESIGN.md section 17): the next edition's seed
//! drafted from the fixture's, through the built binary. Every date moves, the edition's year
//! changes in the site's names, the old year's other mentions are listed on stderr, the draft
//! passes `seed --check`, and the database is not touched; bad input writes nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use conference::seed::literals::literals;

use crate::common::{self, TestApp, fixture};

/// `conference edition seed --from <fixture> ARGS` with the app's database and data folder.
fn edition_seed(app: &TestApp, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["edition", "seed", "--from"])
        .arg(fixture::path())
        .args(args)
        .current_dir(app.dir.path())
        .env("DATA_DIR", app.dir.path())
        .env("DATABASE_URL", app.database_url())
        .env("RUST_LOG", "error")
        .output()
        .expect("the binary runs")
}

fn out_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn err_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The value the seed `sql` leaves in `table`.`column` of `row` (the last assignment wins).
fn value(sql: &str, table: &str, row: &str, column: &str) -> String {
    literals(sql)
        .into_iter()
        .rev()
        .find(|l| l.table == table && l.row == row && l.column == column)
        .unwrap_or_else(|| panic!("{table} {row} {column} in the draft"))
        .value
}

/// What the app's database holds of the content and visitors' data: the site row, the
/// content version, and the row counts.
async fn state(app: &TestApp) -> (String, String, i64, Vec<i64>) {
    let (name, start): (String, String) =
        sqlx::query_as("SELECT short_name, start_date FROM site").fetch_one(&app.pool).await.unwrap();
    let version = conference::db::content_version(&app.pool).await.unwrap();
    let mut counts = Vec::new();
    for table in ["dates", "sessions", "settings", "audit_log"] {
        counts.push(app.count(table).await);
    }
    (name, start, version, counts)
}

#[tokio::test]
async fn the_draft_moves_every_date_renames_the_edition_and_passes_the_seed_check() {
    let app = common::app().await;
    let before = state(&app).await;
    let out = app.dir.path().join("next.sql");
    // 19 March 2027 is 728 days (104 weeks) after 21 March 2025: the same weekday.
    let output = edition_seed(&app, &["--start", "2027-03-19", "--out", arg(&out)]);
    assert!(output.status.success(), "{}{}", out_of(&output), err_of(&output));
    let printed = out_of(&output);
    assert!(printed.contains("moved by 728 days (2025-03-21 -> 2027-03-19)"), "{printed}");
    assert!(printed.contains("renamed \"FIXCON 2025\" -> \"FIXCON 2027\""), "{printed}");

    let draft = std::fs::read_to_string(&out).unwrap();
    let site = |column: &str| value(&draft, "site", "1", column);
    assert_eq!(site("start_date"), "2027-03-19");
    assert_eq!(site("end_date"), "2027-03-21");
    assert_eq!(site("countdown_target"), "2027-03-19T00:00:00+08:00", "the clock time and offset stay");
    assert_eq!(site("utc_offset"), "+08:00");
    assert_eq!(site("paper_due_date"), "2101-03-16");
    assert_eq!(site("registration_closes"), "2101-12-29");
    assert_eq!(site("attendee_changes_until"), "2027-03-12 23:59");
    assert_eq!(site("review_deadline"), fixture::REVIEW_DEADLINE.replace("2025-03-03", "2027-03-01"));
    assert_eq!(site("short_name"), "FIXCON 2027");
    assert_eq!(site("name"), fixture::NAME, "a name without the year stays");
    let timeline: Vec<String> =
        literals(&draft).into_iter().filter(|l| l.table == "dates" && l.column == "date").map(|l| l.value).collect();
    assert_eq!(timeline.first().map(String::as_str), Some("2027-02-26"), "28 February 2025 moved by 728 days");
    assert_eq!(timeline.last().map(String::as_str), Some("2027-03-21"));
    assert!(timeline.len() > 2 && timeline.iter().all(|date| date.starts_with("2027-")), "{timeline:?}");
    let sessions: Vec<String> = literals(&draft)
        .into_iter()
        .filter(|l| l.table == "sessions" && l.column == "starts_at")
        .map(|l| l.value)
        .collect();
    assert!(!sessions.is_empty() && sessions.iter().all(|at| at.starts_with("2027-03-")), "{sessions:?}");
    assert!(draft.contains("-- The calendar (issue 42"), "the seed's comments stay");

    // Each remaining mention of 2025, on stderr, by table, row and field.
    let listed = err_of(&output);
    assert!(listed.contains("2025 remains in table site, row 1, field description: "), "{listed}");
    assert!(listed.contains("2025 remains in table site, row 1, field cancellation_summary: "), "{listed}");
    assert!(!listed.contains("field start_date") && !listed.contains("field short_name"), "{listed}");
    for line in listed.lines() {
        assert!(line.starts_with("2025 remains in table "), "only mentions on stderr: {line}");
    }
    assert!(printed.contains(&format!("{} mention(s) of 2025 remain", listed.lines().count())), "{printed}");

    // The draft passes the seed check, and nothing in the database changed.
    let check = Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["seed", "--check", "--file"])
        .arg(&out)
        .env("DATA_DIR", app.dir.path())
        .env("DATABASE_URL", app.database_url())
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    assert!(check.status.success(), "{}{}", out_of(&check), err_of(&check));
    assert!(out_of(&check).contains("every page renders"), "{}", out_of(&check));
    assert_eq!(state(&app).await, before, "the database is not touched");
}

#[tokio::test]
async fn no_database_is_needed_or_created() {
    let app = common::app().await;
    let out = app.dir.path().join("next.sql");
    let missing = app.dir.path().join("nowhere").join("conference.db");
    let output = Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["edition", "seed", "--from"])
        .arg(fixture::path())
        .args(["--start", "2026-03-20", "--out", arg(&out)])
        .env("DATA_DIR", app.dir.path())
        .env("DATABASE_URL", format!("sqlite://{}", missing.display()))
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", err_of(&output));
    assert!(out.is_file());
    assert!(!missing.exists() && !missing.parent().unwrap().exists(), "no database file was made");
}

#[tokio::test]
async fn bad_input_is_refused_with_a_clear_message_and_nothing_is_written() {
    let app = common::app().await;
    let before = state(&app).await;
    let out = app.dir.path().join("next.sql");
    let refused = |args: &[&str], says: &str| {
        let output = edition_seed(&app, args);
        assert!(!output.status.success(), "{args:?} is refused");
        let message = err_of(&output);
        assert!(message.contains(says), "{args:?}: {message}");
        assert!(message.contains("nothing was written"), "{args:?}: {message}");
    };
    for bad in ["2027-02-29", "19/03/2027", "next year", ""] {
        refused(&["--start", bad, "--out", arg(&out)], "is not a date: write it as YYYY-MM-DD");
    }
    // The fixture's conference is 21-23 March 2025: the next starts after the 23rd.
    for early in ["2025-03-23", "2025-03-21", "2024-01-01"] {
        refused(&["--start", early, "--out", arg(&out)], "is not after the current edition, which ends on 2025-03-23");
    }
    assert!(!out.exists(), "nothing was written");

    let folder_missing = app.dir.path().join("no-such-folder").join("next.sql");
    refused(&["--start", "2027-03-19", "--out", arg(&folder_missing)], "cannot write --out");
    refused(&["--start", "2027-03-19", "--out", arg(app.dir.path())], "it is a folder");

    // The seed in force is never overwritten: the file drafted from, or the one `conference
    // seed` applies in this folder.
    let in_force = app.dir.path().join("migrations/seed/content.sql");
    std::fs::create_dir_all(in_force.parent().unwrap()).unwrap();
    std::fs::write(&in_force, fixture::SEED).unwrap();
    refused(&["--start", "2027-03-19", "--out", "migrations/seed/content.sql"], "is the seed in force");
    refused(&["--start", "2027-03-19", "--out", "./migrations/../migrations/seed/content.sql"], "is the seed in force");
    assert_eq!(std::fs::read_to_string(&in_force).unwrap(), fixture::SEED);
    let copy: PathBuf = app.dir.path().join("copy.sql");
    std::fs::write(&copy, fixture::SEED).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["edition", "seed", "--from", arg(&copy), "--start", "2027-03-19", "--out", arg(&copy)])
        .env("DATABASE_URL", app.database_url())
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(err_of(&output).contains("is the seed in force"), "{}", err_of(&output));
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), fixture::SEED, "the source is untouched");

    let missing = app.dir.path().join("missing.sql");
    let output = Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["edition", "seed", "--from", arg(&missing), "--start", "2027-03-19", "--out", arg(&out)])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(err_of(&output).contains("does not exist; nothing was written"), "{}", err_of(&output));
    assert!(!out.exists(), "nothing was written");
    assert_eq!(state(&app).await, before, "the database is not touched");
}
