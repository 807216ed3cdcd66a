//! What the logs say about a request, the same for a page-cache hit and for a request that
//! goes through the stack (`tower_http::trace::TraceLayer` calls these; so does
//! `super::cache_hits`): one `request` span with the method, the URI and the client address
//! (`TRUSTED_PROXIES`-aware, `crate::base::client_ip`), an event when it starts and one with the
//! status and latency when it is answered. A hit makes its span only when those events are
//! recorded ([`request_events_enabled`]): a span holding no event never shows in the log.

use std::time::Duration;

use axum::http::{Method, StatusCode, Uri};
use tracing::Span;

use crate::base::client_ip::ClientIp;

/// The log span of a request, at INFO (so every event inside names the request).
pub fn request_span(method: &Method, uri: &Uri, client: ClientIp) -> Span {
    tracing::info_span!("request", method = %method, uri = %uri, %client)
}

/// Whether [`started`] and [`finished`] are recorded under the log filter in force (DEBUG of
/// this module; RUST_LOG). A page-cache hit, which logs nothing else, makes its span only when
/// they are (`super::cache_hits`); the filter's answer for this callsite is cached by tracing.
pub fn request_events_enabled() -> bool {
    tracing::enabled!(tracing::Level::DEBUG)
}

/// Logged (at DEBUG, as tower-http's default) inside the span when the request starts.
pub fn started() {
    tracing::debug!("started processing request");
}

/// Logged (at DEBUG, as tower-http's default) inside the span when the answer is ready;
/// `latency` in milliseconds.
pub fn finished(status: StatusCode, latency: Duration) {
    tracing::debug!(status = status.as_u16(), latency_ms = latency.as_millis() as u64, "finished processing request");
}
