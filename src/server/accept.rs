//! The accept loop: hyper-util's connection builder over what answers a listener (the
//! [`App`], or the plain port's redirect), with the connection limits of
//! [`super::connections`], TLS when it is on (`super::tls`), and graceful shutdown.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::response::Response;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio_rustls::TlsAcceptor;

use super::connections::{self, ClientSlot, Limits, OnStop, STOP_ACCEPTING_WITHIN};
use crate::http::cache_hits::App;

/// Most HTTP/2 streams one connection may have open at once (RFC 9113 section 5.1.2): what a
/// page with its images and scripts needs, and a bound on a client's concurrent work.
pub const MAX_CONCURRENT_STREAMS: u32 = 100;

/// Largest HTTP/2 header list accepted (RFC 9113 section 6.5.2), the same 64 KiB bound as
/// HTTP/1's read buffer.
pub const MAX_HEADER_LIST_SIZE: u32 = 64 * 1024;

/// What answers the requests of one listener, from the connection's peer address.
pub trait Answer: Clone + Send + Sync + 'static {
    type Future: Future<Output = Result<Response, Infallible>> + Send + 'static;

    fn answer(&self, request: hyper::Request<Incoming>, peer: SocketAddr) -> Self::Future;
}

impl Answer for App {
    type Future = crate::http::cache_hits::HitOrMiss;

    /// A fresh cached page is answered before hyper's request becomes axum's.
    fn answer(&self, request: hyper::Request<Incoming>, peer: SocketAddr) -> Self::Future {
        self.dispatch(request, Some(peer))
    }
}

/// Serves `answer` on `listener` over plain HTTP/1.1 with the connection limits of
/// [`connections::Limits`] until `shutdown` resolves; then stops accepting, lets accepted
/// requests finish for at most the drain timeout, and returns.
///
/// hyper-util's connection builder with a `TokioTimer` (so `header_read_timeout` fires,
/// which `axum::serve` does not arrange). HTTP/1 only: browsers speak HTTP/2 only over TLS
/// ([`accept_loop_tls`]), and plain h2c is not needed.
pub async fn accept_loop<A: Answer>(
    listener: TcpListener,
    answer: A,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()>,
) {
    run(listener, answer, limits, None, shutdown).await
}

/// [`accept_loop`] over TLS (`super::tls`): HTTP/2 or HTTP/1.1 as ALPN agreed, through
/// hyper-util's auto builder. The same limits hold, with the TLS handshake inside the header
/// timeout, and an HTTP/2 connection without a request for that long closed (hyper's own
/// header timeout is HTTP/1's).
pub async fn accept_loop_tls<A: Answer>(
    listener: TcpListener,
    answer: A,
    limits: Limits,
    tls: TlsAcceptor,
    shutdown: impl std::future::Future<Output = ()>,
) {
    run(listener, answer, limits, Some(tls), shutdown).await
}

/// HTTP/1's settings, for plain and TLS connections alike.
fn configure_http1(builder: &mut auto::Builder<TokioExecutor>, limits: &Limits) {
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
}

