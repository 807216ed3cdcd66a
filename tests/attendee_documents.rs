//! The attendee's documents as PDFs (issue 33 items 1 and 7): the ticket, the receipt and a
//! refund's credit note, downloaded from the attendee page behind its token. Each PDF is read
//! back with lopdf as a reader would: it parses, its page says what it should, and every font
//! it uses is embedded, so it prints the same everywhere.

use axum::http::StatusCode;
use serde_json::json;
use time::macros::datetime;

use conference::ccavenue::crypto;
use conference::clock::Clock;
use conference::payments::config::TEST_WORKING_KEY;

use crate::common::fixture::{self, LISTENER_PHYSICAL, PRESENTER_VIRTUAL, Plan};
use crate::common::html::{by_id, parse};
use crate::common::payments::{answer, checkout, initiate, location, outbox, send_answer};
use crate::common::pdf::{fonts_not_embedded, pages};
use crate::common::{BASE, Reply, TestApp, app_with_clock};
use crate::organiser::{CHAIR, sign_in};

/// An app a week before the name-change deadline, with [`CHAIR`] an organiser.
async fn app() -> TestApp {
    app_with_clock(
        |c| {
            c.rate_limit_per_minute = 100_000;
            c.organiser_email = Some(CHAIR.into());
        },
        Clock::fixed(datetime!(2025-03-07 09:00 UTC)),
    )
    .await
}

/// A paid order for `plan`, through the test gateway's answer; its id.
async fn pay(app: &TestApp, plan: Plan) -> String {
    let id = initiate(app, &checkout(json!({ "plan": plan.id }))).await.order_id;
    let success = crypto::encrypt(&answer(&id, "Success", plan.amount, "USD").to_query_string(), TEST_WORKING_KEY);
    let reply = send_answer(app, &success, &id).await;
    assert_eq!(location(&reply), format!("/Success?order={id}"), "{}", reply.text());
    id
}

