//! A bounded fuzz run over every POST and GET API (issue 11): a few thousand generated
//! requests from a fixed seed (wrong JSON types, deep nesting, huge strings, invalid UTF-8,
//! bad percent-encoding, broken multipart, duplicate and oversized headers). No answer may
//! be a 5xx, nothing may panic, and a refused request (4xx) stores nothing: no row, no
//! queued mail, no paper or temp file.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderName, HeaderValue, Request};
use serde_json::{Value, json};

use crate::common::rng::Rng;
use crate::common::{BASE, TestApp, app_with};

/// Requests per run: enough to reach every generator many times, a few seconds in a debug
/// build.
const REQUESTS: usize = 2500;
const SEED: u64 = 0x5EED_2026_0011;

const STRINGS: &[&str] = &[
    "",
    " ",
    "Ana Cruz",
    "ana@example.org",
    "+639171234567",
    "\u{0}\u{0}\u{0}",
    "\u{1b}[31mred",
    "line\r\nbreak",
    "<script>alert(1)</script>",
    "=cmd|' /C calc'!A0",
    "%ZZ%",
    "ünïcödé 😀",
    "\u{202e}evil",
    "presenter-virtual",
    "platinum",
    "Abstract",
    "Oral",
    "linkedin",
    "100.50",
    "-1",
    "1e309",
    "NaN",
];

const FIELDS: &[&str] = &[
    "name",
    "number",
    "email",
    "country",
    "message",
    "plan",
    "customAmount",
    "sponsorPackage",
    "phone",
    "address",
    "city",
    "state",
    "zip",
    "paperType",
    "_gotcha",
    "encResp",
    "orderNo",
];

fn string(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => "x".repeat(70_000),
        1 => (0..rng.below(40)).map(|_| char::from_u32(rng.below(0x3000) as u32).unwrap_or('?')).collect(),
        _ => (*rng.pick(STRINGS)).to_owned(),
    }
}

fn value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 3 { 5 } else { 8 }) {
        0 => Value::Null,
        1 => json!(rng.chance(50)),
        2 => json!(rng.next() as i64),
        3 => json!(f64::from(rng.below(100_000) as u32) / 7.0),
        4 => json!(string(rng)),
        5 => Value::Array((0..rng.below(4)).map(|_| value(rng, depth + 1)).collect()),
        _ => {
            let mut map = serde_json::Map::new();
            for _ in 0..rng.below(5) {
                map.insert((*rng.pick(FIELDS)).to_owned(), value(rng, depth + 1));
            }
            Value::Object(map)
        }
    }
}

fn valid_contact() -> Value {
    json!({"name": "Ana Cruz", "number": "+639171234567", "email": "ana@example.org", "country": "Philippines", "message": "Hello"})
}

fn valid_checkout() -> Value {
    json!({"plan": "presenter-virtual", "name": "Ana Cruz", "email": "ana@example.org", "phone": "+639171234567",
           "address": "1 Road", "city": "Manila", "state": "NCR", "zip": "1000", "country": "Philippines"})
}

/// A JSON-ish body: a valid payload with one field changed, a random value, deep nesting,
/// invalid UTF-8, cut-off JSON, bad form encoding, or nothing.
fn json_body(rng: &mut Rng, base: Value) -> Vec<u8> {
    match rng.below(8) {
        0 | 1 => {
            let mut body = base;
            let field = (*rng.pick(FIELDS)).to_owned();
            body[field] = value(rng, 0);
            body.to_string().into_bytes()
        }
        2 => value(rng, 0).to_string().into_bytes(),
        3 => {
            let depth = 1 + rng.below(20_000);
            let open = if rng.chance(50) { "[" } else { "{\"a\":" };
            format!("{}1{}", open.repeat(depth), if open == "[" { "]" } else { "}" }.repeat(depth)).into_bytes()
        }
        4 => {
            let mut bytes = base.to_string().into_bytes();
            let at = rng.below(bytes.len());
            bytes.splice(at..at, [0xFF, 0xFE, 0xC3]);
            bytes
        }
        5 => {
            let bytes = base.to_string().into_bytes();
            let cut = rng.below(bytes.len());
            bytes[..cut].to_vec()
        }
        6 => b"name=%ZZ&email=%&message=%E2%82&number=%00%01&country=a%2".to_vec(),
        _ => Vec::new(),
    }
}

