//! Decisions that reach authors (issue 21, DESIGN.md section 12 "Decisions"): pending
//! decisions on one submission or a reviewed selection, the preview and the apply (one mail
//! per author, however often or wherever it is applied), 409 on a stale page, the author's
//! status page and withdrawal, the seed's mail templates, the history, the exports, and every
//! new route refused without a session or from another origin.

use axum::http::StatusCode;

use crate::api_submission::{Form, submit};
use crate::common::html::{by_id, parse, select, text};
use crate::common::{BASE, Reply, TestApp};
use crate::organiser::{CHAIR, assert_refused_anonymous_and_foreign, organisers_app, sign_in};

/// Submits a paper through the public form; its reference.
pub(crate) async fn submit_paper(app: &TestApp, email: &str, title: &str) -> String {
    let form = Form::valid().with("email", email).with("paperTitle", title);
    let (status, answer) = submit(app, &form).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    answer["reference"].as_str().unwrap().to_owned()
}

/// A same-origin form POST with the session `cookie`.
pub(crate) async fn post(app: &TestApp, cookie: &str, path: &str, body: &str) -> Reply {
    app.post(path, "application/x-www-form-urlencoded", body.to_owned(), &[("origin", BASE), ("cookie", cookie)]).await
}

pub(crate) async fn get(app: &TestApp, cookie: &str, path: &str) -> Reply {
    app.request(path, &[("cookie", cookie)]).await
}

