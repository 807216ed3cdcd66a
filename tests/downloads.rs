//! Every route answered whole under every `Accept-Encoding` a client sends (issue 30): over
//! real TCP through the accept loop, read by `reqwest` with its own decoders as a browser
//! reads it. Each CSV and paper download arrived cut off in browsers: the compression layer
//! polled the CSV's stream after its end, which panicked inside hyper's connection task.
//!
//! One table names a request for every route of `src/http/router.rs` (read from its source,
//! with the page table's paths), so a route added there without a row here fails the test.

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::time::Duration;

use axum::http::StatusCode;
use time::macros::datetime;

use crate::api_submission::{Form, submit};
use crate::common::programme::PAPERS;
use crate::common::{BASE, TestApp, app_with_clock, loopback};
use crate::connections::{Served, serve_app};
use crate::organiser::{CHAIR, sign_in};
use conference::clock::Clock;
use conference::handlers::page_table::TALK;

/// The review code of the table's paper, which the signed-in organiser also reviews.
const REVIEW_CODE: &str = "R-DL0001";

/// What clients send: none, each coding alone, and Chromium's own header.
const ENCODINGS: [&str; 5] = ["identity", "gzip", "br", "zstd", "gzip, deflate, br, zstd"];

/// Codings the server may answer with (it offers brotli and gzip; `deflate` and `zstd` never).
const SERVED_CODINGS: [&str; 2] = ["gzip", "br"];

/// Who asks: a visitor, or the signed-in organiser.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Who {
    Visitor,
    Organiser,
}

/// One request of the table: the route's pattern as the router declares it, and how to ask.
struct Row {
    route: &'static str,
    method: &'static str,
    url: String,
    who: Who,
}

fn get(route: &'static str, url: impl Into<String>, who: Who) -> Row {
    Row { route, method: "GET", url: url.into(), who }
}

/// A POST from the site's own page with an empty form and no session: the handler's answer
/// to bad input (or the sign-in pages' redirect), which changes nothing stored.
fn post(route: &'static str, url: impl Into<String>) -> Row {
    Row { route, method: "POST", url: url.into(), who: Who::Visitor }
}

/// The app of these tests behind the real accept loop on 127.0.0.1, with an organiser and a
/// fixed clock (answers must not change between the encodings of one row).
async fn serve() -> Served {
    let clock = Clock::fixed(datetime!(2025-03-01 09:30 UTC));
    let app = app_with_clock(
        |c| {
            c.organiser_email = Some(CHAIR.into());
            c.rate_limit_per_minute = 100_000;
        },
        clock,
    )
    .await;
    serve_app(app).await
}

/// What the table needs from the database: a submitted paper, a message, an order, a
/// subscriber, mails in the outbox, a material and an island asset.
struct Data {
    reference: String,
    paper: Vec<u8>,
    message_id: String,
    order_id: String,
    material: (String, String),
    asset: String,
    stylesheet: String,
    /// `/attendee/<token>` of a registration paid through the test gateway (issue 33).
    attendee: String,
}

