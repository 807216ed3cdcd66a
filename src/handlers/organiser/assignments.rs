//! Who reviews which paper (issue 32 items 3 and 4, DESIGN.md section 15): the organisers'
//! assignment pages.
//!
//! - `GET /organiser/review/assignments` ([`PATH`], `page`): every submitted paper (title,
//!   reference, review code, its reviewers with their state, how many it still needs), 50 a
//!   page oldest first, paged as the other organisers' lists (`repo::filter::Where::page`);
//!   the counts, kept until `count_version` moves; and the form that stages an automatic
//!   assignment.
//! - `POST /organiser/review/assignments/automatic` ([`AUTOMATIC`]): runs
//!   `crate::review::assign` with the settings' `reviewers_per_paper` and
//!   `max_papers_per_reviewer` over the accepted reviewers and stores the result as staged
//!   (`review.assignments_staged`); 303 to the preview.
//! - `GET /organiser/review/assignments/staged` ([`STAGED`]): the preview, per reviewer the
//!   staged papers and every reviewer's load with the spread, and the forms below.
//! - `POST /organiser/review/assignments/release` ([`RELEASE`], `mark`): staged → released in
//!   one transaction with one mail per reviewer (`review.assignments_released`).
//! - `POST /organiser/review/assignments/discard` ([`DISCARD`], `mark`): staged → withdrawn
//!   (`review.assignments_discarded`).
//! - `GET /organiser/review/assignments/{reference}` ([`PAPER`]): one paper, its reviewers
//!   and every accepted reviewer with "Assign" or the conflict that keeps them off it.
//! - `POST .../{reference}/assign`, `.../unassign`, `.../conflict` (`reviewer`, an id): a
//!   staged assignment (`review.assigned`; 422 with the conflict's message when a rule
//!   applies, or for a reviewer who is not an accepted one), its withdrawal
//!   (`review.unassigned`), a conflict declared by the organiser, which withdraws the
//!   reviewer's assignment of the paper (`review.conflict_declared`).
//!
//! Every change is one transaction with its audit entry and answers 303 back with a notice,
//! so a reload posts nothing. A form drawn before someone else's change answers 409 and
//! changes nothing: the preview's forms carry the staged rows' `mark` (count and highest id),
//! a second "Assign" of the same reviewer finds the pair live. A submitted review keeps its
//! assignment: unassigning it or declaring a conflict on it is refused (422).

use std::collections::{BTreeMap, HashMap};

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;

use super::dashboard;
use super::form::{fields, one};
use super::query::Params;
use super::session::{Organiser, SignedIn};
use super::sign_in::layout;
use super::view::{NoticePage, shown};
use crate::db::Connection;
use crate::error::AppError;
use crate::handlers::layout::Layout;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::mail::outbox::timestamp;
use crate::mail::{self, Context};
use crate::repo::assignments::{self as store, Assignment, Listed};
use crate::repo::reviewers::{self, Reviewer};
use crate::review::assigned_mail::{self, AssignedPaper};
use crate::review::assignments as domain;
use crate::review::conflicts::{self, Conflict};

/// The overview.
pub const PATH: &str = "/organiser/review/assignments";
/// Where "Stage automatic assignment" posts.
pub const AUTOMATIC: &str = "/organiser/review/assignments/automatic";
/// The preview of what is staged.
pub const STAGED: &str = "/organiser/review/assignments/staged";
/// Where the preview's "Release" posts.
pub const RELEASE: &str = "/organiser/review/assignments/release";
/// Where the preview's "Discard staged" posts.
pub const DISCARD: &str = "/organiser/review/assignments/discard";
/// One paper's reviewers (route pattern).
pub const PAPER: &str = "/organiser/review/assignments/{reference}";
/// Where a paper page's "Assign", "Unassign" and "Declare a conflict" post (route patterns).
pub const ASSIGN: &str = "/organiser/review/assignments/{reference}/assign";
pub const UNASSIGN: &str = "/organiser/review/assignments/{reference}/unassign";
pub const CONFLICT: &str = "/organiser/review/assignments/{reference}/conflict";

