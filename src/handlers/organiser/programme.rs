//! The organisers' programme pages (issue 31 items 2 and 3, DESIGN.md section 14), adapters
//! over `crate::programme`: [`PATH`] shows the draft ([`overview`]: sessions by day, talks,
//! conflicts, the lock, what publishing would change); [`PLACE`], [`MOVE`] and [`REMOVE`]
//! place, swap and take out talks ([`placing`]); [`LOCK`] and [`PAPER`] are the lock on
//! authors' edits and a paper's public abstract and presenter ([`public_fields`]);
//! [`PUBLISH`] publishes the draft ([`publish::publish_version`]).
//!
//! Every change answers 303 back to [`PATH`] with a notice (`done`, `paper`, `version`), so a
//! reload posts nothing. A refused form is the page again with the message: 400 for a bad
//! form, 404, or 409 for publishing over conflicts or over a version someone else just
//! published. Nothing is changed by a refused form.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::form::{fields, one};
use super::query::Params;
use super::session::SignedIn;
use super::sign_in::layout;
use crate::error::AppError;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::programme::abstracts;
use crate::programme::draft::Paper;
use crate::programme::moved_mail::MovedTalkMail;
use crate::programme::overview::{self, Overview, POSTER_IN_ORAL};
use crate::programme::placing::{self, Direction, Minutes, Placed};
use crate::programme::public_fields;
use crate::programme::publish;
use crate::programme::{Published, Talk};
pub use crate::views::organiser::programme::{LOCK, MOVE, PATH, PLACE, PUBLISH, REMOVE};
use crate::views::organiser::programme::{PaperPage, ProgrammePage, paper_href, url_segment};
use crate::views::organiser::shared::{self as view, shown};

/// A paper's public abstract and presenter (route pattern).
pub const PAPER: &str = "/organiser/programme/papers/{reference}";

/// What the page says on top after a form: `done` (and `paper`, `version`) of the 303.
async fn notice(state: &AppState, raw: Option<&str>, overview: &Overview) -> Result<Option<String>, AppError> {
    let params = Params::parse(raw, &["done", "paper", "version"])?;
    let Some(done) = params.get("done") else {
        if params.get("paper").is_some() || params.get("version").is_some() {
            return Err(AppError::BadRequest("\"paper\" and \"version\" come with \"done\" only.".into()));
        }
        return Ok(None);
    };
    let title = || -> Result<String, AppError> {
        let reference = params.get("paper").ok_or_else(|| {
            AppError::BadRequest(format!("\"done={}\" needs the paper it was done to (\"paper\").", shown(done)))
        })?;
        Ok(overview
            .title_of(reference)
            .map_or_else(|| format!("Paper {}", shown(reference)), |title| format!("“{title}”")))
    };
    let text = match done {
        "placed" => {
            let mut text = format!("{} is placed; the session below shows it.", title()?);
            if overview.poster_in_oral(params.get("paper").unwrap_or_default()) {
                text.push_str(" Warning: ");
                text.push_str(POSTER_IN_ORAL);
            }
            text
        }
        "moved" => format!("{} moved; the session below shows its new place.", title()?),
        "removed" => format!("{} was taken out of the programme.", title()?),
        "paper" => format!("The public abstract and presenter of {} were saved.", title()?),
        "locked" => "Authors can no longer edit their public abstract and presenter; organisers still can.".to_owned(),
        "unlocked" => "Authors can edit their public abstract and presenter again.".to_owned(),
        "published" => {
            let number = params.get("version").and_then(|v| v.parse::<i64>().ok()).ok_or_else(|| {
                AppError::BadRequest("\"done=published\" needs the version's number (\"version\").".into())
            })?;
            match overview::version_name(&state.pool, number).await? {
                Some(name) => format!(
                    "Version {number} “{name}” is published. Visitors see it on the programme within seconds, and authors of moved talks are mailed."
                ),
                None => return Err(AppError::BadRequest(format!("No version {number} has been published."))),
            }
        }
        other => {
            return Err(AppError::BadRequest(format!(
                "\"{}\" is not something this page did. It knows: placed, moved, removed, paper, locked, unlocked, published.",
                shown(other)
            )));
        }
    };
    Ok(Some(text))
}

