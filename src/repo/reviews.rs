//! Reviewing (migration 0019, issue 32 item 6): a reviewer's released papers, one paper as
//! its reviewer may see it, reviews and their figures on the submission, the committee's
//! discussion and conflicts declared by reviewers.
//!
//! Every query that finds a paper for a reviewer applies the one access rule: an assignment
//! of this reviewer to the paper that is `released` (not staged, not withdrawn), and no
//! conflict declared between them.

use sqlx::FromRow;

use crate::db::{self, Connection, Pool};

/// One row of `review_criteria` as stored: `scale` is JSON text.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct CriterionRow {
    pub key: String,
    pub position: i64,
    pub label: String,
    pub description: String,
    pub scale: String,
    pub weight: i64,
}

/// The review form's criteria as stored, in `position` order.
pub async fn criteria(pool: &Pool) -> Result<Vec<CriterionRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT key, position, label, description, scale, weight FROM review_criteria ORDER BY position, key",
    )
    .fetch_all(pool)
    .await
}

/// One line of a reviewer's list: the paper's review code and title, and the review's state
/// (`draft`, `submitted`, or `None` before anything was saved).
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct MyPaper {
    pub review_code: String,
    pub title: String,
    pub review_state: Option<String>,
}

/// The papers released to `reviewer_id` and not conflicted, by review code.
pub async fn my_papers(pool: &Pool, reviewer_id: i64) -> Result<Vec<MyPaper>, sqlx::Error> {
    sqlx::query_as(
        "SELECT s.review_code AS review_code, s.paper_title AS title, r.state AS review_state
         FROM review_assignments a
         JOIN submissions s ON s.id = a.submission_id
         LEFT JOIN reviews r ON r.assignment_id = a.id
         WHERE a.reviewer_id = $1 AND a.state = 'released' AND s.review_code IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM review_conflicts c
                           WHERE c.reviewer_id = a.reviewer_id AND c.submission_id = a.submission_id)
         ORDER BY s.review_code",
    )
    .bind(reviewer_id)
    .fetch_all(pool)
    .await
}

/// A paper as its assigned reviewer reaches it: the assignment and every field of the
/// submission the reviewers' pages might need. Which of the authors' fields a page shows is
/// the anonymity rule's choice (`crate::review::anonymous`), not this query's.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct AssignedPaper {
    pub assignment_id: i64,
    /// "Reviewer N" on this paper.
    pub reviewer_number: i64,
    pub reviewer_id: i64,
    pub submission_id: i64,
    pub reference: String,
    pub review_code: String,
    pub title: String,
    pub paper_type: String,
    pub presentation_type: String,
    pub public_abstract: String,
    pub message: String,
    pub name: String,
    pub author_name: String,
    pub co_author_name: String,
    pub email: String,
    pub phone: String,
    pub country: String,
    pub department: String,
    pub university_organization: String,
    /// Relative to `DATA_DIR` (SQLite) or the key of its chunks (PostgreSQL).
    pub file_path: String,
    pub file_type: String,
}

/// The paper whose review code is `code`, if it is released to `reviewer_id` without a
/// conflict; `None` for anything else (unknown, staged, withdrawn, conflicted).
pub async fn assigned_paper(pool: &Pool, reviewer_id: i64, code: &str) -> Result<Option<AssignedPaper>, sqlx::Error> {
    if !db::storable(code) {
        return Ok(None);
    }
    sqlx::query_as(
        "SELECT a.id AS assignment_id, a.number AS reviewer_number, a.reviewer_id AS reviewer_id,
                s.id AS submission_id, s.reference, s.review_code, s.paper_title AS title, s.paper_type,
                s.presentation_type, s.public_abstract, s.message, s.name, s.author_name, s.co_author_name,
                s.email, s.number AS phone, s.country, s.department, s.university_organization,
                s.file_path, s.file_type
         FROM submissions s
         JOIN review_assignments a ON a.submission_id = s.id
         WHERE s.review_code = $1 AND a.reviewer_id = $2 AND a.state = 'released'
           AND NOT EXISTS (SELECT 1 FROM review_conflicts c
                           WHERE c.reviewer_id = a.reviewer_id AND c.submission_id = a.submission_id)",
    )
    .bind(code)
    .bind(reviewer_id)
    .fetch_optional(pool)
    .await
}

