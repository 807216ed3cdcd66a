//! What organisers do with the assignments of reviewers to papers (issue 32 items 3 and 4,
//! DESIGN.md section 15), one function per action. Each opens its own write transaction,
//! re-checks what its form was drawn from, writes its audit entry there and answers what it
//! did or why it did nothing ([`Refused`]). The reads below assemble what the overview, the
//! preview of staged assignments and a paper's page show. The pages are
//! `crate::handlers::organiser::assignments`; the SQL is `crate::repo::assignments`.
//!
//! A form drawn before someone else's change is refused as stale (409) and changes nothing:
//! the preview's forms carry the staged rows' `mark` (count and highest id), a second
//! "Assign" of the same reviewer finds the pair live. A submitted review keeps its
//! assignment: unassigning it or declaring a conflict on it is refused (422).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::json;
use time::OffsetDateTime;

use super::assign::{self, Problem, paper_topics, topic_key};
use super::assigned_mail::{self, AssignedPaper};
use super::conflicts::{self, Conflict};
use crate::clock::stamp::timestamp;
use crate::clock::zone::Zone;
use crate::config::Config;
use crate::db::{Connection, Pool};
use crate::error::{AppError, Outcome, Refused};
use crate::forms::validate::shown;
use crate::mail::{self, Context};
use crate::repo::assignments::{self as store, Assignment, Listed};
use crate::repo::audit::{self, Actor, NewEntry};
use crate::repo::dashboard::Counts;
use crate::repo::reviewers::{self, Reviewer};

/// Papers a page of the overview lists: the organisers' lists' page.
const PER_PAGE: i64 = crate::repo::filter::PAGE_SIZE;

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

/// An assignment's state as the pages say it: `Review submitted`, `Staged` or `Released`.
pub fn state_label(assignment: &Assignment) -> &'static str {
    match (assignment.state.as_str(), assignment.reviewed) {
        (_, 1) => "Review submitted",
        ("staged", _) => "Staged",
        _ => "Released",
    }
}

/// The `mark` of the preview's forms: `<count>:<highest id>` of the staged rows.
pub fn mark_text(mark: (i64, Option<i64>)) -> String {
    format!("{}:{}", mark.0, mark.1.unwrap_or(0))
}

// ---------------------------------------------------------------------------------------
// The overview

