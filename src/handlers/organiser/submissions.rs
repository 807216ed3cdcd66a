//! The submissions of the back office (DESIGN.md section 12, issue 20 item 4):
//! `/organiser/submissions` (filters `paper_type`, `state`, `pending`, `from`, `to`,
//! `reviews_below`, `disagreement`; search `q`; `sort`, `dir`; `page`), its CSV, one
//! submission's page (with its reviews and discussion, issue 32, and its decision form and
//! history, issue 21) and its paper.

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use time::Duration;
use time::macros::format_description;

use super::dashboard;
use super::detail::{ActionForm, DetailPage, Field, Group};
use super::download::{self, CsvList};
use super::history::history;
use super::query::{Pager, Params};
use super::session::{SignedIn, SignedInForFile};
use super::sign_in::layout;
use super::view::{self, Bulk, Cell, Control, ListPage, Moment};
use crate::clock::stamp::timestamp;
use crate::decisions::reviews;
use crate::decisions::stage::{self, ITEMS_MAX, Staged};
use crate::decisions::states::{self as decisions, Decision, shown};
use crate::error::AppError;
use crate::export::visitors;
use crate::forms::paper_form;
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::repo::reviewers;
use crate::repo::submissions::{self, Filter, Sort, Submission};
use crate::review::figures;

/// The list's address.
pub const PATH: &str = "/organiser/submissions";
/// Where the list's selection goes to be reviewed (`super::decide::review`).
pub const REVIEW: &str = "/organiser/submissions/decide";
/// The preview of applying the pending decisions (`super::decide::preview`).
pub const PREVIEW: &str = "/organiser/decisions";
const KNOWN: [&str; 10] =
    ["paper_type", "from", "to", "q", "state", "pending", "sort", "dir", "reviews_below", "disagreement"];
/// The list's notice after a selection was staged (`super::decide::confirm`): the decision
/// (`accepted`, `rejected`, `none`) and how many rows took it. Not a filter: the pages and the
/// CSV leave them out.
pub const STAGED: &str = "staged";
pub const COUNT: &str = "count";
/// The `pending` filter: any pending decision, or one of them.
const PENDING: [(&str, Option<&str>); 3] =
    [("any", None), ("accepted", Some("accepted")), ("rejected", Some("rejected"))];
/// The paper types of the form (the table's CHECK constraint).
const PAPER_TYPES: [(&str, &str); 2] = [("Abstract", "Abstract"), ("Full Paper", "Full Paper")];
const SORTS: [(&str, Sort); 5] = [
    ("received", Sort::Received),
    ("reference", Sort::Reference),
    ("title", Sort::Title),
    ("score", Sort::Score),
    ("reviews", Sort::Reviews),
];
/// The `disagreement` filter: reviews whose scores spread over 2 points or more.
const DISAGREEMENT: [(&str, i64); 1] = [("yes", figures::DISAGREEMENT)];
/// The most reviews `reviews_below` takes (the settings allow 10 per paper).
const REVIEWS_BELOW_MAX: i64 = 10;
const DIRECTIONS: [(&str, bool); 2] = [("asc", false), ("desc", true)];

/// The filter a query string asks for.
fn filter(params: &Params) -> Result<Filter, AppError> {
    let day = format_description!("[year]-[month]-[day]");
    let from = params.date("from")?;
    let to = params.date("to")?;
    if let (Some(from), Some(to)) = (from, to)
        && from > to
    {
        return Err(AppError::BadRequest("The date range ends (\"to\") before it starts (\"from\").".into()));
    }
    let format = |date: time::Date| date.format(day).map_err(|e| AppError::internal("date", e));
    // `to` is a whole day: everything received before the next midnight (UTC).
    let before = match to {
        Some(to) => Some(format(to.checked_add(Duration::DAY).unwrap_or(to))?),
        None => None,
    };
    Ok(Filter {
        paper_type: params.one_of("paper_type", &PAPER_TYPES)?.map(str::to_owned),
        from: from.map(format).transpose()?,
        before,
        search: params.search()?,
        state: params.one_of("state", &decisions::STATES)?.map(|_| params.value("state")),
        pending: params.one_of("pending", &PENDING)?.map(|decision| decision.map(str::to_owned)),
        reviews_below: reviews_below(params)?,
        spread_at_least: params.one_of("disagreement", &DISAGREEMENT)?,
        sort: params.one_of("sort", &SORTS)?.unwrap_or_default(),
        // Newest first unless asked otherwise.
        descending: params.one_of("dir", &DIRECTIONS)?.unwrap_or(true),
    })
}

/// `reviews_below`: fewer than this many submitted reviews, 1 to [`REVIEWS_BELOW_MAX`].
fn reviews_below(params: &Params) -> Result<Option<i64>, AppError> {
    let Some(value) = params.get("reviews_below") else { return Ok(None) };
    value.parse::<i64>().ok().filter(|n| (1..=REVIEWS_BELOW_MAX).contains(n)).map(Some).ok_or_else(|| {
        AppError::BadRequest(format!(
            "\"{}\" is not a number of reviews for \"reviews_below\": use 1 to {REVIEWS_BELOW_MAX}.",
            shown(value)
        ))
    })
}

