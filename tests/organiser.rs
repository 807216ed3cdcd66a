//! The organiser area's sign-in and sessions (DESIGN.md section 12, issue 20), tried from the
//! outside as an attacker would: links by mail only, once, for 15 minutes; the same answer for
//! any address; sessions that end; same-origin POSTs only; never data without a session.

use axum::http::StatusCode;
use time::macros::datetime;

use crate::common::html::{parse, select, text};
use crate::common::{BASE, Reply, TestApp, app_with, app_with_clock};
use conference::clock::Clock;

pub(crate) const CHAIR: &str = "chair@fixcon.example";
const LINK_ON_ITS_WAY: &str = "If this address belongs to an organiser, a sign-in link is on its way.";

pub(crate) async fn organisers_app() -> TestApp {
    app_with(|c| c.organiser_email = Some(format!(" Chair@FixCon.example , {}", "treasurer@fixcon.example"))).await
}

pub(crate) async fn organisers_app_at(clock: Clock) -> TestApp {
    app_with_clock(|c| c.organiser_email = Some(CHAIR.into()), clock).await
}

/// POST `/organiser/sign-in` from the site's own page.
async fn ask_for_link(app: &TestApp, email: &str) -> Reply {
    let body = format!("email={}", email.replace('@', "%40"));
    app.post("/organiser/sign-in", "application/x-www-form-urlencoded", body, &[("origin", BASE)]).await
}

/// The sign-in links mailed so far, with their addresses, oldest first.
async fn mailed_links(app: &TestApp) -> Vec<(String, String)> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT to_address, text_body FROM outbox ORDER BY id").fetch_all(&app.pool).await.unwrap();
    let prefix = format!("{BASE}/organiser/sign-in/");
    rows.into_iter()
        .filter_map(|(to, body)| {
            let at = body.find(&prefix)?;
            let link: String = body[at..].chars().take_while(|c| !c.is_whitespace()).collect();
            Some((to, link))
        })
        .collect()
}

/// The session cookie (`name=value`) a sign-in answer set.
fn session_cookie(reply: &Reply) -> String {
    let set = reply.header("set-cookie").expect("a session cookie");
    set.split(';').next().unwrap().to_owned()
}

/// Signs `email` in through a mailed link; the cookie to send.
pub(crate) async fn sign_in(app: &TestApp, email: &str) -> String {
    assert_eq!(ask_for_link(app, email).await.status, StatusCode::OK);
    let (_, link) = mailed_links(app).await.pop().expect("a mailed link");
    let path = link.strip_prefix(BASE).unwrap().to_owned();
    let signed = app.post(&path, "application/x-www-form-urlencoded", "", &[("origin", BASE)]).await;
    assert_eq!(signed.status, StatusCode::SEE_OTHER, "{}", signed.text());
    session_cookie(&signed)
}

async fn dashboard(app: &TestApp, cookie: &str) -> Reply {
    app.request("/organiser", &[("cookie", cookie)]).await
}

fn is_dashboard(reply: &Reply) -> bool {
    reply.status == StatusCode::OK && reply.text().contains("Signed in as")
}