/// Papers a page of the overview lists: the organisers' lists' page.
const PER_PAGE: i64 = crate::repo::filter::PAGE_SIZE;

/// The address of paper `reference`'s page.
pub fn paper_href(reference: &str) -> String {
    format!("{PATH}/{}", url_segment(reference))
}

fn url_segment(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>().replace('+', "%20")
}

/// "1 paper" or "3 papers".
fn counted(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// An assignment's state as the pages say it.
fn state_label(assignment: &Assignment) -> &'static str {
    match (assignment.state.as_str(), assignment.reviewed) {
        (_, 1) => "Review submitted",
        ("staged", _) => "Staged",
        _ => "Released",
    }
}

/// 422 with `message`: a form the organiser can correct.
fn refused(message: String) -> AppError {
    AppError::Unprocessable { message, errors: BTreeMap::new() }
}

/// 422 for a change that would withdraw `reviewer`'s assignment after their review was
/// submitted (issue 32: a submitted review keeps its assignment); `outcome` says what was not
/// done.
fn review_keeps_assignment(reviewer: &str, outcome: &str) -> AppError {
    refused(format!(
        "{reviewer} has submitted a review of this paper, and a submitted review keeps its assignment. {outcome}"
    ))
}

// ---------------------------------------------------------------------------------------
// The overview

/// A paper's row in the overview.
struct PaperRow {
    reference: String,
    title: String,
    code: String,
    /// (name, state label)
    reviewers: Vec<(String, &'static str)>,
    needed: i64,
}

#[derive(Template)]
#[template(path = "organiser/assignments.html")]
struct OverviewPage {
    layout: Layout,
    notice: Option<String>,
    counts: store::Overview,
    per_paper: i64,
    max_papers: i64,
    reviewers: i64,
    rows: Vec<PaperRow>,
    page: i64,
    pages: i64,
    automatic_action: &'static str,
    staged_href: &'static str,
}

impl OverviewPage {
    fn paper_href(&self, reference: &str) -> String {
        paper_href(reference)
    }
}

/// What the overview says after a form: `done` with `count` (and `mails`).
fn overview_notice(params: &Params) -> Result<Option<String>, AppError> {
    let Some(done) = params.get("done") else { return Ok(None) };
    let number = |name: &str| -> Result<i64, AppError> {
        params
            .get(name)
            .and_then(|v| v.parse::<i64>().ok())
            .filter(|n| *n >= 0)
            .ok_or_else(|| AppError::BadRequest(format!("\"done={}\" needs a number \"{name}\".", shown(done))))
    };
    Ok(Some(match done {
        "released" => {
            let (count, mails) = (number("count")?, number("mails")?);
            if count == 0 {
                "Nothing was released: nothing was staged (released already?), and nobody was mailed.".to_owned()
            } else {
                format!(
                    "{} released; {} queued, one per reviewer.",
                    counted(count, "assignment", "assignments"),
                    counted(mails, "mail", "mails")
                )
            }
        }
        "discarded" => format!(
            "{} discarded; nobody was mailed. Stage again when you are ready.",
            counted(number("count")?, "staged assignment", "staged assignments")
        ),
        other => {
            return Err(AppError::BadRequest(format!(
                "\"{}\" is not something this page did. It knows: released, discarded.",
                shown(other)
            )));
        }
    }))
}

/// GET [`PATH`].
pub async fn overview(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &["done", "count", "mails"])?;
    let notice = overview_notice(&params)?;
    let page = params.page()?;
    let settings = reviewers::settings(&state.pool).await?;
    let kept = dashboard::counts(&state).await?;
    let counts = store::counts(&state.pool, settings.reviewers_per_paper, &kept).await?;
    let (total, papers) = store::submitted_page(&state.pool, page, &kept).await?;
    let pages = ((total + PER_PAGE - 1) / PER_PAGE).max(1);
    let ids: Vec<i64> = papers.iter().map(|p| p.id).collect();
    let live = store::live_of_papers(&state.pool, &ids).await?;
    let on_page: Vec<i64> = live.iter().map(|a| a.reviewer_id).collect();
    let names = store::reviewer_names(&state.pool, &on_page).await?;
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
    let view = OverviewPage {
        layout: layout(&state, "Review assignments", PATH).await?,
        notice,
        counts,
        per_paper: settings.reviewers_per_paper,
        max_papers: settings.max_papers_per_reviewer,
        reviewers: counts.reviewers,
        rows,
        page: page.min(pages),
        pages,
        automatic_action: AUTOMATIC,
        staged_href: STAGED,
    };
    render(StatusCode::OK, &view)
}

