//! Reviewers (issue 32 item 1, DESIGN.md section 15): invited by organisers, signed in by the
//! shared mailed link at `/review`, reaching `/review/...` only.

use axum::http::StatusCode;

use crate::common::review::{add_reviewer, ask_for_reviewer_link, last_reviewer_link, reviewer_sign_in};
use crate::common::{BASE, app_with};
use crate::organiser::{CHAIR, sign_in};

const REVIEWER: &str = "ada@reviewers.example";

#[tokio::test]
async fn a_reviewer_signs_in_at_review_and_reaches_nothing_of_the_organisers() {
    let app = app_with(|c| c.organiser_email = Some(CHAIR.into())).await;
    add_reviewer(&app, REVIEWER, "Ada Reviewer", "Analytical Engines Ltd", "").await;
    let cookie = reviewer_sign_in(&app, REVIEWER).await;
    let home = app.request("/review", &[("cookie", &cookie)]).await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(home.text().contains("Ada Reviewer"), "{}", home.text());
    assert_eq!(home.header("cache-control"), Some("private, no-store"));
    assert_eq!(home.header("x-robots-tag"), Some("noindex"));
    // A reviewer's session opens no organiser page, list, file or action: 404, not a sign-in page.
    for path in ["/organiser", "/organiser/submissions", "/organiser/submissions.csv", "/organiser/audit"] {
        let reply = app.request(path, &[("cookie", &cookie)]).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
    }
    let post = app
        .post(
            "/organiser/sign-out-everywhere",
            "application/x-www-form-urlencoded",
            "",
            &[("origin", BASE), ("cookie", &cookie)],
        )
        .await;
    assert_eq!(post.status, StatusCode::NOT_FOUND);

    // An organiser's link does not sign in at /review, nor a reviewer's at /organiser.
    let organiser = sign_in(&app, CHAIR).await;
    let refused = app.request("/review", &[("cookie", &organiser)]).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "an organiser who is not a reviewer");
    assert_eq!(ask_for_reviewer_link(&app, REVIEWER).await.status, StatusCode::OK);
    let link = last_reviewer_link(&app, REVIEWER).await.unwrap();
    let token = link.rsplit('/').next().unwrap();
    let wrong_area = app
        .post(&format!("/organiser/sign-in/{token}"), "application/x-www-form-urlencoded", "", &[("origin", BASE)])
        .await;
    assert_eq!(wrong_area.status, StatusCode::NOT_FOUND);
    assert!(wrong_area.header("set-cookie").is_none());
}

#[tokio::test]
async fn only_accepted_reviewers_get_a_link_and_the_answer_is_the_same_for_anyone() {
    let app = app_with(|c| c.organiser_email = Some(CHAIR.into())).await;
    add_reviewer(&app, REVIEWER, "Ada Reviewer", "", "").await;
    app.exec("INSERT INTO reviewers (email, name, state, invited_at) VALUES ('invited@x.example', 'Not Yet', 'invited', '2025-01-01T00:00:00.000000Z')").await;
    let answers = [
        ask_for_reviewer_link(&app, REVIEWER).await,
        ask_for_reviewer_link(&app, "invited@x.example").await,
        ask_for_reviewer_link(&app, "stranger@x.example").await,
        ask_for_reviewer_link(&app, CHAIR).await,
    ];
    for reply in &answers {
        assert_eq!(reply.status, StatusCode::OK);
        assert!(reply.text().contains("If this address belongs to a reviewer, a sign-in link is on its way."));
    }
    assert!(last_reviewer_link(&app, REVIEWER).await.is_some());
    for other in ["invited@x.example", "stranger@x.example", CHAIR] {
        assert!(last_reviewer_link(&app, other).await.is_none(), "{other} gets no reviewer link");
    }
}

#[tokio::test]
async fn an_organiser_who_reviews_reaches_review_with_the_organisers_session() {
    let app = app_with(|c| c.organiser_email = Some(CHAIR.into())).await;
    add_reviewer(&app, CHAIR, "Chair Person", "", "").await;
    let organiser = sign_in(&app, CHAIR).await;
    let home = app.request("/review", &[("cookie", &organiser)]).await;
    assert_eq!(home.status, StatusCode::OK, "{}", home.text());
    assert!(home.text().contains("Chair Person"));
}

// Inviting and removing reviewers (issue 32 item 1): /organiser/reviewers and the invitation's
// private link.

