//! The reviewers, as organisers invite and remove them (issue 32 item 1, DESIGN.md section 15).
//!
//! - `GET /organiser/reviewers` ([`PATH`], `page`): the reviewers, 50 a page as the other
//!   organisers' lists (removed ones last, by name), each with their affiliation, topics,
//!   state, when they were invited and answered, the papers they hold (assignments not
//!   withdrawn) and those handed back; the counts by state; the form that invites one; the
//!   form that invites many from a pasted CSV (`crate::review::roster`).
//! - `POST /organiser/reviewers/invite` ([`INVITE`]: `name`, `email`, `affiliation`, `topics`
//!   once per chosen focus area): stores the reviewer as invited and mails the invitation
//!   (`reviewer.invited`). A removed reviewer invited again is invited again, on their row.
//! - `POST /organiser/reviewers/import` ([`IMPORT`]: `reviewers`, the CSV): every row
//!   invited in one transaction, or nobody when one row is bad (each bad row named by line).
//! - `POST /organiser/reviewers/{id}/resend`: a new invitation with a new link; the old link
//!   stops working (`reviewer.invitation_resent`).
//! - `POST /organiser/reviewers/{id}/remove`: the reviewer is removed, their reviewer sessions
//!   end at once, and their unfinished assignments are handed back (`reviewer.removed`, with
//!   how many); submitted reviews stay.
//!
//! Each change is one function of `crate::review::reviewers` (one transaction with its audit
//! entry and its mail, through the outbox); the handler answers 303 back to [`PATH`] with a
//! notice (`done`, `id`, `count`), so a reload posts nothing. A bad form is the page again with each field's error and what was typed (422); a
//! change to a reviewer whose state no longer allows it is 409; nothing is stored then.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::dashboard;
use super::form::fields;
use super::query::Params;
use super::session::SignedIn;
use super::sign_in::layout;
use crate::error::{AppError, Refused};
use crate::handlers::render::{render, see_other};
use crate::handlers::review::invitation;
use crate::handlers::state::AppState;
use crate::repo::content::lines;
use crate::review::reviewers::{self as domain, Typed};
use crate::review::roster;
pub use crate::views::organiser::reviewers::PATH;
use crate::views::organiser::reviewers::{ImportForm, InviteForm, ReviewersPage, row};
use crate::views::organiser::shared::{Pager, shown, word};

/// Where "Invite" posts.
pub const INVITE: &str = "/organiser/reviewers/invite";
/// Where "Invite everyone" (the CSV) posts.
pub const IMPORT: &str = "/organiser/reviewers/import";

/// The conference's focus areas, from the content snapshot.
async fn focus_areas(state: &AppState) -> Result<Vec<String>, AppError> {
    let snapshot = state.content.snapshot().await;
    Ok(lines(&snapshot.site()?.focus_areas).into_iter().map(str::to_owned).collect())
}

/// What the page says on top after a form: `done` (and `id` or `count`) of the 303.
async fn notice(state: &AppState, raw: Option<&str>) -> Result<Option<String>, AppError> {
    let params = Params::parse(raw, &["done", "id", "count"])?;
    let Some(done) = params.get("done") else { return Ok(None) };
    let number = |name: &str| -> Result<i64, AppError> {
        params
            .get(name)
            .and_then(|v| v.parse::<i64>().ok())
            .ok_or_else(|| AppError::BadRequest(format!("\"done={}\" needs a number \"{name}\".", shown(done))))
    };
    if done == "imported" {
        let count = number("count")?;
        let people = if count == 1 { "1 reviewer was".to_owned() } else { format!("{count} reviewers were") };
        return Ok(Some(format!("{people} invited; each gets an invitation mail of their own.")));
    }
    let id = number("id")?;
    let Some(reviewer) = domain::reviewer(&state.pool, id).await? else {
        return Err(AppError::BadRequest(format!("No reviewer has the number {id}.")));
    };
    let who = format!("{} ({})", reviewer.name, reviewer.email);
    Ok(Some(match done {
        "invited" => format!("{who} is invited: the invitation mail with its accept and decline links is on its way."),
        "resent" => format!("A new invitation went to {who}; the links of the earlier one no longer work."),
        "removed" => {
            let papers = match domain::handed_back_at_removal(&state.pool, id).await? {
                1 => "1 unfinished assignment was".to_owned(),
                n => format!("{n} unfinished assignments were"),
            };
            format!("{who} is removed: their sessions ended, and {papers} handed back. Reviews they submitted stay.")
        }
        other => {
            return Err(AppError::BadRequest(format!(
                "\"{}\" is not something this page did. It knows: invited, imported, resent, removed.",
                shown(other)
            )));
        }
    }))
}

/// The page as it is now, answered with `status`.
async fn page(
    state: &AppState,
    status: StatusCode,
    notice: Option<String>,
    problem: Option<String>,
    invite: InviteForm,
    import: ImportForm,
    page_number: i64,
) -> Result<Response, AppError> {
    let counts = dashboard::counts(state).await?;
    let listing = domain::listing(&state.pool, &counts, page_number).await?;
    let zone = state.event_zone().await;
    let rows = listing.rows.into_iter().map(|r| row(r, &zone)).collect();
    let page = ReviewersPage {
        layout: layout(state, "Reviewers", PATH).await?,
        notice,
        problem,
        summary: listing.by_state.iter().map(|(s, count)| (word(s), *count)).collect(),
        rows,
        // Links with the page alone: a notice of the previous form is not carried along.
        pager: Pager::new(PATH, "", page_number, listing.total),
        areas: focus_areas(state).await?,
        invite,
        import,
        invite_action: INVITE,
        import_action: IMPORT,
        max_rows: roster::MAX_ROWS,
        name_max: roster::NAME_MAX_CHARS,
        affiliation_max: roster::AFFILIATION_MAX_CHARS,
    };
    render(status, &page)
}

