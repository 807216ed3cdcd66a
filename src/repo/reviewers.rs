//! Reviewers and the review settings (migration 0019, DESIGN.md section 15).

use std::sync::Arc;

use sqlx::FromRow;

use super::dashboard::Counts;
use super::filter::Where;
use crate::db::{Connection, Pool};

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

/// The review settings, read when used so a re-applied seed counts at once. `review_deadline`
/// is the one in force: the organisers' value (`settings`, migration 0023) over the seed's
/// (`super::settings::effective_sql`, DESIGN.md section 20).
pub async fn settings(pool: &Pool) -> Result<ReviewSettings, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT review_mode, reviewers_per_paper, max_papers_per_reviewer, {} AS review_deadline, \
         reviewers_see_others FROM site WHERE id = 1",
        super::settings::effective_sql("review_deadline")
    )))
    .fetch_one(pool)
    .await
}

const COLUMNS: &str = "id, email, name, affiliation, topics, state, invited_at, answered_at, removed_at";

/// A reviewer as the organisers' list shows it: the row, the papers assigned and not
/// withdrawn (`live_papers`), and the assignments withdrawn with no submitted review
/// (`handed_back`: at a removal, a declared conflict or by organisers).
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Listed {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub affiliation: String,
    pub topics: String,
    pub state: String,
    pub invited_at: String,
    pub answered_at: Option<String>,
    pub removed_at: Option<String>,
    pub live_papers: i64,
    pub handed_back: i64,
}

/// The reviewers' list's order: those not removed first, by name (ties by id, so that every
/// reviewer is on exactly one page). Migration 0021's `reviewers_listed` is this order.
const LISTED_ORDER: &str = "CASE state WHEN 'removed' THEN 1 ELSE 0 END, lower(name), id";

/// One page (from 1, [`super::filter::PAGE_SIZE`] a page) of every reviewer, removed ones
/// last, by name, and how many there are: paged by the organisers' lists' rule
/// ([`Where::page`]), with the two counts read for the page's rows only.
pub async fn list(pool: &Pool, page: i64, counts: &Counts) -> Result<(i64, Vec<Listed>), sqlx::Error> {
    Where::new()
        .page(
            pool,
            "SELECT r.id, r.email, r.name, r.affiliation, r.topics, r.state, r.invited_at, r.answered_at, r.removed_at, \
               (SELECT COUNT(*) FROM review_assignments a WHERE a.reviewer_id = r.id AND a.state <> 'withdrawn') AS live_papers, \
               (SELECT COUNT(*) FROM review_assignments a WHERE a.reviewer_id = r.id AND a.state = 'withdrawn' \
                  AND NOT EXISTS (SELECT 1 FROM reviews v WHERE v.assignment_id = a.id AND v.state = 'submitted')) AS handed_back \
             FROM reviewers r",
            ("reviewers", "id"),
            LISTED_ORDER,
            page,
            counts.matches(None),
        )
        .await
}

/// How many reviewers are in each state (`invited`, `accepted`, ...), kept in `counts` until
/// `count_version` moves (every write of a reviewer does, migration 0021).
pub async fn states_counted(pool: &Pool, counts: &Counts) -> Result<Arc<Vec<(String, i64)>>, sqlx::Error> {
    counts
        .kept
        .made("reviewers by state", || async {
            sqlx::query_as("SELECT state, COUNT(*) FROM reviewers GROUP BY state").fetch_all(pool).await
        })
        .await
}

/// Reviewer `id`, read on `conn` (a transaction's view).
pub async fn by_id(conn: &mut Connection, id: i64) -> Result<Option<Reviewer>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM reviewers WHERE id = $1")))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The state of every stored address (normalised), for checking invitations against.
pub async fn states(conn: &mut Connection) -> Result<Vec<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT email, state FROM reviewers").fetch_all(conn).await
}

/// The reviewer whose open invitation's token hashes to `hash` (not answered, not removed).
pub async fn by_invitation(pool: &Pool, hash: &str) -> Result<Option<Reviewer>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM reviewers WHERE invitation_hash = $1 AND state = 'invited'"
    )))
    .bind(hash)
    .fetch_optional(pool)
    .await
}

