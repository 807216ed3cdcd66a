//! Who reviews which paper (`review_assignments`, migration 0019; issue 32 item 4): what
//! assigning reads, the staged rows it writes, releasing and withdrawing them, review codes,
//! and the conflicts organisers declare.
//!
//! Reads are whole-table queries or one page at a time, never one query per paper: at 20,000
//! submissions "Stage automatic assignment" reads papers, reviewers, live assignments,
//! declared conflicts and the webmail list in five queries. Every write takes the caller's
//! transaction, so it commits with its audit entry and mails.

use std::collections::{HashMap, HashSet};

use sqlx::FromRow;

use super::dashboard::Counts;
use super::filter::Where;
use super::reviewers::Reviewer;
use crate::db::{Connection, Pool};

/// A paper as assignment reads it (columns of `submissions`).
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Paper {
    pub id: i64,
    pub reference: String,
    pub paper_title: String,
    /// What the programme shows, often empty before acceptance; read for the paper's topics.
    pub public_abstract: String,
    /// The submitting address (the conflict rules' "own paper" and mail domain).
    pub email: String,
    /// The authors' institution (the conflict rules' affiliation).
    pub university_organization: String,
    /// `R-XXXXXX` once the paper was first assigned.
    pub review_code: Option<String>,
    /// `submitted` (the only state that gets reviewers), `accepted`, `rejected`, `withdrawn`.
    pub state: String,
}

const PAPER: &str = "SELECT id, reference, paper_title, public_abstract, email, university_organization, review_code, \
                     state FROM submissions";

/// Every paper waiting for a decision (`state = 'submitted'`: not withdrawn, not decided),
/// oldest first.
pub async fn submitted_papers(pool: &Pool) -> Result<Vec<Paper>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("{PAPER} WHERE state = 'submitted' ORDER BY id"))).fetch_all(pool).await
}

/// One page of [`submitted_papers`] (`page` from 1, [`super::filter::PAGE_SIZE`] a page) and
/// how many there are, oldest first as the overview lists them: paged by the organisers'
/// lists' rule ([`Where::page`]), so the number comes from the dashboard's kept counts and a
/// deep page starts at a kept anchor with a seek on the primary key instead of skipping
/// every paper before it (`bench/organiser.sh` run 7: 150-200 ms p99 by offset).
pub async fn submitted_page(pool: &Pool, page: i64, counts: &Counts) -> Result<(i64, Vec<Paper>), sqlx::Error> {
    let mut filter = Where::new();
    filter.equals("state", "submitted");
    let known = counts.states.iter().find(|s| s.status == "submitted").map_or(0, |s| s.count);
    filter.page(pool, PAPER, ("submissions", "id"), "id", page, counts.matches(Some(known))).await
}

/// The paper `reference`, whatever its state.
pub async fn paper(pool: &Pool, reference: &str) -> Result<Option<Paper>, sqlx::Error> {
    if !crate::db::storable(reference) {
        return Ok(None);
    }
    sqlx::query_as(sqlx::AssertSqlSafe(format!("{PAPER} WHERE reference = $1")))
        .bind(reference)
        .fetch_optional(pool)
        .await
}

/// The state of paper `id`, read on the caller's transaction.
pub async fn paper_state(conn: &mut Connection, id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT state FROM submissions WHERE id = $1").bind(id).fetch_optional(conn).await
}

/// The reviewers assignment may use: those who accepted and were not removed, by name.
pub async fn accepted_reviewers(pool: &Pool) -> Result<Vec<Reviewer>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, email, name, affiliation, topics, state, invited_at, answered_at, removed_at \
         FROM reviewers WHERE state = 'accepted' ORDER BY lower(name), id",
    )
    .fetch_all(pool)
    .await
}

