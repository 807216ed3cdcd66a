//! The counts of the organisers' dashboard (DESIGN.md section 12): what came in, what was
//! paid, who subscribed, and whether mail goes out.
//!
//! Counting every row takes about 35 ms at conference scale (50,000 orders), so each server
//! keeps the last [`Counts`] in a [`CountCache`] and counts again only when a counted table
//! changed: `count_version` (migration 0015) is bumped by triggers in every transaction that
//! writes one, on any instance.

use std::sync::Arc;

use sqlx::FromRow;
use tokio::sync::Mutex;

use super::filter::{Kept, Matches};
use crate::db::Pool;

/// Submissions of one paper type: in all, and since a time.
#[derive(Debug, Clone, FromRow)]
pub struct PaperTypeCount {
    pub paper_type: String,
    pub total: i64,
    pub recent: i64,
}

/// Submissions by paper type, `recent` counting those received at or after `since`.
async fn submissions_by_type(pool: &Pool, since: &str) -> Result<Vec<PaperTypeCount>, sqlx::Error> {
    sqlx::query_as(
        "SELECT paper_type, COUNT(*) AS total, SUM(CASE WHEN created >= $1 THEN 1 ELSE 0 END) AS recent \
         FROM submissions GROUP BY paper_type ORDER BY paper_type",
    )
    .bind(since)
    .fetch_all(pool)
    .await
}

/// Contact messages no organiser has opened yet.
async fn unread_messages(pool: &Pool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE read_at IS NULL").fetch_one(pool).await
}

/// Submissions per state (`submitted`, `accepted`, `rejected`, `withdrawn`; issue 21).
async fn submissions_by_state(pool: &Pool) -> Result<Vec<StatusCount>, sqlx::Error> {
    sqlx::query_as("SELECT state AS status, COUNT(*) AS count FROM submissions GROUP BY state ORDER BY state")
        .fetch_all(pool)
        .await
}

/// Submissions with a decision staged and not applied yet.
async fn pending_decisions(pool: &Pool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM submissions WHERE pending_decision IS NOT NULL").fetch_one(pool).await
}

/// Contact messages in all.
async fn messages(pool: &Pool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM messages").fetch_one(pool).await
}

/// Orders of one payments mode (`live`, `test`, or empty for orders from before modes were
/// recorded) in one state.
#[derive(Debug, Clone, FromRow)]
pub struct OrderCount {
    pub payments_mode: String,
    pub status: String,
    pub orders: i64,
}

/// Orders by payments mode and state.
async fn orders_by_state(pool: &Pool) -> Result<Vec<OrderCount>, sqlx::Error> {
    sqlx::query_as(
        // Counted by the stored columns first, in the order of the index `orders_mode_status`
        // (migration 0013), then merged by the shown mode: no sort of every order.
        "SELECT COALESCE(payments_mode, '') AS payments_mode, status, CAST(SUM(orders) AS BIGINT) AS orders FROM \
         (SELECT payments_mode, status, COUNT(*) AS orders FROM orders GROUP BY payments_mode, status) AS counted \
         GROUP BY COALESCE(payments_mode, ''), status ORDER BY 1, 2",
    )
    .fetch_all(pool)
    .await
}

/// What was paid in one payments mode, currency and kind of order, in cents.
#[derive(Debug, Clone, FromRow)]
pub struct PaidTotal {
    pub payments_mode: String,
    pub currency: String,
    pub kind: String,
    /// Paid orders not refunded, and what they hold.
    pub orders: i64,
    pub cents: i64,
    /// Paid orders an organiser marked refunded (money returned outside the site), and theirs.
    pub refunded: i64,
    pub refunded_cents: i64,
}

/// Paid orders' totals per payments mode, currency and kind (plan, custom, sponsor), refunds
/// apart.
async fn paid_totals(pool: &Pool) -> Result<Vec<PaidTotal>, sqlx::Error> {
    sqlx::query_as(
        // Summed by the stored columns first, in the order of the covering index
        // `orders_paid_refunded` (migration 0014), then merged by the shown mode: no sort of
        // every paid order.
        "SELECT COALESCE(payments_mode, '') AS payments_mode, currency, kind, \
         CAST(SUM(orders) AS BIGINT) AS orders, CAST(SUM(cents) AS BIGINT) AS cents, \
         CAST(SUM(refunded) AS BIGINT) AS refunded, CAST(SUM(refunded_cents) AS BIGINT) AS refunded_cents FROM \
         (SELECT payments_mode, currency, kind, \
          SUM(CASE WHEN refunded_at IS NULL THEN 1 ELSE 0 END) AS orders, \
          SUM(CASE WHEN refunded_at IS NULL THEN amount_cents ELSE 0 END) AS cents, \
          SUM(CASE WHEN refunded_at IS NULL THEN 0 ELSE 1 END) AS refunded, \
          SUM(CASE WHEN refunded_at IS NULL THEN 0 ELSE amount_cents END) AS refunded_cents \
          FROM orders WHERE status = 'success' GROUP BY payments_mode, currency, kind) AS summed \
         GROUP BY COALESCE(payments_mode, ''), currency, kind ORDER BY 1, 2, 3",
    )
    .fetch_all(pool)
    .await
}

/// Subscribers in one state (`pending`, `subscribed`, `unsubscribed`).
#[derive(Debug, Clone, FromRow)]
pub struct StatusCount {
    pub status: String,
    pub count: i64,
}