/// The version a submission is at now.
pub(crate) async fn version(app: &TestApp, reference: &str) -> i64 {
    sqlx::query_scalar("SELECT version FROM submissions WHERE reference = $1")
        .bind(reference)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

pub(crate) async fn state_of(app: &TestApp, reference: &str) -> (String, Option<String>) {
    sqlx::query_as("SELECT state, pending_decision FROM submissions WHERE reference = $1")
        .bind(reference)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

/// Mails queued to `to`: (subject, text body), oldest first.
pub(crate) async fn mails_to(app: &TestApp, to: &str) -> Vec<(String, String)> {
    sqlx::query_as("SELECT subject, text_body FROM outbox WHERE to_address = $1 ORDER BY id")
        .bind(to)
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

/// The status link (path) in a mail's text.
fn status_path(body: &str) -> String {
    let prefix = format!("{BASE}/submission/status/");
    let at = body.find(&prefix).unwrap_or_else(|| panic!("a status link in {body}"));
    let link: String = body[at..].chars().take_while(|c| !c.is_whitespace()).collect();
    link.strip_prefix(BASE).unwrap().to_owned()
}

/// The status page's state, as the author sees it.
fn shown_state(body: &str) -> String {
    let page = parse(body);
    select(&page, "#submission-state").first().map(|e| text(*e).trim().to_owned()).unwrap_or_default()
}

/// Stages `decision` on `reference` from its current version.
async fn stage(app: &TestApp, cookie: &str, reference: &str, decision: &str, note: &str) -> Reply {
    let v = version(app, reference).await;
    let body = format!("version={v}&decision={decision}&note={}", note.replace(' ', "+"));
    post(app, cookie, &format!("/organiser/submissions/{reference}/decision"), &body).await
}

/// The hidden items of the preview's apply form.
pub(crate) fn preview_items(body: &str) -> String {
    let page = parse(body);
    select(&page, "form[action='/organiser/decisions/apply'] input[name=item]")
        .into_iter()
        .map(|input| format!("item={}", input.value().attr("value").unwrap()))
        .collect::<Vec<_>>()
        .join("&")
}

#[tokio::test]
async fn a_reviewed_selection_is_accepted_and_rejected_and_each_author_mailed_once() {
    let app = organisers_app().await;
    let mut refs = Vec::new();
    for n in 0..5 {
        refs.push(submit_paper(&app, &format!("author{n}@example.org"), &format!("Tide paper {n}")).await);
    }
    let cookie = sign_in(&app, CHAIR).await;

    // The list offers a selection box per row, with the version it shows.
    let list = get(&app, &cookie, "/organiser/submissions").await;
    assert_eq!(list.status, StatusCode::OK);
    let boxes = select(&parse(&list.text()), "input[name=item]").len();
    assert_eq!(boxes, 5);

    // Accept three: the review shows the count and the references, and changes nothing.
    let three: String = refs[..3].iter().map(|r| format!("&item={r}:{}", 1)).collect();
    let review = post(&app, &cookie, "/organiser/submissions/decide", &format!("decision=accepted{three}")).await;
    assert_eq!(review.status, StatusCode::OK, "{}", review.text());
    let summary = text(select(&parse(&review.text()), "#selection-count")[0]);
    assert_eq!(summary, "3 submissions will get the pending decision \"Accept\":");
    for r in &refs[..3] {
        assert!(review.text().contains(r.as_str()));
    }
    assert_eq!(state_of(&app, &refs[0]).await, ("submitted".into(), None), "a review changes nothing");
    let confirmed =
        post(&app, &cookie, "/organiser/submissions/decide/confirm", &format!("decision=accepted{three}")).await;
    assert_eq!(confirmed.status, StatusCode::SEE_OTHER, "{}", confirmed.text());
    // Back to the whole list (not only the pending rows), which says what was staged.
    let back = confirmed.header("location").unwrap().to_owned();
    assert_eq!(back, "/organiser/submissions?staged=accepted&count=3");
    let list = get(&app, &cookie, &back).await;
    assert_eq!(list.status, StatusCode::OK);
    let page = parse(&list.text());
    assert_eq!(
        text(select(&page, "#staged p")[0]),
        "3 submissions now have the pending decision \"Accept\". Nobody is mailed until the decisions are applied."
    );
    assert_eq!(select(&page, "input[name=item]").len(), 5, "every row, not only the pending ones");
    assert!(
        !select(&page, ".organiser__pager a, .organiser__count a")
            .iter()
            .any(|a| { a.value().attr("href").is_some_and(|href| href.contains("staged")) }),
        "the notice is not a filter: the CSV and the pages leave it out"
    );
    let two: String = refs[3..].iter().map(|r| format!("&item={r}:1")).collect();
    let rejected =
        post(&app, &cookie, "/organiser/submissions/decide/confirm", &format!("decision=rejected{two}")).await;
    assert_eq!(rejected.status, StatusCode::SEE_OTHER);

    // Pending decisions are for organisers: the filter shows them, authors see `submitted`.
    let pending = get(&app, &cookie, "/organiser/submissions?pending=accepted").await;
    assert_eq!(select(&parse(&pending.text()), "input[name=item]").len(), 3);
    assert_eq!(state_of(&app, &refs[0]).await, ("submitted".into(), Some("accepted".into())));
    let ack = &mails_to(&app, "author0@example.org").await[0];
    let link = status_path(&ack.1);
    let status = app.request(&link, &[]).await;
    assert_eq!(shown_state(&status.text()), "Submitted", "a pending decision is not shown");

    // The preview: counts, every address, one mail in full; nothing sent yet.
    let dashboard = get(&app, &cookie, "/organiser").await;
    assert!(dashboard.text().contains("Pending decisions: <strong>5</strong>"), "{}", dashboard.text());
    let preview = get(&app, &cookie, "/organiser/decisions").await;
    assert_eq!(preview.status, StatusCode::OK);
    let page = parse(&preview.text());
    assert_eq!(text(select(&page, "#count-accepted")[0]), "3");
    assert_eq!(text(select(&page, "#count-rejected")[0]), "2");
    for n in 0..5 {
        assert!(preview.text().contains(&format!("author{n}@example.org")));
    }
    let sample = text(select(&page, "pre.organiser__mail")[0]);
    assert!(sample.starts_with("Dear Ana Cruz, Ben Reyes, Carla Santos, Your Full Paper \"Tide paper"), "{sample}");
    assert_eq!(app.count("outbox").await, 10 + 1, "acknowledgements, notices and the sign-in link only");

    // Apply: one mail per author, each with a working link that shows the decision.
    let items = preview_items(&preview.text());
    let applied = post(&app, &cookie, "/organiser/decisions/apply", &items).await;
    assert_eq!(applied.status, StatusCode::SEE_OTHER, "{}", applied.text());
    let target = applied.header("location").unwrap().to_owned();
    assert_eq!(target, "/organiser/decisions/applied?accepted=3&rejected=2&mails=5");
    let answer = get(&app, &cookie, &target).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("cache-control"), Some("private, no-store"));
    assert_eq!(answer.header("x-robots-tag"), Some("noindex"));
    assert_eq!(
        text(select(&parse(&answer.text()), "#notice")[0]),
        "5 decisions applied (3 accepted, 2 rejected); 5 mails queued."
    );
    // Loading the answer again applies and mails nothing.
    assert_eq!(get(&app, &cookie, &target).await.status, StatusCode::OK);
    assert_eq!(app.count("outbox").await, 10 + 1 + 5);
    for (n, reference) in refs.iter().enumerate() {
        let mails = mails_to(&app, &format!("author{n}@example.org")).await;
        assert_eq!(mails.len(), 2, "the acknowledgement and one decision: {mails:?}");
        let (subject, body) = &mails[1];
        let accepted = n < 3;
        let expected = if accepted { "Fixture acceptance of" } else { "Fixture decision on" };
        assert!(subject.contains(&format!("{expected} {reference}")), "{subject}");
        assert!(body.contains(&format!("Tide paper {n}")), "{body}");
        assert!(!body.contains('{'), "every placeholder filled: {body}");
        let page = app.request(&status_path(body), &[]).await;
        assert_eq!(page.status, StatusCode::OK);
        assert_eq!(shown_state(&page.text()), if accepted { "Accepted" } else { "Rejected" });
        // The acknowledgement's link shows the same.
        let first = app.request(&status_path(&mails[0].1), &[]).await;
        assert_eq!(shown_state(&first.text()), if accepted { "Accepted" } else { "Rejected" });
    }

    // Applying the same preview again mails nobody.
    let again = post(&app, &cookie, "/organiser/decisions/apply", &items).await;
    assert_eq!(again.status, StatusCode::SEE_OTHER);
    let target = again.header("location").unwrap().to_owned();
    assert_eq!(target, "/organiser/decisions/applied?accepted=0&rejected=0&mails=0");
    assert!(get(&app, &cookie, &target).await.text().contains("Nothing was applied"));
    for n in 0..5 {
        assert_eq!(mails_to(&app, &format!("author{n}@example.org")).await.len(), 2);
    }

    // The export carries the state and the decision time.
    let csv = get(&app, &cookie, "/organiser/submissions.csv?state=accepted").await;
    let mut reader = csv::Reader::from_reader(&csv.body[..]);
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    let state_at = header.iter().position(|h| h == "state").expect("a state column");
    let decided_at = header.iter().position(|h| h == "decidedAt").expect("a decidedAt column");
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 3);
    assert!(records.iter().all(|r| &r[state_at] == "accepted" && r[decided_at].ends_with('Z')));
}

#[tokio::test]
async fn a_changed_decision_mails_the_author_again_and_the_history_shows_both() {
    let app = organisers_app().await;
    let reference = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let cookie = sign_in(&app, CHAIR).await;
    assert_eq!(
        stage(&app, &cookie, &reference, "accepted", "See you in Port Quill").await.status,
        StatusCode::SEE_OTHER
    );
    let preview = get(&app, &cookie, "/organiser/decisions").await;
    assert!(preview.text().contains("See you in Port Quill"), "the note is in the mail");
    post(&app, &cookie, "/organiser/decisions/apply", &preview_items(&preview.text())).await;
    // The same decision again is refused; another one is staged and applied.
    assert_eq!(stage(&app, &cookie, &reference, "accepted", "").await.status, StatusCode::BAD_REQUEST);
    assert_eq!(stage(&app, &cookie, &reference, "rejected", "").await.status, StatusCode::SEE_OTHER);
    let preview = get(&app, &cookie, "/organiser/decisions").await;
    post(&app, &cookie, "/organiser/decisions/apply", &preview_items(&preview.text())).await;
    let mails = mails_to(&app, "ana@example.org").await;
    assert_eq!(mails.len(), 3, "acknowledgement, acceptance, rejection");
    assert!(mails[1].0.contains("Fixture acceptance") && mails[1].1.contains("See you in Port Quill"));
    assert!(mails[2].0.contains("Fixture decision on"));
    assert_eq!(state_of(&app, &reference).await.0, "rejected");

    let detail = get(&app, &cookie, &format!("/organiser/submissions/{reference}")).await;
    let page = parse(&detail.text());
    let history: Vec<Vec<String>> = select(&page, "#history ~ div tbody tr")
        .into_iter()
        .map(|row| select(row, "td").into_iter().map(|c| text(c).trim().to_owned()).collect())
        .collect();
    // In the words organisers use, and only what changed.
    let actions: Vec<&str> = history.iter().map(|row| row[2].as_str()).collect();
    assert_eq!(
        actions,
        ["Pending decision set", "Decision applied and mailed", "Pending decision set", "Decision applied and mailed"]
    );
    assert!(history.iter().all(|row| row[1] == CHAIR));
    assert_eq!(history[0][3], "Pending decision: None → Accept Note: None → See you in Port Quill", "{:?}", history[0]);
    assert!(
        history[1][3].starts_with("State: Submitted → Accepted Mail to ana@example.org (queued): "),
        "{:?}",
        history[1]
    );
    assert!(history[3][3].contains("State: Accepted → Rejected"), "{:?}", history[3]);
    assert!(history[2][3].starts_with("Pending decision: None → Reject"), "{:?}", history[2]);
    for row in &history {
        assert!(!row[3].contains("None → None") && !row[3].contains('_'), "nothing that changes nothing: {row:?}");
    }
}

#[tokio::test]
async fn a_decision_from_a_stale_page_is_409_and_changes_nothing() {
    let app = organisers_app().await;
    let reference = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let cookie = sign_in(&app, CHAIR).await;
    let other = sign_in(&app, "treasurer@fixcon.example").await;
    // Both organisers open the page at version 1; the first saves.
    let first = post(
        &app,
        &cookie,
        &format!("/organiser/submissions/{reference}/decision"),
        "version=1&decision=accepted&note=",
    )
    .await;
    assert_eq!(first.status, StatusCode::SEE_OTHER);
    let second = post(
        &app,
        &other,
        &format!("/organiser/submissions/{reference}/decision"),
        "version=1&decision=rejected&note=",
    )
    .await;
    // 303 to an organiser page answering 409: a reload of it posts nothing again.
    assert_eq!(second.status, StatusCode::SEE_OTHER);
    let target = second.header("location").unwrap().to_owned();
    assert_eq!(target, format!("/organiser/submissions/{reference}/conflict?why=changed"));
    let conflict = get(&app, &other, &target).await;
    assert_eq!(conflict.status, StatusCode::CONFLICT);
    assert_eq!(conflict.header("cache-control"), Some("private, no-store"));
    assert_eq!(conflict.header("x-robots-tag"), Some("noindex"));
    let page = parse(&conflict.text());
    assert_eq!(
        text(select(&page, "[role=alert]")[0]),
        format!(
            "Submission {reference} was changed by someone else since this page was loaded, so nothing was changed. \
             Open it as it is now and decide again."
        )
    );
    let back = select(&page, "main a.button")[0];
    assert_eq!(back.value().attr("href"), Some(format!("/organiser/submissions/{reference}").as_str()));
    assert_eq!(text(back), format!("Open submission {reference} as it is now"));
    assert_eq!(
        select(&page, "nav[aria-label='Organiser area'] a").len(),
        conference::views::organiser::shared::area_links().count(),
        "the organiser area's header"
    );
    // The links come in named groups (a line each on a phone): every group's list is labelled
    // by its visible name, and Submissions sits under "Papers".
    for list in select(&page, "nav[aria-label='Organiser area'] ul[aria-labelledby]") {
        let name = list.value().attr("aria-labelledby").unwrap();
        assert!(
            by_id(&page, name).is_some_and(|label| !text(label).is_empty()),
            "the group name {name} is on the page"
        );
    }
    let papers = select(&page, "nav[aria-label='Organiser area'] .organiser-nav__group")
        .into_iter()
        .find(|group| text(*group).starts_with("Papers "))
        .expect("a Papers group");
    assert!(select(papers, "a").iter().any(|a| a.value().attr("href") == Some("/organiser/submissions")));
    assert!(!conflict.text().contains("Go back home") && select(&page, ".dock").is_empty(), "not the visitors' page");
    assert_eq!(state_of(&app, &reference).await, ("submitted".into(), Some("accepted".into())));
    // A stale selection changes none of its rows.
    let fresh = submit_paper(&app, "ben@example.org", "Harbour bells").await;
    let stale = post(
        &app,
        &other,
        "/organiser/submissions/decide/confirm",
        &format!("decision=rejected&item={fresh}:1&item={reference}:1"),
    )
    .await;
    assert_eq!(stale.status, StatusCode::SEE_OTHER);
    let target = stale.header("location").unwrap().to_owned();
    assert_eq!(target, format!("/organiser/submissions/{reference}/conflict?why=selection"));
    let conflict = get(&app, &other, &target).await;
    assert_eq!(conflict.status, StatusCode::CONFLICT);
    assert!(conflict.text().contains("so none of the selected submissions was changed"), "{}", conflict.text());
    assert_eq!(state_of(&app, &fresh).await, ("submitted".into(), None), "the transaction is rolled back");
    // A preview whose decision changed before the apply: 409, nothing applied or mailed.
    let preview = get(&app, &cookie, "/organiser/decisions").await;
    let items = preview_items(&preview.text());
    assert_eq!(stage(&app, &cookie, &reference, "rejected", "").await.status, StatusCode::SEE_OTHER);
    let applied = post(&app, &cookie, "/organiser/decisions/apply", &items).await;
    assert_eq!(applied.status, StatusCode::SEE_OTHER);
    let target = applied.header("location").unwrap().to_owned();
    assert_eq!(target, format!("/organiser/submissions/{reference}/conflict?why=preview"));
    let conflict = get(&app, &cookie, &target).await;
    assert_eq!(conflict.status, StatusCode::CONFLICT);
    let page = parse(&conflict.text());
    assert_eq!(text(select(&page, "h1")[0]), "Nothing was applied");
    assert_eq!(select(&page, "main a.button")[0].value().attr("href"), Some("/organiser/decisions"));
    assert_eq!(state_of(&app, &reference).await, ("submitted".into(), Some("rejected".into())));
    assert_eq!(mails_to(&app, "ana@example.org").await.len(), 1);
}

#[tokio::test]
async fn bad_decision_forms_are_400_and_unknown_submissions_404() {
    let app = organisers_app().await;
    let reference = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let cookie = sign_in(&app, CHAIR).await;
    let one = format!("/organiser/submissions/{reference}/decision");
    for (path, body) in [
        (one.as_str(), "version=x&decision=accepted"),
        (one.as_str(), "version=1&decision=maybe"),
        (one.as_str(), "decision=accepted"),
        (one.as_str(), "version=1&version=2&decision=accepted"),
        ("/organiser/submissions/decide", "decision=accepted"),
        ("/organiser/submissions/decide", "decision=accepted&item=nonsense"),
        ("/organiser/submissions/decide/confirm", "decision=maybe&item=P-1:1"),
        ("/organiser/decisions/apply", ""),
        // The selection's menu starts on no choice.
        ("/organiser/submissions/decide", &*format!("decision=&item={reference}:1")),
        ("/organiser/submissions/decide/confirm", &*format!("decision=&item={reference}:1")),
    ] {
        let reply = post(&app, &cookie, path, body).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{path} {body}: {}", reply.text());
        // An organiser page that says what is wrong, not the visitors' error page.
        let page = parse(&reply.text());
        assert_eq!(select(&page, "nav[aria-label='Organiser area']").len(), 1, "{path} {body}");
        assert!(!text(select(&page, "[role=alert]")[0]).is_empty(), "{path} {body}");
    }
    let unchosen = post(&app, &cookie, "/organiser/submissions/decide", &format!("decision=&item={reference}:1")).await;
    assert!(unchosen.text().contains("No decision was chosen."), "{}", unchosen.text());
    // The list's menu: a placeholder first, chosen, and a choice required.
    let list = parse(&get(&app, &cookie, "/organiser/submissions").await.text());
    let menu = select(&list, "#bulk-decision")[0];
    assert!(menu.value().attr("required").is_some());
    let first = select(menu, "option")[0];
    assert_eq!((first.value().attr("value"), first.value().attr("selected").is_some()), (Some(""), true));
    // The pages the 303s lead to: bad addresses are 400, an unknown submission 404.
    let conflict = format!("/organiser/submissions/{reference}/conflict");
    for (path, status) in [
        (conflict.clone(), StatusCode::BAD_REQUEST),
        (format!("{conflict}?why=maybe"), StatusCode::BAD_REQUEST),
        (format!("{conflict}?why=changed&why=preview"), StatusCode::BAD_REQUEST),
        (format!("{conflict}?why=changed&x=1"), StatusCode::BAD_REQUEST),
        ("/organiser/submissions/P-2025-NOPE00/conflict?why=changed".to_owned(), StatusCode::NOT_FOUND),
        ("/organiser/decisions/applied".to_owned(), StatusCode::BAD_REQUEST),
        ("/organiser/decisions/applied?accepted=1&rejected=x&mails=1".to_owned(), StatusCode::BAD_REQUEST),
        ("/organiser/decisions/applied?accepted=1&rejected=0&mails=1&x=1".to_owned(), StatusCode::BAD_REQUEST),
        ("/organiser/submissions?staged=maybe&count=1".to_owned(), StatusCode::BAD_REQUEST),
        ("/organiser/submissions?staged=accepted".to_owned(), StatusCode::BAD_REQUEST),
        ("/organiser/submissions?staged=accepted&count=0".to_owned(), StatusCode::BAD_REQUEST),
    ] {
        let reply = get(&app, &cookie, &path).await;
        assert_eq!(reply.status, status, "{path}: {}", reply.text());
    }
    let long = format!("version=1&decision=accepted&note={}", "a".repeat(2001));
    assert_eq!(post(&app, &cookie, &one, &long).await.status, StatusCode::BAD_REQUEST);
    let missing =
        post(&app, &cookie, "/organiser/submissions/P-2025-NOPE00/decision", "version=1&decision=accepted").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(state_of(&app, &reference).await, ("submitted".into(), None));
}

#[tokio::test]
async fn every_new_route_is_refused_without_a_session_or_from_another_origin() {
    let app = organisers_app().await;
    let reference = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let cookie = sign_in(&app, CHAIR).await;
    let one = format!("/organiser/submissions/{reference}/decision");
    let posts = [
        (one.as_str(), "version=1&decision=accepted"),
        ("/organiser/submissions/decide", &*format!("decision=accepted&item={reference}:1")),
        ("/organiser/submissions/decide/confirm", &*format!("decision=accepted&item={reference}:1")),
        ("/organiser/decisions/apply", &*format!("item={reference}:1")),
    ];
    for (path, body) in posts {
        // No session: back to the sign-in page; another origin: 403 even with a session.
        assert_refused_anonymous_and_foreign(&app, path, body, &cookie).await;
        // No proof of the same origin either: 403.
        let bare = app.post(path, "application/x-www-form-urlencoded", body.to_owned(), &[("cookie", &cookie)]).await;
        assert_eq!(bare.status, StatusCode::FORBIDDEN, "{path}");
    }
    let conflict = format!("/organiser/submissions/{reference}/conflict?why=changed");
    let forged = format!("organiser_session={}", "A".repeat(43));
    for path in ["/organiser/decisions", "/organiser/decisions/applied?accepted=1&rejected=0&mails=1", &conflict] {
        let reply = app.request(path, &[]).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{path}");
        assert_eq!(reply.header("location"), Some("/organiser"), "{path}");
        // A made-up session id is no session either.
        let forged_reply = app.request(path, &[("cookie", &forged)]).await;
        assert_eq!(forged_reply.status, StatusCode::SEE_OTHER, "{path} with a forged cookie");
        assert_eq!(forged_reply.header("location"), Some("/organiser"), "{path} with a forged cookie");
    }
    assert_eq!(state_of(&app, &reference).await, ("submitted".into(), None));
    assert_eq!(version(&app, &reference).await, 1);
    // The author's withdrawal: same-origin only.
    let ack = &mails_to(&app, "ana@example.org").await[0];
    let withdraw = format!("{}/withdraw", status_path(&ack.1));
    for headers in [&[("origin", "https://evil.example")][..], &[][..], &[("sec-fetch-site", "cross-site")][..]] {
        let reply = app.post(&withdraw, "application/x-www-form-urlencoded", "", headers).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{headers:?}");
    }
    assert_eq!(state_of(&app, &reference).await.0, "submitted");
}

#[tokio::test]
async fn the_status_page_shows_one_submission_and_lets_its_author_withdraw_before_a_decision() {
    let app = organisers_app().await;
    let mine = submit_paper(&app, "ana@example.org", "Lantern tides").await;
    let theirs = submit_paper(&app, "ben@example.org", "Harbour bells").await;
    let ack = &mails_to(&app, "ana@example.org").await[0];
    assert_eq!(ack.0, format!("[FIXCON 2025] We received your paper ({mine})"));
    let link = status_path(&ack.1);
    let token = link.rsplit('/').next().unwrap();
    assert_eq!(token.len(), 43, "32 bytes, base64url");
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT token_hash FROM submission_links").fetch_all(&app.pool).await.unwrap();
    assert!(!stored.iter().any(|h| h == token), "only the hash is stored");
    assert!(stored.contains(&conference::base::secrets::hash(token)));

    let page = app.request(&link, &[]).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.header("cache-control"), Some("private, no-store"));
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(page.header("x-robots-tag"), Some("noindex"));
    let body = page.text();
    assert!(body.contains("noindex"), "a robots meta tag");
    for shown in [mine.as_str(), "Lantern tides", "Full Paper", "Submitted"] {
        assert!(body.contains(shown), "{shown}");
    }
    // One token never shows another submission.
    for other in [theirs.as_str(), "Harbour bells", "ben@example.org", "ana@example.org"] {
        assert!(!body.contains(other), "{other} on {mine}'s page");
    }
    let theirs_link = status_path(&mails_to(&app, "ben@example.org").await[0].1);
    assert_ne!(theirs_link, link);
    assert!(app.request(&theirs_link, &[]).await.text().contains(&theirs));

    // Unknown and malformed tokens: 404, nothing shown, still never cached.
    let unknown = format!("/submission/status/{}", "A".repeat(43));
    for path in [unknown.as_str(), "/submission/status/short", "/submission/status/%00", "/submission/status/"] {
        let reply = app.request(path, &[]).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(reply.header("cache-control"), Some("private, no-store"), "{path}");
        assert!(!reply.text().contains(&mine));
    }
    let forged =
        app.post(&format!("{unknown}/withdraw"), "application/x-www-form-urlencoded", "", &[("origin", BASE)]).await;
    assert_eq!(forged.status, StatusCode::NOT_FOUND);

    // Withdrawal before a decision (a pending one goes with it), once; the organisers see it.
    let cookie = sign_in(&app, CHAIR).await;
    assert_eq!(stage(&app, &cookie, &mine, "accepted", "").await.status, StatusCode::SEE_OTHER);
    let withdraw = |body: &'static str| {
        let path = format!("{link}/withdraw");
        let app = &app;
        async move { app.post(&path, "application/x-www-form-urlencoded", body.to_owned(), &[("origin", BASE)]).await }
    };
    // The first POST only asks; a confirmation other than "yes" is a 400; neither changes it.
    let asked = withdraw("").await;
    assert_eq!(asked.status, StatusCode::OK);
    assert_eq!(asked.header("cache-control"), Some("private, no-store"));
    assert_eq!(asked.header("referrer-policy"), Some("no-referrer"));
    let page = parse(&asked.text());
    assert_eq!(text(select(&page, "h1")[0]), "Withdraw this paper?");
    assert!(text(select(&page, "#withdraw-question")[0]).starts_with("Withdraw this paper? This cannot be undone."));
    let confirm = select(&page, "form input[name=confirm]");
    assert_eq!(confirm[0].value().attr("value"), Some("yes"));
    assert!(select(&page, &format!("a[href='{link}']")).len() == 1, "a way back without withdrawing");
    assert_eq!(state_of(&app, &mine).await, ("submitted".into(), Some("accepted".into())), "asking changes nothing");
    for body in ["confirm=no", "confirm=", "confirm=yes&confirm=yes"] {
        let refused = withdraw(body).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{body}");
        assert!(refused.text().contains("nothing was changed"), "{body}: {}", refused.text());
        assert_eq!(shown_state(&refused.text()), "Submitted", "{body}");
    }
    assert_eq!(state_of(&app, &mine).await.0, "submitted");
    let withdrawn = withdraw("confirm=yes").await;
    assert_eq!(withdrawn.status, StatusCode::SEE_OTHER);
    assert_eq!(withdrawn.header("location"), Some(link.as_str()));
    let after = app.request(&link, &[]).await;
    assert_eq!(shown_state(&after.text()), "Withdrawn", "not a cached copy");
    assert!(!after.text().contains("Withdraw my submission"));
    assert_eq!(state_of(&app, &mine).await, ("withdrawn".into(), None));
    for body in ["", "confirm=yes"] {
        let again = withdraw(body).await;
        assert_eq!(again.status, StatusCode::CONFLICT, "{body}");
        assert!(again.text().contains("withdrawn already"));
    }
    let detail = get(&app, &cookie, &format!("/organiser/submissions/{mine}")).await;
    assert!(detail.text().contains("Withdrawn by the author"), "in the history");
    assert!(detail.text().contains("State: Submitted → Withdrawn"), "in the history");
    assert!(!detail.text().contains("Save the pending decision"), "a withdrawn paper takes no decision");
    let dashboard = get(&app, &cookie, "/organiser").await;
    assert!(dashboard.text().contains("Withdrawn: <strong>1</strong>"), "the dashboard counts it");
    let latest = parse(&dashboard.text());
    let row = select(&latest, "#dash-audit ~ div tbody tr")
        .into_iter()
        .map(|row| select(row, "td").into_iter().map(|c| text(c).trim().to_owned()).collect::<Vec<_>>())
        .find(|cells| cells[2] == "Withdrawn by the author")
        .expect("among the latest audit entries");
    assert_eq!(row[1..], ["The author".to_owned(), "Withdrawn by the author".into(), format!("Submission {mine}")]);
    assert!(!dashboard.text().contains("submission.withdrawn"));
    let listed = get(&app, &cookie, "/organiser/submissions?state=withdrawn").await;
    assert!(listed.text().contains(&mine) && !listed.text().contains(&theirs));
    let (actor, details): (String, String) =
        sqlx::query_as("SELECT actor, details FROM audit_log WHERE action = 'submission.withdrawn'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(actor, "author");
    assert!(!details.contains(token));
    // Staging on it now is refused.
    let staged = stage(&app, &cookie, &mine, "rejected", "").await;
    assert_eq!(staged.status, StatusCode::SEE_OTHER);
    let target = staged.header("location").unwrap().to_owned();
    assert_eq!(target, format!("/organiser/submissions/{mine}/conflict?why=withdrawn"));
    let conflict = get(&app, &cookie, &target).await;
    assert_eq!(conflict.status, StatusCode::CONFLICT);
    assert!(conflict.text().contains("was withdrawn by its author; it takes no decision"));

    // After a decision is applied, withdrawal is refused and the state stays.
    assert_eq!(stage(&app, &cookie, &theirs, "rejected", "").await.status, StatusCode::SEE_OTHER);
    let preview = get(&app, &cookie, "/organiser/decisions").await;
    post(&app, &cookie, "/organiser/decisions/apply", &preview_items(&preview.text())).await;
    let refused = app
        .post(&format!("{theirs_link}/withdraw"), "application/x-www-form-urlencoded", "", &[("origin", BASE)])
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "no question once it cannot be withdrawn");
    assert!(refused.text().contains("can no longer be withdrawn"));
    assert_eq!(shown_state(&refused.text()), "Rejected");
    assert_eq!(state_of(&app, &theirs).await.0, "rejected");
}