use crate::common::TestApp;
use crate::common::html::{Html, content, first, parse, select, text};
use crate::common::programme::{PAPERS, accepted};
use crate::organiser::assert_refused_anonymous_and_foreign;

const FORM: &str = "application/x-www-form-urlencoded";
const LIST: &str = "/organiser/reviewers";
const INVITE: &str = "/organiser/reviewers/invite";
const IMPORT: &str = "/organiser/reviewers/import";
/// The fixture's focus areas (`site.focus_areas`).
pub(crate) const TIDAL: &str = "Tidal Computing";
pub(crate) const LANTERN: &str = "Lantern Studies";

/// An app whose organiser is [`CHAIR`], with room for many POSTs, and the chair's cookie.
pub(crate) async fn chair_app() -> (TestApp, String) {
    let app = app_with(|c| {
        c.organiser_email = Some(CHAIR.into());
        c.rate_limit_per_minute = 100_000;
    })
    .await;
    let cookie = sign_in(&app, CHAIR).await;
    (app, cookie)
}

/// The visible text of the first element of `html` matching `css` ("" without one).
fn at(html: &Html, css: &str) -> String {
    first(html, css).map(text).unwrap_or_default()
}

/// A form body of `pairs`.
fn form(pairs: &[(&str, &str)]) -> String {
    serde_urlencoded::to_string(pairs).unwrap()
}

/// A same-origin POST with `cookie`.
async fn post(app: &TestApp, cookie: &str, path: &str, body: String) -> crate::common::Reply {
    app.post(path, FORM, body, &[("origin", BASE), ("cookie", cookie)]).await
}

/// Invites one reviewer through the form; the answer.
async fn invite(
    app: &TestApp,
    cookie: &str,
    name: &str,
    email: &str,
    affiliation: &str,
    topics: &[&str],
) -> crate::common::Reply {
    let mut pairs = vec![("name", name), ("email", email), ("affiliation", affiliation)];
    pairs.extend(topics.iter().map(|t| ("topics", *t)));
    post(app, cookie, INVITE, form(&pairs)).await
}

/// Invites one reviewer and follows the 303; the reviewer's id.
async fn invited(app: &TestApp, cookie: &str, name: &str, email: &str, topics: &[&str]) -> i64 {
    let reply = invite(app, cookie, name, email, "", topics).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    let location = reply.header("location").unwrap().to_owned();
    assert!(location.starts_with("/organiser/reviewers?done=invited&id="), "{location}");
    location.rsplit('=').next().unwrap().parse().unwrap()
}

