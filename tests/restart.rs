//! Issue 40 item 2: one server restarted under load behind a socket it does not own, as
//! systemd's socket activation runs it (`deploy/systemd/conference.socket`). The test plays
//! the socket manager: it binds the listening socket, keeps it, and hands it to each server as
//! fd 3 with `LISTEN_FDS=1` and `LISTEN_PID` set by the process itself (sd_listen_fds(3)).
//! Three restarts (SIGTERM, wait for the exit, start the next) while four clients send pages
//! and contact messages, each on a new connection as a visitor or a proxy does: no connection
//! is refused, every request is answered as it would be without a restart, and every message
//! answered 201 is stored. Bounded in requests and time; every process is stopped by its pid.

use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::common::loopback;

const RESTARTS: usize = 3;
const CLIENTS: usize = 4;
/// Requests a client sends at most, whatever happens.
const MAX_PER_CLIENT: usize = 5000;
/// Longest wait for a start, a stop or an answer.
const PATIENCE: Duration = Duration::from_secs(60);
/// Answers each server gives before it is stopped: every client goes round its three
/// requests (page, health, contact) about twice, however slow the machine.
const ANSWERS_PER_SERVER: usize = CLIENTS * 3 * 2;
const ORIGIN: &str = "http://127.0.0.1:3000";