/// A paper's row in the overview.
pub struct PaperRow {
    pub reference: String,
    pub title: String,
    /// The review code, empty before the first assignment.
    pub code: String,
    /// (name, [`state_label`]) of each live assignment.
    pub reviewers: Vec<(String, &'static str)>,
    /// Reviewers still short of `reviewers_per_paper`, never below 0.
    pub needed: i64,
}

/// What the overview shows: the counts, the settings and one page of submitted papers.
pub struct Overview {
    pub counts: store::Overview,
    pub per_paper: i64,
    pub max_papers: i64,
    pub rows: Vec<PaperRow>,
    /// The page shown (the one asked for, at most the last) and how many there are (at
    /// least 1).
    pub page: i64,
    pub pages: i64,
}

/// Page `page` (from 1) of the submitted papers, oldest first, with their live assignments;
/// the counts are `counts`' kept ones until `count_version` moves.
pub async fn overview(pool: &Pool, counts: &Counts, page: i64) -> Result<Overview, sqlx::Error> {
    let settings = reviewers::settings(pool).await?;
    let figures = store::counts(pool, settings.reviewers_per_paper, counts).await?;
    let (total, papers) = store::submitted_page(pool, page, counts).await?;
    let pages = ((total + PER_PAGE - 1) / PER_PAGE).max(1);
    let ids: Vec<i64> = papers.iter().map(|p| p.id).collect();
    let live = store::live_of_papers(pool, &ids).await?;
    let on_page: Vec<i64> = live.iter().map(|a| a.reviewer_id).collect();
    let names = store::reviewer_names(pool, &on_page).await?;
    let rows = papers
        .into_iter()
        .map(|paper| {
            let mine: Vec<&Assignment> = live.iter().filter(|a| a.submission_id == paper.id).collect();
            let reviewers = mine
                .iter()
                .map(|a| {
                    let name = names.get(&a.reviewer_id).cloned().unwrap_or_else(|| format!("Reviewer {}", a.number));
                    (name, state_label(a))
                })
                .collect();
            PaperRow {
                needed: (settings.reviewers_per_paper - mine.len() as i64).max(0),
                reference: paper.reference,
                title: paper.paper_title,
                code: paper.review_code.unwrap_or_default(),
                reviewers,
            }
        })
        .collect();
    Ok(Overview {
        counts: figures,
        per_paper: settings.reviewers_per_paper,
        max_papers: settings.max_papers_per_reviewer,
        rows,
        page: page.min(pages),
        pages,
    })
}

// ---------------------------------------------------------------------------------------
// The preview, release and discard

/// A reviewer on the preview.
pub struct ReviewerLoad {
    pub id: i64,
    pub name: String,
    pub email: String,
    /// Live papers once the staged ones are released (staged + released now).
    pub load: i64,
    /// (reference, review code, title) of their staged papers.
    pub staged: Vec<(String, String, String)>,
}

/// The preview of what is staged: every accepted reviewer with their load once released.
pub struct Preview {
    /// Staged assignments.
    pub count: usize,
    pub reviewers: Vec<ReviewerLoad>,
    /// The highest and lowest load of [`Preview::reviewers`] (0 without reviewers).
    pub busiest: i64,
    pub idlest: i64,
    /// What the release and discard forms carry ([`mark_text`]).
    pub mark: String,
}

/// The staged assignments per accepted reviewer.
pub async fn preview(pool: &Pool) -> Result<Preview, sqlx::Error> {
    let (rows, mark) = {
        let mut conn = pool.acquire().await?;
        (store::staged(&mut conn).await?, store::staged_mark(&mut conn).await?)
    };
    let loads = store::loads(pool).await?;
    let reviewers: Vec<ReviewerLoad> = store::accepted_reviewers(pool)
        .await?
        .into_iter()
        .map(|r| {
            let (staged, released) = loads.get(&r.id).copied().unwrap_or((0, 0));
            let papers = rows
                .iter()
                .filter(|row| row.reviewer_id == r.id)
                .map(|row| {
                    (row.reference.clone(), row.review_code.clone().unwrap_or_default(), row.paper_title.clone())
                })
                .collect();
            ReviewerLoad { id: r.id, name: r.name, email: r.email, load: staged + released, staged: papers }
        })
        .collect();
    let busiest = reviewers.iter().map(|r| r.load).max().unwrap_or(0);
    let idlest = reviewers.iter().map(|r| r.load).min().unwrap_or(0);
    Ok(Preview { count: rows.len(), reviewers, busiest, idlest, mark: mark_text(mark) })
}

/// The form's `mark`, checked against the staged rows now on `conn`: `Ok(false)` when nothing
/// is staged any more, stale when the rows changed since the preview was drawn.
async fn check_mark(conn: &mut Connection, sent: &str) -> Outcome<bool> {
    let now = store::staged_mark(conn).await?;
    if now.0 == 0 {
        return Ok(false);
    }
    if sent != mark_text(now) {
        return Err(Refused::Stale(
            "The staged assignments changed since this preview was loaded (another organiser staged, assigned, \
             discarded or released some). Nothing was changed: open the preview again."
                .into(),
        ));
    }
    Ok(true)
}

/// What [`release`] did: `count` assignments released, `mails` queued (one per reviewer, 0
/// for a batch mailed already). Both 0 when nothing was staged (a second click).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Released {
    pub count: usize,
    pub mails: usize,
}

