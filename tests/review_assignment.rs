//! Review assignment for organisers (issue 32 items 3 and 4, DESIGN.md section 15): twelve
//! submitted papers and three reviewers, one of them at the university of four papers'
//! authors; the automatic assignment staged two reviewers a paper, eight papers each, never
//! the conflicted pair; the preview; the release mailing each reviewer once whatever is
//! clicked twice; assigning and unassigning by hand, the conflict's message when a rule
//! applies, a conflict declared by an organiser; bad forms; the audit log; and every route
//! refused without a session, from another origin or with a reviewer's session.

use std::collections::{HashMap, HashSet};

use axum::http::StatusCode;

use crate::api_submission::{Form, submit};
use crate::common::html::{first, parse, select, text, texts};
use crate::common::review::{add_reviewer, reviewer_sign_in};
use crate::common::{BASE, Reply, TestApp};
use crate::decisions::{get, mails_to, post};
use crate::organiser::{CHAIR, assert_refused_anonymous_and_foreign, sign_in};

const OVERVIEW: &str = "/organiser/review/assignments";
const STAGED: &str = "/organiser/review/assignments/staged";

const ADA: &str = "ada@engines.example";
const BO: &str = "bo@lanternworks.example";
/// At "The University of Manila", where the first four papers' authors are.
const CY: &str = "cy@tideschool.example";

/// The university of the first four papers' authors.
const MANILA: &str = "University of Manila";

/// An app whose organiser is [`CHAIR`], with room for many POSTs, on a clock before the
/// fixture's review deadline (3 March 2025): after it nothing is staged or released (issue 42).
pub(crate) async fn assignment_app() -> TestApp {
    crate::common::app_with_clock(
        |c| {
            c.organiser_email = Some(CHAIR.into());
            c.rate_limit_per_minute = 100_000;
        },
        conference::clock::Clock::fixed(time::macros::datetime!(2025-02-24 10:00 +08:00)),
    )
    .await
}

/// Twelve papers through the public form: the first four by authors at [`MANILA`], the
/// others at one institution each. Their references, in order.
pub(crate) async fn twelve_papers(app: &TestApp) -> Vec<String> {
    let mut references = Vec::new();
    for n in 0..12 {
        let (email, university) = if n < 4 {
            (format!("author{n}@manila.example.edu"), MANILA.to_owned())
        } else {
            (format!("author{n}@inst{n}.example.org"), format!("Institute of Tides No. {n}"))
        };
        let form = Form::valid()
            .with("email", &email)
            .with("paperTitle", &format!("Tidal lantern paper {n:02}"))
            .with("universityOrganization", &university);
        let (status, answer) = submit(app, &form).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        references.push(answer["reference"].as_str().unwrap().to_owned());
    }
    references
}

/// Three accepted reviewers; their ids (Ada, Bo, Cy).
pub(crate) async fn three_reviewers(app: &TestApp) -> (i64, i64, i64) {
    let ada = add_reviewer(app, ADA, "Ada Lovelace", "Analytical Engines Ltd", "Tidal Computing").await;
    let bo = add_reviewer(app, BO, "Bo Lantern", "Lantern Works", "Lantern Studies").await;
    let cy = add_reviewer(app, CY, "Cy Reyes", "The University of Manila", "Tidal Computing\nLantern Studies").await;
    (ada, bo, cy)
}

