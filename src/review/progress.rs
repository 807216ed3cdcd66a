//! How far reviewing has come (issue 32 item 8): what the organisers' review progress page
//! shows. The papers, reviews and reviewers behind are counts over every paper and
//! assignment, made once per `count_version` and kept (`crate::repo::review_records`); "remind
//! now" is [`super::reminders::remind_now`].

use std::sync::Arc;

use time::OffsetDateTime;

use super::reminders;
use crate::db::Pool;
use crate::repo::dashboard::Counts;
use crate::repo::review_records::{self, Behind, Figures};
use crate::repo::reviewers;

/// Papers listed below their reviews at most; the submissions list filtered shows them all.
const UNDER_REVIEWED_SHOWN: i64 = 100;

/// What the review progress page shows at a moment.
pub struct Progress {
    /// The settings' `reviewers_per_paper`: the reviews a paper needs.
    pub needed: i64,
    /// The deadline in words, and how far off it is; `None` without one.
    pub deadline: Option<(String, String)>,
    pub passed: bool,
    /// Papers, reviews assigned and submitted, and the first papers below `needed` reviews
    /// (fewest first).
    pub figures: Arc<Figures>,
    /// Whether more papers are below their reviews than `figures.under` lists.
    pub under_more: bool,
    /// Once the deadline has passed, the reviewers with unsubmitted reviews, by name; empty
    /// before.
    pub overdue: Arc<Vec<Behind>>,
}

/// The page's figures at `now`, from `counts`' kept ones.
pub async fn progress(pool: &Pool, counts: &Counts, now: OffsetDateTime) -> Result<Progress, sqlx::Error> {
    let needed = reviewers::settings(pool).await?.reviewers_per_paper;
    let deadline = reminders::deadline(pool).await?;
    let passed = deadline.as_ref().is_some_and(|d| d.passed(now));
    let figures = review_records::figures(pool, needed, UNDER_REVIEWED_SHOWN, counts).await?;
    let under_more = figures.under_count > figures.under.len() as i64;
    let overdue = if passed { review_records::behind_kept(pool, counts).await? } else { Arc::default() };
    Ok(Progress {
        needed,
        deadline: deadline.map(|d| (d.label.clone(), d.until(now))),
        passed,
        figures,
        under_more,
        overdue,
    })
}