/// Releases every staged assignment (the preview's `mark`) and queues one mail per reviewer
/// listing their new papers ([`assigned_mail`]) with `review_url` (the reviewers' area) and
/// the deadline in `zone`, in one transaction with the audit entry
/// `review.assignments_released`. Staged rows that can no longer be released (paper no longer
/// submitted, reviewer no longer accepted) are withdrawn; a paper without a review code gets
/// one.
///
/// Refused after the review deadline, and as stale when the staged rows changed since the
/// preview.
pub async fn release(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    config: &Config,
    zone: &Zone,
    review_url: &str,
    mark: &str,
) -> Outcome<Released> {
    before_the_deadline(pool, now).await?;
    let ctx = Context::load(pool, config).await?;
    let settings = reviewers::settings(pool).await?;
    // In the reviewer's words: the day and time in the event's zone and how far off it is.
    // A deadline already passed is never named (the release is refused before, by
    // `before_the_deadline`; this keeps it so should the clock turn in between).
    let deadline = super::reviewing::Deadline::of(settings.review_deadline.as_deref(), zone)
        .filter(|d| !d.passed(now))
        .map(|d| format!("{}, {}", d.label(), crate::calendar::deadline::words(d.at, now)));
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    if !check_mark(&mut tx, mark).await? {
        // A second click, or another organiser released them: nothing to do, nobody mailed.
        return Ok(Released { count: 0, mails: 0 });
    }
    let withdrawn = store::withdraw_unreleasable(&mut tx).await?;
    // Staged without a code (not by these pages): it gets one now, as at staging.
    let mut without_code: Vec<i64> =
        store::staged(&mut tx).await?.iter().filter(|r| r.review_code.is_none()).map(|r| r.submission_id).collect();
    without_code.sort_unstable();
    without_code.dedup();
    store::give_review_codes(&mut tx, &without_code).await?;
    // What this release took (on PostgreSQL, rows staged by a transaction that committed
    // since the mark was read are released and mailed too, never released unmailed).
    let released = store::release(&mut tx, &at).await?;
    let mut rows = store::released_at(&mut tx, &at).await?;
    rows.retain(|row| released.contains(&row.id));
    let mut by_reviewer: BTreeMap<i64, Vec<&Listed>> = BTreeMap::new();
    for row in &rows {
        by_reviewer.entry(row.reviewer_id).or_default().push(row);
    }
    let mut mails = 0;
    let mut sent = Vec::new();
    for (reviewer, papers) in &by_reviewer {
        let first = papers[0];
        let mut listed: Vec<AssignedPaper> = papers
            .iter()
            .map(|p| AssignedPaper { code: p.review_code.clone().unwrap_or_default(), title: p.paper_title.clone() })
            .collect();
        listed.sort_by(|a, b| a.code.cmp(&b.code));
        let last = papers.iter().map(|p| p.id).max().unwrap_or(0);
        let mail = assigned_mail::compose(
            &ctx,
            &first.reviewer_email,
            &first.reviewer_name,
            &listed,
            review_url,
            deadline.as_deref(),
            assigned_mail::dedupe_key(*reviewer, last),
        )
        .map_err(|e| AppError::internal("assignment mail", e))?;
        let queued = mail::enqueue(&mut tx, &mail).await?;
        mails += usize::from(queued);
        sent.push(json!({ "to": first.reviewer_email, "papers": listed.len(), "queued": queued }));
    }
    let mut entry = actor.entry(&at, "review.assignments_released");
    entry.details = json!({
        "count": rows.len(),
        "mails": mails,
        "withdrawn": withdrawn,
        "reviewers": sent,
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Released { count: rows.len(), mails })
}

/// What [`discard`] withdrew: `count` staged assignments (0 when nothing was staged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Discarded {
    pub count: u64,
}

/// Withdraws every staged assignment (the preview's `mark`); nobody is mailed. Audited as
/// `review.assignments_discarded` with the count. Refused as stale when the staged rows
/// changed since the preview.
pub async fn discard(pool: &Pool, now: OffsetDateTime, actor: &Actor, mark: &str) -> Outcome<Discarded> {
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    if !check_mark(&mut tx, mark).await? {
        return Ok(Discarded { count: 0 });
    }
    let count = store::discard(&mut tx).await?;
    let mut entry = actor.entry(&at, "review.assignments_discarded");
    entry.details = json!({ "count": count });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Discarded { count })
}

// ---------------------------------------------------------------------------------------
// One paper

/// A reviewer of the paper page's list.
pub struct Candidate {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub affiliation: String,
    /// Their topics, comma-separated.
    pub topics: String,
    /// Live papers (staged + released).
    pub load: i64,
    /// "Reviewer 2, staged" when assigned to this paper.
    pub assigned: Option<String>,
    /// Why not, when a conflict rule applies.
    pub conflict: Option<String>,
    pub declared: bool,
}

/// An assignment of the paper page.
pub struct AssignedRow {
    pub number: i64,
    pub reviewer_id: i64,
    pub name: String,
    pub email: String,
    /// [`state_label`].
    pub state: &'static str,
    pub reviewed: bool,
}