/// The attendee page's path from `order_id`'s receipt mail.
async fn attendee_path(app: &TestApp, order_id: &str) -> String {
    let key = format!("receipt:{order_id}");
    let mails = outbox(app).await;
    let mail = mails.iter().find(|m| m.4.as_deref() == Some(key.as_str())).expect("the receipt mail");
    let marker = format!("{BASE}/attendee/");
    let at = mail.2.find(&marker).expect("the attendee link in the receipt mail") + marker.len();
    let token: String =
        mail.2[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    format!("/attendee/{token}")
}

/// GET `path` as Chromium asks (it offers brotli and gzip).
async fn download(app: &TestApp, path: &str) -> Reply {
    app.request(path, &[("accept-encoding", "gzip, deflate, br, zstd")]).await
}

/// A whole PDF download, as the attendee pages answer: private, named, its length sent.
fn assert_pdf_download(reply: &Reply, filename: &str) {
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/pdf"));
    assert_eq!(reply.header("content-disposition"), Some(format!("attachment; filename=\"{filename}\"").as_str()));
    assert_eq!(reply.header("cache-control"), Some("private, no-store"));
    assert_eq!(reply.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(reply.header("x-robots-tag"), Some("noindex"));
    assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(reply.header("content-encoding"), None, "a PDF is sent as drawn, never compressed again");
    assert_eq!(reply.header("content-length"), Some(reply.body.len().to_string().as_str()), "whole, with its length");
    assert!(reply.body.starts_with(b"%PDF-"), "a PDF");
    let tail = &reply.body[reply.body.len().saturating_sub(8)..];
    assert!(tail.windows(5).any(|w| w == b"%%EOF"), "the PDF ends where it should: {tail:?}");
    let (missing, fonts) = fonts_not_embedded(&reply.body);
    assert!(fonts > 0 && missing.is_empty(), "every font embedded: {missing:?} of {fonts}");
}

fn assert_shows(text: &str, expected: &[&str]) {
    for shown in expected {
        assert!(text.contains(shown), "the PDF shows {shown:?}: {text}");
    }
}

#[tokio::test]
async fn the_attendee_page_links_the_ticket_and_receipt_pdfs_which_show_what_the_page_shows() {
    let app = app().await;
    let id = pay(&app, LISTENER_PHYSICAL).await;
    let path = attendee_path(&app, &id).await;
    let page = app.page(&path).await;
    let doc = parse(&page);
    let number = format!("{}-2025-000001", fixture::RECEIPT_PREFIX);
    let ticket_link = by_id(&doc, "ticket-pdf").expect("the ticket's download link");
    assert_eq!(ticket_link.value().attr("href"), Some(format!("{path}/ticket.pdf").as_str()));
    let receipt_link = by_id(&doc, &format!("pdf-{number}")).expect("the receipt's download link");
    assert_eq!(receipt_link.value().attr("href"), Some(format!("{path}/receipt.pdf").as_str()));
    assert!(page.contains(&format!("Download receipt {number} (PDF)")));

    let (code,): (String,) =
        sqlx::query_as("SELECT code FROM tickets WHERE order_id = $1").bind(&id).fetch_one(&app.pool).await.unwrap();
    let ticket = download(&app, &format!("{path}/ticket.pdf")).await;
    assert_pdf_download(&ticket, &format!("ticket-{id}.pdf"));
    let pages = pages(&ticket.body);
    assert_eq!(pages.len(), 1, "one page");
    assert_shows(
        &pages[0],
        &[
            LISTENER_PHYSICAL.title,
            "Ximena Quilla Oyelaran",
            "In person, at the venue",
            &id,
            "Show this code at the registration desk.",
            &format!("{BASE}/check-in/{code}"),
        ],
    );

    let receipt = download(&app, &format!("{path}/receipt.pdf")).await;
    assert_pdf_download(&receipt, &format!("{number}.pdf"));
    let pages = self::pages(&receipt.body);
    assert_eq!(pages.len(), 1, "one page");
    assert_shows(
        &pages[0],
        &[
            "Receipt",
            &number,
            fixture::SELLER_NAME,
            &format!("Tax number: {}", fixture::SELLER_TAX_NUMBER),
            "77 Orchard Lane",
            "ximena.oyelaran@example.net",
            "Registration ticket: Harbour Guest",
            "USD 125.00",
            "7 March 2025",
            &id,
            "PAID",
        ],
    );
    assert!(!pages[0].contains("cancels"), "a receipt cites nothing");

    // No refund, no credit note: the page, with a 404 and a word.
    let (status, _, none) = app.get(&format!("{path}/credit-note.pdf")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(none.contains("There is no such document for this registration"), "{}", crate::common::excerpt(&none));
}

#[tokio::test]
async fn a_receipt_is_the_same_bytes_on_every_download_whatever_changes_later() {
    let app = app().await;
    let id = pay(&app, PRESENTER_VIRTUAL).await;
    let path = attendee_path(&app, &id).await;
    let first = download(&app, &format!("{path}/receipt.pdf")).await;
    assert_eq!(first.status, StatusCode::OK);
    // The seller moves and the buyer's order is edited: the issued receipt does not follow.
    app.exec("UPDATE site SET seller_name = 'Another Society', seller_address = 'Elsewhere 1'").await;
    app.exec(&format!("UPDATE orders SET billing_name = 'Somebody Else' WHERE order_id = '{id}'")).await;
    let again = download(&app, &format!("{path}/receipt.pdf")).await;
    assert_eq!(again.status, StatusCode::OK);
    assert!(first.body == again.body, "the same bytes ({} and {})", first.body.len(), again.body.len());
    assert!(!pages(&again.body)[0].contains("Another Society"));
}

#[tokio::test]
async fn a_refund_brings_the_credit_note_pdf_citing_the_receipt_and_takes_the_ticket_pdf_away() {
    let app = app().await;
    let id = pay(&app, LISTENER_PHYSICAL).await;
    let path = attendee_path(&app, &id).await;
    let receipt_before = download(&app, &format!("{path}/receipt.pdf")).await;
    let cookie = sign_in(&app, CHAIR).await;
    let reply = app
        .post(
            &format!("/organiser/orders/{id}/refund"),
            "application/x-www-form-urlencoded",
            "confirm=refunded",
            &[("origin", BASE), ("cookie", &cookie)],
        )
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    let receipt = format!("{}-2025-000001", fixture::RECEIPT_PREFIX);
    let note = format!("{}-2025-000002", fixture::RECEIPT_PREFIX);

    let page = app.page(&path).await;
    let doc = parse(&page);
    let link = by_id(&doc, &format!("pdf-{note}")).expect("the credit note's download link");
    assert_eq!(link.value().attr("href"), Some(format!("{path}/credit-note.pdf").as_str()));
    assert!(by_id(&doc, "ticket-pdf").is_none(), "no ticket to download once refunded");

    let credit = download(&app, &format!("{path}/credit-note.pdf")).await;
    assert_pdf_download(&credit, &format!("{note}.pdf"));
    let text = &pages(&credit.body)[0];
    assert_shows(
        text,
        &["Credit note", &note, &format!("This credit note cancels receipt {receipt}"), "CREDITED", "USD 125.00", &id],
    );
    assert!(!text.contains("PAID"), "{text}");
    let receipt_after = download(&app, &format!("{path}/receipt.pdf")).await;
    assert!(receipt_after.body == receipt_before.body, "the receipt stays as issued");

    let ticket = download(&app, &format!("{path}/ticket.pdf")).await;
    assert_eq!(ticket.status, StatusCode::NOT_FOUND, "a refunded ticket is no longer valid");
    assert_eq!(ticket.header("content-type"), Some("text/html; charset=utf-8"));
}

#[tokio::test]
async fn wrong_foreign_and_malformed_tokens_download_nothing() {
    let app = app().await;
    let id = pay(&app, PRESENTER_VIRTUAL).await;
    let path = attendee_path(&app, &id).await;
    let token = path.strip_prefix("/attendee/").unwrap().to_owned();
    let other = pay(&app, LISTENER_PHYSICAL).await;
    let other_token = attendee_path(&app, &other).await.strip_prefix("/attendee/").unwrap().to_owned();
    let (stored,): (String,) =
        sqlx::query_as("SELECT token_hash FROM attendee_links LIMIT 1").fetch_one(&app.pool).await.unwrap();
    let mut flipped = token.clone().into_bytes();
    flipped[10] = if flipped[10] == b'A' { b'B' } else { b'A' };
    let wrong = String::from_utf8(flipped).unwrap();
    for document in ["ticket.pdf", "receipt.pdf", "credit-note.pdf"] {
        let real = download(&app, &format!("{path}/{document}")).await;
        assert_ne!(real.header("content-type"), Some("text/html"), "{document}");
        for bad in [wrong.as_str(), &stored, &"A".repeat(43), &token[..42], &format!("{token}A"), "%00", "not-a-token"]
        {
            let url = format!("/attendee/{bad}/{document}");
            let reply = download(&app, &url).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{url}");
            assert_eq!(reply.header("cache-control"), Some("private, no-store"), "{url}");
            assert_eq!(reply.header("x-robots-tag"), Some("noindex"), "{url}");
            assert_eq!(reply.header("referrer-policy"), Some("no-referrer"), "{url}");
            assert!(!reply.body.starts_with(b"%PDF"), "{url}");
            let (_, _, text) = app.get(&url).await;
            for private in ["Ximena", &id, &other, PRESENTER_VIRTUAL.title] {
                assert!(!text.contains(private), "{url} shows nothing of a ticket ({private})");
            }
        }
    }
    // Each token opens its own order's documents, never another's.
    let mine = download(&app, &format!("{path}/receipt.pdf")).await;
    let theirs = download(&app, &format!("/attendee/{other_token}/receipt.pdf")).await;
    assert!(pages(&mine.body)[0].contains(&id) && !pages(&mine.body)[0].contains(&other));
    assert!(pages(&theirs.body)[0].contains(&other) && !pages(&theirs.body)[0].contains(&id));
}

/// The attendee page's path of a physical registration paid through the test gateway (for
/// tests/downloads.rs).
pub async fn paid_attendee(app: &TestApp) -> String {
    let id = pay(app, LISTENER_PHYSICAL).await;
    attendee_path(app, &id).await
}