/// A multipart body: the paper form's fields (some broken) and a file of a random kind.
fn multipart_body(rng: &mut Rng, boundary: &str) -> Vec<u8> {
    let mut body = Vec::new();
    // The form's text fields, the honeypot, the file and a nameless part.
    let names: Vec<&str> =
        conference::submissions::fields::FIELD_NAMES.into_iter().chain(["_gotcha", "file", ""]).collect();
    for _ in 0..rng.below(18) {
        let name = *rng.pick(&names);
        let quoted = if rng.chance(5) { name.replace('e', "\"\r\n") } else { name.to_owned() };
        if name == "file" {
            body.extend(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{}\"\r\nContent-Type: application/pdf\r\n\r\n", string(rng).chars().take(50).collect::<String>()).bytes());
            let content: Vec<u8> = match rng.below(5) {
                0 => b"%PDF-1.4\n%%EOF\n".to_vec(),
                1 => vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0, 0],
                2 => b"PK\x03\x04garbage".to_vec(),
                3 => (0..rng.below(3000)).map(|_| rng.next() as u8).collect(),
                _ => b"<html>%PDF-1.4 %%EOF".to_vec(),
            };
            body.extend(content);
            body.extend(b"\r\n");
        } else {
            body.extend(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{quoted}\"\r\n\r\n").bytes());
            if rng.chance(10) {
                body.extend([0xFF, 0xC0, 0x80]);
            } else {
                body.extend(string(rng).bytes());
            }
            body.extend(b"\r\n");
        }
    }
    if rng.chance(80) {
        body.extend(format!("--{boundary}--\r\n").bytes());
    }
    body
}

fn get_path(rng: &mut Rng) -> String {
    let collections = [
        "dates",
        "committee",
        "schedule",
        "speakers",
        "co_organizers_img",
        "download_buttons",
        "nope",
        "%ZZ",
        "..%2F..%2Fetc",
    ];
    let queries = [
        "",
        "?page=1&perPage=500",
        "?page=0",
        "?perPage=501",
        "?page=%ZZ",
        "?sort=-created",
        "?sort=nope",
        "?page=99999999999999999999",
        "?perPage=-1&page=1e3",
        "?%FF=%FE",
        "?page=1&page=2",
    ];
    match rng.below(6) {
        0 | 1 => format!("/api/collections/{}/records{}", rng.pick(&collections), rng.pick(&queries)),
        2 => format!(
            "/api/files/{}/{}/{}",
            rng.pick(&collections),
            rng.pick(&["1", "%00", "-1", "x"]),
            rng.pick(&["a.pdf", "%2e%2e", "..", "%ZZ"])
        ),
        3 => "/api/health".to_owned(),
        4 => (*rng.pick(&[
            "/api/%ZZ",
            "/api/collections",
            "/api/files/%FF",
            "/api/nope?%",
            "/highlights/%ZZ",
            "/Success?order=%FF",
            "/Failed?order=ORD1",
        ]))
        .to_owned(),
        _ => format!("/api/collections/dates/records{}", rng.pick(&queries)),
    }
}

/// What a refused request must not change.
async fn stored(app: &TestApp) -> (Vec<i64>, usize) {
    let mut counts = Vec::new();
    for table in ["messages", "subscribers", "submissions", "orders", "outbox"] {
        counts.push(app.count(table).await);
    }
    let files = std::fs::read_dir(app.dir.path().join("papers")).map(|d| d.count()).unwrap_or(0);
    (counts, files)
}

