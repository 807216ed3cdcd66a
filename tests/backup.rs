//! Backups (issue 22, DESIGN.md section 13): `conference backup` of a site in use restores
//! every row committed before it started, papers byte for byte; a damaged or newer archive is
//! refused; a restore never lands on a database or data folder in use unless told to; and a
//! site moves between SQLite and PostgreSQL unchanged.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use sqlx::{Row, ValueRef as _};
use time::OffsetDateTime;

use conference::backup::{self, BackupError, restore, take, verify};
use conference::clock::Clock;
use conference::config::Config;
use conference::db::{Engine, Pool};
use conference::handlers::state::AppState;

use crate::api_submission::{Form, pdf_of_size, submit};
use crate::common::{self, TestApp, database, fixture};
use crate::crash;

/// A site on SQLite whatever engine the run tests (the start of the cross-engine trip).
async fn sqlite_app() -> TestApp {
    let dir = tempfile::tempdir().expect("temporary folder");
    let url = format!("sqlite://{}/conference.db", dir.path().display());
    let pool = conference::db::connect(&url).await.expect("database connects");
    conference::db::migrate(&pool).await.expect("migrations apply");
    fixture::seed(&pool).await.expect("the fixture seed applies");
    let mut config = Config::for_tests(dir.path().to_path_buf());
    config.database_url = url;
    let state = AppState::new(pool.clone(), config.clone()).with_clock(Clock::system());
    TestApp { router: conference::app(state.clone()), pool, dir, config, state, postgres: None }
}

/// Papers (each of its own size, so its own bytes), messages and a subscriber, sent as
/// visitors send them. The papers by reference.
async fn fill(app: &TestApp, papers: usize) -> BTreeMap<String, Vec<u8>> {
    let mut sent = BTreeMap::new();
    for i in 0..papers {
        let pdf = pdf_of_size(4_000 + 1_237 * i);
        let form = Form::fields_only().with("email", &format!("author{i}@example.org")).file(
            "paper.pdf",
            "application/pdf",
            pdf.clone(),
        );
        let (status, answer) = submit(app, &form).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        sent.insert(answer["reference"].as_str().expect("a reference").to_owned(), pdf);
    }
    for i in 0..3 {
        let (status, answer) = app.post_json("/api/contact", &contact(&format!("Message {i} about backups"))).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
    }
    sent
}

fn contact(message: &str) -> serde_json::Value {
    serde_json::json!({
        "name": "Ana Cruz", "number": "+639171234567", "email": "ana@example.org",
        "country": "Philippines", "message": message,
    })
}

/// Every row of every table (from the catalogue; `paper_chunks` aside, compared as papers),
/// each as text, sorted: two sites with equal dumps hold the same data.
async fn dump(pool: &Pool) -> BTreeMap<String, Vec<String>> {
    let mut conn = pool.acquire().await.unwrap();
    let mut all = BTreeMap::new();
    for table in backup::tables::names(&mut conn).await.unwrap() {
        if table == take::PAPER_CHUNKS {
            continue;
        }
        let rows =
            sqlx::query(sqlx::AssertSqlSafe(format!("SELECT * FROM {table}"))).fetch_all(&mut *conn).await.unwrap();
        let mut lines: Vec<String> = rows
            .iter()
            .map(|row| {
                (0..row.len())
                    .map(|i| {
                        let raw = row.try_get_raw(i).unwrap();
                        if raw.is_null() {
                            return "NULL".to_owned();
                        }
                        row.try_get::<i64, _>(i)
                            .map(|v| v.to_string())
                            .or_else(|_| row.try_get::<String, _>(i))
                            .or_else(|_| row.try_get::<Vec<u8>, _>(i).map(hex::encode))
                            .unwrap_or_else(|e| panic!("{table}: value {i}: {e}"))
                    })
                    .collect::<Vec<_>>()
                    .join("|")
            })
            .collect();
        lines.sort();
        all.insert(table, lines);
    }
    all
}