/// The choices of `reviews_below`: fewer than 1 (none) up to the reviews a paper needs, and
/// the value asked for when it is beyond them.
fn reviews_below_control(value: String, needed: i64) -> Control {
    let asked = value.parse::<i64>().unwrap_or(0);
    let mut options = vec![(String::new(), "All".to_owned())];
    for n in 1..=needed.max(asked).clamp(1, REVIEWS_BELOW_MAX) {
        let label = if n == 1 { "None submitted".to_owned() } else { format!("Fewer than {n}") };
        options.push((n.to_string(), label));
    }
    Control { name: "reviews_below", label: "Submitted reviews", kind: "select", value, options }
}

/// The address of one submission's page.
pub fn href(reference: &str) -> String {
    format!("{PATH}/{reference}")
}

/// What the list says on top after a selection was staged: the text and links on.
pub struct Notice {
    pub text: String,
    pub links: Vec<(String, String)>,
}

/// The submissions' list: a [`ListPage`] with the notice of what was staged.
#[derive(askama::Template)]
#[template(path = "organiser/submissions.html")]
struct SubmissionsPage {
    list: ListPage,
    notice: Option<Notice>,
}

impl std::ops::Deref for SubmissionsPage {
    type Target = ListPage;

    fn deref(&self) -> &ListPage {
        &self.list
    }
}

/// Takes [`STAGED`] and [`COUNT`] out of `raw`: the notice they ask for, and the rest of the
/// query (the filters).
fn staged_notice(raw: Option<&str>) -> Result<(Option<Notice>, String), AppError> {
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(raw.unwrap_or("").as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let (notice, rest): (Vec<_>, Vec<_>) = pairs.into_iter().partition(|(k, _)| k == STAGED || k == COUNT);
    let query = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(&rest).finish();
    if notice.is_empty() {
        return Ok((None, query));
    }
    let value = |name: &str| {
        let mut values = notice.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str());
        match (values.next(), values.next()) {
            (Some(value), None) => Some(value),
            _ => None,
        }
    };
    let bad = || {
        AppError::BadRequest(format!(
            "\"{STAGED}\" (accepted, rejected or none) and \"{COUNT}\" (how many, 1 or more) come together, once each: \
             they say what a selection just staged."
        ))
    };
    let decision = value(STAGED).filter(|d| ["accepted", "rejected", "none"].contains(d)).ok_or_else(bad)?;
    let count =
        value(COUNT).and_then(|n| n.parse::<usize>().ok()).filter(|n| (1..=ITEMS_MAX).contains(n)).ok_or_else(bad)?;
    let text = Staged { decision: Decision::parse(decision), count }.notice();
    let links = vec![
        (format!("{PATH}?pending=any"), "Show the pending decisions".to_owned()),
        (PREVIEW.to_owned(), "Apply decisions".to_owned()),
    ];
    Ok((Some(Notice { text, links }), query))
}

/// GET `/organiser/submissions`.
pub async fn list(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let (notice, query) = staged_notice(raw.as_deref())?;
    let params = Params::parse(Some(&query), &KNOWN)?;
    let filter = filter(&params)?;
    let page = params.page()?;
    let counts = dashboard::counts(&state).await?;
    let (total, rows) = submissions::list(&state.pool, &filter, page, &counts).await?;
    let needed = reviewers::settings(&state.pool).await?.reviewers_per_paper;
    let zone = view::event_zone(&state).await;
    let rows = rows
        .into_iter()
        .map(|s| {
            let authors = if s.submitted.co_author_name.is_empty() {
                s.submitted.author_name.clone()
            } else {
                format!("{}; {}", s.submitted.author_name, s.submitted.co_author_name)
            };
            let pending = s.pending_decision.as_deref().and_then(Decision::parse).map_or("", Decision::verb);
            vec![
                Cell::link(s.submitted.reference.clone(), href(&s.submitted.reference))
                    .selectable(format!("{}:{}", s.submitted.reference, s.version)),
                Cell::text(s.submitted.paper_title),
                Cell::text(authors),
                Cell::text(s.submitted.email),
                Cell::text(s.submitted.paper_type),
                Cell::time(&s.created, &zone),
                Cell::text(decisions::state_label(&s.state)),
                Cell::text(pending),
                Cell::text(format!("{}/{needed}", s.review.reviews_submitted)),
                Cell::text(figures::score(s.review.review_score)),
                Cell::text(figures::spread(s.review.review_spread)),
                Cell::text(figures::recommendation_counts(&s.review.recommendations)),
            ]
        })
        .collect();
    let mut columns = vec![
        "Reference",
        "Title",
        "Authors",
        "E-mail",
        "Paper type",
        "Received",
        "State",
        "Pending decision",
        "Reviews",
        "Score",
        "Spread",
        "Recommendations",
    ];
    let mut rows: Vec<Vec<Cell>> = rows;
    view::drop_empty_columns(&mut columns, &mut rows);
    let list = ListPage {
        layout: layout(&state, "Submissions", PATH).await?,
        heading: "Submissions",
        path: PATH,
        summary: Vec::new(),
        controls: vec![
            Control::search("Search title, author, e-mail, reference", params.value("q")),
            Control::select("paper_type", "Paper type", params.value("paper_type"), &PAPER_TYPES),
            Control::select("state", "State", params.value("state"), &decisions::STATES),
            Control::select(
                "pending",
                "Pending decision",
                params.value("pending"),
                &[("any", "Any pending"), ("accepted", "Accept"), ("rejected", "Reject")],
            ),
            reviews_below_control(params.value("reviews_below"), needed),
            Control::select(
                "disagreement",
                "Reviewers disagree",
                params.value("disagreement"),
                &[("yes", "Scores 2 points or more apart")],
            ),
            Control::date("from", "Received from", params.value("from")),
            Control::date("to", "Received until", params.value("to")),
            Control::select(
                "sort",
                "Sort by",
                params.value("sort"),
                &[
                    ("received", "Received"),
                    ("reference", "Reference"),
                    ("title", "Title"),
                    ("score", "Review score"),
                    ("reviews", "Reviews submitted"),
                ],
            ),
            Control::select("dir", "Order", params.value("dir"), &[("desc", "Descending"), ("asc", "Ascending")]),
        ],
        columns,
        rows,
        pager: Pager::new(PATH, &params, page, total),
        bulk: Some(Bulk {
            action: REVIEW,
            choices: vec![("accepted", "Accept"), ("rejected", "Reject"), ("none", "Clear the pending decision")],
            button: "Review the selection",
        }),
    };
    render(StatusCode::OK, &SubmissionsPage { list, notice })
}