/// The invitation mails to `email`: (subject, text), oldest first.
pub(crate) async fn invitations(app: &TestApp, email: &str) -> Vec<(String, String)> {
    sqlx::query_as("SELECT subject, text_body FROM outbox WHERE to_address = $1 AND subject LIKE '%Invitation to review%' ORDER BY id")
        .bind(email)
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

/// The invitation link (path, without the query) of the last invitation mailed to `email`.
pub(crate) async fn invitation_link(app: &TestApp, email: &str) -> String {
    let (_, body) = invitations(app, email).await.pop().expect("an invitation mail");
    let prefix = format!("{BASE}/review/invitation/");
    let at = body.find(&prefix).unwrap_or_else(|| panic!("an invitation link in {body}"));
    let link: String = body[at + BASE.len()..].chars().take_while(|c| !c.is_whitespace() && *c != '?').collect();
    link
}

/// The stored state, answer time and whether an invitation token is kept, of `email`.
async fn stored(app: &TestApp, email: &str) -> (String, Option<String>, bool) {
    let (state, answered, hash): (String, Option<String>, Option<String>) =
        sqlx::query_as("SELECT state, answered_at, invitation_hash FROM reviewers WHERE email = $1")
            .bind(email)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    (state, answered, hash.is_some())
}

/// The audit entries of reviewer `id`: (actor, action, details), oldest first.
pub(crate) async fn audit_of(app: &TestApp, id: i64) -> Vec<(String, String, String)> {
    sqlx::query_as(
        "SELECT actor, action, details FROM audit_log WHERE object_type = 'reviewer' AND object_id = $1 ORDER BY id",
    )
    .bind(id.to_string())
    .fetch_all(&app.pool)
    .await
    .unwrap()
}

/// The answer to the invitation at `link`, posted from its page.
async fn answer(app: &TestApp, link: &str, answer: &str) -> crate::common::Reply {
    app.post(link, FORM, format!("answer={answer}"), &[("origin", "null"), ("sec-fetch-site", "same-origin")]).await
}

#[tokio::test]
async fn an_invited_reviewer_accepts_by_the_mailed_link_and_then_signs_in_at_review() {
    let (app, cookie) = chair_app().await;
    let email = "ada@engines.example";
    let reply =
        invite(&app, &cookie, "Ada Lovelace", " Ada@Engines.EXAMPLE ", "Analytical Engines", &[LANTERN, TIDAL]).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    let page = app.request(reply.header("location").unwrap(), &[("cookie", &cookie)]).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = parse(&page.text());
    assert!(at(&html, "#notice").contains("Ada Lovelace (ada@engines.example) is invited"), "{}", page.text());
    let row = at(&html, "#reviewers tbody tr");
    for shown in ["Ada Lovelace", email, "Analytical Engines", "Tidal Computing, Lantern Studies", "Invited"] {
        assert!(row.contains(shown), "{shown} in {row}");
    }
    assert_eq!(stored(&app, email).await, ("invited".into(), None, true));

    // One mail: who invites, the topics, and one private link, as "accept" and "decline".
    let mails = invitations(&app, email).await;
    assert_eq!(mails.len(), 1);
    let (subject, body) = &mails[0];
    assert_eq!(subject, "[FIXCON 2025] Invitation to review");
    assert!(body.contains("Dear Ada Lovelace"), "{body}");
    assert!(
        body.contains("The organising committee of Fixture Symposium on Tidal Computing and Lantern Studies"),
        "{body}"
    );
    assert!(body.contains("Your topics: Tidal Computing, Lantern Studies."), "{body}");
    let link = invitation_link(&app, email).await;
    assert!(
        body.contains(&format!("{BASE}{link}?answer=accept")) && body.contains(&format!("{BASE}{link}?answer=decline"))
    );
    assert_eq!(body.matches("/review/invitation/").count(), 2, "one token, two answers: {body}");
    assert!(body.contains(&format!("{BASE}/review")), "where to sign in: {body}");

    // Not a reviewer until the answer: no sign-in link yet.
    assert_eq!(ask_for_reviewer_link(&app, email).await.status, StatusCode::OK);
    assert!(last_reviewer_link(&app, email).await.is_none());

    let page = app.request(&format!("{link}?answer=accept"), &[]).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(page.header("cache-control"), Some("private, no-store"));
    assert_eq!(page.header("x-robots-tag"), Some("noindex"));
    let html = parse(&page.text());
    let forms: Vec<(String, String)> = select(&html, "main form")
        .into_iter()
        .map(|f| {
            let answer = first(f, "input[name=answer]").unwrap();
            (f.value().attr("action").unwrap().to_owned(), answer.value().attr("value").unwrap().to_owned())
        })
        .collect();
    assert_eq!(forms, [(link.clone(), "accept".into()), (link.clone(), "decline".into())]);
    assert!(at(&html, "#chosen").contains("You chose to accept"));

    let accepted_page = answer(&app, &link, "accept").await;
    assert_eq!(accepted_page.status, StatusCode::OK, "{}", accepted_page.text());
    assert_eq!(accepted_page.header("referrer-policy"), Some("no-referrer"));
    let html = parse(&accepted_page.text());
    assert!(at(&html, "h1").contains("you are a reviewer"));
    assert!(!select(&html, "main a[href=\"/review\"]").is_empty(), "the way to sign in");
    let (state, answered, token_kept) = stored(&app, email).await;
    assert_eq!((state.as_str(), answered.is_some(), token_kept), ("accepted", true, false));
    // The link is used up.
    assert_eq!(app.request(&link, &[]).await.status, StatusCode::NOT_FOUND);
    assert_eq!(answer(&app, &link, "decline").await.status, StatusCode::NOT_FOUND);
    assert_eq!(stored(&app, email).await.0, "accepted");

    let reviewer = reviewer_sign_in(&app, email).await;
    let home = app.request("/review", &[("cookie", &reviewer)]).await;
    assert!(home.text().contains("Ada Lovelace"), "{}", home.text());

    let list = parse(&app.request(LIST, &[("cookie", &cookie)]).await.text());
    assert!(at(&list, "#reviewers tbody tr").contains("Accepted"));
    let id: i64 =
        sqlx::query_scalar("SELECT id FROM reviewers WHERE email = $1").bind(email).fetch_one(&app.pool).await.unwrap();
    let entries = audit_of(&app, id).await;
    let actions: Vec<(&str, &str)> =
        entries.iter().map(|(actor, action, _)| (actor.as_str(), action.as_str())).collect();
    assert_eq!(actions, [(CHAIR, "reviewer.invited"), (email, "reviewer.accepted")]);
    assert!(entries[0].2.contains("\"via\":\"form\"") && !entries[0].2.contains(link.rsplit('/').next().unwrap()));
    let log = app.request("/organiser/audit?q=reviewer", &[("cookie", &cookie)]).await.text();
    assert!(log.contains("Reviewer invited") && log.contains("Invitation to review accepted"), "{log}");
}

#[tokio::test]
async fn a_reviewer_who_declines_never_gets_a_sign_in_link() {
    let (app, cookie) = chair_app().await;
    let email = "ben@decliners.example";
    let id = invited(&app, &cookie, "Ben Decline", email, &[TIDAL]).await;
    let link = invitation_link(&app, email).await;
    let page = app.request(&format!("{link}?answer=decline"), &[]).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = parse(&page.text());
    assert!(at(&html, "#chosen").contains("You chose to decline"));
    assert_eq!(select(&html, "main form button")[0].text().collect::<String>(), "Decline", "the mail's choice first");
    let declined = answer(&app, &link, "decline").await;
    assert_eq!(declined.status, StatusCode::OK);
    assert!(declined.text().contains("You declined the invitation"));
    let (state, answered, token_kept) = stored(&app, email).await;
    assert_eq!((state.as_str(), answered.is_some(), token_kept), ("declined", true, false));
    assert_eq!(answer(&app, &link, "accept").await.status, StatusCode::NOT_FOUND, "no second answer");
    assert_eq!(ask_for_reviewer_link(&app, email).await.status, StatusCode::OK);
    assert!(last_reviewer_link(&app, email).await.is_none(), "no sign-in link mailed");
    let actions: Vec<String> = audit_of(&app, id).await.into_iter().map(|(_, action, _)| action).collect();
    assert_eq!(actions, ["reviewer.invited", "reviewer.declined"]);
}

#[tokio::test]
async fn opening_the_invitation_link_changes_nothing_and_a_bad_link_is_404() {
    let (app, cookie) = chair_app().await;
    let email = "cy@scanners.example";
    let id = invited(&app, &cookie, "Cy Scanned", email, &[]).await;
    let link = invitation_link(&app, email).await;
    // A mail scanner opens every link, more than once.
    for query in ["", "?answer=accept", "?answer=decline", "?answer=yes&x=1"] {
        let page = app.request(&format!("{link}{query}"), &[]).await;
        assert_eq!(page.status, StatusCode::OK, "{query}");
        assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    }
    assert_eq!(stored(&app, email).await, ("invited".into(), None, true));
    assert_eq!(audit_of(&app, id).await.len(), 1, "only the invitation");
    // A POST without a known answer changes nothing either.
    for body in ["", "answer=maybe", "answer=accept&answer=decline"] {
        let reply = app.post(&link, FORM, body, &[("origin", BASE)]).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{body}");
        assert!(reply.text().contains("nothing was changed"), "{body}");
    }
    // Nor does one from another site.
    let foreign = app.post(&link, FORM, "answer=accept", &[("origin", "https://evil.example")]).await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN);
    assert_eq!(stored(&app, email).await, ("invited".into(), None, true));
    // Unknown, malformed and forged tokens: the site's 404, nothing about anyone.
    for path in
        [format!("/review/invitation/{}", "A".repeat(43)), "/review/invitation/short".into(), format!("{link}x")]
    {
        let page = app.request(&path, &[]).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
        let body = page.text();
        assert!(body.contains("This invitation link does not work") && !body.contains("Cy Scanned"), "{body}");
        assert_eq!(answer(&app, &path, "accept").await.status, StatusCode::NOT_FOUND);
    }
    assert_eq!(stored(&app, email).await.0, "invited");
}