/// GET `/organiser/reviewers`.
pub async fn list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let notice = notice(&state, raw.as_deref()).await?;
    let page_number = Params::parse(raw.as_deref(), &["done", "id", "count"])?.page()?;
    page(&state, StatusCode::OK, notice, None, InviteForm::default(), ImportForm::default(), page_number).await
}

/// The value of a field sent at most once (empty when absent); a 400 when it repeats.
fn single(fields: &[(String, String)], name: &str) -> Result<String, AppError> {
    let mut values = fields.iter().filter(|(k, _)| k == name);
    match (values.next(), values.next()) {
        (None, _) => Ok(String::new()),
        (Some((_, value)), None) => Ok(value.clone()),
        (Some(_), Some(_)) => Err(AppError::BadRequest(format!("The field \"{name}\" is given twice."))),
    }
}

/// POST `/organiser/reviewers/invite` ([`domain::invite`]).
pub async fn invite(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let fields = fields(&body);
    let mut typed = InviteForm {
        name: single(&fields, "name")?,
        email: single(&fields, "email")?,
        affiliation: single(&fields, "affiliation")?,
        topics: fields.iter().filter(|(k, _)| k == "topics").map(|(_, v)| v.clone()).collect(),
        errors: BTreeMap::new(),
    };
    let areas = focus_areas(&state).await?;
    let area_refs: Vec<&str> = areas.iter().map(String::as_str).collect();
    let topic_refs: Vec<&str> = typed.topics.iter().map(String::as_str).collect();
    let sent = Typed { name: &typed.name, email: &typed.email, affiliation: &typed.affiliation, topics: &topic_refs };
    let links = invitation::links(&state.config);
    let now = state.clock.now();
    match domain::invite(&state.pool, &state.config, &links, now, &organiser.actor(), sent, &area_refs).await {
        Ok(invited) => Ok(see_other(&format!("{PATH}?done=invited&id={}", invited.id))),
        Err(Refused::Invalid { message, errors }) => {
            typed.errors = errors;
            page(&state, StatusCode::UNPROCESSABLE_ENTITY, None, Some(message), typed, ImportForm::default(), 1).await
        }
        Err(other) => Err(other.into()),
    }
}

/// POST `/organiser/reviewers/import`: `reviewers`, the pasted CSV ([`domain::import`]).
pub async fn import(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let text = single(&fields(&body), "reviewers")?;
    let areas = focus_areas(&state).await?;
    let area_refs: Vec<&str> = areas.iter().map(String::as_str).collect();
    let links = invitation::links(&state.config);
    let now = state.clock.now();
    match domain::import(&state.pool, &state.config, &links, now, &organiser.actor(), &text, &area_refs).await {
        Ok(imported) => Ok(see_other(&format!("{PATH}?done=imported&count={}", imported.count))),
        Err(Refused::Invalid { message, errors }) => {
            let import = ImportForm { text, problem: Some(message), lines: errors.into_values().collect() };
            let problem = Some("Nobody was invited: the pasted list has problems, listed under it.".to_owned());
            page(&state, StatusCode::UNPROCESSABLE_ENTITY, None, problem, InviteForm::default(), import, 1).await
        }
        Err(other) => Err(other.into()),
    }
}

/// The page again with a refusal's message (a 409: the reviewer's state changed, nothing
/// changed); any other refusal as its status.
async fn refused(state: &AppState, refused: Refused) -> Result<Response, AppError> {
    match refused {
        Refused::NotAllowed(problem) | Refused::Stale(problem) => {
            let (invite, import) = (InviteForm::default(), ImportForm::default());
            page(state, StatusCode::CONFLICT, None, Some(problem), invite, import, 1).await
        }
        other => Err(other.into()),
    }
}

/// A reviewer's number from the address; 404 for anything else.
fn reviewer_id(segment: &str) -> Result<i64, AppError> {
    segment
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| AppError::NotFound(format!("No reviewer has the number {}.", shown(segment))))
}

/// POST `/organiser/reviewers/{id}/resend`: a new invitation for an invited reviewer
/// ([`domain::resend`]).
pub async fn resend(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let id = reviewer_id(&id)?;
    let links = invitation::links(&state.config);
    match domain::resend(&state.pool, &state.config, &links, state.clock.now(), &organiser.actor(), id).await {
        Ok(resent) => Ok(see_other(&format!("{PATH}?done=resent&id={}", resent.id))),
        Err(err) => refused(&state, err).await,
    }
}

/// POST `/organiser/reviewers/{id}/remove`: removes the reviewer, ends their reviewer
/// sessions and hands back their unfinished assignments ([`domain::remove`]).
pub async fn remove(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let id = reviewer_id(&id)?;
    match domain::remove(&state.pool, state.clock.now(), &organiser.actor(), id).await {
        Ok(removed) => Ok(see_other(&format!("{PATH}?done=removed&id={}", removed.id))),
        Err(err) => refused(&state, err).await,
    }
}
