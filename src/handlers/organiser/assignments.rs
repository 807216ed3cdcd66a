//! Who reviews which paper (issue 32 items 3 and 4, DESIGN.md section 15): the organisers'
//! assignment pages. What each form does, and what it refuses, is
//! `crate::review::assignments`; these pages parse, call and render.
//!
//! - `GET /organiser/review/assignments` ([`PATH`], `page`): every submitted paper with its
//!   reviewers, 50 a page oldest first, the counts, and the form that stages an automatic
//!   assignment ([`AUTOMATIC`], 303 to the preview).
//! - `GET /organiser/review/assignments/staged` ([`STAGED`]): the preview, per reviewer the
//!   staged papers and every reviewer's load, and the forms [`RELEASE`] (one mail per
//!   reviewer) and [`DISCARD`], both carrying the staged rows' `mark`.
//! - `GET /organiser/review/assignments/{reference}` ([`PAPER`]): one paper, its reviewers
//!   and every accepted reviewer with "Assign" or the conflict that keeps them off it; its
//!   forms [`ASSIGN`], [`UNASSIGN`] and [`CONFLICT`] send `reviewer` (an id).
//!
//! A change answers 303 with a notice (a reload posts nothing); a refusal shows why, with
//! its status (400, 404, 409 or 422), the review deadline checked before the fields.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::dashboard;
use super::form::{fields, one};
use super::notice::or_notice_page;
use super::query::Params;
use super::session::{Organiser, SignedIn};
use super::sign_in::layout;
use crate::error::AppError;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::review::assignments::{self as domain, Candidate};
pub use crate::views::organiser::assignments::PATH;
use crate::views::organiser::assignments::{OverviewPage, PaperPage, StagedPage, counted, paper_href};
use crate::views::organiser::shared::shown;

/// Where the overview's "Stage automatic assignment" posts.
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

/// What a page or a form answers.
type Answer = Result<Response, AppError>;

/// A query's `done` that this page did not do: 400 naming what it knows.
fn unknown_done(done: &str, known: &str) -> AppError {
    AppError::BadRequest(format!("\"{}\" is not something this page did. It knows: {known}.", shown(done)))
}

/// The query's number `name` (0 or more) that `done` needs, else 400 with `missing`.
fn number(params: &Params, name: &str, missing: impl FnOnce() -> String) -> Result<i64, AppError> {
    params
        .get(name)
        .and_then(|v| v.parse::<i64>().ok())
        .filter(|n| *n >= 0)
        .ok_or_else(|| AppError::BadRequest(missing()))
}

/// What the overview says after a form: `done` with `count` (and `mails`).
fn overview_notice(params: &Params) -> Result<Option<String>, AppError> {
    let Some(done) = params.get("done") else { return Ok(None) };
    let number = |name: &str| number(params, name, || format!("\"done={}\" needs a number \"{name}\".", shown(done)));
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
        other => return Err(unknown_done(other, "released, discarded")),
    }))
}

/// GET [`PATH`] ([`domain::overview`]).
pub async fn overview(State(state): State<AppState>, SignedIn(_): SignedIn, RawQuery(raw): RawQuery) -> Answer {
    let params = Params::parse(raw.as_deref(), &["done", "count", "mails"])?;
    let notice = overview_notice(&params)?;
    let page = params.page()?;
    let kept = dashboard::counts(&state).await?;
    let view = domain::overview(&state.pool, &kept, page).await?;
    let view = OverviewPage {
        layout: layout(&state, "Review assignments", PATH).await?,
        notice,
        view,
        automatic_action: AUTOMATIC,
        staged_href: STAGED,
    };
    render(StatusCode::OK, &view)
}

