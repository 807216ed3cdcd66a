//! kill -9 of the real binary (issue 11): the server is started on 127.0.0.1 with a temp
//! `DATA_DIR`, killed (SIGKILL) while papers are uploading and contact messages are being
//! stored and mailed, and started again. Then the data folder and the database must agree:
//! no upload temp file, no paper without its row, no row without its file, every stored
//! message and submission mailed, one whole `.eml` per outbox row. Two rounds, each bounded
//! in requests and time; every process started is stopped by its pid.

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use conference::db::Pool;
use http_body_util::channel::Channel;

use crate::common::loopback;

const ROUNDS: usize = 2;
const UPLOADS: usize = 24;
const MESSAGES: usize = 150;
/// Longest wait for the server to answer or the outbox to drain.
const PATIENCE: Duration = Duration::from_secs(60);
const ORIGIN: &str = "http://127.0.0.1:3000";

/// The binary under test, stopped by its pid when dropped (SIGKILL). Also the server of
/// `tests/backup.rs`.
pub(crate) struct Server {
    child: Child,
    pub(crate) addr: SocketAddr,
}

impl Server {
    pub(crate) fn start(data: &Path, addr: SocketAddr) -> Server {
        let child = Command::new(env!("CARGO_BIN_EXE_conference"))
            .arg("serve")
            .env("LISTEN_ADDR", addr.to_string())
            .env("DATA_DIR", data)
            .env("DATABASE_URL", format!("sqlite://{}/conference.db", data.display()))
            .env("PUBLIC_URL", ORIGIN)
            .env("RATE_LIMIT_PER_MINUTE", "100000")
            .env("BODY_TIMEOUT_SECS", "1")
            .env("ORPHAN_GRACE_SECS", "0")
            .env("MAIL_LEASE_SECS", "2")
            .env("RUST_LOG", "warn")
            .env_remove("SMTP_URL")
            .env_remove("CCAVENUE_MERCHANT_ID")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        Server { child, addr }
    }

    pub(crate) async fn wait_ready(&mut self) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Ok((200, _)) = request(self.addr, "GET", "/api/health", "", &[], 0).await {
                return;
            }
            assert!(self.child.try_wait().unwrap().is_none(), "the server exited during start-up");
            assert!(Instant::now() < deadline, "the server answers within {PATIENCE:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// SIGKILL: no shutdown code runs.
    pub(crate) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// One request on a new connection; the body goes out in 32 KiB slices `pause_ms` apart, so
/// a kill can land in the middle of an upload. The status and the body, or an error when the
/// server went away.
pub(crate) async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    content_type: &str,
    body: &[u8],
    pause_ms: u64,
) -> reqwest::Result<(u16, String)> {
    static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
    let client = CLIENT.get_or_init(|| loopback::builder().timeout(PATIENCE).build().expect("an HTTP client"));
    let (mut sender, paced) = Channel::<Bytes, Infallible>::new(1);
    let slices: Vec<Bytes> = body.chunks(32 * 1024).map(Bytes::copy_from_slice).collect();
    let feeder = tokio::spawn(async move {
        for slice in slices {
            // An error: the request is over (answered early, or the server is gone).
            if sender.send_data(slice).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(pause_ms)).await;
        }
    });
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("an HTTP method");
    let answer = client
        .request(method, format!("http://{addr}{path}"))
        .header("origin", ORIGIN)
        .header("content-type", content_type)
        // Declared, as a browser does: the server judges the size before reading the body.
        .header("content-length", body.len())
        .body(reqwest::Body::wrap(paced))
        .send()
        .await;
    feeder.abort();
    let answer = answer?;
    let status = answer.status().as_u16();
    Ok((status, answer.text().await?))
}

fn paper_form(n: usize) -> (String, Vec<u8>) {
    let mut pdf = b"%PDF-1.4\n%".to_vec();
    pdf.resize(600 * 1024, b'x');
    pdf.extend_from_slice(b"\ntrailer\n<< >>\n%%EOF\n");
    paper_form_with(n, &pdf)
}

pub(crate) use crate::common::paper_form::paper_form_with;

pub(crate) fn free_addr() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap()
}

fn names_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default()
}