/// The names of the accepted reviewers among `ids` (those on one page of the overview), by id.
pub async fn reviewer_names(pool: &Pool, ids: &[i64]) -> Result<HashMap<i64, String>, sqlx::Error> {
    let ids: Vec<i64> = ids.iter().copied().collect::<HashSet<i64>>().into_iter().collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let placeholders: Vec<String> = (1..=ids.len()).map(|n| format!("${n}")).collect();
    let sql =
        format!("SELECT id, name FROM reviewers WHERE state = 'accepted' AND id IN ({})", placeholders.join(", "));
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
    for id in &ids {
        query = query.bind(*id);
    }
    let rows: Vec<(i64, String)> = query.fetch_all(pool).await?;
    Ok(rows.into_iter().collect())
}

/// Reviewer `id` as stored now (any state), read on the caller's transaction.
pub async fn reviewer(conn: &mut Connection, id: i64) -> Result<Option<Reviewer>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, email, name, affiliation, topics, state, invited_at, answered_at, removed_at \
         FROM reviewers WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// A live (staged or released) assignment.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Assignment {
    pub id: i64,
    pub submission_id: i64,
    pub reviewer_id: i64,
    /// "Reviewer 2" on this paper; never reused.
    pub number: i64,
    /// `staged` or `released`.
    pub state: String,
    pub created: String,
    pub released_at: Option<String>,
    /// 1 when its review was submitted (the assignment then stays), else 0.
    pub reviewed: i64,
}

const ASSIGNMENT: &str = "SELECT a.id, a.submission_id, a.reviewer_id, a.number, a.state, a.created, a.released_at, \
     CAST(CASE WHEN EXISTS (SELECT 1 FROM reviews v WHERE v.assignment_id = a.id AND v.state = 'submitted') \
     THEN 1 ELSE 0 END AS BIGINT) AS reviewed FROM review_assignments a";

/// Every live assignment of a submitted paper.
pub async fn live_of_submitted(pool: &Pool) -> Result<Vec<Assignment>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{ASSIGNMENT} JOIN submissions s ON s.id = a.submission_id \
         WHERE a.state <> 'withdrawn' AND s.state = 'submitted' ORDER BY a.submission_id, a.number"
    )))
    .fetch_all(pool)
    .await
}

/// The live assignments of papers `ids` (one page of the overview: at most a few dozen).
pub async fn live_of_papers(pool: &Pool, ids: &[i64]) -> Result<Vec<Assignment>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=ids.len()).map(|n| format!("${n}")).collect();
    let sql = format!(
        "{ASSIGNMENT} WHERE a.state <> 'withdrawn' AND a.submission_id IN ({}) ORDER BY a.submission_id, a.number",
        placeholders.join(", ")
    );
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
    for id in ids {
        query = query.bind(*id);
    }
    query.fetch_all(pool).await
}

/// The live assignments of paper `id`, by number, read on the caller's transaction.
pub async fn live_of(conn: &mut Connection, id: i64) -> Result<Vec<Assignment>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{ASSIGNMENT} WHERE a.state <> 'withdrawn' AND a.submission_id = $1 ORDER BY a.number"
    )))
    .bind(id)
    .fetch_all(conn)
    .await
}

/// Each reviewer's live papers, any paper: (staged, released) by reviewer id.
pub async fn loads(pool: &Pool) -> Result<HashMap<i64, (i64, i64)>, sqlx::Error> {
    let rows: Vec<(i64, String, i64)> = sqlx::query_as(
        "SELECT reviewer_id, state, COUNT(*) FROM review_assignments WHERE state <> 'withdrawn' \
         GROUP BY reviewer_id, state",
    )
    .fetch_all(pool)
    .await?;
    let mut loads: HashMap<i64, (i64, i64)> = HashMap::new();
    for (reviewer, state, count) in rows {
        let entry = loads.entry(reviewer).or_default();
        if state == "staged" {
            entry.0 += count;
        } else {
            entry.1 += count;
        }
    }
    Ok(loads)
}