async fn run<A: Answer>(
    listener: TcpListener,
    answer: A,
    limits: Limits,
    tls: Option<TlsAcceptor>,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let mut builder = auto::Builder::new(TokioExecutor::new()).http1_only();
    configure_http1(&mut builder, &limits);
    // TLS connections: both protocols, HTTP/2 bounded against rapid reset (CVE-2023-44487)
    // by the stream limit and h2's caps on streams reset before or after they are accepted.
    let secure = tls.map(|acceptor| {
        let mut builder = auto::Builder::new(TokioExecutor::new());
        configure_http1(&mut builder, &limits);
        builder
            .http2()
            .timer(TokioTimer::new())
            .max_concurrent_streams(MAX_CONCURRENT_STREAMS)
            .max_header_list_size(MAX_HEADER_LIST_SIZE)
            .max_pending_accept_reset_streams(20)
            .max_local_error_reset_streams(256);
        (acceptor, Arc::new(builder))
    });
    let graceful = GracefulShutdown::new();
    // TLS connections close gracefully when this turns true (hyper-util's `GracefulShutdown`
    // watches only connections it wraps whole, and these start with a handshake).
    let (stop_tls, stopping_tls) = watch::channel(false);
    let total = Arc::new(Semaphore::new(limits.max_total));
    let per_client = connections::PerClient::default();
    let mut shutdown = std::pin::pin!(shutdown);
    // After the signal, connections the kernel already completed (in the backlog, their
    // request maybe sent) are still accepted and served: closing them would reset a request a
    // proxy cannot safely retry (a 502 for a POST). The listener closes once the backlog is
    // empty, and within `STOP_ACCEPTING_WITHIN` whatever keeps arriving (issue 40). A socket
    // handed over by a socket manager stays open there: its queue waits for the next process.
    let mut stopping = false;
    let mut stop_accepting_at = Instant::now();
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
            let left = stop_accepting_at.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left.min(Duration::from_millis(50)), listener.accept()).await {
                Ok(accepted) => accepted,
                Err(_) => break,
            }
        } else {
            tokio::select! {
                accepted = listener.accept() => accepted,
                () = &mut shutdown => {
                    if limits.on_stop == OnStop::HandOver {
                        break;
                    }
                    stopping = true;
                    stop_accepting_at = Instant::now() + STOP_ACCEPTING_WITHIN;
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
        if let Some((acceptor, builder)) = &secure {
            let held = Held { _slot: slot, _permit: permit };
            let connection = TlsConnection {
                acceptor: acceptor.clone(),
                builder: builder.clone(),
                answer: answer.clone(),
                timeout: limits.header_read_timeout,
                stopping: stopping_tls.clone(),
            };
            tokio::spawn(connection.serve(stream, peer, held));
            continue;
        }
        let answer = answer.clone();
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| answer.answer(request, peer));
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
    let _ = stop_tls.send(true);
    let every_slot = u32::try_from(limits.max_total).unwrap_or(u32::MAX);
    let drained = async {
        graceful.shutdown().await;
        // TLS connections give their slot back when they end.
        let _ = total.acquire_many(every_slot).await;
    };
    if tokio::time::timeout(limits.drain_timeout, drained).await.is_err() {
        tracing::warn!("drain timeout reached; closing the remaining connections");
    }
}

/// What a connection holds until it ends: its client's slot and its place in the total.
struct Held {
    _slot: Option<ClientSlot>,
    _permit: OwnedSemaphorePermit,
}

/// One TLS connection: its handshake, then HTTP/2 or HTTP/1.1.
struct TlsConnection<A> {
    acceptor: TlsAcceptor,
    builder: Arc<auto::Builder<TokioExecutor>>,
    answer: A,
    /// The header timeout: for the handshake, and for an HTTP/2 connection without requests.
    timeout: Duration,
    stopping: watch::Receiver<bool>,
}

impl<A: Answer> TlsConnection<A> {
    async fn serve(self, stream: TcpStream, peer: SocketAddr, held: Held) {
        let TlsConnection { acceptor, builder, answer, timeout, mut stopping } = self;
        // A handshake that stalls holds a slot like slow headers do: the same timeout ends it.
        let stream = match tokio::time::timeout(timeout, acceptor.accept(stream)).await {
            Ok(Ok(stream)) => stream,
            Ok(Err(err)) => {
                tracing::debug!(error = %err, %peer, "TLS handshake failed");
                return;
            }
            Err(_) => {
                tracing::debug!(%peer, "TLS handshake not done within the header timeout; connection closed");
                return;
            }
        };
        let h2 = stream.get_ref().1.alpn_protocol() == Some(b"h2");
        let activity = Arc::new(Activity::new());
        let tracked = activity.clone();
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let in_flight = tracked.begin();
            let answered = answer.answer(request, peer);
            async move {
                let response = answered.await;
                drop(in_flight);
                response
            }
        });
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
        let mut connection = std::pin::pin!(connection);
        let idle = async {
            match h2 {
                true => activity.idle(timeout).await,
                false => std::future::pending::<()>().await,
            }
        };
        let stopping = async {
            let _ = stopping.wait_for(|stop| *stop).await;
        };
        let close = tokio::select! {
            result = connection.as_mut() => {
                if let Err(err) = result {
                    tracing::debug!(error = %err, %peer, "connection ended with an error");
                }
                false
            }
            () = idle => true,
            () = stopping => true,
        };
        if close {
            // HTTP/2: GOAWAY, and the streams under way finish; HTTP/1: after the answer.
            connection.as_mut().graceful_shutdown();
            if let Err(err) = connection.await {
                tracing::debug!(error = %err, %peer, "connection ended with an error");
            }
        }
        drop(held);
    }
}

/// When a TLS connection last started or finished a request, and how many are under way.
struct Activity {
    since: Instant,
    last_ms: AtomicU64,
    in_flight: AtomicUsize,
}

/// One request under way; finishing it (or dropping it) counts as activity.
struct InFlight(Arc<Activity>);

impl Activity {
    fn new() -> Self {
        Activity { since: Instant::now(), last_ms: AtomicU64::new(0), in_flight: AtomicUsize::new(0) }
    }

    fn touch(&self) {
        let now = u64::try_from(self.since.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.store(now, Ordering::Relaxed);
    }

    fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        self.touch();
        InFlight(self.clone())
    }

    /// Resolves once no request has been under way for `timeout`.
    async fn idle(&self, timeout: Duration) {
        loop {
            let wait = if self.in_flight.load(Ordering::Relaxed) > 0 {
                timeout
            } else {
                let last = Duration::from_millis(self.last_ms.load(Ordering::Relaxed));
                let idle = self.since.elapsed().saturating_sub(last);
                if idle >= timeout {
                    return;
                }
                timeout - idle
            };
            tokio::time::sleep(wait).await;
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
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
