//! Decisions on submissions (issue 21): staging a pending decision on one submission or on a
//! selection (reviewed, with its count and references, before it is confirmed), then applying
//! every pending decision at once after a preview of the mails.
//!
//! - `POST /organiser/submissions/{reference}/decision` (`version`, `decision`, `note`)
//! - `POST /organiser/submissions/decide` (`decision`, `item`*): the review page, no change
//! - `POST /organiser/submissions/decide/confirm` (`decision`, `item`*): staged in one
//!   transaction, or none on a stale item (409)
//! - `GET /organiser/decisions`: the preview; `POST /organiser/decisions/apply` (`item`*)
//!
//! An item is `<reference>:<version>`, the version the organiser saw: every change is a
//! conditional `UPDATE` on it (`crate::repo::decisions`), so a page drawn before someone
//! else's change answers 409 and changes nothing. Applying is idempotent in the database: a
//! row is applied by the one `UPDATE` that still finds its version, and its mail's outbox key
//! counts the row's decisions, so a repeated or concurrent apply mails nobody twice.

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;

use super::form::{fields, note, one};
use super::session::{Organiser, SignedIn};
use super::sign_in::layout;
use super::submissions::{self, href};
use crate::decisions::{self, Decision, DecisionMail};
use crate::error::AppError;
use crate::handlers::layout::Layout;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::mail::outbox::timestamp;
use crate::mail::{self, Context};
use crate::organisers::Secret;
use crate::repo::content;
use crate::repo::decisions as store;
use crate::repo::submissions::{self as rows, Submission};

/// The review of a selection (where the list's selection form posts).
pub use super::submissions::REVIEW;
/// Where the review's confirmation posts.
pub const CONFIRM: &str = "/organiser/submissions/decide/confirm";
/// The preview of applying.
pub const PREVIEW: &str = "/organiser/decisions";
/// Where the preview's button posts.
pub const APPLY: &str = "/organiser/decisions/apply";

/// Most rows one form may name (a conference's whole programme fits).
const ITEMS_MAX: usize = 2000;

/// `accepted`, `rejected`, or `none` (clear): what a form asks for.
fn decision(value: &str) -> Result<Option<Decision>, AppError> {
    match value {
        "none" => Ok(None),
        other => Decision::parse(other)
            .map(Some)
            .ok_or_else(|| AppError::BadRequest("The decision must be \"accepted\", \"rejected\" or \"none\".".into())),
    }
}

/// The selected items (`<reference>:<version>`), at least one, each once.
fn items(fields: &[(String, String)]) -> Result<Vec<(String, i64)>, AppError> {
    let mut items: Vec<(String, i64)> = Vec::new();
    for (_, value) in fields.iter().filter(|(k, _)| k == "item") {
        let parsed = value
            .rsplit_once(':')
            .and_then(|(reference, version)| Some((reference.to_owned(), version.parse::<i64>().ok()?)))
            .filter(|(reference, _)| !reference.is_empty() && reference.len() <= 40);
        let Some(item) = parsed else {
            return Err(AppError::BadRequest(format!(
                "\"{}\" is not a selected submission (reference:version).",
                super::view::shown(value)
            )));
        };
        if !items.iter().any(|(r, _)| *r == item.0) {
            items.push(item);
        }
    }
    if items.is_empty() {
        return Err(AppError::BadRequest("No submission is selected. Tick at least one row.".into()));
    }
    if items.len() > ITEMS_MAX {
        return Err(AppError::BadRequest(format!("At most {ITEMS_MAX} submissions can be decided at once.")));
    }
    Ok(items)
}

/// What a stale form is told.
fn stale(reference: &str) -> AppError {
    AppError::Conflict(format!(
        "Submission {reference} was changed by someone else since this page was loaded, so nothing was changed. \
         Reload the page to see the change, then decide again."
    ))
}

/// Stages `decision` on each of `items` on `conn`, auditing each; a stale or unknown item is
/// an error and the caller's transaction is dropped.
async fn stage(
    conn: &mut crate::db::Connection,
    state: &AppState,
    organiser: &Organiser,
    items: &[(String, i64)],
    decision: Option<Decision>,
    note: &str,
) -> Result<(), AppError> {
    let at = timestamp(state.clock.now());
    for (reference, version) in items {
        let Some(before) = rows::by_reference(&state.pool, reference).await? else {
            return Err(AppError::NotFound(format!(
                "No submission has the reference {}.",
                super::view::shown(reference)
            )));
        };
        if before.state == "withdrawn" {
            return Err(AppError::Conflict(format!(
                "Submission {reference} was withdrawn by its author; it takes no decision. Nothing was changed."
            )));
        }
        if decision.is_some_and(|d| d.as_str() == before.state) && before.version == *version {
            return Err(AppError::BadRequest(format!(
                "Submission {reference} is {} already. Nothing was changed.",
                before.state
            )));
        }
        if store::set_pending(conn, reference, *version, decision.map(Decision::as_str), note).await?.is_none() {
            return Err(stale(reference));
        }
        let mut entry = organiser.entry(&at, "submission.decision_staged");
        entry.object_type = Some("submission");
        entry.object_id = Some(reference);
        entry.details = json!({
            "pending_decision": { "before": before.pending_decision, "after": decision.map(Decision::as_str) },
            "note": { "before": before.decision_note, "after": note },
        });
        crate::repo::audit::record(conn, &entry).await?;
    }
    Ok(())
}

