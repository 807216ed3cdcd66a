//! What organisers decide from and what the records keep (issue 32 items 7 to 9, migration
//! 0019): the reviewers with unsubmitted reviews (reminders, "remind now", overdue), the
//! progress of reviewing, a paper's reviews with their reviewers' names and its discussion
//! (organisers only), the comments to authors that reach them with the decision, and every
//! submitted review for the CSV and `conference export reviews`.
//!
//! A review counts when it is submitted on a released assignment: a draft is not one yet,
//! and a withdrawn assignment (a conflict, a removed reviewer) no longer counts for the
//! paper. Withdrawn papers need no review, so they are left out of what is still to do.

use futures_util::stream::BoxStream;
use sqlx::FromRow;

use std::sync::Arc;

use super::dashboard::Counts;
use crate::db::{Connection, Pool};

/// One paper a reviewer still has to review: released to them, with no review or a draft.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Unsubmitted {
    pub reviewer_id: i64,
    pub email: String,
    pub name: String,
    /// The paper as reviewers know it (`R-XXXXXX`); `None` for a paper given none (never, once
    /// assigned, but the column allows it).
    pub review_code: Option<String>,
    pub paper_title: String,
}

/// The papers every accepted reviewer (or, with `reviewer`, that one) still has to review:
/// released assignments of papers not withdrawn with no submitted review, by reviewer then
/// review code. Never an author's name: only the code and the title.
pub async fn unsubmitted(pool: &Pool, reviewer: Option<i64>) -> Result<Vec<Unsubmitted>, sqlx::Error> {
    let one = if reviewer.is_some() { " AND r.id = $1" } else { "" };
    let sql = format!(
        "SELECT r.id AS reviewer_id, r.email, r.name, s.review_code, s.paper_title
         FROM review_assignments a
         JOIN reviewers r ON r.id = a.reviewer_id
         JOIN submissions s ON s.id = a.submission_id
         LEFT JOIN reviews v ON v.assignment_id = a.id
         WHERE a.state = 'released' AND r.state = 'accepted' AND s.state <> 'withdrawn'
           AND (v.id IS NULL OR v.state <> 'submitted'){one}
         ORDER BY r.id, s.review_code, s.id"
    );
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
    if let Some(id) = reviewer {
        query = query.bind(id);
    }
    query.fetch_all(pool).await
}

/// A reviewer with unsubmitted reviews, and how many.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Behind {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub unsubmitted: i64,
}

