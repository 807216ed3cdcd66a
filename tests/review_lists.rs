//! The review lists at conference scale (issue 32 item 10, migration 0021): the assignments
//! overview and the reviewers' list page by the organisers' lists' rule, so following "Next
//! page" (and back with "Previous page") shows every row exactly once in the list's order,
//! deep pages included (they start at a kept anchor) and reviewers with the same name
//! included; the counts the pages keep (each paper's live assignments, the papers short of
//! reviewers, the assignments by state, the papers below their reviews) equal a direct count
//! after staging, releasing, unassigning, declaring a conflict, discarding, removing a
//! reviewer and submitting a review; and a page number that is not one is a 400 that says so.

use std::collections::HashSet;

use axum::http::StatusCode;
use time::OffsetDateTime;
use time::macros::datetime;

use crate::common::html::{by_id, first, parse, select, text};
use crate::common::review::{add_reviewer, reviewer_sign_in};
use crate::common::{TestApp, app_with_clock};
use crate::decisions::{get, post};
use crate::organiser::{CHAIR, sign_in};
use conference::clock::Clock;

const OVERVIEW: &str = "/organiser/review/assignments";
const REVIEWERS: &str = "/organiser/reviewers";
const PROGRESS: &str = "/organiser/review";

/// Before the fixture's review deadline, so reviews can be submitted.
const BEFORE: OffsetDateTime = datetime!(2025-03-01 09:30 UTC);

async fn lists_app() -> TestApp {
    app_with_clock(
        |c| {
            c.organiser_email = Some(CHAIR.into());
            c.rate_limit_per_minute = 100_000;
        },
        Clock::fixed(BEFORE),
    )
    .await
}

/// `count` papers written straight into the table, `P-LIST-0001` ..., each at its own
/// institution and mail domain; every 7th withdrawn and every 11th accepted (neither is
/// listed by the overview).
async fn papers(app: &TestApp, count: i64) {
    app.exec(&format!(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {count})
         INSERT INTO submissions (reference, name, number, email, country, author_name, co_author_name, paper_title,
             department, university_organization, paper_type, presentation_type, message, conference_source,
             file_path, file_name, file_type, file_size, created, state)
         SELECT 'P-LIST-' || CAST(1000 + i AS TEXT), '', '1', 'author' || CAST(i AS TEXT) || '@inst' || CAST(i AS TEXT) || '.example.org',
             'X', 'Author ' || CAST(i AS TEXT), '', 'Listed paper ' || CAST(i AS TEXT), 'D',
             'Institute No. ' || CAST(i AS TEXT), 'Full Paper', 'Oral', 'M', 'others',
             'papers/P-LIST-' || CAST(1000 + i AS TEXT) || '.pdf', 'p.pdf',
             'application/pdf', 5, '2025-01-01T00:00:00.000000Z',
             CASE WHEN i % 7 = 0 THEN 'withdrawn' WHEN i % 11 = 0 THEN 'accepted' ELSE 'submitted' END
         FROM n"
    ))
    .await;
}

/// The references of the submitted papers, oldest first: what the overview lists.
async fn submitted(app: &TestApp) -> Vec<String> {
    sqlx::query_scalar("SELECT reference FROM submissions WHERE state = 'submitted' ORDER BY id")
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

/// The `id`s (less `prefix`) of the rows matching `rows` on the page at `path`, and its
/// "Previous page" and "Next page" links made absolute.
async fn page_of(
    app: &TestApp,
    cookie: &str,
    path: &str,
    rows: &str,
    prefix: &str,
) -> (Vec<String>, Option<String>, Option<String>) {
    let reply = get(app, cookie, path).await;
    assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text());
    let document = parse(&reply.text());
    let ids = select(&document, rows)
        .iter()
        .map(|row| row.value().attr("id").unwrap().strip_prefix(prefix).unwrap().to_owned())
        .collect();
    let base = path.split('?').next().unwrap();
    let link = |rel: &str| {
        first(&document, &format!("nav.organiser__pager a[rel={rel}]")).map(|a| {
            let href = a.value().attr("href").unwrap();
            if href.starts_with('?') { format!("{base}{href}") } else { href.to_owned() }
        })
    };
    (ids, link("prev"), link("next"))
}

/// Every page from `start` following `rel` links: the rows of each page in turn, and the
/// address of the last page.
async fn walk(
    app: &TestApp,
    cookie: &str,
    start: &str,
    rows: &str,
    prefix: &str,
    forward: bool,
) -> (Vec<Vec<String>>, String) {
    let mut pages = Vec::new();
    let mut at = start.to_owned();
    loop {
        let (ids, previous, next) = page_of(app, cookie, &at, rows, prefix).await;
        pages.push(ids);
        match if forward { next } else { previous } {
            Some(link) => at = link,
            None => return (pages, at),
        }
        assert!(pages.len() < 100, "the links end");
    }
}

