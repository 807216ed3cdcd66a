//! `TLS=acme` (DESIGN.md section 13, issue 23): certificates for `PUBLIC_URL`'s host (and
//! `TLS_DOMAINS`) ordered and renewed by rustls-acme, validated with HTTP-01 on the plain port
//! (RFC 8555 section 8.3), so the HTTPS port needs nothing but its certificate.
//!
//! rustls-acme renews when two thirds of a certificate's life have passed: 30 days before the
//! end of Let's Encrypt's 90-day certificates. A failed order (the CA unreachable, a challenge
//! refused) keeps the certificate in force, is logged with the reason and the date that
//! certificate expires, and is retried with a growing back-off.
//!
//! The account key and the certificate (with its private key) are cached under
//! `DATA_DIR/acme` in files of mode 0600 in a folder of mode 0700, so a restart serves at
//! once without a new order. Nothing of them is ever logged. Several instances do not share
//! this cache: a cluster keeps TLS at its balancer (README, "Deploy on one server").

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use futures_util::StreamExt;
use rustls_acme::{AccountCache, AcmeConfig, CertCache, EventOk, ResolvesServerCertAcme, UseChallenge};
use tokio_rustls::rustls::pki_types::CertificateDer;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::server::ResolvesServerCert;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

use crate::config::TlsSource;

/// The ACME client started: the certificate resolver for the HTTPS port and the HTTP-01
/// answers for the plain port.
pub struct Acme {
    pub resolver: Arc<dyn ResolvesServerCert>,
    pub challenges: Challenges,
}

/// The HTTP-01 challenge under way, if any (RFC 8555 section 8.3).
#[derive(Clone)]
pub struct Challenges(Arc<ResolvesServerCertAcme>);

/// The path prefix of HTTP-01 challenges; the token follows it.
pub const CHALLENGE_PATH: &str = "/.well-known/acme-challenge/";

impl Challenges {
    /// The key authorization to answer for `token`, when it is the challenge under way.
    pub fn key_authorization(&self, token: &str) -> Option<String> {
        self.0.get_http_01_key_auth(token)
    }
}

/// Starts ordering (or loading from the cache) the certificate for `source`, in the
/// background; handshakes fail until the first certificate is there.
pub async fn start(source: &TlsSource) -> Result<Acme, Box<dyn std::error::Error>> {
    let TlsSource::Acme { domains, directory, contact, ca_file, cache_dir } = source else {
        return Err("ACME started without TLS=acme".into());
    };
    let mut roots = RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    if let Some(ca_file) = ca_file {
        let certs = CertificateDer::pem_file_iter(ca_file)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|e| format!("ACME_CA_FILE {}: {e}", ca_file.display()))?;
        let (added, _) = roots.add_parsable_certificates(certs);
        if added == 0 {
            return Err(format!("ACME_CA_FILE {}: no usable certificate", ca_file.display()).into());
        }
    }
    let client = ClientConfig::builder_with_provider(super::certificates::provider())
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let cache = DirCache::open(cache_dir.clone())?;
    let expires = cache.expires.clone();
    let state = AcmeConfig::new_with_client_config(domains, Arc::new(client))
        .directory(directory)
        .contact(contact)
        .cache(cache)
        .challenge_type(UseChallenge::Http01)
        .state();
    let resolver = state.resolver();
    tracing::info!(?domains, directory = %directory, cache = %cache_dir.display(), "ACME certificates");
    let mut state = state;
    // SIGHUP reloads `TLS=files`; here it must not end the process (its default), as a
    // `systemctl reload` would.
    if let Ok(mut hangup) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()) {
        tokio::spawn(async move {
            while hangup.recv().await.is_some() {
                tracing::info!("SIGHUP: TLS=acme renews by itself; nothing to reload");
            }
        });
    }
    tokio::spawn(async move {
        while let Some(event) = state.next().await {
            let expires = expires.lock().unwrap_or_else(|p| p.into_inner()).clone();
            match event {
                Ok(EventOk::DeployedCachedCert) => tracing::info!(%expires, "TLS certificate from the ACME cache"),
                // The new certificate's date is known once it is cached, the event after.
                Ok(EventOk::DeployedNewCert) => tracing::info!("TLS certificate obtained from the ACME CA"),
                Ok(EventOk::CertCacheStore) => tracing::info!(%expires, "TLS certificate cached"),
                Ok(EventOk::AccountCacheStore) => tracing::info!("ACME account key cached"),
                Err(err) => tracing::warn!(
                    error = %err,
                    %expires,
                    "ACME: no new certificate; the one in force (if any) stays until it expires, and the order is retried"
                ),
            }
        }
    });
    Ok(Acme { resolver: resolver.clone(), challenges: Challenges(resolver) })
}