/// Subscribers by state.
async fn subscribers_by_status(pool: &Pool) -> Result<Vec<StatusCount>, sqlx::Error> {
    sqlx::query_as("SELECT status, COUNT(*) AS count FROM subscribers GROUP BY status ORDER BY status")
        .fetch_all(pool)
        .await
}

/// Outbox rows by state (`pending`, `sent`, `failed`).
async fn outbox_by_status(pool: &Pool) -> Result<Vec<StatusCount>, sqlx::Error> {
    sqlx::query_as("SELECT status, COUNT(*) AS count FROM outbox GROUP BY status ORDER BY status").fetch_all(pool).await
}

/// A mail that has failed at least once (still being retried, or given up).
#[derive(Debug, Clone, FromRow)]
pub struct FailingMail {
    pub id: i64,
    pub subject: String,
    pub status: String,
    pub attempts: i64,
    pub last_error: Option<String>,
    pub created: String,
}

/// The newest `limit` mails that failed at least once.
async fn failing_mail(pool: &Pool, limit: i64) -> Result<Vec<FailingMail>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, subject, status, CAST(attempts AS BIGINT) AS attempts, last_error, created FROM outbox \
         WHERE status = 'failed' OR (status = 'pending' AND last_error IS NOT NULL) ORDER BY id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Every count of the dashboard, as of one `count_version`.
#[derive(Debug)]
pub struct Counts {
    /// The version read before counting: these counts hold at least every change it stands for.
    version: i64,
    /// The `since` the papers' `recent` counts start at.
    since: String,
    pub papers: Vec<PaperTypeCount>,
    pub states: Vec<StatusCount>,
    pub pending: i64,
    pub messages: i64,
    pub unread: i64,
    pub orders: Vec<OrderCount>,
    pub paid: Vec<PaidTotal>,
    pub subscribers: Vec<StatusCount>,
    pub outbox: Vec<StatusCount>,
    /// The newest [`FAILING_MAILS`] mails that failed at least once.
    pub failing: Vec<FailingMail>,
    /// What the lists learnt under this version: their filters' counts, their page anchors.
    pub kept: Kept,
}

/// Failing mails the dashboard shows.
const FAILING_MAILS: i64 = 10;

impl Counts {
    /// Counts everything, `recent` papers being those received at or after `since` (RFC 3339).
    pub async fn count(pool: &Pool, since: &str) -> Result<Counts, sqlx::Error> {
        // Read first: a change committed while counting makes the next view count again.
        let version = count_version(pool).await?;
        Ok(Counts {
            version,
            since: since.to_owned(),
            papers: submissions_by_type(pool, since).await?,
            states: submissions_by_state(pool).await?,
            pending: pending_decisions(pool).await?,
            messages: messages(pool).await?,
            unread: unread_messages(pool).await?,
            orders: orders_by_state(pool).await?,
            paid: paid_totals(pool).await?,
            subscribers: subscribers_by_status(pool).await?,
            outbox: outbox_by_status(pool).await?,
            failing: failing_mail(pool, FAILING_MAILS).await?,
            kept: Kept::default(),
        })
    }

    /// How a list learns its number of rows: `known` when these counts hold it, else counted
    /// once under this version.
    pub fn matches(&self, known: Option<i64>) -> Matches<'_> {
        known.map_or(Matches::Kept(&self.kept), |known| Matches::Known(known, &self.kept))
    }

    /// Submissions in all.
    pub fn submissions(&self) -> i64 {
        self.papers.iter().map(|p| p.total).sum()
    }

    /// Subscribers in `status`, or in all.
    pub fn subscribers_in(&self, status: Option<&str>) -> i64 {
        in_status(&self.subscribers, status)
    }

    /// Mails in `status`, or in all.
    pub fn mails_in(&self, status: Option<&str>) -> i64 {
        in_status(&self.outbox, status)
    }
}

/// The rows of `counts` in `status` (all without one).
fn in_status(counts: &[StatusCount], status: Option<&str>) -> i64 {
    counts.iter().filter(|c| status.is_none_or(|s| c.status == s)).map(|c| c.count).sum()
}

/// `count_version.version` (migration 0015): it moves with every committed write of a counted
/// table.
pub async fn count_version(pool: &Pool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT version FROM count_version WHERE id = 1").fetch_one(pool).await
}

/// One server's latest [`Counts`].
#[derive(Debug, Default)]
pub struct CountCache {
    /// Held while counting, so views arriving meanwhile wait for that count instead of
    /// counting too.
    latest: Mutex<Option<Arc<Counts>>>,
}

impl CountCache {
    /// Counts that hold every change committed before this call: the kept ones when no counted
    /// table changed since they were made, else new ones (made once for every view waiting
    /// meanwhile). With `exact`, `recent` papers count from `since` (the dashboard); without,
    /// from whichever `since` the kept ones had (the lists, which show no recent count).
    pub async fn get(&self, pool: &Pool, since: &str, exact: bool) -> Result<Arc<Counts>, sqlx::Error> {
        let version = count_version(pool).await?;
        let mut latest = self.latest.lock().await;
        // Any other version, not only a higher one: a restored database starts counting anew.
        if let Some(counts) = latest.as_ref().filter(|c| c.version == version && (!exact || c.since == since)) {
            return Ok(counts.clone());
        }
        let counts = Arc::new(Counts::count(pool, since).await?);
        *latest = Some(counts.clone());
        Ok(counts)
    }
}