/// The programme page as it is now ([`overview::overview`]), answered with `status`.
async fn page(
    state: &AppState,
    status: StatusCode,
    notice_query: Option<&str>,
    problem: Option<String>,
    name: String,
) -> Result<Response, AppError> {
    let overview = overview::overview(&state.pool).await?;
    let notice = notice(state, notice_query, &overview).await?;
    let zone = state.event_zone().await;
    let bench = &overview.bench;
    let page = ProgrammePage {
        layout: layout(state, "Programme", PATH).await?,
        notice,
        problem,
        zone: zone.name.clone(),
        latest: bench.previous.as_ref().map(|v| (v.number, v.name.clone(), view::when(&v.published_at, &zone))),
        next_number: bench.next_number(),
        talk_count: bench.draft.talks.len(),
        session_count: bench.draft.sessions.len(),
        name,
        lock: overview.lock.as_ref().map(|(at, by)| (view::when(at, &zone), by.clone())),
        conflicts: overview.conflicts,
        days: overview.days,
        stray: overview.stray,
        waiting: overview.waiting,
        papers: overview.papers,
        changes: overview.changes,
    };
    render(status, &page)
}

/// GET `/organiser/programme`.
pub async fn show(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    page(&state, StatusCode::OK, raw.as_deref(), None, String::new()).await
}

/// `result`, with a refused form shown as the programme page again with the message (its
/// status: 400, 404 or 409) and `name` as typed. A 500 stays the site's.
async fn or_page(state: &AppState, result: Result<Response, AppError>, name: String) -> Result<Response, AppError> {
    match result {
        Ok(response) => Ok(response),
        Err(err @ (AppError::BadRequest(_) | AppError::NotFound(_) | AppError::Conflict(_))) => {
            page(state, err.status(), None, Some(err.public_message()), name).await
        }
        Err(other) => Err(other),
    }
}

/// The 303 back to the page with the notice of `done` to the paper of `placed`.
fn done(done: &str, placed: &Placed) -> Response {
    see_other(&format!("{PATH}?done={done}&paper={}", url_segment(&placed.reference)))
}

/// POST `/organiser/programme/place`: `paper` (an accepted submission's reference), `session`
/// (a technical or poster session's slug), `minutes` ([`placing::place`]).
pub async fn place(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let fields = fields(&body);
        let (reference, session) = (one(&fields, "paper")?, one(&fields, "session")?);
        let minutes = Minutes::parse(one(&fields, "minutes")?)?;
        let (now, by) = (state.clock.now(), organiser.actor());
        Ok(done("placed", &placing::place(&state.pool, now, &by, reference, session, minutes).await?))
    }
    .await;
    or_page(&state, result, String::new()).await
}

/// POST `/organiser/programme/move`: `paper`, `direction` (`earlier` or `later`)
/// ([`placing::move_talk`]).
pub async fn move_talk(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let fields = fields(&body);
        let reference = one(&fields, "paper")?;
        let direction = Direction::parse(one(&fields, "direction")?)?;
        let (now, by) = (state.clock.now(), organiser.actor());
        Ok(done("moved", &placing::move_talk(&state.pool, now, &by, reference, direction).await?))
    }
    .await;
    or_page(&state, result, String::new()).await
}

/// POST `/organiser/programme/remove`: `paper` ([`placing::remove`]).
pub async fn remove(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let reference = one(&fields(&body), "paper")?.to_owned();
        Ok(done("removed", &placing::remove(&state.pool, state.clock.now(), &organiser.actor(), &reference).await?))
    }
    .await;
    or_page(&state, result, String::new()).await
}

