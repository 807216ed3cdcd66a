//! Decisions on submissions (issue 21): staging a pending decision on one submission or on a
//! selection (reviewed, with its count and references, before it is confirmed), then applying
//! every pending decision at once after a preview of the mails.
//!
//! - `POST /organiser/submissions/{reference}/decision` (`version`, `decision`, `note`)
//! - `POST /organiser/submissions/decide` (`decision`, `item`*): the review page, no change
//! - `POST /organiser/submissions/decide/confirm` (`decision`, `item`*): staged in one
//!   transaction, or none on a stale item (409)
//! - `GET /organiser/decisions`: the preview; `POST /organiser/decisions/apply` (`item`*), which
//!   answers 303 to `GET /organiser/decisions/applied` (`accepted`, `rejected`: how many), the
//!   page that says what was applied (a reload shows it again and applies nothing)
//! - a stale or withdrawn item answers 303 to `GET /organiser/submissions/{reference}/conflict`
//!   (`why`), an organiser page answering 409 with what happened and links back, so a reload
//!   never posts the form again; a bad form is a 400 organiser page naming the field
//!
//! An item is `<reference>:<version>`, the version the organiser saw: every change is a
//! conditional `UPDATE` on it (`crate::repo::decisions`), so a page drawn before someone
//! else's change answers 409 and changes nothing. Applying is idempotent in the database: a
//! row is applied by the one `UPDATE` that still finds its version, and its mail's outbox key
//! counts the row's decisions, so a repeated or concurrent apply mails nobody twice.

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;

use super::form::{fields, note, one};
use super::query::Params;
use super::session::{self, Organiser, SignedIn};
use super::sign_in::layout;
use super::submissions::{self, href};
use super::view::NoticePage;
use crate::decisions::{self, Decision, DecisionMail};
use crate::error::AppError;
use crate::handlers::layout::Layout;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::mail::outbox::timestamp;
use crate::mail::{self, Context};
use crate::repo::content;
use crate::repo::decisions as store;
use crate::repo::review_records;
use crate::repo::submissions::{self as rows, Submission};
use crate::review::for_authors::{self, AuthorComments};
use crate::sign_in::secrets::Secret;

/// The review of a selection (where the list's selection form posts).
pub use super::submissions::REVIEW;
/// Where the review's confirmation posts.
pub const CONFIRM: &str = "/organiser/submissions/decide/confirm";
/// The preview of applying, and the most rows one form may name (where the list's notice
/// links and what it checks).
pub use super::submissions::{ITEMS_MAX, PREVIEW};
/// Where the preview's button posts.
pub const APPLY: &str = "/organiser/decisions/apply";
/// What applying answers with (after a 303).
pub const APPLIED: &str = "/organiser/decisions/applied";
/// The page a stale or withdrawn item's form answers with (after a 303).
pub const CONFLICT: &str = "/organiser/submissions/{reference}/conflict";

/// What stands for an author's private token in the preview's mail.
pub const TOKEN_STAND_IN: &str = "<token>";