// ---------------------------------------------------------------------------------------
// Automatic assignment

/// POST [`AUTOMATIC`]: stages an automatic assignment of every submitted paper short of
/// reviewers (`crate::review::assignments::stage_automatic`); 303 to the preview.
pub async fn automatic(State(state): State<AppState>, SignedIn(organiser): SignedIn) -> Result<Response, AppError> {
    let focus_areas = state.content.snapshot().await.site()?.focus_areas.clone();
    let result = domain::stage_automatic(&state.pool, state.clock.now(), &organiser.actor(), &focus_areas)
        .await
        .map(|staged| see_other(&format!("{STAGED}?done=staged&count={}", staged.count)))
        .map_err(AppError::from);
    let links = vec![(PATH.to_owned(), "Back to the assignments".to_owned()), settings_link()];
    in_notice_page(&state, result, links).await
}

/// 409 once `review_deadline` has passed ([`domain::before_the_deadline`]).
async fn before_the_deadline(state: &AppState) -> Result<(), AppError> {
    Ok(domain::before_the_deadline(&state.pool, state.clock.now()).await?)
}

/// The notice page's link to the review deadline's setting.
fn settings_link() -> (String, String) {
    (crate::calendar::gates::SETTINGS_PATH.to_owned(), "Move the review deadline in the settings".to_owned())
}

// ---------------------------------------------------------------------------------------
// The preview, release and discard

/// A reviewer on the preview.
struct ReviewerLoad {
    id: i64,
    name: String,
    email: String,
    /// Live papers once the staged ones are released (staged + released now).
    load: i64,
    /// (reference, review code, title) of their staged papers.
    staged: Vec<(String, String, String)>,
}

#[derive(Template)]
#[template(path = "organiser/assignments_staged.html")]
struct StagedPage {
    layout: Layout,
    notice: Option<String>,
    count: usize,
    reviewers: Vec<ReviewerLoad>,
    busiest: i64,
    idlest: i64,
    mark: String,
    release_action: &'static str,
    discard_action: &'static str,
    overview: &'static str,
}

impl StagedPage {
    fn paper_href(&self, reference: &str) -> String {
        paper_href(reference)
    }
}

/// The `mark` of the preview's forms: `<count>:<highest id>` of the staged rows.
fn mark_text(mark: (i64, Option<i64>)) -> String {
    format!("{}:{}", mark.0, mark.1.unwrap_or(0))
}