/// Every row exactly once, in `expected`'s order, `per_page` a page.
fn assert_each_once(pages: &[Vec<String>], expected: &[String], per_page: usize) {
    let all: Vec<String> = pages.concat();
    assert_eq!(all.len(), all.iter().collect::<HashSet<_>>().len(), "no row twice");
    assert_eq!(all, expected);
    for page in &pages[..pages.len() - 1] {
        assert_eq!(page.len(), per_page);
    }
}

#[tokio::test]
async fn the_assignments_overview_pages_through_every_submitted_paper_once_in_order_deep_pages_too() {
    let app = lists_app().await;
    // 700 papers, 548 of them submitted: eleven pages, the deep one (from row 500 on) found
    // through a kept anchor and a seek.
    papers(&app, 700).await;
    let expected = submitted(&app).await;
    assert!(expected.len() > 500, "{}", expected.len());
    let cookie = sign_in(&app, CHAIR).await;
    let rows = "#papers tbody tr[id]";

    let (forward, last) = walk(&app, &cookie, OVERVIEW, rows, "paper-", true).await;
    assert_each_once(&forward, &expected, 50);
    assert_eq!(forward.len(), expected.len().div_ceil(50));
    let first_page = parse(&get(&app, &cookie, OVERVIEW).await.text());
    assert_eq!(text(by_id(&first_page, "count-papers").unwrap()), expected.len().to_string());
    assert!(text(&first_page).contains(&format!("Page 1 of {}", forward.len())));

    // Back from the last page, and forward again now that the deep pages' anchors are kept.
    let (mut backward, _) = walk(&app, &cookie, &last, rows, "paper-", false).await;
    backward.reverse();
    assert_eq!(backward, forward);
    let (again, _) = walk(&app, &cookie, OVERVIEW, rows, "paper-", true).await;
    assert_eq!(again, forward);

    // A paper submitted now joins the last page; one withdrawn leaves its page.
    app.exec("UPDATE submissions SET state = 'withdrawn' WHERE reference = 'P-LIST-1001'").await;
    app.exec(
        "INSERT INTO submissions (reference, name, number, email, country, author_name, co_author_name, paper_title,
             department, university_organization, paper_type, presentation_type, message, conference_source,
             file_path, file_name, file_type, file_size, created)
         VALUES ('P-LIST-9999', '', '1', 'late@late.example.org', 'X', 'Late', '', 'A late paper', 'D', 'Late Institute',
             'Full Paper', 'Oral', 'M', 'others', 'papers/P-LIST-9999.pdf', 'p.pdf', 'application/pdf', 5,
             '2025-01-02T00:00:00.000000Z')",
    )
    .await;
    let expected = submitted(&app).await;
    assert_eq!(expected.last().map(String::as_str), Some("P-LIST-9999"));
    assert!(!expected.contains(&"P-LIST-1001".to_owned()));
    let (pages, _) = walk(&app, &cookie, OVERVIEW, rows, "paper-", true).await;
    assert_each_once(&pages, &expected, 50);
}

#[tokio::test]
async fn the_reviewers_list_pages_through_every_reviewer_once_removed_last_and_same_names_by_id() {
    let app = lists_app().await;
    // 130 reviewers sharing five names (two differing only in letter case), every 6th
    // removed, others invited or declined: three pages, ties everywhere.
    let names = ["Ada Reyes", "bo lantern", "Bo Lantern", "Cy", "ada reyes"];
    let states = ["accepted", "invited", "declined"];
    for n in 0..130usize {
        let state = if n % 6 == 5 { "removed" } else { states[n % 3] };
        sqlx::query(
            "INSERT INTO reviewers (email, name, state, invited_at) VALUES ($1, $2, $3, '2025-01-01T00:00:00.000000Z')",
        )
        .bind(format!("reviewer{n}@lists.example"))
        .bind(names[n % names.len()])
        .bind(state)
        .execute(&app.pool)
        .await
        .unwrap();
    }
    let mut stored: Vec<(i64, String, String)> =
        sqlx::query_as("SELECT id, name, state FROM reviewers").fetch_all(&app.pool).await.unwrap();
    stored.sort_by_key(|(id, name, state)| (state == "removed", name.to_lowercase(), *id));
    let expected: Vec<String> = stored.iter().map(|(id, _, _)| id.to_string()).collect();
    let cookie = sign_in(&app, CHAIR).await;
    let rows = "#reviewers tbody tr[id]";

    let (forward, last) = walk(&app, &cookie, REVIEWERS, rows, "reviewer-", true).await;
    assert_eq!(forward.len(), 3);
    assert_each_once(&forward, &expected, 50);
    let (mut backward, _) = walk(&app, &cookie, &last, rows, "reviewer-", false).await;
    backward.reverse();
    assert_eq!(backward, forward);

    // The counts by state are of every reviewer, not of the page.
    let page = parse(&get(&app, &cookie, REVIEWERS).await.text());
    let summary = text(by_id(&page, "summary").unwrap());
    let removed = stored.iter().filter(|(_, _, s)| s == "removed").count();
    assert!(summary.contains(&format!("Removed: {removed}")), "{summary}");
    assert!(text(&page).contains("130 reviewers, page 1 of 3"));

    // A notice of a form is not carried to the next page.
    let id = &expected[0];
    let noticed = get(&app, &cookie, &format!("{REVIEWERS}?done=resent&id={id}")).await.text();
    let next =
        first(&parse(&noticed), "nav.organiser__pager a[rel=next]").unwrap().value().attr("href").unwrap().to_owned();
    assert_eq!(next, format!("{REVIEWERS}?page=2"));
}