/// [`loads`], made once per `count_version` (every write of an assignment moves it, migration
/// 0021) and kept in `counts`: what a paper's page shows beside each reviewer.
pub async fn loads_kept(pool: &Pool, counts: &Counts) -> Result<std::sync::Arc<HashMap<i64, (i64, i64)>>, sqlx::Error> {
    counts.kept.made("reviewers' loads", || loads(pool)).await
}

/// The conflicts declared by reviewers or organisers: `(paper id, reviewer id)`.
pub async fn declared_conflicts(pool: &Pool) -> Result<HashSet<(i64, i64)>, sqlx::Error> {
    let rows: Vec<(i64, i64)> =
        sqlx::query_as("SELECT submission_id, reviewer_id FROM review_conflicts").fetch_all(pool).await?;
    Ok(rows.into_iter().collect())
}

/// The reviewers with a declared conflict on paper `id`, read on the caller's transaction.
pub async fn declared_on(conn: &mut Connection, id: i64) -> Result<HashSet<i64>, sqlx::Error> {
    let rows: Vec<i64> = sqlx::query_scalar("SELECT reviewer_id FROM review_conflicts WHERE submission_id = $1")
        .bind(id)
        .fetch_all(conn)
        .await?;
    Ok(rows.into_iter().collect())
}

/// The seed's webmail domains (a shared one makes no conflict), lower-case.
pub async fn webmail_domains(pool: &Pool) -> Result<HashSet<String>, sqlx::Error> {
    let rows: Vec<String> = sqlx::query_scalar("SELECT domain FROM webmail_domains").fetch_all(pool).await?;
    Ok(rows.into_iter().map(|d| d.trim().to_lowercase()).collect())
}

/// What the overview counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Overview {
    /// Papers waiting for a decision.
    pub papers: i64,
    /// Of them, those with fewer live assignments than `reviewers_per_paper`.
    pub short: i64,
    /// Live assignments of any paper, by state.
    pub staged: i64,
    pub released: i64,
    /// Accepted reviewers.
    pub reviewers: i64,
}

/// The overview's counts, with `per_paper` reviewers wanted for each paper: made once per
/// `count_version` (which every write of an assignment moves, migration 0021) and kept in
/// `counts`. Each is a range of an index: papers short of reviewers from the papers' kept
/// `live_assignments`, the assignments from the index on their state.
pub async fn counts(pool: &Pool, per_paper: i64, counts: &Counts) -> Result<Overview, sqlx::Error> {
    let made = counts
        .kept
        .made(&format!("review assignments overview, {per_paper} a paper"), || async {
            let (papers, short): (i64, i64) = sqlx::query_as(
                "SELECT (SELECT COUNT(*) FROM submissions WHERE state = 'submitted'),                  (SELECT COUNT(*) FROM submissions WHERE state = 'submitted' AND live_assignments < $1)",
            )
            .bind(per_paper)
            .fetch_one(pool)
            .await?;
            let (staged, released): (i64, i64) = sqlx::query_as(
                "SELECT (SELECT COUNT(*) FROM review_assignments WHERE state = 'staged'),                  (SELECT COUNT(*) FROM review_assignments WHERE state = 'released')",
            )
            .fetch_one(pool)
            .await?;
            let reviewers: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reviewers WHERE state = 'accepted'")
                .fetch_one(pool)
                .await?;
            Ok(Overview { papers, short, staged, released, reviewers })
        })
        .await?;
    Ok(*made)
}

/// Characters of review codes: no 0/O or 1/I, as paper references.
const CODE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// A fresh review code, `R-` and 6 characters (32^6, about 10^9 codes).
pub fn new_review_code() -> String {
    let code: String = (0..6).map(|_| char::from(CODE_ALPHABET[rand::random_range(0..CODE_ALPHABET.len())])).collect();
    format!("R-{code}")
}

