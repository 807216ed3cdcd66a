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
