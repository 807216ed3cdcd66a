//! Certificates (issue 33 item 5, DESIGN.md section 16): who earns one, releasing them after
//! the conference (once, however often or on however many instances it is pressed), the one
//! mail per person, the public verify page that shows only the name, type, event, date and
//! validity, the PDF, revoking and reissuing, and the organisers' page from outside.

use std::collections::BTreeSet;

use axum::http::StatusCode;
use serde_json::json;
use time::OffsetDateTime;
use time::macros::datetime;

use conference::ccavenue::crypto;
use conference::clock::Clock;
use conference::payments::config::TEST_WORKING_KEY;

use crate::common::fixture::{self, LISTENER_PHYSICAL, LISTENER_VIRTUAL, PRESENTER_VIRTUAL, Plan};
use crate::common::payments::{answer, checkout, initiate, location, send_answer};
use crate::common::programme::{PAPERS, Paper, accepted, id_of, publish_fixture_programme};
use crate::common::review::{add_reviewer, reviewer_sign_in};
use crate::common::{BASE, Reply, TestApp, app_with_clock};
use crate::organiser::{CHAIR, sign_in};

/// When the tests pay: two weeks before the conference (21 to 23 March 2025, Singapore time).
const BEFORE: OffsetDateTime = datetime!(2025-03-07 09:00 UTC);
/// The last minute before the conference's last day begins in Singapore (UTC+08:00).
const EVE_OF_LAST_DAY: OffsetDateTime = datetime!(2025-03-22 15:59 UTC);
/// The first minute of the last day there.
pub(crate) const LAST_DAY: OffsetDateTime = datetime!(2025-03-22 16:00 UTC);
/// After the conference.
const AFTER: OffsetDateTime = datetime!(2025-03-25 02:00 UTC);

/// The fixture's dates as the verify page and the mails write them.
const DATES: &str = "21-23 March 2025";

/// A reviewer, for another role's session.
const REVIEWER: &str = "ada.reviewer@example.org";

/// An accepted paper that is in no published version.
const UNSCHEDULED: Paper = Paper {
    reference: "P-2025-FIX005",
    title: "Lanterns Nobody Scheduled",
    slug: "lanterns-nobody-scheduled",
    author: "Una Vale",
    co_authors: "",
    authors: "Una Vale",
    affiliation: "Quiet Harbour Lab",
    email: "una.vale@quiet.example",
    phone: "+15550109005",
    ..PAPERS[0]
};

pub(crate) async fn app() -> TestApp {
    app_with_clock(
        |c| {
            c.rate_limit_per_minute = 100_000;
            c.organiser_email = Some(CHAIR.into());
        },
        Clock::fixed(BEFORE),
    )
    .await
}

/// Pays `plan` as `name` <`email`>; the order's id.
pub(crate) async fn pay_as(app: &TestApp, plan: Plan, name: &str, email: &str) -> String {
    let id = initiate(app, &checkout(json!({ "plan": plan.id, "name": name, "email": email }))).await.order_id;
    let encrypted = crypto::encrypt(&answer(&id, "Success", plan.amount, "USD").to_query_string(), TEST_WORKING_KEY);
    let reply = send_answer(app, &encrypted, &id).await;
    assert_eq!(location(&reply), format!("/Success?order={id}"), "{}", reply.text());
    id
}

async fn ticket_of(app: &TestApp, order_id: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM tickets WHERE order_id = $1").bind(order_id).fetch_one(&app.pool).await.unwrap()
}

/// Checks `order_id`'s ticket in on the first day, as a desk would.
pub(crate) async fn check_in(app: &TestApp, order_id: &str) {
    let ticket = ticket_of(app, order_id).await;
    sqlx::query("INSERT INTO check_ins (ticket_id, day, at, checked_by) VALUES ($1, '2025-03-21', '2025-03-21T01:00:00Z', 'desk@fixcon.example')")
        .bind(ticket)
        .execute(&app.pool)
        .await
        .unwrap();
}

/// POST from the site's own page with `cookie`.
async fn post(app: &TestApp, path: &str, body: &str, cookie: &str) -> Reply {
    app.post(path, "application/x-www-form-urlencoded", body.to_owned(), &[("origin", BASE), ("cookie", cookie)]).await
}

