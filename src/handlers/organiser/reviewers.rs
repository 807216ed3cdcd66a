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
//! Each change is one transaction with its audit entry and its mail (through the outbox), and
//! answers 303 back to [`PATH`] with a notice (`done`, `id`, `count`), so a reload posts
//! nothing. A bad form is the page again with each field's error and what was typed (422); a
//! change to a reviewer whose state no longer allows it is 409; nothing is stored then.

use std::collections::{BTreeMap, HashMap};

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;

use super::dashboard;
use super::form::fields;
use super::query::{Pager, Params};
use super::session::{Organiser, SignedIn};
use super::sign_in::layout;
use super::view::word;
use crate::db::Connection;
use crate::error::AppError;
use crate::handlers::layout::Layout;
use crate::handlers::render::{render, see_other};
use crate::handlers::review::invitation;
use crate::handlers::review::session::REVIEWER_HOME;
use crate::handlers::state::AppState;
use crate::mail::outbox::timestamp;
use crate::mail::{self, Context};
use crate::repo::audit;
use crate::repo::content::lines;
use crate::repo::organisers as sessions;
use crate::repo::reviewers::{self as store, Invitation};
use crate::review::roster::{self, ImportError, Invitee};
use crate::sign_in::roles::Role;
use crate::sign_in::secrets::Secret;

/// The reviewers' page.
pub const PATH: &str = "/organiser/reviewers";
/// Where "Invite" posts.
pub const INVITE: &str = "/organiser/reviewers/invite";
/// Where "Invite everyone" (the CSV) posts.
pub const IMPORT: &str = "/organiser/reviewers/import";

/// The states in the order the summary counts them, with their words.
const STATES: [&str; 4] = ["invited", "accepted", "declined", "removed"];

/// A reviewer as the page lists them.
struct Row {
    id: i64,
    name: String,
    email: String,
    affiliation: String,
    topics: String,
    state: String,
    invited: super::view::Moment,
    /// When they accepted or declined; `None` before.
    answered: Option<super::view::Moment>,
    papers: i64,
    handed_back: i64,
    /// Whether "Send again" is offered (an open invitation).
    resend: bool,
    /// Whether "Remove" is offered.
    remove: bool,
}

/// The one-reviewer form as typed, with its field errors.
#[derive(Default)]
struct InviteForm {
    name: String,
    email: String,
    affiliation: String,
    /// The chosen focus areas, as sent.
    topics: Vec<String>,
    /// Field name → message.
    errors: BTreeMap<&'static str, String>,
}

impl InviteForm {
    fn error(&self, field: &str) -> Option<&String> {
        self.errors.get(field)
    }

    fn chose(&self, area: &str) -> bool {
        self.topics.iter().any(|t| t.trim().eq_ignore_ascii_case(area))
    }
}

/// The CSV form as pasted, with what is wrong with it.
#[derive(Default)]
struct ImportForm {
    text: String,
    /// Why nobody was invited.
    problem: Option<String>,
    /// Each bad row: `Line 3: ...`.
    lines: Vec<String>,
}

#[derive(Template)]
#[template(path = "organiser/reviewers.html")]
struct ReviewersPage {
    layout: Layout,
    notice: Option<String>,
    problem: Option<String>,
    summary: Vec<(String, i64)>,
    rows: Vec<Row>,
    /// This page of the reviewers and the links to its neighbours.
    pager: Pager,
    /// The conference's focus areas (`site.focus_areas`).
    areas: Vec<String>,
    invite: InviteForm,
    import: ImportForm,
    invite_action: &'static str,
    import_action: &'static str,
    max_rows: usize,
    name_max: usize,
    affiliation_max: usize,
}

impl ReviewersPage {
    fn resend_action(&self, id: &i64) -> String {
        format!("{PATH}/{id}/resend")
    }

