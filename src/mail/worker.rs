//! The outbox worker (DESIGN.md sections 8 and 9): claims due mails one at a time, sends each
//! through the [`MailTransport`], and records the outcome.
//!
//! Retries: an attempt that fails is tried again after an exponential back-off
//! (`RETRY_BASE` doubling per attempt, at most `RETRY_MAX`). Failures the server cannot
//! cure by waiting are told apart from those it can:
//! - transient (server down, timeout, SMTP 4xx, disk): retried for as long as it takes, so a
//!   mail server that is down for a day delays mail and loses none;
//! - permanent SMTP replies (5xx: unknown recipient, refused credentials): retried until
//!   `MAX_PERMANENT_ATTEMPTS` attempts, since a misconfiguration may be fixed meanwhile,
//!   then left as `failed`;
//! - a stored mail that cannot be built at all (an invalid address, a missing attachment):
//!   `failed` at once.
//!
//! Failed rows stay in the table with `last_error`; setting `status` back to `pending`
//! re-queues one.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use lettre::Message;
use lettre::message::header::{self, ContentType};
use lettre::message::{Mailbox, Mailboxes, MultiPart, SinglePart};
use time::{Duration, OffsetDateTime};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::compose::Addresses;
use super::outbox::{self, QueuedMail};
use super::transport::{MailTransport, SendError};
use crate::config::Config;
use crate::db::{Engine, Pool};
use crate::repo::{content, papers};

/// Delay before the first retry; doubled for each further attempt.
pub const RETRY_BASE: Duration = Duration::seconds(30);
/// Longest delay between two attempts (1 hour).
pub const RETRY_MAX: Duration = Duration::hours(1);
/// Attempts after which a permanently refused mail is given up.
pub const MAX_PERMANENT_ATTEMPTS: i64 = 5;
/// How long a claim keeps other workers off a mail: a mail whose worker died (kill -9, power
/// cut) is sent again within a minute (lease plus one poll). Longer than [`SEND_DEADLINE`],
/// so a live worker never loses its claim mid-send.
pub const CLAIM_LEASE: Duration = Duration::seconds(50);

/// Longest one hand-over may take (SMTP with a 20 MiB attachment on a slow link included);
/// past it the attempt counts as failed and is retried.
pub const SEND_DEADLINE: std::time::Duration = std::time::Duration::from_secs(40);
/// How often the background loop looks for due mail (seconds).
pub const POLL_INTERVAL: std::time::Duration = std::time::Duration::from_secs(2);
/// How long a send under way may still take once the worker is told to stop: a mail the
/// server (or the mail folder) already took is then marked sent rather than let go and sent
/// again by another instance. Well under the shutdown's 10 s wait for the worker.
pub const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(2);
/// Most mails one run sends, so a huge backlog still lets the loop notice a shutdown.
const MAX_PER_RUN: usize = 200;

/// Delay before attempt `attempts + 1`, after `attempts` failed ones (1 → 30 s, 2 → 60 s, ...).
pub fn retry_delay(attempts: i64) -> Duration {
    let doublings = u32::try_from(attempts.saturating_sub(1).clamp(0, 20)).unwrap_or(20);
    let delay = RETRY_BASE * 2_i32.saturating_pow(doublings);
    if delay > RETRY_MAX { RETRY_MAX } else { delay }
}

/// What one run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RunSummary {
    pub sent: usize,
    /// Attempts that failed and were rescheduled.
    pub retried: usize,
    /// Mails given up.
    pub failed: usize,
}

/// Sends queued mail. Cheap to clone; safe to run in several server copies at once.
#[derive(Clone)]
pub struct Worker {
    pool: Pool,
    transport: MailTransport,
    config: Arc<Config>,
}

impl Worker {
    /// `config` gives `MAIL_FROM` (else the site's contact email) and `DATA_DIR` (attachments).
    pub fn new(pool: Pool, transport: MailTransport, config: &Config) -> Self {
        Worker { pool, transport, config: Arc::new(config.clone()) }
    }