/// `accepted`, `rejected`, or `none` (clear): what a form asks for.
fn decision(value: &str) -> Result<Option<Decision>, AppError> {
    match value {
        "" => Err(AppError::BadRequest(
            "No decision was chosen. Choose Accept, Reject or \"Clear the pending decision\", then try again.".into(),
        )),
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

/// Why a form changed nothing although it was well made: the `why` of [`CONFLICT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    /// One submission's page was drawn before someone else's change.
    Changed,
    /// A selection held a row changed since the list was drawn.
    Selection,
    /// The author withdrew the paper.
    Withdrawn,
    /// A previewed pending decision changed before the apply.
    Preview,
}

const WHYS: [(&str, Why); 4] = [
    ("changed", Why::Changed),
    ("selection", Why::Selection),
    ("withdrawn", Why::Withdrawn),
    ("preview", Why::Preview),
];

/// A form refused because of `reference`: answered by a 303 to its [`CONFLICT`] page.
#[derive(Debug)]
struct Refused {
    reference: String,
    why: Why,
}

impl Refused {
    /// The 303 to the page that says so; nothing was changed.
    fn answer(&self) -> Response {
        let why = WHYS.iter().find(|(_, w)| *w == self.why).map_or("changed", |(name, _)| name);
        let reference: String =
            url::form_urlencoded::byte_serialize(self.reference.as_bytes()).collect::<String>().replace('+', "%20");
        see_other(&format!("{}/conflict?why={why}", href(&reference)))
    }
}

/// `result`, with a refused form's error shown as an organiser page (the status it names,
/// the message, and `back` to go on from) instead of the visitors' error page. A 500 stays
/// the site's.
async fn in_organiser_page(
    state: &AppState,
    result: Result<Response, AppError>,
    back: Vec<(String, String)>,
) -> Result<Response, AppError> {
    let err = match result {
        Ok(response) => return Ok(response),
        Err(err @ (AppError::BadRequest(_) | AppError::NotFound(_) | AppError::Conflict(_))) => err,
        Err(other) => return Err(other),
    };
    let heading = match err {
        AppError::NotFound(_) => "Not found",
        _ => "Nothing was changed",
    };
    let page = NoticePage {
        layout: layout(state, heading, submissions::PATH).await?,
        heading: heading.to_owned(),
        message: err.public_message(),
        role: "alert",
        links: back,
    };
    render(err.status(), &page)
}

/// The link back to the submissions' list.
fn to_list() -> (String, String) {
    (submissions::PATH.to_owned(), "Back to the submissions".to_owned())
}

/// Stages `decision` on each of `items` on `conn`, auditing each. A stale or withdrawn item
/// is `Refused` (`stale` says why for a stale one), an unknown one or one with that decision
/// already an error; either way the caller drops its transaction, and nothing changes.
async fn stage(
    conn: &mut crate::db::Connection,
    state: &AppState,
    organiser: &Organiser,
    items: &[(String, i64)],
    decision: Option<Decision>,
    note: &str,
    stale: Why,
) -> Result<Result<(), Refused>, AppError> {
    let at = timestamp(state.clock.now());
    for (reference, version) in items {
        let Some(before) = rows::by_reference(&state.pool, reference).await? else {
            return Err(AppError::NotFound(format!(
                "No submission has the reference {}.",
                super::view::shown(reference)
            )));
        };
        if before.state == "withdrawn" {
            return Ok(Err(Refused { reference: reference.clone(), why: Why::Withdrawn }));
        }
        if decision.is_some_and(|d| d.as_str() == before.state) && before.version == *version {
            return Err(AppError::BadRequest(format!(
                "Submission {reference} is {} already. Nothing was changed.",
                decisions::state_label(&before.state).to_lowercase()
            )));
        }
        if store::set_pending(conn, reference, *version, decision.map(Decision::as_str), note).await?.is_none() {
            return Ok(Err(Refused { reference: reference.clone(), why: stale }));
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
    Ok(Ok(()))
}

/// POST `/organiser/submissions/{reference}/decision`: stages (or clears) the decision on one
/// submission; back to its page, which says it was saved (`?saved=1`).
pub async fn decide_one(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(reference): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let back = vec![(href(&reference), format!("Back to submission {}", super::view::shown(&reference))), to_list()];
    let result = async {
        let fields = fields(&body);
        let version = one(&fields, "version")?
            .parse::<i64>()
            .map_err(|_| AppError::BadRequest("The form's version is not a number.".into()))?;
        let decision = decision(one(&fields, "decision")?)?;
        let note = note(&fields)?;
        let mut tx = crate::db::begin_write(&state.pool).await?;
        let items = [(reference.clone(), version)];
        if let Err(refused) = stage(&mut tx, &state, &organiser, &items, decision, note, Why::Changed).await? {
            return Ok(refused.answer());
        }
        tx.commit().await?;
        Ok(see_other(&format!("{}?saved=1", href(&reference))))
    }
    .await;
    in_organiser_page(&state, result, back).await
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
    let result = async {
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
    .await;
    in_organiser_page(&state, result, vec![to_list()]).await
}

/// POST `/organiser/submissions/decide/confirm`: stages the decision on the whole selection in
/// one transaction; back to the list (all of it, not only the pending rows) with a notice of
/// what was staged (`submissions::STAGED`).
pub async fn confirm(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let fields = fields(&body);
        let decision = decision(one(&fields, "decision")?)?;
        let items = items(&fields)?;
        let mut tx = crate::db::begin_write(&state.pool).await?;
        if let Err(refused) = stage(&mut tx, &state, &organiser, &items, decision, "", Why::Selection).await? {
            return Ok(refused.answer());
        }
        tx.commit().await?;
        let staged = decision.map_or("none", Decision::as_str);
        Ok(see_other(&format!(
            "{}?{}={staged}&{}={}",
            submissions::PATH,
            submissions::STAGED,
            submissions::COUNT,
            items.len()
        )))
    }
    .await;
    in_organiser_page(&state, result, vec![to_list()]).await
}

/// GET `/organiser/submissions/{reference}/conflict?why=changed|selection|withdrawn|preview`:
/// where a refused form's 303 lands. It answers 409 (nothing was changed) with what happened
/// and links to the submission as it is now and back to where the organiser was; loading it
/// again posts nothing.
pub async fn conflict(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    Path(reference): Path<String>,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let result = async {
        let params = Params::parse(raw.as_deref(), &["why"])?;
        let Some(why) = params.one_of("why", &WHYS)? else {
            return Err(AppError::BadRequest(
                "The address needs \"why\": changed, selection, withdrawn or preview.".into(),
            ));
        };
        let Some(s) = rows::by_reference(&state.pool, &reference).await? else {
            return Err(AppError::NotFound(format!(
                "No submission has the reference {}.",
                super::view::shown(&reference)
            )));
        };
        let r = &s.submitted.reference;
        let open = (href(r), format!("Open submission {r} as it is now"));
        let (heading, message, links) = match why {
            Why::Changed => (
                "Nothing was changed",
                format!(
                    "Submission {r} was changed by someone else since this page was loaded, so nothing was changed. \
                     Open it as it is now and decide again."
                ),
                vec![open, to_list()],
            ),
            Why::Selection => (
                "Nothing was changed",
                format!(
                    "Submission {r} was changed by someone else since the list was loaded, so none of the selected \
                     submissions was changed. Open the list again and decide again."
                ),
                vec![to_list(), open],
            ),
            Why::Withdrawn => (
                "Nothing was changed",
                format!("Submission {r} was withdrawn by its author; it takes no decision. Nothing was changed."),
                vec![open, to_list()],
            ),
            Why::Preview => (
                "Nothing was applied",
                format!(
                    "The pending decision of {r} changed since this preview was loaded, so nothing was applied \
                     and nobody was mailed. Open the preview again."
                ),
                vec![(PREVIEW.to_owned(), "Open the preview again".to_owned()), open],
            ),
        };
        let page = NoticePage {
            layout: layout(&state, heading, submissions::PATH).await?,
            heading: heading.to_owned(),
            message,
            role: "alert",
            links,
        };
        render(StatusCode::CONFLICT, &page)
    }
    .await;
    in_organiser_page(&state, result, vec![to_list()]).await
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
    accepted: usize,
    rejected: usize,
    rows: Vec<PreviewRow>,
    /// The first mail in full: (to, subject, body).
    sample: Option<(String, String, String)>,
    /// What stands for the token in the sample's status link.
    stand_in: &'static str,
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

/// The mail `s` gets for `decision`, with `link` as its status link and `reviews` for
/// `{reviews}`, as the row's `number`th decision (its outbox key).
fn mail_for(
    ctx: &Context,
    templates: &[(String, String); 2],
    s: &Submission,
    decision: Decision,
    (link, reviews): (&str, &str),
    number: i64,
) -> Result<DecisionMail, AppError> {
    let template = match decision {
        Decision::Accepted => &templates[0],
        Decision::Rejected => &templates[1],
    };
    decisions::compose(ctx, template, s, &s.decision_note, link, reviews, number)
        .map_err(|e| AppError::internal("decision mail", e))
}

/// What `{reviews}` stands for in submission `id`'s decision mail: its submitted reviews'
/// comments to authors as they are on `conn` (issue 32 item 8).
async fn reviews_for(conn: &mut crate::db::Connection, id: i64) -> Result<String, AppError> {
    let rows = review_records::for_authors(conn, id).await?;
    Ok(for_authors::placeholder(&AuthorComments::from_rows(rows)))
}

/// The preview page of the pending decisions now.
async fn preview_page(state: &AppState) -> Result<Response, AppError> {
    let pending = store::pending(&state.pool).await?;
    let ctx = Context::load(&state.pool, &state.config).await?;
    let templates = templates(state).await?;
    // The link is made when the mail is queued; the preview shows its form, with a stand-in
    // for the private token each author gets.
    let stand_in = decisions::status_link(&state.config, TOKEN_STAND_IN);
    let mut conn = state.pool.acquire().await?;
    let mut rows = Vec::new();
    let mut sample = None;
    let (mut accepted, mut rejected) = (0, 0);
    for s in &pending {
        let Some(decision) = s.pending_decision.as_deref().and_then(Decision::parse) else { continue };
        match decision {
            Decision::Accepted => accepted += 1,
            Decision::Rejected => rejected += 1,
        }
        let reviews = reviews_for(&mut conn, s.id).await?;
        let mail = mail_for(&ctx, &templates, s, decision, (&stand_in, &reviews), s.decisions + 1)?;
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
        stand_in: TOKEN_STAND_IN,
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
    preview_page(&state).await
}

/// POST `/organiser/decisions/apply`: applies the previewed decisions in one transaction and
/// queues one mail per submission through the outbox, each with a new status link; answers
/// 303 to [`APPLIED`], which says how many of each were applied.
pub async fn apply(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let back = vec![(PREVIEW.to_owned(), "Back to the preview".to_owned()), to_list()];
    let result = apply_items(&state, &organiser, &body).await;
    in_organiser_page(&state, result, back).await
}

async fn apply_items(state: &AppState, organiser: &Organiser, body: &Bytes) -> Result<Response, AppError> {
    let items = items(&fields(body))?;
    let ctx = Context::load(&state.pool, &state.config).await?;
    let templates = templates(state).await?;
    // The state before, for the history: a row applied below was at the version the
    // organiser saw, which is the version read here (every change raises it).
    let before: Vec<Submission> = store::pending(&state.pool).await?;
    let at = timestamp(state.clock.now());
    let mut tx = crate::db::begin_write(&state.pool).await?;
    let (mut accepted, mut rejected, mut mails) = (0usize, 0usize, 0usize);
    for (reference, version) in &items {
        let Some(s) = store::apply(&mut tx, reference, *version, &at).await? else {
            if store::is_pending(&mut tx, reference).await? {
                drop(tx);
                return Ok(Refused { reference: reference.clone(), why: Why::Preview }.answer());
            }
            // Applied already (a second click, another organiser, another instance).
            continue;
        };
        let Some(decision) = Decision::parse(&s.state) else { continue };
        let link = Secret::generate();
        store::add_link(&mut tx, s.id, &link.hash, &at).await?;
        let status_link = decisions::status_link(&state.config, &link.token);
        let reviews = reviews_for(&mut tx, s.id).await?;
        let mail = mail_for(&ctx, &templates, &s, decision, (&status_link, &reviews), s.decisions)?;
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
        match decision {
            Decision::Accepted => accepted += 1,
            Decision::Rejected => rejected += 1,
        }
        mails += usize::from(queued);
    }
    tx.commit().await?;
    Ok(see_other(&format!("{APPLIED}?accepted={accepted}&rejected={rejected}&mails={mails}")))
}

/// "1 decision" or "3 decisions".
fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// GET `/organiser/decisions/applied?accepted=N&rejected=N&mails=N`: what an apply did (its
/// 303's target), with links to the decided submissions, the outbox and what is still pending.
pub async fn applied(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let result = async {
        let params = Params::parse(raw.as_deref(), &["accepted", "rejected", "mails"])?;
        let count = |name: &str| -> Result<usize, AppError> {
            params.get(name).and_then(|v| v.parse::<usize>().ok()).filter(|n| *n <= ITEMS_MAX).ok_or_else(|| {
                AppError::BadRequest(format!(
                    "\"{name}\" must be a number of decisions from 0 to {ITEMS_MAX} (this page shows what an apply did)."
                ))
            })
        };
        let (accepted, rejected, mails) = (count("accepted")?, count("rejected")?, count("mails")?);
        let total = accepted + rejected;
        let message = if total == 0 {
            "Nothing was applied: these decisions were applied already, and nobody was mailed again.".to_owned()
        } else {
            format!(
                "{} applied ({accepted} accepted, {rejected} rejected); {} queued.",
                counted(total, "decision", "decisions"),
                counted(mails, "mail", "mails")
            )
        };
        let mut links = Vec::new();
        let pending = store::pending(&state.pool).await?.len();
        if pending > 0 {
            let still = counted(pending, "decision is", "decisions are");
            links.push((PREVIEW.to_owned(), format!("{still} still pending: open the preview")));
        }
        if accepted > 0 {
            links.push((format!("{}?state=accepted", submissions::PATH), "The accepted submissions".to_owned()));
        }
        if rejected > 0 {
            links.push((format!("{}?state=rejected", submissions::PATH), "The rejected submissions".to_owned()));
        }
        links.push(("/organiser/outbox".to_owned(), "The mail outbox".to_owned()));
        links.push((session::HOME.to_owned(), "Back to the dashboard".to_owned()));
        let page = NoticePage {
            layout: layout(&state, "Decisions applied", PREVIEW).await?,
            heading: "Decisions applied".to_owned(),
            message,
            role: "status",
            links,
        };
        render(StatusCode::OK, &page)
    }
    .await;
    in_organiser_page(&state, result, vec![(PREVIEW.to_owned(), "Apply decisions".to_owned())]).await
}
