//! Peer review in tests (issue 32): reviewers written straight into the database, and a
//! reviewer's session got the way a person gets one, through the mailed link of `/review`.

use axum::http::StatusCode;

use super::{BASE, Reply, TestApp};

/// An accepted reviewer (`email` lower-case); returns the reviewer's id.
pub async fn add_reviewer(app: &TestApp, email: &str, name: &str, affiliation: &str, topics: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO reviewers (email, name, affiliation, topics, state, invited_at, answered_at) \
         VALUES ($1, $2, $3, $4, 'accepted', '2025-01-01T00:00:00.000000Z', '2025-01-02T00:00:00.000000Z') RETURNING id",
    )
    .bind(email)
    .bind(name)
    .bind(affiliation)
    .bind(topics)
    .fetch_one(&app.pool)
    .await
    .expect("a reviewer row")
}

/// POST `/review/sign-in` from the site's own page.
pub async fn ask_for_reviewer_link(app: &TestApp, email: &str) -> Reply {
    let body = format!("email={}", email.replace('@', "%40"));
    app.post("/review/sign-in", "application/x-www-form-urlencoded", body, &[("origin", BASE)]).await
}

/// The last `/review/sign-in/...` link mailed to `email`, as a path.
pub async fn last_reviewer_link(app: &TestApp, email: &str) -> Option<String> {
    let bodies: Vec<String> = sqlx::query_scalar("SELECT text_body FROM outbox WHERE to_address = $1 ORDER BY id DESC")
        .bind(email)
        .fetch_all(&app.pool)
        .await
        .unwrap();
    let prefix = format!("{BASE}/review/sign-in/");
    bodies.iter().find_map(|body| {
        let at = body.find(&prefix)?;
        Some(body[at + BASE.len()..].chars().take_while(|c| !c.is_whitespace()).collect())
    })
}

/// Signs reviewer `email` in through a mailed link; the cookie (`name=value`) to send.
pub async fn reviewer_sign_in(app: &TestApp, email: &str) -> String {
    assert_eq!(ask_for_reviewer_link(app, email).await.status, StatusCode::OK);
    let path = last_reviewer_link(app, email).await.expect("a mailed reviewer link");
    let signed = app.post(&path, "application/x-www-form-urlencoded", "", &[("origin", BASE)]).await;
    assert_eq!(signed.status, StatusCode::SEE_OTHER, "{}", signed.text());
    assert_eq!(signed.header("location"), Some("/review"));
    signed.header("set-cookie").expect("a session cookie").split(';').next().unwrap().to_owned()
}