/// A stored review. `answers` is the JSON snapshot of the form as answered
/// (`crate::review::form::Answer`); `score` the weighted mean in thousandths.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Review {
    pub id: i64,
    pub assignment_id: i64,
    /// `draft` or `submitted`.
    pub state: String,
    pub answers: String,
    pub score: Option<i64>,
    pub recommendation: Option<String>,
    pub confidence: Option<i64>,
    pub comments_to_authors: String,
    pub confidential_comments: String,
    pub created: String,
    pub updated: String,
    pub submitted_at: Option<String>,
}

const REVIEW_COLUMNS: &str = "r.id, r.assignment_id, r.state, r.answers, r.score, r.recommendation, r.confidence, \
                              r.comments_to_authors, r.confidential_comments, r.created, r.updated, r.submitted_at";

/// The review of an assignment, if one was saved.
pub async fn review_of(conn: &mut Connection, assignment_id: i64) -> Result<Option<Review>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {REVIEW_COLUMNS} FROM reviews r WHERE r.assignment_id = $1")))
        .bind(assignment_id)
        .fetch_optional(conn)
        .await
}

/// [`review_of`] on the pool.
pub async fn review(pool: &Pool, assignment_id: i64) -> Result<Option<Review>, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    review_of(&mut conn, assignment_id).await
}

/// What a save writes of a review.
#[derive(Debug, Clone)]
pub struct ReviewValues<'a> {
    pub state: &'a str,
    pub answers: &'a str,
    pub score: Option<i64>,
    pub recommendation: Option<&'a str>,
    pub confidence: Option<i64>,
    pub comments_to_authors: &'a str,
    pub confidential_comments: &'a str,
    /// RFC 3339 UTC of this save.
    pub at: &'a str,
    /// When the review was first submitted, if it is.
    pub submitted_at: Option<&'a str>,
}

/// Stores the first review of an assignment; a second one for the same assignment fails
/// with a unique violation (two tabs saving at once: the caller answers 409).
pub async fn insert_review(
    conn: &mut Connection,
    paper: &AssignedPaper,
    values: &ReviewValues<'_>,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO reviews (assignment_id, submission_id, reviewer_id, state, answers, score, recommendation,
                              confidence, comments_to_authors, confidential_comments, created, updated, submitted_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12) RETURNING id",
    )
    .bind(paper.assignment_id)
    .bind(paper.submission_id)
    .bind(paper.reviewer_id)
    .bind(values.state)
    .bind(values.answers)
    .bind(values.score)
    .bind(values.recommendation)
    .bind(values.confidence)
    .bind(values.comments_to_authors)
    .bind(values.confidential_comments)
    .bind(values.at)
    .bind(values.submitted_at)
    .fetch_one(conn)
    .await
}

/// Overwrites review `id` if it is still as read (`updated` unchanged); whether it was.
pub async fn update_review(
    conn: &mut Connection,
    id: i64,
    read_updated: &str,
    values: &ReviewValues<'_>,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE reviews SET state = $1, answers = $2, score = $3, recommendation = $4, confidence = $5,
                comments_to_authors = $6, confidential_comments = $7, updated = $8, submitted_at = $9
         WHERE id = $10 AND updated = $11",
    )
    .bind(values.state)
    .bind(values.answers)
    .bind(values.score)
    .bind(values.recommendation)
    .bind(values.confidence)
    .bind(values.comments_to_authors)
    .bind(values.confidential_comments)
    .bind(values.at)
    .bind(values.submitted_at)
    .bind(id)
    .bind(read_updated)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Takes the submission's row lock (PostgreSQL; SQLite's write transaction holds the whole
/// database already), so two reviews of one paper saved at once recount its figures one
/// after the other, each seeing the other's review.
pub async fn lock_submission(conn: &mut Connection, submission_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE submissions SET reviews_submitted = reviews_submitted WHERE id = $1")
        .bind(submission_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The score and recommendation of every submitted review of a paper whose assignment
/// stands (a reviewer who declared a conflict no longer counts).
pub async fn counted_reviews(
    conn: &mut Connection,
    submission_id: i64,
) -> Result<Vec<(Option<i64>, Option<String>)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.score, r.recommendation FROM reviews r
         JOIN review_assignments a ON a.id = r.assignment_id
         WHERE r.submission_id = $1 AND r.state = 'submitted' AND a.state <> 'withdrawn'
         ORDER BY r.id",
    )
    .bind(submission_id)
    .fetch_all(conn)
    .await
}