/// The live assignments: (reference, reviewer id, number, state).
pub(crate) async fn live(app: &TestApp) -> Vec<(String, i64, i64, String)> {
    sqlx::query_as(
        "SELECT s.reference, a.reviewer_id, a.number, a.state FROM review_assignments a \
         JOIN submissions s ON s.id = a.submission_id WHERE a.state <> 'withdrawn' ORDER BY s.reference, a.number",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap()
}

async fn review_code(app: &TestApp, reference: &str) -> Option<String> {
    sqlx::query_scalar("SELECT review_code FROM submissions WHERE reference = $1")
        .bind(reference)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

/// Audit entries of `action`: (object id, details).
pub(crate) async fn audited(app: &TestApp, action: &str) -> Vec<(Option<String>, String)> {
    sqlx::query_as("SELECT object_id, details FROM audit_log WHERE action = $1 ORDER BY id")
        .bind(action)
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

/// The `mark` of the preview's release form.
fn mark(preview: &str) -> String {
    let page = parse(preview);
    let input = first(&page, "form[action='/organiser/review/assignments/release'] input[name=mark]")
        .expect("the release form");
    input.value().attr("value").unwrap().to_owned()
}

fn paper_path(reference: &str) -> String {
    format!("{OVERVIEW}/{reference}")
}

async fn act(app: &TestApp, cookie: &str, reference: &str, what: &str, reviewer: &str) -> Reply {
    post(app, cookie, &format!("{}/{what}", paper_path(reference)), &format!("reviewer={reviewer}")).await
}

#[tokio::test]
async fn twelve_papers_get_two_reviewers_each_evenly_never_the_conflicted_pair_and_each_reviewer_one_mail() {
    let app = assignment_app().await;
    let references = twelve_papers(&app).await;
    let (ada, bo, cy) = three_reviewers(&app).await;
    let cookie = sign_in(&app, CHAIR).await;

    // The overview: every paper, none assigned, each needing two; the header links to it.
    let overview = get(&app, &cookie, OVERVIEW).await;
    assert_eq!(overview.status, StatusCode::OK, "{}", overview.text());
    assert_eq!(overview.header("cache-control"), Some("private, no-store"));
    let page = parse(&overview.text());
    assert_eq!(select(&page, "#papers tbody tr").len(), 12);
    assert_eq!(texts(&page, "#papers td.needed"), vec!["2"; 12]);
    assert_eq!(text(first(&page, "#count-short").unwrap()), "12");
    assert!(
        select(&page, ".organiser-header__nav a").iter().any(|a| a.value().attr("href") == Some(OVERVIEW)
            && text(*a) == "Assignments"
            && a.value().attr("aria-current") == Some("page")),
        "the header links to the assignments"
    );

    // Stage: 24 assignments, nobody mailed yet.
    let outbox_before = app.count("outbox").await;
    let staged = post(&app, &cookie, "/organiser/review/assignments/automatic", "").await;
    assert_eq!(staged.status, StatusCode::SEE_OTHER, "{}", staged.text());
    assert_eq!(staged.header("location"), Some("/organiser/review/assignments/staged?done=staged&count=24"));
    assert_eq!(app.count("outbox").await, outbox_before, "staging mails nobody");
    let rows = live(&app).await;
    assert_eq!(rows.len(), 24);
    assert!(rows.iter().all(|(_, _, _, state)| state == "staged"));
    let mut per_reviewer: HashMap<i64, usize> = HashMap::new();
    let mut per_paper: HashMap<&str, Vec<(i64, i64)>> = HashMap::new();
    for (reference, reviewer, number, _) in &rows {
        *per_reviewer.entry(*reviewer).or_default() += 1;
        per_paper.entry(reference.as_str()).or_default().push((*reviewer, *number));
    }
    assert_eq!(per_reviewer, HashMap::from([(ada, 8), (bo, 8), (cy, 8)]), "balanced: eight papers each");
    for (n, reference) in references.iter().enumerate() {
        let pairs = &per_paper[reference.as_str()];
        let reviewers: HashSet<i64> = pairs.iter().map(|(r, _)| *r).collect();
        assert_eq!(reviewers.len(), 2, "{reference}: two different reviewers");
        let mut numbers: Vec<i64> = pairs.iter().map(|(_, number)| *number).collect();
        numbers.sort_unstable();
        assert_eq!(numbers, vec![1, 2], "{reference}: Reviewer 1 and Reviewer 2");
        if n < 4 {
            assert!(!reviewers.contains(&cy), "{reference}: Cy shares the authors' university");
        }
    }
    // Every paper got its review code: R- and six characters without 0/O/1/I, all different.
    let mut codes = HashSet::new();
    for reference in &references {
        let code = review_code(&app, reference).await.expect("a review code");
        assert!(code.starts_with("R-") && code.len() == 8 && !code[2..].contains(['0', 'O', '1', 'I']), "{code}");
        assert!(codes.insert(code));
    }

    // The preview: what was staged, every reviewer's papers and the spread.
    let preview = get(&app, &cookie, STAGED).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text());
    let shown = get(&app, &cookie, staged.header("location").unwrap()).await;
    assert_eq!(
        text(first(&parse(&shown.text()), "#notice").unwrap()),
        "24 assignments staged. Nobody sees them or is mailed until you release them."
    );
    let page = parse(&preview.text());
    assert_eq!(
        text(first(&page, "#spread").unwrap()),
        "Papers per reviewer once released: busiest 8, idlest 8 (spread 0)."
    );
    for id in [ada, bo, cy] {
        assert_eq!(select(&page, &format!("#reviewer-{id} .staged-papers li")).len(), 8, "reviewer {id}");
    }
    let cy_papers = texts(&page, &format!("#reviewer-{cy} .staged-papers li")).join(" ");
    for reference in &references[..4] {
        let code = review_code(&app, reference).await.unwrap();
        assert!(!cy_papers.contains(&code), "Cy is not staged for {reference}");
    }
    // The paper page says why Cy is kept off a Manila paper.
    let paper = get(&app, &cookie, &paper_path(&references[0])).await;
    assert_eq!(paper.status, StatusCode::OK);
    let verdict = text(first(&parse(&paper.text()), &format!("#reviewer-{cy} .verdict")).unwrap());
    assert!(verdict.starts_with("The reviewer and the authors are both at University of Manila."), "{verdict}");

    // Release: one mail per reviewer listing their eight papers, by code and title only.
    let released =
        post(&app, &cookie, "/organiser/review/assignments/release", &format!("mark={}", mark(&preview.text()))).await;
    assert_eq!(released.status, StatusCode::SEE_OTHER, "{}", released.text());
    let location = released.header("location").unwrap().to_owned();
    assert_eq!(location, "/organiser/review/assignments?done=released&count=24&mails=3");
    let notice = get(&app, &cookie, &location).await;
    assert_eq!(
        text(first(&parse(&notice.text()), "#notice").unwrap()),
        "24 assignments released; 3 mails queued, one per reviewer."
    );
    assert!(live(&app).await.iter().all(|(_, _, _, state)| state == "released"));
    for (email, id) in [(ADA, ada), (BO, bo), (CY, cy)] {
        let mails = mails_to(&app, email).await;
        assert_eq!(mails.len(), 1, "{email}: one mail");
        let (subject, body) = &mails[0];
        assert_eq!(subject, "[FIXCON 2025] 8 papers to review");
        assert!(body.contains(&format!("{BASE}/review")), "{body}");
        let listed: Vec<&str> = body.lines().filter(|l| l.starts_with("- R-")).collect();
        assert_eq!(listed.len(), 8, "{body}");
        assert!(listed.iter().all(|l| l.contains(": Tidal lantern paper ")), "{listed:?}");
        for secret in [
            "Ana Cruz",
            "Ben Reyes",
            "Carla Santos",
            "example.edu",
            "example.org",
            MANILA,
            "Institute of Tides",
            "+639171234567",
            "Philippines",
            "P-20",
        ] {
            assert!(!body.contains(secret), "{email}'s mail shows {secret:?}: {body}");
        }
        let key: String = sqlx::query_scalar("SELECT dedupe_key FROM outbox WHERE to_address = $1")
            .bind(email)
            .fetch_one(&app.pool)
            .await
            .unwrap();
        assert!(key.starts_with(&format!("review-assigned:{id}:")), "{key}");
    }
    // A second click of the same form releases and mails nothing more.
    let again =
        post(&app, &cookie, "/organiser/review/assignments/release", &format!("mark={}", mark(&preview.text()))).await;
    assert_eq!(again.status, StatusCode::SEE_OTHER);
    assert_eq!(again.header("location"), Some("/organiser/review/assignments?done=released&count=0&mails=0"));
    for email in [ADA, BO, CY] {
        assert_eq!(mails_to(&app, email).await.len(), 1, "{email}: still one mail");
    }
    // Staging again finds nothing to do.
    let none = post(&app, &cookie, "/organiser/review/assignments/automatic", "").await;
    assert_eq!(none.header("location"), Some("/organiser/review/assignments/staged?done=staged&count=0"));

    // The overview shows every paper's reviewers released and nothing more needed.
    let page = parse(&get(&app, &cookie, OVERVIEW).await.text());
    assert_eq!(texts(&page, "#papers td.needed"), vec!["0"; 12]);
    assert!(text(first(&page, &format!("#paper-{}", references[0])).unwrap()).contains("Ada Lovelace (Released)"));

    // The audit log: both steps, in words on the audit page.
    let staged_entries = audited(&app, "review.assignments_staged").await;
    assert_eq!(staged_entries.len(), 1, "the run that staged nothing records nothing");
    assert!(staged_entries[0].1.contains("\"count\":24"), "{}", staged_entries[0].1);
    let released_entries = audited(&app, "review.assignments_released").await;
    assert_eq!(released_entries.len(), 1, "the empty second click records nothing");
    assert!(released_entries[0].1.contains("\"mails\":3"), "{}", released_entries[0].1);
    let audit = get(&app, &cookie, "/organiser/audit").await.text();
    assert!(audit.contains("Automatic review assignment staged"), "{audit}");
    assert!(audit.contains("Review assignments released and mailed"));
}

#[tokio::test]
async fn organisers_assign_by_hand_refused_with_the_conflict_unassign_and_declare_conflicts() {
    let app = assignment_app().await;
    let references = twelve_papers(&app).await;
    let (ada, bo, cy) = three_reviewers(&app).await;
    let invited: i64 = sqlx::query_scalar(
        "INSERT INTO reviewers (email, name, state, invited_at) VALUES ('dee@x.example', 'Dee Invited', 'invited', \
         '2025-01-01T00:00:00.000000Z') RETURNING id",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap();
    let cookie = sign_in(&app, CHAIR).await;
    let manila = &references[0];

    // A conflict rule applies: 422 with its message, nothing stored.
    let refused = act(&app, &cookie, manila, "assign", &cy.to_string()).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let problem = text(first(&parse(&refused.text()), "#problem").unwrap());
    assert_eq!(
        problem,
        "Cy Reyes cannot review this paper: The reviewer and the authors are both at University of Manila. Nothing was changed."
    );
    // An invited reviewer, an unknown one, a reviewer that is no number: 422.
    for (reviewer, says) in [
        (invited.to_string(), "Dee Invited cannot be assigned: they are invited and have not answered yet"),
        ("99999".to_owned(), "\"99999\" is not a reviewer of this list."),
        ("abc".to_owned(), "\"abc\" is not a reviewer of this list."),
    ] {
        let reply = act(&app, &cookie, manila, "assign", &reviewer).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{reviewer}");
        assert!(text(first(&parse(&reply.text()), "#problem").unwrap()).starts_with(says), "{}", reply.text());
    }
    assert!(live(&app).await.is_empty());
    // An unknown paper: 404.
    assert_eq!(act(&app, &cookie, "P-2025-NOSUCH", "assign", &ada.to_string()).await.status, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, &cookie, &paper_path("P-2025-NOSUCH")).await.status, StatusCode::NOT_FOUND);

    // Assign Ada and Bo by hand: staged, numbered, the paper gets its code.
    let assigned = act(&app, &cookie, manila, "assign", &ada.to_string()).await;
    assert_eq!(assigned.status, StatusCode::SEE_OTHER, "{}", assigned.text());
    let back = assigned.header("location").unwrap().to_owned();
    assert_eq!(back, format!("{}?done=assigned&reviewer={ada}", paper_path(manila)));
    let page = get(&app, &cookie, &back).await;
    assert_eq!(
        text(first(&parse(&page.text()), "#notice").unwrap()),
        "Ada Lovelace is assigned (staged). They are mailed when the staged assignments are released."
    );
    assert!(review_code(&app, manila).await.is_some());
    assert_eq!(act(&app, &cookie, manila, "assign", &bo.to_string()).await.status, StatusCode::SEE_OTHER);
    // Twice: 409, nothing changes.
    let twice = act(&app, &cookie, manila, "assign", &ada.to_string()).await;
    assert_eq!(twice.status, StatusCode::CONFLICT);
    assert!(twice.text().contains("Ada Lovelace is already Reviewer 1 of this paper (staged)."), "{}", twice.text());
    assert_eq!(
        live(&app).await,
        vec![(manila.clone(), ada, 1, "staged".to_owned()), (manila.clone(), bo, 2, "staged".to_owned())]
    );

    // Unassign Ada, assign her again: a new number, never Reviewer 1 again.
    let gone = act(&app, &cookie, manila, "unassign", &ada.to_string()).await;
    assert_eq!(gone.status, StatusCode::SEE_OTHER, "{}", gone.text());
    assert_eq!(act(&app, &cookie, manila, "unassign", &ada.to_string()).await.status, StatusCode::CONFLICT);
    assert_eq!(act(&app, &cookie, manila, "assign", &ada.to_string()).await.status, StatusCode::SEE_OTHER);
    let numbers: Vec<(i64, i64)> = live(&app).await.into_iter().map(|(_, r, n, _)| (r, n)).collect();
    assert_eq!(numbers, vec![(bo, 2), (ada, 3)]);

    // The organiser declares a conflict of Bo's: recorded, Bo's assignment withdrawn.
    let declared = act(&app, &cookie, manila, "conflict", &bo.to_string()).await;
    assert_eq!(declared.status, StatusCode::SEE_OTHER, "{}", declared.text());
    let by: String = sqlx::query_scalar("SELECT declared_by FROM review_conflicts WHERE reviewer_id = $1")
        .bind(bo)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(by, "organiser");
    assert_eq!(live(&app).await.into_iter().map(|(_, r, _, _)| r).collect::<Vec<_>>(), vec![ada]);
    let page = parse(&get(&app, &cookie, declared.header("location").unwrap()).await.text());
    assert_eq!(text(first(&page, &format!("#reviewer-{bo} .verdict")).unwrap()), "A conflict was declared.");
    // Declared twice: 409; assigning Bo now: 422 with the declared conflict's message.
    assert_eq!(act(&app, &cookie, manila, "conflict", &bo.to_string()).await.status, StatusCode::CONFLICT);
    let again = act(&app, &cookie, manila, "assign", &bo.to_string()).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.text().contains("Bo Lantern cannot review this paper: A conflict was declared."));
    // The automatic assignment keeps Bo off the paper too.
    let staged = post(&app, &cookie, "/organiser/review/assignments/automatic", "").await;
    assert_eq!(staged.status, StatusCode::SEE_OTHER, "{}", staged.text());
    assert!(!live(&app).await.iter().any(|(r, reviewer, _, _)| r == manila && (*reviewer == bo || *reviewer == cy)));

    // A stale preview: its release and discard answer 409 and change nothing.
    let preview = get(&app, &cookie, STAGED).await.text();
    let old_mark = mark(&preview);
    assert_eq!(
        act(&app, &cookie, &references[5], "unassign", &live_reviewer(&app, &references[5]).await.to_string())
            .await
            .status,
        StatusCode::SEE_OTHER
    );
    for action in ["release", "discard"] {
        let stale = post(&app, &cookie, &format!("{OVERVIEW}/{action}"), &format!("mark={old_mark}")).await;
        assert_eq!(stale.status, StatusCode::CONFLICT, "{action}");
        assert!(stale.text().contains("The staged assignments changed since this preview was loaded"));
    }
    assert!(live(&app).await.iter().all(|(_, _, _, state)| state == "staged"));
    assert_eq!(app.count("outbox WHERE to_address IN ('ada@engines.example', 'bo@lanternworks.example')").await, 0);
    // Discard with the preview as it is now: every staged assignment withdrawn.
    let staged_before = live(&app).await.len();
    let preview = get(&app, &cookie, STAGED).await.text();
    let discarded =
        post(&app, &cookie, "/organiser/review/assignments/discard", &format!("mark={}", mark(&preview))).await;
    assert_eq!(discarded.header("location"), Some(format!("{OVERVIEW}?done=discarded&count={staged_before}").as_str()));
    assert!(live(&app).await.is_empty());

    // A submitted review keeps its assignment.
    assert_eq!(act(&app, &cookie, manila, "assign", &ada.to_string()).await.status, StatusCode::SEE_OTHER);
    app.exec(&format!(
        "INSERT INTO reviews (assignment_id, submission_id, reviewer_id, state, created, updated, submitted_at) \
         SELECT id, submission_id, reviewer_id, 'submitted', '2025-01-05T00:00:00Z', '2025-01-05T00:00:00Z', \
         '2025-01-05T00:00:00Z' FROM review_assignments WHERE reviewer_id = {ada} AND state = 'staged'"
    ))
    .await;
    for what in ["unassign", "conflict"] {
        let kept = act(&app, &cookie, manila, what, &ada.to_string()).await;
        assert_eq!(kept.status, StatusCode::UNPROCESSABLE_ENTITY, "{what}");
        assert!(kept.text().contains("a submitted review keeps its assignment"), "{}", kept.text());
    }
    assert_eq!(live(&app).await.len(), 1);

    // Every action is in the audit log, on the paper's history, in words.
    for action in ["review.assigned", "review.unassigned", "review.conflict_declared", "review.assignments_discarded"] {
        assert!(!audited(&app, action).await.is_empty(), "{action}");
    }
    let assigned = audited(&app, "review.assigned").await;
    assert_eq!(assigned[0].0.as_deref(), Some(manila.as_str()));
    assert!(assigned[0].1.contains("Ada Lovelace <ada@engines.example>"), "{}", assigned[0].1);
    let history = get(&app, &cookie, &format!("/organiser/submissions/{manila}")).await.text();
    for words in ["Reviewer assigned (staged)", "Reviewer unassigned", "Reviewer conflict declared"] {
        assert!(history.contains(words), "{words}");
    }
}

/// A reviewer holding `reference` now.
async fn live_reviewer(app: &TestApp, reference: &str) -> i64 {
    live(app).await.into_iter().find(|(r, _, _, _)| r == reference).map(|(_, reviewer, _, _)| reviewer).unwrap()
}

#[tokio::test]
async fn assignment_pages_answer_organisers_only() {
    let app = assignment_app().await;
    let references = twelve_papers(&app).await;
    let (ada, _, _) = three_reviewers(&app).await;
    let cookie = sign_in(&app, CHAIR).await;
    let paper = paper_path(&references[0]);
    let gets = [OVERVIEW.to_owned(), STAGED.to_owned(), paper.clone()];
    let posts = [
        (format!("{OVERVIEW}/automatic"), String::new()),
        (format!("{OVERVIEW}/release"), "mark=0:0".to_owned()),
        (format!("{OVERVIEW}/discard"), "mark=0:0".to_owned()),
        (format!("{paper}/assign"), format!("reviewer={ada}")),
        (format!("{paper}/unassign"), format!("reviewer={ada}")),
        (format!("{paper}/conflict"), format!("reviewer={ada}")),
    ];
    // No session: the sign-in page's address; another origin: 403.
    for path in &gets {
        let reply = app.request(path, &[]).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{path}");
        assert_eq!(reply.header("location"), Some("/organiser"));
    }
    for (path, body) in &posts {
        assert_refused_anonymous_and_foreign(&app, path, body, &cookie).await;
    }
    // A reviewer's session: 404 everywhere.
    let reviewer = reviewer_sign_in(&app, ADA).await;
    for path in &gets {
        assert_eq!(app.request(path, &[("cookie", &reviewer)]).await.status, StatusCode::NOT_FOUND, "{path}");
    }
    for (path, body) in &posts {
        assert_eq!(post(&app, &reviewer, path, body).await.status, StatusCode::NOT_FOUND, "{path}");
    }
    // Nothing was stored by any of them.
    assert!(live(&app).await.is_empty());
    assert_eq!(app.count("review_conflicts").await, 0);
    // A malformed form: the field named, nothing changed.
    let no_mark = post(&app, &cookie, &format!("{OVERVIEW}/release"), "").await;
    assert_eq!(no_mark.status, StatusCode::BAD_REQUEST);
    assert_eq!(text(first(&parse(&no_mark.text()), "#notice").unwrap()), "The form has no \"mark\" field.");
    let bad_query = get(&app, &cookie, &format!("{OVERVIEW}?done=exploded")).await;
    assert_eq!(bad_query.status, StatusCode::BAD_REQUEST);
}

/// After the review deadline a release or an "Assign" form is refused for the deadline (409,
/// naming the settings page) before its fields are read: one that lacks them gets the same
/// answer, as it did before the forms' work moved into `review::assignments`.
#[tokio::test]
async fn after_the_deadline_a_form_without_its_fields_is_refused_for_the_deadline() {
    let app = assignment_app().await;
    app.state.clock.set(time::macros::datetime!(2025-03-04 00:00 +08:00));
    let cookie = sign_in(&app, CHAIR).await;
    let reference = twelve_papers(&app).await.swap_remove(0);
    for path in [format!("{OVERVIEW}/release"), format!("{}/assign", paper_path(&reference))] {
        let answer = post(&app, &cookie, &path, "").await;
        assert_eq!(answer.status, StatusCode::CONFLICT, "{path}: {}", answer.text());
        assert!(answer.text().contains("/organiser/settings"), "{path}: {}", answer.text());
    }
}
