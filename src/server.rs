//! Start-up: the subcommands of DESIGN.md section 2 and serving with graceful shutdown.

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

use crate::cache_hits::HitOrMiss;
use crate::config::{Cli, Command, Config};
use crate::state::AppState;
use crate::{connections, db, mail, routes, sweep};

/// Runs the chosen subcommand to completion.
pub async fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    let config = cli.config;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Migrate => {
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            tracing::info!("migrations applied");
        }
        Command::Seed { file } => {
            // Organisers edit the file and re-apply it without rebuilding; a binary run
            // elsewhere falls back to the seed it was built with. A file named on the command
            // line must exist: a mistyped path never applies another seed instead, and is
            // refused before the database is touched.
            let file = match file {
                Some(file) if !file.is_file() => {
                    return Err(format!("seed file {} does not exist; nothing was changed", file.display()).into());
                }
                Some(file) => Some(file),
                None => Some(PathBuf::from(db::CONTENT_SEED_PATH)).filter(|default| default.is_file()),
            };
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            match file {
                Some(file) => {
                    let sql = std::fs::read_to_string(&file)?;
                    db::seed_with(&pool, sql).await?;
                    tracing::info!(file = %file.display(), "content seed applied");
                }
                None => {
                    db::seed(&pool).await?;
                    tracing::info!("content seed applied from the copy built into the binary");
                }
            }
        }
        Command::Export { kind, out } => {
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            match (kind, out) {
                (crate::export::ExportKind::Papers, Some(out)) => {
                    let written = crate::export::papers::write_all(&pool, &config.data_dir, &out).await?;
                    tracing::info!(written, out = %out.display(), "papers exported");
                }
                (kind, _) => crate::export::export(&pool, kind, std::io::stdout().lock()).await?,
            }
        }
        Command::Serve => serve(config).await?,
    }
    Ok(())
}

async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    // Before anything opens files: the connection cap is derived from the limit in force.
    let open_files = connections::raise_open_file_limit();
    // Fails closed (DESIGN.md section 6): `live` without its credentials does not start.
    let payments = crate::payments::PaymentConfig::resolve(&config)?;
    match &payments.off_reason {
        Some(reason) => tracing::warn!("payments are OFF: {reason}; Register and Pay say so"),
        None => tracing::info!(mode = payments.mode.as_str(), "payments"),
    }
    std::fs::create_dir_all(&config.data_dir)?;
    let pool = db::connect(&config.database_url).await?;
    db::migrate(&pool).await?;
    if db::seed_if_empty(&pool).await? {
        tracing::info!("empty database: content seed applied");
    }
    // What a crash left behind goes now, then every few minutes (src/sweep.rs).
    let sweeper = sweep::Sweeper::new(pool.clone(), &config);
    sweeper.run_once().await;
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let sweep_task = sweeper.spawn(stop_rx.clone());
    // Mail goes out in the background (DESIGN.md section 8); a bad SMTP_URL stops start-up.
    let transport = mail::MailTransport::from_config(&config)?;
    let mail_worker = mail::Worker::new(pool.clone(), transport, &config).spawn(stop_rx);
    // Content in memory before the first visitor (DESIGN.md section 10); the watcher reloads
    // it when `conference seed` runs, here or in another process.
    let state = AppState::new(pool.clone(), config.clone());
    state.content.reload().await?;
    // In the background: start-up stays quick (a debug build on a busy machine takes seconds
    // for brotli's top quality over the scripts), and a request for a file not prepared yet
    // waits for the one under way rather than compressing it a second time.
    tokio::spawn(async {
        let started = std::time::Instant::now();
        crate::assets::warm().await;
        tracing::info!(elapsed_ms = started.elapsed().as_millis() as u64, "assets prepared");
    });
    let listener = TcpListener::bind(config.listen_addr).await?;
    tracing::info!("serving on http://{}", listener.local_addr()?);
    let limits = connections::Limits::from_config(&config, open_files);
    tracing::info!(
        max_connections = limits.max_total,
        max_connections_per_client = limits.max_per_client,
        header_read_timeout_s = limits.header_read_timeout.as_secs(),
        body_timeout_s = limits.body_timeout.as_secs(),
        "connection limits"
    );
    // The home page and calendar of each coming minute, rendered before it starts.
    let ahead_task = crate::handlers::ahead::spawn(state.clone());
    let app = routes::app(state);
    accept_loop(listener, app, limits, shutdown_signal()).await;
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