/// The paper of `reference` as stored on `pool`'s engine (files under `data_dir` on SQLite).
async fn paper(pool: &Pool, data_dir: &Path, reference: &str) -> Vec<u8> {
    let (path,): (String,) = sqlx::query_as("SELECT file_path FROM submissions WHERE reference = $1")
        .bind(reference)
        .fetch_one(pool)
        .await
        .unwrap_or_else(|e| panic!("{reference} is stored: {e}"));
    match Engine::of_pool(pool) {
        Engine::Sqlite => std::fs::read(data_dir.join(&path)).unwrap_or_else(|e| panic!("{path}: {e}")),
        Engine::Postgres => conference::repo::papers::read(pool, &path).await.unwrap().expect("the paper's chunks"),
    }
}

/// Files under `data_dir/papers` against the rows: none without a row, none missing.
async fn assert_papers_match_rows(pool: &Pool, data_dir: &Path) {
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT file_path, file_size FROM submissions").fetch_all(pool).await.unwrap();
    let mut files: Vec<String> = std::fs::read_dir(data_dir.join("papers"))
        .map(|d| d.map(|e| format!("papers/{}", e.unwrap().file_name().to_string_lossy())).collect())
        .unwrap_or_default();
    files.sort();
    let mut named: Vec<String> = rows.iter().map(|(p, _)| p.clone()).collect();
    named.sort();
    assert_eq!(files, named, "no orphan paper file and none missing");
    for (path, size) in rows {
        assert_eq!(std::fs::metadata(data_dir.join(&path)).unwrap().len() as i64, size, "{path} is whole");
    }
}

/// A SQLite target: the database URL and its data folder.
fn sqlite_target(dir: &Path) -> (String, PathBuf) {
    (format!("sqlite://{}/conference.db", dir.display()), dir.to_path_buf())
}

fn now() -> OffsetDateTime {
    OffsetDateTime::now_utc()
}

#[tokio::test]
async fn a_backup_restores_every_row_and_paper_into_an_empty_sqlite_site() {
    // The run's engine: on the PostgreSQL pass this is a PostgreSQL site.
    let app = common::app().await;
    let sent = fill(&app, 3).await;
    let backups = tempfile::tempdir().unwrap();
    let archive = backups.path().join("site.tar.gz");
    let manifest = take::backup(&app.database_url(), app.dir.path(), &archive, now()).await.unwrap();
    assert_eq!(manifest.tables["submissions"], 3);
    assert_eq!(manifest.tables["messages"], 3);
    assert_eq!(manifest.files.len(), 1 + 3, "the database and each paper");
    assert_eq!(
        std::fs::read_dir(backups.path()).unwrap().count(),
        1,
        "only the archive is left in its folder, no temp file"
    );

    let target = tempfile::tempdir().unwrap();
    let (url, data_dir) = sqlite_target(target.path());
    restore::restore(&archive, &url, &data_dir, false, now()).await.unwrap();
    let restored = conference::db::connect(&url).await.unwrap();
    assert_eq!(dump(&restored).await, dump(&app.pool).await, "every row, every value");
    for (reference, pdf) in &sent {
        assert_eq!(&paper(&restored, &data_dir, reference).await, pdf, "{reference} byte for byte");
    }
    assert_papers_match_rows(&restored, &data_dir).await;
    let (check,): (String,) = sqlx::query_as("PRAGMA integrity_check").fetch_one(&restored).await.unwrap();
    assert_eq!(check, "ok");
    // The archive holds no search index: the restored rows fill it (migration 0014's triggers),
    // so the organisers' searches find them.
    use conference::repo::{dashboard::Counts, messages, submissions};
    let counts = Counts::count(&restored, "").await.unwrap();
    let by_mail = submissions::Filter { search: Some("AUTHOR1@example".into()), ..Default::default() };
    let found: Vec<String> = submissions::list(&restored, &by_mail, 1, &counts)
        .await
        .unwrap()
        .1
        .into_iter()
        .map(|s| s.submitted.reference)
        .collect();
    let author1 = sent.keys().find(|r| found.contains(r)).expect("author1's submission is found");
    assert_eq!(found, std::slice::from_ref(author1));
    let about = messages::Filter { search: Some("about backups".into()), ..Default::default() };
    assert_eq!(messages::list(&restored, &about, 1, &counts).await.unwrap().0, 3);
}

