//! Deciding from the reviews (issue 32 items 7 to 9): reminders sent once at 7 days, 2 days
//! and the day after the deadline, to reviewers with unsubmitted reviews only, on one instance
//! or two; "remind now"; the progress page; the submissions list's review columns, sort,
//! filters and CSV; a submission's reviews with their reviewers' names; `{reviews}` in the
//! decision mail and the author's status page; the records (`reviews.csv`, `conference export
//! reviews`, backups); and every new route refused from outside.
//!
//! Reviewers, assignments, reviews and the submissions' review figures are written straight
//! into the database, as the reviewers' pages (built apart) write them.

use axum::http::StatusCode;
use time::OffsetDateTime;
use time::macros::datetime;

use conference::clock::Clock;
use conference::server::sweep::Sweeper;

use crate::common::html::{parse, select, text, texts};
use crate::common::review::{add_reviewer, reviewer_sign_in};
use crate::common::{BASE, TestApp, app_with_clock};
use crate::decisions::{get, mails_to, post, preview_items, submit_paper};
use crate::organiser::{CHAIR, assert_refused_anonymous_and_foreign, sign_in};

/// The deadline of these tests, in the fixture's zone (Asia/Singapore, UTC+08:00): 09:00 UTC.
const DEADLINE: &str = "2025-02-28 17:00";

/// An app whose clock stands at `now`, with the chair as organiser and no rate limit in the way.
pub(crate) async fn review_app(now: OffsetDateTime) -> TestApp {
    app_with_clock(
        |c| {
            c.organiser_email = Some(CHAIR.into());
            c.rate_limit_per_minute = 100_000;
        },
        Clock::fixed(now),
    )
    .await
}

pub(crate) async fn set_deadline(app: &TestApp, deadline: &str) {
    sqlx::query("UPDATE site SET review_deadline = $1 WHERE id = 1").bind(deadline).execute(&app.pool).await.unwrap();
}

/// A submitted paper: its row id and reference, with review code `code`.
pub(crate) async fn paper(app: &TestApp, email: &str, title: &str, code: &str) -> (i64, String) {
    let reference = submit_paper(app, email, title).await;
    let id: i64 = sqlx::query_scalar("UPDATE submissions SET review_code = $1 WHERE reference = $2 RETURNING id")
        .bind(code)
        .bind(&reference)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    (id, reference)
}

/// Assignment `number` of paper `submission` to `reviewer`, in `state`; its id.
pub(crate) async fn assign(app: &TestApp, submission: i64, reviewer: i64, number: i64, state: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO review_assignments (submission_id, reviewer_id, number, state, created, released_at)
         VALUES ($1, $2, $3, $4, '2025-02-01T00:00:00.000000Z', '2025-02-01T00:00:00.000000Z') RETURNING id",
    )
    .bind(submission)
    .bind(reviewer)
    .bind(number)
    .bind(state)
    .fetch_one(&app.pool)
    .await
    .unwrap()
}

/// What a review says.
struct Review<'a> {
    state: &'a str,
    /// Originality and clarity, each 1 to 5 (weights 2 and 1).
    scores: (i64, i64),
    recommendation: &'a str,
    confidence: i64,
    to_authors: &'a str,
    confidential: &'a str,
}

/// The review of `assignment` (of paper `submission` by `reviewer`), with its answers as the
/// form was: originality (weight 2) and clarity (weight 1). Its weighted score in thousandths.
async fn write_review(app: &TestApp, assignment: i64, submission: i64, reviewer: i64, r: &Review<'_>) -> i64 {
    let labels = ["", "Poor", "Fair", "Good", "Very good", "Excellent"];
    let (o, c) = r.scores;
    let answers = serde_json::json!([
        { "key": "originality", "label": "Originality", "weight": 2, "score": o, "score_label": labels[o as usize] },
        { "key": "clarity", "label": "Clarity", "weight": 1, "score": c, "score_label": labels[c as usize] },
    ]);
    let score = (o * 2 + c) * 1000 / 3;
    let submitted_at = (r.state == "submitted").then_some("2025-02-25T10:00:00.000000Z");
    sqlx::query(
        "INSERT INTO reviews (assignment_id, submission_id, reviewer_id, state, answers, score, recommendation,
             confidence, comments_to_authors, confidential_comments, created, updated, submitted_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, '2025-02-20T10:00:00.000000Z', '2025-02-24T10:00:00.000000Z', $11)",
    )
    .bind(assignment)
    .bind(submission)
    .bind(reviewer)
    .bind(r.state)
    .bind(answers.to_string())
    .bind(score)
    .bind(r.recommendation)
    .bind(r.confidence)
    .bind(r.to_authors)
    .bind(r.confidential)
    .bind(submitted_at)
    .execute(&app.pool)
    .await
    .unwrap();
    score
}

/// The submitted reviews' figures of paper `submission`, as the reviewers' submits keep them.
async fn figures(app: &TestApp, submission: i64, count: i64, score: Option<i64>, spread: Option<i64>, recs: &str) {
    sqlx::query(
        "UPDATE submissions SET reviews_submitted = $1, review_score = $2, review_spread = $3, recommendations = $4
         WHERE id = $5",
    )
    .bind(count)
    .bind(score)
    .bind(spread)
    .bind(recs)
    .bind(submission)
    .execute(&app.pool)
    .await
    .unwrap();
}