/// What a paper's page shows: the paper, its live assignments and every accepted reviewer
/// with their load and the conflict that keeps them off it, if any.
pub struct PaperView {
    pub paper: store::Paper,
    pub per_paper: i64,
    pub max_papers: i64,
    pub assigned: Vec<AssignedRow>,
    pub candidates: Vec<Candidate>,
}

/// The paper `reference`; not found when there is none.
async fn known_paper(pool: &Pool, reference: &str) -> Outcome<store::Paper> {
    store::paper(pool, reference)
        .await?
        .ok_or_else(|| Refused::NotFound(format!("No submission has the reference {}.", shown(reference))))
}

/// Paper `reference`'s page; not found when there is none. The reviewers' loads are
/// `counts`' kept ones.
pub async fn paper_view(pool: &Pool, counts: &Counts, reference: &str) -> Outcome<PaperView> {
    let paper = known_paper(pool, reference).await?;
    let settings = reviewers::settings(pool).await?;
    let people = store::accepted_reviewers(pool).await?;
    let webmail = store::webmail_domains(pool).await?;
    // Every reviewer's load is a count over all 40,000 assignments at conference scale:
    // kept until `count_version` moves (bench/organiser.sh run 8).
    let loads = store::loads_kept(pool, counts).await?;
    let (live, declared) = {
        let mut conn = pool.acquire().await?;
        (store::live_of(&mut conn, paper.id).await?, store::declared_on(&mut conn, paper.id).await?)
    };
    let rules_paper = conflicts::Paper { email: &paper.email, affiliation: &paper.university_organization };
    let mut names: HashMap<i64, (String, String)> =
        people.iter().map(|r| (r.id, (r.name.clone(), r.email.clone()))).collect();
    let mut assigned = Vec::new();
    for a in &live {
        if !names.contains_key(&a.reviewer_id) {
            // A reviewer no longer accepted who still holds it (until it is handed back).
            let mut conn = pool.acquire().await?;
            if let Some(r) = store::reviewer(&mut conn, a.reviewer_id).await? {
                names.insert(r.id, (r.name, r.email));
            }
        }
        let (name, email) = names.get(&a.reviewer_id).cloned().unwrap_or_default();
        assigned.push(AssignedRow {
            number: a.number,
            reviewer_id: a.reviewer_id,
            name,
            email,
            state: state_label(a),
            reviewed: a.reviewed == 1,
        });
    }
    let candidates = people
        .iter()
        .map(|r| {
            let rules_reviewer = conflicts::Reviewer { email: &r.email, affiliation: &r.affiliation };
            let is_declared = declared.contains(&r.id);
            let conflict = conflicts::conflict(&rules_reviewer, &rules_paper, &webmail, is_declared);
            let (staged, released) = loads.get(&r.id).copied().unwrap_or((0, 0));
            Candidate {
                id: r.id,
                name: r.name.clone(),
                email: r.email.clone(),
                affiliation: r.affiliation.clone(),
                topics: r.topics.lines().map(str::trim).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(", "),
                load: staged + released,
                assigned: live
                    .iter()
                    .find(|a| a.reviewer_id == r.id)
                    .map(|a| format!("Reviewer {}, {}", a.number, state_label(a).to_lowercase())),
                conflict: conflict.as_ref().map(Conflict::message),
                declared: is_declared,
            }
        })
        .collect();
    Ok(PaperView {
        paper,
        per_paper: settings.reviewers_per_paper,
        max_papers: settings.max_papers_per_reviewer,
        assigned,
        candidates,
    })
}

/// What a paper page's forms act on: the paper (still submitted) and the reviewer the form
/// names, read on the caller's transaction.
struct Target {
    paper: store::Paper,
    reviewer: Reviewer,
    live: Vec<Assignment>,
}

impl Target {
    fn assignment(&self) -> Option<&Assignment> {
        self.live.iter().find(|a| a.reviewer_id == self.reviewer.id)
    }

    /// The reviewer as the audit entries name them: `Name <address>`.
    fn reviewer_label(&self) -> String {
        format!("{} <{}>", self.reviewer.name, self.reviewer.email)
    }

