//! The one outgoing HTTP call of the site (CCAvenue's order status call), through `reqwest`
//! with rustls (ring provider, Mozilla roots from `webpki-roots`) and a whole-call timeout.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio_rustls::rustls::{self, ClientConfig, RootCertStore};

/// Largest answer read, in bytes; an order status answer is well under 8 KiB.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// Why a call failed. Every case means "no answer", never "the answer is no".
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("bad URL {0:?}: only absolute http and https URLs are supported")]
    BadUrl(String),
    #[error("timed out after {0:?}")]
    Timeout(Duration),
    #[error("TLS setup: {0}")]
    Tls(String),
    #[error("HTTP: {0}")]
    Http(String),
    #[error("answer status {0}")]
    Status(u16),
    #[error("answer body: {0}")]
    Body(String),
}

/// POSTs `form` (already form-urlencoded) to `url` and returns the answer body as text,
/// all within `timeout`. Only a 2xx answer counts; no redirect is followed.
pub async fn post_form(url: &str, form: String, timeout: Duration) -> Result<String, HttpError> {
    let parsed = url::Url::parse(url).map_err(|_| HttpError::BadUrl(redacted(url)))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host().is_none() {
        return Err(HttpError::BadUrl(redacted(url)));
    }
    let client = reqwest::Client::builder()
        .tls_backend_preconfigured(tls_config()?)
        .timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("conference/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| HttpError::Tls(e.without_url().to_string()))?;
    let call = async {
        let response = client
            .post(parsed)
            .header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(form)
            .send()
            .await
            .map_err(|e| failure(e, timeout))?;
        let status = response.status();
        if !status.is_success() {
            return Err(HttpError::Status(status.as_u16()));
        }
        if response.content_length().is_some_and(|n| n > MAX_ANSWER_BYTES as u64) {
            return Err(HttpError::Body("answer too large".into()));
        }
        let body = response.bytes().await.map_err(|e| failure(e, timeout))?;
        if body.len() > MAX_ANSWER_BYTES {
            return Err(HttpError::Body("answer too large".into()));
        }
        String::from_utf8(body.to_vec()).map_err(|_| HttpError::Body("not UTF-8".into()))
    };
    call.await
}

/// A reqwest error for the log, without the URL (it may carry credentials in its query).
fn failure(err: reqwest::Error, timeout: Duration) -> HttpError {
    if err.is_timeout() { HttpError::Timeout(timeout) } else { HttpError::Http(err.without_url().to_string()) }
}

/// `scheme://host` of a URL for messages: never its path, query or user info.
fn redacted(url: &str) -> String {
    url::Url::parse(url).map(|u| u.origin().ascii_serialization()).unwrap_or_else(|_| "(unparsable)".into())
}

/// rustls with the ring provider and the Mozilla roots, built once.
fn tls_config() -> Result<ClientConfig, HttpError> {
    static CONFIG: OnceLock<Result<ClientConfig, String>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let roots = RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
            ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .map(|b| b.with_root_certificates(roots).with_no_client_auth())
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(HttpError::Tls)
}