/// Moves the clock to `now` and signs the organiser in again (a session ends after 12 hours);
/// the cookie.
async fn at(app: &TestApp, now: OffsetDateTime) -> String {
    app.state.clock.set(now);
    sign_in(app, CHAIR).await
}

async fn release(app: &TestApp, cookie: &str) -> Reply {
    post(app, "/organiser/certificates/release", "", cookie).await
}

/// A stored certificate: (code, email, holder, kind, title, revoked).
pub(crate) type Stored = (String, String, String, String, Option<String>, bool);

/// A certificate's row: (code, email, holder, kind, title, revoked_at).
type Row = (String, String, String, String, Option<String>, Option<String>);

pub(crate) async fn stored(app: &TestApp) -> Vec<Stored> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT code, email, holder_name, kind, title, revoked_at FROM certificates ORDER BY kind, email, issued_at",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    rows.into_iter().map(|(c, e, h, k, t, r)| (c, e, h, k, t, r.is_some())).collect()
}

/// (email, holder, kind) of every certificate.
async fn holders(app: &TestApp) -> BTreeSet<(String, String, String)> {
    stored(app).await.into_iter().map(|(_, e, h, k, _, _)| (e, h, k)).collect()
}

/// The certificate of `email` of `kind`.
async fn code_of(app: &TestApp, email: &str, kind: &str) -> String {
    stored(app)
        .await
        .into_iter()
        .find(|c| c.1 == email && c.3 == kind && !c.5)
        .unwrap_or_else(|| panic!("a valid {kind} certificate of {email}"))
        .0
}

