//! Messages and orders in the back office (issue 21 item 5): a message marked answered or
//! not with an internal note; an order's internal note; an order marked refunded (money
//! returned outside the site), in the dashboard totals, the export and the history; bad forms
//! 400, unknown items 404, and every new route refused without a session or from another
//! origin.

use axum::http::StatusCode;

use crate::common::html::{parse, select, text};
use crate::common::{BASE, Reply, TestApp};
use crate::organiser::{CHAIR, assert_refused_anonymous_and_foreign, organisers_app, sign_in};

async fn post(app: &TestApp, cookie: &str, path: &str, body: &str) -> Reply {
    app.post(path, "application/x-www-form-urlencoded", body.to_owned(), &[("origin", BASE), ("cookie", cookie)]).await
}

async fn get(app: &TestApp, cookie: &str, path: &str) -> Reply {
    app.request(path, &[("cookie", cookie)]).await
}

/// The rows of a page's history table: (who, what, change).
fn history(body: &str) -> Vec<(String, String, String)> {
    let page = parse(body);
    select(&page, "#history ~ div tbody tr")
        .into_iter()
        .map(|row| {
            let cells: Vec<String> = select(row, "td").into_iter().map(|c| text(c).trim().to_owned()).collect();
            (cells[1].clone(), cells[2].clone(), cells[3].clone())
        })
        .collect()
}

async fn message(app: &TestApp) -> &'static str {
    app.exec(
        "INSERT INTO messages (id, name, number, email, country, message, created)
         VALUES ('msg000000000001', 'Ana Cruz', '+639171234567', 'ana@example.org', 'Philippines', 'Is there a student rate?', '2025-03-01T09:00:00.000000Z')",
    )
    .await;
    "msg000000000001"
}