/// GET [`STAGED`].
pub async fn staged(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &["done", "count"])?;
    let notice = match params.get("done") {
        None => None,
        Some("staged") => {
            let count =
                params.get("count").and_then(|v| v.parse::<i64>().ok()).filter(|n| *n >= 0).ok_or_else(|| {
                    AppError::BadRequest("\"done=staged\" needs the number staged (\"count\").".into())
                })?;
            Some(if count == 0 {
                "Nothing new was staged: every submitted paper has its reviewers, or no reviewer free of conflicts \
                 has room for it."
                    .to_owned()
            } else {
                format!(
                    "{} staged. Nobody sees them or is mailed until you release them.",
                    counted(count, "assignment", "assignments")
                )
            })
        }
        Some(other) => {
            return Err(AppError::BadRequest(format!(
                "\"{}\" is not something this page did. It knows: staged.",
                shown(other)
            )));
        }
    };
    let (rows, mark) = {
        let mut conn = state.pool.acquire().await?;
        (store::staged(&mut conn).await?, store::staged_mark(&mut conn).await?)
    };
    let loads = store::loads(&state.pool).await?;
    let reviewers: Vec<ReviewerLoad> = store::accepted_reviewers(&state.pool)
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
    let page = StagedPage {
        layout: layout(&state, "Staged assignments", PATH).await?,
        notice,
        count: rows.len(),
        reviewers,
        busiest,
        idlest,
        mark: mark_text(mark),
        release_action: RELEASE,
        discard_action: DISCARD,
        overview: PATH,
    };
    render(StatusCode::OK, &page)
}

/// The form's `mark`, checked against the staged rows now on `conn`: `Ok(false)` when nothing
/// is staged any more, 409 when the rows changed since the preview was drawn.
async fn check_mark(conn: &mut Connection, body: &Bytes) -> Result<bool, AppError> {
    let fields = fields(body);
    let sent = one(&fields, "mark")?;
    let now = store::staged_mark(conn).await?;
    if now.0 == 0 {
        return Ok(false);
    }
    if sent != mark_text(now) {
        return Err(AppError::Conflict(
            "The staged assignments changed since this preview was loaded (another organiser staged, assigned, \
             discarded or released some). Nothing was changed: open the preview again."
                .into(),
        ));
    }
    Ok(true)
}

/// POST [`RELEASE`]: releases every staged assignment and mails each reviewer once.
pub async fn release(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = match before_the_deadline(&state).await {
        Ok(()) => release_staged(&state, &organiser, &body).await,
        Err(err) => Err(err),
    };
    let links = vec![(STAGED.to_owned(), "Open the preview again".to_owned()), settings_link()];
    in_notice_page(&state, result, links).await
}

async fn release_staged(state: &AppState, organiser: &Organiser, body: &Bytes) -> Result<Response, AppError> {
    let ctx = Context::load(&state.pool, &state.config).await?;
    let settings = reviewers::settings(&state.pool).await?;
    let zone = state.content.snapshot().await.zone.clone();
    let now = state.clock.now();
    // In the reviewer's words: the day and time in the event's zone and how far off it is.
    // A deadline already passed is never named (the release is refused before, by
    // `before_the_deadline`; this keeps it so should the clock turn in between).
    let deadline = crate::review::reviewing::Deadline::of(settings.review_deadline.as_deref(), &zone)
        .filter(|d| !d.passed(now))
        .map(|d| format!("{}, {}", d.label(), crate::calendar::deadline::words(d.at, now)));
    let review_url = format!("{}{}", state.config.base_url(), crate::handlers::review::session::REVIEWER_HOME);
    let at = timestamp(state.clock.now());
    let mut tx = crate::db::begin_write(&state.pool).await?;
    if !check_mark(&mut tx, body).await? {
        // A second click, or another organiser released them: nothing to do, nobody mailed.
        return Ok(see_other(&format!("{PATH}?done=released&count=0&mails=0")));
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
            &review_url,
            deadline.as_deref(),
            assigned_mail::dedupe_key(*reviewer, last),
        )
        .map_err(|e| AppError::internal("assignment mail", e))?;
        let queued = mail::enqueue(&mut tx, &mail).await?;
        mails += usize::from(queued);
        sent.push(json!({ "to": first.reviewer_email, "papers": listed.len(), "queued": queued }));
    }
    let mut entry = organiser.entry(&at, "review.assignments_released");
    entry.details = json!({
        "count": rows.len(),
        "mails": mails,
        "withdrawn": withdrawn,
        "reviewers": sent,
    });
    crate::repo::audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(see_other(&format!("{PATH}?done=released&count={}&mails={mails}", rows.len())))
}

