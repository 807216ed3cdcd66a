//! Panics while answering a request, wherever they happen: in a handler (caught by tower-http's
//! `CatchPanicLayer`, `super::router`) or in a response body polled after the handler returned
//! (caught by `super::body_guard`). Each is logged at ERROR inside the request's span and
//! counted, so one count says how many answers the server broke since it started.

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};

/// Panics caught since the process started.
static CAUGHT: AtomicU64 = AtomicU64::new(0);

/// How many panics handlers and response bodies raised since the process started.
pub fn caught() -> u64 {
    CAUGHT.load(Ordering::Relaxed)
}

/// Counts the panic `payload` caught in `place` ("handler", "response body") and logs it at
/// ERROR (inside the span that is entered, the request's); returns its message. The payload's
/// text goes to the log only, never to the client.
pub fn record(place: &'static str, payload: &(dyn Any + Send)) -> String {
    let message = payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned());
    let total = CAUGHT.fetch_add(1, Ordering::Relaxed) + 1;
    tracing::error!(panic = %message, place, panics_caught = total, "a request's {place} panicked");
    message
}
