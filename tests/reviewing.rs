//! Reviewing (issue 32 items 2, 5, 6 and 11, DESIGN.md section 15): the review form in the
//! seed and its check, a reviewer's papers, drafts, submitting and editing until the
//! deadline (on the injectable clock), the paper's figures, the other reviews and the
//! discussion, "I have a conflict", the 404s (audited) for every paper a reviewer may not
//! see, and the anonymity crawl of every page a reviewer reaches.
//!
//! Papers are submitted through the public form and released to reviewers by SQL, as the
//! assignment pages do (their own tests cover those pages).

use std::collections::{BTreeMap, BTreeSet};
use std::process::{Command, Output};

use axum::http::StatusCode;
use time::OffsetDateTime;
use time::macros::datetime;

use crate::api_submission::{Form, pdf_of_size, submit};
use crate::common::html::{labelled, parse, select};
use crate::common::review::{add_reviewer, reviewer_sign_in};
use crate::common::{BASE, Reply, TestApp, app_with_clock, fixture};
use crate::decisions::{get, post};
use crate::organiser::{CHAIR, sign_in};
use conference::clock::Clock;

/// Two days before the fixture's review deadline.
pub(crate) const BEFORE: OffsetDateTime = datetime!(2025-03-01 09:30 UTC);
pub(crate) const ADA: &str = "ada@reviewers.example";
pub(crate) const ADA_NAME: &str = "Ada Lovelace-Reviewer";
const BEA: &str = "bea@critics.example";
const BEA_NAME: &str = "Beatrix Quarrington";

pub(crate) async fn reviewing_app() -> TestApp {
    app_with_clock(
        |c| {
            c.organiser_email = Some(CHAIR.into());
            c.rate_limit_per_minute = 100_000;
        },
        Clock::fixed(BEFORE),
    )
    .await
}

/// Submits a paper through the public form with `fields` changed and `paper` as its PDF;
/// its reference.
async fn submit_paper(app: &TestApp, fields: &[(&str, &str)], paper: Vec<u8>) -> String {
    let mut form = Form::fields_only();
    for (name, value) in fields {
        form = form.with(name, value);
    }
    let (status, answer) = submit(app, &form.file("paper.pdf", "application/pdf", paper)).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    answer["reference"].as_str().unwrap().to_owned()
}

pub(crate) async fn plain_paper(app: &TestApp, title: &str) -> String {
    submit_paper(app, &[("paperTitle", title)], pdf_of_size(2048)).await
}

/// Releases submission `reference` to `reviewer` as Reviewer `number` under the review code
/// `code` (what releasing an assignment does).
pub(crate) async fn release(app: &TestApp, reference: &str, code: &str, reviewer: i64, number: i64) {
    assign(app, reference, code, reviewer, number, "released").await;
}

async fn assign(app: &TestApp, reference: &str, code: &str, reviewer: i64, number: i64, state: &str) {
    sqlx::query("UPDATE submissions SET review_code = $1 WHERE reference = $2")
        .bind(code)
        .bind(reference)
        .execute(&app.pool)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO review_assignments (submission_id, reviewer_id, number, state, created, released_at)
         SELECT id, $1, $2, $3, '2025-02-20T00:00:00.000000Z', '2025-02-20T00:00:00.000000Z' FROM submissions
         WHERE reference = $4",
    )
    .bind(reviewer)
    .bind(number)
    .bind(state)
    .bind(reference)
    .execute(&app.pool)
    .await
    .unwrap();
}

fn paper_path(code: &str) -> String {
    format!("/review/papers/{code}")
}

/// The review form's version on a paper page.
fn version_of(page: &str) -> String {
    let document = parse(page);
    let input = select(&document, "form.review-form input[name=version]");
    assert_eq!(input.len(), 1, "one review form: {page}");
    input[0].value().attr("value").unwrap().to_owned()
}

/// A review form's body.
struct Review<'a> {
    action: &'a str,
    scores: &'a [(&'a str, &'a str)],
    recommendation: &'a str,
    confidence: &'a str,
    to_authors: &'a str,
    confidential: &'a str,
}

impl Review<'_> {
    fn body(&self, version: &str) -> String {
        let mut form = url::form_urlencoded::Serializer::new(String::new());
        form.append_pair("version", version);
        for (key, value) in self.scores {
            form.append_pair(&format!("score-{key}"), value);
        }
        form.append_pair("recommendation", self.recommendation);
        form.append_pair("confidence", self.confidence);
        form.append_pair("comments_to_authors", self.to_authors);
        form.append_pair("confidential_comments", self.confidential);
        form.append_pair("action", self.action);
        form.finish()
    }
}

/// A whole review: scores 4 (weight 2) and 3 (weight 1) = 3.667.
const WHOLE: Review<'static> = Review {
    action: "submit",
    scores: &[("tidal-rigour", "4"), ("lantern-clarity", "3")],
    recommendation: "accept",
    confidence: "4",
    to_authors: "The tides are well argued.",
    confidential: "I would accept it.",
};