#[tokio::test]
async fn bad_invitations_are_refused_with_the_field_s_error_and_store_nothing() {
    let (app, cookie) = chair_app().await;
    let cases: [(&str, &str, &[&str], &str, &str); 4] = [
        ("", "nameless@x.example", &[TIDAL], "#invite-name-error", "Please enter the reviewer's name."),
        ("Bad Mail", "bad-mail@", &[TIDAL], "#invite-email-error", "is not an e-mail address"),
        (
            "Odd Topic",
            "odd@x.example",
            &[TIDAL, "Astrology"],
            "#invite-topics-error",
            "“Astrology” is not among the conference's focus areas",
        ),
        ("Long Affiliation", "long@x.example", &[], "#invite-affiliation-error", "at most 200"),
    ];
    for (name, email, topics, field, message) in cases {
        let affiliation = if name == "Long Affiliation" { "a".repeat(201) } else { "Harbour Lab".into() };
        let reply = invite(&app, &cookie, name, email, &affiliation, topics).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{name}");
        let html = parse(&reply.text());
        assert!(at(&html, field).contains(message), "{name}: {}", at(&html, field));
        // What was typed is shown again.
        let value = |selector: &str| select(&html, selector)[0].value().attr("value").unwrap_or_default().to_owned();
        assert_eq!(value("#invite-email"), email);
        assert_eq!(value("#invite-name"), name);
        let checked: Vec<String> = select(&html, "input[name=topics][checked]")
            .into_iter()
            .map(|i| i.value().attr("value").unwrap().to_owned())
            .collect();
        assert_eq!(checked, [TIDAL].iter().filter(|t| topics.contains(t)).map(|t| t.to_string()).collect::<Vec<_>>());
    }
    assert_eq!(app.count("reviewers").await, 0);
    assert_eq!(app.count("outbox").await, 1, "only the chair's sign-in link");

    // An address already a reviewer, whatever its case, in any state but removed.
    invited(&app, &cookie, "Dee Once", "dee@x.example", &[]).await;
    add_reviewer(&app, "eve@x.example", "Eve Accepted", "", "").await;
    app.exec("INSERT INTO reviewers (email, name, state, invited_at) VALUES ('fay@x.example', 'Fay No', 'declined', '2025-01-01T00:00:00.000000Z')").await;
    for (email, message) in [
        ("DEE@x.example", "dee@x.example has been invited already"),
        ("eve@x.example", "eve@x.example is already a reviewer."),
        ("fay@x.example", "fay@x.example declined an invitation already."),
    ] {
        let reply = invite(&app, &cookie, "Someone Again", email, "", &[]).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{email}");
        assert!(at(&parse(&reply.text()), "#invite-email-error").contains(message), "{email}");
    }
    assert_eq!(app.count("reviewers").await, 3);
    assert_eq!(invitations(&app, "dee@x.example").await.len(), 1);
    // A field sent twice is a malformed form.
    let twice = post(&app, &cookie, INVITE, form(&[("name", "A"), ("name", "B"), ("email", "ab@x.example")])).await;
    assert_eq!(twice.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.count("reviewers").await, 3);
}