/// Gives each of papers `ids` that has none its review code, drawing again whenever a code
/// is taken. Codes in use are read on the caller's transaction first (one query), so a draw
/// that collides is redrawn, not refused; on PostgreSQL two instances drawing the same code
/// at the same instant leave it to the unique index, and the caller's transaction fails.
pub async fn give_review_codes(conn: &mut Connection, ids: &[i64]) -> Result<(), sqlx::Error> {
    if ids.is_empty() {
        return Ok(());
    }
    let taken: Vec<String> = sqlx::query_scalar("SELECT review_code FROM submissions WHERE review_code IS NOT NULL")
        .fetch_all(&mut *conn)
        .await?;
    let mut taken: HashSet<String> = taken.into_iter().collect();
    for id in ids {
        let code = loop {
            let code = new_review_code();
            if taken.insert(code.clone()) {
                break code;
            }
        };
        sqlx::query("UPDATE submissions SET review_code = $1 WHERE id = $2 AND review_code IS NULL")
            .bind(&code)
            .bind(id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Stores `pairs` (`(paper id, reviewer id)`) as staged assignments made `at`, each with its
/// paper's next number (one more than any row of that paper ever had, withdrawn ones
/// included, so a number is never given twice); returns their ids in the order of `pairs`.
pub async fn stage(conn: &mut Connection, pairs: &[(i64, i64)], at: &str) -> Result<Vec<i64>, sqlx::Error> {
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    let highest: Vec<(i64, i64)> = if pairs.iter().all(|(paper, _)| *paper == pairs[0].0) {
        sqlx::query_as(
            "SELECT submission_id, MAX(number) FROM review_assignments WHERE submission_id = $1 GROUP BY submission_id",
        )
        .bind(pairs[0].0)
        .fetch_all(&mut *conn)
        .await?
    } else {
        sqlx::query_as("SELECT submission_id, MAX(number) FROM review_assignments GROUP BY submission_id")
            .fetch_all(&mut *conn)
            .await?
    };
    let mut next: HashMap<i64, i64> = highest.into_iter().collect();
    let mut ids = Vec::with_capacity(pairs.len());
    for (paper, reviewer) in pairs {
        let number = next.entry(*paper).or_default();
        *number += 1;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO review_assignments (submission_id, reviewer_id, number, state, created) \
             VALUES ($1, $2, $3, 'staged', $4) RETURNING id",
        )
        .bind(paper)
        .bind(reviewer)
        .bind(*number)
        .bind(at)
        .fetch_one(&mut *conn)
        .await?;
        ids.push(id);
    }
    Ok(ids)
}

/// What the live assignments and declared conflicts are: (live rows, highest live id,
/// declared conflicts). Read before an automatic run and again in its transaction, which
/// stores nothing when they moved in between.
pub async fn live_mark(conn: &mut Connection) -> Result<(i64, Option<i64>, i64), sqlx::Error> {
    let (count, highest): (i64, Option<i64>) =
        sqlx::query_as("SELECT COUNT(*), MAX(id) FROM review_assignments WHERE state <> 'withdrawn'")
            .fetch_one(&mut *conn)
            .await?;
    let conflicts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM review_conflicts").fetch_one(&mut *conn).await?;
    Ok((count, highest, conflicts))
}

/// What the staged rows are now: how many, and the highest id (`None` without any). A
/// preview's forms carry it, so that what another organiser staged or discarded since is
/// never released or discarded unseen: new rows raise the highest id, withdrawn ones lower
/// the count.
pub async fn staged_mark(conn: &mut Connection) -> Result<(i64, Option<i64>), sqlx::Error> {
    sqlx::query_as("SELECT COUNT(*), MAX(id) FROM review_assignments WHERE state = 'staged'").fetch_one(conn).await
}

/// A staged or released assignment with what the preview and the release mail show.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct Listed {
    pub id: i64,
    pub submission_id: i64,
    pub number: i64,
    pub reviewer_id: i64,
    pub reviewer_name: String,
    pub reviewer_email: String,
    pub reference: String,
    pub paper_title: String,
    pub review_code: Option<String>,
}

const LISTED: &str = "SELECT a.id, a.submission_id, a.number, a.reviewer_id, r.name AS reviewer_name, r.email AS reviewer_email, \
     s.reference, s.paper_title, s.review_code FROM review_assignments a \
     JOIN reviewers r ON r.id = a.reviewer_id JOIN submissions s ON s.id = a.submission_id";

/// Every staged assignment, by reviewer name and paper title.
pub async fn staged(conn: &mut Connection) -> Result<Vec<Listed>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{LISTED} WHERE a.state = 'staged' ORDER BY lower(r.name), r.id, lower(s.paper_title), a.id"
    )))
    .fetch_all(conn)
    .await
}