    fn remove_action(&self, id: &i64) -> String {
        format!("{PATH}/{id}/remove")
    }
}

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
        params.get(name).and_then(|v| v.parse::<i64>().ok()).ok_or_else(|| {
            AppError::BadRequest(format!("\"done={}\" needs a number \"{name}\".", super::view::shown(done)))
        })
    };
    if done == "imported" {
        let count = number("count")?;
        let people = if count == 1 { "1 reviewer was".to_owned() } else { format!("{count} reviewers were") };
        return Ok(Some(format!("{people} invited; each gets an invitation mail of their own.")));
    }
    let id = number("id")?;
    let mut conn = state.pool.acquire().await?;
    let Some(reviewer) = store::by_id(&mut conn, id).await? else {
        return Err(AppError::BadRequest(format!("No reviewer has the number {id}.")));
    };
    let who = format!("{} ({})", reviewer.name, reviewer.email);
    Ok(Some(match done {
        "invited" => format!("{who} is invited: the invitation mail with its accept and decline links is on its way."),
        "resent" => format!("A new invitation went to {who}; the links of the earlier one no longer work."),
        "removed" => {
            let entries = audit::of_object(&state.pool, "reviewer", &id.to_string()).await?;
            let handed_back = entries
                .iter()
                .rev()
                .find(|e| e.action == "reviewer.removed")
                .and_then(|e| serde_json::from_str::<serde_json::Value>(&e.details).ok())
                .and_then(|d| d["handed_back"].as_i64())
                .unwrap_or(0);
            let papers = match handed_back {
                1 => "1 unfinished assignment was".to_owned(),
                n => format!("{n} unfinished assignments were"),
            };
            format!("{who} is removed: their sessions ended, and {papers} handed back. Reviews they submitted stay.")
        }
        other => {
            return Err(AppError::BadRequest(format!(
                "\"{}\" is not something this page did. It knows: invited, imported, resent, removed.",
                super::view::shown(other)
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
    let (total, listed) = store::list(&state.pool, page_number, &counts).await?;
    let by_state = store::states_counted(&state.pool, &counts).await?;
    let summary = STATES
        .iter()
        .map(|s| (word(s), by_state.iter().find(|(state, _)| state == s).map_or(0, |(_, count)| *count)))
        .filter(|(_, count)| *count > 0)
        .collect();
    let zone = super::view::event_zone(state).await;
    let rows = listed
        .into_iter()
        .map(|r| Row {
            resend: r.state == "invited",
            remove: r.state != "removed",
            id: r.id,
            name: r.name,
            email: r.email,
            affiliation: r.affiliation,
            topics: lines(&r.topics).join(", "),
            state: word(&r.state),
            invited: super::view::when(&r.invited_at, &zone),
            answered: r.answered_at.as_deref().map(|at| super::view::when(at, &zone)),
            papers: r.live_papers,
            handed_back: r.handed_back,
        })
        .collect();
    let page = ReviewersPage {
        layout: layout(state, "Reviewers", PATH).await?,
        notice,
        problem,
        summary,
        rows,
        // Links with the page alone: a notice of the previous form is not carried along.
        pager: Pager::new(PATH, &Params::default(), page_number, total),
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

#[derive(Template)]
#[template(path = "mail/reviewer_invitation.txt")]
struct InvitationText<'a> {
    site: &'a mail::MailSite,
    name: &'a str,
    email: &'a str,
    topics: &'a [String],
    accept: &'a str,
    decline: &'a str,
    sign_in: &'a str,
}

#[derive(Template)]
#[template(path = "mail/reviewer_invitation.html")]
struct InvitationHtml<'a> {
    site: &'a mail::MailSite,
    name: &'a str,
    email: &'a str,
    topics: &'a [String],
    accept: &'a str,
    decline: &'a str,
    sign_in: &'a str,
}

/// The invitation mail to `invitee`, whose link carries `token`: who invites (the
/// conference), the topics, and the link twice, with the answer each puts first.
fn invitation_mail(
    state: &AppState,
    ctx: &Context,
    invitee: &Invitee,
    token: &str,
) -> Result<mail::OutgoingMail, AppError> {
    let link = invitation::link(&state.config, token);
    let (accept, decline) = (format!("{link}?answer=accept"), format!("{link}?answer=decline"));
    let sign_in = state.config.absolute(REVIEWER_HOME);
    let (site, name, email, topics) = (&ctx.site, invitee.name.as_str(), invitee.email.as_str(), &invitee.topics[..]);
    let text = InvitationText { site, name, email, topics, accept: &accept, decline: &decline, sign_in: &sign_in };
    let html = InvitationHtml { site, name, email, topics, accept: &accept, decline: &decline, sign_in: &sign_in };
    mail::compose(email, ctx.subject("Invitation to review"), &text, &html)
        .map_err(|e| AppError::internal("reviewer invitation mail", e))
}

/// Queues the invitation mail of a fresh `secret` for reviewer `id` on `conn`; the audit
/// log's description of it.
async fn queue_invitation(
    state: &AppState,
    conn: &mut Connection,
    ctx: &Context,
    id: i64,
    invitee: &Invitee,
    secret: &Secret,
) -> Result<serde_json::Value, AppError> {
    let mail = invitation_mail(state, ctx, invitee, &secret.token)?
        // One mail per invitation token, whoever retries the transaction.
        .dedupe_key(format!("reviewer-invitation:{id}:{}", &secret.hash[..16]));
    let queued = mail::enqueue(conn, &mail).await?;
    Ok(json!({ "to": mail.to, "subject": mail.subject, "queued": queued }))
}

/// Invites `invitee` on `conn` (the caller checked the address is not taken): a new row, or
/// the removed reviewer's row again; the mail and the audit entry. The reviewer's id.
async fn invite_one(
    state: &AppState,
    conn: &mut Connection,
    ctx: &Context,
    organiser: &Organiser,
    invitee: &Invitee,
    via: &str,
    at: &str,
) -> Result<i64, AppError> {
    let secret = Secret::generate();
    let topics = invitee.topics_text();
    let invitation = Invitation {
        email: &invitee.email,
        name: &invitee.name,
        affiliation: &invitee.affiliation,
        topics: &topics,
        hash: &secret.hash,
        at,
    };
    let (id, again) = match store::reinvite(conn, &invitation).await? {
        Some(id) => (id, true),
        None => (store::insert_invited(conn, &invitation).await.map_err(|e| taken_on_race(e, &invitee.email))?, false),
    };
    let mail = queue_invitation(state, conn, ctx, id, invitee, &secret).await?;
    let id_text = id.to_string();
    let mut entry = organiser.entry(at, "reviewer.invited").about("reviewer", &id_text);
    entry.details = json!({
        "state": { "before": if again { Some("removed") } else { None }, "after": "invited" },
        "name": invitee.name,
        "email": invitee.email,
        "affiliation": invitee.affiliation,
        "topics": invitee.topics.join(", "),
        "via": via,
        "mail": mail,
    });
    audit::record(conn, &entry).await?;
    Ok(id)
}

/// A unique-address violation (another organiser invited the same address a moment ago, on
/// PostgreSQL) as the same 422 the check gives.
fn taken_on_race(err: sqlx::Error, email: &str) -> AppError {
    match &err {
        sqlx::Error::Database(db) if db.is_unique_violation() => AppError::Unprocessable {
            message: format!("{email} was invited a moment ago, by another request."),
            errors: BTreeMap::from([(
                "email".to_owned(),
                format!("{email} has just been invited by another request."),
            )]),
        },
        _ => err.into(),
    }
}

/// The states of the stored addresses.
async fn stored_states(conn: &mut Connection) -> Result<HashMap<String, String>, AppError> {
    Ok(store::states(conn).await?.into_iter().collect())
}

/// POST `/organiser/reviewers/invite`.
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
    let checked = roster::check(&typed.name, &typed.email, &typed.affiliation, &topic_refs, &area_refs);
    let invitee = match checked {
        Ok(invitee) => invitee,
        Err(errors) => {
            typed.errors = errors.into_iter().map(|e| (e.field.name(), e.message)).collect();
            return refused(&state, typed).await;
        }
    };
    let ctx = Context::load(&state.pool, &state.config).await?;
    let at = timestamp(state.clock.now());
    let mut tx = crate::db::begin_write(&state.pool).await?;
    let states = stored_states(&mut tx).await?;
    if let Some(message) = roster::taken(&invitee.email, states.get(&invitee.email).map(String::as_str)) {
        drop(tx);
        typed.errors.insert("email", message);
        return refused(&state, typed).await;
    }
    let id = match invite_one(&state, &mut tx, &ctx, &organiser, &invitee, "form", &at).await {
        Ok(id) => id,
        Err(AppError::Unprocessable { errors, .. }) => {
            drop(tx);
            typed.errors.extend(errors.into_values().map(|message| ("email", message)));
            return refused(&state, typed).await;
        }
        Err(other) => return Err(other),
    };
    tx.commit().await?;
    Ok(see_other(&format!("{PATH}?done=invited&id={id}")))
}

/// The page again with the one-reviewer form as typed and its errors (422).
async fn refused(state: &AppState, typed: InviteForm) -> Result<Response, AppError> {
    let problem = Some("Nobody was invited: please correct the form below.".to_owned());
    page(state, StatusCode::UNPROCESSABLE_ENTITY, None, problem, typed, ImportForm::default(), 1).await
}

/// POST `/organiser/reviewers/import`: `reviewers`, the pasted CSV.
pub async fn import(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let fields = fields(&body);
    let text = single(&fields, "reviewers")?;
    let areas = focus_areas(&state).await?;
    let area_refs: Vec<&str> = areas.iter().map(String::as_str).collect();
    let rows = match roster::parse(&text, &area_refs) {
        Ok(rows) => rows,
        Err(err) => return import_refused(&state, text, err).await,
    };
    let ctx = Context::load(&state.pool, &state.config).await?;
    let at = timestamp(state.clock.now());
    let mut tx = crate::db::begin_write(&state.pool).await?;
    let states = stored_states(&mut tx).await?;
    let taken: Vec<roster::RowError> = rows
        .iter()
        .filter_map(|row| {
            let state = states.get(&row.invitee.email).map(String::as_str);
            roster::taken(&row.invitee.email, state).map(|message| roster::RowError { line: row.line, message })
        })
        .collect();
    if !taken.is_empty() {
        drop(tx);
        return import_refused(&state, text, ImportError::Rows(taken)).await;
    }
    for row in &rows {
        match invite_one(&state, &mut tx, &ctx, &organiser, &row.invitee, "csv", &at).await {
            Ok(_) => {}
            Err(AppError::Unprocessable { message, .. }) => {
                drop(tx);
                let error = roster::RowError { line: row.line, message };
                return import_refused(&state, text, ImportError::Rows(vec![error])).await;
            }
            Err(other) => return Err(other),
        }
    }
    tx.commit().await?;
    Ok(see_other(&format!("{PATH}?done=imported&count={}", rows.len())))
}

/// The page again with the CSV as pasted and why nobody was invited (422).
async fn import_refused(state: &AppState, text: String, err: ImportError) -> Result<Response, AppError> {
    let lines = match &err {
        ImportError::Rows(rows) => rows.iter().map(ToString::to_string).collect(),
        _ => Vec::new(),
    };
    let import = ImportForm { text, problem: Some(err.to_string()), lines };
    let problem = Some("Nobody was invited: the pasted list has problems, listed under it.".to_owned());
    page(state, StatusCode::UNPROCESSABLE_ENTITY, None, problem, InviteForm::default(), import, 1).await
}

/// The page again with `problem` (a 409: the reviewer's state changed), nothing changed.
async fn conflict(state: &AppState, problem: String) -> Result<Response, AppError> {
    page(state, StatusCode::CONFLICT, None, Some(problem), InviteForm::default(), ImportForm::default(), 1).await
}

/// A reviewer's number from the address; 404 for anything else.
fn reviewer_id(segment: &str) -> Result<i64, AppError> {
    segment
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| AppError::NotFound(format!("No reviewer has the number {}.", super::view::shown(segment))))
}

/// POST `/organiser/reviewers/{id}/resend`: a new invitation for an invited reviewer.
pub async fn resend(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let id = reviewer_id(&id)?;
    let ctx = Context::load(&state.pool, &state.config).await?;
    let at = timestamp(state.clock.now());
    let secret = Secret::generate();
    let mut tx = crate::db::begin_write(&state.pool).await?;
    let Some(reviewer) = store::by_id(&mut tx, id).await? else {
        return Err(AppError::NotFound(format!("No reviewer has the number {id}.")));
    };
    if !store::renew_invitation(&mut tx, id, &secret.hash, &at).await? {
        drop(tx);
        return conflict(
            &state,
            format!(
                "{} ({}) is {}, so there is no open invitation to send again; nothing was sent.",
                reviewer.name,
                reviewer.email,
                word(&reviewer.state).to_lowercase()
            ),
        )
        .await;
    }
    let invitee = Invitee {
        name: reviewer.name.clone(),
        email: reviewer.email.clone(),
        affiliation: reviewer.affiliation.clone(),
        topics: lines(&reviewer.topics).into_iter().map(str::to_owned).collect(),
    };
    let mail = queue_invitation(&state, &mut tx, &ctx, id, &invitee, &secret).await?;
    let id_text = id.to_string();
    let mut entry = organiser.entry(&at, "reviewer.invitation_resent").about("reviewer", &id_text);
    entry.details = json!({ "invited_at": { "before": reviewer.invited_at, "after": at }, "mail": mail });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(see_other(&format!("{PATH}?done=resent&id={id}")))
}

/// POST `/organiser/reviewers/{id}/remove`: removes the reviewer, ends their reviewer
/// sessions and hands back their unfinished assignments.
pub async fn remove(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let id = reviewer_id(&id)?;
    let at = timestamp(state.clock.now());
    let mut tx = crate::db::begin_write(&state.pool).await?;
    let Some(reviewer) = store::by_id(&mut tx, id).await? else {
        return Err(AppError::NotFound(format!("No reviewer has the number {id}.")));
    };
    if !store::remove(&mut tx, id, &at).await? {
        drop(tx);
        return conflict(
            &state,
            format!("{} ({}) was removed already; nothing was changed.", reviewer.name, reviewer.email),
        )
        .await;
    }
    let handed_back = store::hand_back_assignments(&mut tx, id).await?;
    let ended = sessions::delete_role_sessions_of(&mut tx, &reviewer.email, Role::Reviewer.as_str()).await?;
    let id_text = id.to_string();
    let mut entry = organiser.entry(&at, "reviewer.removed").about("reviewer", &id_text);
    entry.details = json!({
        "state": { "before": reviewer.state, "after": "removed" },
        "handed_back": handed_back,
        "sessions": ended,
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    tracing::info!(reviewer = id, handed_back, sessions = ended, "reviewer removed");
    Ok(see_other(&format!("{PATH}?done=removed&id={id}")))
}
