//! Paper submissions (`submissions`, migrations/0004_submissions.sql): written by POST
//! `/api/paper-submission`, read by `conference export submissions`.

use futures_util::stream::BoxStream;
use serde::Serialize;
use sqlx::FromRow;
use time::OffsetDateTime;
use time::macros::format_description;

use super::dashboard::Counts;
use super::filter::Where;
use crate::db::{self, Connection, Pool};

/// The states of a submission, in the order lists offer them.
pub const STATES: [(&str, &str); 4] =
    [("submitted", "Submitted"), ("accepted", "Accepted"), ("rejected", "Rejected"), ("withdrawn", "Withdrawn")];

/// A state for people (`Submitted`, ...); an unknown value as it is.
pub fn state_label(state: &str) -> &str {
    STATES.iter().find(|(value, _)| *value == state).map_or(state, |(_, label)| label)
}

/// spec section 3, Paper submission: the validated fields plus the stored file.
#[derive(Debug, Clone, Default, PartialEq, Eq, FromRow, Serialize)]
pub struct NewSubmission {
    pub reference: String,
    pub name: String,
    pub number: String,
    pub email: String,
    pub country: String,
    pub author_name: String,
    pub co_author_name: String,
    pub paper_title: String,
    pub department: String,
    pub university_organization: String,
    pub paper_type: String,
    pub presentation_type: String,
    pub message: String,
    pub conference_source: String,
    /// The stored paper, relative to `DATA_DIR` (the spec's `pdfUrl`).
    pub file_path: String,
    /// The name the file was uploaded under.
    pub file_name: String,
    /// MIME type found from the content.
    pub file_type: String,
    /// Size in bytes.
    pub file_size: i64,
}

/// A stored submission: what was submitted, with its row id and creation time.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Submission {
    pub id: i64,
    #[sqlx(flatten)]
    #[serde(flatten)]
    pub submitted: NewSubmission,
    pub created: String,
    /// `submitted`, `accepted`, `rejected` or `withdrawn` (migrations 0012).
    pub state: String,
    /// The organisers' decision not applied yet: `accepted` or `rejected`.
    pub pending_decision: Option<String>,
    /// The note of the decision's mail: the pending one, or the last applied.
    pub decision_note: String,
    /// Raised by every change; a form from an older version is refused (409).
    pub version: i64,
    /// RFC 3339 UTC of the latest applied decision.
    pub decided_at: Option<String>,
    /// Decisions applied so far (the decision mail's outbox key).
    pub decisions: i64,
    /// The submitted reviews' figures (issue 32, migration 0019).
    #[sqlx(flatten)]
    #[serde(skip)]
    pub review: ReviewFigures,
}

/// The figures of a submission's submitted reviews, which the reviewers' submits keep up to
/// date (migration 0019): how many, the mean of their weighted scores and the spread between
/// the highest and the lowest (thousandths of a point, `None` without a review), and the
/// recommendations counted (JSON object, `{"accept":2}`).
#[derive(Debug, Clone, Default, FromRow, PartialEq, Eq)]
pub struct ReviewFigures {
    pub reviews_submitted: i64,
    pub review_score: Option<i64>,
    pub review_spread: Option<i64>,
    pub recommendations: String,
}

/// Now as stored in `created`: RFC 3339 UTC to the second, e.g. `2025-03-01T09:30:00Z`.
fn created_now() -> String {
    OffsetDateTime::now_utc()
        .format(format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z"))
        .expect("a UTC date-time formats")
}

/// Stores a submission on `conn` (the caller's transaction, which also queues its mails) and
/// returns its id.
pub async fn insert(conn: &mut Connection, new: &NewSubmission) -> Result<i64, sqlx::Error> {
    let (id,): (i64,) = sqlx::query_as(
        "INSERT INTO submissions (reference, name, number, email, country, author_name, co_author_name,
                                  paper_title, department, university_organization, paper_type,
                                  presentation_type, message, conference_source, file_path, file_name,
                                  file_type, file_size, created)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
         RETURNING id",
    )
    .bind(&new.reference)
    .bind(&new.name)
    .bind(&new.number)
    .bind(&new.email)
    .bind(&new.country)
    .bind(&new.author_name)
    .bind(&new.co_author_name)
    .bind(&new.paper_title)
    .bind(&new.department)
    .bind(&new.university_organization)
    .bind(&new.paper_type)
    .bind(&new.presentation_type)
    .bind(&new.message)
    .bind(&new.conference_source)
    .bind(&new.file_path)
    .bind(&new.file_name)
    .bind(&new.file_type)
    .bind(new.file_size)
    .bind(created_now())
    .fetch_one(conn)
    .await?;
    Ok(id)
}

/// Whether `err` from [`insert`] means the reference is taken (the table's only UNIQUE column
/// besides the id, migrations `0004_submissions.sql`): SQLite's and PostgreSQL's unique
/// violation alike, so the caller can draw another reference.
pub fn is_reference_taken(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.is_unique_violation())
}

/// Every column of a submission, in the order of [`Submission`].
pub const COLUMNS: &str = "id, reference, name, number, email, country, author_name, co_author_name, paper_title, \
                       department, university_organization, paper_type, presentation_type, message, \
                       conference_source, file_path, file_name, file_type, file_size, created, state, \
                       pending_decision, decision_note, version, decided_at, decisions, \
                       reviews_submitted, review_score, review_spread, recommendations";

/// Every submission, oldest first (for the organisers' export).
pub async fn all(pool: &Pool) -> Result<Vec<Submission>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM submissions ORDER BY created, id")))
        .fetch_all(pool)
        .await
}

