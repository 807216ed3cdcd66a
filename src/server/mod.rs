//! Serving: start-up with everything a server needs before its first visitor, the accept
//! loop with its connection limits (`accept`, `connections`), HTTPS (`tls`, `acme`, and the
//! plain port's `redirect`), graceful shutdown, and the sweeper of what a crash left behind
//! (`sweep`).

pub mod accept;
pub mod acme;
pub mod certificates;
pub mod connections;
pub mod redirect;
pub mod sweep;
pub mod tls;

use tokio::net::TcpListener;

use crate::config::Config;
use crate::handlers::state::AppState;
use crate::seed::apply;
use crate::{db, mail};

/// The listening socket: the first one a socket manager handed over (systemd's socket
/// activation, `LISTEN_FDS` and `LISTEN_PID`, sd_listen_fds(3); `deploy/systemd/conference.socket`),
/// which a restart leaves open with its queue, else a new one bound to `LISTEN_ADDR`. A
/// handed-over descriptor that is not a TCP listener stops start-up.
async fn listener(config: &Config) -> std::io::Result<(TcpListener, connections::OnStop)> {
    let mut passed = listenfd::ListenFd::from_env();
    if let Some(socket) = passed.take_tcp_listener(0)? {
        socket.set_nonblocking(true)?;
        tracing::info!(
            address = %socket.local_addr()?,
            "listening on the socket the socket manager passed (LISTEN_FDS); LISTEN_ADDR is not used"
        );
        return Ok((TcpListener::from_std(socket)?, connections::OnStop::HandOver));
    }
    Ok((TcpListener::bind(config.listen_addr).await?, connections::OnStop::Drain))
}

/// `conference serve`: migrates, seeds an empty database, loads the content, starts the mail
/// worker, the sweeper and the pages rendered ahead, and serves until SIGTERM or Ctrl-C.
pub async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    // Before anything opens files: the connection cap is derived from the limit in force.
    let open_files = crate::base::sys::raise_open_file_limit();
    // Fails closed (DESIGN.md section 13): `TLS=files` without its files, an `http://`
    // PUBLIC_URL with TLS on, does not start.
    let tls_settings = config.tls_settings()?;
    // Fails closed (DESIGN.md section 6): `live` without its credentials does not start.
    let payments = crate::payments::PaymentConfig::resolve(&config)?;
    match &payments.off_reason {
        Some(reason) => tracing::warn!("payments are OFF: {reason}; Register and Pay say so"),
        None => tracing::info!(mode = payments.mode.as_str(), "payments"),
    }
    std::fs::create_dir_all(&config.data_dir)?;
    let pool = db::connect(&config.database_url).await?;
    db::migrate(&pool).await?;
    if apply::seed_if_empty(&pool).await? {
        tracing::info!("empty database: content seed applied");
    }
    // What a crash left behind goes now, then every few minutes (src/sweep.rs).
    let sweeper = sweep::Sweeper::new(pool.clone(), &config);
    sweeper.run_once().await;
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let sweep_task = sweeper.spawn(stop_rx.clone());
    // Mail goes out in the background (DESIGN.md section 8); a bad SMTP_URL stops start-up.
    let transport = mail::MailTransport::from_config(&config)?;
    let mail_worker = mail::Worker::new(pool.clone(), transport, &config).spawn_senders(config.mail_senders, stop_rx);
    // Content in memory before the first visitor (DESIGN.md section 10); the watcher reloads
    // it when `conference seed` runs, here or in another process.
    let state = AppState::new(pool.clone(), config.clone());
    state.content.reload().await?;
    // In the background: start-up stays quick (a debug build on a busy machine takes seconds
    // for brotli's top quality over the scripts), and a request for a file not prepared yet
    // waits for the one under way rather than compressing it a second time.
    tokio::spawn(async {
        let started = std::time::Instant::now();
        crate::cache::assets::warm().await;
        tracing::info!(elapsed_ms = started.elapsed().as_millis() as u64, "assets prepared");
    });
    // The plain port listens before ACME orders: the CA's HTTP-01 request may come at once.
    let plain = match tls_settings.as_ref().and_then(|settings| settings.http_listen_addr) {
        Some(addr) => Some(TcpListener::bind(addr).await?),
        None => None,
    };
    let tls = match &tls_settings {
        Some(settings) => Some(tls::start(settings).await?),
        None => None,
    };
    let (listener, on_stop) = listener(&config).await?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    tracing::info!("serving on {scheme}://{}", listener.local_addr()?);
    let limits = connections::Limits { on_stop, ..connections::Limits::from_config(&config, open_files) };
    tracing::info!(
        max_connections = limits.max_total,
        max_connections_per_client = limits.max_per_client,
        header_read_timeout_s = limits.header_read_timeout.as_secs(),
        body_timeout_s = limits.body_timeout.as_secs(),
        "connection limits"
    );
    // The home page and calendar of each coming minute, rendered before it starts.
    let ahead_task = crate::handlers::ahead::spawn(state.clone());
    let app = crate::http::router::app(state);
    // One signal stops every listener.
    let (signal_tx, signal_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        accept::shutdown_signal().await;
        let _ = signal_tx.send(true);
    });
    let stopped = |mut signal: tokio::sync::watch::Receiver<bool>| async move {
        let _ = signal.wait_for(|stop| *stop).await;
    };
    match tls {
        None => accept::accept_loop(listener, app, limits, stopped(signal_rx)).await,
        Some(tls) => {
            let plain_port = match plain {
                Some(plain) => {
                    tracing::info!("redirecting http://{} to https", plain.local_addr()?);
                    let origin = crate::config::origin_of(&config.public_url).ok_or("PUBLIC_URL has no origin")?;
                    let redirect = redirect::Redirect::new(&origin, tls.challenges.clone());
                    Some(tokio::spawn(accept::accept_loop(plain, redirect, limits.clone(), stopped(signal_rx.clone()))))
                }
                None => None,
            };
            accept::accept_loop_tls(listener, app, limits, tls.acceptor, stopped(signal_rx)).await;
            if let Some(plain_port) = plain_port {
                let _ = plain_port.await;
            }
        }
    }
    // The worker stops between two mails; a mail it was sending is let go at once so
    // another instance (or the next start) sends it without waiting for the lease.
    let _ = stop_tx.send(true);
    if tokio::time::timeout(std::time::Duration::from_secs(10), mail_worker).await.is_err() {
        tracing::warn!("mail worker did not stop in time");
    }
    sweep_task.abort();
    ahead_task.abort();
    pool.close().await;
    tracing::info!("stopped");
    Ok(())
}
