//! HTTPS in the server with `TLS=files` (DESIGN.md section 13, issue 23), over real sockets on
//! loopback: pages over HTTP/2 and HTTP/1.1 with their security headers, a certificate
//! replaced on disk served to new connections while open ones go on, the connection limits
//! over TLS (a stalled handshake, an idle HTTP/2 connection, the per-client cap), rapid
//! reset, and the plain port's redirect. A self-signed pair is made here with rcgen; the
//! server is `accept_loop_tls` on 127.0.0.1:0 with 1 s timeouts. Every wait is bounded.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use axum::http::{StatusCode, Version};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_rustls::rustls::pki_types::CertificateDer;

use conference::config::{TlsSettings, TlsSource};
use conference::server::connections::Limits;

use crate::common::tls::{Sender, alpn, assert_security_headers, client, connect, peer_leaf, self_signed};
use crate::common::{TestApp, app_with};
use crate::connections::read_to_close;

/// Longest any step of these tests waits before calling it a failure.
const PATIENCE: Duration = Duration::from_secs(20);

struct Served {
    _app: TestApp,
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Served {
    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(PATIENCE, self.task).await.expect("the server stops").unwrap();
    }
}

/// Writes a pair to `cert.pem` and `key.pem` in `dir` the way a renewal tool does: each file
/// written beside and renamed over the old one.
fn install_pair(dir: &Path, cert: &str, key: &str) {
    for (name, text) in [("cert.pem", cert), ("key.pem", key)] {
        let temporary = dir.join(format!("{name}.new"));
        std::fs::write(&temporary, text).unwrap();
        std::fs::rename(&temporary, dir.join(name)).unwrap();
    }
}

/// The app over HTTPS with a fresh self-signed pair (see [`serve_tls`]); the folder holding
/// the pair, which must outlive the server, and the certificate a client is to trust.
async fn serve_self_signed() -> (tempfile::TempDir, Served, CertificateDer<'static>) {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key, der) = self_signed();
    install_pair(dir.path(), &cert, &key);
    let served = serve_tls(dir.path()).await;
    (dir, served, der)
}

/// The app over HTTPS with the pair in `cert_dir`: 1 s header and body timeouts, at most 3
/// connections per client address, a 2 s drain.
async fn serve_tls(cert_dir: &Path) -> Served {
    let app = app_with(|c| {
        c.public_url = "https://localhost".into();
        c.header_read_timeout_secs = 1;
        c.body_timeout_secs = 1;
        c.max_connections_per_client = 3;
        c.drain_timeout_secs = 2;
    })
    .await;
    let settings = TlsSettings {
        source: TlsSource::Files { cert: cert_dir.join("cert.pem"), key: cert_dir.join("key.pem") },
        http_listen_addr: None,
    };
    let tls = conference::server::tls::start(&settings).await.expect("the pair loads");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = Limits::from_config(&app.config, 1024);
    let (stop, stopped) = oneshot::channel::<()>();
    let router = app.router.clone();
    let task =
        tokio::spawn(conference::server::accept::accept_loop_tls(listener, router, limits, tls.acceptor, async {
            let _ = stopped.await;
        }));
    Served { _app: app, addr, stop: Some(stop), task }
}

