//! Attendees (issue 33, DESIGN.md section 16): what a paid registration brings after the
//! payment. The ticket, its numbered receipt and the attendee link in the receipt mail; the
//! attendee page (404s, the QR, the name and its deadline, the receipt); the public check-in
//! URL; "send my link again"; credit notes on refunds; stream links that never reach a
//! public answer.

use std::collections::BTreeSet;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::macros::datetime;

use conference::ccavenue::crypto;
use conference::clock::Clock;
use conference::payments::config::TEST_WORKING_KEY;

use crate::common::fixture::{self, LISTENER_PHYSICAL, PRESENTER_VIRTUAL, Plan};
use crate::common::html::{by_id, first, meta, parse, text};
use crate::common::payments::{answer, checkout, initiate, location, outbox, send_answer};
use crate::common::{BASE, TestApp, app_with_clock};
use crate::organiser::{CHAIR, sign_in};

/// The fixture's `receipt_prefix`.
const PREFIX: &str = fixture::RECEIPT_PREFIX;

/// The year of [`app`]'s clock, which dates payments and receipts.
const YEAR: i32 = 2025;

/// The fixture's `attendee_changes_until` ([`fixture::ATTENDEE_CHANGES_UNTIL`] in
/// Asia/Singapore, UTC+08:00) in UTC.
const CHANGES_UNTIL: OffsetDateTime = datetime!(2025-03-14 15:59 UTC);

/// An app whose pages read a clock standing at `now`, with [`CHAIR`] an organiser; POSTs
/// unlimited (these tests pay many orders from one "client").
async fn app_at(now: OffsetDateTime) -> TestApp {
    app_with_clock(
        |c| {
            c.rate_limit_per_minute = 100_000;
            c.organiser_email = Some(CHAIR.into());
        },
        Clock::fixed(now),
    )
    .await
}

/// [`app_at`] a week before the name-change deadline.
async fn app() -> TestApp {
    app_at(datetime!(2025-03-07 09:00 UTC)).await
}

/// The gateway's encrypted `Success` for `order_id` and `amount`.
fn success(order_id: &str, amount: &str) -> String {
    crypto::encrypt(&answer(order_id, "Success", amount, "USD").to_query_string(), TEST_WORKING_KEY)
}

/// An order for `plan`, not yet paid.
async fn order(app: &TestApp, plan: Plan) -> String {
    initiate(app, &checkout(json!({ "plan": plan.id }))).await.order_id
}

/// Pays `order_id` (of `amount`) through the test gateway's answer.
async fn pay_order(app: &TestApp, order_id: &str, amount: &str) {
    let reply = send_answer(app, &success(order_id, amount), order_id).await;
    assert_eq!(location(&reply), format!("/Success?order={order_id}"), "{}", reply.text());
}

/// A paid order for `plan`; its id.
async fn pay(app: &TestApp, plan: Plan) -> String {
    let id = order(app, plan).await;
    pay_order(app, &id, plan.amount).await;
    id
}

/// The receipt mail of `order_id`: (to, subject, text, html).
async fn receipt_mail(app: &TestApp, order_id: &str) -> (String, String, String, String) {
    let key = format!("receipt:{order_id}");
    let mails: Vec<_> = outbox(app).await.into_iter().filter(|m| m.4.as_deref() == Some(key.as_str())).collect();
    assert_eq!(mails.len(), 1, "one receipt mail for {order_id}");
    let (to, subject, text, html, _) = mails.into_iter().next().unwrap();
    (to, subject, text, html)
}

/// The attendee links a text names (`PUBLIC_URL/attendee/<token>`), as site paths.
fn attendee_paths(text: &str) -> Vec<String> {
    let marker = format!("{BASE}/attendee/");
    text.match_indices(&marker)
        .map(|(at, _)| {
            let token: String = text[at + marker.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            format!("/attendee/{token}")
        })
        .collect()
}

/// The attendee page's path from `order_id`'s receipt mail.
async fn attendee_path(app: &TestApp, order_id: &str) -> String {
    let (_, _, text, _) = receipt_mail(app, order_id).await;
    let paths = attendee_paths(&text);
    assert_eq!(paths.len(), 1, "one attendee link in the receipt:\n{text}");
    paths.into_iter().next().unwrap()
}

/// (number, year, sequence, kind, cites, content) of `order_id`'s documents, in number order.
async fn documents(app: &TestApp, order_id: &str) -> Vec<(String, i64, i64, String, Option<String>, Value)> {
    let rows: Vec<(String, i64, i64, String, Option<String>, String)> = sqlx::query_as(
        "SELECT number, year, sequence, kind, cites, content FROM receipts WHERE order_id = $1 ORDER BY sequence",
    )
    .bind(order_id)
    .fetch_all(&app.pool)
    .await
    .unwrap();
    rows.into_iter().map(|(n, y, s, k, c, content)| (n, y, s, k, c, serde_json::from_str(&content).unwrap())).collect()
}

/// (code, holder, mode, type, refunded_at) of `order_id`'s ticket.
async fn ticket(app: &TestApp, order_id: &str) -> Option<(String, String, String, String, Option<String>)> {
    sqlx::query_as("SELECT code, holder_name, mode, ticket_type, refunded_at FROM tickets WHERE order_id = $1")
        .bind(order_id)
        .fetch_optional(&app.pool)
        .await
        .unwrap()
}

// ---------------------------------------------------------------------------------------
// At payment: the ticket, the numbered receipt and the link in the receipt mail
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn a_paid_registration_gets_a_ticket_a_numbered_receipt_and_the_attendee_link_in_its_mail() {
    let app = app().await;
    let id = pay(&app, LISTENER_PHYSICAL).await;

    let (code, holder, mode, kind, refunded) = ticket(&app, &id).await.expect("a ticket");
    assert_eq!(code.len(), 26, "128 bits in base32: {code}");
    assert!(code.bytes().all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b)), "{code}");
    assert_eq!(
        (holder.as_str(), mode.as_str(), kind.as_str(), refunded),
        ("Ximena Quilla Oyelaran", "physical", LISTENER_PHYSICAL.title, None)
    );

    let year = YEAR;
    let docs = documents(&app, &id).await;
    assert_eq!(docs.len(), 1, "{docs:?}");
    let (number, doc_year, sequence, kind, cites, content) = &docs[0];
    assert_eq!(
        (number.as_str(), *doc_year, *sequence),
        (format!("{PREFIX}-{year}-000001").as_str(), i64::from(year), 1)
    );
    assert_eq!((kind.as_str(), cites), ("receipt", &None));
    assert_eq!(content["title"], "Receipt");
    assert_eq!(content["status"], "PAID");
    assert_eq!(content["seller"]["name"], fixture::SELLER_NAME);
    assert_eq!(content["seller"]["reference"], fixture::SELLER_TAX_NUMBER);
    assert_eq!(content["buyer"]["name"], "Ximena Quilla Oyelaran");
    assert_eq!(content["buyer"]["address"], json!(["77 Orchard Lane", "1000 Manila", "Metro Manila", "Philippines"]));
    assert_eq!(content["lines"], json!([{"description": "Registration ticket: Harbour Guest", "amount_cents": 12500}]));
    assert_eq!((content["total_cents"].as_i64(), content["method"].as_str()), (Some(12500), Some("Credit Card")));
    assert_eq!(content["test"], true);

    let (to, subject, text, html) = receipt_mail(&app, &id).await;
    assert_eq!(to, "ximena.oyelaran@example.net");
    assert!(subject.contains(number) && subject.contains(&id), "{subject}");
    for body in [&text, &html] {
        assert!(body.contains(number), "the receipt names its number:\n{body}");
        assert!(body.contains("PAID"), "{body}");
    }
    let path = attendee_path(&app, &id).await;
    assert_eq!(attendee_paths(&html), [path.clone(), path.clone()], "the HTML part links it (href and text)");
    let token = path.strip_prefix("/attendee/").unwrap();
    assert_eq!(token.len(), 43, "32 bytes in base64url: {token}");
    let (stored,): (String,) =
        sqlx::query_as("SELECT token_hash FROM attendee_links").fetch_one(&app.pool).await.unwrap();
    assert_eq!(stored, conference::base::secrets::hash(token), "only the token's SHA-256 is kept");
    assert!(!stored.contains(token));
}