/// The accepted reviewers with unsubmitted reviews (see [`unsubmitted`]), by name.
///
/// Counted per reviewer from the covering indexes `(reviewer_id, state)` of the assignments
/// and the reviews rather than by joining each of 40,000 assignments to its paper and review
/// (that join took about 100 ms of a core per view at conference scale, `bench/organiser.sh`
/// run 6; these reads take about 15 ms together): released assignments, less those of
/// withdrawn papers, less the submitted reviews of released assignments of papers not
/// withdrawn.
pub async fn behind(pool: &Pool) -> Result<Vec<Behind>, sqlx::Error> {
    use std::collections::HashMap;
    let per_reviewer = |rows: Vec<(i64, i64)>| rows.into_iter().collect::<HashMap<i64, i64>>();
    let released = per_reviewer(
        sqlx::query_as(
            "SELECT reviewer_id, COUNT(*) FROM review_assignments WHERE state = 'released' GROUP BY reviewer_id",
        )
        .fetch_all(pool)
        .await?,
    );
    let submitted = per_reviewer(
        sqlx::query_as("SELECT reviewer_id, COUNT(*) FROM reviews WHERE state = 'submitted' GROUP BY reviewer_id")
            .fetch_all(pool)
            .await?,
    );
    // Submitted reviews whose assignment was withdrawn since (a conflict declared after
    // submitting): few, found per reviewer through the `(reviewer_id, state)` index.
    let submitted_withdrawn = per_reviewer(
        sqlx::query_as(
            "SELECT a.reviewer_id, COUNT(*) FROM reviewers r
             JOIN review_assignments a ON a.reviewer_id = r.id AND a.state = 'withdrawn'
             JOIN reviews v ON v.assignment_id = a.id AND v.state = 'submitted'
             GROUP BY a.reviewer_id",
        )
        .fetch_all(pool)
        .await?,
    );
    // Released assignments of withdrawn papers (few), and how many of them were submitted.
    let of_withdrawn: Vec<(i64, i64, i64)> = sqlx::query_as(
        "SELECT a.reviewer_id, COUNT(*),
                CAST(SUM(CASE WHEN EXISTS (SELECT 1 FROM reviews v WHERE v.assignment_id = a.id
                                           AND v.state = 'submitted') THEN 1 ELSE 0 END) AS BIGINT)
         FROM submissions s JOIN review_assignments a ON a.submission_id = s.id AND a.state = 'released'
         WHERE s.state = 'withdrawn' GROUP BY a.reviewer_id",
    )
    .fetch_all(pool)
    .await?;
    let of_withdrawn: HashMap<i64, (i64, i64)> = of_withdrawn.into_iter().map(|(r, n, s)| (r, (n, s))).collect();
    let reviewers: Vec<(i64, String, String)> =
        sqlx::query_as("SELECT id, name, email FROM reviewers WHERE state = 'accepted' ORDER BY lower(name), id")
            .fetch_all(pool)
            .await?;
    let count = |map: &HashMap<i64, i64>, id: i64| map.get(&id).copied().unwrap_or(0);
    Ok(reviewers
        .into_iter()
        .filter_map(|(id, name, email)| {
            let (released_withdrawn, submitted_withdrawn_paper) = of_withdrawn.get(&id).copied().unwrap_or((0, 0));
            let live = count(&released, id) - released_withdrawn;
            let done = count(&submitted, id) - count(&submitted_withdrawn, id) - submitted_withdrawn_paper;
            let unsubmitted = live - done;
            (unsubmitted > 0).then_some(Behind { id, name, email, unsubmitted })
        })
        .collect())
}

/// An accepted reviewer by id: (name, e-mail).
pub async fn reviewer(pool: &Pool, id: i64) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT name, email FROM reviewers WHERE id = $1 AND state = 'accepted'")
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// Whether a mail under `key` is in the outbox already (queued, sent or failed): a reminder
/// sent once is not composed again on every sweep. [`crate::mail::enqueue`]'s own dedupe
/// decides between instances racing for the same key.
pub async fn queued(pool: &Pool, key: &str) -> Result<bool, sqlx::Error> {
    let found: Option<i64> =
        sqlx::query_scalar("SELECT id FROM outbox WHERE dedupe_key = $1").bind(key).fetch_optional(pool).await?;
    Ok(found.is_some())
}

/// The state of reviewing over the papers not withdrawn.
#[derive(Debug, Clone, Copy, FromRow, PartialEq, Eq, Default)]
pub struct Progress {
    pub papers: i64,
    /// Released assignments.
    pub assigned: i64,
    /// Submitted reviews (the papers' `reviews_submitted`).
    pub submitted: i64,
}

/// How many papers there are, reviews assigned and reviews submitted.
///
/// Each figure is the whole table's, read from an index, less the withdrawn papers' (a few
/// rows found from theirs): at 20,000 papers and 40,000 assignments, joining every row to its
/// paper to leave the withdrawn ones out would read them all on every view.
pub async fn progress(pool: &Pool) -> Result<Progress, sqlx::Error> {
    sqlx::query_as(
        "SELECT
            (SELECT COUNT(*) FROM submissions)
              - (SELECT COUNT(*) FROM submissions WHERE state = 'withdrawn') AS papers,
            (SELECT COUNT(*) FROM review_assignments WHERE state = 'released')
              - (SELECT COUNT(*) FROM review_assignments a JOIN submissions s ON s.id = a.submission_id
                 WHERE s.state = 'withdrawn' AND a.state = 'released') AS assigned,
            CAST((SELECT COALESCE(SUM(reviews_submitted), 0) FROM submissions)
              - (SELECT COALESCE(SUM(reviews_submitted), 0) FROM submissions WHERE state = 'withdrawn') AS BIGINT)
              AS submitted",
    )
    .fetch_one(pool)
    .await
}