#[tokio::test]
async fn decision_templates_fill_their_placeholders_and_a_broken_one_is_refused_at_seed_time() {
    let app = organisers_app().await;
    let seed = crate::common::fixture::SEED
        .replace("Status: {status_link}'),\n('decision_rejected'", "Status: {status_lnk}'),\n('decision_rejected'");
    assert_ne!(seed, crate::common::fixture::SEED);
    let err = conference::seed::apply::seed_with(&app.pool, seed.clone()).await.expect_err("refused");
    let line = seed.lines().position(|l| l.contains("{status_lnk}")).unwrap() + 1;
    let message = err.to_string();
    assert!(
        message.starts_with(&format!(
            "line {line}: the mail template decision_accepted uses the unknown placeholder {{status_lnk}}"
        )),
        "{message}"
    );
    // Nothing of it applied: the old template is still there.
    let body: String = sqlx::query_scalar("SELECT body FROM mail_templates WHERE name = 'decision_accepted'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert!(body.contains("{status_link}"));

    // Every placeholder is filled from the submission.
    let reference = submit_paper(&app, "ana@example.org", "Lantern {title} tides").await;
    let cookie = sign_in(&app, CHAIR).await;
    stage(&app, &cookie, &reference, "accepted", "Bring a lantern").await;
    let preview = get(&app, &cookie, "/organiser/decisions").await;
    post(&app, &cookie, "/organiser/decisions/apply", &preview_items(&preview.text())).await;
    let (subject, body) = mails_to(&app, "ana@example.org").await.pop().unwrap();
    assert_eq!(subject, format!("[FIXCON 2025] Fixture acceptance of {reference}"));
    let expected_start = format!(
        "Dear Ana Cruz, Ben Reyes, Carla Santos,\n\nYour Full Paper \"Lantern {{title}} tides\" ({reference}) is accepted at {}.\n\nBring a lantern\n\nStatus: {BASE}/submission/status/",
        crate::common::fixture::NAME
    );
    assert!(body.starts_with(&expected_start), "{body}\n---\n{expected_start}");
}

/// Two instances behind a balancer apply the same preview at the same moment, three times
/// over with changed decisions: each author gets exactly one mail per applied decision. On
/// PostgreSQL (`TEST_DATABASE_URL`, as `.ci/run` runs the suite) the instances' `UPDATE`s
/// race for the same rows, and only the database decides which one applies each.
#[tokio::test]
async fn applying_on_two_instances_at_once_mails_each_author_once() {
    let app = organisers_app().await;
    let twin = app.another_instance().await;
    let mut refs = Vec::new();
    for n in 0..6 {
        refs.push(submit_paper(&app, &format!("author{n}@example.org"), &format!("Tide paper {n}")).await);
    }
    let cookie = sign_in(&app, CHAIR).await;
    for (round, decision) in ["accepted", "rejected", "accepted"].into_iter().enumerate() {
        let mut items = String::new();
        for reference in &refs {
            items.push_str(&format!("&item={reference}:{}", version(&app, reference).await));
        }
        let staged =
            post(&app, &cookie, "/organiser/submissions/decide/confirm", &format!("decision={decision}{items}")).await;
        assert_eq!(staged.status, StatusCode::SEE_OTHER, "{}", staged.text());
        let preview = get(&twin, &cookie, "/organiser/decisions").await;
        let apply = preview_items(&preview.text());
        assert_eq!(apply.matches("item=").count(), refs.len());
        let (a, b) = tokio::join!(
            post(&app, &cookie, "/organiser/decisions/apply", &apply),
            post(&twin, &cookie, "/organiser/decisions/apply", &apply)
        );
        assert_eq!((a.status, b.status), (StatusCode::SEE_OTHER, StatusCode::SEE_OTHER), "{}\n{}", a.text(), b.text());
        // Each says what it applied itself: together, every row once.
        let applied: usize = [&a, &b]
            .iter()
            .map(|reply| {
                let location = reply.header("location").unwrap();
                assert!(location.starts_with("/organiser/decisions/applied?"), "{location}");
                let count = |name: &str| -> usize {
                    location
                        .split(['?', '&'])
                        .find_map(|p| p.strip_prefix(&format!("{name}=")))
                        .unwrap()
                        .parse()
                        .unwrap()
                };
                count("accepted") + count("rejected")
            })
            .sum();
        assert_eq!(applied, refs.len());
        for (n, reference) in refs.iter().enumerate() {
            let mails = mails_to(&app, &format!("author{n}@example.org")).await;
            assert_eq!(mails.len(), 2 + round, "round {round}, author {n}: {mails:?}");
            assert_eq!(state_of(&app, reference).await, (decision.to_owned(), None));
        }
        let applied: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'submission.decision_applied'")
                .fetch_one(&app.pool)
                .await
                .unwrap();
        assert_eq!(applied, i64::try_from(refs.len() * (round + 1)).unwrap(), "one application per row and round");
    }
    drop(twin);
}