/// POST [`DISCARD`]: withdraws every staged assignment.
pub async fn discard(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let at = timestamp(state.clock.now());
        let mut tx = crate::db::begin_write(&state.pool).await?;
        if !check_mark(&mut tx, &body).await? {
            return Ok(see_other(&format!("{PATH}?done=discarded&count=0")));
        }
        let count = store::discard(&mut tx).await?;
        let mut entry = organiser.entry(&at, "review.assignments_discarded");
        entry.details = json!({ "count": count });
        crate::repo::audit::record(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(see_other(&format!("{PATH}?done=discarded&count={count}")))
    }
    .await;
    in_notice_page(&state, result, vec![(STAGED.to_owned(), "Open the preview again".to_owned())]).await
}

/// `result`, with a refused form shown as an organiser page saying why (its status: 400,
/// 404, 409 or 422) with `links` on from there. A 500 stays the site's.
async fn in_notice_page(
    state: &AppState,
    result: Result<Response, AppError>,
    mut links: Vec<(String, String)>,
) -> Result<Response, AppError> {
    let err = match result {
        Ok(response) => return Ok(response),
        Err(err @ (AppError::BadRequest(_) | AppError::NotFound(_) | AppError::Conflict(_))) => err,
        Err(err @ AppError::Unprocessable { .. }) => err,
        Err(other) => return Err(other),
    };
    let heading = if matches!(err, AppError::NotFound(_)) { "Not found" } else { "Nothing was changed" };
    links.push((PATH.to_owned(), "The assignments".to_owned()));
    let page = NoticePage {
        layout: layout(state, heading, PATH).await?,
        heading: heading.to_owned(),
        message: err.public_message(),
        role: "alert",
        links,
    };
    render(err.status(), &page)
}

// ---------------------------------------------------------------------------------------
// One paper

/// A reviewer of the paper page's list.
struct Candidate {
    id: i64,
    name: String,
    email: String,
    affiliation: String,
    topics: String,
    load: i64,
    /// "Reviewer 2, staged" when assigned to this paper.
    assigned: Option<String>,
    /// Why not, when a conflict rule applies.
    conflict: Option<String>,
    declared: bool,
}

/// An assignment of the paper page.
struct AssignedRow {
    number: i64,
    reviewer_id: i64,
    name: String,
    email: String,
    state: &'static str,
    reviewed: bool,
}

#[derive(Template)]
#[template(path = "organiser/assignments_paper.html")]
struct PaperPage {
    layout: Layout,
    notice: Option<String>,
    problem: Option<String>,
    reference: String,
    title: String,
    code: String,
    /// `Submitted`, or what it is now.
    state: String,
    open: bool,
    per_paper: i64,
    assigned: Vec<AssignedRow>,
    candidates: Vec<Candidate>,
    assign_action: String,
    unassign_action: String,
    conflict_action: String,
    max_papers: i64,
}

/// What the paper page says after a form: `done` to `reviewer`.
fn paper_notice(params: &Params, people: &[Reviewer]) -> Result<Option<String>, AppError> {
    let Some(done) = params.get("done") else { return Ok(None) };
    let id = params.get("reviewer").and_then(|v| v.parse::<i64>().ok());
    let name = people.iter().find(|r| Some(r.id) == id).map_or_else(|| "The reviewer".to_owned(), |r| r.name.clone());
    Ok(Some(match done {
        "assigned" => format!("{name} is assigned (staged). They are mailed when the staged assignments are released."),
        "unassigned" => format!("{name} no longer reviews this paper."),
        "conflict" => format!("A conflict between {name} and this paper is recorded; they are kept off it."),
        other => {
            return Err(AppError::BadRequest(format!(
                "\"{}\" is not something this page did. It knows: assigned, unassigned, conflict.",
                shown(other)
            )));
        }
    }))
}

/// The paper `reference`; 404 when there is none.
async fn known_paper(state: &AppState, reference: &str) -> Result<store::Paper, AppError> {
    store::paper(&state.pool, reference)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("No submission has the reference {}.", shown(reference))))
}

