//! Every page of the page table, and the files crawlers and calendars read, requested through
//! the router of a state: what `conference seed --check` renders with a seed's new content
//! (issue 22) to find a page that would fail or show a block's error text.

use axum::body::Body;
use axum::http::Request;
use tower::ServiceExt;

use crate::handlers::page_table::{PAGES, addresses};
use crate::handlers::state::AppState;

/// The marker of a block's error text in a page (`templates/pages/*.html`, `block-error`).
const BLOCK_ERROR: &str = "class=\"block-error\"";

/// A page that would not show as it should: its path and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageProblem {
    pub path: String,
    pub reason: String,
}

/// Requests every page (a highlight's and a session's once each, `page_table::addresses`;
/// `/Success` and `/Failed` without an order, as a visitor may reach them) plus
/// `/sitemap.xml`, `/robots.txt` and `/calendar.ics` from `state`'s router, with the content
/// `state` has loaded. Returns the pages answering other than 200, or showing a block's error
/// text, with the text. A redirect is an answer too (`/Success` without an order sends the
/// visitor home).
pub async fn check_pages(state: AppState) -> Vec<PageProblem> {
    let content = state.content.snapshot().await;
    let router = crate::http::router::app(state);
    let mut paths: Vec<String> = Vec::new();
    for page in PAGES.iter().filter(|page| page.path == page.canonical) {
        paths.extend(addresses(page, &content));
    }
    paths.extend(["/sitemap.xml", "/robots.txt", "/calendar.ics"].map(String::from));
    let mut problems = Vec::new();
    for path in paths {
        let request = Request::get(&path).body(Body::empty()).expect("a page path is a valid URI");
        let response = router.clone().oneshot(request).await.expect("the router is infallible");
        let status = response.status();
        // Pages are a few hundred KiB at most; 16 MiB bounds a runaway answer.
        let body = match axum::body::to_bytes(response.into_body(), 16 << 20).await {
            Ok(body) => String::from_utf8_lossy(&body).into_owned(),
            Err(err) => {
                problems.push(PageProblem { path, reason: format!("the answer could not be read: {err}") });
                continue;
            }
        };
        if !(status.is_success() || status.is_redirection()) {
            problems.push(PageProblem { path, reason: format!("answers {status}") });
        } else if let Some(at) = body.find(BLOCK_ERROR) {
            let text = body[at..].split_once('>').map_or("", |(_, rest)| rest);
            let text = text.split_once('<').map_or(text, |(text, _)| text).trim();
            problems.push(PageProblem { path, reason: format!("shows a block's error text: {text:?}") });
        }
    }
    problems
}
