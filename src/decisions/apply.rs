//! How a decision is applied and mailed (issue 21, DESIGN.md section 12 "Decisions"): the
//! organisers preview every pending decision with its mail ([`preview`]), then apply exactly
//! the rows they saw ([`apply`]). Applying a row makes its pending decision its state, gives
//! the author a new private status link, queues the decision mail (the seed's template,
//! `super::mails`) through the outbox and writes the audit entry, all in one transaction.
//!
//! Applying is idempotent in the database: a row is applied by the one `UPDATE` that still
//! finds its version (`crate::repo::decisions::apply`), and its mail's outbox key counts the
//! row's decisions, so a repeated or concurrent apply mails nobody twice.

use serde_json::json;
use time::OffsetDateTime;

use super::mails::{self, reviews_for};
use super::stage::Why;
use super::states::{Decision, counted};
use crate::base::secrets::Secret;
use crate::clock::stamp::timestamp;
use crate::config::Config;
use crate::db::Pool;
use crate::error::Outcome;
use crate::mail::{self, Context};
use crate::repo::audit::{self, Actor};
use crate::repo::decisions as store;
use crate::repo::submissions::Submission;
use crate::submissions::status_link::status_link;

/// What stands for an author's private token in the preview's mails.
pub const TOKEN_STAND_IN: &str = "<token>";

/// One pending decision as the preview shows it, with the mail it will send.
#[derive(Debug, Clone)]
pub struct PreviewRow {
    pub reference: String,
    /// The row's version now: what the apply form names.
    pub version: i64,
    pub decision: Decision,
    pub to: String,
    /// With the site's `[SHORT NAME]` prefix, as sent.
    pub subject: String,
}

/// The pending decisions now and their mails ([`preview`]).
#[derive(Debug, Clone)]
pub struct Preview {
    pub accepted: usize,
    pub rejected: usize,
    pub rows: Vec<PreviewRow>,
    /// The first mail in full: (to, subject, body).
    pub sample: Option<(String, String, String)>,
}

/// Every pending decision by reference, with the mail it will send: its status link shows
/// [`TOKEN_STAND_IN`] for the token (made only when the mail is queued). A 503 when the seed
/// lacks the decision templates (`super::mails::templates`).
pub async fn preview(pool: &Pool, config: &Config) -> Outcome<Preview> {
    let pending = store::pending(pool).await?;
    let ctx = Context::load(pool, config).await?;
    let templates = mails::templates(pool).await?;
    let stand_in = status_link(config, TOKEN_STAND_IN);
    let mut conn = pool.acquire().await?;
    let mut preview = Preview { accepted: 0, rejected: 0, rows: Vec::new(), sample: None };
    for s in &pending {
        let Some(decision) = s.pending_decision.as_deref().and_then(Decision::parse) else { continue };
        match decision {
            Decision::Accepted => preview.accepted += 1,
            Decision::Rejected => preview.rejected += 1,
        }
        let reviews = reviews_for(&mut conn, s.id).await?;
        let mail = templates.mail_for(&ctx, s, decision, (&stand_in, &reviews), s.decisions + 1)?;
        if preview.sample.is_none() {
            preview.sample = Some((mail.mail.to.clone(), mail.mail.subject.clone(), mail.body.clone()));
        }
        preview.rows.push(PreviewRow {
            reference: s.submitted.reference.clone(),
            version: s.version,
            decision,
            to: mail.mail.to,
            subject: mail.mail.subject,
        });
    }
    Ok(preview)
}

/// How many decisions are pending now.
pub async fn pending_count(pool: &Pool) -> Outcome<usize> {
    Ok(store::pending(pool).await?.len())
}

/// What [`apply`] did: how many rows became accepted and rejected, and how many mails were
/// queued (fewer when the outbox had a row's mail already). All 0 when every item was
/// applied already (a second click, another organiser or instance).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Applied {
    pub accepted: usize,
    pub rejected: usize,
    pub mails: usize,
}

impl Applied {
    /// What the organisers are told an apply did.
    pub fn summary(&self) -> String {
        let Applied { accepted, rejected, mails } = *self;
        let total = accepted + rejected;
        if total == 0 {
            "Nothing was applied: these decisions were applied already, and nobody was mailed again.".to_owned()
        } else {
            format!(
                "{} applied ({accepted} accepted, {rejected} rejected); {} queued.",
                counted(total, "decision", "decisions"),
                counted(mails, "mail", "mails")
            )
        }
    }
}

/// Applies the previewed pending decisions `items` (`(reference, version)` as the preview
/// showed them) in one transaction: for each row, its state becomes its decision, a new
/// status link is stored (the token goes only into the mail, only its hash is kept), the
/// decision mail is queued (`decision:<reference>:<number>`) and the change is audited as
/// `submission.decision_applied` with the state before and after and the mail's address,
/// subject and whether it was queued now. A row applied already is passed over.
///
/// Refused as stale ([`Why::Preview`]) when a row is still pending but changed since the
/// preview: nothing is applied and nobody is mailed. A 503 without the seed's templates.
pub async fn apply(
    pool: &Pool,
    config: &Config,
    now: OffsetDateTime,
    actor: &Actor,
    items: &[(String, i64)],
) -> Outcome<Applied> {
    let ctx = Context::load(pool, config).await?;
    let templates = mails::templates(pool).await?;
    // The state before, for the history: a row applied below was at the version the
    // organiser saw, which is the version read here (every change raises it).
    let before: Vec<Submission> = store::pending(pool).await?;
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let mut applied = Applied::default();
    for (reference, version) in items {
        let Some(s) = store::apply(&mut tx, reference, *version, &at).await? else {
            if store::is_pending(&mut tx, reference).await? {
                return Err(Why::Preview.refuse(reference));
            }
            // Applied already (a second click, another organiser, another instance).
            continue;
        };
        let Some(decision) = Decision::parse(&s.state) else { continue };
        let link = Secret::generate();
        store::add_link(&mut tx, s.id, &link.hash, &at).await?;
        let status_link = status_link(config, &link.token);
        let reviews = reviews_for(&mut tx, s.id).await?;
        let mail = templates.mail_for(&ctx, &s, decision, (&status_link, &reviews), s.decisions)?;
        let queued = mail::enqueue(&mut tx, &mail.mail).await?;
        let old = before.iter().find(|b| b.submitted.reference == *reference && b.version == *version);
        let mut entry = actor.entry(&at, "submission.decision_applied");
        entry.object_type = Some("submission");
        entry.object_id = Some(reference);
        entry.details = json!({
            "state": { "before": old.map(|b| b.state.as_str()), "after": s.state },
            "mail": { "to": s.submitted.email, "queued": queued, "subject": mail.mail.subject },
        });
        audit::record(&mut tx, &entry).await?;
        match decision {
            Decision::Accepted => applied.accepted += 1,
            Decision::Rejected => applied.rejected += 1,
        }
        applied.mails += usize::from(queued);
    }
    tx.commit().await?;
    Ok(applied)
}
