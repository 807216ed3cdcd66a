//! `TLS=acme` end to end (DESIGN.md section 13, issue 23): the binary against Debian's
//! `pebble` (the ACME test CA) on loopback, validated for real over HTTP-01 on the plain port.
//! One test, in order, since each step starts from the last: the first start obtains a
//! certificate and serves HTTP/2 and HTTP/1.1 with every security header, the plain port
//! redirects; a restart serves the cached certificate without a new order; a short-lived
//! certificate (60 s, pebble's `certificateValidityPeriod`) is renewed; with pebble stopped,
//! the failed renewal is logged with the expiry date and the server keeps serving. Nothing of
//! a key is logged, and the cache files are 0600. Every process started here is killed by its
//! pid; every wait is bounded.
//!
//! A test target of its own (Cargo.toml), so it runs once per `cargo test` however many
//! engines the `site` suite runs on. Ports (this suite's own range): pebble 18510 (directory) and 18511 (management), the
//! server's plain port 18512 (pebble's `httpPort`), 18513 (pebble's unused `tlsPort`), HTTPS
//! on 18514.

// The HTTPS client helpers of the `site` suite's TLS tests, included alone (as cluster.rs
// includes its helpers).
#[path = "common/tls.rs"]
#[allow(dead_code)]
mod tls;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::{StatusCode, Version};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::rustls::pki_types::CertificateDer;
use tokio_rustls::rustls::pki_types::pem::PemObject;

use tls::{Sender, alpn, assert_security_headers, client, connect, peer_leaf, self_signed};

const DIRECTORY_PORT: u16 = 18510;
const MANAGEMENT_PORT: u16 = 18511;
const PLAIN_PORT: u16 = 18512;
const PEBBLE_TLS_PORT: u16 = 18513;
const HTTPS_PORT: u16 = 18514;

/// Seconds pebble's certificates last: rustls-acme renews after two thirds of that (40 s).
const VALIDITY_SECS: u64 = 60;

/// Longest wait for a certificate to be obtained or renewed, or for a log line.
const PATIENCE: Duration = Duration::from_secs(90);

/// A process started by this test, its output collected; killed by its pid when dropped.
struct Process {
    child: Child,
    log: Arc<Mutex<String>>,
}

impl Process {
    fn start(mut command: Command) -> Process {
        let mut child =
            command.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null()).spawn().unwrap_or_else(|e| {
                panic!("{command:?} does not start ({e}); pebble comes from Debian's package (apt-get install pebble)")
            });
        let log = Arc::new(Mutex::new(String::new()));
        for pipe in [
            child.stdout.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
            child.stderr.take().map(|p| Box::new(p) as _),
        ]
        .into_iter()
        .flatten()
        {
            let log = log.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    let mut log = log.lock().unwrap();
                    log.push_str(&line);
                    log.push('\n');
                }
            });
        }
        Process { child, log }
    }

    fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// Waits until the output has a line containing `needle`.
    async fn wait_for(&self, needle: &str) {
        let started = Instant::now();
        while !self.log().contains(needle) {
            assert!(started.elapsed() < PATIENCE, "no {needle:?} within {PATIENCE:?}:\n{}", self.log());
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// pebble with a listening certificate made here (trusted by the server through
/// `ACME_CA_FILE`), real HTTP-01 validation against the server's plain port, no random
/// sleeps or rejected nonces.
fn pebble(dir: &Path) -> (Process, CertificateDer<'static>) {
    let (cert, key, der) = self_signed();
    std::fs::write(dir.join("pebble-cert.pem"), cert).unwrap();
    std::fs::write(dir.join("pebble-key.pem"), key).unwrap();
    let config = serde_json::json!({ "pebble": {
        "listenAddress": format!("127.0.0.1:{DIRECTORY_PORT}"),
        "managementListenAddress": format!("127.0.0.1:{MANAGEMENT_PORT}"),
        "certificate": dir.join("pebble-cert.pem"),
        "privateKey": dir.join("pebble-key.pem"),
        "httpPort": PLAIN_PORT,
        "tlsPort": PEBBLE_TLS_PORT,
        "ocspResponderURL": "",
        "externalAccountBindingRequired": false,
        "certificateValidityPeriod": VALIDITY_SECS,
    }});
    std::fs::write(dir.join("pebble.json"), config.to_string()).unwrap();
    let mut command = Command::new("pebble");
    command
        .arg("-config")
        .arg(dir.join("pebble.json"))
        .env("PEBBLE_VA_NOSLEEP", "1")
        .env("PEBBLE_WFE_NONCEREJECT", "0")
        .env("PEBBLE_AUTHZREUSE", "0");
    (Process::start(command), der)
}

/// The binary with `TLS=acme` against pebble, its data in `data`.
fn conference(data: &Path, pebble_ca: &Path) -> Process {
    let mut command = Command::new(env!("CARGO_BIN_EXE_conference"));
    command
        .env_clear()
        .env("TLS", "acme")
        .env("PUBLIC_URL", format!("https://localhost:{HTTPS_PORT}"))
        .env("LISTEN_ADDR", format!("127.0.0.1:{HTTPS_PORT}"))
        .env("HTTP_LISTEN_ADDR", format!("127.0.0.1:{PLAIN_PORT}"))
        .env("ACME_DIRECTORY", format!("https://127.0.0.1:{DIRECTORY_PORT}/dir"))
        .env("ACME_CONTACT", "organisers@example.org")
        .env("ACME_CA_FILE", pebble_ca)
        .env("DATA_DIR", data)
        .env("DATABASE_URL", format!("sqlite://{}/conference.db", data.display()))
        .env("RUST_LOG", "info");
    Process::start(command)
}

fn https() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], HTTPS_PORT))
}