/// A paper with fewer submitted reviews than it needs.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct UnderReviewed {
    pub reference: String,
    pub paper_title: String,
    pub reviews_submitted: i64,
}

/// How many papers not withdrawn have fewer than `needed` submitted reviews, and the first
/// `limit` of them, fewest reviews first (from the index on `reviews_submitted`).
pub async fn under_reviewed(pool: &Pool, needed: i64, limit: i64) -> Result<(i64, Vec<UnderReviewed>), sqlx::Error> {
    // Counted from the index on `reviews_submitted`, less the withdrawn (see [`progress`]).
    let count: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM submissions WHERE reviews_submitted < $1)
              - (SELECT COUNT(*) FROM submissions WHERE state = 'withdrawn' AND reviews_submitted < $1)",
    )
    .bind(needed)
    .fetch_one(pool)
    .await?;
    let rows = sqlx::query_as(
        "SELECT reference, paper_title, reviews_submitted FROM submissions
         WHERE reviews_submitted < $1 AND state <> 'withdrawn'
         ORDER BY reviews_submitted, id LIMIT $2",
    )
    .bind(needed)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    Ok((count, rows))
}

/// One review of a paper as organisers read it: with its reviewer's name.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct PaperReview {
    /// "Reviewer 2" on this paper.
    pub number: i64,
    /// `released`, `staged` or `withdrawn`: the assignment's state.
    pub assignment: String,
    pub reviewer: String,
    pub reviewer_email: String,
    /// `draft` or `submitted`.
    pub state: String,
    /// JSON: `[{key, label, weight, score, score_label}]` as the form was when saved.
    pub answers: String,
    /// Weighted mean in thousandths.
    pub score: Option<i64>,
    pub recommendation: Option<String>,
    pub confidence: Option<i64>,
    pub comments_to_authors: String,
    pub confidential_comments: String,
    pub updated: String,
    pub submitted_at: Option<String>,
}

/// Every review of submission `id` (drafts too), by reviewer number.
pub async fn of_paper(pool: &Pool, id: i64) -> Result<Vec<PaperReview>, sqlx::Error> {
    sqlx::query_as(
        "SELECT a.number, a.state AS assignment, r.name AS reviewer, r.email AS reviewer_email, v.state,
                v.answers, v.score, v.recommendation, v.confidence, v.comments_to_authors,
                v.confidential_comments, v.updated, v.submitted_at
         FROM reviews v
         JOIN review_assignments a ON a.id = v.assignment_id
         JOIN reviewers r ON r.id = v.reviewer_id
         WHERE v.submission_id = $1
         ORDER BY a.number",
    )
    .bind(id)
    .fetch_all(pool)
    .await
}

/// One message of a paper's discussion.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Comment {
    /// The reviewer's name; `None` for an organiser's message.
    pub reviewer: Option<String>,
    /// The organiser's address, for an organiser's message.
    pub organiser: Option<String>,
    pub body: String,
    pub created: String,
}

/// The discussion of submission `id`, oldest first.
pub async fn discussion(pool: &Pool, id: i64) -> Result<Vec<Comment>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.name AS reviewer, c.organiser, c.body, c.created
         FROM review_comments c LEFT JOIN reviewers r ON r.id = c.reviewer_id
         WHERE c.submission_id = $1 ORDER BY c.id",
    )
    .bind(id)
    .fetch_all(pool)
    .await
}

