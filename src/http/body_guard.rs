//! Every response body the router's handlers make, guarded on its way out (issue 30).
//!
//! - **Ends once.** A body that has returned its end (or an error) is never polled again: the
//!   compression layer's encoders poll their source once more after its end, and a stream
//!   built with `futures_util::stream::unfold` panics when polled after it returned `None`
//!   (every organiser CSV and paper arrived cut off in a browser). HTTP bodies (`http_body`)
//!   promise nothing about polls after the end, so the guard, not each stream, makes it safe.
//! - **A panic is an error, not a lost connection task.** `CatchPanicLayer` sees only panics
//!   in handlers; a panic while a body is polled (in hyper's connection task, inside the
//!   trace layer's body, which enters the request's span) is caught here, logged and counted
//!   by `super::panics`, and ends the body with an error: the client sees a broken transfer
//!   (no terminating chunk, or fewer bytes than `Content-Length`), never a short file that
//!   looks whole.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::response::Response;
use http_body::{Frame, SizeHint};

use super::panics;

/// `response` with its body guarded (see the module's text).
pub fn guard(response: Response) -> Response {
    response.map(|body| Body::new(Guarded { inner: Some(body) }))
}

/// A body that ends once and turns a panic into an error; `None` once it has ended.
struct Guarded {
    inner: Option<Body>,
}

impl http_body::Body for Guarded {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        let Some(inner) = this.inner.as_mut() else { return Poll::Ready(None) };
        match catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll_frame(cx))) {
            Ok(Poll::Ready(Some(Ok(frame)))) => Poll::Ready(Some(Ok(frame))),
            Ok(Poll::Pending) => Poll::Pending,
            Ok(ended) => {
                // The end, or an error (after which a body has nothing more to give either).
                this.inner = None;
                ended
            }
            Err(payload) => {
                this.inner = None;
                panics::record("response body", &*payload);
                Poll::Ready(Some(Err(axum::Error::new("the response body panicked"))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.as_ref().is_none_or(http_body::Body::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.as_ref().map_or_else(|| SizeHint::with_exact(0), http_body::Body::size_hint)
    }
}
