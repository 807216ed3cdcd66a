//! Page-cache hits answered ahead of the middleware stack (issue 9: pages at the speed of a
//! static file server), as first-class requests (issue 25).
//!
//! A `GET` or `HEAD` of a page whose prepared answer is fresh (`crate::handlers::render::fresh`
//! decides) needs nothing the stack does: no body to limit or time, no POST to guard, nothing
//! to compress. So [`App::dispatch`], the one place that tells a hit from a miss (the accept
//! loop and [`App`]'s `call`, which tests drive, both go through it), answers it straight from
//! memory. It still gets what every request gets: the `request` span with its client address
//! and the same log events at the same levels (`super::trace`), and the headers the stack
//! would have added, composed by the same `super::response_headers` call and kept with the
//! answer. Aliases of a page (`/Schedule`, `/Terms-%26-Conditions`) share its entry
//! (`crate::handlers::page_table::cache_key`). Everything else (a miss, a query string, a
//! body, any other method) goes through the stack unchanged.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::body::{Body, HttpBody};
use axum::extract::{ConnectInfo, Request};
use axum::http::{Method, StatusCode, header};
use axum::response::Response;
use tower::ServiceExt;

use super::response_headers::ResponseHeaders;
use super::trace;
use crate::base::client_ip::{ClientIp, TrustedProxies};
use crate::cache::prepared::{Form, Prepared};
use crate::handlers::page_table::cache_key;
use crate::handlers::render::fresh;
use crate::handlers::state::AppState;

/// The application: the router behind the cache-hit check. `Clone` costs two reference
/// counts, so the accept loop clones it per connection.
#[derive(Clone)]
pub struct App {
    hits: Arc<CacheHits>,
    router: axum::Router,
}

/// What a hit needs: the page cache (in the state), the headers every answer carries and
/// who may name the client.
struct CacheHits {
    state: AppState,
    headers: ResponseHeaders,
    trusted_proxies: TrustedProxies,
}

impl App {
    /// `router` (the whole stack) behind the cache-hit check for `state`'s page cache.
    pub fn new(state: AppState, headers: ResponseHeaders, router: axum::Router) -> App {
        let trusted_proxies = state.config.trusted_proxies.clone();
        App { hits: Arc::new(CacheHits { state, headers, trusted_proxies }), router }
    }

    /// Answers `request` from `peer` (none when tests drive the app without a socket): a hit
    /// at once, inside its request span; anything else through the router's stack.
    pub fn dispatch<B>(&self, mut request: axum::http::Request<B>, peer: Option<SocketAddr>) -> HitOrMiss
    where
        B: HttpBody<Data = axum::body::Bytes> + Send + 'static,
        B::Error: Into<axum::BoxError>,
    {
        if let Some(response) = self.hit(&request, peer) {
            return HitOrMiss::Hit(Some(response));
        }
        if let Some(peer) = peer {
            request.extensions_mut().insert(ConnectInfo(peer));
        }
        HitOrMiss::Miss(Box::pin(self.router.clone().oneshot(request.map(Body::new))))
    }

    /// The complete answer to `request` when the page cache holds a fresh one for its path.
    fn hit<B>(&self, request: &axum::http::Request<B>, peer: Option<SocketAddr>) -> Option<Response> {
        let method = request.method();
        if (method != Method::GET && method != Method::HEAD) || request.uri().query().is_some() || has_body(request) {
            return None;
        }
        let key = cache_key(request.uri().path());
        let prepared = fresh(&self.hits.state, key)?;
        let form = prepared.choose(request.headers()).ok()?;
        // A hit logs nothing but its span's two DEBUG events. When the log filter drops them
        // (the default, `info`), the span would hold no event and never show in the log, so it
        // is not made: making it (the registry's slot, its fields formatted into a string,
        // the filter's checks on enter and exit) was most of a hit's time (issue 30). With
        // them on, a hit logs exactly as a miss does.
        if !trace::request_events_enabled() {
            return Some(self.answer(method, key, &prepared, form));
        }
        let started = Instant::now();
        let client = ClientIp(peer.map(|peer| self.hits.trusted_proxies.client(peer.ip(), request.headers())));
        let span = trace::request_span(method, request.uri(), client);
        let _entered = span.enter();
        trace::started();
        let response = self.answer(method, key, &prepared, form);
        trace::finished(response.status(), started.elapsed());
        Some(response)
    }

    /// The prepared answer of `key` in `form`, with the headers the stack would have added.
    fn answer(&self, method: &Method, key: &str, prepared: &Prepared, form: Form) -> Response {
        // The headers the stack adds to this answer (the same for GET and HEAD, whose
        // `Cache-Control` policy is the same), made once per form and kept with it.
        let complete = |mut response: Response| {
            self.hits.headers.complete(&Method::GET, key, &mut response);
            std::mem::take(response.headers_mut())
        };
        let headers = prepared.hit_headers(form, complete);
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
        response
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
    type Future = HitOrMiss;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // The router is always ready (axum's own `poll_ready` says so).
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|info| info.0);
        self.dispatch(request, peer)
    }
}

/// The router's own future for a request.
type RouterFuture = tower::util::Oneshot<axum::Router, Request>;

/// A hit is ready at once (no allocation); a miss is the router's own future.
pub enum HitOrMiss {
    Hit(Option<Response>),
    Miss(Pin<Box<RouterFuture>>),
}

impl Future for HitOrMiss {
    type Output = Result<Response, std::convert::Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            HitOrMiss::Hit(response) => Poll::Ready(Ok(response.take().expect("a hit is polled to completion once"))),
            HitOrMiss::Miss(future) => future.as_mut().poll(cx),
        }
    }
}