#[tokio::test]
async fn every_table_of_the_schema_is_in_the_archive() {
    let app = common::app().await;
    let archive = app.dir.path().join("site.tar.gz");
    let manifest = take::backup(&app.database_url(), app.dir.path(), &archive, now()).await.unwrap();
    // The catalogue, asked independently of the backup's own listing.
    let sql = match app.engine() {
        // Full-text indexes (virtual and shadow tables) are rebuilt from their tables' rows.
        Engine::Sqlite => {
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite%'"
        }
        Engine::Postgres => {
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() \
             AND table_type = 'BASE TABLE'"
        }
    };
    let tables: Vec<(String,)> = sqlx::query_as(sql).fetch_all(&app.pool).await.unwrap();
    for (table,) in tables {
        // The change counter counts one database's writes; a restore counts anew.
        if table == "_sqlx_migrations" || table == take::PAPER_CHUNKS || table == "count_version" {
            continue;
        }
        assert!(manifest.tables.contains_key(&table), "table {table} is in the archive: {:?}", manifest.tables.keys());
    }
    assert!(manifest.tables.len() >= 30, "{:?}", manifest.tables.keys());
}

/// What a gzip file holds, or `None` when it cannot be read whole (its CRC-32 included).
fn inflated(gzip: &[u8]) -> Option<Vec<u8>> {
    let mut content = Vec::new();
    flate2::read::GzDecoder::new(gzip).read_to_end(&mut content).ok().map(|_| content)
}

/// The archive's entries, for rewriting one of them.
fn entries(archive: &Path) -> Vec<(String, Vec<u8>)> {
    let file = std::fs::File::open(archive).unwrap();
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    tar.entries()
        .unwrap()
        .map(|entry| {
            let mut entry = entry.unwrap();
            let path = entry.path().unwrap().to_string_lossy().into_owned();
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            (path, bytes)
        })
        .collect()
}

fn pack(archive: &Path, entries: &[(String, Vec<u8>)]) {
    let file = std::fs::File::create(archive).unwrap();
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(file, flate2::Compression::fast()));
    for (path, bytes) in entries {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        tar.append_data(&mut header, path, bytes.as_slice()).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap();
}

/// `verify` and `restore` of `archive` both refuse it with a message containing `says`, and
/// the restore leaves its target untouched.
async fn assert_refused(archive: &Path, says: &str) {
    let err = verify::verify(archive).await.expect_err(&format!("the archive is refused: {}", archive.display()));
    assert!(err.to_string().contains(says), "{says:?} in: {err}");
    let target = tempfile::tempdir().unwrap();
    let (url, data_dir) = sqlite_target(target.path());
    let err = restore::restore(archive, &url, &data_dir, false, now()).await.expect_err("the restore is refused");
    assert!(err.to_string().contains(says), "{says:?} in: {err}");
    assert_eq!(std::fs::read_dir(target.path()).unwrap().count(), 0, "nothing was written");
}

#[tokio::test]
async fn a_truncated_changed_or_newer_archive_is_refused_with_a_clear_message() {
    let app = sqlite_app().await;
    fill(&app, 2).await;
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("site.tar.gz");
    take::backup(&app.database_url(), app.dir.path(), &archive, now()).await.unwrap();
    verify::verify(&archive).await.expect("the archive as written is sound");
    let bytes = std::fs::read(&archive).unwrap();

    let truncated = dir.path().join("truncated.tar.gz");
    std::fs::write(&truncated, &bytes[..bytes.len() * 2 / 3]).unwrap();
    assert_refused(&truncated, "the archive is damaged").await;

    // One changed byte: in the compressed files (gzip's CRC-32, tar's checksums or a file's
    // SHA-256 tell) and in the gzip trailer's CRC-32 itself. A changed bit of the deflate
    // stream can leave what it holds unchanged (the padding before an empty stored block, or
    // the code length of a symbol no data uses: seen in 1 run of 12, then in 1 of about 40):
    // such a byte damages nothing, so the next byte that does change the content is used.
    let unchanged = |changed: &[u8]| inflated(changed).is_some_and(|content| content == inflated(&bytes).unwrap());
    for start in [bytes.len() / 3, bytes.len() / 2, bytes.len() - 6] {
        let at = (start..bytes.len())
            .find(|&at| {
                let mut changed = bytes.clone();
                changed[at] ^= 0x20;
                !unchanged(&changed)
            })
            .expect("a byte whose change damages the archive");
        let mut changed = bytes.clone();
        changed[at] ^= 0x20;
        let path = dir.path().join(format!("changed-{at}.tar.gz"));
        std::fs::write(&path, &changed).unwrap();
        assert_refused(&path, "the archive is damaged").await;
    }

    // A paper changed inside a well-formed archive: only its SHA-256 tells.
    let mut repacked = entries(&archive);
    let paper = repacked.iter_mut().find(|(path, _)| path.starts_with("files/papers/")).expect("a paper");
    let last = paper.1.len() - 1;
    paper.1[last] ^= 0x01;
    let name = paper.0.clone();
    let tampered = dir.path().join("tampered.tar.gz");
    pack(&tampered, &repacked);
    assert_refused(&tampered, &format!("{name} does not match its SHA-256")).await;

    // A manifest from a newer program.
    let mut newer = entries(&archive);
    let manifest = newer.iter_mut().find(|(path, _)| path == "manifest.json").expect("a manifest");
    let mut json: serde_json::Value = serde_json::from_slice(&manifest.1).unwrap();
    json["schema_version"] = (backup::latest_schema_version() + 1).into();
    manifest.1 = serde_json::to_vec(&json).unwrap();
    let newer_path = dir.path().join("newer.tar.gz");
    pack(&newer_path, &newer);
    assert_refused(&newer_path, "newer than this program's").await;

    // The command line says so too, with a failing exit status.
    let output = Command::new(env!("CARGO_BIN_EXE_conference"))
        .arg("verify-backup")
        .arg(&truncated)
        .env("RUST_LOG", "error")
        .output()
        .expect("the binary runs");
    assert!(!output.status.success(), "verify-backup fails on a damaged archive");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the archive is damaged"), "{stderr}");
}