#[tokio::test]
async fn page_numbers_that_are_not_ones_get_a_400_that_says_so_and_past_the_end_an_empty_page() {
    let app = lists_app().await;
    papers(&app, 120).await;
    let cookie = sign_in(&app, CHAIR).await;
    for list in [OVERVIEW, REVIEWERS] {
        for bad in ["page=abc", "page=0", "page=-3", "page=1.5", "page=1&page=2", "page=99999999999999999999"] {
            let reply = get(&app, &cookie, &format!("{list}?{bad}")).await;
            assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{list}?{bad}");
            let said = reply.text();
            assert!(said.contains("is not a page number") || said.contains("given twice"), "{list}?{bad}: {said}");
        }
    }
    // Past the last page: no rows, and a way back.
    let past = get(&app, &cookie, &format!("{OVERVIEW}?page=40")).await;
    assert_eq!(past.status, StatusCode::OK);
    let document = parse(&past.text());
    assert!(select(&document, "#papers tbody tr[id]").is_empty());
    assert!(first(&document, "nav.organiser__pager a[rel=prev]").is_some());
}

/// Each paper's kept `live_assignments` against its live rows counted now, and the
/// overview's and the progress page's counts against direct counts.
async fn assert_counts_right(app: &TestApp, cookie: &str, moment: &str) {
    let differing: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT s.reference, s.live_assignments, (SELECT COUNT(*) FROM review_assignments a
             WHERE a.submission_id = s.id AND a.state <> 'withdrawn') AS counted
         FROM submissions s",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    let differing: Vec<_> = differing.into_iter().filter(|(_, kept, counted)| kept != counted).collect();
    assert!(differing.is_empty(), "{moment}: kept and counted differ: {differing:?}");

    let direct = |sql: &'static str| {
        let pool = app.pool.clone();
        async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(&pool).await.unwrap().to_string() }
    };
    let overview = parse(&get(app, cookie, OVERVIEW).await.text());
    let shown = |id: &str| text(by_id(&overview, id).unwrap());
    assert_eq!(
        shown("count-short"),
        direct(
            "SELECT COUNT(*) FROM submissions s WHERE s.state = 'submitted' AND (SELECT COUNT(*) FROM review_assignments a
             WHERE a.submission_id = s.id AND a.state <> 'withdrawn') < 2"
        )
        .await,
        "{moment}: short of reviewers"
    );
    assert_eq!(
        shown("count-staged"),
        direct("SELECT COUNT(*) FROM review_assignments WHERE state = 'staged'").await,
        "{moment}: staged"
    );
    assert_eq!(
        shown("count-released"),
        direct("SELECT COUNT(*) FROM review_assignments WHERE state = 'released'").await,
        "{moment}: released"
    );
    assert_eq!(
        shown("count-reviewers"),
        direct("SELECT COUNT(*) FROM reviewers WHERE state = 'accepted'").await,
        "{moment}: reviewers"
    );
    let progress = parse(&get(app, cookie, PROGRESS).await.text());
    let heading = text(by_id(&progress, "under-reviewed").unwrap());
    let under = direct(
        "SELECT COUNT(*) FROM submissions s WHERE s.state <> 'withdrawn' AND (SELECT COUNT(*) FROM reviews v
         JOIN review_assignments a ON a.id = v.assignment_id
         WHERE v.submission_id = s.id AND v.state = 'submitted' AND a.state = 'released') < 2",
    )
    .await;
    assert!(heading.ends_with(&format!("({under})")), "{moment}: {heading} against {under}");
}

/// The `mark` of the preview's forms.
async fn mark(app: &TestApp, cookie: &str) -> String {
    let preview = get(app, cookie, &format!("{OVERVIEW}/staged")).await.text();
    let document = parse(&preview);
    let input = first(&document, "form[action='/organiser/review/assignments/release'] input[name=mark]").unwrap();
    input.value().attr("value").unwrap().to_owned()
}