#[tokio::test]
async fn a_repeated_answer_issues_nothing_more_and_the_receipt_goes_once() {
    let app = app().await;
    let id = order(&app, PRESENTER_VIRTUAL).await;
    for _ in 0..3 {
        pay_order(&app, &id, PRESENTER_VIRTUAL.amount).await;
    }
    assert_eq!((app.count("tickets").await, app.count("receipts").await, app.count("attendee_links").await), (1, 1, 1));
    assert_eq!(app.count("outbox").await, 2, "one receipt and one notice");
    let (_, _, mode, _, _) = ticket(&app, &id).await.unwrap();
    assert_eq!(mode, "virtual");
}

#[tokio::test]
async fn custom_payments_and_sponsorships_get_a_numbered_receipt_and_no_ticket() {
    let app = app().await;
    let custom = initiate(&app, &checkout(json!({ "customAmount": "100" }))).await.order_id;
    pay_order(&app, &custom, "106.00").await;
    let year = YEAR;
    let docs = documents(&app, &custom).await;
    assert_eq!(docs[0].0, format!("{PREFIX}-{year}-000001"));
    assert_eq!(
        docs[0].5["lines"],
        json!([
            {"description": "Custom payment", "amount_cents": 10000},
            {"description": "Tax (6%)", "amount_cents": 600},
        ]),
        "the custom amount's 6% tax is a line of its own"
    );
    assert!(ticket(&app, &custom).await.is_none());
    let (_, _, text, _) = receipt_mail(&app, &custom).await;
    assert!(text.contains(&docs[0].0), "{text}");
    assert!(attendee_paths(&text).is_empty(), "no attendee page without a ticket:\n{text}");
    assert_eq!(app.count("attendee_links").await, 0);
}

#[tokio::test]
async fn an_invoice_is_called_so_only_when_the_seed_says() {
    let app = app().await;
    app.exec("UPDATE site SET invoice_wording = 1, receipt_prefix = 'INV'").await;
    let id = pay(&app, PRESENTER_VIRTUAL).await;
    let docs = documents(&app, &id).await;
    assert_eq!(docs[0].5["title"], "Invoice");
    assert!(docs[0].0.starts_with("INV-"), "{}", docs[0].0);
    let (_, subject, text, _) = receipt_mail(&app, &id).await;
    assert!(subject.contains("Payment invoice INV-"), "{subject}");
    assert!(text.contains("Invoice\nNumber: INV-"), "{text}");

    // The word stays off by default: the first test's receipt says "Receipt", never "Invoice".
    let other = app_at(datetime!(2025-03-07 09:00 UTC)).await;
    let id = pay(&other, PRESENTER_VIRTUAL).await;
    let (_, subject, text, html) = receipt_mail(&other, &id).await;
    for shown in [&subject, &text, &html] {
        assert!(!shown.to_lowercase().contains("invoice"), "{shown}");
    }
}

/// `n` orders of `plan` paid at once, their answers split over `routers` as a load balancer
/// would; the receipt numbers given.
async fn pay_at_once(app: &TestApp, routers: &[conference::App], n: usize) -> Vec<String> {
    use tower::ServiceExt;

    let mut ids = Vec::new();
    for _ in 0..n {
        ids.push(order(app, PRESENTER_VIRTUAL).await);
    }
    let mut answers = tokio::task::JoinSet::new();
    for (i, id) in ids.iter().enumerate() {
        let router = routers[i % routers.len()].clone();
        let body =
            serde_urlencoded::to_string([("encResp", success(id, PRESENTER_VIRTUAL.amount)), ("orderNo", id.clone())])
                .unwrap();
        let request = Request::post("/api/ccavenue-handle")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(body))
            .unwrap();
        answers.spawn(async move { router.oneshot(request).await.unwrap() });
    }
    while let Some(reply) = answers.join_next().await {
        let reply = reply.unwrap();
        assert_eq!(reply.status(), StatusCode::SEE_OTHER);
        assert!(reply.headers()["location"].to_str().unwrap().starts_with("/Success?order="));
    }
    let mut numbers = Vec::new();
    for id in &ids {
        let docs = documents(app, id).await;
        assert_eq!(docs.len(), 1, "one receipt for {id}");
        numbers.push(docs[0].0.clone());
        // Its mail names the number it was given.
        assert!(receipt_mail(app, id).await.2.contains(&docs[0].0));
    }
    numbers
}