/// POST `/organiser/submissions/{reference}/decision`: stages (or clears) the decision on one
/// submission; back to its page.
pub async fn decide_one(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(reference): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let fields = fields(&body);
    let version = one(&fields, "version")?
        .parse::<i64>()
        .map_err(|_| AppError::BadRequest("The form's version is not a number.".into()))?;
    let decision = decision(one(&fields, "decision")?)?;
    let note = note(&fields)?;
    let mut tx = crate::db::begin_write(&state.pool).await?;
    stage(&mut tx, &state, &organiser, &[(reference.clone(), version)], decision, note).await?;
    tx.commit().await?;
    Ok(see_other(&href(&reference)))
}

#[derive(Template)]
#[template(path = "organiser/decide.html")]
struct ReviewPage {
    layout: Layout,
    heading: String,
    summary: String,
    decision: &'static str,
    items: Vec<(String, i64)>,
    action: &'static str,
    button: String,
}

/// POST `/organiser/submissions/decide`: the selection's count and references, and a button
/// that confirms it. Changes nothing.
pub async fn review(State(state): State<AppState>, SignedIn(_): SignedIn, body: Bytes) -> Result<Response, AppError> {
    let fields = fields(&body);
    let decision = decision(one(&fields, "decision")?)?;
    let items = items(&fields)?;
    let count = items.len();
    let plural = if count == 1 { "submission" } else { "submissions" };
    let (heading, summary, button) = match decision {
        Some(d) => (
            format!("{} {count} {plural}?", d.verb()),
            format!("{count} {plural} will get the pending decision \"{}\":", d.verb()),
            format!("Confirm: {} {count} {plural}", d.verb().to_lowercase()),
        ),
        None => (
            format!("Clear the pending decision of {count} {plural}?"),
            format!("{count} {plural} will have no pending decision:"),
            format!("Confirm: clear {count} {plural}"),
        ),
    };
    let page = ReviewPage {
        layout: layout(&state, &heading, submissions::PATH).await?,
        heading,
        summary,
        decision: decision.map_or("none", Decision::as_str),
        items,
        action: CONFIRM,
        button,
    };
    render(StatusCode::OK, &page)
}

/// POST `/organiser/submissions/decide/confirm`: stages the decision on the whole selection in
/// one transaction; back to the list of pending decisions.
pub async fn confirm(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let fields = fields(&body);
    let decision = decision(one(&fields, "decision")?)?;
    let items = items(&fields)?;
    let mut tx = crate::db::begin_write(&state.pool).await?;
    stage(&mut tx, &state, &organiser, &items, decision, "").await?;
    tx.commit().await?;
    Ok(see_other(&format!("{}?pending=any", submissions::PATH)))
}

/// A row of the preview.
struct PreviewRow {
    reference: String,
    version: i64,
    decision: &'static str,
    to: String,
    subject: String,
}

#[derive(Template)]
#[template(path = "organiser/apply.html")]
struct ApplyPage {
    layout: Layout,
    heading: &'static str,
    notice: Option<String>,
    accepted: usize,
    rejected: usize,
    rows: Vec<PreviewRow>,
    /// The first mail in full: (to, subject, body).
    sample: Option<(String, String, String)>,
    action: &'static str,
}

/// The decision mail templates of the seed; 503 when the seed has none (an older seed).
async fn templates(state: &AppState) -> Result<[(String, String); 2], AppError> {
    let mut found = Vec::new();
    for d in [Decision::Accepted, Decision::Rejected] {
        let Some(template) = content::mail_template(&state.pool, d.template()).await? else {
            return Err(AppError::Unavailable(format!(
                "The mail template {} is missing from the content seed. Apply the seed (conference seed) and try again.",
                d.template()
            )));
        };
        found.push(template);
    }
    let [accepted, rejected]: [(String, String); 2] = found.try_into().expect("two templates");
    Ok([accepted, rejected])
}

