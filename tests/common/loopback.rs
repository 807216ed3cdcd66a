//! The HTTP client of the tests that drive a server over 127.0.0.1 (`crash.rs`, `downloads.rs`, and
//! `cluster.rs`, which includes this file).

use std::sync::Arc;

use tokio_rustls::rustls::crypto::ring;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

/// A `reqwest` client builder for plain HTTP on loopback: redirects are answers, never
/// followed; no proxy from the environment; a new connection for every request, since the
/// server under test is killed and restarted between requests and a kept-alive connection
/// would fail the next one for a reason the test is not about. The caller sets the timeout.
pub fn builder() -> reqwest::ClientBuilder {
    // reqwest is built without a default crypto provider (Cargo.toml), so even plain HTTP
    // needs a TLS configuration: this one trusts no root and is never used on http:// URLs.
    let tls = ClientConfig::builder_with_provider(Arc::new(ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(RootCertStore::empty())
        .with_no_client_auth();
    reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .pool_max_idle_per_host(0)
}
