//! What organisers do with the assignments of reviewers to papers (issue 32 items 3 and 4,
//! DESIGN.md section 15), one function per action. Each opens its own write transaction,
//! re-checks what its form was drawn from, writes its audit entry there and answers what it
//! did or why it did nothing ([`Refused`]). The pages are
//! `crate::handlers::organiser::assignments`; the SQL is `crate::repo::assignments`.

use std::collections::{HashMap, HashSet};

use serde_json::json;
use time::OffsetDateTime;

use super::assign::{self, Problem, paper_topics, topic_key};
use super::conflicts;
use crate::db::Pool;
use crate::error::{AppError, Outcome, Refused};
use crate::mail::outbox::timestamp;
use crate::repo::assignments as store;
use crate::repo::audit::{self, Actor};
use crate::repo::reviewers;

/// What [`stage_automatic`] staged: `count` new (paper, reviewer) pairs, 0 when every
/// submitted paper has its reviewers or no reviewer free of conflicts has room for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Staged {
    pub count: usize,
}

/// 409 once `review_deadline` has passed (issue 42 item 3, DESIGN.md section 20): reviewers
/// could not write the reviews, so nothing is staged or released. The message names the
/// settings page where the deadline moves.
pub async fn before_the_deadline(pool: &Pool, now: OffsetDateTime) -> Outcome<()> {
    match crate::calendar::gates::assignments_closed(pool, now).await? {
        Some(message) => Err(Refused::NotAllowed(message)),
        None => Ok(()),
    }
}

/// Stages an automatic assignment of every submitted paper short of reviewers: the
/// settings' `reviewers_per_paper` and `max_papers_per_reviewer` over the accepted
/// reviewers, balanced by [`assign::assign`] with the conference's `focus_areas` (one per
/// line) as topics, away from every conflict. Papers that get their first reviewer get
/// their review code. Audited as `review.assignments_staged` with the pairs and the spread.
///
/// Refused after the review deadline, and as stale when assignments or conflicts changed
/// while the solver ran (the live rows' mark moved).
pub async fn stage_automatic(pool: &Pool, now: OffsetDateTime, actor: &Actor, focus_areas: &str) -> Outcome<Staged> {
    before_the_deadline(pool, now).await?;
    let mark = {
        let mut conn = pool.acquire().await?;
        store::live_mark(&mut conn).await?
    };
    let settings = reviewers::settings(pool).await?;
    let papers = store::submitted_papers(pool).await?;
    let people = store::accepted_reviewers(pool).await?;
    let live = store::live_of_submitted(pool).await?;
    let loads = store::loads(pool).await?;
    let declared = store::declared_conflicts(pool).await?;
    let webmail = store::webmail_domains(pool).await?;
    let areas: Vec<&str> = focus_areas.lines().map(str::trim).filter(|a| !a.is_empty()).collect();

    let rule_papers: Vec<(i64, conflicts::Paper<'_>)> = papers
        .iter()
        .map(|p| (p.id, conflicts::Paper { email: &p.email, affiliation: &p.university_organization }))
        .collect();
    let rule_reviewers: Vec<(i64, conflicts::Reviewer<'_>)> =
        people.iter().map(|r| (r.id, conflicts::Reviewer { email: &r.email, affiliation: &r.affiliation })).collect();
    let conflicted = assign::conflicted_pairs(&rule_papers, &rule_reviewers, &webmail, &declared);
    let problem_papers: Vec<assign::Paper> = papers
        .iter()
        .map(|p| assign::Paper {
            id: p.id,
            topics: paper_topics(&format!("{}\n{}", p.paper_title, p.public_abstract), &areas),
        })
        .collect();
    let max = usize::try_from(settings.max_papers_per_reviewer).unwrap_or(0);
    let problem_reviewers: Vec<assign::Reviewer> = people
        .iter()
        .map(|r| {
            let (staged, released) = loads.get(&r.id).copied().unwrap_or((0, 0));
            let load = usize::try_from(staged + released).unwrap_or(0);
            assign::Reviewer {
                id: r.id,
                topics: r.topics.lines().map(topic_key).filter(|t| !t.is_empty()).collect(),
                load,
                capacity: max.saturating_sub(load),
            }
        })
        .collect();
    let live_pairs: HashSet<(i64, i64)> = live.iter().map(|a| (a.submission_id, a.reviewer_id)).collect();
    let per_paper = usize::try_from(settings.reviewers_per_paper).unwrap_or(0);
    // The solver is CPU work: off the request threads.
    let (pairs, problem_reviewers) = tokio::task::spawn_blocking(move || {
        let problem = Problem {
            papers: &problem_papers,
            reviewers: &problem_reviewers,
            live: &live_pairs,
            conflicts: &conflicted,
            reviewers_per_paper: per_paper,
        };
        (assign::assign(&problem), problem_reviewers)
    })
    .await
    .map_err(|e| AppError::internal("automatic assignment", e.to_string()))?;

    if pairs.is_empty() {
        // Nothing to store, nothing to record.
        return Ok(Staged { count: 0 });
    }
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    if store::live_mark(&mut tx).await? != mark {
        return Err(Refused::Stale(
            "Assignments or conflicts changed while the assignment was worked out (another organiser, or a reviewer \
             declaring a conflict). Nothing was staged: press \"Stage automatic assignment\" again."
                .into(),
        ));
    }
    let without_code: HashSet<i64> = papers.iter().filter(|p| p.review_code.is_none()).map(|p| p.id).collect();
    let mut needing_code: Vec<i64> = pairs.iter().map(|(p, _)| *p).filter(|p| without_code.contains(p)).collect();
    needing_code.dedup();
    store::give_review_codes(&mut tx, &needing_code).await?;
    store::stage(&mut tx, &pairs, &at).await?;
    let reference: HashMap<i64, &str> = papers.iter().map(|p| (p.id, p.reference.as_str())).collect();
    let email: HashMap<i64, &str> = people.iter().map(|r| (r.id, r.email.as_str())).collect();
    let shown_pairs: Vec<[&str; 2]> = pairs
        .iter()
        .map(|(p, r)| [reference.get(p).copied().unwrap_or(""), email.get(r).copied().unwrap_or("")])
        .collect();
    let loads_after = assign::loads_after(&problem_reviewers, &pairs);
    let mut entry = actor.entry(&at, "review.assignments_staged");
    entry.details = json!({
        "count": pairs.len(),
        "reviewers_per_paper": settings.reviewers_per_paper,
        "max_papers_per_reviewer": settings.max_papers_per_reviewer,
        "spread": assign::spread(&loads_after),
        "pairs": shown_pairs,
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Staged { count: pairs.len() })
}