/// Makes glibc's malloc give large blocks back to the system when they are freed.
///
/// Above `M_MMAP_THRESHOLD` a block is mapped on its own and unmapped on free; below, it comes
/// from a heap that rarely shrinks. glibc starts the threshold at 128 KiB but raises it by
/// itself (up to 32 MiB) after the first large free, so the brotli encoder's buffers of
/// start-up and of each minute's home page, and a burst of connections' buffers, would stay
/// resident for the life of the process. Holding glibc's own starting value fixed keeps the
/// resident set after a rush near the one before it (bench/README.md). Connection buffers
/// (at most 64 KiB, see [`accept_loop`]) stay below it. An operator's own
/// `MALLOC_MMAP_THRESHOLD_` wins; elsewhere than glibc there is nothing to do.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_MMAP_THRESHOLD_").is_none() {
        // SAFETY: mallopt only changes malloc's parameters; called before other threads exist.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
        }
    }
}

/// Lowers the calling thread's scheduling priority (nice 10) for background work that must
/// not compete with the requests being served. Linux applies `setpriority` to one thread when
/// given its id (0: the caller); elsewhere nothing changes.
pub fn lower_thread_priority() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: setpriority only changes the calling thread's nice value.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// Serves `app` on `listener` with the connection limits of [`connections::Limits`] until
/// `shutdown` resolves; then stops accepting, lets accepted requests finish for at most
/// the drain timeout, and returns.
///
/// hyper-util's connection builder with a `TokioTimer` (so `header_read_timeout` fires,
/// which `axum::serve` does not arrange). HTTP/1 only: browsers speak HTTP/2 only over TLS,
/// which a proxy in front terminates, and hyper's HTTP/2 server has no header timeout.
pub async fn accept_loop(
    listener: TcpListener,
    app: crate::cache_hits::App,
    limits: connections::Limits,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let mut builder = auto::Builder::new(TokioExecutor::new()).http1_only();
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(true)
        // Headers of a real browser request fit in a few KiB; 64 KiB bounds the read buffer
        // of each connection (hyper's default is ~400 KiB), so many slow clients cost little
        // memory.
        .max_buf_size(64 * 1024);
    // hyper's default of 100 headers at most is kept by not setting it: a `max_headers` of
    // any value makes hyper fill a header array per request instead of leaving it uninit.
    let graceful = GracefulShutdown::new();
    let total = Arc::new(Semaphore::new(limits.max_total));
    let per_client = connections::PerClient::default();
    let mut shutdown = std::pin::pin!(shutdown);
    // After the signal, connections the kernel already completed (in the backlog, their
    // request maybe sent) are still accepted and served: closing them would reset a request a
    // proxy cannot safely retry (a 502 for a POST). The listener closes once the backlog is empty.
    let mut stopping = false;
    loop {
        // Waiting for a slot before accepting leaves further connections in the kernel's
        // backlog instead of failing them, and keeps descriptors for the database and files.
        let permit = if stopping {
            match total.clone().try_acquire_owned() {
                Ok(permit) => permit,
                Err(_) => break,
            }
        } else {
            tokio::select! {
                permit = total.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
                () = &mut shutdown => break,
            }
        };
        let accepted = if stopping {
            match tokio::time::timeout(std::time::Duration::from_millis(50), listener.accept()).await {
                Ok(accepted) => accepted,
                Err(_) => break,
            }
        } else {
            tokio::select! {
                accepted = listener.accept() => accepted,
                () = &mut shutdown => {
                    stopping = true;
                    continue;
                }
            }
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(err) if stopping => {
                tracing::warn!(error = %err, "accept failed while stopping");
                break;
            }
            Err(err) => {
                // EMFILE and friends: wait a moment instead of spinning.
                tracing::warn!(error = %err, "accept failed");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let ip = peer.ip();
        let slot = if limits.exempt.contains(ip) {
            None
        } else {
            match per_client.try_acquire(ip, limits.max_per_client) {
                Some(slot) => Some(slot),
                None => {
                    tracing::debug!(%ip, "per-client connection cap reached; connection closed");
                    drop(stream);
                    continue;
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
            // A fresh cached page is answered before hyper's request becomes axum's.
            if let Some(response) = app.hit(&request) {
                return HitOrMiss::Hit(Some(response));
            }
            request.extensions_mut().insert(ConnectInfo(peer));
            HitOrMiss::Miss(Box::pin(app.router().clone().oneshot(request.map(axum::body::Body::new))))
        });
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::debug!(error = %err, %peer, "connection ended with an error");
            }
            drop(slot);
            drop(permit);
        });
    }
    drop(listener);
    tracing::info!(open = graceful.count(), "stopped accepting; draining");
    // hyper's graceful shutdown closes a connection whose first request it has not read yet
    // as idle; a moment lets the connections just accepted read theirs and finish them.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    if tokio::time::timeout(limits.drain_timeout, graceful.shutdown()).await.is_err() {
        tracing::warn!("drain timeout reached; closing the remaining connections");
    }
}

/// Resolves on Ctrl-C or SIGTERM, so in-flight requests finish before the process exits.
async fn shutdown_signal() {
    let ctrl_c = async {
        tokio::signal::ctrl_c().await.expect("Ctrl-C handler");
    };
    #[cfg(unix)]
    let terminate = async {
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("SIGTERM handler")
            .recv()
            .await;
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
