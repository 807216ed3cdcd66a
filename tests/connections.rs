//! Connection limits over real sockets on loopback (DESIGN.md section 2, issue 11): header
//! and body timeouts, the per-client cap, 413 on a declared length, and the drain on
//! shutdown. The server is `conference::server::accept::accept_loop` on 127.0.0.1:0 with timeouts of
//! a second, so each test runs in a few seconds; every wait is bounded.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::oneshot;

use conference::server::connections::Limits;

use crate::common::{BASE, TestApp, app_with};

/// Longest any step of these tests waits before calling it a failure.
const PATIENCE: Duration = Duration::from_secs(20);

pub(crate) struct Served {
    pub(crate) app: TestApp,
    pub(crate) addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Served {
    pub(crate) async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(PATIENCE, self.task).await.expect("the server stops").unwrap();
    }
}

/// The app behind the real accept loop: 1 s header and body timeouts, at most 3
/// connections per client address, a 2 s drain.
pub(crate) async fn serve(configure: impl FnOnce(&mut conference::config::Config)) -> Served {
    let app = app_with(|c| {
        c.header_read_timeout_secs = 1;
        c.body_timeout_secs = 1;
        c.max_connections_per_client = 3;
        c.drain_timeout_secs = 2;
        configure(c);
    })
    .await;
    serve_app(app).await
}

/// `app` behind the real accept loop on 127.0.0.1, on a port of its own, with its settings.
pub(crate) async fn serve_app(app: TestApp) -> Served {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = Limits::from_config(&app.config, 1024);
    let (stop, stopped) = oneshot::channel::<()>();
    let router = app.router.clone();
    let task = tokio::spawn(conference::server::accept::accept_loop(listener, router, limits, async {
        let _ = stopped.await;
    }));
    Served { app, addr, stop: Some(stop), task }
}

/// A connection to `addr` from the loopback address `from` (e.g. 127.0.0.2).
async fn connect_from(from: [u8; 4], addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((from, 0))).unwrap();
    socket.connect(addr).await.unwrap()
}

/// Everything the server sends until it closes the connection (bounded by [`PATIENCE`]).
pub(crate) async fn read_to_close<S: tokio::io::AsyncRead + Unpin>(stream: &mut S) -> Vec<u8> {
    let mut out = Vec::new();
    let read = tokio::time::timeout(PATIENCE, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the server closes the connection");
    out
}

/// [`read_to_close`] as text.
async fn text_to_close(stream: &mut TcpStream) -> String {
    String::from_utf8_lossy(&read_to_close(stream).await).into_owned()
}

/// The status line of the first response the server sends.
async fn first_status(stream: &mut TcpStream) -> String {
    let mut out = Vec::new();
    let mut buf = [0u8; 1024];
    tokio::time::timeout(PATIENCE, async {
        while !out.windows(2).any(|w| w == b"\r\n") {
            let n = stream.read(&mut buf).await.unwrap();
            assert!(n > 0, "closed before answering");
            out.extend_from_slice(&buf[..n]);
        }
    })
    .await
    .expect("an answer");
    String::from_utf8_lossy(&out).lines().next().unwrap_or_default().to_owned()
}

async fn health(addr: SocketAddr, from: [u8; 4]) -> String {
    let mut stream = connect_from(from, addr).await;
    stream.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
    text_to_close(&mut stream).await
}

#[tokio::test]
async fn headers_that_do_not_complete_in_time_close_the_connection() {
    let served = serve(|_| {}).await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    // A request line, then one header byte now and then (slowloris).
    stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let dribble = async {
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if stream.write_all(b"X").await.is_err() {
                return true;
            }
        }
        false
    };
    let closed = tokio::time::timeout(PATIENCE, dribble).await.unwrap_or(false);
    let rest = if closed { String::new() } else { text_to_close(&mut stream).await };
    assert!(closed || !rest.contains("200 OK"), "a dribbled request is never served: {rest}");
    // An idle keep-alive connection is closed too.
    let mut idle = TcpStream::connect(served.addr).await.unwrap();
    idle.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let answer = text_to_close(&mut idle).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    served.stop().await;
}