#[tokio::test]
async fn a_database_newer_than_the_program_is_not_backed_up() {
    let app = sqlite_app().await;
    app.exec(&format!(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES ({}, 'from the future', TRUE, x'00', 0)",
        backup::latest_schema_version() + 1
    ))
    .await;
    let archive = app.dir.path().join("site.tar.gz");
    let err = take::backup(&app.database_url(), app.dir.path(), &archive, now()).await.unwrap_err();
    assert!(err.to_string().contains("newer than this program's"), "{err}");
    assert!(!archive.exists());
}

#[tokio::test]
async fn a_restore_over_a_site_in_use_is_refused_and_force_moves_it_aside() {
    let app = sqlite_app().await;
    let sent = fill(&app, 1).await;
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("site.tar.gz");
    take::backup(&app.database_url(), app.dir.path(), &archive, now()).await.unwrap();
    let before = dump(&app.pool).await;

    // Another site's folder with its own data.
    let other = sqlite_app().await;
    fill(&other, 2).await;
    let (url, data_dir) = (other.database_url(), other.dir.path().to_path_buf());
    let other_before = dump(&other.pool).await;
    other.pool.close().await;
    let err = restore::restore(&archive, &url, &data_dir, false, now()).await.unwrap_err();
    assert!(matches!(err, BackupError::Refused(_)), "{err:?}");
    assert!(err.to_string().contains("the database is not empty"), "{err}");
    assert!(err.to_string().contains("--force"), "{err}");
    let untouched = conference::db::connect(&url).await.unwrap();
    assert_eq!(dump(&untouched).await, other_before, "a refused restore changes nothing");
    untouched.close().await;

    // An empty database but papers in the folder: refused too.
    let papers_only = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(papers_only.path().join("papers")).unwrap();
    std::fs::write(papers_only.path().join("papers/P-2025-OLD234.pdf"), b"%PDF-1.4 old").unwrap();
    let (empty_url, empty_dir) = sqlite_target(papers_only.path());
    let err = restore::restore(&archive, &empty_url, &empty_dir, false, now()).await.unwrap_err();
    assert!(err.to_string().contains("the data folder is not empty"), "{err}");

    let restored = restore::restore(&archive, &url, &data_dir, true, now()).await.unwrap();
    assert_eq!(restored.moved_aside.len(), 2, "the database and the papers folder: {:?}", restored.moved_aside);
    for aside in &restored.moved_aside {
        assert!(Path::new(aside).exists(), "{aside} is kept");
    }
    let pool = conference::db::connect(&url).await.unwrap();
    assert_eq!(dump(&pool).await, before, "the archive's site, not the other one");
    for (reference, pdf) in &sent {
        assert_eq!(&paper(&pool, &data_dir, reference).await, pdf);
    }
    assert_papers_match_rows(&pool, &data_dir).await;
    let old = conference::db::connect(&format!("sqlite://{}", restored.moved_aside[0])).await.unwrap();
    assert_eq!(dump(&old).await, other_before, "the moved-aside database is whole");
}

