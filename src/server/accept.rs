//! The accept loop: hyper-util's connection builder over the [`App`], with the connection
//! limits of [`super::connections`] and graceful shutdown.

use std::sync::Arc;

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::connections::{self, Limits};
use crate::http::cache_hits::App;

/// Serves `app` on `listener` with the connection limits of [`connections::Limits`] until
/// `shutdown` resolves; then stops accepting, lets accepted requests finish for at most
/// the drain timeout, and returns.
///
/// hyper-util's connection builder with a `TokioTimer` (so `header_read_timeout` fires,
/// which `axum::serve` does not arrange). HTTP/1 only: browsers speak HTTP/2 only over TLS,
/// which a proxy in front terminates, and hyper's HTTP/2 server has no header timeout.
pub async fn accept_loop(
    listener: TcpListener,
    app: App,
    limits: Limits,
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
        // A fresh cached page is answered before hyper's request becomes axum's.
        let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
            app.dispatch(request, Some(peer))
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
pub async fn shutdown_signal() {
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