/// The numbers 1..=n of this year.
fn gapless(n: usize) -> BTreeSet<String> {
    let year = YEAR;
    (1..=n).map(|i| format!("{PREFIX}-{year}-{i:06}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_payments_at_once_get_receipt_numbers_without_gaps_or_duplicates() {
    let app = app().await;
    let numbers = pay_at_once(&app, std::slice::from_ref(&app.router), 8).await;
    assert_eq!(numbers.iter().cloned().collect::<BTreeSet<_>>(), gapless(8), "{numbers:?}");
    let (last,): (i64,) =
        sqlx::query_as("SELECT last_sequence FROM receipt_counters").fetch_one(&app.pool).await.unwrap();
    assert_eq!(last, 8);
}

/// Ignored rather than passing on SQLite (see tests/mail.rs): there one writer at a time
/// makes the race impossible, and run anyway it fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "PostgreSQL only: run with TEST_DATABASE_URL and --include-ignored"]
async fn eight_payments_at_once_on_two_instances_get_receipt_numbers_without_gaps() {
    let app = app().await;
    assert_eq!(
        app.engine(),
        conference::db::Engine::Postgres,
        "two instances racing on one database: this test runs with TEST_DATABASE_URL set"
    );
    let other = app.another_instance().await;
    let numbers = pay_at_once(&app, &[app.router.clone(), other.router.clone()], 8).await;
    assert_eq!(numbers.iter().cloned().collect::<BTreeSet<_>>(), gapless(8), "{numbers:?}");
    drop(other);
}

#[tokio::test]
async fn a_payment_that_fails_to_record_gives_its_number_back() {
    let app = app().await;
    let first = order(&app, PRESENTER_VIRTUAL).await;
    app.fail_inserts("tickets", "disk full").await;
    let reply = send_answer(&app, &success(&first, PRESENTER_VIRTUAL.amount), &first).await;
    assert!(reply.status.is_server_error(), "{}", reply.status);
    assert_eq!(crate::common::payments::status_of(&app, &first).await, "initiated", "nothing of it was kept");
    assert_eq!((app.count("receipts").await, app.count("outbox").await), (0, 0));
    app.allow_inserts("tickets").await;
    let second = pay(&app, PRESENTER_VIRTUAL).await;
    let year = YEAR;
    assert_eq!(documents(&app, &second).await[0].0, format!("{PREFIX}-{year}-000001"), "the number was given back");
}

#[tokio::test]
async fn receipts_are_never_rewritten() {
    let app = app().await;
    pay(&app, PRESENTER_VIRTUAL).await;
    for sql in ["UPDATE receipts SET content = '{}'", "DELETE FROM receipts"] {
        let refused = sqlx::raw_sql(sql).execute(&app.pool).await;
        assert!(refused.is_err(), "{sql} is refused");
    }
    assert_eq!(app.count("receipts").await, 1);
}

// ---------------------------------------------------------------------------------------
// The attendee page
// ---------------------------------------------------------------------------------------

/// The headers of every private attendee answer.
fn assert_private(headers: &axum::http::HeaderMap, what: &str) {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    assert_eq!(header("cache-control"), "private, no-store", "{what}");
    assert_eq!(header("referrer-policy"), "no-referrer", "{what}");
    assert_eq!(header("x-robots-tag"), "noindex", "{what}");
}

/// Whether `svg` is well-formed XML, by xmllint (Debian's libxml2-utils, as tests/frab.rs).
fn well_formed(svg: &str) -> Result<(), String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("xmllint")
        .args(["--noout", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|err| panic!("xmllint checks the QR's SVG ({err}): apt-get install -y libxml2-utils"));
    child.stdin.take().unwrap().write_all(svg.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    if output.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&output.stderr).into_owned()) }
}

/// The `<svg>...</svg>` of a page.
fn svg_of(page: &str) -> String {
    let start = page.find("<svg").expect("an inline SVG");
    let end = page[start..].find("</svg>").expect("the SVG ends") + start + "</svg>".len();
    page[start..end].to_owned()
}

#[tokio::test]
async fn the_attendee_link_opens_the_ticket_with_its_qr_code_and_the_receipt() {
    let app = app().await;
    let id = pay(&app, LISTENER_PHYSICAL).await;
    let path = attendee_path(&app, &id).await;
    let (status, headers, page) = app.get(&path).await;
    assert_eq!(status, StatusCode::OK, "{}", crate::common::excerpt(&page));
    assert_private(&headers, &path);
    let doc = parse(&page);
    assert_eq!(meta(&doc, "robots").as_deref(), Some("noindex, follow"));
    assert_eq!(text(by_id(&doc, "ticket-title").unwrap()), LISTENER_PHYSICAL.title);
    assert_eq!(text(by_id(&doc, "ticket-name").unwrap()), "Ximena Quilla Oyelaran");
    assert_eq!(text(by_id(&doc, "ticket-mode").unwrap()), "In person, at the venue");
    assert_eq!(text(by_id(&doc, "ticket-order").unwrap()), id);

    // The QR: an SVG the page draws inline, with the address it encodes printed under it.
    let (code, ..) = ticket(&app, &id).await.unwrap();
    let url = format!("{BASE}/check-in/{code}");
    assert_eq!(text(by_id(&doc, "check-in-url").unwrap()), url);
    let svg = svg_of(&page);
    assert!(svg.starts_with("<svg role=\"img\" aria-label=\"QR code of your ticket\""), "{svg}");
    assert!(svg.contains("<path"), "the modules are drawn: {svg}");
    well_formed(&svg).unwrap_or_else(|err| panic!("the QR's SVG is well-formed XML: {err}\n{svg}"));
    assert_eq!(svg, conference::attendance::qr::svg(&url, "QR code of your ticket").unwrap(), "it encodes the URL");

    // The receipt as issued.
    let number = format!("{PREFIX}-{YEAR}-000001");
    let receipt = text(by_id(&doc, &number).expect("the receipt's section"));
    for shown in [
        format!("Receipt {number}").as_str(),
        fixture::SELLER_NAME,
        format!("Tax number: {}", fixture::SELLER_TAX_NUMBER).as_str(),
        "77 Orchard Lane",
        "ximena.oyelaran@example.net",
        "Registration ticket: Harbour Guest",
        "USD 125.00",
        "PAID",
        "7 March 2025",
    ] {
        assert!(receipt.contains(shown), "the receipt shows {shown:?}: {receipt}");
    }
    // A printable page: its own stylesheet, which has the print rules.
    assert!(page.contains("To print your ticket, use your browser's Print command"));
}