/// GET `/organiser/submissions.csv`: the same rows, every page, with the columns of
/// `conference export submissions`.
pub async fn csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &KNOWN)?;
    let filter = filter(&params)?;
    static HEADER: std::sync::LazyLock<[&str; visitors::SUBMISSION_COLUMN_COUNT]> =
        std::sync::LazyLock::new(visitors::submission_header);
    let list = CsvList {
        list: "submissions",
        header: &*HEADER,
        rows: submissions::stream,
        write: |out, s: Submission| visitors::write_submission(out, &s),
    };
    download::csv(&state, &organiser, list, filter, params.details()).await
}

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
    let zone = view::event_zone(&state).await;
    let n = &s.submitted;
    let text = |value: &str| Cell::text(value);
    let groups = vec![
        Group {
            heading: "Paper",
            fields: vec![
                ("Reference", text(&n.reference)),
                ("Title", text(&n.paper_title)),
                ("Paper type", text(&n.paper_type)),
                ("Presentation", text(&n.presentation_type)),
                ("Received", Cell::time(&s.created, &zone)),
                ("Message", text(&n.message)),
                (
                    "Heard of us through",
                    text(
                        paper_form::CONFERENCE_SOURCES
                            .iter()
                            .find(|(value, _)| *value == n.conference_source)
                            .map_or(n.conference_source.as_str(), |(_, label)| label),
                    ),
                ),
            ],
        },
        Group {
            heading: "Authors",
            fields: [
                ("Author", text(&n.author_name)),
                ("Co-authors", text(&n.co_author_name)),
                // The spec's `name` has no input on the form: shown only when a paper has one.
                ("Name", text(&n.name)),
                ("E-mail", Cell::link(n.email.clone(), format!("mailto:{}", n.email))),
                ("Phone", text(&n.number)),
                ("Country", text(&n.country)),
                ("Department", text(&n.department)),
                ("University or organisation", text(&n.university_organization)),
            ]
            .into_iter()
            .filter(|(label, value)| *label != "Name" || !value.text.trim().is_empty())
            .collect(),
        },
        Group {
            heading: "Decision",
            fields: vec![
                ("State", text(decisions::state_label(&s.state))),
                (
                    "Pending decision",
                    text(s.pending_decision.as_deref().and_then(Decision::parse).map_or("None", Decision::verb)),
                ),
                ("Note for the author's mail", text(&s.decision_note)),
                ("Decision applied", Cell::time_or(s.decided_at.as_deref(), &zone, "Not yet")),
                ("Version", text(&s.version.to_string())),
            ],
        },
        Group {
            heading: "File",
            fields: vec![
                ("Uploaded as", text(&n.file_name)),
                ("Type", text(&n.file_type)),
                ("Size", text(&paper_form::human_size(n.file_size))),
                ("Stored as", text(&n.file_path)),
            ],
        },
    ];
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

/// The form that stages a decision on one submission, drawn from its current version.
fn decision_form(s: &Submission) -> ActionForm {
    ActionForm {
        heading: "Pending decision",
        action: format!("{}/decision", href(&s.submitted.reference)),
        fields: vec![
            Field::hidden("version", s.version.to_string()),
            Field::select(
                "decision",
                "Decision",
                s.pending_decision.clone().unwrap_or_else(|| "none".into()),
                &[("none", "None"), ("accepted", "Accept"), ("rejected", "Reject")],
            ),
            Field::textarea("note", "Note for the author's mail (optional)", s.decision_note.clone()),
        ],
        button: "Save the pending decision",
    }
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