    /// The claim lease: `MAIL_LEASE_SECS` (default [`CLAIM_LEASE`]).
    fn lease(&self) -> Duration {
        Duration::seconds(i64::try_from(self.config.mail_lease_secs.max(1)).unwrap_or(i64::MAX))
    }

    /// Longest one hand-over may take: [`SEND_DEADLINE`], within four fifths of the lease
    /// so a live worker never loses its claim mid-send.
    fn send_deadline(&self) -> std::time::Duration {
        let lease_ms = self.config.mail_lease_secs.max(1) * 1000;
        SEND_DEADLINE.min(std::time::Duration::from_millis(lease_ms * 4 / 5))
    }

    /// Sends every mail due now; returns what it did. Errors only when the database fails.
    pub async fn run_once(&self) -> Result<RunSummary, sqlx::Error> {
        self.run_once_at(OffsetDateTime::now_utc()).await
    }

    /// [`Worker::run_once`] as if the clock read `now` (tests use it to let back-off pass).
    pub async fn run_once_at(&self, now: OffsetDateTime) -> Result<RunSummary, sqlx::Error> {
        self.run(now, None).await
    }

    async fn run(&self, now: OffsetDateTime, stop: Option<&watch::Receiver<bool>>) -> Result<RunSummary, sqlx::Error> {
        let mut summary = RunSummary::default();
        let mut from: Option<Result<Mailbox, String>> = None;
        for _ in 0..MAX_PER_RUN {
            if stop.is_some_and(|s| *s.borrow()) {
                break;
            }
            let Some(queued) = outbox::claim_next(&self.pool, now, self.lease()).await? else { break };
            if from.is_none() {
                from = Some(self.sender().await?);
            }
            let outcome = match from.as_ref().expect("resolved above") {
                // The configured sender itself is unusable: nothing can go out until the
                // configuration is fixed, which waiting may bring, so it is transient.
                Err(why) => Err(SendError::Transient(why.clone())),
                Ok(from) => {
                    match build_message(&queued, from, &self.config.data_dir, self.stored_attachment(&queued).await?) {
                        Ok(message) => {
                            let mut send = std::pin::pin!(tokio::time::timeout(
                                self.send_deadline(),
                                self.transport.send(&message, queued.id)
                            ));
                            let stopped = async {
                                match stop {
                                    Some(stop) => {
                                        let mut stop = stop.clone();
                                        let _ = stop.wait_for(|stopped| *stopped).await;
                                    }
                                    None => std::future::pending().await,
                                }
                            };
                            let too_long = |_| Err(SendError::Transient("sending took too long".into()));
                            tokio::select! {
                                sent = &mut send => sent.unwrap_or_else(too_long),
                                () = stopped => {
                                    // Shutting down. A send under way may already have reached
                                    // the server (or the file), so it gets a moment to finish and
                                    // be marked sent; only a hung one lets its row go, so another
                                    // instance sends it now rather than after the lease.
                                    match tokio::time::timeout(STOP_GRACE, &mut send).await {
                                        Ok(sent) => sent.unwrap_or_else(too_long),
                                        Err(_) => {
                                            outbox::release(&self.pool, &queued).await?;
                                            tracing::info!(outbox_id = queued.id, "shutting down; mail left for another attempt");
                                            break;
                                        }
                                    }
                                }
                            }
                        }
                        Err(why) => {
                            tracing::error!(outbox_id = queued.id, error = %why, "mail cannot be built; giving it up");
                            outbox::mark_failed(&self.pool, &queued, &why).await?;
                            summary.failed += 1;
                            continue;
                        }
                    }
                }
            };
            match outcome {
                Ok(()) => {
                    if !outbox::mark_sent(&self.pool, &queued, OffsetDateTime::now_utc()).await? {
                        tracing::warn!(outbox_id = queued.id, "mail sent after its claim expired");
                    }
                    tracing::info!(outbox_id = queued.id, to = %queued.mail.to, "mail sent");
                    summary.sent += 1;
                }
                Err(SendError::Permanent(why)) if queued.attempts >= MAX_PERMANENT_ATTEMPTS => {
                    tracing::error!(outbox_id = queued.id, attempts = queued.attempts, error = %why, "mail refused for good; giving it up");
                    outbox::mark_failed(&self.pool, &queued, &why).await?;
                    summary.failed += 1;
                }
                Err(SendError::Permanent(why) | SendError::Transient(why)) => {
                    let retry_at = now + retry_delay(queued.attempts);
                    tracing::warn!(outbox_id = queued.id, attempts = queued.attempts, error = %why, retry_at = %crate::clock::stamp::timestamp(retry_at), "mail not sent; will retry");
                    outbox::mark_retry(&self.pool, &queued, retry_at, &why).await?;
                    summary.retried += 1;
                }
            }
        }
        Ok(summary)
    }