async fn paper_page(
    state: &AppState,
    status: StatusCode,
    reference: &str,
    raw: Option<&str>,
    problem: Option<String>,
) -> Result<Response, AppError> {
    let paper = known_paper(state, reference).await?;
    let params = Params::parse(raw, &["done", "reviewer"])?;
    let settings = reviewers::settings(&state.pool).await?;
    let people = store::accepted_reviewers(&state.pool).await?;
    let notice = paper_notice(&params, &people)?;
    let webmail = store::webmail_domains(&state.pool).await?;
    // Every reviewer's load is a count over all 40,000 assignments at conference scale:
    // kept until `count_version` moves (bench/organiser.sh run 8).
    let kept = dashboard::counts(state).await?;
    let loads = store::loads_kept(&state.pool, &kept).await?;
    let (live, declared) = {
        let mut conn = state.pool.acquire().await?;
        (store::live_of(&mut conn, paper.id).await?, store::declared_on(&mut conn, paper.id).await?)
    };
    let rules_paper = conflicts::Paper { email: &paper.email, affiliation: &paper.university_organization };
    let mut names: HashMap<i64, (String, String)> =
        people.iter().map(|r| (r.id, (r.name.clone(), r.email.clone()))).collect();
    let mut assigned = Vec::new();
    for a in &live {
        if !names.contains_key(&a.reviewer_id) {
            // A reviewer no longer accepted who still holds it (until it is handed back).
            let mut conn = state.pool.acquire().await?;
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
    let page = PaperPage {
        layout: layout(state, &format!("Reviewers of {}", paper.reference), PATH).await?,
        notice,
        problem,
        open: paper.state == "submitted",
        state: crate::decisions::state_label(&paper.state).to_owned(),
        per_paper: settings.reviewers_per_paper,
        max_papers: settings.max_papers_per_reviewer,
        code: paper.review_code.clone().unwrap_or_default(),
        title: paper.paper_title.clone(),
        assign_action: format!("{}/assign", paper_href(&paper.reference)),
        unassign_action: format!("{}/unassign", paper_href(&paper.reference)),
        conflict_action: format!("{}/conflict", paper_href(&paper.reference)),
        reference: paper.reference,
        assigned,
        candidates,
    };
    render(status, &page)
}

/// GET [`PAPER`].
pub async fn paper(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    Path(reference): Path<String>,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    paper_page(&state, StatusCode::OK, &reference, raw.as_deref(), None).await
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
}

/// The form's `reviewer`: an id of a stored reviewer, else 422.
async fn target(conn: &mut Connection, paper: store::Paper, body: &Bytes) -> Result<Target, AppError> {
    let fields = fields(body);
    let sent = one(&fields, "reviewer")?;
    let unknown = || refused(format!("\"{}\" is not a reviewer of this list. Choose one from the list.", shown(sent)));
    let id = sent.parse::<i64>().map_err(|_| unknown())?;
    let reviewer = store::reviewer(conn, id).await?.ok_or_else(unknown)?;
    let state = store::paper_state(conn, paper.id).await?.unwrap_or_default();
    if state != "submitted" {
        return Err(AppError::Conflict(format!(
            "Submission {} is {} now; only submitted papers get reviewers. Nothing was changed.",
            paper.reference,
            crate::decisions::state_label(&state).to_lowercase()
        )));
    }
    let live = store::live_of(conn, paper.id).await?;
    Ok(Target { paper, reviewer, live })
}

/// `result`, with a refused form shown as the paper page again with the message and its
/// status; an unknown paper stays the site's 404.
async fn or_paper_page(
    state: &AppState,
    reference: &str,
    result: Result<Response, AppError>,
) -> Result<Response, AppError> {
    match result {
        Ok(response) => Ok(response),
        Err(AppError::NotFound(message)) => Err(AppError::NotFound(message)),
        Err(err @ (AppError::BadRequest(_) | AppError::Conflict(_) | AppError::Unprocessable { .. })) => {
            paper_page(state, err.status(), reference, None, Some(err.public_message())).await
        }
        Err(other) => Err(other),
    }
}

/// The 303 back to the paper page with the notice of `done` to `reviewer`.
fn done(reference: &str, done: &str, reviewer: i64) -> Response {
    see_other(&format!("{}?done={done}&reviewer={reviewer}", paper_href(reference)))
}

/// POST [`ASSIGN`]: `reviewer`. Stages the assignment; 422 with the conflict's message when a
/// rule keeps them apart or the reviewer is not an accepted one; 409 when already assigned.
pub async fn assign_one(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(reference): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        before_the_deadline(&state).await?;
        let paper = known_paper(&state, &reference).await?;
        let webmail = store::webmail_domains(&state.pool).await?;
        let at = timestamp(state.clock.now());
        let mut tx = crate::db::begin_write(&state.pool).await?;
        let t = target(&mut tx, paper, &body).await?;
        if t.reviewer.state != "accepted" {
            return Err(refused(format!(
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
            return Err(refused(format!(
                "{} cannot review this paper: {} Nothing was changed.",
                t.reviewer.name,
                conflict.message()
            )));
        }
        if let Some(a) = t.assignment() {
            return Err(AppError::Conflict(format!(
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
        organiser.record_on_submission(&mut tx, &at, "review.assigned", &t.paper.reference, details).await?;
        tx.commit().await?;
        Ok(done(&t.paper.reference, "assigned", t.reviewer.id))
    }
    .await;
    or_paper_page(&state, &reference, result).await
}

/// POST [`UNASSIGN`]: `reviewer`. Withdraws their assignment of this paper; 409 when they
/// have none, 422 when their review was submitted.
pub async fn unassign(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(reference): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let paper = known_paper(&state, &reference).await?;
        let at = timestamp(state.clock.now());
        let mut tx = crate::db::begin_write(&state.pool).await?;
        let t = target(&mut tx, paper, &body).await?;
        let Some(a) = t.assignment().cloned() else {
            return Err(AppError::Conflict(format!(
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
        organiser.record_on_submission(&mut tx, &at, "review.unassigned", &t.paper.reference, details).await?;
        tx.commit().await?;
        Ok(done(&t.paper.reference, "unassigned", t.reviewer.id))
    }
    .await;
    or_paper_page(&state, &reference, result).await
}

/// POST [`CONFLICT`]: `reviewer`. Records a conflict declared by the organiser and withdraws
/// the reviewer's assignment of this paper, if any; 409 when one was declared already, 422
/// when their review was submitted.
pub async fn declare_conflict(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(reference): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let paper = known_paper(&state, &reference).await?;
        let at = timestamp(state.clock.now());
        let mut tx = crate::db::begin_write(&state.pool).await?;
        let t = target(&mut tx, paper, &body).await?;
        let assignment = t.assignment().cloned();
        if assignment.as_ref().is_some_and(|a| a.reviewed == 1) {
            return Err(review_keeps_assignment(&t.reviewer.name, "No conflict was recorded."));
        }
        if !store::declare_conflict(&mut tx, t.reviewer.id, t.paper.id, &at).await? {
            return Err(AppError::Conflict(format!(
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
        organiser.record_on_submission(&mut tx, &at, "review.conflict_declared", &t.paper.reference, details).await?;
        tx.commit().await?;
        Ok(done(&t.paper.reference, "conflict", t.reviewer.id))
    }
    .await;
    or_paper_page(&state, &reference, result).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_as_organisers_say_them() {
        assert_eq!(paper_href("P-2025 1"), "/organiser/review/assignments/P-2025%201");
        assert_eq!(counted(1, "mail", "mails"), "1 mail");
        assert_eq!(counted(3, "mail", "mails"), "3 mails");
        assert_eq!(mark_text((0, None)), "0:0");
        assert_eq!(mark_text((24, Some(130))), "24:130");
    }
}