#[tokio::test]
async fn an_organiser_signs_in_by_a_mailed_link_and_out_again() {
    let app = organisers_app().await;
    let asked = ask_for_link(&app, "Chair@FixCon.example").await;
    assert_eq!(asked.status, StatusCode::OK);
    assert!(asked.text().contains(LINK_ON_ITS_WAY), "{}", asked.text());
    let links = mailed_links(&app).await;
    assert_eq!(links.len(), 1);
    let (to, link) = &links[0];
    assert_eq!(to, CHAIR, "to the listed address, normalised");
    let token = link.rsplit('/').next().unwrap();
    assert_eq!(token.len(), 43, "32 bytes, base64url: {link}");

    // Opening the link (a person or a mail scanner) uses nothing up.
    let path = link.strip_prefix(BASE).unwrap();
    for _ in 0..2 {
        let page = app.request(path, &[]).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.text().contains(&format!("Sign in as {CHAIR}")), "{}", page.text());
        assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
        assert!(page.header("set-cookie").is_none());
    }
    let signed = app.post(path, "application/x-www-form-urlencoded", "", &[("origin", BASE)]).await;
    assert_eq!(signed.status, StatusCode::SEE_OTHER);
    assert_eq!(signed.header("location"), Some("/organiser"));
    let set = signed.header("set-cookie").unwrap();
    assert!(set.starts_with("organiser_session="), "{set}");
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(set.contains(flag), "{flag} in {set}");
    }
    assert!(!set.contains("Secure"), "plain http locally: {set}");
    let cookie = session_cookie(&signed);

    let home = dashboard(&app, &cookie).await;
    assert!(is_dashboard(&home), "{}", home.text());
    assert!(home.text().contains(CHAIR));
    assert_eq!(home.header("cache-control"), Some("private, no-store"));
    assert_eq!(home.header("x-robots-tag"), Some("noindex"));

    // The link worked once.
    let again = app.post(path, "application/x-www-form-urlencoded", "", &[("origin", BASE)]).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    assert!(again.header("set-cookie").is_none());

    let out = app
        .post("/organiser/sign-out", "application/x-www-form-urlencoded", "", &[("origin", BASE), ("cookie", &cookie)])
        .await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    assert!(out.header("set-cookie").unwrap().contains("Max-Age=0"));
    assert!(!is_dashboard(&dashboard(&app, &cookie).await), "the session is gone on the server");

    // The audit log tells the story, and holds no secret.
    let actions: Vec<(String, String)> =
        sqlx::query_as("SELECT actor, action FROM audit_log ORDER BY id").fetch_all(&app.pool).await.unwrap();
    let expected = ["auth.link_requested", "auth.signed_in", "auth.signed_out"];
    assert_eq!(actions.iter().map(|(_, action)| action.as_str()).collect::<Vec<_>>(), expected);
    assert!(actions.iter().all(|(actor, _)| actor == CHAIR));
    let dump: Vec<(String,)> = sqlx::query_as(
        "SELECT at || actor || COALESCE(client, '') || action || COALESCE(object_type, '') || COALESCE(object_id, '') || details FROM audit_log",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    let session_id = cookie.split_once('=').unwrap().1;
    assert!(dump.iter().all(|(row,)| !row.contains(token) && !row.contains(session_id)), "{dump:?}");
    // Only hashes are stored.
    let stored: Vec<(String,)> =
        sqlx::query_as("SELECT token_hash FROM organiser_links").fetch_all(&app.pool).await.unwrap();
    assert!(stored.iter().all(|(hash,)| hash.len() == 64 && hash != token));
}

#[tokio::test]
async fn an_unknown_address_gets_the_same_answer_and_no_mail() {
    let app = organisers_app().await;
    let known = ask_for_link(&app, CHAIR).await;
    let unknown = ask_for_link(&app, "someone@elsewhere.example").await;
    assert_eq!(unknown.status, known.status);
    assert_eq!(unknown.text(), known.text(), "the same page, word for word");
    let links = mailed_links(&app).await;
    assert_eq!(links.len(), 1, "{links:?}");
    assert_eq!(links[0].0, CHAIR);
    let outbox: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox").fetch_one(&app.pool).await.unwrap();
    assert_eq!(outbox, 1, "no mail at all for the unknown address");
}

#[tokio::test]
async fn without_organiser_email_nobody_gets_a_link() {
    let app = app_with(|c| c.organiser_email = None).await;
    assert_eq!(ask_for_link(&app, "contact@fixcon.example").await.status, StatusCode::OK);
    assert!(mailed_links(&app).await.is_empty(), "fail closed: the site's contact address is no organiser");
}