async fn data(app: &TestApp) -> Data {
    let paper = crate::api_submission::pdf_of_size(300 * 1024);
    let form = Form::fields_only().file("paper.pdf", "application/pdf", paper.clone());
    let (status, answer) = submit(app, &form).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let reference = answer["reference"].as_str().unwrap().to_owned();
    // The organiser also reviews this paper (issue 32), under its review code.
    let reviewer = crate::common::review::add_reviewer(app, CHAIR, "Chair Reviewer", "", "").await;
    sqlx::query("UPDATE submissions SET review_code = $1 WHERE reference = $2")
        .bind(REVIEW_CODE)
        .bind(&reference)
        .execute(&app.pool)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO review_assignments (submission_id, reviewer_id, number, state, created, released_at) \
         SELECT id, $1, 1, 'released', '2025-02-20T00:00:00Z', '2025-02-20T00:00:00Z' FROM submissions WHERE reference = $2",
    )
    .bind(reviewer)
    .bind(&reference)
    .execute(&app.pool)
    .await
    .unwrap();
    let (status, answer) = app
        .post_json(
            "/api/contact",
            &serde_json::json!({
                "name": "Ana Cruz",
                "number": "+639171234567",
                "email": "ana@example.org",
                "country": "Philippines",
                "message": "Is a letter of invitation available for the conference?",
            }),
        )
        .await;
    assert!(status.is_success(), "{answer}");
    let (status, answer) = app.post_json("/api/newsletter", &serde_json::json!({"email": "ben@example.org"})).await;
    assert!(status.is_success(), "{answer}");
    let order_id = app.paid_order().await.to_owned();
    // A published programme, so a talk's page and calendars answer.
    crate::common::programme::publish_fixture_programme(app).await;
    let (message_id,): (String,) =
        sqlx::query_as("SELECT id FROM messages ORDER BY id LIMIT 1").fetch_one(&app.pool).await.unwrap();
    let material: (String, String) =
        sqlx::query_as("SELECT id, link FROM download_buttons ORDER BY id LIMIT 1").fetch_one(&app.pool).await.unwrap();
    let home = app.page("/").await;
    let at = home.find("src=\"/assets/").expect("the home page loads an island script") + "src=\"".len();
    let asset = home[at..].split('"').next().unwrap().to_owned();
    let marker = "<link rel=\"stylesheet\" href=\"";
    let at = home.find(marker).expect("the home page's stylesheet") + marker.len();
    let stylesheet = home[at..].split('"').next().unwrap().to_owned();
    let attendee = crate::attendee_documents::paid_attendee(app).await;
    Data { reference, paper, message_id, order_id, material, asset, stylesheet, attendee }
}