#[tokio::test]
async fn thousands_of_hostile_requests_get_clear_answers_and_store_nothing_when_refused() {
    let app = app_with(|c| c.rate_limit_per_minute = 1_000_000).await;
    let mut rng = Rng(SEED);
    let posts = [
        "/api/contact",
        "/api/newsletter",
        "/api/paper-submission",
        "/api/ccavenue-initiate",
        "/api/ccavenue-handle",
        "/test-gateway",
    ];
    let content_types = [
        "application/json",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=b0undary",
        "multipart/form-data",
        "text/plain",
        "application/json; charset=latin1",
        "",
        "\u{7f}bad",
    ];
    let mut statuses = std::collections::BTreeMap::new();
    let mut before = stored(&app).await;
    for i in 0..REQUESTS {
        let get = rng.chance(25);
        let (path, body, content_type) = if get {
            (get_path(&mut rng), Vec::new(), String::new())
        } else {
            let path = (*rng.pick(&posts)).to_owned();
            let content_type = (*rng.pick(&content_types)).to_owned();
            let body = if path == "/api/paper-submission" && rng.chance(70) {
                multipart_body(&mut rng, "b0undary")
            } else if path == "/api/ccavenue-initiate" {
                json_body(&mut rng, valid_checkout())
            } else if path == "/api/ccavenue-handle" || path == "/test-gateway" {
                let enc: String =
                    (0..rng.below(300)).map(|_| *rng.pick(&['a', 'f', '0', '9', '%', 'Z', '&', '='])).collect();
                format!("encResp={enc}&orderNo={}", string(&mut rng).chars().take(40).collect::<String>()).into_bytes()
            } else {
                json_body(&mut rng, valid_contact())
            };
            let content_type = if path == "/api/paper-submission" && rng.chance(70) {
                "multipart/form-data; boundary=b0undary".to_owned()
            } else {
                content_type
            };
            (path, body, content_type)
        };
        let method = if get { "GET" } else { "POST" };
        let Ok(mut request) = Request::builder().method(method).uri(&path).body(Body::from(body.clone())) else {
            continue; // a path the HTTP parser itself would refuse
        };
        let headers = request.headers_mut();
        if let Ok(value) = HeaderValue::from_str(&content_type)
            && !content_type.is_empty()
        {
            headers.append("content-type", value);
        }
        match rng.below(6) {
            0 => {}
            1 => {
                headers.append("origin", HeaderValue::from_static(BASE));
                headers.append("origin", HeaderValue::from_static("https://evil.example"));
            }
            2 => {
                headers.append("origin", HeaderValue::from_static("null"));
            }
            _ => {
                headers.append("origin", HeaderValue::from_static(BASE));
            }
        }
        if rng.chance(15) {
            headers.append("content-type", HeaderValue::from_static("text/plain"));
        }
        if rng.chance(10) {
            headers
                .append(HeaderName::from_static("x-padding"), HeaderValue::from_str(&"p".repeat(16 * 1024)).unwrap());
        }
        if rng.chance(15) {
            headers.append("accept", HeaderValue::from_static("text/html"));
            headers.append("referer", HeaderValue::from_static("http://127.0.0.1:3000/\\evil.example"));
        }
        if rng.chance(10) {
            let declared = if rng.chance(50) { "99999999999".to_owned() } else { body.len().to_string() };
            headers.insert("content-length", HeaderValue::from_str(&declared).unwrap());
        }
        request.extensions_mut().insert(ConnectInfo(SocketAddr::from(([10, 1, (i % 250) as u8, 1], 40000))));
        let reply = app.send(request).await;
        let status = reply.status.as_u16();
        *statuses.entry(status).or_insert(0usize) += 1;
        assert!(status < 500, "request {i}: {method} {path} ({content_type}) -> {status}: {}", reply.text());
        let after = stored(&app).await;
        if status >= 400 {
            assert_eq!(after, before, "request {i}: {method} {path} was refused with {status} but stored something");
        }
        before = after;
    }
    // The run reached the refusals it was meant to reach.
    for expected in [400, 403, 404, 413, 415, 422] {
        assert!(statuses.contains_key(&expected), "no {expected} in {statuses:?}");
    }
}