#[tokio::test]
async fn five_links_an_hour_per_address_known_or_not() {
    let clock = Clock::fixed(datetime!(2025-03-01 09:00 UTC));
    let app = organisers_app_at(clock.clone()).await;
    for email in [CHAIR, "stranger@elsewhere.example"] {
        for n in 0..5 {
            assert_eq!(ask_for_link(&app, email).await.status, StatusCode::OK, "{email} link {n}");
        }
        let refused = ask_for_link(&app, email).await;
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{email}");
        assert!(refused.text().contains("Too many sign-in links"));
    }
    assert_eq!(mailed_links(&app).await.len(), 5, "five mails to the organiser, none to the stranger");
    clock.set(datetime!(2025-03-01 10:00:01 UTC));
    assert_eq!(ask_for_link(&app, CHAIR).await.status, StatusCode::OK, "an hour later");
}

#[tokio::test]
async fn a_link_expires_after_15_minutes() {
    let clock = Clock::fixed(datetime!(2025-03-01 09:00 UTC));
    let app = organisers_app_at(clock.clone()).await;
    ask_for_link(&app, CHAIR).await;
    let (_, link) = mailed_links(&app).await.pop().unwrap();
    let path = link.strip_prefix(BASE).unwrap().to_owned();
    clock.set(datetime!(2025-03-01 09:14:59 UTC));
    assert_eq!(app.request(&path, &[]).await.status, StatusCode::OK, "still valid at 14:59");
    clock.set(datetime!(2025-03-01 09:15:00 UTC));
    assert_eq!(app.request(&path, &[]).await.status, StatusCode::NOT_FOUND);
    let late = app.post(&path, "application/x-www-form-urlencoded", "", &[("origin", BASE)]).await;
    assert_eq!(late.status, StatusCode::NOT_FOUND);
    assert!(late.header("set-cookie").is_none());
}

