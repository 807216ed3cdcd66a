//! The headers every answer leaves with, composed in one place: the security headers
//! (`super::security`) and the `Cache-Control` policy (`super::cache_control`). The stack
//! applies [`ResponseHeaders::complete`] as one middleware ([`layer`]); the cache-hit path
//! prepares each kept answer's headers with the same call, so a hit and a miss can never
//! carry different sets.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::Response;

use super::{cache_control, security};

/// The site's security headers (`security::response_headers`, fixed at start-up).
#[derive(Debug, Clone)]
pub struct ResponseHeaders {
    security: HeaderMap,
}

impl ResponseHeaders {
    pub fn new(security: HeaderMap) -> Self {
        ResponseHeaders { security }
    }

    /// Adds what every answer to a `method` request for `path` carries: the route's
    /// `Cache-Control` policy and each security header the handler did not set.
    pub fn complete(&self, method: &Method, path: &str, response: &mut Response) {
        cache_control::apply(method, path, response);
        security::add_missing(response.headers_mut(), &self.security);
    }
}

/// The middleware (`axum::middleware::from_fn_with_state(Arc<ResponseHeaders>, layer)`).
pub async fn layer(State(headers): State<Arc<ResponseHeaders>>, request: Request, next: Next) -> Response {
    // Clones that share their bytes (a standard method, a `Uri`).
    let method = request.method().clone();
    let uri = request.uri().clone();
    let mut response = next.run(request).await;
    headers.complete(&method, uri.path(), &mut response);
    response
}