#[tokio::test]
async fn pages_come_over_http2_and_http11_with_every_security_header() {
    let (_dir, served, der) = serve_self_signed().await;

    let h2 =
        connect(&client(std::slice::from_ref(&der), &[b"h2", b"http/1.1"]), served.addr).await.expect("a handshake");
    assert_eq!(alpn(&h2), "h2", "a browser offering h2 gets it");
    let mut h2 = Sender::over(h2).await;
    // The second answer of `/` is a cache hit (`App::dispatch`), served over HTTP/2 the same.
    for _ in 0..2 {
        let home = h2.get("/").await.unwrap();
        assert_eq!((home.version, home.status), (Version::HTTP_2, StatusCode::OK));
        assert!(home.body.contains("</html>"), "a whole page");
        assert_security_headers(&home);
    }
    let missing = h2.get("/no-such-page").await.unwrap();
    assert_eq!(missing.status, StatusCode::NOT_FOUND);

    for offered in [&[&b"http/1.1"[..]][..], &[]] {
        let h1 = connect(&client(std::slice::from_ref(&der), offered), served.addr).await.expect("a handshake");
        assert_ne!(alpn(&h1), "h2");
        let mut h1 = Sender::over(h1).await;
        let home = h1.get("/").await.unwrap();
        assert_eq!((home.version, home.status), (Version::HTTP_11, StatusCode::OK), "offered {offered:?}");
        assert_security_headers(&home);
    }

    // A client that does not trust the certificate gets no page.
    let (_, _, stranger) = self_signed();
    assert!(connect(&client(&[stranger], &[b"h2"]), served.addr).await.is_err());
    served.stop().await;
}