/// The certificate mails: (to, subject, text, html, key).
async fn mails(app: &TestApp) -> Vec<(String, String, String, String, String)> {
    let rows: Vec<(String, String, String, String, Option<String>)> = sqlx::query_as(
        "SELECT to_address, subject, text_body, html_body, dedupe_key FROM outbox \
         WHERE dedupe_key LIKE 'certificate%' ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    rows.into_iter().map(|(t, s, x, h, k)| (t, s, x, h, k.unwrap_or_default())).collect()
}

/// (action, object id, details) of the certificates' audit entries, in order.
pub(crate) async fn audited(app: &TestApp) -> Vec<(String, String, serde_json::Value)> {
    let rows: Vec<(String, Option<String>, String)> =
        sqlx::query_as("SELECT action, object_id, details FROM audit_log WHERE action LIKE 'certificate%' ORDER BY id")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    rows.into_iter().map(|(a, o, d)| (a, o.unwrap_or_default(), serde_json::from_str(&d).unwrap())).collect()
}

pub(crate) const ALMA: (&str, &str) = ("Alma Reyes", "alma@example.net");
const BRUNO: (&str, &str) = ("Bruno Sal", "bruno@example.net");
const CARLA: (&str, &str) = ("Carla Dime", "carla@example.net");
const DEV: (&str, &str) = ("Dev Orr", "dev@example.net");

/// Who could earn a certificate, paid and published before the conference:
/// - Alma: in person, checked in; Bruno: in person, never checked in;
/// - Carla: online; Dev: online, refunded;
/// - the four fixture papers published, the last one rejected since; Una's paper accepted but
///   never published.
///
/// Returns Bruno's order.
async fn world(app: &TestApp) -> String {
    let cookie = sign_in(app, CHAIR).await;
    let alma = pay_as(app, LISTENER_PHYSICAL, ALMA.0, ALMA.1).await;
    let bruno = pay_as(app, LISTENER_PHYSICAL, BRUNO.0, BRUNO.1).await;
    pay_as(app, LISTENER_VIRTUAL, CARLA.0, CARLA.1).await;
    let dev = pay_as(app, PRESENTER_VIRTUAL, DEV.0, DEV.1).await;
    let refunded = post(app, &format!("/organiser/orders/{dev}/refund"), "confirm=refunded", &cookie).await;
    assert_eq!(refunded.status, StatusCode::SEE_OTHER, "{}", refunded.text());
    check_in(app, &alma).await;
    publish_fixture_programme(app).await;
    let rejected = id_of(app, &PAPERS[3]).await;
    sqlx::query("UPDATE submissions SET state = 'rejected' WHERE id = $1")
        .bind(rejected)
        .execute(&app.pool)
        .await
        .unwrap();
    accepted(app, &UNSCHEDULED).await;
    bruno
}

fn who(items: &[(&str, &str, &str)]) -> BTreeSet<(String, String, String)> {
    items.iter().map(|(e, h, k)| (e.to_string(), h.to_string(), k.to_string())).collect()
}

/// Who earns one in [`world`].
fn earned() -> BTreeSet<(String, String, String)> {
    who(&[
        (ALMA.1, ALMA.0, "attendance"),
        (CARLA.1, CARLA.0, "attendance"),
        (PAPERS[0].email, PAPERS[0].author, "presentation"),
        (PAPERS[1].email, PAPERS[1].author, "presentation"),
        (PAPERS[2].email, PAPERS[2].author, "presentation"),
    ])
}

// ---------------------------------------------------------------------------------------
// Who gets one, and the release
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn checked_in_and_online_attendees_and_presenters_of_published_accepted_papers_earn_one() {
    let app = app().await;
    world(&app).await;
    let cookie = at(&app, AFTER).await;

    let page = app.request("/organiser/certificates", &[("cookie", &cookie)]).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text().contains("Waiting for a release: <strong>2</strong> attendance, <strong>3</strong> presentation"),
        "{}",
        page.text()
    );

    let released = release(&app, &cookie).await;
    assert_eq!(released.status, StatusCode::SEE_OTHER, "{}", released.text());
    assert_eq!(location(&released), "/organiser/certificates?released=1");
    assert_eq!(holders(&app).await, earned());
    for (code, _, _, kind, title, _) in stored(&app).await {
        assert_eq!(code.len(), 26, "128 bits in base32: {code}");
        assert_eq!(title.is_some(), kind == "presentation", "a presentation certificate names its paper");
    }
    let ana = stored(&app).await.into_iter().find(|c| c.1 == PAPERS[0].email).unwrap();
    assert_eq!(ana.4.as_deref(), Some(PAPERS[0].title));

    let sent = mails(&app).await;
    let to: Vec<&str> = sent.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(to.len(), 5, "one mail per person: {to:?}");
    assert_eq!(to.iter().collect::<BTreeSet<_>>().len(), 5, "{to:?}");
    for (to, subject, text, html, key) in &sent {
        assert_eq!(key, &format!("certificates:release-1:{to}"));
        assert!(subject.contains("Your certificates"), "{subject}");
        for c in stored(&app).await.into_iter().filter(|c| &c.1 == to) {
            for body in [text, html] {
                assert!(body.contains(&format!("{BASE}/certificates/{}.pdf", c.0)), "its PDF:\n{body}");
                assert!(body.contains(&format!("{BASE}/certificates/{}", c.0)), "its verify page:\n{body}");
                assert!(body.contains(fixture::NAME) && body.contains(DATES), "{body}");
            }
        }
    }
    let (_, _, text, _, _) = sent.iter().find(|m| m.0 == PAPERS[0].email).unwrap();
    assert!(text.contains(PAPERS[0].title) && text.contains("Certificate of Presentation"), "{text}");

    let entries = audited(&app).await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!((entries[0].0.as_str(), entries[0].1.as_str()), ("certificates.released", "1"));
    assert_eq!(entries[0].2, json!({ "attendance": 2, "presentation": 3, "mails": 5 }));

    let page = app.request("/organiser/certificates?released=1", &[("cookie", &cookie)]).await.text();
    assert!(page.contains("Release 1 is done"), "{page}");
    assert!(page.contains("Attendance: <strong>2</strong> valid"), "{page}");
    assert!(page.contains("Presentation: <strong>3</strong> valid"), "{page}");
}

#[tokio::test]
async fn releasing_is_refused_before_the_conferences_last_day() {
    let app = app().await;
    world(&app).await;
    let cookie = at(&app, EVE_OF_LAST_DAY).await;
    let page = app.request("/organiser/certificates", &[("cookie", &cookie)]).await.text();
    assert!(page.contains("last day, 23 March 2025 (Singapore time)"), "{page}");
    let refused = release(&app, &cookie).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(refused.text().contains("23 March 2025 (Singapore time). Nothing was issued."), "{}", refused.text());
    assert_eq!((app.count("certificates").await, mails(&app).await.len(), audited(&app).await.len()), (0, 0, 0));

    app.state.clock.set(LAST_DAY);
    assert_eq!(release(&app, &cookie).await.status, StatusCode::SEE_OTHER);
    assert_eq!(holders(&app).await, earned());
}