/// The reminders queued so far: (dedupe key, to, subject, text), oldest first.
pub(crate) async fn reminders(app: &TestApp) -> Vec<(String, String, String, String)> {
    sqlx::query_as(
        "SELECT dedupe_key, to_address, subject, text_body FROM outbox WHERE dedupe_key LIKE 'review-reminder:%' ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap()
}

fn keys(mails: &[(String, String, String, String)]) -> Vec<String> {
    mails.iter().map(|(key, ..)| key.clone()).collect()
}

/// Three papers and four reviewers: Rita has one paper to review and one draft, Sam submitted
/// his, Tom has one to review, Uma's assignment is staged (not released) and Vic's withdrawn.
/// Returns the reviewers' ids (Rita, Sam, Tom).
async fn reviewing_under_way(app: &TestApp) -> (i64, i64, i64) {
    let (p1, _) = paper(app, "ana.cruz@example.org", "Tidal lanterns at dusk", "R-AAAAA1").await;
    let (p2, _) = paper(app, "ben@example.org", "Harbour lights and tides", "R-BBBBB2").await;
    let (p3, _) = paper(app, "carla@example.org", "Quill currents", "R-CCCCC3").await;
    let rita = add_reviewer(app, "rita@reviewers.example", "Rita Reviewer", "Tide Institute", "").await;
    let sam = add_reviewer(app, "sam@reviewers.example", "Sam Second", "Lantern College", "").await;
    let tom = add_reviewer(app, "tom@reviewers.example", "Tom Third", "Quay University", "").await;
    let uma = add_reviewer(app, "uma@reviewers.example", "Uma Staged", "", "").await;
    let vic = add_reviewer(app, "vic@reviewers.example", "Vic Withdrawn", "", "").await;
    assign(app, p1, rita, 1, "released").await;
    let draft = assign(app, p2, rita, 1, "released").await;
    let draft_review = Review {
        state: "draft",
        scores: (3, 3),
        recommendation: "accept",
        confidence: 3,
        to_authors: "",
        confidential: "",
    };
    write_review(app, draft, p2, rita, &draft_review).await;
    let done = assign(app, p1, sam, 2, "released").await;
    let submitted = Review { state: "submitted", to_authors: "Fine work.", ..draft_review };
    write_review(app, done, p1, sam, &submitted).await;
    assign(app, p3, tom, 1, "released").await;
    assign(app, p3, uma, 2, "staged").await;
    assign(app, p2, vic, 2, "withdrawn").await;
    (rita, sam, tom)
}

#[tokio::test]
async fn reminders_go_once_at_7_days_2_days_and_the_day_after_to_reviewers_with_unsubmitted_reviews() {
    let app = review_app(datetime!(2025-02-20 09:00 UTC)).await;
    let clock = app.state.clock.clone();
    set_deadline(&app, DEADLINE).await;
    let (rita, _sam, tom) = reviewing_under_way(&app).await;
    let sweeper = Sweeper::new(app.pool.clone(), &app.config).with_clock(clock.clone());

    // Eight days before: nothing yet.
    sweeper.run_once().await;
    assert!(reminders(&app).await.is_empty());

    // The 7-day moment (09:00 UTC is 17:00 in the event's zone): Rita and Tom, once each.
    clock.set(datetime!(2025-02-21 09:00 UTC));
    sweeper.run_once().await;
    sweeper.run_once().await;
    let mails = reminders(&app).await;
    assert_eq!(
        keys(&mails),
        [format!("review-reminder:7-days:{rita}:{DEADLINE}"), format!("review-reminder:7-days:{tom}:{DEADLINE}")]
    );
    let (_, to, subject, body) = &mails[0];
    assert_eq!(to, "rita@reviewers.example");
    assert_eq!(subject, "[FIXCON 2025] Reminder: 2 reviews due on 28 February 2025");
    assert!(body.starts_with("Dear Rita Reviewer,"), "{body}");
    assert!(
        body.contains("The review deadline is Friday, 28 February 2025, 17:00 Singapore time (UTC+08:00), in 7 days."),
        "{body}"
    );
    assert!(body.contains("- R-AAAAA1: Tidal lanterns at dusk\n- R-BBBBB2: Harbour lights and tides"), "{body}");
    assert!(body.contains(&format!("{BASE}/review")), "{body}");
    for author in ["Ana Cruz", "Ben Reyes", "Carla Santos", "ana.cruz@example.org", "P-2025-"] {
        assert!(!body.contains(author), "a reminder never names an author or a reference: {author}");
    }
    assert!(!mails[1].3.contains("R-AAAAA1"), "Tom's mail lists his paper only");

    // Tom submits; at the 2-day moment only Rita is reminded.
    let tom_assignment: i64 = sqlx::query_scalar("SELECT id FROM review_assignments WHERE reviewer_id = $1")
        .bind(tom)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let p3: i64 = sqlx::query_scalar("SELECT submission_id FROM review_assignments WHERE id = $1")
        .bind(tom_assignment)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let toms = Review {
        state: "submitted",
        scores: (4, 4),
        recommendation: "accept",
        confidence: 4,
        to_authors: "",
        confidential: "",
    };
    write_review(&app, tom_assignment, p3, tom, &toms).await;
    clock.set(datetime!(2025-02-26 09:05 UTC));
    sweeper.run_once().await;
    let mails = reminders(&app).await;
    assert_eq!(mails.len(), 3);
    assert_eq!(mails[2].0, format!("review-reminder:2-days:{rita}:{DEADLINE}"));
    assert!(mails[2].3.contains("in 2 days"), "{}", mails[2].3);

    // The day after the deadline: Rita once, however often the sweep runs.
    clock.set(datetime!(2025-03-01 09:00 UTC));
    sweeper.run_once().await;
    clock.set(datetime!(2025-03-04 12:00 UTC));
    sweeper.run_once().await;
    let mails = reminders(&app).await;
    assert_eq!(keys(&mails)[3..], [format!("review-reminder:day-after:{rita}:{DEADLINE}")]);
    assert_eq!(mails[3].2, "[FIXCON 2025] Overdue: 2 reviews to submit (the deadline was 28 February 2025)");
    assert!(mails[3].3.contains("has passed"), "{}", mails[3].3);
    let audited: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM audit_log WHERE action = 'review.reminder_sent' AND actor = 'system' AND object_type = 'reviewer'",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap();
    assert_eq!(audited, 4, "one audit entry per mail queued");

    // A new deadline is a new set of reminders.
    set_deadline(&app, "2025-03-10 17:00").await;
    clock.set(datetime!(2025-03-03 09:00 UTC));
    sweeper.run_once().await;
    assert_eq!(reminders(&app).await.last().unwrap().0, format!("review-reminder:7-days:{rita}:2025-03-10 17:00"));
}

#[tokio::test]
async fn a_sweep_after_a_pause_sends_only_the_latest_reminder_due() {
    // The server was down at the 7-day and the 2-day moments: one mail, the 2-day one.
    let app = review_app(datetime!(2025-02-27 03:00 UTC)).await;
    set_deadline(&app, DEADLINE).await;
    let (rita, _, tom) = reviewing_under_way(&app).await;
    Sweeper::new(app.pool.clone(), &app.config).with_clock(app.state.clock.clone()).run_once().await;
    assert_eq!(
        keys(&reminders(&app).await),
        [format!("review-reminder:2-days:{rita}:{DEADLINE}"), format!("review-reminder:2-days:{tom}:{DEADLINE}")]
    );
    // No deadline, no reminder.
    let quiet = review_app(datetime!(2025-03-20 00:00 UTC)).await;
    quiet.exec("UPDATE site SET review_deadline = NULL").await;
    reviewing_under_way(&quiet).await;
    Sweeper::new(quiet.pool.clone(), &quiet.config).with_clock(quiet.state.clock.clone()).run_once().await;
    assert!(reminders(&quiet).await.is_empty());
}

/// Two instances on one database sweep at the same moment, again and again, at each
/// reminder's moment: each reviewer gets each reminder once. On PostgreSQL the instances'
/// inserts race for the same outbox key, and only the database decides.
#[tokio::test]
async fn two_instances_sweeping_at_the_same_moment_mail_each_reviewer_once() {
    let app = review_app(datetime!(2025-02-21 09:00 UTC)).await;
    let twin = app.another_instance().await;
    set_deadline(&app, DEADLINE).await;
    let (rita, _, tom) = reviewing_under_way(&app).await;
    let clock = app.state.clock.clone();
    let first = Sweeper::new(app.pool.clone(), &app.config).with_clock(clock.clone());
    let second = Sweeper::new(twin.pool.clone(), &twin.config).with_clock(twin.state.clock.clone());
    for moment in [datetime!(2025-02-21 09:00 UTC), datetime!(2025-02-26 09:00 UTC), datetime!(2025-03-01 09:00 UTC)] {
        clock.set(moment);
        for _ in 0..3 {
            let (a, b) = tokio::join!(first.remind(), second.remind());
            assert!(a + b <= 2, "at most one mail per reviewer between the two: {a} + {b}");
        }
    }
    let mut sent = keys(&reminders(&app).await);
    sent.sort();
    let mut expected: Vec<String> = ["7-days", "2-days", "day-after"]
        .iter()
        .flat_map(|kind| [rita, tom].map(|id| format!("review-reminder:{kind}:{id}:{DEADLINE}")))
        .collect();
    expected.sort();
    assert_eq!(sent, expected, "each reminder once per reviewer");
    let audited: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'review.reminder_sent'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(audited, 6);
    drop(twin);
}

#[tokio::test]
async fn overdue_counts_leave_out_withdrawn_papers_and_reviews_given_up_after_submitting() {
    let app = review_app(datetime!(2025-03-20 00:00 UTC)).await;
    set_deadline(&app, DEADLINE).await;
    let (rita, sam, _tom) = reviewing_under_way(&app).await;
    let before: Vec<(String, i64)> = conference::repo::review_records::behind(&app.pool)
        .await
        .unwrap()
        .into_iter()
        .map(|b| (b.name, b.unsubmitted))
        .collect();
    assert_eq!(before, [("Rita Reviewer".to_owned(), 2), ("Tom Third".to_owned(), 1)]);
    // Tom's paper is withdrawn by its author; Sam declares a conflict after submitting, and
    // holds a submitted review of that withdrawn paper too.
    app.exec("UPDATE submissions SET state = 'withdrawn' WHERE review_code = 'R-CCCCC3'").await;
    app.exec(&format!("UPDATE review_assignments SET state = 'withdrawn' WHERE reviewer_id = {sam}")).await;
    let p3: i64 = sqlx::query_scalar("SELECT id FROM submissions WHERE review_code = 'R-CCCCC3'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let held = assign(&app, p3, sam, 3, "released").await;
    let review = Review {
        state: "submitted",
        scores: (4, 4),
        recommendation: "accept",
        confidence: 4,
        to_authors: "Good.",
        confidential: "",
    };
    write_review(&app, held, p3, sam, &review).await;
    // A draft of Rita's on the withdrawn paper is not overdue either.
    let rita_on_p3 = assign(&app, p3, rita, 4, "released").await;
    write_review(&app, rita_on_p3, p3, rita, &Review { state: "draft", ..review }).await;
    let after: Vec<(String, i64)> = conference::repo::review_records::behind(&app.pool)
        .await
        .unwrap()
        .into_iter()
        .map(|b| (b.name, b.unsubmitted))
        .collect();
    assert_eq!(after, [("Rita Reviewer".to_owned(), 2)], "Tom's only paper was withdrawn; Sam owes nothing");
}

#[tokio::test]
async fn the_progress_page_lists_papers_below_their_reviews_and_overdue_reviewers_with_remind_now() {
    let app = review_app(datetime!(2025-02-25 09:00 UTC)).await;
    set_deadline(&app, DEADLINE).await;
    let (rita, sam, tom) = reviewing_under_way(&app).await;
    // Paper 1 has Sam's submitted review: 1 of the 2 it needs.
    let p1: i64 = sqlx::query_scalar("SELECT id FROM submissions WHERE review_code = 'R-AAAAA1'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    figures(&app, p1, 1, Some(3000), Some(0), r#"{"accept":1}"#).await;
    let cookie = sign_in(&app, CHAIR).await;

    let page = get(&app, &cookie, "/organiser/review").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = parse(&page.text());
    assert_eq!(
        texts(&html, "#review-counts li"),
        ["Papers: 3", "Reviews submitted: 1 of 4 assigned", "Reviews each paper needs: 2"]
    );
    assert_eq!(
        text(select(&html, "#review-deadline")[0]),
        "Review deadline: Friday, 28 February 2025, 17:00 Singapore time (UTC+08:00) (in 3 days)."
    );
    let rows: Vec<String> =
        select(&html, "[aria-label='Papers below their reviews'] tbody tr").into_iter().map(text).collect();
    assert_eq!(rows.len(), 3);
    assert!(rows[2].ends_with("Tidal lanterns at dusk 1/2"), "fewest reviews first: {rows:?}");
    let link = select(&html, "[aria-label='Papers below their reviews'] tbody a")[2].attr("href").unwrap().to_owned();
    assert!(link.starts_with("/organiser/submissions/P-"), "{link}");
    assert_eq!(text(select(&html, "#overdue + p")[0]), "The deadline has not passed, so no review is overdue yet.");
    assert!(select(&html, "form[action^='/organiser/review/remind/']").is_empty());

    // After the deadline (a new session: the clock moved days on): Rita (2) and Tom (1) are
    // overdue, Sam is not.
    app.state.clock.set(datetime!(2025-02-28 09:00 UTC));
    let cookie = sign_in(&app, CHAIR).await;
    let page = get(&app, &cookie, "/organiser/review").await;
    let html = parse(&page.text());
    let overdue: Vec<String> =
        select(&html, "[aria-label='Reviewers with overdue reviews'] tbody tr").into_iter().map(text).collect();
    assert_eq!(
        overdue,
        ["Rita Reviewer rita@reviewers.example 2 Remind now", "Tom Third tom@reviewers.example 1 Remind now"]
    );
    let forms: Vec<&str> =
        select(&html, "form[action^='/organiser/review/remind/']").iter().map(|f| f.attr("action").unwrap()).collect();
    assert_eq!(forms, [format!("/organiser/review/remind/{rita}"), format!("/organiser/review/remind/{tom}")]);

    // Remind now: one mail, audited, and the page says so.
    let remind = format!("/organiser/review/remind/{rita}");
    let reminded = post(&app, &cookie, &remind, "").await;
    assert_eq!(reminded.status, StatusCode::SEE_OTHER, "{}", reminded.text());
    let back = reminded.header("location").unwrap().to_owned();
    assert_eq!(back, format!("/organiser/review?reminded={rita}&sent=1"));
    let page = get(&app, &cookie, &back).await;
    assert_eq!(
        text(select(&parse(&page.text()), "#notice")[0]),
        "A reminder to Rita Reviewer (rita@reviewers.example) is in the outbox."
    );
    let mails = reminders(&app).await;
    assert_eq!(keys(&mails), [format!("review-reminder:now:{rita}:2025-02-28T09:00")]);
    assert_eq!(mails[0].1, "rita@reviewers.example");
    assert!(mails[0].3.contains("has passed"));
    // A second press within the same minute sends nothing more.
    let again = post(&app, &cookie, &remind, "").await;
    assert_eq!(again.header("location"), Some(format!("/organiser/review?reminded={rita}&sent=0").as_str()));
    assert_eq!(reminders(&app).await.len(), 1);
    // A minute later, another one.
    app.state.clock.set(datetime!(2025-02-28 09:01 UTC));
    post(&app, &cookie, &remind, "").await;
    assert_eq!(reminders(&app).await.len(), 2);
    let audited: Vec<(String, String)> =
        sqlx::query_as("SELECT actor, object_id FROM audit_log WHERE action = 'review.reminded' ORDER BY id")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(audited, vec![(CHAIR.to_owned(), rita.to_string()); 3], "every press is in the log");

    // Bad input: an unknown or malformed reviewer is 404, one with nothing to review 409.
    for path in ["/organiser/review/remind/99999", "/organiser/review/remind/abc"] {
        assert_eq!(post(&app, &cookie, path, "").await.status, StatusCode::NOT_FOUND, "{path}");
    }
    let nothing = post(&app, &cookie, &format!("/organiser/review/remind/{sam}"), "").await;
    assert_eq!(nothing.status, StatusCode::CONFLICT);
    assert!(
        nothing.text().contains("Sam Second (sam@reviewers.example) has no unsubmitted review, so nobody was mailed.")
    );
    assert_eq!(reminders(&app).await.len(), 2);
    assert_eq!(get(&app, &cookie, "/organiser/review?reminded=1").await.status, StatusCode::BAD_REQUEST);

    // From outside: no session (the sign-in page), another origin (403), a reviewer (404).
    assert_refused_anonymous_and_foreign(&app, &remind, "", &cookie).await;
    let reviewer = reviewer_sign_in(&app, "rita@reviewers.example").await;
    assert_eq!(post(&app, &reviewer, &remind, "").await.status, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, &reviewer, "/organiser/review").await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/organiser/review").await.0, StatusCode::SEE_OTHER);
    assert_eq!(reminders(&app).await.len(), 2, "nothing sent from outside");
}

/// Three papers with reviews that agree, disagree, or are missing.
async fn three_reviewed_papers(app: &TestApp) -> [(i64, String); 3] {
    let agreed = paper(app, "a1@example.org", "Agreed tides", "R-AGREE1").await;
    let split = paper(app, "a2@example.org", "Split lanterns", "R-SPLIT2").await;
    let none = paper(app, "a3@example.org", "Unread quills", "R-NONE03").await;
    figures(app, agreed.0, 2, Some(4500), Some(1000), r#"{"accept":2}"#).await;
    figures(app, split.0, 2, Some(3000), Some(2500), r#"{"weak_reject":1,"strong_accept":1}"#).await;
    [agreed, split, none]
}

#[tokio::test]
async fn the_submissions_list_shows_review_figures_sorts_by_score_filters_and_writes_them_to_its_csv() {
    let app = review_app(datetime!(2025-02-25 09:00 UTC)).await;
    let [agreed, split, none] = three_reviewed_papers(&app).await;
    let cookie = sign_in(&app, CHAIR).await;

    let list = get(&app, &cookie, "/organiser/submissions?sort=score&dir=desc").await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text());
    let html = parse(&list.text());
    let header = texts(&html, "thead th");
    let at =
        |name: &str| header.iter().position(|h| h == name).unwrap_or_else(|| panic!("a column {name}: {header:?}"));
    let rows: Vec<Vec<String>> =
        select(&html, "tbody tr").into_iter().map(|tr| select(tr, "td").into_iter().map(text).collect()).collect();
    let column = |name: &str| rows.iter().map(|r| r[at(name)].clone()).collect::<Vec<_>>();
    assert_eq!(column("Reference"), [agreed.1.clone(), split.1.clone(), none.1.clone()], "best first, unreviewed last");
    assert_eq!(column("Reviews"), ["2/2", "2/2", "0/2"]);
    assert_eq!(column("Score"), ["4.50", "3.00", ""]);
    assert_eq!(column("Spread"), ["1.00", "2.50 (disagreement)", ""]);
    assert_eq!(column("Recommendations"), ["2 accept", "1 strong accept · 1 weak reject", ""]);
    // Ascending: worst first, and still unreviewed last.
    let list = get(&app, &cookie, "/organiser/submissions?sort=score&dir=asc").await;
    let refs: Vec<String> = select(&parse(&list.text()), "tbody tr td:first-child a").into_iter().map(text).collect();
    assert_eq!(refs, [split.1.clone(), agreed.1.clone(), none.1.clone()]);
    let list = get(&app, &cookie, "/organiser/submissions?sort=reviews&dir=asc").await;
    let refs: Vec<String> = select(&parse(&list.text()), "tbody tr td:first-child a").into_iter().map(text).collect();
    assert_eq!(refs[0], none.1);

    // Filters: the disagreement, and fewer than N reviews.
    let list = get(&app, &cookie, "/organiser/submissions?disagreement=yes").await;
    let refs: Vec<String> = select(&parse(&list.text()), "tbody tr td:first-child a").into_iter().map(text).collect();
    assert_eq!(refs, std::slice::from_ref(&split.1));
    let list = get(&app, &cookie, "/organiser/submissions?reviews_below=2").await;
    let html = parse(&list.text());
    let refs: Vec<String> = select(&html, "tbody tr td:first-child a").into_iter().map(text).collect();
    assert_eq!(refs, std::slice::from_ref(&none.1));
    let csv_link = select(&html, ".organiser__count a")[0].attr("href").unwrap().to_owned();
    assert_eq!(csv_link, "/organiser/submissions.csv?reviews_below=2");
    for bad in ["reviews_below=0", "reviews_below=eleven", "disagreement=maybe", "sort=popularity"] {
        let answer = get(&app, &cookie, &format!("/organiser/submissions?{bad}")).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}");
    }

    // The CSV of a view carries the same figures.
    let csv = get(&app, &cookie, "/organiser/submissions.csv?sort=score&dir=desc").await;
    assert_eq!(csv.status, StatusCode::OK);
    let mut reader = csv::Reader::from_reader(csv.body.as_slice());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    assert_eq!(header[header.len() - 5..], ["reviews", "score", "spread", "disagreement", "recommendations"]);
    let records: Vec<Vec<String>> =
        reader.records().map(|r| r.unwrap().iter().map(str::to_owned).collect::<Vec<_>>()).collect();
    let tail = |r: &Vec<String>| r[r.len() - 5..].to_vec();
    assert_eq!(tail(&records[0]), ["2", "4.50", "1.00", "", "2 accept"]);
    assert_eq!(tail(&records[1]), ["2", "3.00", "2.50", "yes", "1 strong accept · 1 weak reject"]);
    assert_eq!(tail(&records[2]), ["0", "", "", "", ""]);
    let filtered = get(&app, &cookie, "/organiser/submissions.csv?disagreement=yes").await;
    assert_eq!(csv::Reader::from_reader(filtered.body.as_slice()).records().count(), 1);
}

/// At 20,000 submissions the list's new orders and filters are served from the indexes of
/// migration 0019 (SQLite's plans; PostgreSQL sorts 50 of them from the heap, measured in the
/// bench): sorting by score either way, or by reviews, never sorts the table, and counting a
/// "fewer than N reviews" filter reads the index only.
#[tokio::test]
async fn sorting_by_score_or_reviews_reads_an_index_on_sqlite() {
    let app = review_app(datetime!(2025-02-25 09:00 UTC)).await;
    if app.engine() != conference::db::Engine::Sqlite {
        return; // PostgreSQL plans its own way; bench/organiser.sh measures it
    }
    app.exec(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
         INSERT INTO submissions (reference, name, number, email, country, author_name, co_author_name, paper_title,
             department, university_organization, paper_type, presentation_type, message, conference_source,
             file_path, file_name, file_type, file_size, created, reviews_submitted, review_score, review_spread)
         SELECT 'P-2025-' || i, '', '1', 'a' || i || '@example.org', 'X', 'A', 'B', 'Title ' || i, 'D', 'U',
             'Full Paper', 'Oral', 'M', 'others', 'papers/P-' || i || '.pdf', 'p.pdf', 'application/pdf', 5,
             '2025-01-01T00:00:00Z', i % 4, CASE WHEN i % 4 = 0 THEN NULL ELSE (i * 37) % 5000 END,
             CASE WHEN i % 4 = 0 THEN NULL ELSE (i * 13) % 4000 END FROM n;
         ANALYZE;",
    )
    .await;
    let plan = |sql: &str| {
        let pool = app.pool.clone();
        let sql = format!("EXPLAIN QUERY PLAN {sql}");
        async move {
            let rows: Vec<(i64, i64, i64, String)> =
                sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(&pool).await.unwrap();
            rows.into_iter().map(|r| r.3).collect::<Vec<_>>().join("; ")
        }
    };
    for order in ["review_score DESC NULLS LAST, id DESC", "review_score NULLS LAST, id", "reviews_submitted, id"] {
        let shown = plan(&format!("SELECT id FROM submissions ORDER BY {order} LIMIT 50 OFFSET 19900")).await;
        assert!(shown.contains("USING COVERING INDEX submissions_review"), "{order}: {shown}");
        assert!(!shown.contains("TEMP B-TREE"), "{order} sorts nothing: {shown}");
    }
    let counted = plan("SELECT COUNT(*) FROM submissions WHERE reviews_submitted < 2").await;
    assert!(counted.contains("COVERING INDEX submissions_reviews_submitted"), "{counted}");
    // And the pages answer, the deepest too.
    let cookie = sign_in(&app, CHAIR).await;
    for path in [
        "/organiser/submissions?sort=score&dir=desc&page=400",
        "/organiser/submissions?sort=reviews&dir=asc&page=2",
        "/organiser/submissions?disagreement=yes&sort=score",
        "/organiser/submissions?reviews_below=2",
    ] {
        assert_eq!(get(&app, &cookie, path).await.status, StatusCode::OK, "{path}");
    }
}

#[tokio::test]
async fn a_submission_page_shows_every_review_with_its_reviewer_and_the_discussion() {
    let app = review_app(datetime!(2025-02-25 09:00 UTC)).await;
    let (id, reference) = paper(&app, "ana.cruz@example.org", "Tidal lanterns at dusk", "R-AAAAA1").await;
    let rita = add_reviewer(&app, "rita@reviewers.example", "Rita Reviewer", "", "").await;
    let sam = add_reviewer(&app, "sam@reviewers.example", "Sam Second", "", "").await;
    let a1 = assign(&app, id, rita, 1, "released").await;
    let a2 = assign(&app, id, sam, 2, "released").await;
    let submitted = Review {
        state: "submitted",
        scores: (5, 2),
        recommendation: "weak_accept",
        confidence: 4,
        to_authors: "Clear and useful.",
        confidential: "I know this group's earlier work.",
    };
    let score = write_review(&app, a1, id, rita, &submitted).await;
    let draft = Review { state: "draft", to_authors: "Half written", confidential: "", ..submitted };
    write_review(&app, a2, id, sam, &draft).await;
    figures(&app, id, 1, Some(score), Some(0), r#"{"weak_accept":1}"#).await;
    app.exec(&format!(
        "INSERT INTO review_comments (submission_id, reviewer_id, organiser, body, created) VALUES
         ({id}, {rita}, NULL, 'Shall we ask for the data?', '2025-02-26T08:00:00.000000Z'),
         ({id}, NULL, '{CHAIR}', 'Yes, in the decision mail.', '2025-02-26T09:00:00.000000Z')"
    ))
    .await;
    let cookie = sign_in(&app, CHAIR).await;

    let page = get(&app, &cookie, &format!("/organiser/submissions/{reference}")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = parse(&page.text());
    assert_eq!(text(select(&html, "#reviews-needed")[0]), "1 of 2 reviews: below the required 2");
    assert_eq!(texts(&html, ".organiser__review h3"), ["Reviewer 1: Rita Reviewer", "Reviewer 2: Sam Second (draft)"]);
    let first = select(&html, ".organiser__review")[0];
    let fields: Vec<(String, String)> = texts(first, "dt").into_iter().zip(texts(first, "dd")).collect();
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default();
    assert_eq!(field("Reviewer"), "Rita Reviewer (rita@reviewers.example)");
    assert_eq!(field("State"), "Submitted 25 Feb 2025, 18:00 +08");
    assert_eq!(field("Originality (weight 2)"), "5: Excellent");
    assert_eq!(field("Clarity (weight 1)"), "2: Fair");
    assert_eq!(field("Weighted score"), "4.00");
    assert_eq!(field("Recommendation"), "Weak accept");
    assert_eq!(field("Confidence"), "4 of 5");
    assert_eq!(field("Comments to the authors"), "Clear and useful.");
    assert_eq!(field("Confidential comments to the committee"), "I know this group's earlier work.");
    let second = text(select(&html, ".organiser__review")[1]);
    assert!(second.contains("Draft, not submitted (last saved 24 Feb 2025, 18:00 +08 )"), "{second}");
    assert_eq!(
        texts(&html, ".organiser__discussion li"),
        [
            "Rita Reviewer wrote on 26 Feb 2025, 16:00 +08 : Shall we ask for the data?",
            format!("{CHAIR} (organiser) wrote on 26 Feb 2025, 17:00 +08 : Yes, in the decision mail.").as_str()
        ]
    );
    // The reviews come before the decision form.
    let body = page.text();
    assert!(body.find("id=\"reviews\"").unwrap() < body.find("Save the pending decision").unwrap());

    // With both reviews in, the paper meets the requirement.
    figures(&app, id, 2, Some(score), Some(0), r#"{"weak_accept":2}"#).await;
    let page = get(&app, &cookie, &format!("/organiser/submissions/{reference}")).await;
    assert_eq!(text(select(&parse(&page.text()), "#reviews-needed")[0]), "2 of 2 reviews");
}

/// The status link (path) of the acknowledgement mailed to `email`.
async fn status_path(app: &TestApp, email: &str) -> String {
    let (_, body) = mails_to(app, email).await.into_iter().next().expect("an acknowledgement");
    let prefix = format!("{BASE}/submission/status/");
    let at = body.find(&prefix).expect("a status link");
    body[at + BASE.len()..].chars().take_while(|c| !c.is_whitespace()).collect()
}

#[tokio::test]
async fn the_decision_mail_carries_the_reviews_numbered_and_the_status_page_shows_them_after_the_decision() {
    let app = review_app(datetime!(2025-03-02 09:00 UTC)).await;
    let (id, reference) = paper(&app, "ana.cruz@example.org", "Tidal lanterns at dusk", "R-AAAAA1").await;
    let rita = add_reviewer(&app, "rita@reviewers.example", "Rita Reviewer", "", "").await;
    let sam = add_reviewer(&app, "sam@reviewers.example", "Sam Second", "", "").await;
    let tom = add_reviewer(&app, "tom@reviewers.example", "Tom Third", "", "").await;
    let a1 = assign(&app, id, rita, 1, "released").await;
    let a2 = assign(&app, id, sam, 2, "released").await;
    let a3 = assign(&app, id, tom, 3, "released").await;
    let first = Review {
        state: "submitted",
        scores: (4, 4),
        recommendation: "accept",
        confidence: 4,
        to_authors: "A clear study.\nPlease add the tide tables.",
        confidential: "Only for the committee: I reviewed this elsewhere.",
    };
    write_review(&app, a1, id, rita, &first).await;
    let second = Review { to_authors: "Well argued.", confidential: "Confidential note two.", ..first };
    write_review(&app, a2, id, sam, &second).await;
    let draft = Review { state: "draft", to_authors: "Unfinished thoughts.", ..first };
    write_review(&app, a3, id, tom, &draft).await;
    let status = status_path(&app, "ana.cruz@example.org").await;
    let cookie = sign_in(&app, CHAIR).await;

    // Before the decision the author sees no review.
    let before = app.page(&status).await;
    assert!(select(&parse(&before), "#reviews").is_empty());

    let version: i64 = sqlx::query_scalar("SELECT version FROM submissions WHERE id = $1")
        .bind(id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let staged = post(
        &app,
        &cookie,
        &format!("/organiser/submissions/{reference}/decision"),
        &format!("version={version}&decision=accepted&note="),
    )
    .await;
    assert_eq!(staged.status, StatusCode::SEE_OTHER);
    // Still nothing for the author while the decision is only pending.
    assert!(select(&parse(&app.page(&status).await), "#reviews").is_empty());
    let preview = get(&app, &cookie, "/organiser/decisions").await;
    assert!(preview.text().contains("Reviewer 1:"), "the preview shows the mail with the reviews");
    let applied = post(&app, &cookie, "/organiser/decisions/apply", &preview_items(&preview.text())).await;
    assert_eq!(applied.status, StatusCode::SEE_OTHER, "{}", applied.text());

    let (subject, body) = mails_to(&app, "ana.cruz@example.org").await.pop().unwrap();
    assert_eq!(subject, format!("[FIXCON 2025] Fixture acceptance of {reference}"));
    assert!(
        body.contains("The reviewers' comments:\n\nReviewer 1:\nA clear study.\nPlease add the tide tables.\n\nReviewer 2:\nWell argued.\n\nStatus:"),
        "{body}"
    );
    for hidden in [
        "Rita Reviewer",
        "Sam Second",
        "Tom Third",
        "reviewers.example",
        "Only for the committee",
        "Confidential note",
        "Unfinished thoughts",
        "Reviewer 3",
    ] {
        assert!(!body.contains(hidden), "the mail never carries {hidden:?}: {body}");
    }
    let html: String = sqlx::query_scalar(
        "SELECT html_body FROM outbox WHERE to_address = 'ana.cruz@example.org' ORDER BY id DESC LIMIT 1",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap();
    assert!(html.contains("Reviewer 2:\nWell argued."), "{html}");
    assert!(!html.contains("Rita") && !html.contains("Only for the committee"));

    // The status page now shows the comments, numbered, never named.
    let after = app.page(&status).await;
    let page = parse(&after);
    let section = select(&page, "#reviews");
    assert_eq!(section.len(), 1);
    assert_eq!(
        text(section[0]),
        "The reviewers' comments Reviewer 1 A clear study. Please add the tide tables. Reviewer 2 Well argued."
    );
    for hidden in ["Rita Reviewer", "Sam Second", "Only for the committee", "Confidential note", "Unfinished thoughts"]
    {
        assert!(!after.contains(hidden), "the status page never shows {hidden:?}");
    }

    // A withdrawn paper shows none; a paper decided without reviews has no such section.
    let (other, _) = paper(&app, "ben@example.org", "Harbour lights", "R-BBBBB2").await;
    let other_status = status_path(&app, "ben@example.org").await;
    let a = assign(&app, other, rita, 1, "released").await;
    write_review(&app, a, other, rita, &first).await;
    let withdrawn = app
        .post(
            &format!("{other_status}/withdraw"),
            "application/x-www-form-urlencoded",
            "confirm=yes",
            &[("origin", BASE)],
        )
        .await;
    assert_eq!(withdrawn.status, StatusCode::SEE_OTHER);
    assert!(select(&parse(&app.page(&other_status).await), "#reviews").is_empty());
    let (_, bare_ref) = paper(&app, "carla@example.org", "Quiet quills", "R-CCCCC3").await;
    let bare_status = status_path(&app, "carla@example.org").await;
    post(&app, &cookie, &format!("/organiser/submissions/{bare_ref}/decision"), "version=1&decision=rejected&note=")
        .await;
    let preview = get(&app, &cookie, "/organiser/decisions").await;
    post(&app, &cookie, "/organiser/decisions/apply", &preview_items(&preview.text())).await;
    let (_, bare_body) = mails_to(&app, "carla@example.org").await.pop().unwrap();
    assert!(!bare_body.contains("Reviewer") && !bare_body.contains("reviewers"), "{bare_body}");
    assert!(select(&parse(&app.page(&bare_status).await), "#reviews").is_empty());
}

#[tokio::test]
async fn reviews_csv_and_export_reviews_write_one_row_per_submitted_review() {
    let app = review_app(datetime!(2025-03-02 09:00 UTC)).await;
    let (p1, r1) = paper(&app, "ana.cruz@example.org", "Tidal lanterns at dusk", "R-AAAAA1").await;
    let (p2, r2) = paper(&app, "ben@example.org", "Harbour lights", "R-BBBBB2").await;
    // The form now: originality, then clarity (whatever the fixture's form holds).
    app.exec(
        "DELETE FROM review_criteria;
         INSERT INTO review_criteria (key, position, label, description, scale, weight) VALUES
         ('originality', 1, 'Originality', 'New?', '[\"Poor\",\"Fair\",\"Good\",\"Very good\",\"Excellent\"]', 2),
         ('clarity', 2, 'Clarity', 'Clear?', '[\"Poor\",\"Fair\",\"Good\",\"Very good\",\"Excellent\"]', 1)",
    )
    .await;
    let rita = add_reviewer(&app, "rita@reviewers.example", "Rita Reviewer", "", "").await;
    let sam = add_reviewer(&app, "sam@reviewers.example", "Sam Second", "", "").await;
    let review = Review {
        state: "submitted",
        scores: (4, 1),
        recommendation: "weak_accept",
        confidence: 3,
        to_authors: "=HYPERLINK(\"http://evil.example\")",
        confidential: "Borderline.",
    };
    let a = assign(&app, p1, rita, 1, "released").await;
    write_review(&app, a, p1, rita, &review).await;
    let a = assign(&app, p1, sam, 2, "released").await;
    write_review(&app, a, p1, sam, &Review { state: "draft", ..review }).await;
    // An older review answered a criterion the form no longer has.
    let a = assign(&app, p2, sam, 1, "released").await;
    app.exec(&format!(
        "INSERT INTO reviews (assignment_id, submission_id, reviewer_id, state, answers, score, recommendation, confidence,
             comments_to_authors, confidential_comments, created, updated, submitted_at)
         VALUES ({a}, {p2}, {sam}, 'submitted', '[{{\"key\":\"relevance\",\"label\":\"Relevance\",\"weight\":1,\"score\":2,\"score_label\":\"Fair\"}}]',
             2000, 'reject', 5, 'Out of scope.', '', '2025-02-20T00:00:00Z', '2025-02-21T00:00:00Z', '2025-02-21T00:00:00.000000Z')"
    ))
    .await;
    let cookie = sign_in(&app, CHAIR).await;

    let answer = get(&app, &cookie, "/organiser/reviews.csv").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-type"), Some("text/csv; charset=utf-8"));
    assert_eq!(answer.header("content-disposition"), Some("attachment; filename=\"reviews.csv\""));
    let read = |bytes: &[u8]| -> Vec<Vec<String>> {
        csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(bytes)
            .records()
            .map(|r| r.unwrap().iter().map(str::to_owned).collect())
            .collect()
    };
    let rows = read(&answer.body);
    assert_eq!(
        rows[0],
        [
            "reference",
            "reviewerNumber",
            "reviewer",
            "reviewerEmail",
            "originality",
            "clarity",
            "relevance",
            "weightedScore",
            "recommendation",
            "confidence",
            "commentsToAuthors",
            "confidentialComments",
            "submittedAt"
        ]
        .map(String::from)
        .to_vec()
    );
    assert_eq!(rows.len(), 3, "the draft is not a record: {rows:?}");
    let by_ref = |reference: &str| rows.iter().find(|r| r[0] == reference).unwrap().clone();
    assert_eq!(
        by_ref(&r1),
        [
            r1.as_str(),
            "1",
            "Rita Reviewer",
            "rita@reviewers.example",
            "4",
            "1",
            "",
            "3.00",
            "weak_accept",
            "3",
            "'=HYPERLINK(\"http://evil.example\")",
            "Borderline.",
            "2025-02-25T10:00:00.000000Z"
        ]
    );
    assert_eq!(by_ref(&r2)[4..8], ["", "", "2", "2.00"], "the old criterion has its own column");
    let logged: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'export.csv' AND object_id = 'reviews'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(logged, 1);

    // `conference export reviews` writes the same rows.
    let mut out = Vec::new();
    conference::export::export(&app.pool, conference::export::ExportKind::Reviews, &mut out).await.unwrap();
    assert_eq!(out, answer.body);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["export", "reviews"])
        .env("DATABASE_URL", app.database_url())
        .env("DATA_DIR", app.dir.path())
        .env("RUST_LOG", "warn")
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.stdout, answer.body, "the command line writes the same CSV");
    let logged: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE actor = 'cli' AND object_id = 'reviews'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(logged, 1, "the command line's export is in the audit log");

    // Never without an organiser's session.
    assert_eq!(app.get("/organiser/reviews.csv").await.0, StatusCode::NOT_FOUND);
    let reviewer = reviewer_sign_in(&app, "rita@reviewers.example").await;
    let refused = get(&app, &reviewer, "/organiser/reviews.csv").await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    assert!(!refused.text().contains("Rita Reviewer"));
}

#[tokio::test]
async fn a_review_survives_backup_and_restore() {
    use conference::backup::{restore, take};
    let app = review_app(datetime!(2025-03-02 09:00 UTC)).await;
    let (id, reference) = paper(&app, "ana.cruz@example.org", "Tidal lanterns at dusk", "R-AAAAA1").await;
    let rita = add_reviewer(&app, "rita@reviewers.example", "Rita Reviewer", "Tide Institute", "Tides").await;
    let a = assign(&app, id, rita, 1, "released").await;
    let review = Review {
        state: "submitted",
        scores: (3, 5),
        recommendation: "accept",
        confidence: 5,
        to_authors: "Kept for the publisher.",
        confidential: "Also kept.",
    };
    write_review(&app, a, id, rita, &review).await;
    app.exec(&format!(
        "INSERT INTO review_comments (submission_id, reviewer_id, body, created) VALUES ({id}, {rita}, 'Agreed.', '2025-02-26T08:00:00Z');
         INSERT INTO review_conflicts (reviewer_id, submission_id, declared_by, created) VALUES ({rita}, {id}, 'organiser', '2025-02-26T08:00:00Z')"
    ))
    .await;
    figures(&app, id, 1, Some(3667), Some(0), r#"{"accept":1}"#).await;

    let backups = tempfile::tempdir().unwrap();
    let archive = backups.path().join("site.tar.gz");
    let manifest =
        take::backup(&app.database_url(), app.dir.path(), &archive, OffsetDateTime::now_utc()).await.unwrap();
    for table in
        ["reviewers", "review_assignments", "reviews", "review_comments", "review_conflicts", "review_criteria"]
    {
        assert!(manifest.tables.contains_key(table), "{table} is in the backup");
    }
    assert_eq!(manifest.tables["reviews"], 1);
    let target = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/conference.db", target.path().display());
    restore::restore(&archive, &url, target.path(), false, OffsetDateTime::now_utc()).await.unwrap();
    let restored = conference::db::connect(&url).await.unwrap();
    let row: (String, String, String, i64, String, String) = sqlx::query_as(
        "SELECT s.reference, r.name, v.state, v.score, v.comments_to_authors, v.answers
         FROM reviews v JOIN reviewers r ON r.id = v.reviewer_id JOIN submissions s ON s.id = v.submission_id",
    )
    .fetch_one(&restored)
    .await
    .unwrap();
    assert_eq!(
        (row.0.as_str(), row.1.as_str(), row.2.as_str(), row.3),
        (reference.as_str(), "Rita Reviewer", "submitted", 3666)
    );
    assert_eq!(row.4, "Kept for the publisher.");
    assert!(row.5.contains("\"originality\""));
    let figures: (i64, Option<i64>, String) =
        sqlx::query_as("SELECT reviews_submitted, review_score, recommendations FROM submissions WHERE reference = $1")
            .bind(&reference)
            .fetch_one(&restored)
            .await
            .unwrap();
    assert_eq!(figures, (1, Some(3667), r#"{"accept":1}"#.to_owned()));
    for table in ["review_comments", "review_conflicts", "review_assignments"] {
        let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
            .fetch_one(&restored)
            .await
            .unwrap();
        assert_eq!(n, 1, "{table}");
    }
    // The restored site's CSV of reviews has the row.
    let mut out = Vec::new();
    conference::export::export(&restored, conference::export::ExportKind::Reviews, &mut out).await.unwrap();
    assert!(String::from_utf8(out).unwrap().contains("Kept for the publisher."));
}

/// Whether `text` holds a stored time as stored (`2026-12-02T01:24:35`).
fn has_raw_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.windows(19).any(|w| {
        let digits = |range: std::ops::Range<usize>| w[range].iter().all(u8::is_ascii_digit);
        digits(0..4)
            && w[4] == b'-'
            && digits(5..7)
            && w[7] == b'-'
            && digits(8..10)
            && w[10] == b'T'
            && digits(11..13)
            && w[13] == b':'
    })
}

#[tokio::test]
async fn organiser_pages_show_times_in_the_events_zone_and_a_history_in_the_pages_words() {
    let app = review_app(datetime!(2025-02-25 09:00 UTC)).await;
    let (_, reference) = paper(&app, "ana.cruz@example.org", "Tidal lanterns at dusk", "R-TIME01").await;
    app.exec("UPDATE submissions SET created = '2025-02-25T09:00:00.000000Z'").await;
    let cookie = sign_in(&app, CHAIR).await;
    // A review submitted, audited as the reviewers' page audits it.
    app.exec(&format!(
        "INSERT INTO audit_log (at, actor, client, action, object_type, object_id, details) VALUES
         ('2025-02-26T08:00:00.000000Z', 'rita@reviewers.example', NULL, 'review.submitted', 'submission', '{reference}',
          '{{\"review_code\":\"R-TIME01\",\"reviewer\":1,\"changed\":[\"scores\",\"recommendation\",\"comments_to_authors\"],\"score\":{{\"before\":null,\"after\":4125}},\"recommendation\":{{\"before\":null,\"after\":\"weak_accept\"}}}}')"
    ))
    .await;

    // Saving a pending decision says so on the submission's page.
    let version: i64 = sqlx::query_scalar("SELECT version FROM submissions WHERE reference = $1")
        .bind(&reference)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let path = format!("/organiser/submissions/{reference}");
    let saved =
        post(&app, &cookie, &format!("{path}/decision"), &format!("version={version}&decision=accepted&note=")).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER);
    let back = saved.header("location").unwrap().to_owned();
    assert_eq!(back, format!("{path}?saved=1"));
    let page = get(&app, &cookie, &back).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = parse(&page.text());
    assert_eq!(
        text(select(&html, "#saved")[0]),
        "The pending decision \"Accept\" is saved. Nobody is mailed until the decisions are applied."
    );
    assert!(select(&parse(&get(&app, &cookie, &path).await.text()), "#saved").is_empty(), "said once, after saving");
    // It links to its reviewer-assignment page.
    let assignments = format!("/organiser/review/assignments/{reference}");
    let links: Vec<_> =
        select(&html, ".organiser__actions a").into_iter().filter(|a| a.attr("href") == Some(&assignments)).collect();
    assert_eq!(links.len(), 1, "{}", page.text());
    assert_eq!(text(links[0]), "Reviewers of this paper");

    // Times: readable in the event's zone (Singapore, +08), the instant in <time datetime>.
    let fields: Vec<(String, String)> =
        texts(&html, ".organiser__fields dt").into_iter().zip(texts(&html, ".organiser__fields dd")).collect();
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    assert_eq!(field("Received").as_deref(), Some("25 Feb 2025, 17:00 +08"));
    assert_eq!(field("Name"), None, "the spec's name has no input: no empty field");
    assert!(page.text().contains("<time datetime=\"2025-02-25T09:00:00.000Z\">25 Feb 2025, 17:00 +08</time>"));
    // The history, in the page's words: a score of 4.13, no JSON.
    let history: Vec<String> = select(&html, "div[aria-label=History] tbody tr").into_iter().map(text).collect();
    let review = history.iter().find(|row| row.contains("Review submitted")).expect("the review's entry");
    assert!(review.starts_with("26 Feb 2025, 16:00 +08 rita@reviewers.example Review submitted"), "{review}");
    for line in [
        "Reviewer 1",
        "Changed: Scores, Recommendation, Comments to the authors",
        "Weighted score: None → 4.13",
        "Recommendation: None → Weak accept",
    ] {
        assert!(review.contains(line), "{line} in {review}");
    }
    assert!(!review.contains("4125") && !review.contains('[') && !review.contains('{'), "{review}");

    // No stored time as stored, on any of these pages.
    for path in [path.as_str(), "/organiser/submissions", "/organiser/audit", "/organiser", "/organiser/outbox"] {
        let page = get(&app, &cookie, path).await;
        let html = parse(&page.text());
        let main = text(select(&html, "main")[0]);
        assert!(!has_raw_time(&main), "{path}: {main}");
        assert!(!main.contains("(UTC)"), "{path}: {main}");
    }
}

#[tokio::test]
async fn the_submissions_list_leaves_out_columns_no_row_fills() {
    let app = review_app(datetime!(2025-02-25 09:00 UTC)).await;
    let [agreed, _, _] = three_reviewed_papers(&app).await;
    let cookie = sign_in(&app, CHAIR).await;
    let header = |body: &str| texts(&parse(body), "thead th");
    // Reviewed papers: every review column is there; nobody has a pending decision.
    let all = header(&get(&app, &cookie, "/organiser/submissions").await.text());
    assert_eq!(
        all,
        [
            "Reference",
            "Title",
            "Authors",
            "E-mail",
            "Paper type",
            "Received",
            "State",
            "Reviews",
            "Score",
            "Spread",
            "Recommendations"
        ]
    );
    // Only the unreviewed paper: no score, spread or recommendation column.
    let unreviewed = header(&get(&app, &cookie, "/organiser/submissions?reviews_below=1").await.text());
    assert_eq!(unreviewed, ["Reference", "Title", "Authors", "E-mail", "Paper type", "Received", "State", "Reviews"]);
    // A pending decision brings its column back.
    let version: i64 = sqlx::query_scalar("SELECT version FROM submissions WHERE reference = $1")
        .bind(&agreed.1)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    post(
        &app,
        &cookie,
        &format!("/organiser/submissions/{}/decision", agreed.1),
        &format!("version={version}&decision=rejected&note="),
    )
    .await;
    let list = get(&app, &cookie, "/organiser/submissions").await.text();
    assert!(header(&list).contains(&"Pending decision".to_owned()), "{:?}", header(&list));
    // Each row still has a cell per column.
    let html = parse(&list);
    for row in select(&html, "tbody tr") {
        assert_eq!(select(row, "td").len(), header(&list).len());
    }
}