#[tokio::test]
async fn a_replaced_pair_serves_new_connections_and_open_ones_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let (old_cert, old_key, old_der) = self_signed();
    install_pair(dir.path(), &old_cert, &old_key);
    let served = serve_tls(dir.path()).await;
    let open = connect(&client(std::slice::from_ref(&old_der), &[b"h2"]), served.addr).await.unwrap();
    assert_eq!(peer_leaf(&open), old_der.to_vec());
    let mut open = Sender::over(open).await;
    assert_eq!(open.get("/api/health").await.unwrap().status, StatusCode::OK);

    let (new_cert, new_key, new_der) = self_signed();
    install_pair(dir.path(), &new_cert, &new_key);
    let trusting_new = client(std::slice::from_ref(&new_der), &[b"h2"]);
    let started = Instant::now();
    let renewed = loop {
        assert!(started.elapsed() < PATIENCE, "the new pair is served within {PATIENCE:?}");
        // The connection made with the old certificate keeps being served meanwhile (asking
        // now and then, below the 1 s idle timeout).
        assert_eq!(open.get("/api/health").await.unwrap().status, StatusCode::OK);
        if let Ok(stream) = connect(&trusting_new, served.addr).await {
            break stream;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(open.get("/api/health").await.unwrap().status, StatusCode::OK, "the old connection goes on");
    assert_eq!(peer_leaf(&renewed), new_der.to_vec());
    let mut renewed = Sender::over(renewed).await;
    assert_eq!(renewed.get("/").await.unwrap().status, StatusCode::OK);

    // A half-written pair (a key without its certificate) keeps the one in force.
    std::fs::write(dir.path().join("cert.pem"), "not a certificate").unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(connect(&trusting_new, served.addr).await.is_ok(), "the pair in force stays");
    served.stop().await;
}

#[tokio::test]
async fn a_stalled_handshake_and_an_idle_http2_connection_are_closed() {
    let (_dir, served, der) = serve_self_signed().await;

    // A TLS record header and then nothing: the handshake never completes.
    let mut stalled = TcpStream::connect(served.addr).await.unwrap();
    stalled.write_all(&[0x16, 0x03, 0x01, 0x02, 0x00]).await.unwrap();
    let sent = read_to_close(&mut stalled).await;
    assert!(sent.is_empty(), "nothing but the close: {sent:?}");

    // Slow headers over TLS (HTTP/1.1): never served.
    let mut slow = connect(&client(std::slice::from_ref(&der), &[b"http/1.1"]), served.addr).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ").await.unwrap();
    let answer = String::from_utf8_lossy(&read_to_close(&mut slow).await).into_owned();
    assert!(!answer.contains("200 OK"), "{answer}");

    // An HTTP/2 connection that asks nothing is closed (GOAWAY, then the close).
    let idle = connect(&client(std::slice::from_ref(&der), &[b"h2"]), served.addr).await.unwrap();
    let (_sender, connection) = h2::client::handshake(idle).await.expect("h2 handshake");
    let ended = tokio::time::timeout(PATIENCE, connection).await;
    assert!(ended.is_ok(), "the idle HTTP/2 connection ends");

    // The server still serves.
    let mut fresh = Sender::over(connect(&client(&[der], &[b"h2"]), served.addr).await.unwrap()).await;
    assert_eq!(fresh.get("/").await.unwrap().status, StatusCode::OK);
    served.stop().await;
}

#[tokio::test]
async fn one_address_cannot_take_every_tls_connection() {
    let (_dir, served, der) = serve_self_signed().await;
    let connector = client(&[der], &[b"h2"]);
    // The cap is 3 per address: three handshakes hold their slots...
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect(&connector, served.addr).await.expect("within the cap"));
    }
    // ...and a fourth from the same address is closed before its handshake.
    assert!(connect(&connector, served.addr).await.is_err(), "a fourth connection is refused");
    // Another address is served.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from(([127, 0, 0, 2], 0))).unwrap();
    let tcp = socket.connect(served.addr).await.unwrap();
    let other = connector.connect("localhost".try_into().unwrap(), tcp).await.expect("another address is served");
    let mut other = Sender::over(other).await;
    assert_eq!(other.get("/api/health").await.unwrap().status, StatusCode::OK);
    // A slot comes back when its connection ends.
    drop(held.pop());
    let started = Instant::now();
    while connect(&connector, served.addr).await.is_err() {
        assert!(started.elapsed() < PATIENCE, "a freed slot is given back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    served.stop().await;
}

#[tokio::test]
async fn streams_opened_and_reset_in_a_loop_leave_the_server_responsive() {
    let (_dir, served, der) = serve_self_signed().await;
    let connector = client(&[der], &[b"h2"]);

    // CVE-2023-44487: HEADERS then RST_STREAM, as fast as the client can, at most 5,000 times
    // or for 10 s.
    let attacker = connect(&connector, served.addr).await.unwrap();
    let (mut sender, connection) = h2::client::handshake(attacker).await.expect("h2 handshake");
    let driven = tokio::spawn(connection);
    let started = Instant::now();
    let mut reset = 0;
    while reset < 5_000 && started.elapsed() < Duration::from_secs(10) {
        let request = axum::http::Request::get("https://localhost/").body(()).unwrap();
        let Ok(ready) = sender.ready().await else { break };
        sender = ready;
        let Ok((_response, mut stream)) = sender.send_request(request, false) else { break };
        stream.send_reset(h2::Reason::CANCEL);
        reset += 1;
    }
    assert!(reset > 0, "the loop ran");

    // Meanwhile and after, other visitors are served.
    let mut visitor = Sender::over(connect(&connector, served.addr).await.unwrap()).await;
    let home = tokio::time::timeout(PATIENCE, visitor.get("/")).await.expect("an answer in time").unwrap();
    assert_eq!(home.status, StatusCode::OK);
    driven.abort();
    served.stop().await;
}

#[tokio::test]
async fn the_plain_port_redirects_every_request_to_https() {
    let app = app_with(|c| c.header_read_timeout_secs = 1).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = Limits::from_config(&app.config, 1024);
    let redirect = conference::server::redirect::Redirect::new("https://localhost:8443", None);
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(conference::server::accept::accept_loop(listener, redirect, limits, async {
        let _ = stopped.await;
    }));
    for request in [
        "GET /schedule?day=2 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        "POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    ] {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let answer = String::from_utf8_lossy(&read_to_close(&mut stream).await).into_owned();
        let target = request.split(' ').nth(1).unwrap();
        assert!(answer.starts_with("HTTP/1.1 308"), "{answer}");
        assert!(answer.to_lowercase().contains(&format!("location: https://localhost:8443{target}\r\n")), "{answer}");
    }
    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, task).await.expect("the plain port stops").unwrap();
}