/// Posts `review` with the version the paper page shows now.
async fn save(app: &TestApp, cookie: &str, code: &str, review: &Review<'_>) -> Reply {
    let page = get(app, cookie, &paper_path(code)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    post(app, cookie, &format!("{}/review", paper_path(code)), &review.body(&version_of(&page.text()))).await
}

/// The stored review of `reviewer`: (state, score, recommendation, comments to authors).
pub(crate) async fn stored_review(
    app: &TestApp,
    reviewer: i64,
) -> Option<(String, Option<i64>, Option<String>, String)> {
    sqlx::query_as("SELECT state, score, recommendation, comments_to_authors FROM reviews WHERE reviewer_id = $1")
        .bind(reviewer)
        .fetch_optional(&app.pool)
        .await
        .unwrap()
}

/// A submission's review figures: (reviews_submitted, review_score, review_spread,
/// recommendations).
async fn figures(app: &TestApp, reference: &str) -> (i64, Option<i64>, Option<i64>, String) {
    sqlx::query_as(
        "SELECT reviews_submitted, review_score, review_spread, recommendations FROM submissions WHERE reference = $1",
    )
    .bind(reference)
    .fetch_one(&app.pool)
    .await
    .unwrap()
}

/// The audit log's (action, details) of `actor`, oldest first.
pub(crate) async fn audited(app: &TestApp, actor: &str) -> Vec<(String, String)> {
    sqlx::query_as("SELECT action, details FROM audit_log WHERE actor = $1 ORDER BY id")
        .bind(actor)
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

async fn actions(app: &TestApp, actor: &str) -> Vec<String> {
    audited(app, actor).await.into_iter().map(|(action, _)| action).filter(|a| a.starts_with("review.")).collect()
}

fn see_other_to(reply: &Reply, location: &str) {
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    assert_eq!(reply.header("location"), Some(location));
}

// ---------------------------------------------------------------------------------------
// The review form in the seed (item 2)
// ---------------------------------------------------------------------------------------

/// `conference seed --check --file SEED` against the app's database.
fn seed_check(app: &TestApp, seed: &str, name: &str) -> Output {
    let path = app.dir.path().join(name);
    std::fs::write(&path, seed).unwrap();
    Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["seed", "--check", "--file"])
        .arg(&path)
        .env("DATA_DIR", app.dir.path())
        .env("DATABASE_URL", app.database_url())
        .env("RUST_LOG", "error")
        .output()
        .expect("the binary runs")
}

#[tokio::test]
async fn seed_check_and_seed_refuse_a_bad_review_form_naming_the_criterion() {
    let app = crate::common::app().await;
    let clarity = r#"'["Murky", "Dim", "Bright"]'"#;
    let cases: [(&str, String, &str); 5] = [
        (
            "scale.sql",
            fixture::SEED.replacen(clarity, r#"'["Murky"]'"#, 1),
            "review criterion lantern-clarity: the scale has 1 labels; it needs 2 to 10; nothing was changed",
        ),
        (
            "key.sql",
            fixture::SEED.replacen("('lantern-clarity', 2,", "('Lantern Clarity', 2,", 1),
            "review criterion \"Lantern Clarity\": the key must be",
        ),
        (
            "twice.sql",
            fixture::SEED.replacen("('lantern-clarity', 2,", "('tidal-rigour', 2,", 1),
            // The table's primary key finds it first, naming the statement's line.
            "UNIQUE constraint",
        ),
        (
            "deadline.sql",
            fixture::SEED.replacen("'2025-03-03 18:00'", "'3 March 2025'", 1),
            "site.review_deadline \"3 March 2025\" is not a time written YYYY-MM-DD HH:MM; nothing was changed",
        ),
        (
            "none.sql",
            conference::cli::seed_check::statements(fixture::SEED)
                .into_iter()
                .map(|(_, statement)| statement)
                .filter(|statement| !statement.starts_with("INSERT INTO review_criteria"))
                .collect::<Vec<_>>()
                .join("\n"),
            "the review form has no criterion",
        ),
    ];
    let version = conference::db::content_version(&app.pool).await.unwrap();
    for (file, seed, says) in cases {
        assert_ne!(seed, fixture::SEED, "{file} changes the seed");
        let output = seed_check(&app, &seed, file);
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(!output.status.success(), "{file}: the check fails");
        let says = if app.engine() == conference::db::Engine::Postgres && says == "UNIQUE constraint" {
            "duplicate key"
        } else {
            says
        };
        assert!(said.contains(says), "{file}: {says:?} in {said}");
        assert!(said.contains(file), "{file}: the file is named in {said}");
        let refused = conference::seed::apply::seed_with(&app.pool, seed).await;
        assert!(refused.is_err(), "{file}: `seed` refuses it too");
        if file != "twice.sql" {
            assert!(
                matches!(refused, Err(conference::seed::apply::SeedError::ReviewForm(_))),
                "{file}: {:?}",
                refused.err()
            );
        }
    }
    assert_eq!(conference::db::content_version(&app.pool).await.unwrap(), version, "nothing was applied");
    assert_eq!(app.count("review_criteria").await, 2, "the fixture's form stays");
    // The fixture itself passes.
    let output = seed_check(&app, fixture::SEED, "fixture.sql");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

// ---------------------------------------------------------------------------------------
// Reviewing (item 6)
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn a_draft_is_saved_submitted_and_edited_until_the_deadline_and_every_change_audited() {
    let app = reviewing_app().await;
    let ada = add_reviewer(&app, ADA, ADA_NAME, "Analytical Engines Ltd", "").await;
    let reference = plain_paper(&app, "Tidal lanterns under load").await;
    release(&app, &reference, "R-TIDE01", ada, 1).await;
    let cookie = reviewer_sign_in(&app, ADA).await;

    let home = get(&app, &cookie, "/review").await.text();
    assert!(home.contains("R-TIDE01") && home.contains("Tidal lanterns under load"), "{home}");
    assert!(home.contains(">To do<"), "{home}");
    assert!(home.contains(fixture::REVIEW_DEADLINE_LABEL), "the deadline in the event's zone: {home}");
    assert!(home.contains("datetime=\"2025-03-03T18:00:00+08:00\""), "{home}");

    // A partial draft.
    let reply = get(&app, &cookie, &paper_path("R-TIDE01")).await;
    assert_eq!(reply.header("cache-control"), Some("private, no-store"));
    assert_eq!(reply.header("x-robots-tag"), Some("noindex"));
    let page = reply.text();
    for (key, label, scale, _) in fixture::REVIEW_CRITERIA {
        assert!(page.contains(label), "{label}");
        for score in 1..=scale {
            assert!(page.contains(&format!("id=\"score-{key}-{score}\"")), "{key} {score}");
        }
    }
    assert!(page.contains(">Save draft<") && page.contains(">Submit review<"));
    let draft = Review {
        action: "draft",
        scores: &[("tidal-rigour", "3")],
        recommendation: "",
        confidence: "",
        to_authors: "First thoughts.",
        confidential: "",
    };
    see_other_to(&save(&app, &cookie, "R-TIDE01", &draft).await, "/review/papers/R-TIDE01?done=draft#review");
    assert_eq!(stored_review(&app, ada).await, Some(("draft".into(), None, None, "First thoughts.".into())));
    assert!(get(&app, &cookie, "/review").await.text().contains(">Draft<"));
    let page = get(&app, &cookie, &paper_path("R-TIDE01?done=draft")).await.text();
    assert!(page.contains("Your draft is saved"), "{page}");
    assert!(page.contains("id=\"score-tidal-rigour-3\" name=\"score-tidal-rigour\" value=\"3\" checked"), "{page}");

    // Submitting needs every criterion, the recommendation and the confidence.
    let partial = Review { action: "submit", ..draft };
    let refused = save(&app, &cookie, "R-TIDE01", &partial).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let text = refused.text();
    for error in ["Choose a score for Lantern clarity.", "Choose a recommendation.", "Choose how confident you are"] {
        assert!(text.contains(error), "{error} in {text}");
    }
    assert!(text.contains("First thoughts."), "the form keeps what was typed");
    assert_eq!(stored_review(&app, ada).await.unwrap().0, "draft", "nothing was saved");

    // Submitted: the score and the paper's figures.
    see_other_to(&save(&app, &cookie, "R-TIDE01", &WHOLE).await, "/review/papers/R-TIDE01?done=submitted#review");
    assert_eq!(
        stored_review(&app, ada).await,
        Some(("submitted".into(), Some(3667), Some("accept".into()), "The tides are well argued.".into()))
    );
    assert_eq!(figures(&app, &reference).await, (1, Some(3667), Some(0), r#"{"accept":1}"#.into()));
    assert!(get(&app, &cookie, "/review").await.text().contains(">Submitted<"));
    let page = get(&app, &cookie, &paper_path("R-TIDE01")).await.text();
    assert!(!page.contains(">Save draft<"), "a submitted review is not taken back to a draft");
    assert!(page.contains("3.67"), "the weighted score: {page}");

    // A form drawn before the last change is stale: 409, nothing saved.
    let stale_version = version_of(&page);
    app.state.clock.set(BEFORE + time::Duration::minutes(5));
    let edit =
        Review { scores: &[("tidal-rigour", "4"), ("lantern-clarity", "1")], recommendation: "weak_accept", ..WHOLE };
    see_other_to(&save(&app, &cookie, "R-TIDE01", &edit).await, "/review/papers/R-TIDE01?done=edited#review");
    assert_eq!(stored_review(&app, ada).await.unwrap().1, Some(3000), "(4×2 + 1) / 3");
    assert_eq!(figures(&app, &reference).await, (1, Some(3000), Some(0), r#"{"weak_accept":1}"#.into()));
    let stale = post(&app, &cookie, "/review/papers/R-TIDE01/review", &WHOLE.body(&stale_version)).await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert!(stale.text().contains("changed in another window"), "{}", stale.text());
    assert_eq!(stored_review(&app, ada).await.unwrap().1, Some(3000), "the stale form saved nothing");
    let back_to_draft = save(&app, &cookie, "R-TIDE01", &Review { action: "draft", ..WHOLE }).await;
    assert_eq!(back_to_draft.status, StatusCode::CONFLICT);
    assert!(back_to_draft.text().contains("already submitted"));

    // From the deadline's minute on (in the event's zone), nothing changes.
    app.state.clock.set(fixture::REVIEW_DEADLINE_AT);
    let cookie = reviewer_sign_in(&app, ADA).await;
    let page = get(&app, &cookie, &paper_path("R-TIDE01")).await.text();
    assert!(page.contains("The deadline has passed"), "{page}");
    assert!(!page.contains("class=\"review-form\""), "no review form after the deadline");
    assert!(page.contains("The tides are well argued."), "the review as saved still shows");
    let late = post(&app, &cookie, "/review/papers/R-TIDE01/review", &WHOLE.body(&stale_version)).await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    assert!(
        late.text().contains(&format!("The review deadline ({}) has passed", fixture::REVIEW_DEADLINE_LABEL)),
        "{}",
        late.text()
    );
    assert_eq!(stored_review(&app, ada).await.unwrap().2, Some("weak_accept".into()), "nothing changed");
    assert!(get(&app, &cookie, "/review").await.text().contains("(passed"));
    // The discussion stays open: organisers decide from it.
    see_other_to(
        &post(&app, &cookie, "/review/papers/R-TIDE01/comments", "body=Late+note").await,
        "/review/papers/R-TIDE01?done=comment#discussion",
    );

    // Every change is in the audit log, by the reviewer, about the submission.
    assert_eq!(
        actions(&app, ADA).await,
        ["review.draft_saved", "review.submitted", "review.edited", "review.commented"]
    );
    let (_, details) = audited(&app, ADA).await.into_iter().find(|(a, _)| a == "review.edited").unwrap();
    let details: serde_json::Value = serde_json::from_str(&details).unwrap();
    assert_eq!(details["score"], serde_json::json!({ "before": 3667, "after": 3000 }));
    assert_eq!(details["review_code"], "R-TIDE01");
    let objects: Vec<(Option<String>,)> =
        sqlx::query_as("SELECT object_id FROM audit_log WHERE action = 'review.submitted'")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(objects, [(Some(reference.clone()),)]);
}

#[tokio::test]
async fn without_a_deadline_reviews_stay_open_and_the_list_says_so() {
    let app = reviewing_app().await;
    app.exec("UPDATE site SET review_deadline = NULL").await;
    app.state.clock.set(datetime!(2031-01-01 00:00 UTC));
    let ada = add_reviewer(&app, ADA, ADA_NAME, "", "").await;
    let reference = plain_paper(&app, "Whenever the tide turns").await;
    release(&app, &reference, "R-OPEN10", ada, 1).await;
    let cookie = reviewer_sign_in(&app, ADA).await;
    let home = get(&app, &cookie, "/review").await.text();
    assert!(home.contains("Deadline for reviews: No deadline set."), "{home}");
    assert!(get(&app, &cookie, &paper_path("R-OPEN10")).await.text().contains("Deadline: No deadline set."));
    see_other_to(&save(&app, &cookie, "R-OPEN10", &WHOLE).await, "/review/papers/R-OPEN10?done=submitted#review");
    assert_eq!(stored_review(&app, ada).await.unwrap().0, "submitted");
}

#[tokio::test]
async fn two_reviews_make_the_papers_figures_and_others_show_only_after_submitting() {
    let app = reviewing_app().await;
    let ada = add_reviewer(&app, ADA, ADA_NAME, "", "").await;
    let bea = add_reviewer(&app, BEA, BEA_NAME, "", "").await;
    let reference = plain_paper(&app, "Counting lanterns twice").await;
    release(&app, &reference, "R-TWO002", ada, 1).await;
    release(&app, &reference, "R-TWO002", bea, 2).await;
    let ada_cookie = reviewer_sign_in(&app, ADA).await;
    let bea_cookie = reviewer_sign_in(&app, BEA).await;

    let bea_review = Review {
        scores: &[("tidal-rigour", "2"), ("lantern-clarity", "2")],
        recommendation: "reject",
        confidence: "2",
        to_authors: "BEA-TO-AUTHORS-MARK",
        confidential: "BEA-CONFIDENTIAL-MARK",
        ..WHOLE
    };
    see_other_to(
        &save(&app, &bea_cookie, "R-TWO002", &bea_review).await,
        "/review/papers/R-TWO002?done=submitted#review",
    );
    // Ada has not submitted: Bea's review is not shown to her.
    let page = get(&app, &ada_cookie, &paper_path("R-TWO002")).await.text();
    assert!(!page.contains("BEA-TO-AUTHORS-MARK") && !page.contains("BEA-CONFIDENTIAL-MARK"), "{page}");
    assert!(page.contains("appear here once you have submitted yours"));

    see_other_to(&save(&app, &ada_cookie, "R-TWO002", &WHOLE).await, "/review/papers/R-TWO002?done=submitted#review");
    // (3667 + 2000) / 2, the spread between them, the recommendations counted.
    assert_eq!(figures(&app, &reference).await, (2, Some(2834), Some(1667), r#"{"accept":1,"reject":1}"#.into()));
    let page = get(&app, &ada_cookie, &paper_path("R-TWO002")).await.text();
    let document = parse(&page);
    let others = select(&document, "#others article");
    assert_eq!(others.len(), 1, "{page}");
    let shown = crate::common::html::text(others[0]);
    for text in ["Reviewer 2", "BEA-TO-AUTHORS-MARK", "BEA-CONFIDENTIAL-MARK", "Reject", "2.00", "2 of 4: Shallow"] {
        assert!(shown.contains(text), "{text} in {shown}");
    }
    assert!(!page.contains(BEA_NAME) && !page.contains(BEA), "reviewers are numbered, never named");

    // The discussion: both reviewers and the organisers, numbered; 422 for an empty message.
    see_other_to(
        &post(&app, &ada_cookie, "/review/papers/R-TWO002/comments", "body=Is+section+3+sound%3F").await,
        "/review/papers/R-TWO002?done=comment#discussion",
    );
    let empty = post(&app, &bea_cookie, "/review/papers/R-TWO002/comments", "body=++").await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(empty.text().contains("Write a message before posting it."));
    app.exec(&format!(
        "INSERT INTO review_comments (submission_id, reviewer_id, organiser, body, created) \
         SELECT id, NULL, '{CHAIR}', 'Please agree by Friday.', '2025-03-01T10:00:00.000000Z' FROM submissions \
         WHERE reference = '{reference}'"
    ))
    .await;
    let page = get(&app, &bea_cookie, &paper_path("R-TWO002")).await.text();
    let document = parse(&page);
    let messages: Vec<String> =
        select(&document, ".review-discussion li").into_iter().map(crate::common::html::text).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].starts_with("Reviewer 1 ,"), "{messages:?}");
    assert!(messages[0].contains("Saturday, 1 March 2025, 17:30 Singapore time"), "{messages:?}");
    assert!(messages[0].contains("Is section 3 sound?"));
    assert!(messages[1].starts_with("Organisers ,") && messages[1].contains("Please agree by Friday."));
    assert!(!page.contains(ADA_NAME) && !page.contains(ADA) && !page.contains(CHAIR), "{page}");
    let own = get(&app, &ada_cookie, &paper_path("R-TWO002")).await.text();
    assert!(own.contains("Reviewer 1 (you)"));

    // With `reviewers_see_others` off, nobody sees the others' reviews.
    app.exec("UPDATE site SET reviewers_see_others = 0").await;
    let page = get(&app, &ada_cookie, &paper_path("R-TWO002")).await.text();
    assert!(!page.contains("BEA-TO-AUTHORS-MARK") && !page.contains("BEA-CONFIDENTIAL-MARK"));
    assert!(page.contains("The organisers keep the other reviews of this paper to themselves."));

    // Bea's conflict takes her review out of the figures.
    see_other_to(
        &post(&app, &bea_cookie, "/review/papers/R-TWO002/conflict", "confirm=yes").await,
        "/review?done=conflict",
    );
    assert_eq!(figures(&app, &reference).await, (1, Some(3667), Some(0), r#"{"accept":1}"#.into()));
}

#[tokio::test]
async fn a_changed_form_leaves_submitted_reviews_readable_from_their_own_copy() {
    let app = reviewing_app().await;
    let ada = add_reviewer(&app, ADA, ADA_NAME, "", "").await;
    let bea = add_reviewer(&app, BEA, BEA_NAME, "", "").await;
    let reference = plain_paper(&app, "A form that moved").await;
    release(&app, &reference, "R-FORM03", ada, 1).await;
    release(&app, &reference, "R-FORM03", bea, 2).await;
    let ada_cookie = reviewer_sign_in(&app, ADA).await;
    let bea_cookie = reviewer_sign_in(&app, BEA).await;
    save(&app, &ada_cookie, "R-FORM03", &WHOLE).await;
    save(&app, &bea_cookie, "R-FORM03", &WHOLE).await;

    // The organisers rename a criterion, drop the other and add a new one.
    let seed = fixture::SEED
        .replacen("'Tidal rigour'", "'Depth of the tides'", 1)
        .replacen(
            "('lantern-clarity', 2, 'Lantern clarity', 'Can a reader follow the paper by lantern light?', '[\"Murky\", \"Dim\", \"Bright\"]', 1)",
            "('harbour-fit', 2, 'Harbour fit', 'Does it belong here?', '[\"No\", \"Yes\"]', 1)",
            1,
        );
    assert!(seed.contains("harbour-fit"));
    conference::seed::apply::seed_with(&app.pool, seed).await.expect("the changed form applies");

    let page = get(&app, &ada_cookie, &paper_path("R-FORM03")).await.text();
    let document = parse(&page);
    let saved = crate::common::html::text(labelled(&document, "saved").expect("the review as saved"));
    assert!(saved.contains("Tidal rigour (weight 2)") && saved.contains("4 of 4: Deep"), "{saved}");
    assert!(saved.contains("Lantern clarity (weight 1)") && saved.contains("3 of 3: Bright"), "{saved}");
    assert!(saved.contains("3.67"), "{saved}");
    let others = crate::common::html::text(select(&document, "#others article")[0]);
    assert!(others.contains("Lantern clarity (weight 1)"), "another's review from its copy too: {others}");
    // The form asks today's questions, keeping the answer to the one that stayed.
    let form = crate::common::html::text(select(&document, "form.review-form")[0]);
    assert!(form.contains("Depth of the tides") && form.contains("Harbour fit"), "{form}");
    assert!(!form.contains("Lantern clarity"), "{form}");
    assert!(page.contains("id=\"score-tidal-rigour-4\" name=\"score-tidal-rigour\" value=\"4\" checked"));
}

// ---------------------------------------------------------------------------------------
// Conflicts and refused addresses (items 3 and 11)
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn i_have_a_conflict_frees_the_paper_and_closes_every_address_of_it() {
    let app = reviewing_app().await;
    let ada = add_reviewer(&app, ADA, ADA_NAME, "", "").await;
    let reference = plain_paper(&app, "A paper by a friend").await;
    release(&app, &reference, "R-CONF04", ada, 1).await;
    let cookie = reviewer_sign_in(&app, ADA).await;
    save(&app, &cookie, "R-CONF04", &WHOLE).await;
    assert_eq!(figures(&app, &reference).await.0, 1);

    let page = get(&app, &cookie, &paper_path("R-CONF04")).await.text();
    assert!(page.contains("action=\"/review/papers/R-CONF04/conflict\""));
    see_other_to(
        &post(&app, &cookie, "/review/papers/R-CONF04/conflict", "confirm=yes").await,
        "/review?done=conflict",
    );
    let home = get(&app, &cookie, "/review?done=conflict").await.text();
    assert!(!home.contains("R-CONF04"), "{home}");
    assert!(home.contains("Your conflict is recorded"));
    let (declared_by,): (String,) = sqlx::query_as("SELECT declared_by FROM review_conflicts WHERE reviewer_id = $1")
        .bind(ada)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(declared_by, "reviewer");
    let (state,): (String,) = sqlx::query_as("SELECT state FROM review_assignments WHERE reviewer_id = $1")
        .bind(ada)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(state, "withdrawn");
    assert_eq!(figures(&app, &reference).await, (0, None, None, "{}".into()), "the review no longer counts");
    assert_eq!(actions(&app, ADA).await, ["review.submitted", "review.conflict_declared"]);

    for (method, path) in [
        ("GET", "/review/papers/R-CONF04"),
        ("GET", "/review/papers/R-CONF04/paper"),
        ("POST", "/review/papers/R-CONF04/review"),
        ("POST", "/review/papers/R-CONF04/comments"),
        ("POST", "/review/papers/R-CONF04/conflict"),
    ] {
        let reply = if method == "GET" {
            get(&app, &cookie, path).await
        } else {
            post(&app, &cookie, path, &WHOLE.body("new")).await
        };
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{method} {path}");
    }
    let refused: Vec<String> = audited(&app, ADA)
        .await
        .into_iter()
        .filter(|(action, _)| action == "review.access_refused")
        .map(|(_, details)| {
            serde_json::from_str::<serde_json::Value>(&details).unwrap()["path"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(refused.len(), 5, "each refusal is audited: {refused:?}");
    assert!(refused.contains(&"/review/papers/R-CONF04/paper".to_owned()));
}

#[tokio::test]
async fn a_paper_not_released_to_the_reviewer_answers_404_like_an_unknown_address_and_is_audited() {
    let app = reviewing_app().await;
    let ada = add_reviewer(&app, ADA, ADA_NAME, "", "").await;
    let bea = add_reviewer(&app, BEA, BEA_NAME, "", "").await;
    let theirs = plain_paper(&app, "Bea's paper to review").await;
    release(&app, &theirs, "R-BEA005", bea, 1).await;
    let staged = plain_paper(&app, "Not released yet").await;
    assign(&app, &staged, "R-STG006", ada, 1, "staged").await;
    let mine = plain_paper(&app, "Ada's own paper to review").await;
    release(&app, &mine, "R-ADA007", ada, 1).await;
    let cookie = reviewer_sign_in(&app, ADA).await;

    let home = get(&app, &cookie, "/review").await.text();
    assert!(home.contains("R-ADA007") && !home.contains("R-BEA005") && !home.contains("R-STG006"), "{home}");

    let unknown = get(&app, &cookie, "/review/papers/R-ZZZ999").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let unknown_text = unknown.text().replace("R-ZZZ999", "CODE");
    let mut expected = 1;
    for code in ["R-BEA005", "R-STG006", "P-2025-NOPE", "r-ada007"] {
        let page = get(&app, &cookie, &paper_path(code)).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{code}");
        assert_eq!(page.text().replace(code, "CODE"), unknown_text, "{code}: the same answer as an unknown code");
        let file = get(&app, &cookie, &format!("{}/paper", paper_path(code))).await;
        assert_eq!(file.status, StatusCode::NOT_FOUND, "{code}'s file");
        assert!(file.header("content-disposition").is_none());
        for action in ["review", "comments", "conflict"] {
            let reply = post(&app, &cookie, &format!("{}/{action}", paper_path(code)), &WHOLE.body("new")).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{code} {action}");
        }
        expected += 5;
    }
    let refused: Vec<String> = audited(&app, ADA)
        .await
        .into_iter()
        .filter(|(action, _)| action == "review.access_refused")
        .map(|(_, details)| {
            serde_json::from_str::<serde_json::Value>(&details).unwrap()["path"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(refused.len(), expected, "{refused:?}");
    for path in ["/review/papers/R-ZZZ999", "/review/papers/R-BEA005/paper", "/review/papers/R-STG006/comments"] {
        assert!(refused.contains(&path.to_owned()), "{path} in {refused:?}");
    }
    assert_eq!(app.count("reviews").await, 0);
    assert_eq!(app.count("review_comments").await, 0);
    assert_eq!(app.count("review_conflicts").await, 0);

    // From outside: no session, another origin, an organiser who is not a reviewer.
    let page = app.request("/review/papers/R-ADA007", &[]).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    assert_eq!(page.header("location"), Some("/review"));
    assert_eq!(app.request("/review/papers/R-ADA007/paper", &[]).await.status, StatusCode::NOT_FOUND);
    let form = "application/x-www-form-urlencoded";
    for action in ["review", "comments", "conflict"] {
        let path = format!("/review/papers/R-ADA007/{action}");
        let anonymous = app.post(&path, form, WHOLE.body("new"), &[("origin", BASE)]).await;
        assert_eq!(anonymous.status, StatusCode::SEE_OTHER, "{path}");
        assert_eq!(anonymous.header("location"), Some("/review"));
        let foreign =
            app.post(&path, form, WHOLE.body("new"), &[("origin", "https://evil.example"), ("cookie", &cookie)]).await;
        assert_eq!(foreign.status, StatusCode::FORBIDDEN, "{path}");
    }
    let organiser = sign_in(&app, CHAIR).await;
    assert_eq!(get(&app, &organiser, "/review/papers/R-ADA007").await.status, StatusCode::NOT_FOUND);
    assert_eq!(post(&app, &organiser, "/review/papers/R-ADA007/conflict", "").await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.count("reviews").await + app.count("review_conflicts").await, 0);
}

// ---------------------------------------------------------------------------------------
// The anonymity crawl (items 5 and 11)
// ---------------------------------------------------------------------------------------

/// The author strings of the crawled paper: every one distinctive, so a leak shows.
const AUTHOR: &str = "Zephyrine Quillbottom";
const CO_AUTHOR: &str = "Oswin Marchbanks-Tiller";
const AUTHOR_EMAIL: &str = "zephyrine.q@quillbottom-labs.example";
const PHONE: &str = "+4915112345678";
const COUNTRY: &str = "Tuvalu";
const DEPARTMENT: &str = "Department of Bioluminescent Cartography";
const UNIVERSITY: &str = "Grimsditch Polytechnic of the Fens";

/// What a crawl saw: every answer as `METHOD url -> status`, its headers and its body.
struct Crawl {
    answers: Vec<(String, String)>,
    download_names: Vec<String>,
    paper: Option<Vec<u8>>,
}

impl Crawl {
    /// The answers that contain `needle` (case-insensitive).
    fn containing(&self, needle: &str) -> Vec<&str> {
        let needle = needle.to_lowercase();
        self.answers
            .iter()
            .filter(|(_, text)| text.to_lowercase().contains(&needle))
            .map(|(what, _)| what.as_str())
            .collect()
    }
}

fn seen(what: String, reply: &Reply) -> (String, String) {
    let mut text = String::new();
    for (name, value) in &reply.headers {
        text.push_str(&format!("{name}: {}\n", String::from_utf8_lossy(value.as_bytes())));
    }
    text.push_str(&String::from_utf8_lossy(&reply.body));
    (format!("{what} -> {}", reply.status), text)
}

/// A form of a crawled page: its action and the bodies its submit buttons send (hidden
/// fields, the first choice of each radio group, some text in each text area).
fn forms_of(page: &str) -> Vec<(String, Vec<String>)> {
    let document = parse(page);
    let mut forms = Vec::new();
    for form in select(&document, "form") {
        let action = form.value().attr("action").unwrap_or_default().to_owned();
        let mut fields = url::form_urlencoded::Serializer::new(String::new());
        let mut groups = BTreeSet::new();
        for input in select(form, "input") {
            let (Some(name), value) = (input.value().attr("name"), input.value().attr("value").unwrap_or_default())
            else {
                continue;
            };
            match input.value().attr("type") {
                Some("radio") if groups.insert(name.to_owned()) => {
                    fields.append_pair(name, value);
                }
                Some("radio") => {}
                _ => {
                    fields.append_pair(name, value);
                }
            }
        }
        for area in select(form, "textarea") {
            fields.append_pair(area.value().attr("name").unwrap(), "Written by the crawl.");
        }
        let base = fields.finish();
        let mut bodies = Vec::new();
        for button in select(form, "button") {
            match (button.value().attr("name"), button.value().attr("value")) {
                (Some(name), Some(value)) => {
                    let extra = url::form_urlencoded::Serializer::new(String::new()).append_pair(name, value).finish();
                    bodies.push(if base.is_empty() { extra } else { format!("{base}&{extra}") });
                }
                _ => bodies.push(base.clone()),
            }
        }
        forms.push((action, bodies));
    }
    forms
}

/// A same-site address to follow: a path of the reviewers' area, without its fragment.
fn followed(href: &str) -> Option<String> {
    let path = href.split('#').next()?;
    (path.starts_with("/review") && !path.starts_with("//")).then(|| path.to_owned())
}

/// GETs every reviewers' page reachable from `/review` (links and redirects), then posts its
/// forms, each from the page as it is just then (the discussion, the review as a draft and
/// submitted; never "Sign out"), GETs every page again, and posts "I have a conflict" last.
async fn crawl(app: &TestApp, cookie: &str) -> Crawl {
    let mut crawl = Crawl { answers: Vec::new(), download_names: Vec::new(), paper: None };
    // Each form's action, the page it is on and how many submit buttons it has.
    let mut forms: BTreeMap<String, (String, usize)> = BTreeMap::new();
    for round in 0..2 {
        let mut queue = vec!["/review".to_owned()];
        let mut visited = BTreeSet::new();
        while let Some(url) = queue.pop() {
            if !visited.insert(url.clone()) {
                continue;
            }
            let reply = get(app, cookie, &url).await;
            crawl.answers.push(seen(format!("GET {url}"), &reply));
            if let Some(location) = reply.header("location").and_then(followed) {
                queue.push(location);
            }
            if let Some(name) = reply.header("content-disposition") {
                assert_eq!(reply.status, StatusCode::OK, "{url}");
                crawl.download_names.push(name.to_owned());
                crawl.paper = Some(reply.body.clone());
                continue;
            }
            let page = reply.text();
            let document = parse(&page);
            for link in select(&document, "a[href]") {
                if let Some(path) = followed(link.value().attr("href").unwrap()) {
                    queue.push(path);
                }
            }
            for (action, bodies) in forms_of(&page) {
                forms.entry(action).or_insert((url.clone(), bodies.len()));
            }
        }
        if round == 0 {
            let mut posted = Vec::new();
            for (action, (page, buttons)) in &forms {
                if action.ends_with("/conflict") || action == "/review/sign-out" {
                    continue;
                }
                for button in 0..*buttons {
                    let reply = post_form(app, cookie, page, action, button, &mut crawl).await;
                    assert!(reply.status.is_redirection(), "POST {action} (button {button}): {}", reply.text());
                    posted.push(action.clone());
                }
            }
            assert!(posted.iter().any(|a| a.ends_with("/review")), "the review form was posted: {forms:?}");
            assert!(posted.iter().any(|a| a.ends_with("/comments")), "the discussion was posted: {forms:?}");
        }
    }
    let (conflict, (page, _)) =
        forms.iter().find(|(action, _)| action.ends_with("/conflict")).expect("the conflict form");
    let reply = post_form(app, cookie, page, conflict, 0, &mut crawl).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    crawl
}

/// Posts button `button` of the form `action` of `page` as the page shows it now, records
/// the answer and the page its redirect leads to; the answer.
async fn post_form(app: &TestApp, cookie: &str, page: &str, action: &str, button: usize, crawl: &mut Crawl) -> Reply {
    let now = get(app, cookie, page).await.text();
    let (_, bodies) = forms_of(&now).into_iter().find(|(a, _)| a == action).expect("the form is still there");
    let body = bodies.get(button).cloned().unwrap_or_else(|| bodies[bodies.len() - 1].clone());
    let reply = post(app, cookie, action, &body).await;
    crawl.answers.push(seen(format!("POST {action} {body}"), &reply));
    if let Some(location) = reply.header("location") {
        let next = get(app, cookie, location).await;
        crawl.answers.push(seen(format!("GET {location}"), &next));
    }
    reply
}

/// A paper whose every author string is distinctive, released to Ada (Reviewer 1) and to
/// Bea (Reviewer 2), who has submitted a review and written in the discussion; Ada signed in.
async fn crawled_paper(app: &TestApp) -> (String, Vec<u8>, String) {
    let ada = add_reviewer(app, ADA, ADA_NAME, "", "").await;
    let bea = add_reviewer(app, BEA, BEA_NAME, "Critics Guild", "").await;
    let paper = pdf_of_size(40 * 1024);
    let reference = submit_paper(
        app,
        &[
            ("name", AUTHOR),
            ("authorName", AUTHOR),
            ("coAuthorName", CO_AUTHOR),
            ("email", AUTHOR_EMAIL),
            ("number", PHONE),
            ("country", COUNTRY),
            ("department", DEPARTMENT),
            ("universityOrganization", UNIVERSITY),
            ("paperTitle", "Tidal lanterns and the sea of results"),
            (
                "message",
                "Corresponding author: Zephyrine Quillbottom (zephyrine.q@quillbottom-labs.example), \
                 Grimsditch Polytechnic of the Fens, Tuvalu. We study tides by lantern light.",
            ),
        ],
        paper.clone(),
    )
    .await;
    release(app, &reference, "R-ANON08", ada, 1).await;
    release(app, &reference, "R-ANON08", bea, 2).await;
    let bea_cookie = reviewer_sign_in(app, BEA).await;
    save(app, &bea_cookie, "R-ANON08", &WHOLE).await;
    post(app, &bea_cookie, "/review/papers/R-ANON08/comments", "body=Reviewer+two+here.").await;
    let cookie = reviewer_sign_in(app, ADA).await;
    (reference, paper, cookie)
}

#[tokio::test]
async fn the_anonymity_crawl_finds_no_authors_string_in_double_anonymous_mode() {
    let app = reviewing_app().await;
    let (reference, paper, cookie) = crawled_paper(&app).await;
    let crawl = crawl(&app, &cookie).await;

    let pages: Vec<&str> = crawl.answers.iter().map(|(what, _)| what.as_str()).collect();
    for reached in ["GET /review ", "GET /review/papers/R-ANON08 ", "GET /review/papers/R-ANON08/paper "] {
        assert!(pages.iter().any(|p| p.starts_with(reached)), "{reached} was crawled: {pages:#?}");
    }
    assert_eq!(crawl.paper.as_deref(), Some(&paper[..]), "the paper downloads whole");
    assert!(!crawl.download_names.is_empty());
    for name in &crawl.download_names {
        assert_eq!(name, "attachment; filename=\"R-ANON08.pdf\"");
    }
    // Reviewer 2's review and message were reached, numbered.
    assert!(!crawl.containing("The tides are well argued.").is_empty(), "the other review was shown");
    assert!(!crawl.containing("Reviewer two here.").is_empty());
    assert!(!crawl.containing("We study tides by lantern light.").is_empty(), "the authors' message, redacted");

    let domain = AUTHOR_EMAIL.split('@').nth(1).unwrap();
    let hidden = [
        AUTHOR,
        "Quillbottom",
        CO_AUTHOR,
        AUTHOR_EMAIL,
        domain,
        PHONE,
        COUNTRY,
        DEPARTMENT,
        UNIVERSITY,
        "Grimsditch",
        &reference,
        BEA_NAME,
        BEA,
    ];
    for needle in hidden {
        assert!(crawl.containing(needle).is_empty(), "{needle:?} leaked in {:?}", crawl.containing(needle));
    }
}

#[tokio::test]
async fn in_single_anonymous_mode_the_same_crawl_shows_the_authors_names_but_never_their_contacts() {
    let app = reviewing_app().await;
    app.exec("UPDATE site SET review_mode = 'single_anonymous'").await;
    let (reference, _, cookie) = crawled_paper(&app).await;
    let crawl = crawl(&app, &cookie).await;
    for shown in [AUTHOR, CO_AUTHOR, UNIVERSITY, DEPARTMENT] {
        assert!(!crawl.containing(shown).is_empty(), "{shown} is shown in single-anonymous mode");
    }
    for needle in [AUTHOR_EMAIL, PHONE, reference.as_str(), BEA_NAME, BEA] {
        assert!(crawl.containing(needle).is_empty(), "{needle:?} leaked in {:?}", crawl.containing(needle));
    }
}

#[tokio::test]
async fn the_paper_resumes_from_a_byte_range_under_its_review_code() {
    let app = reviewing_app().await;
    if app.engine() != conference::db::Engine::Sqlite {
        return; // PostgreSQL sends papers whole from the database, with their length
    }
    let ada = add_reviewer(&app, ADA, ADA_NAME, "", "").await;
    let paper = pdf_of_size(8 * 1024);
    let reference = submit_paper(&app, &[], paper.clone()).await;
    release(&app, &reference, "R-RNG009", ada, 1).await;
    let cookie = reviewer_sign_in(&app, ADA).await;
    let reply =
        app.request("/review/papers/R-RNG009/paper", &[("cookie", cookie.as_str()), ("range", "bytes=1000-")]).await;
    assert_eq!(reply.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(reply.header("content-disposition"), Some("attachment; filename=\"R-RNG009.pdf\""));
    assert_eq!(reply.header("content-type"), Some("application/pdf"));
    assert_eq!(reply.body, paper[1000..]);
    assert_eq!(reply.header("cache-control"), Some("private, no-store"));
    let downloads: Vec<(String,)> =
        sqlx::query_as("SELECT object_id FROM audit_log WHERE action = 'paper.downloaded' AND actor = $1")
            .bind(ADA)
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(downloads, [(reference,)], "the download is audited");
}

#[tokio::test]
async fn i_have_a_conflict_asks_for_a_confirmation_first_and_without_it_changes_nothing() {
    let app = reviewing_app().await;
    let ada = add_reviewer(&app, ADA, ADA_NAME, "", "").await;
    let reference = plain_paper(&app, "A paper by a colleague").await;
    release(&app, &reference, "R-CONF05", ada, 1).await;
    let cookie = reviewer_sign_in(&app, ADA).await;

    let page = get(&app, &cookie, &paper_path("R-CONF05")).await.text();
    let document = parse(&page);
    let boxes = select(&document, "form[action='/review/papers/R-CONF05/conflict'] input[type=checkbox][required]");
    assert_eq!(boxes.len(), 1, "a box to tick before the conflict is declared: {page}");
    let label = select(&document, "label[for=conflict-confirm]");
    assert_eq!(
        crate::common::html::text(label[0]),
        "Yes, I have a conflict with this paper. I understand it leaves my list and cannot come back."
    );

    // Pressed without the box ticked (a browser that ignores `required`): nothing changes.
    let unconfirmed = post(&app, &cookie, "/review/papers/R-CONF05/conflict", "").await;
    assert_eq!(unconfirmed.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(unconfirmed.text().contains("Nothing was changed: tick"), "{}", unconfirmed.text());
    assert_eq!(app.count("review_conflicts").await, 0);
    assert!(get(&app, &cookie, "/review").await.text().contains("R-CONF05"), "still on the list");

    see_other_to(
        &post(&app, &cookie, "/review/papers/R-CONF05/conflict", "confirm=yes").await,
        "/review?done=conflict",
    );
    assert_eq!(app.count("review_conflicts").await, 1);
}
