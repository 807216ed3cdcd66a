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
//! An item is `<reference>:<version>`, the version the organiser saw. What staging and
//! applying do (the conditional `UPDATE`s, the mails, the audit) is the domain's:
//! `crate::decisions::stage` and `crate::decisions::apply`.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::form::{fields, note, one};
use super::notice::or_notice_page;
use super::query::Params;
use super::session::{self, SignedIn};
use super::sign_in::layout;
use super::submissions::{self, href};
use crate::decisions::apply::{self as applying, TOKEN_STAND_IN};
use crate::decisions::stage::{self as staging, ITEMS_MAX, Why};
use crate::decisions::states::{Decision, counted, shown};
use crate::error::{AppError, Refused};
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::repo::submissions as rows;
use crate::views::organiser::decide::{ApplyPage, PreviewRow, ReviewPage, review_words};
use crate::views::organiser::shared::NoticePage;

/// The review of a selection (where the list's selection form posts).
pub use super::submissions::REVIEW;
/// Where the review's confirmation posts.
pub const CONFIRM: &str = "/organiser/submissions/decide/confirm";
/// The preview of applying (where the list's notice links).
pub use super::submissions::PREVIEW;
/// Where the preview's button posts.
pub const APPLY: &str = "/organiser/decisions/apply";
/// What applying answers with (after a 303).
pub const APPLIED: &str = "/organiser/decisions/applied";
/// The page a stale or withdrawn item's form answers with (after a 303).
pub const CONFLICT: &str = "/organiser/submissions/{reference}/conflict";

/// The form's selected items (`item`: `<reference>:<version>`, [`staging::items`]).
fn items(fields: &[(String, String)]) -> Result<Vec<(String, i64)>, AppError> {
    Ok(staging::items(fields.iter().filter(|(k, _)| k == "item").map(|(_, v)| v.as_str()))?)
}

/// The form's `decision` ([`staging::decision`]).
fn decision(fields: &[(String, String)]) -> Result<Option<Decision>, AppError> {
    Ok(staging::decision(one(fields, "decision")?)?)
}

/// The `why` of [`CONFLICT`]: the domain's reasons a well-made form changed nothing.
const WHYS: [(&str, Why); 4] = [
    ("changed", Why::Changed),
    ("selection", Why::Selection),
    ("withdrawn", Why::Withdrawn),
    ("preview", Why::Preview),
];

/// `outcome` answered: `done` on success; a refusal of one of `items` (`stale` says why for
/// a stale one) by a 303 to its [`CONFLICT`] page; any other refusal as its error.
fn answered<T>(
    outcome: Result<T, Refused>,
    items: &[(String, i64)],
    stale: Why,
    done: impl FnOnce(T) -> Response,
) -> Result<Response, AppError> {
    match outcome {
        Ok(value) => Ok(done(value)),
        Err(refused) => match Why::of(&refused, items, stale) {
            Some((reference, why)) => Ok(to_conflict(reference, why)),
            None => Err(refused.into()),
        },
    }
}

/// The 303 to the page that says why nothing was changed.
fn to_conflict(reference: &str, why: Why) -> Response {
    let why = WHYS.iter().find(|(_, w)| *w == why).map_or("changed", |(name, _)| name);
    let reference: String =
        url::form_urlencoded::byte_serialize(reference.as_bytes()).collect::<String>().replace('+', "%20");
    see_other(&format!("{}/conflict?why={why}", href(&reference)))
}

/// [`or_notice_page`] under the submissions.
async fn in_organiser_page(
    state: &AppState,
    result: Result<Response, AppError>,
    back: Vec<(String, String)>,
) -> Result<Response, AppError> {
    or_notice_page(state, submissions::PATH, result, back).await
}

/// The link back to the submissions' list.
fn to_list() -> (String, String) {
    (submissions::PATH.to_owned(), "Back to the submissions".to_owned())
}