    /// Records `action` by `actor` on the paper, with `details`.
    async fn record(
        &self,
        conn: &mut Connection,
        actor: &Actor,
        at: &str,
        action: &str,
        details: serde_json::Value,
    ) -> Outcome<()> {
        let entry = NewEntry { details, ..actor.entry(at, action).about("submission", &self.paper.reference) };
        audit::record(conn, &entry).await?;
        Ok(())
    }
}

/// The write transaction of a change by hand to reviewer `reviewer`'s assignment of paper
/// `reference`, with its [`Target`]; not found for an unknown paper, otherwise refused as
/// [`target`] says.
async fn begin_by_hand(pool: &Pool, reference: &str, reviewer: &str) -> Outcome<(crate::db::Transaction, Target)> {
    let paper = known_paper(pool, reference).await?;
    let mut tx = crate::db::begin_write(pool).await?;
    let t = target(&mut tx, paper, reviewer).await?;
    Ok((tx, t))
}

/// The form's `reviewer` (an id of a stored reviewer, else invalid) and `paper`, read on
/// `conn`; not allowed once the paper is no longer submitted.
async fn target(conn: &mut Connection, paper: store::Paper, sent: &str) -> Outcome<Target> {
    let unknown =
        || Refused::invalid(format!("\"{}\" is not a reviewer of this list. Choose one from the list.", shown(sent)));
    let id = sent.parse::<i64>().map_err(|_| unknown())?;
    let reviewer = store::reviewer(conn, id).await?.ok_or_else(unknown)?;
    let state = store::paper_state(conn, paper.id).await?.unwrap_or_default();
    if state != "submitted" {
        return Err(Refused::NotAllowed(format!(
            "Submission {} is {} now; only submitted papers get reviewers. Nothing was changed.",
            paper.reference,
            crate::repo::submissions::state_label(&state).to_lowercase()
        )));
    }
    let live = store::live_of(conn, paper.id).await?;
    Ok(Target { paper, reviewer, live })
}

/// A change that would withdraw `reviewer`'s assignment after their review was submitted
/// (issue 32: a submitted review keeps its assignment); `outcome` says what was not done.
fn review_keeps_assignment(reviewer: &str, outcome: &str) -> Refused {
    Refused::Conflicted(format!(
        "{reviewer} has submitted a review of this paper, and a submitted review keeps its assignment. {outcome}"
    ))
}

/// What a paper page's form changed: on paper `reference`, reviewer `reviewer_id`, who is or
/// was its "Reviewer `number`" (`None`: a conflict declared on a reviewer not assigned).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByHand {
    pub reference: String,
    pub reviewer_id: i64,
    pub number: Option<i64>,
}

/// Stages the assignment of reviewer `reviewer` (the form's id) to paper `reference`, giving
/// the paper its review code if it has none; audited as `review.assigned`. Refused after the
/// review deadline; not found for an unknown paper; invalid for an unknown reviewer;
/// conflicted for a reviewer who is not an accepted one or whom a conflict rule keeps off
/// the paper (the rule's message); not allowed for a paper no longer submitted; stale when
/// the reviewer is assigned already.
pub async fn assign_one(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    reference: &str,
    reviewer: &str,
) -> Outcome<ByHand> {
    before_the_deadline(pool, now).await?;
    let webmail = store::webmail_domains(pool).await?;
    let at = timestamp(now);
    let (mut tx, t) = begin_by_hand(pool, reference, reviewer).await?;
    if t.reviewer.state != "accepted" {
        return Err(Refused::Conflicted(format!(
            "{} cannot be assigned: they are {} (only reviewers who accepted the invitation review).",
            t.reviewer.name,
            match t.reviewer.state.as_str() {
                "invited" => "invited and have not answered yet",
                "declined" => "a reviewer who declined the invitation",
                _ => "no longer a reviewer",
            }
        )));
    }
    let declared = store::declared_on(&mut tx, t.paper.id).await?.contains(&t.reviewer.id);
    let rules_reviewer = conflicts::Reviewer { email: &t.reviewer.email, affiliation: &t.reviewer.affiliation };
    let rules_paper = conflicts::Paper { email: &t.paper.email, affiliation: &t.paper.university_organization };
    if let Some(conflict) = conflicts::conflict(&rules_reviewer, &rules_paper, &webmail, declared) {
        return Err(Refused::Conflicted(format!(
            "{} cannot review this paper: {} Nothing was changed.",
            t.reviewer.name,
            conflict.message()
        )));
    }
    if let Some(a) = t.assignment() {
        return Err(Refused::Stale(format!(
            "{} is already Reviewer {} of this paper ({}). Nothing was changed.",
            t.reviewer.name,
            a.number,
            state_label(a).to_lowercase()
        )));
    }
    if t.paper.review_code.is_none() {
        store::give_review_codes(&mut tx, &[t.paper.id]).await?;
    }
    store::stage(&mut tx, &[(t.paper.id, t.reviewer.id)], &at).await?;
    let number = store::live_of(&mut tx, t.paper.id)
        .await?
        .iter()
        .find(|a| a.reviewer_id == t.reviewer.id)
        .map_or(0, |a| a.number);
    let details = json!({
        "reviewer": t.reviewer_label(),
        "reviewer_number": number,
        "assignment": "staged",
    });
    t.record(&mut tx, actor, &at, "review.assigned", details).await?;
    tx.commit().await?;
    Ok(ByHand { reference: t.paper.reference, reviewer_id: t.reviewer.id, number: Some(number) })
}

