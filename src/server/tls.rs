//! HTTPS in the server (DESIGN.md section 13, issue 23): the rustls configuration the accept
//! loop hands each connection to, with the certificate from PEM files (`TLS=files`, reloaded
//! on SIGHUP and when a file changes) or from an ACME CA (`TLS=acme`, `super::acme`).
//!
//! TLS 1.2 and 1.3 only, with rustls' default cipher suites (ring). ALPN offers `h2` and
//! `http/1.1`; hyper-util's auto builder then speaks what was agreed. A certificate is picked
//! per handshake through a resolver, so a new one applies to the next handshake while open
//! connections keep the one they started with.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use arc_swap::ArcSwap;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::server::{ClientHello, ResolvesServerCert};
use tokio_rustls::rustls::sign::CertifiedKey;
use tokio_rustls::rustls::{ServerConfig, version};

use super::certificates::{leaf_expiry, provider};
use crate::config::{TlsSettings, TlsSource};

/// How often `TLS=files` looks at the files' modification times and sizes: a renewal tool
/// (certbot, a secrets agent) replaces them without telling the server.
const FILE_POLL: Duration = Duration::from_secs(1);

/// The ALPN protocols offered, in the server's order of preference (RFC 7301).
const ALPN: [&[u8]; 2] = [b"h2", b"http/1.1"];

/// HTTPS ready to serve: the acceptor for the HTTPS port and, with `TLS=acme`, what answers
/// HTTP-01 challenges on the plain port.
pub struct Tls {
    pub acceptor: TlsAcceptor,
    pub challenges: Option<super::acme::Challenges>,
}

/// Starts HTTPS for `settings`: loads the files (a bad pair stops start-up) and starts their
/// watcher, or starts the ACME client. The background tasks end with the process.
pub async fn start(settings: &TlsSettings) -> Result<Tls, Box<dyn std::error::Error>> {
    let (resolver, challenges): (Arc<dyn ResolvesServerCert>, _) = match &settings.source {
        TlsSource::Files { cert, key } => {
            let files = CertFiles::load(cert.clone(), key.clone()).map_err(|e| format!("TLS=files: {e}"))?;
            tracing::info!(cert = %cert.display(), expires = %files.expires(), "TLS certificate loaded");
            let files = Arc::new(files);
            tokio::spawn(files.clone().watch());
            (files, None)
        }
        TlsSource::Acme { .. } => {
            let acme = super::acme::start(&settings.source).await?;
            (acme.resolver, Some(acme.challenges))
        }
    };
    Ok(Tls { acceptor: TlsAcceptor::from(server_config(resolver)?), challenges })
}

/// The rustls server configuration: TLS 1.2 and 1.3, default suites, `h2` and `http/1.1`.
fn server_config(resolver: Arc<dyn ResolvesServerCert>) -> Result<Arc<ServerConfig>, Box<dyn std::error::Error>> {
    let mut config = ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&version::TLS13, &version::TLS12])?
        .with_no_client_auth()
        .with_cert_resolver(resolver);
    config.alpn_protocols = ALPN.iter().map(|p| p.to_vec()).collect();
    Ok(Arc::new(config))
}

/// `TLS=files`: the pair in force, swapped whole when the files change.
struct CertFiles {
    cert_path: PathBuf,
    key_path: PathBuf,
    current: ArcSwap<CertifiedKey>,
}

impl std::fmt::Debug for CertFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CertFiles").field("cert_path", &self.cert_path).finish_non_exhaustive()
    }
}

impl CertFiles {
    fn load(cert_path: PathBuf, key_path: PathBuf) -> Result<Self, String> {
        let pair = read_pair(&cert_path, &key_path)?;
        Ok(CertFiles { cert_path, key_path, current: ArcSwap::from_pointee(pair) })
    }

    /// The leaf certificate's end of validity, for the logs.
    fn expires(&self) -> String {
        leaf_expiry(&self.current.load().cert)
    }

    /// Reloads the pair on SIGHUP and when either file's modification time or size changes.
    /// A pair that does not load (half written, key and certificate not matching) is logged
    /// and the one in force stays.
    async fn watch(self: Arc<Self>) {
        let mut hangup = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()) {
            Ok(signal) => Some(signal),
            Err(err) => {
                tracing::warn!(error = %err, "no SIGHUP handler; TLS files reload on change only");
                None
            }
        };
        let mut seen = self.stamps();
        let mut poll = tokio::time::interval(FILE_POLL);
        poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let signalled = async {
                match hangup.as_mut() {
                    Some(signal) => signal.recv().await,
                    None => std::future::pending().await,
                }
            };
            let reason = tokio::select! {
                _ = signalled => "SIGHUP",
                _ = poll.tick() => {
                    let now = self.stamps();
                    if now == seen {
                        continue;
                    }
                    seen = now;
                    "files changed"
                }
            };
            match read_pair(&self.cert_path, &self.key_path) {
                Ok(pair) => {
                    self.current.store(Arc::new(pair));
                    tracing::info!(reason, expires = %self.expires(), "TLS certificate reloaded");
                }
                Err(err) => {
                    tracing::warn!(reason, error = %err, "TLS files not reloaded; the certificate in force stays")
                }
            }
        }
    }

    fn stamps(&self) -> [Option<(SystemTime, u64)>; 2] {
        let stamp = |path: &Path| std::fs::metadata(path).ok().and_then(|m| Some((m.modified().ok()?, m.len())));
        [stamp(&self.cert_path), stamp(&self.key_path)]
    }
}

impl ResolvesServerCert for CertFiles {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.current.load_full())
    }
}

/// A certificate chain and its private key from PEM files, checked to belong together. The
/// error names the file, never the key's bytes.
fn read_pair(cert_path: &Path, key_path: &Path) -> Result<CertifiedKey, String> {
    let chain = CertificateDer::pem_file_iter(cert_path)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("{}: {e}", cert_path.display()))?;
    if chain.is_empty() {
        return Err(format!("{}: no certificate", cert_path.display()));
    }
    let key = PrivateKeyDer::from_pem_file(key_path).map_err(|e| format!("{}: {e}", key_path.display()))?;
    CertifiedKey::from_der(chain, key, &provider())
        .map_err(|e| format!("{} and {}: {e}", cert_path.display(), key_path.display()))
}