#[tokio::test]
async fn only_the_mailed_token_signs_in() {
    let app = organisers_app().await;
    ask_for_link(&app, CHAIR).await;
    let (_, link) = mailed_links(&app).await.pop().unwrap();
    let token = link.rsplit('/').next().unwrap().to_owned();
    // Another well-formed token, one character off, and shapes that are not tokens.
    let mut other = token.clone().into_bytes();
    other[0] = if other[0] == b'A' { b'B' } else { b'A' };
    let other = String::from_utf8(other).unwrap();
    for forged in [other.as_str(), "short", "../../etc/passwd", &"A".repeat(43), &format!("{token}x")] {
        let path = format!("/organiser/sign-in/{}", forged.replace('/', "%2F"));
        let reply = app.post(&path, "application/x-www-form-urlencoded", "", &[("origin", BASE)]).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{forged}");
        assert!(reply.header("set-cookie").is_none(), "{forged}");
    }
    // A link to an address taken off the list since does not sign in either.
    let later = app.another_instance_with(|c| c.organiser_email = Some("treasurer@fixcon.example".into())).await;
    let refused = later
        .post(&format!("/organiser/sign-in/{token}"), "application/x-www-form-urlencoded", "", &[("origin", BASE)])
        .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn sessions_end_when_idle_when_old_and_when_the_address_leaves_the_list() {
    let clock = Clock::fixed(datetime!(2025-03-01 09:00 UTC));
    let app = organisers_app_at(clock.clone()).await;
    // Idle: 30 minutes without a request.
    let cookie = sign_in(&app, CHAIR).await;
    clock.set(datetime!(2025-03-01 09:29:00 UTC));
    assert!(is_dashboard(&dashboard(&app, &cookie).await), "29 minutes idle");
    clock.set(datetime!(2025-03-01 09:59:00 UTC));
    assert!(!is_dashboard(&dashboard(&app, &cookie).await), "30 minutes idle ends it");
    assert!(!is_dashboard(&dashboard(&app, &cookie).await), "and it stays ended");

    // Absolute: 12 hours, however busy.
    let cookie = sign_in(&app, CHAIR).await;
    let mut at = datetime!(2025-03-01 09:59:00 UTC);
    for _ in 0..35 {
        at += time::Duration::minutes(20);
        clock.set(at);
        assert!(is_dashboard(&dashboard(&app, &cookie).await), "{at}");
    }
    clock.set(datetime!(2025-03-01 21:59:00 UTC));
    assert!(!is_dashboard(&dashboard(&app, &cookie).await), "12 hours after sign-in");

    // Off the list: the next request, on any instance, ends every session of the address.
    let cookie = sign_in(&app, CHAIR).await;
    let second = sign_in(&app, CHAIR).await;
    let without = app.another_instance_with(|c| c.organiser_email = Some("treasurer@fixcon.example".into())).await;
    assert!(!is_dashboard(&dashboard(&without, &cookie).await));
    assert!(!is_dashboard(&dashboard(&app, &second).await), "both sessions ended in the database");
    let removed: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'auth.access_removed'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(removed, 1);
}

#[tokio::test]
async fn sign_out_everywhere_ends_every_session_and_the_dashboard_lists_them() {
    let app = organisers_app().await;
    let laptop = sign_in(&app, CHAIR).await;
    let phone = sign_in(&app, CHAIR).await;
    let treasurer = sign_in(&app, "treasurer@fixcon.example").await;
    let home = parse(&dashboard(&app, &laptop).await.text());
    let sessions = select(&home, "section[aria-labelledby=dash-sessions] tbody tr");
    assert_eq!(sessions.len(), 2, "the chair's two sessions, not the treasurer's");
    assert_eq!(sessions.iter().filter(|row| text(**row).contains("(this one)")).count(), 1);
    let out = app
        .post(
            "/organiser/sign-out-everywhere",
            "application/x-www-form-urlencoded",
            "",
            &[("origin", BASE), ("cookie", &phone)],
        )
        .await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    assert!(!is_dashboard(&dashboard(&app, &laptop).await));
    assert!(!is_dashboard(&dashboard(&app, &phone).await));
    assert!(is_dashboard(&dashboard(&app, &treasurer).await), "another organiser's session stays");
}

/// A table wider than a phone scrolls in its own box; a keyboard user reaches and scrolls it
/// only if the box takes focus and says what it holds (axe's `scrollable-region-focusable`,
/// WCAG 2.1.1). Checked on the dashboard as served, and on every organiser template, so the
/// failing-mail table, shown only when mail fails, is held to it too.
#[tokio::test]
async fn every_scrolling_table_of_the_organiser_area_takes_focus_and_has_a_name() {
    let app = organisers_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let home = parse(&dashboard(&app, &cookie).await.text());
    let boxes = select(&home, ".organiser__table-wrap");
    assert!(boxes.len() >= 4, "the dashboard's tables");
    for table in boxes {
        let attr = |name| table.value().attr(name).unwrap_or_default().to_string();
        assert_eq!((attr("tabindex"), attr("role")), ("0".into(), "region".into()), "{}", table.html());
        assert!(!attr("aria-label").is_empty(), "{}", table.html());
    }
    for entry in std::fs::read_dir("templates/organiser").expect("templates/organiser") {
        let path = entry.expect("a template").path();
        let source = std::fs::read_to_string(&path).expect("a template");
        for (at, _) in source.match_indices("class=\"organiser__table-wrap\"") {
            let tag = &source[at..at + source[at..].find('>').expect("the tag ends")];
            assert!(
                tag.contains("tabindex=\"0\"") && tag.contains("role=\"region\"") && tag.contains("aria-label"),
                "{}: {tag}",
                path.display()
            );
        }
    }
}

#[tokio::test]
async fn organiser_posts_must_come_from_the_site_itself() {
    let app = organisers_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let form = "application/x-www-form-urlencoded";
    for (headers, what) in [
        (vec![("origin", "https://evil.example")], "a foreign Origin"),
        (vec![], "neither Origin nor Sec-Fetch-Site"),
        (vec![("sec-fetch-site", "cross-site")], "Sec-Fetch-Site: cross-site"),
        (vec![("sec-fetch-site", "same-site")], "Sec-Fetch-Site: same-site"),
        (vec![("origin", "null")], "Origin: null alone"),
        (vec![("origin", "null"), ("sec-fetch-site", "cross-site")], "Origin: null, Sec-Fetch-Site: cross-site"),
    ] {
        let asked = app.post("/organiser/sign-in", form, "email=chair%40fixcon.example", &headers).await;
        assert_eq!(asked.status, StatusCode::FORBIDDEN, "{what}");
        let mut with_cookie = headers.clone();
        with_cookie.push(("cookie", &cookie));
        let out = app.post("/organiser/sign-out", form, "", &with_cookie).await;
        assert_eq!(out.status, StatusCode::FORBIDDEN, "{what}");
    }
    assert!(is_dashboard(&dashboard(&app, &cookie).await), "no refused POST signed anyone out");
    let same = app
        .post("/organiser/sign-in", form, "email=chair%40fixcon.example", &[("sec-fetch-site", "same-origin")])
        .await;
    assert_eq!(same.status, StatusCode::OK, "a browser's same-origin POST without Origin");
    // A page served with `Referrer-Policy: no-referrer` (the link's confirmation page) makes
    // the browser send `Origin: null` with its same-origin form POST.
    let null = app
        .post(
            "/organiser/sign-in",
            form,
            "email=chair%40fixcon.example",
            &[("origin", "null"), ("sec-fetch-site", "same-origin")],
        )
        .await;
    assert_eq!(null.status, StatusCode::OK, "a same-origin POST from a no-referrer page");
}

#[tokio::test]
async fn no_organiser_route_answers_data_without_a_live_session() {
    let clock = Clock::fixed(datetime!(2025-03-01 09:00 UTC));
    let app = organisers_app_at(clock.clone()).await;
    let expired = sign_in(&app, CHAIR).await;
    clock.set(datetime!(2025-03-01 23:00 UTC));
    let forged = format!("organiser_session={}", "A".repeat(43));
    for cookie in [None, Some(expired.as_str()), Some(forged.as_str()), Some("organiser_session=../x")] {
        let mut headers = vec![("origin", BASE)];
        if let Some(cookie) = cookie {
            headers.push(("cookie", cookie));
        }
        let home = app.request("/organiser", &headers).await;
        assert_eq!(home.status, StatusCode::OK, "{cookie:?}");
        assert!(home.text().contains("Send me a sign-in link") && !is_dashboard(&home), "{cookie:?}");
        for path in ["/organiser/sign-out", "/organiser/sign-out-everywhere"] {
            let reply = app.post(path, "application/x-www-form-urlencoded", "", &headers).await;
            assert_eq!(reply.status, StatusCode::SEE_OTHER, "{path} {cookie:?}");
            assert_eq!(reply.header("location"), Some("/organiser"));
        }
    }
    let robots = app.request("/robots.txt", &[]).await.text();
    assert!(robots.contains("Disallow: /organiser"), "{robots}");
    let sitemap = app.request("/sitemap.xml", &[]).await.text();
    assert!(!sitemap.contains("/organiser"));
}

#[tokio::test]
async fn with_https_the_cookie_is_secure_and_host_prefixed() {
    let app = app_with(|c| {
        c.organiser_email = Some(CHAIR.into());
        c.public_url = "https://conference.example".into();
    })
    .await;
    let body = "email=chair%40fixcon.example";
    let asked = app
        .post(
            "/organiser/sign-in",
            "application/x-www-form-urlencoded",
            body,
            &[("origin", "https://conference.example")],
        )
        .await;
    assert_eq!(asked.status, StatusCode::OK);
    let (_, link) =
        mailed_links_from(&app, "https://conference.example").await.pop().expect("a link built from PUBLIC_URL");
    let path = link.strip_prefix("https://conference.example").unwrap();
    let signed =
        app.post(path, "application/x-www-form-urlencoded", "", &[("origin", "https://conference.example")]).await;
    let set = signed.header("set-cookie").unwrap();
    assert!(set.starts_with("__Host-organiser_session="), "{set}");
    assert!(set.contains("Secure") && set.contains("Path=/") && !set.contains("Domain"), "{set}");
    let cookie = session_cookie(&signed);
    assert!(is_dashboard(&app.request("/organiser", &[("cookie", &cookie)]).await));
    let plain_name = cookie.replacen("__Host-", "", 1);
    assert!(
        !is_dashboard(&app.request("/organiser", &[("cookie", &plain_name)]).await),
        "only the prefixed name counts"
    );
}

/// [`mailed_links`] for a site whose `PUBLIC_URL` is `base`.
async fn mailed_links_from(app: &TestApp, base: &str) -> Vec<(String, String)> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT to_address, text_body FROM outbox ORDER BY id").fetch_all(&app.pool).await.unwrap();
    let prefix = format!("{base}/organiser/sign-in/");
    rows.into_iter()
        .filter_map(|(to, body)| {
            let at = body.find(&prefix)?;
            Some((to, body[at..].chars().take_while(|c| !c.is_whitespace()).collect()))
        })
        .collect()
}