/// The table: a request for every route, and the downloads (every CSV, filtered too, the paper).
async fn table(app: &TestApp, data: &Data) -> Vec<Row> {
    use Who::{Organiser, Visitor};
    let mut rows = Vec::new();
    for (path, _) in app.page_paths().await {
        let route = conference::handlers::page_table::PAGES
            .iter()
            .find(|page| {
                page.path == path.split('?').next().unwrap()
                    || (page.path.contains('{') && path.starts_with(page.path.split('{').next().unwrap()))
            })
            .expect("a page of the table")
            .path;
        rows.push(get(route, path, Visitor));
    }
    let token = "A".repeat(43);
    let reference = &data.reference;
    // A certificate of the table's paper (issue 33 item 5), for its verify page and PDF.
    let certificate = "CERTDLCERTDLCERTDLCERTDL22";
    sqlx::query(
        "INSERT INTO certificates (code, email, holder_name, kind, submission_id, reference, title, release_number, \
         issued_at) SELECT $1, email, author_name, 'presentation', id, reference, paper_title, 1, '2025-03-25T00:00:00Z' \
         FROM submissions WHERE reference = $2 ON CONFLICT DO NOTHING",
    )
    .bind(certificate)
    .bind(reference)
    .execute(&app.pool)
    .await
    .unwrap();
    let (material_id, material_link) = &data.material;
    rows.extend([
        get("/sitemap.xml", "/sitemap.xml", Visitor),
        get("/robots.txt", "/robots.txt", Visitor),
        get("/calendar.ics", "/calendar.ics", Visitor),
        get("/schedule.ics", "/schedule.ics", Visitor),
        get("/schedule.xml", "/schedule.xml", Visitor),
        get("/schedule.json", "/schedule.json", Visitor),
        get(TALK, format!("/schedule/talks/{}", PAPERS[0].slug), Visitor),
        get(TALK, format!("/schedule/talks/{}.ics", PAPERS[0].slug), Visitor),
        get(
            "/schedule/agenda.ics",
            format!("/schedule/agenda.ics?talks={},{}", PAPERS[0].slug, PAPERS[2].slug),
            Visitor,
        ),
        get("/newsletter/confirm", "/newsletter/confirm?email=ben%40example.org&token=forged", Visitor),
        get("/newsletter/unsubscribe", "/newsletter/unsubscribe?email=ben%40example.org&token=forged", Visitor),
        post("/newsletter/unsubscribe", "/newsletter/unsubscribe?email=ben%40example.org&token=forged"),
        get("/submission/status/{token}", format!("/submission/status/{token}"), Visitor),
        post("/submission/status/{token}/withdraw", format!("/submission/status/{token}/withdraw")),
        post("/submission/status/{token}/programme", format!("/submission/status/{token}/programme")),
        // The camera-ready step (issue 44 item 1): the paper is not accepted, so the page and
        // its forms answer their refusal.
        get("/submission/status/{token}/camera-ready", format!("/submission/status/{token}/camera-ready"), Visitor),
        post("/submission/status/{token}/camera-ready/pdf", format!("/submission/status/{token}/camera-ready/pdf")),
        post(
            "/submission/status/{token}/camera-ready/details",
            format!("/submission/status/{token}/camera-ready/details"),
        ),
        post(
            "/submission/status/{token}/camera-ready/licence",
            format!("/submission/status/{token}/camera-ready/licence"),
        ),
        // The attendee's pages (issue 33): a forged link (404), "send my link again", the QR's
        // address.
        get("/attendee/{token}", format!("/attendee/{token}"), Visitor),
        post("/attendee/{token}", format!("/attendee/{token}")),
        get("/attendee", "/attendee", Visitor),
        post("/attendee", "/attendee"),
        get("/check-in/{code}", format!("/check-in/{}", "A".repeat(26)), Visitor),
        // Its PDFs (issue 33 items 1 and 7): a real link's ticket and receipt, a credit note
        // there is none of, and a forged link's.
        get("/attendee/{token}/ticket.pdf", format!("{}/ticket.pdf", data.attendee), Visitor),
        get("/attendee/{token}/receipt.pdf", format!("{}/receipt.pdf", data.attendee), Visitor),
        get("/attendee/{token}/credit-note.pdf", format!("{}/credit-note.pdf", data.attendee), Visitor),
        get("/attendee/{token}/ticket.pdf", format!("/attendee/{token}/ticket.pdf"), Visitor),
        get("/attendee/{token}/receipt.pdf", format!("/attendee/{token}/receipt.pdf"), Visitor),
        get("/attendee/{token}/credit-note.pdf", format!("/attendee/{token}/credit-note.pdf"), Visitor),
        get("/favicon.ico", "/favicon.ico", Visitor),
        get("/test-gateway", "/test-gateway", Visitor),
        post("/test-gateway", "/test-gateway"),
        get("/organiser", "/organiser", Organiser),
        get("/organiser", "/organiser", Visitor),
        post("/organiser/sign-in", "/organiser/sign-in"),
        get("/organiser/sign-in/{token}", format!("/organiser/sign-in/{token}"), Visitor),
        post("/organiser/sign-in/{token}", format!("/organiser/sign-in/{token}")),
        post("/organiser/sign-out", "/organiser/sign-out"),
        post("/organiser/sign-out-everywhere", "/organiser/sign-out-everywhere"),
        get("/organiser/submissions", "/organiser/submissions", Organiser),
        get("/organiser/submissions.csv", "/organiser/submissions.csv", Organiser),
        get("/organiser/submissions.csv", "/organiser/submissions.csv?paper_type=Full%20Paper&sort=title", Organiser),
        get("/organiser/submissions/{reference}", format!("/organiser/submissions/{reference}"), Organiser),
        get("/organiser/submissions/{reference}/paper", format!("/organiser/submissions/{reference}/paper"), Organiser),
        post("/organiser/submissions/{reference}/decision", format!("/organiser/submissions/{reference}/decision")),
        post("/organiser/submissions/decide", "/organiser/submissions/decide"),
        post("/organiser/submissions/decide/confirm", "/organiser/submissions/decide/confirm"),
        get("/organiser/decisions", "/organiser/decisions", Organiser),
        post("/organiser/decisions/apply", "/organiser/decisions/apply"),
        get("/organiser/decisions/applied", "/organiser/decisions/applied", Organiser),
        get(
            "/organiser/submissions/{reference}/conflict",
            format!("/organiser/submissions/{reference}/conflict"),
            Organiser,
        ),
        get("/organiser/programme", "/organiser/programme", Organiser),
        post("/organiser/programme/place", "/organiser/programme/place"),
        post("/organiser/programme/move", "/organiser/programme/move"),
        post("/organiser/programme/remove", "/organiser/programme/remove"),
        post("/organiser/programme/lock", "/organiser/programme/lock"),
        post("/organiser/programme/publish", "/organiser/programme/publish"),
        get("/organiser/programme/papers/{reference}", format!("/organiser/programme/papers/{reference}"), Organiser),
        post("/organiser/programme/papers/{reference}", format!("/organiser/programme/papers/{reference}")),
        // Review assignments (issue 32 item 4).
        get("/organiser/review/assignments", "/organiser/review/assignments", Organiser),
        post("/organiser/review/assignments/automatic", "/organiser/review/assignments/automatic"),
        get("/organiser/review/assignments/staged", "/organiser/review/assignments/staged", Organiser),
        post("/organiser/review/assignments/release", "/organiser/review/assignments/release"),
        post("/organiser/review/assignments/discard", "/organiser/review/assignments/discard"),
        get(
            "/organiser/review/assignments/{reference}",
            format!("/organiser/review/assignments/{reference}"),
            Organiser,
        ),
        post(
            "/organiser/review/assignments/{reference}/assign",
            format!("/organiser/review/assignments/{reference}/assign"),
        ),
        post(
            "/organiser/review/assignments/{reference}/unassign",
            format!("/organiser/review/assignments/{reference}/unassign"),
        ),
        post(
            "/organiser/review/assignments/{reference}/conflict",
            format!("/organiser/review/assignments/{reference}/conflict"),
        ),
        // The reviewers' area: without a reviewer's session, its sign-in pages.
        get("/review", "/review", Visitor),
        post("/review/sign-in", "/review/sign-in"),
        get("/review/sign-in/{token}", format!("/review/sign-in/{token}"), Visitor),
        post("/review/sign-in/{token}", format!("/review/sign-in/{token}")),
        post("/review/sign-out", "/review/sign-out"),
        // Reviewers (issue 32 item 1): the organisers' list; a forged invitation link.
        get("/organiser/reviewers", "/organiser/reviewers", Organiser),
        post("/organiser/reviewers/invite", "/organiser/reviewers/invite"),
        post("/organiser/reviewers/import", "/organiser/reviewers/import"),
        post("/organiser/reviewers/{id}/resend", "/organiser/reviewers/1/resend"),
        post("/organiser/reviewers/{id}/remove", "/organiser/reviewers/1/remove"),
        get("/review/invitation/{token}", format!("/review/invitation/{token}"), Visitor),
        post("/review/invitation/{token}", format!("/review/invitation/{token}")),
        // A paper the signed-in organiser reviews; the forms without a session.
        get("/review/papers/{code}", format!("/review/papers/{REVIEW_CODE}"), Organiser),
        get("/review/papers/{code}/paper", format!("/review/papers/{REVIEW_CODE}/paper"), Organiser),
        post("/review/papers/{code}/review", format!("/review/papers/{REVIEW_CODE}/review")),
        post("/review/papers/{code}/comments", format!("/review/papers/{REVIEW_CODE}/comments")),
        post("/review/papers/{code}/conflict", format!("/review/papers/{REVIEW_CODE}/conflict")),
        get("/organiser/messages", "/organiser/messages", Organiser),
        get("/organiser/messages.csv", "/organiser/messages.csv", Organiser),
        get("/organiser/messages.csv", "/organiser/messages.csv?status=read", Organiser),
        get("/organiser/messages/{id}", format!("/organiser/messages/{}", data.message_id), Organiser),
        post("/organiser/messages/{id}/answered", format!("/organiser/messages/{}/answered", data.message_id)),
        get("/organiser/orders", "/organiser/orders", Organiser),
        get("/organiser/orders.csv", "/organiser/orders.csv", Organiser),
        get("/organiser/orders.csv", "/organiser/orders.csv?status=success&payments_mode=test", Organiser),
        get("/organiser/orders/{order_id}", format!("/organiser/orders/{}", data.order_id), Organiser),
        post("/organiser/orders/{order_id}/note", format!("/organiser/orders/{}/note", data.order_id)),
        post("/organiser/orders/{order_id}/refund", format!("/organiser/orders/{}/refund", data.order_id)),
        get("/organiser/subscribers", "/organiser/subscribers", Organiser),
        get("/organiser/subscribers.csv", "/organiser/subscribers.csv", Organiser),
        get("/organiser/outbox", "/organiser/outbox", Organiser),
        get("/organiser/outbox.csv", "/organiser/outbox.csv", Organiser),
        get("/organiser/outbox.csv", "/organiser/outbox.csv?status=pending", Organiser),
        // The audit log grows with every download: these ask for what does not.
        get("/organiser/audit", "/organiser/audit?q=signed_in", Organiser),
        get("/organiser/audit.csv", "/organiser/audit.csv?q=signed_in", Organiser),
        // Certificates (issue 33 item 5): the verify page and the PDF; the organisers' page,
        // and its forms posted without a session.
        get("/certificates/{code}", format!("/certificates/{certificate}"), Visitor),
        get("/certificates/{code}", format!("/certificates/{certificate}.pdf"), Visitor),
        get("/organiser/certificates", "/organiser/certificates", Organiser),
        post("/organiser/certificates/release", "/organiser/certificates/release"),
        get(
            "/organiser/certificates/{code}/revoke",
            format!("/organiser/certificates/{certificate}/revoke"),
            Organiser,
        ),
        post("/organiser/certificates/{code}/revoke", format!("/organiser/certificates/{certificate}/revoke")),
        post("/organiser/certificates/{code}/reissue", format!("/organiser/certificates/{certificate}/reissue")),
        // Stream links (issue 33): the organisers' page; a form posted without a session.
        get("/organiser/streams", "/organiser/streams", Organiser),
        post("/organiser/streams/{session}", "/organiser/streams/session-a"),
        // The calendar's deadlines (issue 42): the page; its form posted without a session.
        get("/organiser/settings", "/organiser/settings", Organiser),
        post("/organiser/settings", "/organiser/settings"),
        // Deciding from the reviews (issue 32): the progress, "remind now" (no session: the
        // sign-in page) and the reviews' CSV.
        get("/organiser/review", "/organiser/review", Organiser),
        post("/organiser/review/remind/{id}", "/organiser/review/remind/1"),
        get("/organiser/reviews.csv", "/organiser/reviews.csv", Organiser),
        // The check-in desk (issue 33 item 3): the desk, a code posted without a session (the
        // sign-in page's redirect), the CSV, and the desk staff's sign-in.
        get("/organiser/check-in", "/organiser/check-in?q=a", Organiser),
        post("/organiser/check-in", "/organiser/check-in"),
        get("/organiser/check-in.csv", "/organiser/check-in.csv", Organiser),
        post("/organiser/check-in/sign-in", "/organiser/check-in/sign-in"),
        get("/organiser/check-in/sign-in/{token}", format!("/organiser/check-in/sign-in/{token}"), Visitor),
        post("/organiser/check-in/sign-in/{token}", format!("/organiser/check-in/sign-in/{token}")),
        post("/organiser/check-in/sign-out", "/organiser/check-in/sign-out"),
        get("/api/health", "/api/health", Visitor),
        get("/api/collections/{name}/records", "/api/collections/speakers/records", Visitor),
        get(
            "/api/files/{collection_id}/{id}/{filename}",
            format!("/api/files/download_buttons/{material_id}/{material_link}"),
            Visitor,
        ),
        post("/api/contact", "/api/contact"),
        post("/api/newsletter", "/api/newsletter"),
        post("/api/paper-submission", "/api/paper-submission"),
        post("/api/ccavenue-initiate", "/api/ccavenue-initiate"),
        post("/api/ccavenue-handle", "/api/ccavenue-handle"),
        get("/assets/{*path}", data.asset.clone(), Visitor),
        get("/assets/{*path}", data.stylesheet.clone(), Visitor),
        get("/static/{*path}", "/static/img/favicon.svg", Visitor),
        get("/static/{*path}", "/static/img/og-image.png", Visitor),
    ]);
    rows
}