/// Withdraws reviewer `reviewer`'s assignment of paper `reference`; audited as
/// `review.unassigned` with the state it had. Refused as [`assign_one`] for an unknown paper
/// or reviewer or a paper no longer submitted; stale when they have no assignment of it;
/// conflicted when their review was submitted.
pub async fn unassign(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    reference: &str,
    reviewer: &str,
) -> Outcome<ByHand> {
    let at = timestamp(now);
    let (mut tx, t) = begin_by_hand(pool, reference, reviewer).await?;
    let Some(a) = t.assignment().cloned() else {
        return Err(Refused::Stale(format!(
            "{} does not review this paper (any more). Nothing was changed.",
            t.reviewer.name
        )));
    };
    if a.reviewed == 1 {
        return Err(review_keeps_assignment(&t.reviewer.name, "Nothing was changed."));
    }
    store::withdraw(&mut tx, a.id).await?;
    let details = json!({
        "reviewer": t.reviewer_label(),
        "reviewer_number": a.number,
        "assignment": { "before": a.state, "after": "withdrawn" },
    });
    t.record(&mut tx, actor, &at, "review.unassigned", details).await?;
    tx.commit().await?;
    Ok(ByHand { reference: t.paper.reference, reviewer_id: t.reviewer.id, number: Some(a.number) })
}

/// Records a conflict between reviewer `reviewer` and paper `reference` declared by an
/// organiser and withdraws the reviewer's assignment of it, if any; audited as
/// `review.conflict_declared` with what was withdrawn. Refused as [`assign_one`] for an
/// unknown paper or reviewer or a paper no longer submitted; stale when one was declared
/// already; conflicted when their review was submitted.
pub async fn declare_conflict(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    reference: &str,
    reviewer: &str,
) -> Outcome<ByHand> {
    let at = timestamp(now);
    let (mut tx, t) = begin_by_hand(pool, reference, reviewer).await?;
    let assignment = t.assignment().cloned();
    if assignment.as_ref().is_some_and(|a| a.reviewed == 1) {
        return Err(review_keeps_assignment(&t.reviewer.name, "No conflict was recorded."));
    }
    if !store::declare_conflict(&mut tx, t.reviewer.id, t.paper.id, &at).await? {
        return Err(Refused::Stale(format!(
            "A conflict between {} and this paper was declared already. Nothing was changed.",
            t.reviewer.name
        )));
    }
    if let Some(a) = &assignment {
        store::withdraw(&mut tx, a.id).await?;
    }
    let details = json!({
        "reviewer": t.reviewer_label(),
        "withdrawn": assignment.as_ref().map(|a| format!("Reviewer {} ({})", a.number, a.state)),
    });
    t.record(&mut tx, actor, &at, "review.conflict_declared", details).await?;
    tx.commit().await?;
    Ok(ByHand { reference: t.paper.reference, reviewer_id: t.reviewer.id, number: assignment.map(|a| a.number) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preview_mark_is_count_and_highest_id() {
        assert_eq!(mark_text((0, None)), "0:0");
        assert_eq!(mark_text((24, Some(130))), "24:130");
    }
}