#[tokio::test]
async fn the_audit_log_refuses_updates_and_deletes() {
    let app = organisers_app().await;
    sign_in(&app, CHAIR).await;
    for statement in ["UPDATE audit_log SET actor = 'someone else'", "DELETE FROM audit_log"] {
        let refused = sqlx::query(statement).execute(&app.pool).await;
        let err = refused.expect_err(statement).to_string();
        assert!(err.contains("append-only"), "{statement}: {err}");
    }
    let entries: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE actor = $1")
        .bind(CHAIR)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(entries, 2, "link requested, signed in: both still there");
}

/// `conference export audit` writes the log as CSV, and every export records itself there
/// with the actor `cli` (DESIGN.md section 12).
#[tokio::test]
async fn exports_log_themselves_and_export_audit_writes_the_log() {
    let app = organisers_app().await;
    sign_in(&app, CHAIR).await;
    let export = |kind: &'static str| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_conference"))
            .args(["export", kind])
            .env("DATABASE_URL", &app.config.database_url)
            .env("DATA_DIR", app.dir.path())
            .env("RUST_LOG", "warn")
            .output()
            .expect("the binary runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    export("messages");
    let csv = export("audit");
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    assert_eq!(header, ["id", "at", "actor", "client", "action", "object_type", "object_id", "details"]);
    let rows: Vec<Vec<String>> = reader.records().map(|r| r.unwrap().iter().map(str::to_owned).collect()).collect();
    let actions: Vec<(&str, &str)> = rows.iter().map(|r| (r[2].as_str(), r[4].as_str())).collect();
    assert_eq!(
        actions,
        [(CHAIR, "auth.link_requested"), (CHAIR, "auth.signed_in"), ("cli", "export.csv")],
        "the messages export is recorded; the audit export records itself after it has written"
    );
    assert_eq!(rows[2][6], "messages");
    let logged: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE actor = 'cli' AND object_id = 'audit'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(logged, 1);
}

/// A form POST to an organiser route is refused without a session (a redirect to the
/// sign-in page) and, with one, from another origin (403).
pub(crate) async fn assert_refused_anonymous_and_foreign(app: &TestApp, path: &str, body: &str, cookie: &str) {
    let form = "application/x-www-form-urlencoded";
    let anonymous = app.post(path, form, body.to_owned(), &[("origin", BASE)]).await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER, "{path}");
    assert_eq!(anonymous.header("location"), Some("/organiser"));
    let foreign =
        app.post(path, form, body.to_owned(), &[("origin", "https://evil.example"), ("cookie", cookie)]).await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN, "{path}");
}