/// The mail `s` gets for `decision`, with `link` as its status link, as the row's `number`th
/// decision (its outbox key).
fn mail_for(
    ctx: &Context,
    templates: &[(String, String); 2],
    s: &Submission,
    decision: Decision,
    link: &str,
    number: i64,
) -> Result<DecisionMail, AppError> {
    let template = match decision {
        Decision::Accepted => &templates[0],
        Decision::Rejected => &templates[1],
    };
    decisions::compose(ctx, template, s, &s.decision_note, link, number)
        .map_err(|e| AppError::internal("decision mail", e))
}

/// The preview page of the pending decisions now, with `notice` on top.
async fn preview_page(state: &AppState, notice: Option<String>) -> Result<Response, AppError> {
    let pending = store::pending(&state.pool).await?;
    let ctx = Context::load(&state.pool, &state.config).await?;
    let templates = templates(state).await?;
    // The link is made when the mail is queued; the preview shows where it will point.
    let stand_in = decisions::status_link(&state.config, "(a private link made for each author)");
    let mut rows = Vec::new();
    let mut sample = None;
    let (mut accepted, mut rejected) = (0, 0);
    for s in &pending {
        let Some(decision) = s.pending_decision.as_deref().and_then(Decision::parse) else { continue };
        match decision {
            Decision::Accepted => accepted += 1,
            Decision::Rejected => rejected += 1,
        }
        let mail = mail_for(&ctx, &templates, s, decision, &stand_in, s.decisions + 1)?;
        if sample.is_none() {
            sample = Some((mail.mail.to.clone(), mail.mail.subject.clone(), mail.body.clone()));
        }
        rows.push(PreviewRow {
            reference: s.submitted.reference.clone(),
            version: s.version,
            decision: decision.verb(),
            to: mail.mail.to,
            subject: mail.mail.subject,
        });
    }
    let page = ApplyPage {
        layout: layout(state, "Apply decisions", PREVIEW).await?,
        heading: "Apply decisions",
        notice,
        accepted,
        rejected,
        rows,
        sample,
        action: APPLY,
    };
    render(StatusCode::OK, &page)
}

/// GET `/organiser/decisions`: how many of each decision, every author's address and subject,
/// and the first mail in full; the button applies exactly these.
pub async fn preview(State(state): State<AppState>, SignedIn(_): SignedIn) -> Result<Response, AppError> {
    preview_page(&state, None).await
}

/// POST `/organiser/decisions/apply`: applies the previewed decisions in one transaction and
/// queues one mail per submission through the outbox, each with a new status link.
pub async fn apply(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let items = items(&fields(&body))?;
    let ctx = Context::load(&state.pool, &state.config).await?;
    let templates = templates(&state).await?;
    // The state before, for the history: a row applied below was at the version the
    // organiser saw, which is the version read here (every change raises it).
    let before: Vec<Submission> = store::pending(&state.pool).await?;
    let at = timestamp(state.clock.now());
    let mut tx = crate::db::begin_write(&state.pool).await?;
    let mut applied = 0;
    for (reference, version) in &items {
        let Some(s) = store::apply(&mut tx, reference, *version, &at).await? else {
            if store::is_pending(&mut tx, reference).await? {
                return Err(AppError::Conflict(format!(
                    "The pending decision of {reference} changed since this preview, so nothing was applied. \
                     Open the preview again."
                )));
            }
            // Applied already (a second click, another organiser, another instance).
            continue;
        };
        let Some(decision) = Decision::parse(&s.state) else { continue };
        let link = Secret::generate();
        store::add_link(&mut tx, s.id, &link.hash, &at).await?;
        let status_link = decisions::status_link(&state.config, &link.token);
        let mail = mail_for(&ctx, &templates, &s, decision, &status_link, s.decisions)?;
        let queued = mail::enqueue(&mut tx, &mail.mail).await?;
        let old = before.iter().find(|b| b.submitted.reference == *reference && b.version == *version);
        let mut entry = organiser.entry(&at, "submission.decision_applied");
        entry.object_type = Some("submission");
        entry.object_id = Some(reference);
        entry.details = json!({
            "state": { "before": old.map(|b| b.state.as_str()), "after": s.state },
            "mail": { "to": s.submitted.email, "queued": queued, "subject": mail.mail.subject },
        });
        crate::repo::audit::record(&mut tx, &entry).await?;
        applied += 1;
    }
    tx.commit().await?;
    let notice = match applied {
        0 => "Nothing was applied: these decisions were applied already, and nobody was mailed again.".to_owned(),
        1 => "1 decision applied; 1 mail queued.".to_owned(),
        n => format!("{n} decisions applied; {n} mails queued."),
    };
    preview_page(&state, Some(notice)).await
}