/// What an invitation stores of a reviewer.
#[derive(Debug, Clone, Copy)]
pub struct Invitation<'a> {
    pub email: &'a str,
    pub name: &'a str,
    pub affiliation: &'a str,
    /// Newline-separated focus areas.
    pub topics: &'a str,
    /// SHA-256 of the invitation's token (`crate::base::secrets::Secret`).
    pub hash: &'a str,
    /// RFC 3339 UTC.
    pub at: &'a str,
}

/// Stores a new invited reviewer; its id.
pub async fn insert_invited(conn: &mut Connection, invitation: &Invitation<'_>) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO reviewers (email, name, affiliation, topics, state, invitation_hash, invited_at) \
         VALUES ($1, $2, $3, $4, 'invited', $5, $6) RETURNING id",
    )
    .bind(invitation.email)
    .bind(invitation.name)
    .bind(invitation.affiliation)
    .bind(invitation.topics)
    .bind(invitation.hash)
    .bind(invitation.at)
    .fetch_one(conn)
    .await
}

/// Invites a removed reviewer again (their row, so their history stays theirs): invited,
/// with the new name, affiliation, topics and token, and no answer or removal. Returns the
/// reviewer's id, `None` when the address is not a removed reviewer.
pub async fn reinvite(conn: &mut Connection, invitation: &Invitation<'_>) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE reviewers SET name = $2, affiliation = $3, topics = $4, state = 'invited', invitation_hash = $5, \
           invited_at = $6, answered_at = NULL, removed_at = NULL \
         WHERE email = $1 AND state = 'removed' RETURNING id",
    )
    .bind(invitation.email)
    .bind(invitation.name)
    .bind(invitation.affiliation)
    .bind(invitation.topics)
    .bind(invitation.hash)
    .bind(invitation.at)
    .fetch_optional(conn)
    .await
}

/// Gives invited reviewer `id` a new invitation token (the old link stops working) sent
/// `at`; `false` when the reviewer is not waiting on an invitation.
pub async fn renew_invitation(conn: &mut Connection, id: i64, hash: &str, at: &str) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query("UPDATE reviewers SET invitation_hash = $2, invited_at = $3 WHERE id = $1 AND state = 'invited'")
        .bind(id)
        .bind(hash)
        .bind(at)
        .execute(conn)
        .await?
        .rows_affected()
        == 1)
}

/// Answers the open invitation whose token hashes to `hash`: `state` is `accepted` or
/// `declined` (the table's CHECK refuses anything else), at `at`; the token is used up. One atomic `UPDATE`, so two answers racing count once.
/// Returns the reviewer as answered, `None` when no open invitation has that token.
pub async fn answer_invitation(
    conn: &mut Connection,
    hash: &str,
    state: &str,
    at: &str,
) -> Result<Option<Reviewer>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE reviewers SET state = $2, answered_at = $3, invitation_hash = NULL \
         WHERE invitation_hash = $1 AND state = 'invited' RETURNING {COLUMNS}"
    )))
    .bind(hash)
    .bind(state)
    .bind(at)
    .fetch_optional(conn)
    .await
}

/// Removes reviewer `id` at `at` (an open invitation stops working); `false` when it was
/// removed already or does not exist.
pub async fn remove(conn: &mut Connection, id: i64, at: &str) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE reviewers SET state = 'removed', removed_at = $2, invitation_hash = NULL \
         WHERE id = $1 AND state <> 'removed'",
    )
    .bind(id)
    .bind(at)
    .execute(conn)
    .await?
    .rows_affected()
        == 1)
}

/// Hands back reviewer `id`'s unfinished assignments (issue 32 item 1): staged or released
/// ones whose review is not submitted become `withdrawn` (a draft stays stored, unreachable);
/// those with a submitted review stay. Returns how many were handed back.
pub async fn hand_back_assignments(conn: &mut Connection, id: i64) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE review_assignments SET state = 'withdrawn' \
         WHERE reviewer_id = $1 AND state IN ('staged', 'released') \
           AND NOT EXISTS (SELECT 1 FROM reviews v WHERE v.assignment_id = review_assignments.id AND v.state = 'submitted')",
    )
    .bind(id)
    .execute(conn)
    .await?
    .rows_affected())
}