/// SQLite → PostgreSQL → SQLite: the same rows and the same paper bytes at every step, and
/// PostgreSQL's ids go on after the restored ones.
#[tokio::test]
#[ignore = "PostgreSQL only: run with TEST_DATABASE_URL and --include-ignored"]
async fn a_site_moves_from_sqlite_to_postgresql_and_back_unchanged() {
    let scratch = database::Scratch::create().await.expect("this test runs with TEST_DATABASE_URL set");
    let app = sqlite_app().await;
    let sent = fill(&app, 4).await;
    let original = dump(&app.pool).await;
    let dir = tempfile::tempdir().unwrap();

    let from_sqlite = dir.path().join("from-sqlite.tar.gz");
    let first = take::backup(&app.database_url(), app.dir.path(), &from_sqlite, now()).await.unwrap();
    let pg_data = tempfile::tempdir().unwrap();
    restore::restore(&from_sqlite, &scratch.url, pg_data.path(), false, now()).await.unwrap();
    let pg = conference::db::connect(&scratch.url).await.unwrap();
    assert_eq!(dump(&pg).await, original, "PostgreSQL holds the same rows");
    for (reference, pdf) in &sent {
        assert_eq!(&paper(&pg, pg_data.path(), reference).await, pdf, "{reference} in paper_chunks");
    }
    // A new submission on PostgreSQL gets an id after the restored ones.
    let mut config = Config::for_tests(pg_data.path().to_path_buf());
    config.database_url = scratch.url.clone();
    let state = AppState::new(pg.clone(), config.clone());
    let pg_app = TestApp {
        router: conference::app(state.clone()),
        pool: pg.clone(),
        dir: tempfile::tempdir().unwrap(),
        config,
        state,
        postgres: None,
    };
    let (before,): (i64,) = sqlx::query_as("SELECT MAX(id) FROM outbox").fetch_one(&pg).await.unwrap();
    let (status, answer) = pg_app.post_json("/api/contact", &contact("After the move")).await;
    assert_eq!(status, StatusCode::CREATED, "a new outbox row gets a fresh id: {answer}");
    let (after,): (i64,) = sqlx::query_as("SELECT MAX(id) FROM outbox").fetch_one(&pg).await.unwrap();
    assert!(after > before, "the identity sequence moved past the restored ids");
    sqlx::query("DELETE FROM messages WHERE message = 'After the move'").execute(&pg).await.unwrap();
    sqlx::query("DELETE FROM outbox WHERE id > $1").bind(before).execute(&pg).await.unwrap();

    let from_postgres = dir.path().join("from-postgres.tar.gz");
    let second = take::backup(&scratch.url, pg_data.path(), &from_postgres, now()).await.unwrap();
    assert_eq!(second.engine, "postgres");
    assert_eq!(second.tables, first.tables, "the same counts");
    let files =
        |m: &backup::Manifest| m.files.iter().filter(|f| f.path.starts_with("files/")).cloned().collect::<Vec<_>>();
    assert_eq!(files(&second), files(&first), "the same paper bytes (SHA-256s)");

    let back = tempfile::tempdir().unwrap();
    let (url, data_dir) = sqlite_target(back.path());
    restore::restore(&from_postgres, &url, &data_dir, false, now()).await.unwrap();
    let sqlite = conference::db::connect(&url).await.unwrap();
    assert_eq!(dump(&sqlite).await, original, "back on SQLite, the same rows");
    for (reference, pdf) in &sent {
        assert_eq!(&paper(&sqlite, &data_dir, reference).await, pdf, "{reference} byte for byte");
    }
    assert_papers_match_rows(&sqlite, &data_dir).await;
    drop(pg_app);
    pg.close().await;
}

/// What one visitor saw: the paper's reference and bytes, or the message's text, and when
/// the 201 came back.
enum Sent {
    Paper(String, Vec<u8>),
    Message(String),
}