#[tokio::test]
async fn a_message_is_marked_answered_with_a_note_and_back() {
    let app = organisers_app().await;
    let id = message(&app).await;
    let cookie = sign_in(&app, CHAIR).await;
    let path = format!("/organiser/messages/{id}/answered");
    let saved = post(&app, &cookie, &path, "answered=yes&note=Sent+the+student+rate").await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text());
    assert_eq!(saved.header("location"), Some(format!("/organiser/messages/{id}").as_str()));
    let detail = get(&app, &cookie, &format!("/organiser/messages/{id}")).await;
    assert!(detail.text().contains(&format!("by {CHAIR}")), "who answered");
    assert!(detail.text().contains("Sent the student rate"));
    let list = get(&app, &cookie, "/organiser/messages").await;
    assert!(list.text().contains("<td>answered</td>"), "the list shows it");
    // Back to unanswered, note kept empty.
    assert_eq!(post(&app, &cookie, &path, "answered=no").await.status, StatusCode::SEE_OTHER);
    let (answered_at, note): (Option<String>, String) =
        sqlx::query_as("SELECT answered_at, note FROM messages WHERE id = $1")
            .bind(id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!((answered_at, note.as_str()), (None, ""));
    let detail = get(&app, &cookie, &format!("/organiser/messages/{id}")).await;
    let entries = history(&detail.text());
    assert_eq!(entries.len(), 2, "{entries:?}");
    assert_eq!(entries[0].0, CHAIR);
    assert_eq!(entries[0].1, "Message updated");
    assert!(entries[0].2.contains("Answered: No → Yes"), "{entries:?}");
    assert!(entries[0].2.contains("Note: None → Sent the student rate"), "{entries:?}");
    assert!(entries[1].2.contains("Answered: Yes → No"), "{entries:?}");

    for body in ["answered=maybe", "note=x", "answered=yes&answered=no"] {
        assert_eq!(post(&app, &cookie, &path, body).await.status, StatusCode::BAD_REQUEST, "{body}");
    }
    let long = format!("answered=yes&note={}", "a".repeat(2001));
    assert_eq!(post(&app, &cookie, &path, &long).await.status, StatusCode::BAD_REQUEST);
    let missing = post(&app, &cookie, "/organiser/messages/nope/answered", "answered=yes").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_order_gets_a_note_and_a_refund_recorded_by_hand() {
    let app = organisers_app().await;
    let order = app.paid_order().await;
    let cookie = sign_in(&app, CHAIR).await;
    let note = post(&app, &cookie, &format!("/organiser/orders/{order}/note"), "note=Invoice+sent+by+post").await;
    assert_eq!(note.status, StatusCode::SEE_OTHER);
    let dashboard = get(&app, &cookie, "/organiser").await;
    let paid_row = |body: &str| {
        let page = parse(body);
        let heading = select(&page, "h3").into_iter().find(|h| text(*h) == "Paid").expect("the paid table");
        let table = heading.next_siblings().find_map(scraper::ElementRef::wrap).unwrap();
        select(table, "tbody tr td").into_iter().map(|c| text(c).trim().to_owned()).collect::<Vec<_>>()
    };
    let before = paid_row(&dashboard.text());
    assert_eq!(before[2..], ["1".to_owned(), "USD 145.00".to_owned(), "0".to_owned()], "{before:?}");

    let refund = format!("/organiser/orders/{order}/refund");
    assert_eq!(post(&app, &cookie, &refund, "").await.status, StatusCode::BAD_REQUEST, "needs the confirmation");
    let refunded = post(&app, &cookie, &refund, "confirm=refunded").await;
    assert_eq!(refunded.status, StatusCode::SEE_OTHER, "{}", refunded.text());
    let again = post(&app, &cookie, &refund, "confirm=refunded").await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(again.text().contains("is marked refunded already"), "{}", again.text());
    let status: String = sqlx::query_scalar("SELECT status FROM orders WHERE order_id = $1")
        .bind(order)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(status, "success", "the payment's state is the gateway's");

    let after = paid_row(&get(&app, &cookie, "/organiser").await.text());
    assert_eq!(after[2..], ["0".to_owned(), "USD 0.00".to_owned(), "1 (USD 145.00)".to_owned()], "{after:?}");
    let detail = get(&app, &cookie, &format!("/organiser/orders/{order}")).await;
    assert!(detail.text().contains(&format!("by {CHAIR}, outside the site")));
    assert!(!detail.text().contains("Mark refunded"), "no second refund offered");
    let entries = history(&detail.text());
    let actions: Vec<&str> = entries.iter().map(|e| e.1.as_str()).collect();
    assert_eq!(actions, ["Note saved", "Refund recorded"]);
    assert!(entries[0].2.contains("Note: None → Invoice sent by post"), "{entries:?}");
    assert!(entries[1].2.contains("Refunded: No → Yes"), "{entries:?}");

    let csv = get(&app, &cookie, "/organiser/orders.csv").await;
    let mut reader = csv::Reader::from_reader(&csv.body[..]);
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    let record = reader.records().next().unwrap().unwrap();
    let cell = |name: &str| record[header.iter().position(|h| h == name).unwrap()].to_owned();
    assert!(cell("refunded_at").ends_with('Z'));
    assert_eq!(cell("refunded_by"), CHAIR);

    // An order that was never paid cannot be refunded; unknown orders are 404.
    app.exec(
        "INSERT INTO orders (order_id, kind, item_id, item_title, amount_cents, currency, status, billing_name, billing_email, created)
         VALUES ('ORD2', 'plan', 'x', 'X', 100, 'USD', 'initiated', 'B', 'b@example.org', '2025-03-01T08:00:00Z')",
    )
    .await;
    let unpaid = post(&app, &cookie, "/organiser/orders/ORD2/refund", "confirm=refunded").await;
    assert_eq!(unpaid.status, StatusCode::CONFLICT);
    assert!(unpaid.text().contains("was not paid"));
    assert_eq!(post(&app, &cookie, "/organiser/orders/NOPE/note", "note=x").await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        post(&app, &cookie, "/organiser/orders/NOPE/refund", "confirm=refunded").await.status,
        StatusCode::NOT_FOUND
    );
    let long = format!("note={}", "a".repeat(2001));
    assert_eq!(
        post(&app, &cookie, &format!("/organiser/orders/{order}/note"), &long).await.status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn the_new_routes_are_refused_without_a_session_or_from_another_origin() {
    let app = organisers_app().await;
    let id = message(&app).await;
    let order = app.paid_order().await;
    let cookie = sign_in(&app, CHAIR).await;
    let routes = [
        (format!("/organiser/messages/{id}/answered"), "answered=yes&note=x"),
        (format!("/organiser/orders/{order}/note"), "note=x"),
        (format!("/organiser/orders/{order}/refund"), "confirm=refunded"),
    ];
    for (path, body) in &routes {
        assert_refused_anonymous_and_foreign(&app, path, body, &cookie).await;
    }
    let (answered, note): (Option<String>, String) =
        sqlx::query_as("SELECT answered_at, note FROM messages").fetch_one(&app.pool).await.unwrap();
    assert_eq!((answered, note.as_str()), (None, ""));
    let (refunded, order_note): (Option<String>, String) =
        sqlx::query_as("SELECT refunded_at, note FROM orders").fetch_one(&app.pool).await.unwrap();
    assert_eq!((refunded, order_note.as_str()), (None, ""));
}