#[tokio::test]
async fn a_body_that_stops_arriving_gets_408_and_nothing_is_stored() {
    let served = serve(|_| {}).await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let head = format!(
        "POST /api/contact HTTP/1.1\r\nHost: x\r\nOrigin: {BASE}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(b"{\"name\":\"An").await.unwrap();
    let status = first_status(&mut stream).await;
    assert!(status.starts_with("HTTP/1.1 408"), "{status}");
    assert_eq!(served.app.count("messages").await, 0);

    // A paper upload that stalls half-way: 408, and its temp file is gone.
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let head = format!(
        "POST /api/paper-submission HTTP/1.1\r\nHost: x\r\nOrigin: {BASE}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
        .write_all(b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.pdf\"\r\n\r\n%PDF-1.4\n")
        .await
        .unwrap();
    let status = first_status(&mut stream).await;
    assert!(status.starts_with("HTTP/1.1 408"), "{status}");
    assert_eq!(served.app.count("submissions").await, 0);
    let papers = std::fs::read_dir(served.app.dir.path().join("papers")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(papers, 0, "no paper and no temp file is left");

    // The test gateway's form post, stalled: 408 too, not a 400 for an unreadable form.
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let head = "POST /test-gateway HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(b"encRequest=ab").await.unwrap();
    let status = first_status(&mut stream).await;
    assert!(status.starts_with("HTTP/1.1 408"), "test gateway: {status}");
    served.stop().await;
}

#[tokio::test]
async fn a_slow_upload_that_keeps_sending_is_stored() {
    let served = serve(|_| {}).await;
    let boundary = "XyZ";
    let mut body = Vec::new();
    for (name, value) in [
        ("paperType", "Abstract"),
        ("authorName", "Ana Cruz"),
        ("number", "+639171234567"),
        ("email", "ana@example.org"),
        ("country", "Philippines"),
        ("coAuthorName", "Ben Reyes"),
        ("paperTitle", "Slow links"),
        ("department", "Engineering"),
        ("universityOrganization", "University of Manila"),
        ("presentationType", "Oral"),
        ("message", "Sent from a phone"),
        ("conferenceSource", "linkedin"),
    ] {
        body.extend(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").bytes(),
        );
    }
    body.extend(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.pdf\"\r\nContent-Type: application/pdf\r\n\r\n")
            .bytes(),
    );
    let mut pdf = b"%PDF-1.4\n%".to_vec();
    pdf.resize(4000, b'x');
    pdf.extend_from_slice(b"\ntrailer\n<< >>\n%%EOF\n");
    body.extend(&pdf);
    body.extend(format!("\r\n--{boundary}--\r\n").bytes());

    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let head = format!(
        "POST /api/paper-submission HTTP/1.1\r\nHost: x\r\nOrigin: {BASE}\r\nContent-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // Eight slices 400 ms apart: 3 s in all, three times the body timeout, never a second
    // without a byte.
    for chunk in body.chunks(body.len().div_ceil(8)) {
        stream.write_all(chunk).await.unwrap();
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    let answer = text_to_close(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    assert_eq!(served.app.count("submissions").await, 1);
    served.stop().await;
}

#[tokio::test]
async fn a_declared_length_over_the_limit_is_413_before_the_body_on_every_route() {
    let served = serve(|c| c.upload_max_bytes = 10_000).await;
    for path in ["/api/ccavenue-initiate", "/api/contact", "/api/newsletter", "/api/paper-submission", "/pricing"] {
        let mut stream = TcpStream::connect(served.addr).await.unwrap();
        let content_type =
            if path == "/api/paper-submission" { "multipart/form-data; boundary=x" } else { "application/json" };
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nOrigin: {BASE}\r\nContent-Type: {content_type}\r\nContent-Length: 99999999999\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        // Not a byte of the body is sent: the answer comes anyway.
        let status = first_status(&mut stream).await;
        assert!(status.starts_with("HTTP/1.1 413"), "{path}: {status}");
    }
    served.stop().await;
}

#[tokio::test]
async fn one_address_cannot_take_every_connection() {
    let served = serve(|_| {}).await;
    // 127.0.0.3 holds its 3 connections (each mid-request, within the header timeout).
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut stream = connect_from([127, 0, 0, 3], served.addr).await;
        stream.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
        held.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Its fourth is closed at once, unanswered.
    let mut fourth = connect_from([127, 0, 0, 3], served.addr).await;
    let _ = fourth.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").await;
    let answer = text_to_close(&mut fourth).await;
    assert!(answer.is_empty(), "over the cap: {answer}");
    // Another address is served as usual.
    let answer = health(served.addr, [127, 0, 0, 4]).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // Once the held ones end (here by the header timeout), the address is served again.
    for mut stream in held {
        text_to_close(&mut stream).await;
    }
    let answer = health(served.addr, [127, 0, 0, 3]).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    served.stop().await;
}

#[tokio::test]
async fn trusted_proxies_are_exempt_from_the_per_address_cap() {
    let app = app_with(|c| {
        c.max_connections_per_client = 1;
        c.header_read_timeout_secs = 5;
        c.trusted_proxies = "127.0.0.5".parse().unwrap();
    })
    .await;
    let served = serve_app(app).await;
    let addr = served.addr;
    let mut first = connect_from([127, 0, 0, 5], addr).await;
    first.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let answer = health(addr, [127, 0, 0, 5]).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "the proxy's second connection is served: {answer}");
    drop(first);
    served.stop().await;
}

#[tokio::test]
async fn on_shutdown_accepted_requests_finish_and_new_ones_are_refused() {
    let served = serve(|c| c.body_timeout_secs = 5).await;
    // A request under way: headers sent, the body still coming.
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let body = b"{\"email\":\"ana@example.org\"}";
    let head = format!(
        "POST /api/newsletter HTTP/1.1\r\nHost: x\r\nOrigin: {BASE}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&body[..5]).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let addr = served.addr;
    let Served { app, stop, task, .. } = served;
    let _ = stop.unwrap().send(());
    tokio::time::sleep(Duration::from_millis(200)).await;
    // The listener is gone: a new connection is refused.
    assert!(TcpStream::connect(addr).await.is_err(), "no new connections after SIGTERM");
    // The accepted request still completes.
    stream.write_all(&body[5..]).await.unwrap();
    let status = first_status(&mut stream).await;
    assert!(status.starts_with("HTTP/1.1 201"), "{status}");
    tokio::time::timeout(PATIENCE, task).await.expect("drained").unwrap();
    assert_eq!(app.count("subscribers").await, 1);
}