fn conference_command(data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_conference"));
    command
        .env("DATA_DIR", data)
        .env("DATABASE_URL", format!("sqlite://{}/conference.db", data.display()))
        .env("RUST_LOG", "warn");
    command
}

/// The scenario of the issue: a backup taken while 20 visitors submit papers and messages;
/// the data folder deleted; the archive restored; the site served again. Every paper and
/// message answered 201 before the backup started is there, papers byte for byte, with no
/// file missing or left over, and SQLite's integrity check passes.
#[tokio::test]
async fn kill_and_restore_loses_nothing_committed_before_the_backup() {
    const CLIENTS: usize = 20;
    const PER_CLIENT: usize = 8;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let archive = dir.path().join("backups/site.tar.gz");
    std::fs::create_dir_all(archive.parent().unwrap()).unwrap();
    let seeded = conference_command(&data).args(["seed", "--file"]).arg(fixture::path()).status().unwrap();
    assert!(seeded.success(), "the fixture seed applies");

    let mut server = crash::Server::start(&data, crash::free_addr());
    server.wait_ready().await;
    let addr = server.addr;
    let answered: Arc<Mutex<Vec<(Sent, Instant)>>> = Arc::default();
    let mut clients = Vec::new();
    for client in 0..CLIENTS {
        let answered = answered.clone();
        clients.push(tokio::spawn(async move {
            for k in 0..PER_CLIENT {
                let n = client * PER_CLIENT + k;
                if k % 2 == 0 {
                    let pdf = pdf_of_size(20_000 + 97 * n);
                    let (content_type, body) = crash::paper_form_with(n, &pdf);
                    let (status, text) =
                        crash::request(addr, "POST", "/api/paper-submission", &content_type, &body, 0).await.unwrap();
                    assert_eq!(status, 201, "{text}");
                    let answer: serde_json::Value = serde_json::from_str(&text).unwrap();
                    let reference = answer["reference"].as_str().unwrap().to_owned();
                    answered.lock().unwrap().push((Sent::Paper(reference, pdf), Instant::now()));
                } else {
                    let message = format!("Client {client}, message {k}");
                    let body = contact(&message).to_string();
                    let (status, text) =
                        crash::request(addr, "POST", "/api/contact", "application/json", body.as_bytes(), 0)
                            .await
                            .unwrap();
                    assert_eq!(status, 201, "{text}");
                    answered.lock().unwrap().push((Sent::Message(message), Instant::now()));
                }
            }
        }));
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while answered.lock().unwrap().len() < CLIENTS * PER_CLIENT / 4 {
        assert!(Instant::now() < deadline, "the clients are answered");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let backup_started = Instant::now();
    let backup = tokio::process::Command::new(env!("CARGO_BIN_EXE_conference"))
        .arg("backup")
        .arg("--out")
        .arg(&archive)
        .env("DATA_DIR", &data)
        .env("DATABASE_URL", format!("sqlite://{}/conference.db", data.display()))
        .env("RUST_LOG", "warn")
        .output()
        .await
        .unwrap();
    assert!(backup.status.success(), "{}", String::from_utf8_lossy(&backup.stderr));
    for client in clients {
        client.await.expect("every client is answered");
    }
    server.kill();
    let answered = std::mem::take(&mut *answered.lock().unwrap());
    let after = answered.iter().filter(|(_, at)| *at > backup_started).count();
    assert!(after > 0, "visitors were still sending while the backup ran");

    std::fs::remove_dir_all(&data).unwrap();
    let restored = conference_command(&data).arg("restore").arg("--from").arg(&archive).output().unwrap();
    assert!(restored.status.success(), "{}", String::from_utf8_lossy(&restored.stderr));
    let printed = String::from_utf8_lossy(&restored.stdout);
    assert!(printed.contains("restored") && printed.contains("submissions"), "{printed}");

    let mut server = crash::Server::start(&data, crash::free_addr());
    server.wait_ready().await;
    let (status, _) = crash::request(server.addr, "GET", "/", "", &[], 0).await.unwrap();
    assert_eq!(status, 200, "the restored site serves its pages");
    let pool = conference::db::connect(&format!("sqlite://{}/conference.db", data.display())).await.unwrap();
    let mut checked = 0;
    for (sent, at) in &answered {
        if *at > backup_started {
            continue;
        }
        match sent {
            Sent::Paper(reference, pdf) => {
                assert_eq!(&paper(&pool, &data, reference).await, pdf, "{reference} is restored byte for byte")
            }
            Sent::Message(message) => {
                let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages WHERE message = $1")
                    .bind(message)
                    .fetch_one(&pool)
                    .await
                    .unwrap();
                assert_eq!(n, 1, "{message:?} is restored");
            }
        }
        checked += 1;
    }
    assert!(checked >= CLIENTS * PER_CLIENT / 4, "{checked} answers came before the backup");
    assert_papers_match_rows(&pool, &data).await;
    let (check,): (String,) = sqlx::query_as("PRAGMA integrity_check").fetch_one(&pool).await.unwrap();
    assert_eq!(check, "ok");
    let (restores,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM audit_log WHERE action = 'backup.restore'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(restores, 1, "the restore is in the audit log");
    pool.close().await;
    drop(server);
}

/// `deploy/systemd/conference-backup.sh`, as the nightly timer runs it, with `env`.
fn nightly(env: &[(&str, &Path)]) -> std::process::Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/systemd/conference-backup.sh");
    let mut command = Command::new("sh");
    command.arg(script).env("CONFERENCE", env!("CARGO_BIN_EXE_conference")).env("RUST_LOG", "error");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("sh runs")
}

#[tokio::test]
async fn the_nightly_backup_keeps_the_newest_14_archives_and_nothing_else_is_touched() {
    let app = sqlite_app().await;
    fill(&app, 1).await;
    let backups = tempfile::tempdir().unwrap();
    let old: Vec<String> = (0..15).map(|day| format!("conference-202501{:02}T030000Z.tar.gz", day + 1)).collect();
    for name in &old {
        std::fs::write(backups.path().join(name), b"an older archive").unwrap();
    }
    std::fs::write(backups.path().join("notes.txt"), b"the operator's").unwrap();
    let url = PathBuf::from(app.database_url());
    let output = nightly(&[("BACKUP_DIR", backups.path()), ("DATA_DIR", app.dir.path()), ("DATABASE_URL", &url)]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));

    let mut names: Vec<String> = std::fs::read_dir(backups.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.contains(&"notes.txt".to_owned()), "{names:?}");
    let archives: Vec<&String> = names.iter().filter(|n| n.starts_with("conference-")).collect();
    assert_eq!(archives.len(), 14, "{names:?}");
    assert!(!names.contains(&old[0]) && !names.contains(&old[1]), "the two oldest went: {names:?}");
    let newest = backups.path().join(archives.last().unwrap());
    let manifest = verify::verify(&newest).await.expect("tonight's archive is sound").manifest;
    assert_eq!(manifest.tables["submissions"], 1);
    let (recorded,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM audit_log WHERE action = 'backup.write' AND actor = 'cli'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(recorded, 1, "the backup is in the audit log, as an export is");

    // A backup that fails removes nothing and says so with its exit status.
    let broken = PathBuf::from("mysql://nowhere/conference");
    let output = nightly(&[("BACKUP_DIR", backups.path()), ("DATA_DIR", app.dir.path()), ("DATABASE_URL", &broken)]);
    assert!(!output.status.success());
    assert_eq!(std::fs::read_dir(backups.path()).unwrap().count(), names.len(), "nothing was removed");
}

#[tokio::test]
async fn an_archive_of_an_older_schema_is_restored_and_migrated_forward() {
    // A site last migrated at 0010, before messages had `read_at` (0011).
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/conference.db", dir.path().display());
    let pool = conference::db::connect(&url).await.unwrap();
    conference::db::SQLITE_MIGRATOR.run_to(10, &pool).await.unwrap();
    sqlx::query(
        "INSERT INTO messages (id, name, number, email, country, message, created) \
         VALUES ('m1', 'Ana Cruz', '+639171234567', 'ana@example.org', 'Philippines', 'Sent before 0011', \
         '2025-01-02T03:04:05.000000Z')",
    )
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let archive = dir.path().join("old.tar.gz");
    let manifest = take::backup(&url, dir.path(), &archive, now()).await.unwrap();
    assert_eq!(manifest.schema_version, 10);

    // Into the run's engine: PostgreSQL on the PostgreSQL pass.
    let scratch = database::Scratch::create().await;
    let target = tempfile::tempdir().unwrap();
    let (target_url, data_dir) = match &scratch {
        Some(scratch) => (scratch.url.clone(), target.path().to_path_buf()),
        None => sqlite_target(target.path()),
    };
    restore::restore(&archive, &target_url, &data_dir, false, now()).await.unwrap();
    let restored = conference::db::connect(&target_url).await.unwrap();
    let migrator = match Engine::of_pool(&restored) {
        Engine::Sqlite => &conference::db::SQLITE_MIGRATOR,
        Engine::Postgres => &conference::db::POSTGRES_MIGRATOR,
    };
    assert_eq!(
        backup::schema_version(&restored).await.unwrap(),
        migrator.iter().map(|m| m.version).max(),
        "migrated forward to this program's schema"
    );
    let (message, read_at): (String, Option<String>) =
        sqlx::query_as("SELECT message, read_at FROM messages WHERE id = 'm1'").fetch_one(&restored).await.unwrap();
    assert_eq!((message.as_str(), read_at), ("Sent before 0011", None));
    restored.close().await;
}

/// `--force` on PostgreSQL moves the schema aside (renamed, kept whole) and restores into a
/// new one of the same name.
#[tokio::test]
#[ignore = "PostgreSQL only: run with TEST_DATABASE_URL and --include-ignored"]
async fn force_on_postgresql_renames_the_schema_in_use_and_keeps_it() {
    let app = common::app().await;
    assert_eq!(app.engine(), Engine::Postgres, "this test runs with TEST_DATABASE_URL set");
    fill(&app, 2).await;
    let source = sqlite_app().await;
    let sent = fill(&source, 1).await;
    let archive = source.dir.path().join("site.tar.gz");
    take::backup(&source.database_url(), source.dir.path(), &archive, now()).await.unwrap();

    let err = restore::restore(&archive, &app.database_url(), app.dir.path(), false, now()).await.unwrap_err();
    assert!(err.to_string().contains("the database is not empty"), "{err}");
    let restored = restore::restore(&archive, &app.database_url(), app.dir.path(), true, now()).await.unwrap();
    let aside = restored.moved_aside[0].strip_prefix("schema ").expect("a schema moved aside").to_owned();
    let pool = conference::db::connect(&app.database_url()).await.unwrap();
    assert_eq!(dump(&pool).await, dump(&source.pool).await, "the archive's site");
    for (reference, pdf) in &sent {
        assert_eq!(&paper(&pool, app.dir.path(), reference).await, pdf);
    }
    let kept = format!("SELECT COUNT(*) FROM \"{aside}\".submissions");
    let (old,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(kept)).fetch_one(&pool).await.unwrap();
    assert_eq!(old, 2, "the old site's rows are kept in {aside}");
    pool.close().await;
}

#[tokio::test]
async fn a_restore_that_fails_half_way_leaves_the_target_empty() {
    let source = sqlite_app().await;
    fill(&source, 2).await;
    let archive = source.dir.path().join("site.tar.gz");
    take::backup(&source.database_url(), source.dir.path(), &archive, now()).await.unwrap();

    // A target whose database adds a row of its own for every paper: the counts no longer
    // match the manifest once the papers are in, so the restore fails at its last check.
    let target = tempfile::tempdir().unwrap();
    let (url, data_dir) = sqlite_target(target.path());
    let pool = conference::db::connect(&url).await.unwrap();
    conference::db::migrate(&pool).await.unwrap();
    sqlx::raw_sql(
        "CREATE TRIGGER extra AFTER INSERT ON submissions BEGIN \
         INSERT INTO messages (id, name, number, email, country, message, created) \
         VALUES ('x' || NEW.id, 'x', 'x', 'x', 'x', 'x', 'x'); END",
    )
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let err = restore::restore(&archive, &url, &data_dir, false, now()).await.unwrap_err();
    assert!(err.to_string().contains("table messages has 5 rows after the copy"), "{err}");
    let papers: Vec<_> = std::fs::read_dir(data_dir.join("papers")).map(|d| d.collect()).unwrap_or_default();
    assert!(papers.is_empty(), "the papers written before the failure are gone: {papers:?}");
    let pool = conference::db::connect(&url).await.unwrap();
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM submissions").fetch_one(&pool).await.unwrap();
    assert_eq!(rows, 0, "no row was committed");
}