#[tokio::test]
async fn wrong_foreign_and_malformed_tokens_are_404_and_show_nothing_of_any_ticket() {
    let app = app().await;
    let id = pay(&app, PRESENTER_VIRTUAL).await;
    let path = attendee_path(&app, &id).await;
    let token = path.strip_prefix("/attendee/").unwrap().to_owned();
    assert_eq!(app.get(&path).await.0, StatusCode::OK, "the real link works");
    let (stored,): (String,) =
        sqlx::query_as("SELECT token_hash FROM attendee_links").fetch_one(&app.pool).await.unwrap();
    // A token of another kind of link: an author's status link of a submission.
    let paper = crate::api_submission::pdf_of_size(1024);
    let form = crate::api_submission::Form::fields_only().file("paper.pdf", "application/pdf", paper);
    let submitted = crate::api_submission::submit(&app, &form).await;
    assert_eq!(submitted.0, StatusCode::CREATED, "{}", submitted.1);
    let status_path = attendee_paths_in(&outbox(&app).await, "/submission/status/");
    let foreign = status_path.strip_prefix("/submission/status/").unwrap().to_owned();
    let mut flipped = token.clone().into_bytes();
    flipped[10] = if flipped[10] == b'A' { b'B' } else { b'A' };
    let wrong = String::from_utf8(flipped).unwrap();
    for bad in [
        wrong.as_str(),
        foreign.as_str(),
        &stored,
        &"A".repeat(43),
        &token[..42],
        &format!("{token}A"),
        "%00",
        "..%2F..%2Fetc%2Fpasswd",
        "not-a-token",
    ] {
        let (status, headers, page) = app.get(&format!("/attendee/{bad}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "/attendee/{bad}");
        assert_private(&headers, bad);
        for private in ["Ximena", &id, PRESENTER_VIRTUAL.title, "<svg", "check-in/"] {
            assert!(!page.contains(private), "/attendee/{bad} shows nothing of a ticket ({private})");
        }
        assert!(page.contains("This attendee link is not one we sent"), "{}", crate::common::excerpt(&page));
        assert!(page.contains("action=\"/attendee\""), "the 404 offers to send the link again");
    }
    // Nor does the name form take anything through a bad token.
    let reply = post_name(&app, &format!("/attendee/{wrong}"), "Mallory").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(ticket(&app, &id).await.unwrap().1, "Ximena Quilla Oyelaran");
}

/// The site paths of links starting with `prefix` in the mails of `outbox`, the first one.
fn attendee_paths_in(mails: &[(String, String, String, String, Option<String>)], prefix: &str) -> String {
    let marker = format!("{BASE}{prefix}");
    mails
        .iter()
        .find_map(|m| {
            let at = m.2.find(&marker)?;
            let token: String = m.2[at + marker.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            Some(format!("{prefix}{token}"))
        })
        .unwrap_or_else(|| panic!("a mail links {prefix}"))
}

/// POST `name` to an attendee page from the site's own page.
async fn post_name(app: &TestApp, path: &str, name: &str) -> crate::common::Reply {
    let body = serde_urlencoded::to_string([("name", name)]).unwrap();
    app.post(path, "application/x-www-form-urlencoded", body, &[("origin", BASE)]).await
}

/// The audit log's `ticket.name_changed` entries: (actor, object id, details).
async fn name_changes(app: &TestApp) -> Vec<(String, Option<String>, Value)> {
    let rows: Vec<(String, Option<String>, String)> = sqlx::query_as(
        "SELECT actor, object_id, details FROM audit_log WHERE action = 'ticket.name_changed' ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    rows.into_iter().map(|(a, o, d)| (a, o, serde_json::from_str(&d).unwrap())).collect()
}

#[tokio::test]
async fn the_name_can_be_changed_until_the_deadline_and_each_change_is_audited() {
    let app = app().await;
    let id = pay(&app, PRESENTER_VIRTUAL).await;
    let path = attendee_path(&app, &id).await;
    let page = app.page(&path).await;
    assert!(
        text(by_id(&parse(&page), "name-changes").unwrap()).contains("until 14 March 2025 at 23:59 (Singapore time)")
    );

    let reply = post_name(&app, &path, "  Ximena   Q. Oyelaran ").await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    assert_eq!(location(&reply), format!("{path}?saved=1"));
    assert_eq!(reply.header("referrer-policy"), Some("no-referrer"));
    let page = app.page(&format!("{path}?saved=1")).await;
    let doc = parse(&page);
    assert_eq!(text(by_id(&doc, "ticket-name").unwrap()), "Ximena Q. Oyelaran");
    assert_eq!(text(by_id(&doc, "attendee-notice").unwrap()), "The name on your ticket is changed.");
    assert_eq!(
        name_changes(&app).await,
        [(
            "attendee".to_owned(),
            Some(id.clone()),
            json!({"holder_name": {"before": "Ximena Quilla Oyelaran", "after": "Ximena Q. Oyelaran"}})
        )]
    );

    // The same name again changes nothing and records nothing.
    let reply = post_name(&app, &path, "Ximena Q. Oyelaran").await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(name_changes(&app).await.len(), 1);

    // A name the rule refuses: 422, the form again with what was typed and the reason.
    for (bad, reason) in [("   ", "required"), (&"x".repeat(121) as &str, "at most 120"), ("Ada\u{7}", "not allowed")] {
        let reply = post_name(&app, &path, bad).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad:?}");
        let doc = parse(&reply.text());
        assert!(text(by_id(&doc, "name-error").unwrap()).contains(reason), "{bad:?}");
        assert_eq!(
            first(&doc, "#ticket-holder").unwrap().value().attr("value"),
            Some(bad),
            "what was typed is shown again"
        );
    }
    // A form with no name, or two.
    let two = app.post(&path, "application/x-www-form-urlencoded", "name=A&name=B", &[("origin", BASE)]).await;
    assert_eq!(two.status, StatusCode::BAD_REQUEST);
    let none = app.post(&path, "application/x-www-form-urlencoded", "other=A", &[("origin", BASE)]).await;
    assert_eq!(none.status, StatusCode::BAD_REQUEST);
    assert_eq!(ticket(&app, &id).await.unwrap().1, "Ximena Q. Oyelaran");
    assert_eq!(name_changes(&app).await.len(), 1, "nothing refused is recorded");

    // From another site, or without proof of the same origin: refused before anything.
    for headers in [vec![("origin", "https://evil.example")], vec![]] {
        let reply = app.post(&path, "application/x-www-form-urlencoded", "name=Mallory", &headers).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{headers:?}");
    }
    let same_site = app
        .post(&path, "application/x-www-form-urlencoded", "name=Ximena+Oyelaran", &[("sec-fetch-site", "same-origin")])
        .await;
    assert_eq!(same_site.status, StatusCode::SEE_OTHER, "a browser's same-origin form without Origin");

    // From the minute of the deadline on (in the event's zone), the page says so and the form
    // is gone; a POST is refused and changes nothing.
    app.state.clock.set(CHANGES_UNTIL);
    let page = app.page(&path).await;
    let doc = parse(&page);
    assert!(first(&doc, "#ticket-holder").is_none(), "no name form after the deadline");
    assert!(text(by_id(&doc, "name-changes").unwrap()).contains("could be changed until 14 March 2025 at 23:59"));
    let reply = post_name(&app, &path, "Somebody Else").await;
    assert_eq!(reply.status, StatusCode::CONFLICT);
    assert_eq!(ticket(&app, &id).await.unwrap().1, "Ximena Oyelaran");
    assert_eq!(name_changes(&app).await.len(), 2, "the change before the deadline, not the one after");

    // One second before it, changes were open.
    app.state.clock.set(CHANGES_UNTIL - time::Duration::seconds(1));
    assert_eq!(post_name(&app, &path, "Somebody Else").await.status, StatusCode::SEE_OTHER);
}

// ---------------------------------------------------------------------------------------
// The QR's address, without a desk's session
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn the_check_in_address_says_show_this_at_the_desk_and_nothing_personal() {
    let app = app().await;
    let id = pay(&app, LISTENER_PHYSICAL).await;
    let (code, ..) = ticket(&app, &id).await.unwrap();
    let unknown = conference::attendance::tickets::new_code();
    let mut pages = Vec::new();
    for path in
        [format!("/check-in/{code}"), format!("/check-in/{}", code.to_lowercase()), format!("/check-in/{unknown}")]
    {
        let (status, headers, page) = app.get(&path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_private(&headers, &path);
        let doc = parse(&page);
        assert_eq!(text(first(&doc, "h1").unwrap()), "Show this at the registration desk");
        let main = text(first(&doc, "main").unwrap());
        for private in ["Ximena", "Oyelaran", "ximena.oyelaran", &id, LISTENER_PHYSICAL.title, "Refunded", "valid"] {
            assert!(!main.contains(private), "{path} shows nothing about the ticket ({private}): {main}");
        }
        pages.push(main);
    }
    assert!(pages.windows(2).all(|w| w[0] == w[1]), "a known and an unknown code read the same");
    for bad in ["short", "%00", &format!("{code}X")] {
        assert_eq!(app.get(&format!("/check-in/{bad}")).await.0, StatusCode::NOT_FOUND, "{bad}");
    }
}

// ---------------------------------------------------------------------------------------
// Send my link again
// ---------------------------------------------------------------------------------------

/// POST the "send my link again" form.
async fn ask_again(app: &TestApp, email: &str, order: &str) -> crate::common::Reply {
    let body = serde_urlencoded::to_string([("email", email), ("order", order)]).unwrap();
    app.post("/attendee", "application/x-www-form-urlencoded", body, &[("origin", BASE)]).await
}

/// The "send my link again" mails: (to, text).
async fn link_mails(app: &TestApp) -> Vec<(String, String)> {
    outbox(app)
        .await
        .into_iter()
        .filter(|m| m.4.as_deref().is_some_and(|k| k.starts_with("attendee-link:")))
        .map(|m| (m.0, m.2))
        .collect()
}

#[tokio::test]
async fn send_my_link_again_answers_the_same_and_mails_only_the_orders_address() {
    let app = app().await;
    let id = pay(&app, PRESENTER_VIRTUAL).await;
    let first_link = attendee_path(&app, &id).await;
    let unpaid = order(&app, PRESENTER_VIRTUAL).await;
    let custom = initiate(&app, &checkout(json!({ "customAmount": "100" }))).await.order_id;
    pay_order(&app, &custom, "106.00").await;

    let form = app.page("/attendee").await;
    assert!(form.contains("action=\"/attendee\""), "GET /attendee is the form");
    // Registrants find it from the pricing page and the payment's result page.
    for page in ["/pricing".to_owned(), format!("/Success?order={id}")] {
        let doc = parse(&app.page(&page).await);
        let note = by_id(&doc, "attendee-page-note").unwrap_or_else(|| panic!("{page} tells about the attendee page"));
        assert_eq!(first(note, "a").and_then(|a| a.value().attr("href")), Some("/attendee"), "{page}");
    }
    let (_, headers, _) = app.get("/attendee").await;
    assert_private(&headers, "/attendee");

    let mut answers = BTreeSet::new();
    for (email, order) in [
        ("someone@example.org", id.as_str()),
        ("ximena.oyelaran@example.net", "ORD1740816000000NOSUCH"),
        ("ximena.oyelaran@example.net", unpaid.as_str()),
        ("ximena.oyelaran@example.net", custom.as_str()),
        ("ximena.oyelaran@example.net", "not an order id"),
        (" Ximena.Oyelaran@Example.NET ", &format!(" {id} ")),
    ] {
        let reply = ask_again(&app, email, order).await;
        assert_eq!(reply.status, StatusCode::OK, "{email} {order}");
        assert_private(&reply.headers, "POST /attendee");
        let doc = parse(&reply.text());
        answers.insert(text(by_id(&doc, "resend-answer").expect("the answer")));
    }
    assert_eq!(answers.len(), 1, "one answer for every pair: {answers:?}");
    assert!(answers.first().unwrap().starts_with("If this order is yours"), "{answers:?}");

    let mails = link_mails(&app).await;
    assert_eq!(mails.len(), 1, "only the matching pair is mailed: {mails:?}");
    assert_eq!(mails[0].0, "ximena.oyelaran@example.net", "to the order's address, never the typed one");
    let paths = attendee_paths(&mails[0].1);
    assert_eq!(paths.len(), 1, "{}", mails[0].1);
    assert_ne!(paths[0], first_link, "a new link");
    assert_eq!(app.get(&paths[0]).await.0, StatusCode::OK, "the new link works");
    assert_eq!(app.get(&first_link).await.0, StatusCode::OK, "and the first one keeps working");
    let (sent,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM audit_log WHERE action = 'attendee.link_sent' AND actor = 'attendee'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(sent, 1);

    // Empty fields or an address that is none: the form again, saying what is missing.
    let reply = ask_again(&app, "", &id).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reply.text().contains("Please give both the e-mail address and the order id"));
    assert_eq!(ask_again(&app, "not-an-address", &id).await.status, StatusCode::UNPROCESSABLE_ENTITY);
    // From another site: refused.
    let forged = app
        .post(
            "/attendee",
            "application/x-www-form-urlencoded",
            format!("email=ximena.oyelaran%40example.net&order={id}"),
            &[("origin", "https://evil.example")],
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    assert_eq!(link_mails(&app).await.len(), 1);
}

#[tokio::test]
async fn an_order_paid_before_tickets_existed_gets_its_ticket_and_receipt_with_its_first_link() {
    let app = app().await;
    // An order paid before migration 0020: no ticket, no numbered receipt.
    let id = app.paid_order().await;
    assert!(ticket(&app, id).await.is_none());
    let reply = ask_again(&app, "ada@example.org", id).await;
    assert_eq!(reply.status, StatusCode::OK);
    let mails = link_mails(&app).await;
    assert_eq!(mails.len(), 1);
    let path = attendee_paths(&mails[0].1).pop().unwrap();
    let page = app.page(&path).await;
    let doc = parse(&page);
    assert_eq!(text(by_id(&doc, "ticket-name").unwrap()), "Ada Lovelace");
    assert_eq!(text(by_id(&doc, "ticket-title").unwrap()), PRESENTER_VIRTUAL.title);
    assert!(by_id(&doc, &format!("{PREFIX}-{YEAR}-000001")).is_some(), "a numbered receipt, dated now");
}

#[tokio::test]
async fn send_my_link_again_mails_a_ticket_at_most_five_links_an_hour() {
    let app = app().await;
    let id = pay(&app, PRESENTER_VIRTUAL).await;
    for _ in 0..6 {
        assert_eq!(ask_again(&app, "ximena.oyelaran@example.net", &id).await.status, StatusCode::OK);
    }
    assert_eq!(link_mails(&app).await.len(), 4, "the receipt's link and four more make five this hour");
    app.state.clock.set(datetime!(2025-03-07 10:00 UTC));
    ask_again(&app, "ximena.oyelaran@example.net", &id).await;
    assert_eq!(link_mails(&app).await.len(), 5, "an hour later, one more");
}

// ---------------------------------------------------------------------------------------
// Refunds: a credit note of its own number, and a refunded ticket
// ---------------------------------------------------------------------------------------

/// The organiser marks `order_id` refunded.
async fn refund(app: &TestApp, cookie: &str, order_id: &str) -> crate::common::Reply {
    let path = format!("/organiser/orders/{order_id}/refund");
    let reply = app
        .post(&path, "application/x-www-form-urlencoded", "confirm=refunded", &[("origin", BASE), ("cookie", cookie)])
        .await;
    if reply.status == StatusCode::SEE_OTHER {
        assert_eq!(location(&reply), format!("/organiser/orders/{order_id}"), "signed in, the refund is taken");
    }
    reply
}

#[tokio::test]
async fn a_refund_issues_a_credit_note_citing_the_receipt_and_ends_the_ticket() {
    let app = app().await;
    let id = pay(&app, LISTENER_PHYSICAL).await;
    let path = attendee_path(&app, &id).await;
    let cookie = sign_in(&app, CHAIR).await;
    let reply = refund(&app, &cookie, &id).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());

    let receipt = format!("{PREFIX}-{YEAR}-000001");
    let note = format!("{PREFIX}-{YEAR}-000002");
    let docs = documents(&app, &id).await;
    assert_eq!(docs.len(), 2, "{docs:?}");
    let (number, _, sequence, kind, cites, content) = &docs[1];
    assert_eq!((number, *sequence, kind.as_str(), cites.as_deref()), (&note, 2, "credit_note", Some(receipt.as_str())));
    assert_eq!((content["title"].as_str(), content["status"].as_str()), (Some("Credit note"), Some("CREDITED")));
    assert_eq!(content["total_cents"], 12500);
    assert_eq!(docs[0].5["status"], "PAID", "the receipt stays as issued");
    let (_, _, _, _, refunded) = ticket(&app, &id).await.unwrap();
    assert!(refunded.is_some(), "the ticket is refunded");
    let (details,): (String,) =
        sqlx::query_as("SELECT details FROM audit_log WHERE action = 'order.refunded' AND object_id = $1")
            .bind(&id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(serde_json::from_str::<Value>(&details).unwrap()["credit_note"], note.as_str());

    // The attendee page says so: no QR code, no name form, the credit note beside the receipt.
    let page = app.page(&path).await;
    let doc = parse(&page);
    assert!(text(by_id(&doc, "ticket-refunded").unwrap()).contains("refunded and is no longer valid"));
    assert!(!page.contains("<svg"), "no QR code for a refunded ticket");
    assert!(first(&doc, "#ticket-holder").is_none());
    let credit = text(by_id(&doc, &note).expect("the credit note's section"));
    assert!(
        credit.contains(&format!("Credit note {note}")) && credit.contains(&format!("cancels receipt {receipt}")),
        "{credit}"
    );
    assert!(credit.contains("CREDITED") && credit.contains("USD 125.00"), "{credit}");
    assert!(by_id(&doc, &receipt).is_some(), "the receipt is still shown");
    assert_eq!(post_name(&app, &path, "Somebody Else").await.status, StatusCode::CONFLICT);

    // The organisers' order page names both numbers.
    let (_, _, detail) = app.get_with(&format!("/organiser/orders/{id}"), &[("cookie", &cookie)]).await;
    assert!(detail.contains(&receipt) && detail.contains(&note), "{}", crate::common::excerpt(&detail));

    // Refunded twice: refused, nothing new. The counter is shared: the next payment is 3.
    assert_eq!(refund(&app, &cookie, &id).await.status, StatusCode::CONFLICT);
    assert_eq!(documents(&app, &id).await.len(), 2);
    let next = pay(&app, PRESENTER_VIRTUAL).await;
    assert_eq!(documents(&app, &next).await[0].0, format!("{PREFIX}-{YEAR}-000003"));
}

#[tokio::test]
async fn refunding_an_order_paid_before_numbered_receipts_issues_no_credit_note() {
    let app = app().await;
    let id = app.paid_order().await;
    let cookie = sign_in(&app, CHAIR).await;
    assert_eq!(refund(&app, &cookie, id).await.status, StatusCode::SEE_OTHER);
    assert!(documents(&app, id).await.is_empty(), "a credit note cites a receipt; this order has none");
}

// ---------------------------------------------------------------------------------------
// Stream links: set by organisers, on the attendee page only
// ---------------------------------------------------------------------------------------

/// The organiser sets (or, with an empty `url`, removes) `session`'s stream link.
async fn set_stream(app: &TestApp, cookie: &str, session: &str, url: &str, label: &str) -> crate::common::Reply {
    let body = serde_urlencoded::to_string([("url", url), ("label", label)]).unwrap();
    let path = format!("/organiser/streams/{session}");
    app.post(&path, "application/x-www-form-urlencoded", body, &[("origin", BASE), ("cookie", cookie)]).await
}

/// A stream address no other text of the site can hold by chance.
fn stream_url(session: &str) -> String {
    format!("https://stream.example.org/live/{session}-k7q2zv")
}

/// The streamed sessions of the fixture (online or hybrid), in time order.
const STREAMED: [&str; 5] = ["fixture-opening", "session-a", "session-b", "lantern-posters", "fixture-closing"];

#[tokio::test]
async fn organisers_set_and_remove_the_stream_links_of_online_and_hybrid_sessions() {
    let app = app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let (status, headers, page) = app.get_with("/organiser/streams", &[("cookie", &cookie)]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers.get("cache-control").unwrap(), "private, no-store");
    let doc = parse(&page);
    let listed: Vec<String> = crate::common::html::select(&doc, "section.organiser__card")
        .iter()
        .map(|s| s.value().attr("id").unwrap().trim_start_matches("stream-").to_owned())
        .collect();
    assert_eq!(listed, STREAMED, "online and hybrid sessions only, in time order");
    assert!(page.contains("href=\"/organiser/streams\""), "the area's header links the page");

    let reply = set_stream(&app, &cookie, "session-a", " https://meet.example.org/Room-A ", " Zoom ").await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    let stored: (String, String, String) =
        sqlx::query_as("SELECT url, label, updated_by FROM stream_links WHERE session = 'session-a'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(stored, ("https://meet.example.org/Room-A".into(), "Zoom".into(), CHAIR.into()));
    let audit: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT actor, action, details FROM audit_log WHERE object_type = 'session' AND object_id = 'session-a' ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    assert_eq!(audit.len(), 1);
    assert_eq!((audit[0].0.as_str(), audit[0].1.as_str()), (CHAIR, "stream.set"));
    assert_eq!(
        serde_json::from_str::<Value>(&audit[0].2).unwrap(),
        json!({"url": {"before": null, "after": "https://meet.example.org/Room-A"}, "label": {"before": null, "after": "Zoom"}})
    );

    // Refused: not a web address, credentials in it, an in-person session; 404 for a session
    // the programme does not have. Nothing stored, nothing audited.
    for (session, url, status, said) in [
        ("session-b", "meet.example.org/room", StatusCode::UNPROCESSABLE_ENTITY, "not a web address"),
        ("session-b", "javascript:alert(1)", StatusCode::UNPROCESSABLE_ENTITY, "starting with https://"),
        ("session-b", "https://me:pw@meet.example.org/", StatusCode::UNPROCESSABLE_ENTITY, "user name or password"),
        ("tidal-keynote", "https://meet.example.org/k", StatusCode::UNPROCESSABLE_ENTITY, "in person only"),
        ("no-such-session", "https://meet.example.org/x", StatusCode::NOT_FOUND, ""),
    ] {
        let reply = set_stream(&app, &cookie, session, url, "").await;
        assert_eq!(reply.status, status, "{session} {url}");
        assert!(reply.text().contains(said), "{session} {url}: {}", crate::common::excerpt(&reply.text()));
        if status == StatusCode::UNPROCESSABLE_ENTITY && session != "tidal-keynote" {
            let doc = parse(&reply.text());
            let field = first(&doc, &format!("#url-{session}")).unwrap();
            assert_eq!(field.value().attr("value"), Some(url), "what was typed is shown again");
        }
    }
    assert_eq!(app.count("stream_links").await, 1);

    // Changed, then removed with an empty address.
    assert_eq!(
        set_stream(&app, &cookie, "session-a", "https://meet.example.org/b", "").await.status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(set_stream(&app, &cookie, "session-a", "", "").await.status, StatusCode::SEE_OTHER);
    assert_eq!(app.count("stream_links").await, 0);
    let actions: Vec<(String,)> =
        sqlx::query_as("SELECT action FROM audit_log WHERE object_type = 'session' ORDER BY id")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(actions, [("stream.set".into(),), ("stream.set".into(),), ("stream.removed".into(),)]);

    // Without a session: the sign-in page, nothing stored. From another site: refused.
    let anonymous = app
        .post(
            "/organiser/streams/session-a",
            "application/x-www-form-urlencoded",
            "url=https%3A%2F%2Fx.example",
            &[("origin", BASE)],
        )
        .await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER);
    assert_eq!(anonymous.header("location"), Some("/organiser"));
    let forged = app
        .post(
            "/organiser/streams/session-a",
            "application/x-www-form-urlencoded",
            "url=https%3A%2F%2Fx.example",
            &[("origin", "https://evil.example"), ("cookie", &cookie)],
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    assert_eq!(app.count("stream_links").await, 0);
}

/// The streams the attendee page at `path` lists: (when, title, href).
async fn listed_streams(app: &TestApp, path: &str) -> Option<Vec<(String, String, String)>> {
    let page = app.page(path).await;
    let doc = parse(&page);
    by_id(&doc, "streams-title")?;
    let items = crate::common::html::select(&doc, "#streams li");
    Some(
        items
            .iter()
            .map(|li| {
                let when = text(first(*li, ".streams__when").unwrap());
                let title = text(first(*li, ".streams__title").unwrap());
                let href = first(*li, "a").unwrap().value().attr("href").unwrap().to_owned();
                (when, title, href)
            })
            .collect(),
    )
}

#[tokio::test]
async fn the_attendee_page_lists_todays_streams_the_current_and_next_first() {
    let app = app().await;
    let cookie = sign_in(&app, CHAIR).await;
    for session in STREAMED {
        assert_eq!(set_stream(&app, &cookie, session, &stream_url(session), "").await.status, StatusCode::SEE_OTHER);
    }
    let physical = pay(&app, LISTENER_PHYSICAL).await;
    let virtual_ = pay(&app, PRESENTER_VIRTUAL).await;
    let (physical, virtual_) = (attendee_path(&app, &physical).await, attendee_path(&app, &virtual_).await);

    // Before the conference: none today.
    let page = app.page(&physical).await;
    assert!(by_id(&parse(&page), "no-streams").is_some());
    assert!(!page.contains("stream.example.org"));

    // 23 March, 10:30 in Singapore: the posters are on, the closing is next.
    app.state.clock.set(datetime!(2025-03-23 02:30 UTC));
    let expected = vec![
        ("Now".to_owned(), "Lantern posters online".to_owned(), stream_url("lantern-posters")),
        ("Next".to_owned(), "Fixture closing".to_owned(), stream_url("fixture-closing")),
    ];
    for path in [&physical, &virtual_] {
        assert_eq!(listed_streams(&app, path).await.unwrap(), expected, "every paid ticket, virtual or physical");
    }
    // 14:30: the closing is on and comes first; the posters are over and come last.
    app.state.clock.set(datetime!(2025-03-23 06:30 UTC));
    let listed = listed_streams(&app, &physical).await.unwrap();
    assert_eq!(
        listed.iter().map(|(w, t, _)| (w.as_str(), t.as_str())).collect::<Vec<_>>(),
        [("Now", "Fixture closing"), ("Ended", "Lantern posters online")]
    );
    // 22 March, 08:00: both parallel sessions are next.
    app.state.clock.set(datetime!(2025-03-22 00:00 UTC));
    let listed = listed_streams(&app, &physical).await.unwrap();
    assert_eq!(
        listed.iter().map(|(w, t, _)| (w.as_str(), t.as_str())).collect::<Vec<_>>(),
        [("Next", "Fixture session A"), ("Next", "Fixture session B")]
    );

    // A refunded ticket lists none.
    let refunded = pay(&app, PRESENTER_VIRTUAL).await;
    let refunded_path = attendee_path(&app, &refunded).await;
    let cookie = sign_in(&app, CHAIR).await;
    assert_eq!(refund(&app, &cookie, &refunded).await.status, StatusCode::SEE_OTHER);
    assert_eq!(listed_streams(&app, &refunded_path).await, None);
    assert!(!app.page(&refunded_path).await.contains("stream.example.org"));
}

/// Every public address: the sitemap's, the exports and calendars, the collections' API, the
/// talks' calendars, robots.txt, the 404 page.
async fn public_urls(app: &TestApp) -> Vec<String> {
    let sitemap = app.get("/sitemap.xml").await.2;
    let mut urls: Vec<String> = sitemap
        .split("<loc>")
        .skip(1)
        .map(|rest| {
            let loc = rest.split("</loc>").next().unwrap().trim().replace("&amp;", "&");
            loc.strip_prefix(BASE).unwrap_or("/").to_owned()
        })
        .collect();
    assert!(urls.len() > 20, "the sitemap lists the site: {sitemap}");
    let talks: Vec<String> =
        crate::common::programme::PAPERS.iter().map(|p| format!("/schedule/talks/{}", p.slug)).collect();
    urls.extend(talks.iter().map(|t| format!("{t}.ics")));
    urls.extend(talks);
    urls.extend(STREAMED.iter().map(|s| format!("/schedule/sessions/{s}")));
    urls.extend(crate::common::COLLECTIONS.iter().map(|c| format!("/api/collections/{c}/records")));
    let agenda = crate::common::programme::PAPERS.iter().map(|p| p.slug).collect::<Vec<_>>().join(",");
    urls.extend(
        [
            "/schedule.ics",
            "/schedule.json",
            "/schedule.xml",
            "/calendar.ics",
            "/robots.txt",
            "/sitemap.xml",
            "/schedule/changes",
            "/no-such-page",
        ]
        .map(str::to_owned),
    );
    urls.push(format!("/schedule/agenda.ics?talks={agenda}"));
    urls.sort();
    urls.dedup();
    urls
}

#[tokio::test]
async fn stream_links_appear_in_no_public_answer() {
    let app = app_at(datetime!(2025-03-22 02:00 UTC)).await;
    crate::common::programme::publish_fixture_programme(&app).await;
    let cookie = sign_in(&app, CHAIR).await;
    for session in STREAMED {
        let reply = set_stream(&app, &cookie, session, &stream_url(session), "Backstage k7q2zv").await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER);
    }
    // The needle is findable: the attendee page of a paid ticket shows today's links.
    let id = pay(&app, PRESENTER_VIRTUAL).await;
    let attendee = app.page(&attendee_path(&app, &id).await).await;
    assert!(attendee.contains(&stream_url("session-a")), "{}", crate::common::excerpt(&attendee));

    let urls = public_urls(&app).await;
    // Twice each: the second answer may come from the page cache.
    for round in 0..2 {
        for url in &urls {
            for encoding in ["identity", "gzip"] {
                let reply = app.request(url, &[("accept-encoding", encoding)]).await;
                assert!(
                    reply.status == StatusCode::OK || url == "/no-such-page",
                    "{url}: {} (round {round})",
                    reply.status
                );
                let body = match reply.header("content-encoding") {
                    Some("gzip") => crate::common::inflate::gunzip(&reply.body),
                    _ => reply.body.clone(),
                };
                let body = String::from_utf8_lossy(&body);
                for needle in ["k7q2zv", "stream.example.org"] {
                    assert!(!body.contains(needle), "{url} ({encoding}, round {round}) shows a stream link");
                }
            }
        }
    }
}