/// Writes a paper's review figures (migration 0019): how many submitted reviews, their mean
/// score and spread in thousandths (`None` without a review), the recommendations counted
/// as a JSON object.
pub async fn set_figures(
    conn: &mut Connection,
    submission_id: i64,
    submitted: i64,
    score: Option<i64>,
    spread: Option<i64>,
    recommendations: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE submissions SET reviews_submitted = $1, review_score = $2, review_spread = $3, recommendations = $4
         WHERE id = $5",
    )
    .bind(submitted)
    .bind(score)
    .bind(spread)
    .bind(recommendations)
    .bind(submission_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// A paper's review figures as stored: (reviews_submitted, review_score, review_spread,
/// recommendations).
pub async fn figures(pool: &Pool, submission_id: i64) -> Result<(i64, Option<i64>, Option<i64>, String), sqlx::Error> {
    sqlx::query_as(
        "SELECT reviews_submitted, review_score, review_spread, recommendations FROM submissions WHERE id = $1",
    )
    .bind(submission_id)
    .fetch_one(pool)
    .await
}

/// Another reviewer's submitted review, with that reviewer's number on the paper.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct NumberedReview {
    pub number: i64,
    #[sqlx(flatten)]
    pub review: Review,
}

/// The submitted reviews of a paper other than assignment `except`'s, whose assignments
/// stand, by reviewer number.
pub async fn other_reviews(pool: &Pool, submission_id: i64, except: i64) -> Result<Vec<NumberedReview>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT a.number, {REVIEW_COLUMNS} FROM reviews r
         JOIN review_assignments a ON a.id = r.assignment_id
         WHERE r.submission_id = $1 AND r.state = 'submitted' AND a.state <> 'withdrawn' AND r.assignment_id <> $2
         ORDER BY a.number"
    )))
    .bind(submission_id)
    .bind(except)
    .fetch_all(pool)
    .await
}

/// One message of a paper's discussion: by a reviewer (with their number on the paper) or
/// by an organiser (`reviewer_id` `None`).
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Comment {
    pub id: i64,
    pub reviewer_id: Option<i64>,
    pub number: Option<i64>,
    pub body: String,
    pub created: String,
}

/// A paper's discussion, oldest first.
pub async fn comments(pool: &Pool, submission_id: i64) -> Result<Vec<Comment>, sqlx::Error> {
    sqlx::query_as(
        "SELECT c.id, c.reviewer_id,
                (SELECT MAX(a.number) FROM review_assignments a
                 WHERE a.submission_id = c.submission_id AND a.reviewer_id = c.reviewer_id) AS number,
                c.body, c.created
         FROM review_comments c WHERE c.submission_id = $1 ORDER BY c.id",
    )
    .bind(submission_id)
    .fetch_all(pool)
    .await
}

/// Adds a message to a paper's discussion: by reviewer `reviewer_id`, or by the organiser
/// `organiser` (an address); its id.
pub async fn add_comment(
    conn: &mut Connection,
    submission_id: i64,
    reviewer_id: Option<i64>,
    organiser: Option<&str>,
    body: &str,
    at: &str,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO review_comments (submission_id, reviewer_id, organiser, body, created)
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(submission_id)
    .bind(reviewer_id)
    .bind(organiser)
    .bind(body)
    .bind(at)
    .fetch_one(conn)
    .await
}

/// Records a conflict between a reviewer and a paper (`declared_by` `reviewer` or
/// `organiser`); one already recorded stays as it was.
pub async fn declare_conflict(
    conn: &mut Connection,
    reviewer_id: i64,
    submission_id: i64,
    declared_by: &str,
    at: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO review_conflicts (reviewer_id, submission_id, declared_by, created) VALUES ($1, $2, $3, $4)
         ON CONFLICT (reviewer_id, submission_id) DO NOTHING",
    )
    .bind(reviewer_id)
    .bind(submission_id)
    .bind(declared_by)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Takes an assignment back (`withdrawn`); its row and number stay.
pub async fn withdraw_assignment(conn: &mut Connection, assignment_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE review_assignments SET state = 'withdrawn' WHERE id = $1")
        .bind(assignment_id)
        .execute(conn)
        .await?;
    Ok(())
}