/// The leaf certificate the server shows once a handshake trusting `root` succeeds.
async fn served_leaf(root: &CertificateDer<'static>, server: &Process) -> Vec<u8> {
    let connector = client(std::slice::from_ref(root), &[b"h2"]);
    let started = Instant::now();
    loop {
        if let Ok(stream) = connect(&connector, https()).await {
            return peer_leaf(&stream);
        }
        assert!(started.elapsed() < PATIENCE, "no certificate within {PATIENCE:?}:\n{}", server.log());
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// pebble's root of this run (it makes a new one at every start).
async fn pebble_root(pebble_listening: &CertificateDer<'static>) -> CertificateDer<'static> {
    let management = SocketAddr::from(([127, 0, 0, 1], MANAGEMENT_PORT));
    let stream = connect(&client(std::slice::from_ref(pebble_listening), &[b"http/1.1"]), management).await.unwrap();
    let answer = Sender::over(stream).await.get("/roots/0").await.unwrap();
    assert_eq!(answer.status, StatusCode::OK);
    CertificateDer::from_pem_slice(answer.body.as_bytes()).expect("a PEM root")
}

/// The plain port's raw answer to `target`.
async fn plain(target: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", PLAIN_PORT)).await.unwrap();
    let request = format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut answer)).await.expect("an answer").unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acme_obtains_caches_renews_and_keeps_serving_when_the_ca_is_down() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (pebble, pebble_listening) = pebble(dir.path());
    pebble.wait_for("ACME directory available").await;
    let root = pebble_root(&pebble_listening).await;

    // First start: a certificate ordered, validated over the plain port, and served.
    let first = conference(&data, &dir.path().join("pebble-cert.pem"));
    let obtained = served_leaf(&root, &first).await;
    first.wait_for("TLS certificate cached").await;
    assert!(first.log().contains("TLS certificate obtained from the ACME CA"), "{}", first.log());
    let connector = client(std::slice::from_ref(&root), &[b"h2", b"http/1.1"]);
    let h2 = connect(&connector, https()).await.unwrap();
    assert_eq!(alpn(&h2), "h2");
    let home = Sender::over(h2).await.get("/").await.unwrap();
    assert_eq!((home.version, home.status), (Version::HTTP_2, StatusCode::OK));
    assert_security_headers(&home);
    let h1 = connect(&client(std::slice::from_ref(&root), &[b"http/1.1"]), https()).await.unwrap();
    let home = Sender::over(h1).await.get("/").await.unwrap();
    assert_eq!((home.version, home.status), (Version::HTTP_11, StatusCode::OK));
    assert_security_headers(&home);
    // The plain port redirects, and answers challenges (pebble's validation went through it;
    // a token that is not under way is a 404, not a redirect).
    let redirected = plain("/schedule?day=1").await;
    assert!(redirected.starts_with("HTTP/1.1 308"), "{redirected}");
    assert!(
        redirected.contains(&format!("location: https://localhost:{HTTPS_PORT}/schedule?day=1\r\n")),
        "{redirected}"
    );
    let unknown = plain("/.well-known/acme-challenge/not-under-way").await;
    assert!(unknown.starts_with("HTTP/1.1 404"), "{unknown}");
    // The cache: 0700 folder, 0600 files (the account key and the certificate with its key).
    let cache = data.join("acme");
    assert_eq!(std::fs::metadata(&cache).unwrap().permissions().mode() & 0o777, 0o700);
    let files: Vec<_> = std::fs::read_dir(&cache).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 2, "{files:?}");
    for file in &files {
        assert_eq!(std::fs::metadata(file).unwrap().permissions().mode() & 0o777, 0o600, "{}", file.display());
    }
    let first_log = first.log();
    drop(first);

    // A restart serves the cached certificate and orders nothing.
    let second = conference(&data, &dir.path().join("pebble-cert.pem"));
    assert_eq!(served_leaf(&root, &second).await, obtained, "the cached certificate is served");
    second.wait_for("TLS certificate from the ACME cache").await;
    assert!(!second.log().contains("obtained from the ACME CA"), "no new order:\n{}", second.log());

    // Two thirds into the certificate's 60 s, a new one is ordered and served.
    let started = Instant::now();
    let renewed = loop {
        let leaf = served_leaf(&root, &second).await;
        if leaf != obtained {
            break leaf;
        }
        assert!(started.elapsed() < PATIENCE, "no renewal within {PATIENCE:?}:\n{}", second.log());
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    second.wait_for("TLS certificate obtained from the ACME CA").await;

    // The CA gone at the next renewal: the reason and the expiry date are logged, and the
    // certificate in force is still served.
    drop(pebble);
    second.wait_for("ACME: no new certificate").await;
    let log = second.log();
    let warning = log.lines().find(|l| l.contains("ACME: no new certificate")).unwrap();
    assert!(warning.contains("expires=20"), "the expiry date is logged: {warning}");
    assert!(warning.contains("error="), "the reason is logged: {warning}");
    assert_eq!(served_leaf(&root, &second).await, renewed, "the certificate in force is still served");
    let mut still = Sender::over(connect(&connector, https()).await.unwrap()).await;
    assert_eq!(still.get("/").await.unwrap().status, StatusCode::OK);

    for log in [first_log, second.log()] {
        assert!(!log.contains("PRIVATE KEY"), "no key in the logs");
    }
}