#[tokio::test]
async fn a_pasted_list_invites_everyone_or_nobody_naming_each_bad_line() {
    let (app, cookie) = chair_app().await;
    add_reviewer(&app, "taken@x.example", "Already Here", "", "").await;
    let bad = "name,email,affiliation,topics\n\
               Gus Good,gus@x.example,Harbour Lab,Tidal Computing;lantern studies\n\
               Hal Bad,hal-at-x,,\n\
               Ivy Good,ivy@x.example,,\n\
               Jon Odd,jon@x.example,,Astrology\n";
    let reply = post(&app, &cookie, IMPORT, form(&[("reviewers", bad)])).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    let html = parse(&reply.text());
    let lines: Vec<String> = select(&html, "#import-errors li").into_iter().map(|li| li.text().collect()).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("Line 3:") && lines[0].contains("hal-at-x"), "{lines:?}");
    assert!(lines[1].starts_with("Line 5:") && lines[1].contains("Astrology"), "{lines:?}");
    assert!(at(&html, "#import-problem").contains("Nobody was invited: 2 lines have a problem"));
    assert_eq!(content(first(&html, "#import-reviewers").unwrap()), bad, "the list as pasted");
    assert_eq!(app.count("reviewers").await, 1, "nothing stored");
    // An address already a reviewer is named by its line too.
    let taken = "Kim Good,kim@x.example\nTaken Again,TAKEN@x.example\n";
    let reply = post(&app, &cookie, IMPORT, form(&[("reviewers", taken)])).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    let lines = select(&parse(&reply.text()), "#import-errors li")
        .into_iter()
        .map(|li| li.text().collect::<String>())
        .collect::<Vec<_>>();
    assert_eq!(lines, ["Line 2: taken@x.example is already a reviewer."]);
    assert_eq!(app.count("reviewers").await, 1);
    let empty = post(&app, &cookie, IMPORT, form(&[("reviewers", "\n\n")])).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    let many: String = (0..501).map(|i| format!("R{i},r{i}@x.example\n")).collect();
    let too_many = post(&app, &cookie, IMPORT, form(&[("reviewers", &many)])).await;
    assert_eq!(too_many.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(too_many.text().contains("at most 500"));
    assert_eq!(app.count("reviewers").await, 1);

    let good = "Gus Good,gus@x.example,Harbour Lab,Tidal Computing;lantern studies\nIvy Good,Ivy@X.example,,\n";
    let reply = post(&app, &cookie, IMPORT, form(&[("reviewers", good)])).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    assert_eq!(reply.header("location"), Some("/organiser/reviewers?done=imported&count=2"));
    let page = parse(&app.request(reply.header("location").unwrap(), &[("cookie", &cookie)]).await.text());
    assert!(at(&page, "#notice").contains("2 reviewers were invited"));
    for (email, topics) in [("gus@x.example", "Tidal Computing\nLantern Studies"), ("ivy@x.example", "")] {
        let stored: (String, String) = sqlx::query_as("SELECT state, topics FROM reviewers WHERE email = $1")
            .bind(email)
            .fetch_one(&app.pool)
            .await
            .unwrap();
        assert_eq!(stored, ("invited".to_owned(), topics.to_owned()));
        assert_eq!(invitations(&app, email).await.len(), 1, "{email}");
    }
    let via_csv: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'reviewer.invited' AND actor = $1 AND details LIKE '%\"via\":\"csv\"%'")
        .bind(CHAIR)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(via_csv, 2);
}