/// One submission by its reference.
pub async fn by_reference(pool: &Pool, reference: &str) -> Result<Option<Submission>, sqlx::Error> {
    if !db::storable(reference) {
        return Ok(None);
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM submissions WHERE reference = $1")))
        .bind(reference)
        .fetch_optional(pool)
        .await
}

/// Every stored paper's path relative to `DATA_DIR` (`papers/<reference>.<ext>`), for the
/// sweep of files without a row.
pub async fn file_paths(pool: &Pool) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT file_path FROM submissions").fetch_all(pool).await
}

/// How the organisers' list of submissions is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// By `created`, when it came in.
    #[default]
    Received,
    Reference,
    /// By `paper_title`, ignoring letter case.
    Title,
    /// By the reviews' weighted mean score; papers without one last either way.
    Score,
    /// By how many reviews were submitted.
    Reviews,
}

/// The organisers' view of submissions: every field is optional, `None` matches all.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// `Abstract` or `Full Paper`.
    pub paper_type: Option<String>,
    /// Received at or after this RFC 3339 time.
    pub from: Option<String>,
    /// Received before this RFC 3339 time.
    pub before: Option<String>,
    /// Text in the title, an author's name, the e-mail or the reference.
    pub search: Option<String>,
    /// `submitted`, `accepted`, `rejected` or `withdrawn`.
    pub state: Option<String>,
    /// `Some(None)`: any pending decision; `Some(Some(d))`: pending decision `d`.
    pub pending: Option<Option<String>>,
    /// Fewer than this many submitted reviews.
    pub reviews_below: Option<i64>,
    /// Only papers whose reviews' scores spread over at least this many thousandths of a
    /// point (disagreement: `crate::review::figures::DISAGREEMENT`).
    pub spread_at_least: Option<i64>,
    pub sort: Sort,
    pub descending: bool,
}

impl Filter {
    /// How many submissions match, from `counts` (by paper type, by state): `None` for a
    /// filter they do not count.
    fn counted(&self, counts: &Counts) -> Option<i64> {
        if self.search.is_some()
            || self.from.is_some()
            || self.before.is_some()
            || self.pending.is_some()
            || self.reviews_below.is_some()
            || self.spread_at_least.is_some()
        {
            return None;
        }
        match (&self.paper_type, &self.state) {
            (None, None) => Some(counts.submissions()),
            (Some(paper_type), None) => {
                Some(counts.papers.iter().filter(|p| &p.paper_type == paper_type).map(|p| p.total).sum())
            }
            (None, Some(state)) => Some(counts.states.iter().filter(|s| &s.status == state).map(|s| s.count).sum()),
            (Some(_), Some(_)) => None,
        }
    }

    fn sql(&self) -> (Where, &'static str) {
        let mut filter = Where::new();
        if let Some(paper_type) = &self.paper_type {
            filter.equals("paper_type", paper_type);
        }
        if let Some(from) = &self.from {
            filter.at_least("created", from);
        }
        if let Some(before) = &self.before {
            filter.below("created", before);
        }
        if let Some(state) = &self.state {
            filter.equals("state", state);
        }
        match &self.pending {
            Some(Some(decision)) => filter.equals("pending_decision", decision),
            Some(None) => filter.is_null("pending_decision", false),
            None => {}
        }
        if let Some(below) = self.reviews_below {
            filter.number_below("reviews_submitted", below);
        }
        if let Some(spread) = self.spread_at_least {
            filter.number_at_least("review_spread", spread);
        }
        if let Some(text) = &self.search {
            filter.contains(
                "submissions_search",
                &["paper_title", "author_name", "co_author_name", "email", "reference"],
                text,
            );
        }
        // Fixed texts only: the sort is chosen from this list, never spelled by the request.
        let order = match (self.sort, self.descending) {
            (Sort::Received, false) => "created, id",
            (Sort::Received, true) => "created DESC, id DESC",
            (Sort::Reference, false) => "reference",
            (Sort::Reference, true) => "reference DESC",
            (Sort::Title, false) => "lower(paper_title), id",
            (Sort::Title, true) => "lower(paper_title) DESC, id DESC",
            // Both engines read `NULLS LAST` (SQLite 3.30 on), and SQLite serves either
            // direction from the index on (review_score, id): a paper without reviews is
            // never taken for the best or the worst.
            (Sort::Score, false) => "review_score NULLS LAST, id",
            (Sort::Score, true) => "review_score DESC NULLS LAST, id DESC",
            (Sort::Reviews, false) => "reviews_submitted, id",
            (Sort::Reviews, true) => "reviews_submitted DESC, id DESC",
        };
        (filter, order)
    }
}

/// How many submissions `filter` selects, and one page (1-based) of them.
pub async fn list(
    pool: &Pool,
    filter: &Filter,
    page: i64,
    counts: &Counts,
) -> Result<(i64, Vec<Submission>), sqlx::Error> {
    let counted = filter.counted(counts);
    let (filter, order) = filter.sql();
    filter
        .page(
            pool,
            &format!("SELECT {COLUMNS} FROM submissions"),
            ("submissions", "id"),
            order,
            page,
            counts.matches(counted),
        )
        .await
}

/// Every submission `filter` selects, in its order, one row at a time.
pub fn stream<'a>(pool: &'a Pool, filter: &Filter) -> BoxStream<'a, Result<Submission, sqlx::Error>> {
    let (filter, order) = filter.sql();
    filter.stream(pool, &format!("SELECT {COLUMNS} FROM submissions"), order)
}
