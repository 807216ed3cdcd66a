//! HTTPS clients for the TLS tests (`tls.rs`, `acme.rs`): rustls over loopback trusting given
//! roots, offering the ALPN protocols a test names, and hyper's HTTP/1.1 and HTTP/2 clients
//! over that. Every wait is bounded by the caller.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::http::{HeaderMap, Request, StatusCode, Version};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::crypto::ring;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

/// A self-signed certificate for `localhost` and 127.0.0.1, made now: (certificate PEM,
/// private key PEM, certificate DER).
pub fn self_signed() -> (String, String, CertificateDer<'static>) {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".into(), "127.0.0.1".into()]).expect("rcgen");
    (made.cert.pem(), made.key_pair.serialize_pem(), made.cert.der().clone())
}

/// A client configuration trusting only `roots`, offering `alpn` (none: no ALPN at all).
pub fn client(roots: &[CertificateDer<'static>], alpn: &[&[u8]]) -> TlsConnector {
    let mut store = RootCertStore::empty();
    for root in roots {
        store.add(root.clone()).expect("a usable root");
    }
    let mut config = ClientConfig::builder_with_provider(Arc::new(ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(store)
        .with_no_client_auth();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    TlsConnector::from(Arc::new(config))
}

/// A TLS connection to `addr` for the name `localhost`.
pub async fn connect(connector: &TlsConnector, addr: SocketAddr) -> std::io::Result<TlsStream<TcpStream>> {
    let tcp = TcpStream::connect(addr).await?;
    connector.connect(ServerName::try_from("localhost").expect("a name"), tcp).await
}

/// The protocol ALPN agreed on, as text (`""` for none).
pub fn alpn(stream: &TlsStream<TcpStream>) -> String {
    String::from_utf8_lossy(stream.get_ref().1.alpn_protocol().unwrap_or_default()).into_owned()
}

/// The leaf certificate the server showed.
pub fn peer_leaf(stream: &TlsStream<TcpStream>) -> Vec<u8> {
    stream.get_ref().1.peer_certificates().expect("a server certificate")[0].to_vec()
}

/// An answer over HTTPS.
pub struct Answer {
    pub version: Version,
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

/// A request sender over one connection, HTTP/1.1 or HTTP/2 as ALPN agreed.
pub enum Sender {
    H1(hyper::client::conn::http1::SendRequest<Empty<Bytes>>),
    H2(hyper::client::conn::http2::SendRequest<Empty<Bytes>>),
}

impl Sender {
    /// Starts HTTP over `stream` (HTTP/2 when ALPN said `h2`); the connection is driven in
    /// the background until it ends.
    pub async fn over(stream: TlsStream<TcpStream>) -> Sender {
        if alpn(&stream) == "h2" {
            let (sender, connection) =
                hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
                    .await
                    .expect("h2 handshake");
            tokio::spawn(connection);
            Sender::H2(sender)
        } else {
            let (sender, connection) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.expect("h1 handshake");
            tokio::spawn(connection);
            Sender::H1(sender)
        }
    }

    /// GET `path` on `localhost`, the whole answer.
    pub async fn get(&mut self, path: &str) -> Result<Answer, hyper::Error> {
        let response = match self {
            Sender::H1(sender) => {
                let request = Request::get(path).header("host", "localhost").body(Empty::new()).unwrap();
                sender.ready().await?;
                sender.send_request(request).await?
            }
            Sender::H2(sender) => {
                let request = Request::get(format!("https://localhost{path}")).body(Empty::new()).unwrap();
                sender.ready().await?;
                sender.send_request(request).await?
            }
        };
        let (parts, body) = response.into_parts();
        let body = body.collect().await?.to_bytes();
        Ok(Answer {
            version: parts.version,
            status: parts.status,
            headers: parts.headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        })
    }
}

/// The security headers every page carries (`conference::http::response_headers`), checked
/// on an HTTPS answer: HSTS since PUBLIC_URL is https.
pub fn assert_security_headers(answer: &Answer) {
    for name in ["strict-transport-security", "content-security-policy", "x-content-type-options", "referrer-policy"] {
        assert!(answer.headers.contains_key(name), "{name} on an HTTPS answer: {:?}", answer.headers);
    }
}