/// The assignments released at `at` (by [`release`] in this transaction), by reviewer and
/// paper title.
pub async fn released_at(conn: &mut Connection, at: &str) -> Result<Vec<Listed>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{LISTED} WHERE a.state = 'released' AND a.released_at = $1 ORDER BY r.id, lower(s.paper_title), a.id"
    )))
    .bind(at)
    .fetch_all(conn)
    .await
}

/// Withdraws the staged assignments that can no longer be released: their paper left review
/// (withdrawn, decided) or their reviewer is no longer an accepted one. Returns how many.
pub async fn withdraw_unreleasable(conn: &mut Connection) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE review_assignments SET state = 'withdrawn' WHERE state = 'staged' AND (\
         NOT EXISTS (SELECT 1 FROM submissions s WHERE s.id = review_assignments.submission_id AND s.state = 'submitted') \
         OR NOT EXISTS (SELECT 1 FROM reviewers r WHERE r.id = review_assignments.reviewer_id AND r.state = 'accepted'))",
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Releases every staged assignment, stamped `at`; the ids released by this call (a
/// concurrent release by another organiser or instance takes the rest: on PostgreSQL the
/// second `UPDATE` waits for the first and then finds nothing staged).
pub async fn release(conn: &mut Connection, at: &str) -> Result<HashSet<i64>, sqlx::Error> {
    let ids: Vec<i64> = sqlx::query_scalar(
        "UPDATE review_assignments SET state = 'released', released_at = $1 WHERE state = 'staged' RETURNING id",
    )
    .bind(at)
    .fetch_all(conn)
    .await?;
    Ok(ids.into_iter().collect())
}

/// Withdraws every staged assignment; returns how many.
pub async fn discard(conn: &mut Connection) -> Result<u64, sqlx::Error> {
    let done =
        sqlx::query("UPDATE review_assignments SET state = 'withdrawn' WHERE state = 'staged'").execute(conn).await?;
    Ok(done.rows_affected())
}

/// Withdraws live assignment `id`; false when it was not live (any more).
pub async fn withdraw(conn: &mut Connection, id: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE review_assignments SET state = 'withdrawn' WHERE id = $1 AND state <> 'withdrawn'")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Records a conflict declared by an organiser between reviewer `reviewer` and paper
/// `paper`, `at`; false when one was declared already (by anyone).
pub async fn declare_conflict(conn: &mut Connection, reviewer: i64, paper: i64, at: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO review_conflicts (reviewer_id, submission_id, declared_by, created) \
         VALUES ($1, $2, 'organiser', $3) ON CONFLICT DO NOTHING",
    )
    .bind(reviewer)
    .bind(paper)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn review_codes_read_clearly() {
        for _ in 0..200 {
            let code = new_review_code();
            assert_eq!(code.len(), 8);
            assert!(code.starts_with("R-"));
            assert!(code[2..].chars().all(|c| c.is_ascii_digit() || c.is_ascii_uppercase()), "{code}");
            assert!(!code[2..].contains(['0', 'O', '1', 'I']), "{code}");
        }
    }
}