#[tokio::test]
async fn sending_the_invitation_again_replaces_the_link() {
    let (app, cookie) = chair_app().await;
    let email = "lea@x.example";
    let id = invited(&app, &cookie, "Lea Late", email, &[LANTERN]).await;
    let first = invitation_link(&app, email).await;
    let reply = post(&app, &cookie, &format!("/organiser/reviewers/{id}/resend"), String::new()).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    let page = parse(&app.request(reply.header("location").unwrap(), &[("cookie", &cookie)]).await.text());
    assert!(at(&page, "#notice").contains("A new invitation went to Lea Late"));
    let mails = invitations(&app, email).await;
    assert_eq!(mails.len(), 2);
    assert!(mails[1].1.contains("Your topics: Lantern Studies."));
    let second = invitation_link(&app, email).await;
    assert_ne!(first, second);
    assert_eq!(app.request(&first, &[]).await.status, StatusCode::NOT_FOUND, "the old link stops working");
    assert_eq!(answer(&app, &first, "accept").await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.request(&second, &[]).await.status, StatusCode::OK);
    assert_eq!(answer(&app, &second, "accept").await.status, StatusCode::OK);
    // Once answered there is no invitation to send again.
    let again = post(&app, &cookie, &format!("/organiser/reviewers/{id}/resend"), String::new()).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(at(&parse(&again.text()), "#problem").contains("is accepted, so there is no open invitation"));
    assert_eq!(invitations(&app, email).await.len(), 2);
    for path in ["/organiser/reviewers/999/resend", "/organiser/reviewers/abc/remove", "/organiser/reviewers/0/remove"]
    {
        assert_eq!(post(&app, &cookie, path, String::new()).await.status, StatusCode::NOT_FOUND, "{path}");
    }
    let actions: Vec<(String, String)> =
        audit_of(&app, id).await.into_iter().map(|(actor, action, _)| (actor, action)).collect();
    let expected = [(CHAIR, "reviewer.invited"), (CHAIR, "reviewer.invitation_resent"), (email, "reviewer.accepted")];
    assert_eq!(actions, expected.map(|(a, b)| (a.to_owned(), b.to_owned())));
}