/// Uploads and a message burst at once; SIGKILL once `kill_after` answers have come back.
async fn load_and_kill(server: &mut Server, round: usize, kill_after: usize) -> usize {
    let answered = Arc::new(AtomicUsize::new(0));
    let stored = Arc::new(AtomicUsize::new(0));
    let addr = server.addr;
    let mut tasks = Vec::new();
    for n in 0..UPLOADS {
        let (answered, stored) = (answered.clone(), stored.clone());
        tasks.push(tokio::spawn(async move {
            let (content_type, body) = paper_form(round * 100 + n);
            if let Ok((status, _)) = request(addr, "POST", "/api/paper-submission", &content_type, &body, 15).await {
                answered.fetch_add(1, Ordering::SeqCst);
                if status == 201 {
                    stored.fetch_add(1, Ordering::SeqCst);
                }
            }
        }));
    }
    for worker in 0..10 {
        let (answered, stored) = (answered.clone(), stored.clone());
        tasks.push(tokio::spawn(async move {
            for k in 0..MESSAGES / 10 {
                let body = serde_json::json!({
                    "name": "Ana Cruz", "number": "+639171234567", "email": "ana@example.org",
                    "country": "Philippines", "message": format!("Round {round}, message {worker}-{k}"),
                })
                .to_string();
                match request(addr, "POST", "/api/contact", "application/json", body.as_bytes(), 0).await {
                    Ok((status, _)) => {
                        answered.fetch_add(1, Ordering::SeqCst);
                        if status == 201 {
                            stored.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                    Err(_) => return,
                }
            }
        }));
    }
    let deadline = Instant::now() + PATIENCE;
    while answered.load(Ordering::SeqCst) < kill_after && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.kill();
    for task in tasks {
        let _ = tokio::time::timeout(PATIENCE, task).await;
    }
    stored.load(Ordering::SeqCst)
}

/// Checks the data folder against the database once the outbox has drained.
async fn check_consistent(data: &Path, pool: &Pool, min_stored: i64) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (pending,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM outbox WHERE status <> 'sent'").fetch_one(pool).await.unwrap();
        if pending == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "{pending} mails still unsent after {PATIENCE:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (messages,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages").fetch_one(pool).await.unwrap();
    let (submissions,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM submissions").fetch_one(pool).await.unwrap();
    assert!(messages + submissions >= min_stored, "every answered 201 is stored");

    // Papers: no temp file, every file has a row, every row its whole file.
    let papers = data.join("papers");
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT file_path, file_size FROM submissions").fetch_all(pool).await.unwrap();
    let files: BTreeSet<String> = names_in(&papers).into_iter().collect();
    assert!(!files.iter().any(|f| f.starts_with('.')), "no upload temp file is left: {files:?}");
    let named: BTreeSet<String> = rows.iter().map(|(p, _)| p.trim_start_matches("papers/").to_owned()).collect();
    assert_eq!(files, named, "paper files and rows match one to one");
    for (path, size) in &rows {
        assert_eq!(std::fs::metadata(data.join(path)).unwrap().len() as i64, *size, "{path} is whole");
    }
    assert!(names_in(&data.join("tmp")).is_empty());

    // Mail: one whole .eml per outbox row, nothing else.
    let ids: Vec<(i64,)> = sqlx::query_as("SELECT id FROM outbox").fetch_all(pool).await.unwrap();
    let expected: BTreeSet<String> = ids.iter().map(|(id,)| format!("outbox-{id}.eml")).collect();
    let emls: BTreeSet<String> = names_in(&data.join("mail")).into_iter().collect();
    assert_eq!(emls, expected, "one .eml per outbox row, no temp or duplicate file");
    for name in &emls {
        let text = std::fs::read_to_string(data.join("mail").join(name)).unwrap();
        let id = name.trim_start_matches("outbox-").trim_end_matches(".eml");
        assert!(text.contains(&format!("Message-ID: <outbox-{id}-")), "{name} carries its stable Message-ID");
        // A whole MIME message ends with its outermost closing boundary.
        assert!(text.trim_end().ends_with("--"), "{name} is not truncated");
    }
    assert_eq!(ids.len() as i64, messages + 2 * submissions, "each message one mail, each paper two");
}

#[tokio::test]
async fn kill_9_during_uploads_and_mail_leaves_nothing_half_done() {
    let dir = tempfile::tempdir().unwrap();
    let data: PathBuf = dir.path().to_path_buf();
    let addr = free_addr();
    // The tests' own content, applied as an organiser would (`serve` would seed the
    // production copy into the empty database otherwise).
    let seeded = Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["seed", "--file"])
        .arg(crate::common::fixture::path())
        .env("DATA_DIR", &data)
        .env("DATABASE_URL", format!("sqlite://{}/conference.db", data.display()))
        .env("RUST_LOG", "warn")
        .status()
        .expect("the binary runs");
    assert!(seeded.success(), "the fixture seed applies");
    let mut stored_total = 0i64;
    for round in 0..ROUNDS {
        let mut server = Server::start(&data, addr);
        server.wait_ready().await;
        let stored = load_and_kill(&mut server, round, [40, 15][round % 2]).await;
        drop(server);
        assert!(stored < UPLOADS + MESSAGES, "the kill came while requests were under way");
        stored_total += stored as i64;
        let left = names_in(&data.join("papers")).into_iter().filter(|n| n.starts_with('.')).count();
        eprintln!("round {round}: {stored} stored before the kill, {left} upload temp files left behind");
        // Temp files count as abandoned once untouched for the body timeout (1 s here) plus
        // a second: another copy sharing DATA_DIR could still be writing a younger one.
        tokio::time::sleep(Duration::from_millis(2500)).await;

        // After the restart the sweep has run and the outbox drains.
        let mut server = Server::start(&data, addr);
        server.wait_ready().await;
        let pool = conference::db::connect(&format!("sqlite://{}/conference.db", data.display())).await.unwrap();
        check_consistent(&data, &pool, stored_total).await;
        pool.close().await;
        drop(server);
    }
}
