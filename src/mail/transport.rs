//! The one way mail leaves the server: an enum of lettre transports (STYLE.md, crates.io's
//! `email.rs`). SMTP when `SMTP_URL` is set, `.eml` files under `DATA_DIR/mail` otherwise,
//! and lettre's in-memory stub for tests.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::transport::smtp::AsyncSmtpTransport;
use lettre::transport::stub::AsyncStubTransport;
use lettre::{AsyncTransport, Message, Tokio1Executor};

use crate::config::Config;

/// How long one SMTP command may take before the attempt counts as failed (transient).
pub const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// Where the worker hands mail over.
#[derive(Clone)]
pub enum MailTransport {
    /// An SMTP relay (`SMTP_URL`, e.g. `smtp://user:pass@host:587?tls=required`, or
    /// `smtps://...:465`; plain `smtp://host:port` speaks no TLS, lettre's URL rules).
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    /// One `outbox-<id>.eml` file per outbox row in this folder (`DATA_DIR/mail`), written to
    /// a temp name, fsynced and renamed: a crash never leaves a truncated file, and a retry
    /// replaces the file instead of adding a second one (DESIGN.md section 8).
    File { dir: PathBuf },
    /// Keeps every mail in memory; tests read `messages()`.
    Stub(AsyncStubTransport),
}

/// A transport that could not be set up from the configuration.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("SMTP_URL is not a usable SMTP address: {0}")]
    SmtpUrl(#[source] lettre::transport::smtp::Error),
    #[error("cannot create the mail folder {path}: {source}")]
    MailDir { path: PathBuf, source: std::io::Error },
}

/// Why a send failed, and whether trying again later can help.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// The server is down or busy, a timeout, an SMTP 4xx reply, a full disk: retry later.
    #[error("{0}")]
    Transient(String),
    /// An SMTP 5xx reply (bad recipient, refused credentials): retried a few times only.
    #[error("{0}")]
    Permanent(String),
}

impl MailTransport {
    /// The transport `config` asks for; creates `DATA_DIR/mail` for the file transport.
    pub fn from_config(config: &Config) -> Result<Self, SetupError> {
        match config.smtp_url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
            Some(url) => Self::smtp(url),
            None => Self::files(config.data_dir.join("mail")),
        }
    }

    /// SMTP from a URL in lettre's format (see [`MailTransport::Smtp`]).
    pub fn smtp(url: &str) -> Result<Self, SetupError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(SetupError::SmtpUrl)?
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        Ok(MailTransport::Smtp(transport))
    }

    /// `.eml` files in `dir`, created when missing.
    pub fn files(dir: PathBuf) -> Result<Self, SetupError> {
        std::fs::create_dir_all(&dir).map_err(|source| SetupError::MailDir { path: dir.clone(), source })?;
        Ok(MailTransport::File { dir })
    }

    /// Short description for logs (never the SMTP credentials).
    pub fn describe(&self) -> String {
        match self {
            MailTransport::Smtp(_) => "SMTP (SMTP_URL)".into(),
            MailTransport::File { dir, .. } => format!("files in {}", dir.display()),
            MailTransport::Stub(_) => "in-memory stub".into(),
        }
    }

    /// Hands over the message of outbox row `outbox_id`.
    pub async fn send(&self, message: &Message, outbox_id: i64) -> Result<(), SendError> {
        match self {
            MailTransport::Smtp(smtp) => smtp.send(message.clone()).await.map(drop).map_err(|err| {
                let text = smtp_error_text(&err);
                if err.is_permanent() { SendError::Permanent(text) } else { SendError::Transient(text) }
            }),
            MailTransport::File { dir } => {
                let (dir, bytes) = (dir.clone(), message.formatted());
                tokio::task::spawn_blocking(move || write_eml(&dir, outbox_id, &bytes))
                    .await
                    .map_err(|err| SendError::Transient(err.to_string()))?
                    .map_err(|err| SendError::Transient(format!("writing the mail file: {err}")))
            }
            MailTransport::Stub(stub) => {
                stub.send(message.clone()).await.map(drop).map_err(|err| SendError::Transient(err.to_string()))
            }
        }
    }
}

/// Name prefix and suffix of an `.eml` being written (the sweep removes stale ones).
pub const EML_TEMP_PREFIX: &str = ".outbox-";
pub const EML_TEMP_SUFFIX: &str = ".eml.tmp";

/// The file of outbox row `outbox_id` in `dir`.
pub fn eml_path(dir: &Path, outbox_id: i64) -> PathBuf {
    dir.join(format!("outbox-{outbox_id}.eml"))
}

/// Writes `outbox-<id>.eml` whole or not at all: temp file, fsync, rename (which replaces
/// an earlier attempt's file), fsync of the folder.
fn write_eml(dir: &Path, outbox_id: i64, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut temp = tempfile::Builder::new()
        .prefix(&format!("{EML_TEMP_PREFIX}{outbox_id}-"))
        .suffix(EML_TEMP_SUFFIX)
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    temp.persist(eml_path(dir, outbox_id)).map_err(|err| err.error)?;
    #[cfg(unix)]
    std::fs::File::open(dir)?.sync_all()?;
    Ok(())
}

/// lettre's message plus its causes ("Connection error: Connection refused (os error 111)").
fn smtp_error_text(err: &lettre::transport::smtp::Error) -> String {
    let mut text = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}