#[tokio::test]
async fn releasing_again_issues_only_what_is_missing_and_mails_each_person_once() {
    let app = app().await;
    let bruno = world(&app).await;
    let cookie = at(&app, AFTER).await;
    release(&app, &cookie).await;
    let first = stored(&app).await;

    let again = release(&app, &cookie).await;
    assert_eq!(location(&again), "/organiser/certificates?nothing=1");
    assert_eq!(stored(&app).await, first, "nothing issued twice");
    assert_eq!(mails(&app).await.len(), 5, "nobody mailed twice");
    assert_eq!(audited(&app).await.len(), 1, "a release that issues nothing changes nothing");
    let page = app.request("/organiser/certificates?nothing=1", &[("cookie", &cookie)]).await.text();
    assert!(page.contains("Nothing new to issue"), "{page}");

    // Bruno's check-in is recorded late: the next release issues his, and mails only him.
    check_in(&app, &bruno).await;
    let late = release(&app, &cookie).await;
    assert_eq!(location(&late), "/organiser/certificates?released=2");
    let mut expected = earned();
    expected.insert((BRUNO.1.into(), BRUNO.0.into(), "attendance".into()));
    assert_eq!(holders(&app).await, expected);
    let sent = mails(&app).await;
    assert_eq!(sent.len(), 6);
    assert_eq!((sent[5].0.as_str(), sent[5].4.as_str()), (BRUNO.1, "certificates:release-2:bruno@example.net"));
}

/// Two instances on one PostgreSQL database release at the same moment: every certificate is
/// issued once and every person mailed once. On SQLite one process's write lock makes the race
/// impossible, and run anyway it fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "PostgreSQL only: run with TEST_DATABASE_URL and --include-ignored"]
async fn two_instances_releasing_at_once_issue_and_mail_everything_once() {
    use tower::ServiceExt;

    let app = app().await;
    assert_eq!(
        app.engine(),
        conference::db::Engine::Postgres,
        "two instances racing on one database: this test runs with TEST_DATABASE_URL set"
    );
    world(&app).await;
    let cookie = at(&app, AFTER).await;
    let other = app.another_instance().await;
    let mut answers = tokio::task::JoinSet::new();
    for router in [app.router.clone(), other.router.clone(), app.router.clone(), other.router.clone()] {
        let request = axum::http::Request::post("/organiser/certificates/release")
            .header("origin", BASE)
            .header("cookie", cookie.as_str())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(axum::body::Body::empty())
            .unwrap();
        answers.spawn(async move { router.oneshot(request).await.unwrap() });
    }
    let mut locations = Vec::new();
    while let Some(reply) = answers.join_next().await {
        let reply = reply.unwrap();
        assert_eq!(reply.status(), StatusCode::SEE_OTHER);
        locations.push(reply.headers()["location"].to_str().unwrap().to_owned());
    }
    locations.sort();
    assert_eq!(
        locations,
        [
            "/organiser/certificates?nothing=1",
            "/organiser/certificates?nothing=1",
            "/organiser/certificates?nothing=1",
            "/organiser/certificates?released=1"
        ]
    );
    assert_eq!(holders(&app).await, earned());
    assert_eq!(app.count("certificates").await, 5);
    let to: Vec<String> = mails(&app).await.into_iter().map(|m| m.0).collect();
    assert_eq!(to.len(), 5, "{to:?}");
    drop(other);
}

// ---------------------------------------------------------------------------------------
// The verify page and the PDF
// ---------------------------------------------------------------------------------------

/// Released certificates of [`world`]; the organiser's cookie.
async fn released_world(app: &TestApp) -> String {
    world(app).await;
    let cookie = at(app, AFTER).await;
    assert_eq!(release(app, &cookie).await.status, StatusCode::SEE_OTHER);
    cookie
}

fn assert_uncached_noindex(reply: &Reply, what: &str) {
    assert_eq!(reply.header("cache-control"), Some("private, no-store"), "{what}");
    assert_eq!(reply.header("x-robots-tag"), Some("noindex"), "{what}");
}