async fn paper_action(app: &TestApp, cookie: &str, reference: &str, what: &str, reviewer: i64) {
    let reply = post(app, cookie, &format!("{OVERVIEW}/{reference}/{what}"), &format!("reviewer={reviewer}")).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{what} {reference}: {}", reply.text());
}

#[tokio::test]
async fn kept_counts_equal_a_direct_count_after_every_change_of_assignments_and_reviews() {
    let app = lists_app().await;
    papers(&app, 12).await;
    let ada = add_reviewer(&app, "ada@engines.example", "Ada Lovelace", "Analytical Engines", "").await;
    let bo = add_reviewer(&app, "bo@lanternworks.example", "Bo Lantern", "Lantern Works", "").await;
    add_reviewer(&app, "cy@tideschool.example", "Cy Reyes", "Tide School", "").await;
    let cookie = sign_in(&app, CHAIR).await;
    assert_counts_right(&app, &cookie, "before anything").await;

    let staged = post(&app, &cookie, &format!("{OVERVIEW}/automatic"), "").await;
    assert_eq!(staged.status, StatusCode::SEE_OTHER, "{}", staged.text());
    assert_counts_right(&app, &cookie, "staged automatically").await;

    let released =
        post(&app, &cookie, &format!("{OVERVIEW}/release"), &format!("mark={}", mark(&app, &cookie).await)).await;
    assert_eq!(released.status, StatusCode::SEE_OTHER, "{}", released.text());
    assert_counts_right(&app, &cookie, "released").await;

    // Ada's papers, by reference.
    let of = |reviewer: i64| {
        let pool = app.pool.clone();
        async move {
            sqlx::query_scalar::<_, String>(
                "SELECT s.reference FROM review_assignments a JOIN submissions s ON s.id = a.submission_id
                 WHERE a.reviewer_id = $1 AND a.state <> 'withdrawn' ORDER BY s.reference",
            )
            .bind(reviewer)
            .fetch_all(&pool)
            .await
            .unwrap()
        }
    };
    let adas = of(ada).await;
    assert!(adas.len() >= 3, "{adas:?}");
    paper_action(&app, &cookie, &adas[0], "unassign", ada).await;
    assert_counts_right(&app, &cookie, "unassigned").await;
    paper_action(&app, &cookie, &adas[1], "conflict", ada).await;
    assert_counts_right(&app, &cookie, "a conflict declared").await;

    // Staged by hand, then discarded.
    paper_action(&app, &cookie, &adas[0], "assign", ada).await;
    assert_counts_right(&app, &cookie, "assigned by hand").await;
    let discarded =
        post(&app, &cookie, &format!("{OVERVIEW}/discard"), &format!("mark={}", mark(&app, &cookie).await)).await;
    assert_eq!(discarded.status, StatusCode::SEE_OTHER, "{}", discarded.text());
    assert_counts_right(&app, &cookie, "discarded").await;

    // Ada submits a review of her third paper.
    let code: String = sqlx::query_scalar("SELECT review_code FROM submissions WHERE reference = $1")
        .bind(&adas[2])
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let ada_cookie = reviewer_sign_in(&app, "ada@engines.example").await;
    let paper = get(&app, &ada_cookie, &format!("/review/papers/{code}")).await;
    assert_eq!(paper.status, StatusCode::OK, "{}", paper.text());
    let document = parse(&paper.text());
    let version =
        first(&document, "form.review-form input[name=version]").unwrap().value().attr("value").unwrap().to_owned();
    let body = format!(
        "version={version}&score-tidal-rigour=4&score-lantern-clarity=3&recommendation=accept&confidence=4\
         &comments_to_authors=Clear.&confidential_comments=Fine.&action=submit"
    );
    let saved = post(&app, &ada_cookie, &format!("/review/papers/{code}/review"), &body).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text());
    let submitted: i64 = sqlx::query_scalar("SELECT reviews_submitted FROM submissions WHERE reference = $1")
        .bind(&adas[2])
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(submitted, 1);
    assert_counts_right(&app, &cookie, "a review submitted").await;

    // Removing Bo hands back his unreviewed papers.
    let removed = post(&app, &cookie, &format!("{REVIEWERS}/{bo}/remove"), "").await;
    assert_eq!(removed.status, StatusCode::SEE_OTHER, "{}", removed.text());
    assert!(of(bo).await.is_empty());
    assert_counts_right(&app, &cookie, "a reviewer removed").await;

    // Rows written outside the pages (a restore, a script) are counted too.
    app.exec("DELETE FROM review_assignments WHERE state = 'withdrawn'").await;
    assert_counts_right(&app, &cookie, "withdrawn rows deleted").await;
}