/// Assignment `number` of reviewer `reviewer` on submission `submission` in `state`, with a
/// review in `review` (`None`: not started); the assignment's id.
async fn assignment(
    app: &TestApp,
    submission: i64,
    reviewer: i64,
    number: i64,
    state: &str,
    review: Option<&str>,
) -> i64 {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO review_assignments (submission_id, reviewer_id, number, state, created, released_at) \
         VALUES ($1, $2, $3, $4, '2025-02-01T00:00:00.000000Z', NULL) RETURNING id",
    )
    .bind(submission)
    .bind(reviewer)
    .bind(number)
    .bind(state)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    if let Some(review) = review {
        sqlx::query(
            "INSERT INTO reviews (assignment_id, submission_id, reviewer_id, state, comments_to_authors, created, updated, submitted_at) \
             VALUES ($1, $2, $3, $4, 'Clear and useful.', '2025-02-02T00:00:00.000000Z', '2025-02-02T00:00:00.000000Z', $5)",
        )
        .bind(id)
        .bind(submission)
        .bind(reviewer)
        .bind(review)
        .bind((review == "submitted").then_some("2025-02-03T00:00:00.000000Z"))
        .execute(&app.pool)
        .await
        .unwrap();
    }
    id
}

async fn assignment_state(app: &TestApp, id: i64) -> String {
    sqlx::query_scalar("SELECT state FROM review_assignments WHERE id = $1")
        .bind(id)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn removing_a_reviewer_ends_their_session_at_once_and_hands_back_unfinished_papers() {
    let (app, cookie) = chair_app().await;
    let email = "max@x.example";
    let id = add_reviewer(&app, email, "Max Removed", "Harbour Lab", TIDAL).await;
    let other = add_reviewer(&app, "nia@x.example", "Nia Stays", "", "").await;
    let session = reviewer_sign_in(&app, email).await;
    assert_eq!(app.request("/review", &[("cookie", &session)]).await.status, StatusCode::OK);
    let papers = [accepted(&app, &PAPERS[0]).await, accepted(&app, &PAPERS[1]).await, accepted(&app, &PAPERS[2]).await];
    let draft = assignment(&app, papers[0], id, 1, "released", Some("draft")).await;
    let submitted = assignment(&app, papers[1], id, 1, "released", Some("submitted")).await;
    let staged = assignment(&app, papers[2], id, 1, "staged", None).await;
    let others = assignment(&app, papers[0], other, 2, "released", None).await;
    let list = parse(&app.request(LIST, &[("cookie", &cookie)]).await.text());
    let cells: Vec<String> =
        select(&list, &format!("#reviewer-{id} td")).into_iter().map(|td| td.text().collect()).collect();
    assert_eq!((cells[7].as_str(), cells[8].as_str()), ("3", "0"), "papers live, handed back: {cells:?}");

    let reply = post(&app, &cookie, &format!("/organiser/reviewers/{id}/remove"), String::new()).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    // The removal itself ended the session, before the reviewer asks for anything.
    let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM organiser_sessions WHERE email = $1")
        .bind(email)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(sessions, 0);
    // The reviewer's next request finds no session: the sign-in page, no papers.
    let home = app.request("/review", &[("cookie", &session)]).await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(home.text().contains("Send me a sign-in link") && !home.text().contains("Max Removed"), "{}", home.text());
    // Only the link of the sign-in before the removal was ever mailed.
    assert_eq!(ask_for_reviewer_link(&app, email).await.status, StatusCode::OK);
    let links_after: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE to_address = $1")
        .bind(email)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(links_after, 1, "no new sign-in link after removal");

    assert_eq!(assignment_state(&app, draft).await, "withdrawn");
    assert_eq!(assignment_state(&app, staged).await, "withdrawn");
    assert_eq!(assignment_state(&app, submitted).await, "released", "a submitted review stays");
    assert_eq!(assignment_state(&app, others).await, "released", "another reviewer's paper is untouched");
    let reviews: Vec<(String,)> = sqlx::query_as("SELECT state FROM reviews WHERE reviewer_id = $1 ORDER BY id")
        .bind(id)
        .fetch_all(&app.pool)
        .await
        .unwrap();
    assert_eq!(reviews, [("draft".to_owned(),), ("submitted".to_owned(),)], "both reviews stay stored");
    let (state, _, token_kept) = stored(&app, email).await;
    assert_eq!((state.as_str(), token_kept), ("removed", false));

    let page = parse(&app.request(reply.header("location").unwrap(), &[("cookie", &cookie)]).await.text());
    assert!(
        at(&page, "#notice").contains("Max Removed (max@x.example) is removed: their sessions ended, and 2 unfinished assignments were handed back"),
        "{}",
        at(&page, "#notice")
    );
    let cells: Vec<String> =
        select(&page, &format!("#reviewer-{id} td")).into_iter().map(|td| td.text().collect()).collect();
    assert_eq!((cells[4].as_str(), cells[7].as_str(), cells[8].as_str()), ("Removed", "1", "2"), "{cells:?}");
    assert!(select(&page, &format!("#reviewer-{id} form")).is_empty(), "nothing left to do");
    let entries = audit_of(&app, id).await;
    let (actor, action, details) = entries.last().unwrap();
    assert_eq!((actor.as_str(), action.as_str()), (CHAIR, "reviewer.removed"));
    let details: serde_json::Value = serde_json::from_str(details).unwrap();
    assert_eq!((details["handed_back"].as_i64(), details["sessions"].as_i64()), (Some(2), Some(1)));

    // Removing twice changes nothing.
    let again = post(&app, &cookie, &format!("/organiser/reviewers/{id}/remove"), String::new()).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(audit_of(&app, id).await.len(), entries.len());

    // Invited again: the same row, invited, with a new link that works.
    let reply = invite(&app, &cookie, "Max Returns", "max@x.example", "", &[LANTERN]).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    assert_eq!(reply.header("location"), Some(format!("/organiser/reviewers?done=invited&id={id}").as_str()));
    let (state, answered, token_kept) = stored(&app, email).await;
    assert_eq!((state.as_str(), answered, token_kept), ("invited", None, true));
    let link = invitation_link(&app, email).await;
    assert_eq!(answer(&app, &link, "accept").await.status, StatusCode::OK);
    let back = reviewer_sign_in(&app, email).await;
    assert!(app.request("/review", &[("cookie", &back)]).await.text().contains("Max Returns"));
    assert_eq!(assignment_state(&app, draft).await, "withdrawn", "handed-back papers stay handed back");
}

#[tokio::test]
async fn the_reviewers_page_and_its_forms_are_for_organisers_only() {
    let (app, cookie) = chair_app().await;
    let id = add_reviewer(&app, "oli@x.example", "Oli Reviewer", "", "").await;
    let reviewer = reviewer_sign_in(&app, "oli@x.example").await;
    let anonymous = app.request(LIST, &[]).await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER);
    assert_eq!(anonymous.header("location"), Some("/organiser"));
    assert_eq!(app.request(LIST, &[("cookie", &reviewer)]).await.status, StatusCode::NOT_FOUND);
    let page = app.request(LIST, &[("cookie", &cookie)]).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.header("cache-control"), Some("private, no-store"));
    let html = parse(&page.text());
    let links: Vec<String> = select(&html, ".organiser-header__nav a")
        .into_iter()
        .map(|a| a.value().attr("href").unwrap().to_owned())
        .collect();
    assert!(links.contains(&LIST.to_owned()), "the header links the page: {links:?}");
    assert_eq!(select(&html, "a[aria-current=page]")[0].value().attr("href"), Some(LIST));
    let posts = [
        (INVITE.to_owned(), form(&[("name", "Pat Sneaky"), ("email", "pat@x.example")])),
        (IMPORT.to_owned(), form(&[("reviewers", "Pat Sneaky,pat@x.example")])),
        (format!("/organiser/reviewers/{id}/resend"), String::new()),
        (format!("/organiser/reviewers/{id}/remove"), String::new()),
    ];
    for (path, body) in &posts {
        assert_refused_anonymous_and_foreign(&app, path, body, &cookie).await;
        let by_reviewer = post(&app, &reviewer, path, body.clone()).await;
        assert_eq!(by_reviewer.status, StatusCode::NOT_FOUND, "{path}");
    }
    assert_eq!(app.count("reviewers").await, 1, "nothing stored");
    assert_eq!(stored(&app, "oli@x.example").await.0, "accepted", "nobody removed");
    let reviewer_entries: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action LIKE 'reviewer.%'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(reviewer_entries, 0);
    assert_eq!(app.request("/review", &[("cookie", &reviewer)]).await.status, StatusCode::OK, "still signed in");
}