/// The routes `src/http/router.rs` declares (`.route(PATH, ...)`, constants resolved from
/// their modules, the API's under `/api`), with the page table's.
fn declared_routes() -> BTreeSet<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let router = std::fs::read_to_string(format!("{root}/src/http/router.rs")).unwrap();
    let sources = rust_sources(&format!("{root}/src"));
    let api_block = router.find("let api = Router::new()").expect("the API's router in router.rs");
    let api_end = api_block + router[api_block..].find("\n    let ").unwrap();
    let mut routes: BTreeSet<String> =
        conference::handlers::page_table::PAGES.iter().map(|p| p.path.to_owned()).collect();
    let mut rest = router.as_str();
    let mut offset = 0;
    while let Some(at) = rest.find(".route(") {
        let start = at + ".route(".len();
        let argument = rest[start..].split(',').next().unwrap().trim().to_owned();
        let position = offset + at;
        if argument != "page.path" {
            let path = resolve(&argument, &router, &sources);
            let prefix = if (api_block..api_end).contains(&position) { "/api" } else { "" };
            routes.insert(format!("{prefix}{path}"));
        }
        offset += start;
        rest = &rest[start..];
    }
    routes
}

/// A `.route` argument's path: a string literal, or a `&str` constant named by its module
/// (through `use ... as ...` aliases and `pub use` re-exports) or imported by name.
fn resolve(argument: &str, router: &str, sources: &BTreeMap<String, String>) -> String {
    if let Some(literal) = argument.strip_prefix('"') {
        return literal.trim_end_matches('"').to_owned();
    }
    let (module, name) = argument.rsplit_once("::").map_or(("", argument), |(m, n)| (m, n));
    let module = module.rsplit("::").next().unwrap();
    let module = router
        .split([',', '{', '}'])
        .find_map(|item| item.trim().strip_suffix(&format!(" as {module}")).map(str::trim))
        .unwrap_or(module);
    let in_module = |file: &str| {
        module.is_empty() || file.ends_with(&format!("/{module}.rs")) || file.ends_with(&format!("/{module}/mod.rs"))
    };
    let wanted = format!("pub const {name}: &str = \"");
    let found: Vec<&String> =
        sources.iter().filter(|(file, text)| in_module(file) && text.contains(&wanted)).map(|(_, text)| text).collect();
    if let [text] = found[..] {
        let at = text.find(&wanted).unwrap() + wanted.len();
        return text[at..].split('"').next().unwrap().to_owned();
    }
    // `pub use super::other::NAME;` or `pub use super::other::{A, NAME};` in the module: the
    // constant of the module it names.
    let reexported = |line: &str| -> Option<String> {
        let used = line.trim().strip_prefix("pub use ")?.strip_suffix(';')?;
        if let Some((path, names)) = used.split_once("::{") {
            names.trim_end_matches('}').split(',').any(|n| n.trim() == name).then(|| path.to_owned())
        } else {
            used.strip_suffix(&format!("::{name}")).map(str::to_owned)
        }
    };
    let target = sources
        .iter()
        .filter(|(file, _)| !module.is_empty() && in_module(file))
        .flat_map(|(_, text)| text.lines())
        .find_map(reexported);
    let target = target.unwrap_or_else(|| panic!("the route constant {argument} names one `pub const` in src/"));
    resolve(&format!("{target}::{name}"), router, sources)
}