/// POST `/organiser/programme/lock`: `lock` = `yes` (authors can no longer edit their public
/// abstract and presenter) or `no` (they can again) ([`public_fields::set_lock`]).
pub async fn lock(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let lock = public_fields::lock_wanted(one(&fields(&body), "lock")?)?;
        let done = public_fields::set_lock(&state.pool, state.clock.now(), &organiser.actor(), lock).await?;
        Ok(see_other(&format!("{PATH}?done={}", if done.locked { "locked" } else { "unlocked" })))
    }
    .await;
    or_page(&state, result, String::new()).await
}

/// POST `/organiser/programme/publish`: `name` (at most [`publish::NAME_MAX_CHARS`] characters) and
/// `expected` (the version number the page offered) ([`publish::publish_version`]).
pub async fn publish_version(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let fields = fields(&body);
    let typed = fields.iter().find(|(k, _)| k == "name").map(|(_, v)| v.clone()).unwrap_or_default();
    let result = async {
        let (name, expected) = (one(&fields, "name")?, one(&fields, "expected")?);
        let snapshot = state.content.snapshot().await;
        let moved = MovedTalkMail::new(snapshot.site()?, &state.config, snapshot.zone.clone());
        let mail = |version: &Published, talk: &Talk, paper: &Paper| moved.mail(version, talk, paper);
        let now = state.clock.now();
        let version = publish::publish_version(&state.pool, now, &organiser.actor(), expected, name, &mail).await?;
        // This instance serves the new version at once (the others within a poll):
        // `/schedule/changes` and the programme pages show it on the next request.
        if let Err(err) = state.content.reload().await {
            tracing::warn!(error = %err, "content reload after publishing failed; the watcher retries");
        }
        Ok(see_other(&format!("{PATH}?done=published&version={}", version.number)))
    }
    .await;
    or_page(&state, result, typed).await
}

/// The page of paper `reference` ([`public_fields::paper_view`]), with the fields `typed`
/// (abstract, presenter) in place of the stored ones after a refusal.
async fn paper_page(
    state: &AppState,
    status: StatusCode,
    reference: &str,
    typed: Option<(String, String)>,
    problem: Option<String>,
) -> Result<Response, AppError> {
    let found = public_fields::paper_view(&state.pool, reference).await?;
    let zone = state.event_zone().await;
    let (public_abstract, presenter) = typed.unwrap_or((found.public_abstract, found.presenter));
    let paper = found.paper;
    let page = PaperPage {
        layout: layout(state, &format!("Programme: {}", paper.reference), PATH).await?,
        action: paper_href(&paper.reference),
        state: crate::decisions::state_label(&paper.state).to_owned(),
        paper,
        placed: found.placed,
        words: abstracts::word_count(&public_abstract),
        presenter,
        public_abstract,
        problem,
        lock: found.lock.map(|(at, by)| (view::when(&at, &zone), by)),
    };
    render(status, &page)
}

/// GET `/organiser/programme/papers/{reference}`.
pub async fn paper(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    Path(reference): Path<String>,
) -> Result<Response, AppError> {
    paper_page(&state, StatusCode::OK, &reference, None, None).await
}

/// POST `/organiser/programme/papers/{reference}`: `abstract` (at most
/// [`abstracts::ABSTRACT_MAX_WORDS`] words) and `presenter` (one of the paper's authors)
/// ([`public_fields::edit_paper`]); a refused form is the paper's page again with what was
/// typed.
pub async fn edit_paper(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(reference): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let fields = fields(&body);
    let typed = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default();
    let (typed_abstract, typed_presenter) = (typed("abstract"), typed("presenter"));
    let result = async {
        let (text, chosen) = (one(&fields, "abstract")?, one(&fields, "presenter")?);
        let (now, by) = (state.clock.now(), organiser.actor());
        Ok(done("paper", &public_fields::edit_paper(&state.pool, now, &by, &reference, text, chosen).await?))
    }
    .await;
    match result {
        Ok(response) => Ok(response),
        Err(err @ AppError::BadRequest(_)) => {
            let message = err.public_message();
            paper_page(&state, err.status(), &reference, Some((typed_abstract, typed_presenter)), Some(message)).await
        }
        Err(other) => Err(other),
    }
}