/// The ACME cache: the account key and the certificate files under `DATA_DIR/acme`, named
/// by a digest of the directory URL and the contacts or domains (another CA or another set of
/// names starts afresh). Keeps the expiry date of the certificate it last read or wrote.
struct DirCache {
    dir: PathBuf,
    expires: Arc<Mutex<String>>,
}

impl DirCache {
    /// The cache folder, created with mode 0700 (tightened when it exists).
    fn open(dir: PathBuf) -> std::io::Result<Self> {
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir)?;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))?;
        Ok(DirCache { dir, expires: Arc::new(Mutex::new("no certificate yet".into())) })
    }

    fn path(&self, kind: &str, names: &[String], directory: &str) -> PathBuf {
        let mut digest = ring::digest::Context::new(&ring::digest::SHA256);
        for name in names {
            digest.update(name.as_bytes());
            digest.update(&[0]);
        }
        digest.update(directory.as_bytes());
        self.dir.join(format!("{kind}-{}.pem", hex::encode(&digest.finish().as_ref()[..16])))
    }

    fn note_expiry(&self, pem: &[u8]) {
        let chain: Vec<_> = CertificateDer::pem_slice_iter(pem).filter_map(Result::ok).collect();
        *self.expires.lock().unwrap_or_else(|p| p.into_inner()) = super::certificates::leaf_expiry(&chain);
    }
}

/// Reads `path`, `None` when it does not exist.
async fn read(path: PathBuf) -> std::io::Result<Option<Vec<u8>>> {
    match tokio::fs::read(&path).await {
        Ok(bytes) => Ok(Some(bytes)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

/// Writes `bytes` to `path` whole: a 0600 temporary file renamed over it, so a crash leaves
/// the old file or the new one and no reader ever sees a key with wider permissions.
async fn write(path: PathBuf, bytes: Vec<u8>) -> std::io::Result<()> {
    tokio::task::spawn_blocking(move || {
        let temporary = path.with_extension("tmp");
        let mut file =
            std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&temporary)?;
        file.write_all(&bytes)?;
        file.sync_all()?;
        std::fs::rename(&temporary, &path)?;
        sync_dir(path.parent().unwrap_or(Path::new(".")))
    })
    .await
    .map_err(std::io::Error::other)?
}

fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

#[async_trait::async_trait]
impl CertCache for DirCache {
    type EC = std::io::Error;

    async fn load_cert(&self, domains: &[String], directory_url: &str) -> Result<Option<Vec<u8>>, Self::EC> {
        let pem = read(self.path("certificate", domains, directory_url)).await?;
        if let Some(pem) = &pem {
            self.note_expiry(pem);
        }
        Ok(pem)
    }

    async fn store_cert(&self, domains: &[String], directory_url: &str, cert: &[u8]) -> Result<(), Self::EC> {
        self.note_expiry(cert);
        write(self.path("certificate", domains, directory_url), cert.to_vec()).await
    }
}

#[async_trait::async_trait]
impl AccountCache for DirCache {
    type EA = std::io::Error;

    async fn load_account(&self, contact: &[String], directory_url: &str) -> Result<Option<Vec<u8>>, Self::EA> {
        read(self.path("account", contact, directory_url)).await
    }

    async fn store_account(&self, contact: &[String], directory_url: &str, account: &[u8]) -> Result<(), Self::EA> {
        write(self.path("account", contact, directory_url), account.to_vec()).await
    }
}