fn rust_sources(dir: &str) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.to_string_lossy().into_owned();
        if path.is_dir() {
            files.extend(rust_sources(&name));
        } else if name.ends_with(".rs") {
            files.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    files
}

/// One answer as the client got it: status, headers of the raw answer and the decoded body.
struct Got {
    status: StatusCode,
    raw_coding: Option<String>,
    raw_length: Option<u64>,
    body: Vec<u8>,
}

/// A client that follows no redirect and opens a connection per request.
fn client(decoders: bool) -> reqwest::Client {
    let builder = loopback::builder().timeout(Duration::from_secs(30));
    let builder = if decoders { builder } else { builder.no_gzip().no_brotli().no_deflate() };
    builder.build().unwrap()
}

async fn fetch(
    client: &reqwest::Client,
    addr: SocketAddr,
    row: &Row,
    cookie: &str,
    encoding: &str,
) -> reqwest::Response {
    let url = format!("http://{addr}{}", row.url);
    let request = if row.method == "GET" {
        client.get(&url)
    } else {
        client.post(&url).header("origin", BASE).header("content-type", "application/x-www-form-urlencoded").body("")
    };
    let request = request.header("accept-encoding", encoding);
    let request = if row.who == Who::Organiser { request.header("cookie", cookie) } else { request };
    request.send().await.unwrap_or_else(|err| panic!("{} {} ({encoding}): {err}", row.method, row.url))
}