/// The submitted reviews of submission `id` that count, as authors may read them: the
/// reviewer's number on the paper and the comments to authors, by number. Never a name,
/// never the confidential comments.
pub async fn for_authors(conn: &mut Connection, id: i64) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT a.number, v.comments_to_authors
         FROM reviews v JOIN review_assignments a ON a.id = v.assignment_id
         WHERE v.submission_id = $1 AND v.state = 'submitted' AND a.state = 'released'
         ORDER BY a.number",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}

/// One submitted review, as the records keep it.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Record {
    pub reference: String,
    pub number: i64,
    pub reviewer: String,
    pub reviewer_email: String,
    /// JSON: `[{key, label, weight, score, score_label}]`.
    pub answers: String,
    pub score: Option<i64>,
    pub recommendation: Option<String>,
    pub confidence: Option<i64>,
    pub comments_to_authors: String,
    pub confidential_comments: String,
    pub submitted_at: Option<String>,
}

/// Every review that counts (submitted, on a released assignment), by reference then
/// reviewer number, one row at a time.
pub fn records(pool: &Pool) -> BoxStream<'_, Result<Record, sqlx::Error>> {
    sqlx::query_as(
        "SELECT s.reference, a.number, r.name AS reviewer, r.email AS reviewer_email, v.answers, v.score,
                v.recommendation, v.confidence, v.comments_to_authors, v.confidential_comments, v.submitted_at
         FROM reviews v
         JOIN review_assignments a ON a.id = v.assignment_id
         JOIN reviewers r ON r.id = v.reviewer_id
         JOIN submissions s ON s.id = v.submission_id
         WHERE v.state = 'submitted' AND a.state = 'released'
         ORDER BY s.reference, a.number",
    )
    .fetch(pool)
}

/// The `answers` of every review that counts, oldest first (for the records' criteria columns).
pub fn answers(pool: &Pool) -> BoxStream<'_, Result<String, sqlx::Error>> {
    sqlx::query_scalar(
        "SELECT v.answers FROM reviews v JOIN review_assignments a ON a.id = v.assignment_id
         WHERE v.state = 'submitted' AND a.state = 'released' ORDER BY v.id",
    )
    .fetch(pool)
}

/// The review form's criteria keys, in the form's order.
pub async fn criteria_keys(pool: &Pool) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT key FROM review_criteria ORDER BY position, key").fetch_all(pool).await
}

/// What the review progress page shows besides the overdue reviewers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    pub progress: Progress,
    /// Papers not withdrawn with fewer submitted reviews than needed.
    pub under_count: i64,
    /// The first of them, fewest reviews first.
    pub under: Vec<UnderReviewed>,
}

/// [`progress`] and [`under_reviewed`] (`needed` reviews a paper, the first `limit` papers),
/// made once per `count_version` and kept in `counts`: every write they depend on (papers,
/// their review figures, assignments, reviews) moves it (migrations 0015 and 0021), so a view
/// reads one row instead of counting 20,000 papers and 40,000 assignments (58 ms p99 in
/// `bench/organiser.sh` run 7).
pub async fn figures(pool: &Pool, needed: i64, limit: i64, counts: &Counts) -> Result<Arc<Figures>, sqlx::Error> {
    counts
        .kept
        .made(&format!("review progress, {needed} reviews a paper, {limit} shown"), || async {
            let progress = progress(pool).await?;
            let (under_count, under) = under_reviewed(pool, needed, limit).await?;
            Ok(Figures { progress, under_count, under })
        })
        .await
}

/// [`behind`], made once per `count_version` and kept in `counts` (assignments, reviews and
/// reviewers all move it, migration 0021).
pub async fn behind_kept(pool: &Pool, counts: &Counts) -> Result<Arc<Vec<Behind>>, sqlx::Error> {
    counts.kept.made("reviewers behind", || behind(pool)).await
}