/// POST [`AUTOMATIC`]: stages an automatic assignment of every submitted paper short of
/// reviewers ([`domain::stage_automatic`]); 303 to the preview.
pub async fn automatic(State(state): State<AppState>, SignedIn(organiser): SignedIn) -> Answer {
    let focus_areas = state.content.snapshot().await.site()?.focus_areas.clone();
    let result = domain::stage_automatic(&state.pool, state.clock.now(), &organiser.actor(), &focus_areas)
        .await
        .map(|staged| see_other(&format!("{STAGED}?done=staged&count={}", staged.count)));
    let links = vec![(PATH.to_owned(), "Back to the assignments".to_owned()), settings_link()];
    in_notice_page(&state, result.map_err(AppError::from), links).await
}

/// The notice page's link to the review deadline's setting.
fn settings_link() -> (String, String) {
    (crate::calendar::gates::SETTINGS_PATH.to_owned(), "Move the review deadline in the settings".to_owned())
}

/// GET [`STAGED`] ([`domain::preview`]).
pub async fn staged(State(state): State<AppState>, SignedIn(_): SignedIn, RawQuery(raw): RawQuery) -> Answer {
    let params = Params::parse(raw.as_deref(), &["done", "count"])?;
    let notice = match params.get("done") {
        None => None,
        Some("staged") => {
            let count = number(&params, "count", || "\"done=staged\" needs the number staged (\"count\").".into())?;
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
        Some(other) => return Err(unknown_done(other, "staged")),
    };
    let page = StagedPage {
        layout: layout(&state, "Staged assignments", PATH).await?,
        notice,
        preview: domain::preview(&state.pool).await?,
        release_action: RELEASE,
        discard_action: DISCARD,
        overview: PATH,
    };
    render(StatusCode::OK, &page)
}

/// POST [`RELEASE`] (`mark`): releases every staged assignment and mails each reviewer once
/// ([`domain::release`]); 303 to the overview.
pub async fn release(State(state): State<AppState>, SignedIn(organiser): SignedIn, body: Bytes) -> Answer {
    let result = async {
        domain::before_the_deadline(&state.pool, state.clock.now()).await?;
        let mark = one(&fields(&body), "mark")?.to_owned();
        let zone = state.content.snapshot().await.zone.clone();
        let review_url = format!("{}{}", state.config.base_url(), crate::handlers::review::session::REVIEWER_HOME);
        let (now, actor) = (state.clock.now(), organiser.actor());
        let done = domain::release(&state.pool, now, &actor, &state.config, &zone, &review_url, &mark).await?;
        Ok(see_other(&format!("{PATH}?done=released&count={}&mails={}", done.count, done.mails)))
    }
    .await;
    let links = vec![(STAGED.to_owned(), "Open the preview again".to_owned()), settings_link()];
    in_notice_page(&state, result, links).await
}

/// POST [`DISCARD`] (`mark`): withdraws every staged assignment ([`domain::discard`]); 303 to
/// the overview.
pub async fn discard(State(state): State<AppState>, SignedIn(organiser): SignedIn, body: Bytes) -> Answer {
    let result = async {
        let fields = fields(&body);
        let mark = one(&fields, "mark")?;
        let done = domain::discard(&state.pool, state.clock.now(), &organiser.actor(), mark).await?;
        Ok(see_other(&format!("{PATH}?done=discarded&count={}", done.count)))
    }
    .await;
    in_notice_page(&state, result, vec![(STAGED.to_owned(), "Open the preview again".to_owned())]).await
}

/// [`or_notice_page`] under the assignments, with a link back to them last.
async fn in_notice_page(state: &AppState, result: Answer, mut links: Vec<(String, String)>) -> Answer {
    links.push((PATH.to_owned(), "The assignments".to_owned()));
    or_notice_page(state, PATH, result, links).await
}

/// What the paper page says after a form: `done` to `reviewer`, named from `people`.
fn paper_notice(params: &Params, people: &[Candidate]) -> Result<Option<String>, AppError> {
    let Some(done) = params.get("done") else { return Ok(None) };
    let id = params.get("reviewer").and_then(|v| v.parse::<i64>().ok());
    let name = people.iter().find(|r| Some(r.id) == id).map_or_else(|| "The reviewer".to_owned(), |r| r.name.clone());
    Ok(Some(match done {
        "assigned" => format!("{name} is assigned (staged). They are mailed when the staged assignments are released."),
        "unassigned" => format!("{name} no longer reviews this paper."),
        "conflict" => format!("A conflict between {name} and this paper is recorded; they are kept off it."),
        other => return Err(unknown_done(other, "assigned, unassigned, conflict")),
    }))
}

/// Paper `reference`'s page ([`domain::paper_view`]) with `status`, the notice of `raw`'s
/// `done` and the `problem` of a refused form.
async fn paper_page(
    state: &AppState,
    status: StatusCode,
    reference: &str,
    raw: Option<&str>,
    problem: Option<String>,
) -> Answer {
    let kept = dashboard::counts(state).await?;
    let view = domain::paper_view(&state.pool, &kept, reference).await?;
    let params = Params::parse(raw, &["done", "reviewer"])?;
    let notice = paper_notice(&params, &view.candidates)?;
    let paper = &view.paper;
    let page = PaperPage {
        layout: layout(state, &format!("Reviewers of {}", paper.reference), PATH).await?,
        notice,
        problem,
        open: paper.state == "submitted",
        state: crate::decisions::state_label(&paper.state).to_owned(),
        code: paper.review_code.clone().unwrap_or_default(),
        href: paper_href(&paper.reference),
        view,
    };
    render(status, &page)
}

/// GET [`PAPER`].
pub async fn paper(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    Path(reference): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answer {
    paper_page(&state, StatusCode::OK, &reference, raw.as_deref(), None).await
}

/// What a paper page's form does.
#[derive(Clone, Copy)]
enum ByHand {
    Assign,
    Unassign,
    Conflict,
}

/// A paper page's form: `reviewer` (an id) to the domain's action; 303 back with the notice
/// of `done`, or the paper page with the refusal (an unknown paper stays the site's 404).
async fn by_hand(state: AppState, who: Organiser, reference: String, body: Bytes, what: ByHand, done: &str) -> Answer {
    let result = async {
        if matches!(what, ByHand::Assign) {
            domain::before_the_deadline(&state.pool, state.clock.now()).await?;
        }
        let reviewer = one(&fields(&body), "reviewer")?.to_owned();
        let (pool, now, actor) = (&state.pool, state.clock.now(), who.actor());
        Ok(match what {
            ByHand::Assign => domain::assign_one(pool, now, &actor, &reference, &reviewer).await?,
            ByHand::Unassign => domain::unassign(pool, now, &actor, &reference, &reviewer).await?,
            ByHand::Conflict => domain::declare_conflict(pool, now, &actor, &reference, &reviewer).await?,
        })
    };
    match result.await {
        Ok(changed) => {
            Ok(see_other(&format!("{}?done={done}&reviewer={}", paper_href(&changed.reference), changed.reviewer_id)))
        }
        Err(err @ (AppError::BadRequest(_) | AppError::Conflict(_) | AppError::Unprocessable { .. })) => {
            paper_page(&state, err.status(), &reference, None, Some(err.public_message())).await
        }
        Err(other) => Err(other),
    }
}

/// POST [`ASSIGN`]: stages the assignment ([`domain::assign_one`]).
pub async fn assign_one(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(reference): Path<String>,
    body: Bytes,
) -> Answer {
    by_hand(state, organiser, reference, body, ByHand::Assign, "assigned").await
}

/// POST [`UNASSIGN`]: withdraws the reviewer's assignment of this paper ([`domain::unassign`]).
pub async fn unassign(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(reference): Path<String>,
    body: Bytes,
) -> Answer {
    by_hand(state, organiser, reference, body, ByHand::Unassign, "unassigned").await
}

/// POST [`CONFLICT`]: records a conflict declared by the organiser, withdrawing the
/// reviewer's assignment of this paper if any ([`domain::declare_conflict`]).
pub async fn declare_conflict(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(reference): Path<String>,
    body: Bytes,
) -> Answer {
    by_hand(state, organiser, reference, body, ByHand::Conflict, "conflict").await
}