/// POST `/organiser/submissions/{reference}/decision`: stages (or clears) the decision on one
/// submission; back to its page, which says it was saved (`?saved=1`).
pub async fn decide_one(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(reference): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let back = vec![(href(&reference), format!("Back to submission {}", shown(&reference))), to_list()];
    let result = async {
        let fields = fields(&body);
        let version = one(&fields, "version")?
            .parse::<i64>()
            .map_err(|_| AppError::BadRequest("The form's version is not a number.".into()))?;
        let decision = decision(&fields)?;
        let note = note(&fields)?;
        let items = [(reference.clone(), version)];
        let now = state.clock.now();
        let outcome = staging::stage(&state.pool, now, &organiser.actor(), &items, decision, note, Why::Changed).await;
        answered(outcome, &items, Why::Changed, |_| see_other(&format!("{}?saved=1", href(&reference))))
    }
    .await;
    in_organiser_page(&state, result, back).await
}

/// POST `/organiser/submissions/decide`: the selection's count and references, and a button
/// that confirms it. Changes nothing.
pub async fn review(State(state): State<AppState>, SignedIn(_): SignedIn, body: Bytes) -> Result<Response, AppError> {
    let result = async {
        let fields = fields(&body);
        let decision = decision(&fields)?;
        let items = items(&fields)?;
        let (heading, summary, button) = review_words(decision.map(Decision::verb), items.len());
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
        let decision = decision(&fields)?;
        let items = items(&fields)?;
        let now = state.clock.now();
        let outcome = staging::stage(&state.pool, now, &organiser.actor(), &items, decision, "", Why::Selection).await;
        answered(outcome, &items, Why::Selection, |staged| {
            let decision = staged.decision.map_or("none", Decision::as_str);
            let (path, key, count) = (submissions::PATH, submissions::STAGED, submissions::COUNT);
            see_other(&format!("{path}?{key}={decision}&{count}={}", staged.count))
        })
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
            return Err(AppError::NotFound(format!("No submission has the reference {}.", shown(&reference))));
        };
        let r = &s.submitted.reference;
        let open = (href(r), format!("Open submission {r} as it is now"));
        let links = match why {
            Why::Changed | Why::Withdrawn => vec![open, to_list()],
            Why::Selection => vec![to_list(), open],
            Why::Preview => vec![(PREVIEW.to_owned(), "Open the preview again".to_owned()), open],
        };
        let heading = if why == Why::Preview { "Nothing was applied" } else { "Nothing was changed" };
        let message = why.message(r);
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

/// GET `/organiser/decisions`: how many of each decision, every author's address and subject,
/// and the first mail in full; the button applies exactly these.
pub async fn preview(State(state): State<AppState>, SignedIn(_): SignedIn) -> Result<Response, AppError> {
    let preview = applying::preview(&state.pool, &state.config).await?;
    let rows = preview
        .rows
        .into_iter()
        .map(|row| PreviewRow {
            reference: row.reference,
            version: row.version,
            decision: row.decision.verb(),
            to: row.to,
            subject: row.subject,
        })
        .collect();
    let page = ApplyPage {
        layout: layout(&state, "Apply decisions", PREVIEW).await?,
        heading: "Apply decisions",
        stand_in: TOKEN_STAND_IN,
        accepted: preview.accepted,
        rejected: preview.rejected,
        rows,
        sample: preview.sample,
        action: APPLY,
    };
    render(StatusCode::OK, &page)
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
    let result = async {
        let items = items(&fields(&body))?;
        let now = state.clock.now();
        let outcome = applying::apply(&state.pool, &state.config, now, &organiser.actor(), &items).await;
        answered(outcome, &items, Why::Preview, |done| {
            let applying::Applied { accepted, rejected, mails } = done;
            see_other(&format!("{APPLIED}?accepted={accepted}&rejected={rejected}&mails={mails}"))
        })
    }
    .await;
    in_organiser_page(&state, result, back).await
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
        let message = applying::Applied { accepted, rejected, mails }.summary();
        let mut links = Vec::new();
        let pending = applying::pending_count(&state.pool).await?;
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
