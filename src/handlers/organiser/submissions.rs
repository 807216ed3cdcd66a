//! The submissions of the back office (DESIGN.md section 12, issue 20 item 4):
//! `/organiser/submissions` (filters `paper_type`, `state`, `pending`, `from`, `to`,
//! `reviews_below`, `disagreement`; search `q`; `sort`, `dir`; `page`) and its CSV. One
//! submission's page and its paper are `super::submission`.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use time::Duration;
use time::macros::format_description;

use super::dashboard;
use super::download::{self, CsvList};
use super::query::Params;
use super::session::{SignedIn, SignedInForFile};
use super::sign_in::layout;
use crate::decisions::stage::{ITEMS_MAX, Staged};
use crate::decisions::states::{self as decisions, Decision, shown};
use crate::error::AppError;
use crate::export::visitors;
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::repo::reviewers;
use crate::repo::submissions::{self, Filter, Sort, Submission};
use crate::review::figures;
use crate::views::organiser::shared::{self as view, Bulk, Cell, ListPage, Pager};
use crate::views::organiser::submissions::{COLUMNS, Notice, REVIEWS_BELOW_MAX, SubmissionsPage, controls, row};
pub use crate::views::organiser::submissions::{PATH, href};

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
    let zone = state.event_zone().await;
    let pending = |s: &Submission| s.pending_decision.as_deref().and_then(Decision::parse).map_or("", Decision::verb);
    let mut rows: Vec<Vec<Cell>> = rows.into_iter().map(|s| row(pending(&s), s, needed, &zone)).collect();
    let mut columns = COLUMNS.to_vec();
    view::drop_empty_columns(&mut columns, &mut rows);
    let list = ListPage {
        layout: layout(&state, "Submissions", PATH).await?,
        heading: "Submissions",
        path: PATH,
        summary: Vec::new(),
        controls: controls(|name| params.value(name), &PAPER_TYPES, needed),
        columns,
        rows,
        pager: Pager::new(PATH, &params.filters(), page, total),
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