    /// On PostgreSQL a paper attachment is kept in the database (`repo::papers`), not under
    /// `DATA_DIR`; `None` means: read the file.
    async fn stored_attachment(&self, queued: &QueuedMail) -> Result<Option<Vec<u8>>, sqlx::Error> {
        match (&queued.mail.attachment, Engine::of_pool(&self.pool)) {
            // An inline attachment is in the row already (`build_message` takes it there).
            (Some(attachment), _) if attachment.inline.is_some() => Ok(None),
            (Some(attachment), Engine::Postgres) => papers::read(&self.pool, &attachment.path).await,
            _ => Ok(None),
        }
    }

    /// The `From` mailbox: `MAIL_FROM`, else the site's name and contact email.
    async fn sender(&self) -> Result<Result<Mailbox, String>, sqlx::Error> {
        let site = content::site(&self.pool).await?;
        let from = Addresses::resolve(&self.config, &site).from;
        Ok(from.parse::<Mailbox>().map_err(|e| format!("sender address {from:?} is invalid: {e}")))
    }

    /// `senders` copies of [`Worker::spawn`] (`MAIL_SENDERS`, at least one), each claiming
    /// its own mails; the handle ends when every copy has stopped.
    pub fn spawn_senders(self, senders: usize, stop: watch::Receiver<bool>) -> JoinHandle<()> {
        let copies: Vec<JoinHandle<()>> = (0..senders.max(1)).map(|_| self.clone().spawn(stop.clone())).collect();
        tokio::spawn(async move {
            for copy in copies {
                let _ = copy.await;
            }
        })
    }

    /// Runs in the background until `stop` turns `true` (or its sender is dropped); a run in
    /// progress stops between two mails.
    pub fn spawn(self, mut stop: watch::Receiver<bool>) -> JoinHandle<()> {
        tokio::spawn(async move {
            tracing::info!(transport = %self.transport.describe(), "mail worker started");
            loop {
                if *stop.borrow() {
                    break;
                }
                match self.run(OffsetDateTime::now_utc(), Some(&stop)).await {
                    Ok(summary) if summary != RunSummary::default() => {
                        tracing::debug!(?summary, "mail worker run");
                    }
                    Ok(_) => {}
                    // The database is busy or gone: the next round tries again.
                    Err(err) => tracing::error!(error = %err, "mail worker could not read the outbox"),
                }
                tokio::select! {
                    changed = stop.changed() => if changed.is_err() { break },
                    () = tokio::time::sleep(POLL_INTERVAL) => {}
                }
            }
            tracing::info!("mail worker stopped");
        })
    }
}

