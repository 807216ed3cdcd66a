//! A minimal HTTP/1.1 client for one form POST (CCAvenue's order status call), on the hyper
//! that axum already brings, with rustls and the webpki roots that lettre already brings; so
//! no HTTP client crate of its own.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, Uri, header};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::{self, ClientConfig, RootCertStore, pki_types::ServerName};

/// Largest answer read, in bytes; an order status answer is well under 8 KiB.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// Why a call failed. Every case means "no answer", never "the answer is no".
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("bad URL {0:?}: only absolute http and https URLs are supported")]
    BadUrl(String),
    #[error("timed out after {0:?}")]
    Timeout(Duration),
    #[error("connection: {0}")]
    Io(#[from] std::io::Error),
    #[error("TLS: {0}")]
    Tls(String),
    #[error("HTTP: {0}")]
    Http(#[from] hyper::Error),
    #[error("answer status {0}")]
    Status(u16),
    #[error("answer body: {0}")]
    Body(String),
}

/// POSTs `form` (already form-urlencoded) to `url` and returns the answer body as text,
/// all within `timeout`. Only a 2xx answer counts.
pub async fn post_form(url: &str, form: String, timeout: Duration) -> Result<String, HttpError> {
    tokio::time::timeout(timeout, post_form_inner(url, form)).await.map_err(|_| HttpError::Timeout(timeout))?
}

async fn post_form_inner(url: &str, form: String) -> Result<String, HttpError> {
    let uri: Uri = url.parse().map_err(|_| HttpError::BadUrl(url.into()))?;
    let tls = match uri.scheme_str() {
        Some("https") => true,
        Some("http") => false,
        _ => return Err(HttpError::BadUrl(url.into())),
    };
    let host = uri.host().ok_or_else(|| HttpError::BadUrl(url.into()))?.to_owned();
    let port = uri.port_u16().unwrap_or(if tls { 443 } else { 80 });
    let path = uri.path_and_query().map_or("/", |p| p.as_str()).to_owned();
    let authority = uri.authority().map(|a| a.as_str().rsplit('@').next().unwrap_or("").to_owned()).unwrap_or_default();

    // `[::1]` in a URL is `::1` to the resolver.
    let connect_host = host.trim_start_matches('[').trim_end_matches(']').to_owned();
    let tcp = TcpStream::connect((connect_host.as_str(), port)).await?;
    let request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::HOST, authority)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "*/*")
        .header(header::USER_AGENT, concat!("conference/", env!("CARGO_PKG_VERSION")))
        .body(Body::from(form))
        .map_err(|e| HttpError::BadUrl(e.to_string()))?;
    if tls {
        let name = ServerName::try_from(connect_host).map_err(|e| HttpError::Tls(e.to_string()))?;
        let stream = tls_connector()?.connect(name, tcp).await?;
        send(stream, request).await
    } else {
        send(tcp, request).await
    }
}

async fn send<S>(stream: S, request: Request<Body>) -> Result<String, HttpError>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    // The connection future drives the socket; it ends when the answer is read.
    tokio::spawn(async move {
        if let Err(err) = connection.await {
            tracing::debug!(error = %err, "status call connection closed with an error");
        }
    });
    let response = sender.send_request(request).await?;
    let status = response.status();
    let body = axum::body::to_bytes(Body::new(response.into_body()), MAX_ANSWER_BYTES)
        .await
        .map_err(|e| HttpError::Body(e.to_string()))?;
    if !status.is_success() {
        return Err(HttpError::Status(status.as_u16()));
    }
    String::from_utf8(body.to_vec()).map_err(|_| HttpError::Body("not UTF-8".into()))
}

/// TLS with the Mozilla roots (webpki-roots) and the ring provider, built once.
fn tls_connector() -> Result<TlsConnector, HttpError> {
    static CONFIG: std::sync::OnceLock<Result<Arc<ClientConfig>, String>> = std::sync::OnceLock::new();
    let config = CONFIG.get_or_init(|| {
        let roots = RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
        ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map(|b| Arc::new(b.with_root_certificates(roots).with_no_client_auth()))
            .map_err(|e| e.to_string())
    });
    config.clone().map(TlsConnector::from).map_err(HttpError::Tls)
}