/// `row` asked with `encoding`: once raw (its coding and length), once decoded by reqwest; the
/// decoded body must arrive whole (hyper fails a body cut short, chunked or by length).
async fn ask(
    clients: &(reqwest::Client, reqwest::Client),
    addr: SocketAddr,
    row: &Row,
    cookie: &str,
    encoding: &str,
) -> Got {
    let raw = fetch(&clients.0, addr, row, cookie, encoding).await;
    let raw_coding = raw.headers().get("content-encoding").map(|v| v.to_str().unwrap().to_owned());
    let raw_length = raw.headers().get("content-length").map(|v| v.to_str().unwrap().parse().unwrap());
    let raw_body =
        raw.bytes().await.unwrap_or_else(|err| panic!("{} {} ({encoding}) arrives whole: {err}", row.method, row.url));
    if let Some(length) = raw_length {
        assert_eq!(raw_body.len() as u64, length, "{} {} ({encoding}): Content-Length", row.method, row.url);
    }
    let decoded = fetch(&clients.1, addr, row, cookie, encoding).await;
    let status = decoded.status();
    assert!(
        decoded.headers().get("content-encoding").is_none(),
        "{} {} ({encoding}): a coding the client could not decode: {:?}",
        row.method,
        row.url,
        decoded.headers().get("content-encoding")
    );
    let body = decoded
        .bytes()
        .await
        .unwrap_or_else(|err| panic!("{} {} ({encoding}) decodes whole: {err}", row.method, row.url))
        .to_vec();
    Got { status, raw_coding, raw_length, body }
}

