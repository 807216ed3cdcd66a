//! One submission of the back office (DESIGN.md section 12): its page, with every field, its
//! reviews and discussion (issue 32), its decision form and history (issue 21), and its
//! paper. The list of submissions is `super::submissions`.

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

use super::download;
use super::history::history;
use super::query::Params;
use super::session::{SignedIn, SignedInForFile};
use super::sign_in::layout;
use crate::clock::stamp::timestamp;
use crate::decisions::reviews;
use crate::decisions::stage;
use crate::decisions::states::{Decision, shown};
use crate::error::AppError;
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::repo::submissions::{self, Submission};
use crate::views::organiser::detail::DetailPage;
use crate::views::organiser::shared::{self as view, Cell, Moment};
use crate::views::organiser::submission::{decision_form, groups};

use super::submissions::{PATH, href};

/// The query of a submission's page: `saved=1` after its pending decision was saved.
const SAVED: &str = "saved";

/// GET `/organiser/submissions/{reference}`: every field (those that are empty for every
/// submission, the spec's `name`, left out when empty); with `saved=1` the notice that the
/// pending decision was saved.
pub async fn detail(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    Path(reference): Path<String>,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &[SAVED])?;
    let Some(s) = submissions::by_reference(&state.pool, &reference).await? else {
        return Err(AppError::NotFound(format!("No submission has the reference {}.", shown(&reference))));
    };
    let saved = params.one_of(SAVED, &[("1", ())])?.is_some();
    let notice = saved.then(|| stage::saved(s.pending_decision.as_deref().and_then(Decision::parse)));
    let zone = state.event_zone().await;
    let n = &s.submitted;
    let pending = s.pending_decision.as_deref().and_then(Decision::parse).map_or("None", Decision::verb);
    let groups = groups(&s, pending, &zone);
    let reviewing = reviewing(&state, &s, &zone).await?;
    let detail = DetailPage {
        layout: layout(&state, &format!("Submission {}", n.reference), PATH).await?,
        heading: format!("Submission {}", n.reference),
        back: (PATH, "Submissions"),
        actions: vec![
            Cell::link(format!("Download the paper ({})", extension(n)), format!("{}/paper", href(&n.reference))),
            Cell::link("Reviewers of this paper", super::assignments::PAPER.replace("{reference}", &n.reference)),
        ],
        groups,
        forms: if s.state == "withdrawn" { Vec::new() } else { vec![decision_form(&s)] },
        history: Some(history(&state, "submission", &n.reference).await?),
    };
    render(StatusCode::OK, &SubmissionPage { detail, reviewing, notice })
}

/// One review as a submission's page shows it: the domain's, with its state in words.
struct ShownReview {
    review: reviews::Review,
    /// `Submitted 21 Mar 2025, 09:00 PST` or `Draft, not submitted (last saved ...)`, as HTML
    /// (its time in a `<time datetime>`).
    state: String,
}

impl std::ops::Deref for ShownReview {
    type Target = reviews::Review;

    fn deref(&self) -> &reviews::Review {
        &self.review
    }
}

/// A submission's reviews and discussion (issue 32 item 8), times in the event's zone.
struct Reviewing {
    summary: String,
    below: bool,
    reviews: Vec<ShownReview>,
    /// (who, when, what), oldest first.
    discussion: Vec<(String, Moment, String)>,
}

/// A submission's page: its fields, then its reviews and discussion, then its forms.
#[derive(askama::Template)]
#[template(path = "organiser/submission.html")]
struct SubmissionPage {
    detail: DetailPage,
    reviewing: Reviewing,
    /// What was just saved, on top.
    notice: Option<String>,
}

impl std::ops::Deref for SubmissionPage {
    type Target = DetailPage;

    fn deref(&self) -> &DetailPage {
        &self.detail
    }
}

/// `s`'s reviews and discussion ([`reviews::of`]) with their times in `zone`.
async fn reviewing(state: &AppState, s: &Submission, zone: &crate::clock::zone::Zone) -> Result<Reviewing, AppError> {
    let read = reviews::of(&state.pool, s).await?;
    let reviews = read
        .reviews
        .into_iter()
        .map(|review| {
            let state = match &review.submitted_at {
                Some(at) => format!("Submitted {}", view::when(at, zone)),
                None => format!("Draft, not submitted (last saved {})", view::when(&review.updated, zone)),
            };
            ShownReview { review, state }
        })
        .collect();
    let discussion = read.discussion.into_iter().map(|(who, at, body)| (who, view::when(&at, zone), body)).collect();
    Ok(Reviewing { summary: read.summary, below: read.below, reviews, discussion })
}

/// The stored paper's extension; only it is taken from the stored path, so no stored text
/// names a folder or a header.
fn extension(s: &submissions::NewSubmission) -> &str {
    download::stored_extension(&s.file_path)
}

/// GET `/organiser/submissions/{reference}/paper`: the file as an attachment
/// `<reference>.<ext>`, as it was stored (never compressed again) with its `Content-Length`,
/// from `DATA_DIR` (SQLite; byte ranges too, `download::stored_file`) or the database
/// (PostgreSQL); audited as `paper.downloaded`.
pub async fn paper(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    Path(reference): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let not_found = || AppError::NotFound("No such paper.".into());
    let Some(s) = submissions::by_reference(&state.pool, &reference).await? else { return Err(not_found()) };
    // References are the server's own (`P-2025-7KQ4M9`); anything else never reaches a header.
    let name_part = if s.submitted.reference.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        &s.submitted.reference
    } else {
        "paper"
    };
    let filename = format!("{name_part}.{}", extension(&s.submitted));
    let mut response = download::paper(&state, s.id, &s.submitted.file_path, &headers).await?.ok_or_else(not_found)?;
    let at = timestamp(state.clock.now());
    let mut entry = organiser.entry(&at, "paper.downloaded");
    entry.object_type = Some("submission");
    entry.object_id = Some(&s.submitted.reference);
    download::record(&state, &entry).await?;
    download::name_attachment(&mut response, &s.submitted.file_type, &filename);
    Ok(response)
}
