//! Page-cache hits answered ahead of the middleware stack (issue 9: pages at the speed of a
//! static file server).
//!
//! A `GET` or `HEAD` of a page whose prepared answer is fresh (same content generation, same
//! minute or year as its `crate::cache::pages::ClockUse`, decided by
//! `crate::handlers::render::fresh`) needs nothing the stack does: no body to
//! limit or time, no POST to guard, nothing to compress, no span worth a log line. So the
//! accept loop (or [`App`]'s `call`, which tests drive) answers it straight from memory,
//! with every header the stack would have added (the security headers of [`crate::http::security::response_headers`] and the policy of
//! [`cache_control::apply`]); `tests/page_cache.rs` checks that a hit and the first,
//! rendered answer carry the same headers. Everything else (a miss, a query string, a body,
//! any other method) goes through the stack unchanged.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::Response;

use super::{cache_control, security};
use crate::handlers::render::fresh;
use crate::handlers::state::AppState;

/// The application: the router behind the cache-hit check. `Clone` costs two reference
/// counts, so the accept loop clones it per request.
#[derive(Clone)]
pub struct App {
    hits: Arc<CacheHits>,
    router: axum::Router,
}

/// What a hit needs: the page cache (in the state) and the headers every answer carries.
struct CacheHits {
    state: AppState,
    /// The security headers of `crate::http::security::response_headers`.
    headers: HeaderMap,
}

impl App {
    /// `router` (the whole stack) behind the cache-hit check for `state`'s page cache.
    pub fn new(state: AppState, security_headers: HeaderMap, router: axum::Router) -> App {
        App { hits: Arc::new(CacheHits { state, headers: security_headers }), router }
    }

    /// The complete answer to `request` when the page cache holds a fresh one for its path
    /// (whatever its body type: the accept loop asks before it wraps hyper's).
    pub fn hit<B>(&self, request: &axum::http::Request<B>) -> Option<Response> {
        let method = request.method();
        if (method != Method::GET && method != Method::HEAD) || request.uri().query().is_some() || has_body(request) {
            return None;
        }
        let path = request.uri().path();
        let prepared = fresh(&self.hits.state, path)?;
        let form = prepared.choose(request.headers());
        // What the stack adds; the same for GET and HEAD (`cache_control::policy`).
        let complete = |mut response: Response| {
            cache_control::apply(&Method::GET, path, &mut response);
            security::add_missing(response.headers_mut(), &self.hits.headers);
            std::mem::take(response.headers_mut())
        };
        let Some(headers) = prepared.hit_headers(path, form, complete) else {
            let mut response = prepared.respond_as(form);
            if method == Method::HEAD {
                *response.body_mut() = Body::empty();
            }
            cache_control::apply(method, path, &mut response);
            security::add_missing(response.headers_mut(), &self.hits.headers);
            return Some(response);
        };
        let body = if method == Method::HEAD || form.not_modified {
            Body::empty()
        } else {
            Body::from(prepared.body(form.coding).clone())
        };
        let mut response = Response::new(body);
        if form.not_modified {
            *response.status_mut() = StatusCode::NOT_MODIFIED;
        }
        *response.headers_mut() = headers.clone();
        Some(response)
    }

    /// The router behind the check, for what is not a hit.
    pub fn router(&self) -> &axum::Router {
        &self.router
    }
}

/// Whether the request announces a body (a hit answers only requests without one, so the
/// stack's length and timeout checks have nothing to do for it).
fn has_body<B>(request: &axum::http::Request<B>) -> bool {
    let headers = request.headers();
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers.get(header::CONTENT_LENGTH).is_some_and(|length| length.as_bytes() != b"0")
}

impl tower::Service<Request> for App {
    type Response = Response;
    type Error = std::convert::Infallible;
    type Future = HitOrMiss<<axum::Router as tower::Service<Request>>::Future>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // The router is always ready (axum's own `poll_ready` says so).
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        match self.hit(&request) {
            Some(response) => HitOrMiss::Hit(Some(response)),
            None => HitOrMiss::Miss(Box::pin(tower::Service::call(&mut self.router.clone(), request))),
        }
    }
}

/// A hit is ready at once (no allocation); a miss is the router's own future.
pub enum HitOrMiss<F> {
    Hit(Option<Response>),
    Miss(Pin<Box<F>>),
}

impl<F, E> Future for HitOrMiss<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            HitOrMiss::Hit(response) => Poll::Ready(Ok(response.take().expect("a hit is polled to completion once"))),
            HitOrMiss::Miss(future) => future.as_mut().poll(cx),
        }
    }
}