/// The text of the page's `<main>`, tags dropped.
fn main_text(page: &str) -> String {
    let start = page.find("<main").expect("a main element");
    let end = page.find("</main>").expect("the end of main");
    let mut text = String::new();
    let mut in_tag = false;
    for c in page[start..end].chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[tokio::test]
async fn the_verify_page_shows_the_name_type_event_date_and_validity_and_nothing_else() {
    let app = app().await;
    released_world(&app).await;
    let code = code_of(&app, PAPERS[0].email, "presentation").await;

    let reply = app.request(&format!("/certificates/{code}"), &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_uncached_noindex(&reply, "verify page");
    let page = reply.text();
    assert!(page.contains(r#"<meta name="robots" content="noindex"#), "{page}");
    let shown = main_text(&page);
    assert_eq!(
        shown,
        format!(
            "Certificate Valid. {} issued this certificate. Name {} Type Presentation Event {} Date {DATES} Status Valid",
            fixture::SHORT_NAME,
            PAPERS[0].author,
            fixture::NAME
        ),
        "the name, type, event, date and validity, and nothing else"
    );
    for secret in [PAPERS[0].title, PAPERS[0].email, PAPERS[0].reference] {
        assert!(!page.contains(secret), "the page never shows {secret}");
    }
    // A code as typed from the print: lower case works too.
    assert_eq!(app.request(&format!("/certificates/{}", code.to_lowercase()), &[]).await.status, StatusCode::OK);

    let pdf = app.request(&format!("/certificates/{code}.pdf"), &[]).await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert_eq!(
        pdf.header("content-disposition"),
        Some(format!("attachment; filename=\"certificate-{code}.pdf\"").as_str())
    );
    assert_uncached_noindex(&pdf, "PDF");
    assert!(pdf.body.starts_with(b"%PDF-"), "a PDF");

    let unknown = "A".repeat(26);
    for path in [
        format!("/certificates/{unknown}"),
        format!("/certificates/{unknown}.pdf"),
        "/certificates/1111111111111111111111111".to_owned(),
        "/certificates/not-a-code".to_owned(),
        format!("/certificates/{code}x"),
        format!("/certificates/{code}.png"),
    ] {
        let reply = app.request(&path, &[]).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        assert!(!reply.text().contains(PAPERS[0].author), "{path}");
    }
}

#[tokio::test]
async fn the_signatories_come_from_the_seed_with_their_images() {
    let app = app().await;
    let signatories = conference::attendance::certificates::signatories(&app.pool).await.unwrap();
    let names: Vec<(&str, &str, bool)> =
        signatories.iter().map(|s| (s.name.as_str(), s.role.as_str(), s.signature_png.is_some())).collect();
    assert_eq!(
        names,
        [("Prof. Wren Halloway", "Symposium Chair", true), ("Dr. Osric Penhallow", "Symposium Secretary", false)]
    );
    assert!(signatories[0].signature_png.as_ref().unwrap().starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
}

// ---------------------------------------------------------------------------------------
// Revoke and reissue
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn a_revoked_certificate_says_so_at_once_and_its_pdf_is_gone() {
    let app = app().await;
    let cookie = released_world(&app).await;
    let code = code_of(&app, CARLA.1, "attendance").await;
    // Seen once before the revoke: nothing may keep that answer.
    assert!(main_text(&app.request(&format!("/certificates/{code}"), &[]).await.text()).contains("Status Valid"));

    let revoked =
        post(&app, &format!("/organiser/certificates/{code}/revoke"), "reason=Issued+by+mistake", &cookie).await;
    assert_eq!(location(&revoked), format!("/organiser/certificates?revoked={code}"));
    let reply = app.request(&format!("/certificates/{code}"), &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    let shown = main_text(&reply.text());
    assert!(
        shown.contains("Revoked. This certificate is no longer valid.") && shown.contains("Status Revoked"),
        "{shown}"
    );
    let pdf = app.request(&format!("/certificates/{code}.pdf"), &[]).await;
    assert_eq!(pdf.status, StatusCode::GONE);
    assert!(pdf.text().contains("This certificate was revoked"), "{}", pdf.text());
    assert_uncached_noindex(&pdf, "revoked PDF");

    let again = post(&app, &format!("/organiser/certificates/{code}/revoke"), "", &cookie).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "a stale form");
    assert!(again.text().contains("was revoked already"), "{}", again.text());
    let unknown = post(&app, &format!("/organiser/certificates/{}/revoke", "A".repeat(26)), "", &cookie).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);

    // A revoked certificate is not issued again by a later release.
    assert_eq!(location(&release(&app, &cookie).await), "/organiser/certificates?nothing=1");
    let entries = audited(&app).await;
    assert_eq!((entries[1].0.as_str(), entries[1].1.as_str()), ("certificate.revoked", code.as_str()));
    assert_eq!(entries.len(), 2);
}

#[tokio::test]
async fn a_reissue_revokes_the_old_certificate_and_mails_the_new_one_with_the_corrected_name() {
    let app = app().await;
    let cookie = released_world(&app).await;
    let old = code_of(&app, ALMA.1, "attendance").await;
    let path = format!("/organiser/certificates/{old}/reissue");

    let refused = post(&app, &path, "name=", &cookie).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", refused.text());
    assert!(refused.text().contains("aria-invalid=\"true\""), "the field shows its error");
    assert_eq!(mails(&app).await.len(), 5, "nothing sent");

    let corrected = "Alma Reyes-Santos";
    let reissued = post(&app, &path, &format!("name={}", corrected.replace(' ', "+")), &cookie).await;
    assert_eq!(reissued.status, StatusCode::SEE_OTHER, "{}", reissued.text());
    let new = code_of(&app, ALMA.1, "attendance").await;
    assert_ne!(new, old);
    assert_eq!(location(&reissued), format!("/organiser/certificates?reissued={new}"));

    let old_page = main_text(&app.request(&format!("/certificates/{old}"), &[]).await.text());
    assert!(old_page.contains("Status Revoked") && old_page.contains(ALMA.0), "{old_page}");
    let new_page = main_text(&app.request(&format!("/certificates/{new}"), &[]).await.text());
    assert!(new_page.contains("Status Valid") && new_page.contains(corrected), "{new_page}");

    let sent = mails(&app).await;
    assert_eq!(sent.len(), 6);
    let (to, subject, text, _, key) = &sent[5];
    assert_eq!((to.as_str(), key.as_str()), (ALMA.1, format!("certificate-reissued:{new}").as_str()));
    assert!(subject.contains("Your corrected certificate"), "{subject}");
    assert!(text.contains(&format!("{BASE}/certificates/{new}.pdf")) && text.contains(corrected), "{text}");
    assert!(!text.contains(&old), "{text}");

    let twice = post(&app, &path, "name=Alma", &cookie).await;
    assert_eq!(twice.status, StatusCode::CONFLICT, "the old certificate was replaced already");
    let entries = audited(&app).await;
    let last = entries.last().unwrap();
    assert_eq!((last.0.as_str(), last.1.as_str()), ("certificate.reissued", old.as_str()));
    assert_eq!(last.2["replaced_by"], json!(new));
    assert_eq!(last.2["holder_name"], json!({ "before": ALMA.0, "after": corrected }));
}

// ---------------------------------------------------------------------------------------
// From outside
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn the_organisers_certificate_actions_need_an_organisers_session_from_the_site() {
    let app = app().await;
    let cookie = released_world(&app).await;
    let code = code_of(&app, CARLA.1, "attendance").await;
    let actions = [
        "/organiser/certificates/release".to_owned(),
        format!("/organiser/certificates/{code}/revoke"),
        format!("/organiser/certificates/{code}/reissue"),
    ];
    add_reviewer(&app, REVIEWER, "Ada Reviewer", "", "").await;
    let reviewer = reviewer_sign_in(&app, REVIEWER).await;
    let before = (stored(&app).await, mails(&app).await.len(), audited(&app).await.len());

    let page = app.request("/organiser/certificates", &[]).await;
    assert_eq!((page.status, page.header("location")), (StatusCode::SEE_OTHER, Some("/organiser")));
    // A session cookie of the right name whose value no session has: no session at all.
    let forged_cookie = format!("{}={}", cookie.split('=').next().unwrap(), "A".repeat(43));
    let page = app.request("/organiser/certificates", &[("cookie", &forged_cookie)]).await;
    assert_eq!((page.status, page.header("location")), (StatusCode::SEE_OTHER, Some("/organiser")));
    assert_eq!(app.request("/organiser/certificates", &[("cookie", &reviewer)]).await.status, StatusCode::NOT_FOUND);
    for path in &actions {
        let none = app.post(path, "application/x-www-form-urlencoded", "name=X", &[("origin", BASE)]).await;
        assert_eq!((none.status, none.header("location")), (StatusCode::SEE_OTHER, Some("/organiser")), "{path}");
        let forged = app
            .post(
                path,
                "application/x-www-form-urlencoded",
                "name=X",
                &[("origin", "https://evil.example"), ("cookie", &cookie)],
            )
            .await;
        assert_eq!(forged.status, StatusCode::FORBIDDEN, "{path}");
        let other_role = post(&app, path, "name=X", &reviewer).await;
        assert_eq!(other_role.status, StatusCode::NOT_FOUND, "{path}");
        let made_up = post(&app, path, "name=X", &forged_cookie).await;
        assert_eq!((made_up.status, made_up.header("location")), (StatusCode::SEE_OTHER, Some("/organiser")), "{path}");
    }
    assert_eq!((stored(&app).await, mails(&app).await.len(), audited(&app).await.len()), before, "nothing changed");
}

#[tokio::test]
async fn no_public_page_nor_the_sitemap_links_a_certificate() {
    let app = app().await;
    released_world(&app).await;
    let mut paths: Vec<String> = app.page_paths().await.into_iter().map(|(p, _)| p).collect();
    paths.extend(["/sitemap.xml", "/robots.txt", "/schedule.xml", "/schedule.json", "/calendar.ics"].map(String::from));
    for talk in &PAPERS[..3] {
        paths.push(format!("/schedule/talks/{}", talk.slug));
    }
    let codes: Vec<String> = stored(&app).await.into_iter().map(|c| c.0).collect();
    for path in paths {
        let (status, _, body) = app.get(&path).await;
        assert!(status.is_success(), "{path}: {status}");
        assert!(!body.contains("/certificates/"), "{path} links a certificate");
        for code in &codes {
            assert!(!body.contains(code.as_str()), "{path} shows a certificate's code");
        }
    }
}

#[tokio::test]
async fn every_signature_the_production_seed_names_is_built_in() {
    let app = app().await;
    conference::seed::apply::seed(&app.pool).await.unwrap();
    let signatories = conference::attendance::certificates::signatories(&app.pool).await.unwrap();
    assert!(!signatories.is_empty());
    for s in &signatories {
        let png = s.signature_png.as_ref().unwrap_or_else(|| panic!("{}'s signature is in seed/signatures/", s.name));
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{} signs with a PNG", s.name);
    }
}

#[tokio::test]
async fn revoking_asks_for_a_reason_and_a_confirmation_first_and_the_audit_log_keeps_the_reason() {
    let app = app().await;
    let cookie = released_world(&app).await;
    let code = code_of(&app, CARLA.1, "attendance").await;
    let path = format!("/organiser/certificates/{code}/revoke");

    // The list's Revoke is a link to a confirmation step, not a form that revokes.
    let list = app.request("/organiser/certificates", &[("cookie", &cookie)]).await.text();
    assert!(list.contains(&format!("<a class=\"button\" href=\"{path}\">Revoke")), "{list}");
    let step = app.request(&path, &[("cookie", &cookie)]).await;
    assert_eq!(step.status, StatusCode::OK);
    let shown = main_text(&step.text());
    assert!(shown.contains(&format!("Revoke certificate {code}?")), "{shown}");
    assert!(step.text().contains("<textarea id=\"revoke-reason\" name=\"reason\""), "{}", step.text());
    assert!(shown.contains("Cancel: keep it valid"));

    // Without a reason nothing changes: the step again, saying why.
    let refused = post(&app, &path, "reason=+++", &cookie).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.text().contains("Write why the certificate is revoked"), "{}", refused.text());
    assert!(main_text(&app.request(&format!("/certificates/{code}"), &[]).await.text()).contains("Status Valid"));
    assert!(audited(&app).await.iter().all(|(action, _, _)| action != "certificate.revoked"));

    // With one it is revoked, and the reason is in the audit entry.
    let revoked = post(&app, &path, "reason=Paid+by+a+cheque+that+bounced", &cookie).await;
    assert_eq!(location(&revoked), format!("/organiser/certificates?revoked={code}"));
    let entry = audited(&app).await.into_iter().find(|(action, _, _)| action == "certificate.revoked").unwrap();
    assert_eq!(entry.1, code);
    assert_eq!(entry.2["reason"], "Paid by a cheque that bounced");
    // The step of a revoked certificate says it is revoked already.
    assert_eq!(app.request(&path, &[("cookie", &cookie)]).await.status, StatusCode::CONFLICT);
}