/// The MIME message of a queued mail: text and HTML alternatives, plus the attachment if any.
/// The attachment is inline (its bytes in the row), `stored` (read from the database) or else
/// the file under `data_dir`.
/// An error means the stored mail can never be sent as it is.
pub fn build_message(
    queued: &QueuedMail,
    from: &Mailbox,
    data_dir: &Path,
    stored: Option<Vec<u8>>,
) -> Result<Message, String> {
    let mail = &queued.mail;
    let to: Mailboxes = mail.to.parse().map_err(|e| format!("recipient {:?} is invalid: {e}", mail.to))?;
    let mut builder = Message::builder()
        .from(from.clone())
        .mailbox(header::To::from(to))
        .subject(mail.subject.clone())
        // Stable across retries, so a receiving server can tell a resent mail apart.
        .message_id(Some(format!("<outbox-{}-{}@{}>", queued.id, stamp_digits(&queued.created), from.email.domain())));
    if let Some(reply_to) = mail.reply_to.as_deref().filter(|r| !r.trim().is_empty()) {
        // A list, as `ORGANISER_EMAIL` may be (RFC 5322 section 3.6.2 allows several).
        let reply_to: Mailboxes = reply_to.parse().map_err(|e| format!("reply-to {reply_to:?} is invalid: {e}"))?;
        builder = builder.mailbox(header::ReplyTo::from(reply_to));
    }
    if let Some(url) = mail.list_unsubscribe.as_deref() {
        builder = builder.header(ListUnsubscribe(format!("<{url}>"))).header(ListUnsubscribePost);
    }
    let body = MultiPart::alternative_plain_html(mail.text_body.clone(), mail.html_body.clone());
    let message = match &mail.attachment {
        Some(attachment) => {
            let bytes = match (&attachment.inline, stored) {
                (Some(bytes), _) => bytes.clone(),
                (None, Some(bytes)) => bytes,
                (None, None) => {
                    let full: PathBuf = data_dir.join(&attachment.path);
                    std::fs::read(&full).map_err(|e| format!("attachment {} cannot be read: {e}", full.display()))?
                }
            };
            let content_type = ContentType::parse(&attachment.content_type)
                .map_err(|e| format!("attachment type {:?}: {e}", attachment.content_type))?;
            let file: SinglePart = lettre::message::Attachment::new(attachment.name.clone()).body(bytes, content_type);
            builder.multipart(MultiPart::mixed().multipart(body).singlepart(file))
        }
        None => builder.multipart(body),
    };
    message.map_err(|e| format!("mail cannot be built: {e}"))
}

/// `List-Unsubscribe: <https://...>` (RFC 2369), the one-click URL of a newsletter mail.
#[derive(Debug, Clone)]
struct ListUnsubscribe(String);

impl header::Header for ListUnsubscribe {
    fn name() -> header::HeaderName {
        header::HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_owned()))
    }

    fn display(&self) -> header::HeaderValue {
        header::HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058): the URL unsubscribes on a
/// POST, with no further page.
#[derive(Debug, Clone)]
struct ListUnsubscribePost;

impl header::Header for ListUnsubscribePost {
    fn name() -> header::HeaderName {
        header::HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> header::HeaderValue {
        header::HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".into())
    }
}

fn stamp_digits(stamp: &str) -> String {
    stamp.chars().filter(char::is_ascii_digit).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::outbox::OutgoingMail;

    #[test]
    fn back_off_doubles_from_thirty_seconds_up_to_an_hour() {
        let delays: Vec<i64> = (1..=9).map(|n| retry_delay(n).whole_seconds()).collect();
        assert_eq!(delays, [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
        assert_eq!(retry_delay(1000), RETRY_MAX);
    }

    #[test]
    fn replies_may_go_to_every_organiser() {
        let queued = QueuedMail {
            id: 7,
            mail: OutgoingMail {
                to: "author@example.org".into(),
                reply_to: Some("chair@example.org, Programme <programme@example.org>".into()),
                subject: "Accepted".into(),
                text_body: "Dear author".into(),
                html_body: "<p>Dear author</p>".into(),
                attachment: None,
                dedupe_key: None,
                list_unsubscribe: None,
            },
            attempts: 1,
            created: "2025-03-01T09:30:00.000000Z".into(),
            claimed_until: "2025-03-01T09:35:00.000000Z".into(),
        };
        let from: Mailbox = "site@example.org".parse().unwrap();
        let message =
            build_message(&queued, &from, Path::new("."), None).expect("a list of organisers is a valid Reply-To");
        let raw = String::from_utf8(message.formatted()).unwrap();
        assert!(raw.contains("Reply-To: chair@example.org, Programme <programme@example.org>"), "{raw}");
    }
}