/// A server given the socket `listener` as fd 3. `LISTEN_ADDR` names a port nobody listens
/// on: the handed-over socket must be the one served.
fn start(data: &Path, listener: &std::net::TcpListener) -> Child {
    let fd = listener.as_raw_fd();
    let mut command = Command::new("/bin/sh");
    // `$$` is the shell's pid, which `exec` keeps for the server: LISTEN_PID names it.
    command
        .args(["-c", r#"LISTEN_PID=$$ LISTEN_FDS=1 exec "$0" serve"#, env!("CARGO_BIN_EXE_conference")])
        .env("LISTEN_ADDR", "127.0.0.1:9")
        .env("DATA_DIR", data)
        .env("DATABASE_URL", format!("sqlite://{}/conference.db", data.display()))
        .env("PUBLIC_URL", ORIGIN)
        .env("RATE_LIMIT_PER_MINUTE", "1000000")
        .env("RUST_LOG", "warn")
        .env_remove("SMTP_URL")
        .env_remove("CCAVENUE_MERCHANT_ID")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    // SAFETY: only async-signal-safe calls (dup2, fcntl) between fork and exec.
    unsafe {
        command.pre_exec(move || {
            if fd == 3 {
                // dup2 onto itself keeps close-on-exec: clear it instead.
                if libc::fcntl(3, libc::F_SETFD, 0) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
            } else if libc::dup2(fd, 3) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.spawn().expect("the server starts")
}

/// SIGTERM, then waits for the exit (SIGKILL after `PATIENCE`, which fails the test).
fn stop(child: &mut Child) {
    let pid = i32::try_from(child.id()).expect("a pid");
    // SAFETY: a signal to our own child, by its pid.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    let deadline = Instant::now() + PATIENCE;
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the server did not exit within {PATIENCE:?} of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// One request on a new connection: status and body, or the error (refused, reset).
async fn request(client: &reqwest::Client, url: &str, contact: Option<&str>) -> Result<(u16, String), String> {
    let request = match contact {
        None => client.get(url),
        Some(token) => client.post(url).header("origin", ORIGIN).header("content-type", "application/json").body(
            serde_json::json!({
                "name": "Restart Test",
                "number": "+639171234567",
                "email": "restart.test@example.org",
                "country": "Philippines",
                "message": format!("Message {token} sent across a restart."),
            })
            .to_string(),
        ),
    };
    let answer = request.send().await.map_err(|e| format!("{e:?}"))?;
    let status = answer.status().as_u16();
    Ok((status, answer.text().await.map_err(|e| format!("{e:?}"))?))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_socket_activated_restart_under_load_refuses_no_connection_and_fails_no_request() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let seeded = Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["seed", "--file"])
        .arg(crate::common::fixture::path())
        .env("DATA_DIR", &data)
        .env("DATABASE_URL", format!("sqlite://{}/conference.db", data.display()))
        .env("RUST_LOG", "warn")
        .status()
        .expect("the binary runs");
    assert!(seeded.success(), "the fixture seed applies");

    // The socket manager's socket: open for the whole test, across every server.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let mut server = start(&data, &listener);
    // No connection per request is reused: each one is a new visitor's (or a proxy's).
    let client = loopback::builder().timeout(PATIENCE).pool_max_idle_per_host(0).build().unwrap();
    let (status, _) = request(&client, &format!("http://{addr}/api/health"), None).await.expect("the first answer");
    assert_eq!(status, 200);

    let stop_load = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    let mut clients = tokio::task::JoinSet::new();
    for c in 0..CLIENTS {
        let (client, stop_load, answered) = (client.clone(), stop_load.clone(), answered.clone());
        clients.spawn(async move {
            let (mut sent, mut stored, mut failures) = (0, Vec::new(), Vec::new());
            for k in 0..MAX_PER_CLIENT {
                if stop_load.load(Ordering::SeqCst) {
                    break;
                }
                let token = format!("[restart-{c}-{k}]");
                let (path, contact, expected) = match k % 3 {
                    0 => ("/", None, 200),
                    1 => ("/api/health", None, 200),
                    _ => ("/api/contact", Some(token.as_str()), 201),
                };
                sent += 1;
                let answer = request(&client, &format!("http://{addr}{path}"), contact).await;
                answered.fetch_add(1, Ordering::SeqCst);
                match answer {
                    Ok((status, _)) if status == expected => stored.extend(contact.map(str::to_owned)),
                    Ok((status, body)) => failures.push(format!("{path}: {status} {}", &body[..body.len().min(200)])),
                    Err(err) => failures.push(format!("{path}: no answer: {err}")),
                }
            }
            (sent, stored, failures)
        });
    }
    // Paced by answers, not by the clock: each server has served its share of the load
    // before it is stopped, on a fast machine or a loaded one.
    let served = |since: usize| {
        let answered = answered.clone();
        async move {
            let deadline = Instant::now() + PATIENCE;
            while answered.load(Ordering::SeqCst) < since + ANSWERS_PER_SERVER {
                assert!(Instant::now() < deadline, "the load made no progress within {PATIENCE:?}");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    };
    for _ in 0..RESTARTS {
        served(answered.load(Ordering::SeqCst)).await;
        let mut old = server;
        tokio::task::spawn_blocking(move || stop(&mut old)).await.unwrap();
        // As systemd does: the next process once the last one has exited, the socket open
        // throughout, so the connections of the gap wait in its queue.
        server = start(&data, &listener);
    }
    served(answered.load(Ordering::SeqCst)).await;
    stop_load.store(true, Ordering::SeqCst);
    let (mut sent, mut stored, mut failures) = (0, Vec::new(), Vec::new());
    while let Some(result) = clients.join_next().await {
        let (s, st, f) = result.expect("a client");
        sent += s;
        stored.extend(st);
        failures.extend(f);
    }
    stop(&mut server);
    eprintln!("restart: {sent} requests over {RESTARTS} restarts, {} failed", failures.len());
    assert!(failures.is_empty(), "{} of {sent} requests failed: {failures:#?}", failures.len());
    // Each of the RESTARTS + 1 servers answered ANSWERS_PER_SERVER requests, a third of them
    // contact messages.
    let least = (RESTARTS + 1) * ANSWERS_PER_SERVER / 3 - CLIENTS;
    assert!(stored.len() >= least, "the load ran across the restarts ({} messages, {least} expected)", stored.len());

    let pool = conference::db::connect(&format!("sqlite://{}/conference.db", data.display())).await.unwrap();
    let messages: Vec<(String,)> =
        sqlx::query_as("SELECT message FROM messages WHERE message LIKE '%[restart-%'").fetch_all(&pool).await.unwrap();
    pool.close().await;
    for token in &stored {
        let count = messages.iter().filter(|(m,)| m.contains(token.as_str())).count();
        assert_eq!(count, 1, "message {token} answered 201 is stored once");
    }
    assert_eq!(messages.len(), stored.len(), "no message stored that was not answered 201");
}