#[tokio::test]
async fn every_route_and_download_is_whole_under_every_accept_encoding() {
    let served = serve().await;
    let app = &served.app;
    let data = data(app).await;
    let cookie = sign_in(app, CHAIR).await;
    let rows = table(app, &data).await;

    let covered: BTreeSet<String> = rows.iter().map(|row| row.route.to_owned()).collect();
    let declared = declared_routes();
    let missing: Vec<&String> = declared.difference(&covered).collect();
    assert!(missing.is_empty(), "routes of src/http/router.rs without a row in tests/downloads.rs: {missing:?}");
    let stale: Vec<&String> = covered.difference(&declared).collect();
    assert!(stale.is_empty(), "rows of tests/downloads.rs for routes the router does not have: {stale:?}");

    let clients = (client(false), client(true));
    // Once each first: a message opened is marked read, a first view may differ from the next.
    for row in &rows {
        ask(&clients, served.addr, row, &cookie, "identity").await;
    }
    let mut compressed = BTreeSet::new();
    for row in &rows {
        let reference = ask(&clients, served.addr, row, &cookie, "identity").await;
        assert_eq!(reference.raw_coding, None, "{}: identity", row.url);
        for encoding in ENCODINGS {
            let got = ask(&clients, served.addr, row, &cookie, encoding).await;
            let what = format!("{} {} with Accept-Encoding: {encoding}", row.method, row.url);
            assert_eq!(got.status, reference.status, "{what}");
            assert!(
                got.body == reference.body,
                "{what}: the decoded body ({} bytes) is not the identity answer ({} bytes)",
                got.body.len(),
                reference.body.len()
            );
            if let Some(coding) = &got.raw_coding {
                assert!(
                    SERVED_CODINGS.contains(&coding.as_str()) && encoding.contains(coding.as_str()),
                    "{what}: {coding}"
                );
                compressed.insert(row.url.clone());
            }
        }
        if row.route.ends_with("/paper") {
            assert_eq!(reference.status, StatusCode::OK);
            assert_eq!(reference.body, data.paper, "the paper as it was submitted");
            assert_eq!(reference.raw_length, Some(data.paper.len() as u64), "the paper's length is sent");
        }
        if row.url.contains(".csv") {
            assert_eq!(reference.status, StatusCode::OK, "{}", row.url);
        }
        if row.url == format!("{}/ticket.pdf", data.attendee) || row.url == format!("{}/receipt.pdf", data.attendee) {
            assert_eq!(reference.status, StatusCode::OK, "{}", row.url);
            assert!(reference.body.starts_with(b"%PDF-"), "{} is a PDF", row.url);
            assert_eq!(reference.raw_length, Some(reference.body.len() as u64), "{}: its length is sent", row.url);
        }
    }
    // The downloads that were cut off are compressed, so the above tried them compressed.
    for url in ["/organiser/submissions.csv", "/organiser/orders.csv", "/organiser/audit.csv?q=signed_in"] {
        assert!(compressed.contains(url), "{url} is sent compressed to a browser");
    }
    for document in ["ticket.pdf", "receipt.pdf"] {
        let url = format!("{}/{document}", data.attendee);
        assert!(!compressed.contains(&url), "{url} is sent as drawn, never compressed");
    }
    for row in rows.iter().filter(|row| row.route.ends_with("/paper") || row.route.starts_with("/api/files/")) {
        assert!(!compressed.contains(&row.url), "{} is sent as it is stored, never compressed again", row.url);
    }

    served.stop().await;
}

/// A paper's bytes by range (tower-http's `ServeFile`): a browser resumes a cut download.
#[tokio::test]
async fn a_paper_resumes_from_a_byte_range_on_sqlite() {
    let served = serve().await;
    let app = &served.app;
    if app.engine() != conference::db::Engine::Sqlite {
        return; // PostgreSQL keeps papers in the database and sends them whole (with their length)
    }
    let data = data(app).await;
    let cookie = sign_in(app, CHAIR).await;
    let url = format!("http://{}/organiser/submissions/{}/paper", served.addr, data.reference);
    let answer = client(true)
        .get(&url)
        .header("cookie", &cookie)
        .header("range", "bytes=1000-")
        .header("accept-encoding", "gzip, deflate, br, zstd")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(answer.headers()["content-disposition"], format!("attachment; filename=\"{}.pdf\"", data.reference));
    assert_eq!(answer.headers()["content-type"], "application/pdf");
    assert_eq!(answer.bytes().await.unwrap().as_ref(), &data.paper[1000..]);
    served.stop().await;
}
