//! Reviewers and the review settings (migration 0019, DESIGN.md section 15).

use sqlx::FromRow;

use crate::db::Pool;

/// One invited reviewer. `email` is trimmed and lower-cased; `topics` holds focus areas,
/// newline-separated; `state` is `invited`, `accepted`, `declined` or `removed`.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Reviewer {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub affiliation: String,
    pub topics: String,
    pub state: String,
    pub invited_at: String,
    pub answered_at: Option<String>,
    pub removed_at: Option<String>,
}

/// The reviewer who may sign in with `email` (normalised): one who accepted the invitation
/// and was not removed.
pub async fn accepted(pool: &Pool, email: &str) -> Result<Option<Reviewer>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, email, name, affiliation, topics, state, invited_at, answered_at, removed_at \
         FROM reviewers WHERE email = $1 AND state = 'accepted'",
    )
    .bind(email)
    .fetch_optional(pool)
    .await
}

/// The review settings of the seed's `site` row (DESIGN.md section 15).
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct ReviewSettings {
    /// `double_anonymous` (the default), `single_anonymous` or `open`.
    pub review_mode: String,
    /// Submitted reviews a paper needs before deciding; what automatic assignment aims for.
    pub reviewers_per_paper: i64,
    /// Papers one reviewer is given at most by automatic assignment.
    pub max_papers_per_reviewer: i64,
    /// `YYYY-MM-DD HH:MM` in `site.time_zone`; `None` while no deadline is set.
    pub review_deadline: Option<String>,
    /// Whether a reviewer who submitted sees the paper's other reviews (1) or not (0).
    pub reviewers_see_others: i64,
}

impl ReviewSettings {
    /// Whether reviewers may not learn who wrote a paper (`double_anonymous`). Whatever the
    /// mode, authors and other reviewers never learn a reviewer's name (DESIGN.md section 15:
    /// "reviewers numbered, never named").
    pub fn hides_authors(&self) -> bool {
        self.review_mode == "double_anonymous"
    }
}

/// The review settings, read when used so a re-applied seed counts at once.
pub async fn settings(pool: &Pool) -> Result<ReviewSettings, sqlx::Error> {
    sqlx::query_as(
        "SELECT review_mode, reviewers_per_paper, max_papers_per_reviewer, review_deadline, reviewers_see_others \
         FROM site WHERE id = 1",
    )
    .fetch_one(pool)
    .await
}
