//! The checkout parts of `/pricing` and `/sponsorship` (issue 5, browser side): the island
//! mount points with the props the server gives them, what the pages say without JavaScript,
//! and that the price a card shows is the price the order is charged.

use serde_json::{Value, json};

use crate::common::app;
use crate::common::fixture::{self, LISTENER_VIRTUAL};
use crate::common::html::{ElementRef, by_id, first, parse, select, text};

/// The `data-island` element inside `card` with its parsed props.
fn island<'a>(card: ElementRef<'a>, name: &str) -> (ElementRef<'a>, Value) {
    let island = first(card, &format!("[data-island={name}]")).unwrap_or_else(|| panic!("a {name} island"));
    let props = serde_json::from_str(island.attr("data-props").expect("data-props")).expect("props are JSON");
    (island, props)
}

#[tokio::test]
async fn every_ticket_card_mounts_the_checkout_over_a_register_now_link() {
    let app = app().await;
    let page = parse(&app.page("/pricing").await);
    for fixture::Plan { id, title, cents, .. } in fixture::PLANS {
        let card = by_id(&page, &format!("plan-{id}")).unwrap_or_else(|| panic!("card {id}"));
        let (tag, props) = island(card, "TicketCheckout");
        assert_eq!(tag.attr("data-hydrate"), Some("intent"));
        assert_eq!(props["plan"], id);
        assert_eq!(props["title"], title);
        assert_eq!(props["amountCents"], cents);
        assert_eq!(props["currency"], "USD");
        assert!(props["contactEmail"].as_str().is_some_and(|e| e.contains('@')), "{props}");
        // The fallback inside the island: a link that works without JavaScript.
        let link = first(card, "a.button").expect("Register Now link");
        assert_eq!(link.attr("href"), Some(format!("/pricing?plan={id}#plan-{id}").as_str()));
        assert!(text(card).contains(&format!("Register Now for {title}")));
    }
    assert!(select(&page, ".checkout-note").is_empty(), "no JavaScript note unless a plan was chosen");
}

#[tokio::test]
async fn a_chosen_plan_without_javascript_says_how_to_register() {
    let app = app().await;
    let page = parse(&app.page("/pricing?plan=listener-virtual").await);
    let notes = select(&page, ".checkout-note");
    assert_eq!(notes.len(), 1, "one note, on the chosen card");
    let card = by_id(&page, "plan-listener-virtual").unwrap();
    let note = text(select(card, ".checkout-note")[0]);
    assert!(note.contains("JavaScript") && note.contains('@') && note.contains(LISTENER_VIRTUAL.title), "{note}");
    // Unknown plans and garbage in the query are ignored, not refused: this is a page.
    for path in ["/pricing?plan=vip", "/pricing?plan=%ZZ&amount", "/pricing?plan=a&plan=b"] {
        let page = parse(&app.page(path).await);
        assert!(select(&page, ".checkout-note").is_empty(), "{path}");
    }
}

#[tokio::test]
async fn the_custom_payment_form_works_without_javascript() {
    let app = app().await;
    let page = parse(&app.page("/pricing").await);
    let card = by_id(&page, "custom-payment").unwrap();
    let (_, props) = island(card, "CustomPayment");
    assert_eq!(props, json!({ "currency": "USD", "contactEmail": props["contactEmail"], "initialAmount": "" }));
    let input = by_id(card, "custom-amount").expect("amount input");
    assert_eq!((input.attr("type"), input.attr("min"), input.attr("step")), (Some("number"), Some("0"), Some("0.01")));
    assert!(select(card, ".custom-payment__breakdown").is_empty(), "no breakdown without an amount");

    // The form is a GET to /pricing: the server shows the breakdown the island would.
    let page = parse(&app.page("/pricing?amount=100").await);
    let card = by_id(&page, "custom-payment").unwrap();
    let breakdown = text(select(card, ".custom-payment__breakdown")[0]);
    assert_eq!(breakdown, "Amount USD 100.00 Tax (6%) USD 6.00 Total USD 106.00 5% of the fee goes to reforestation.");
    assert!(text(card).contains("JavaScript"));
    assert_eq!(island(card, "CustomPayment").1["initialAmount"], "100");

    // Exact decimal x 1.06, half up, rounded once (src/base/money.rs).
    for (amount, total) in [("0.25", "USD 0.27"), ("33.335", "USD 35.34"), ("2.3549", "USD 2.50")] {
        let page = parse(&app.page(&format!("/pricing?amount={amount}")).await);
        let card = by_id(&page, "custom-payment").unwrap();
        let total_row = text(select(card, ".custom-payment__total")[0]);
        assert_eq!(total_row, format!("Total {total}"), "amount {amount}");
    }

    for amount in ["", "0", "-5", "abc", "1e3"] {
        let page = parse(&app.page(&format!("/pricing?amount={amount}")).await);
        let card = by_id(&page, "custom-payment").unwrap();
        assert!(select(card, ".custom-payment__breakdown").is_empty(), "{amount:?}");
        assert!(text(card).contains("Please enter a valid amount"), "{amount:?}");
    }
}

#[tokio::test]
async fn every_sponsor_package_mounts_the_checkout_over_a_link() {
    let app = app().await;
    let page = parse(&app.page("/sponsorship").await);
    for fixture::Package { id, title, cents, .. } in fixture::PACKAGES {
        let card = by_id(&page, &format!("package-{id}")).unwrap_or_else(|| panic!("package {id}"));
        let (_, props) = island(card, "SponsorCheckout");
        assert_eq!(
            (&props["sponsorPackage"], &props["title"], &props["amountCents"]),
            (&json!(id), &json!(title), &json!(cents))
        );
        assert_eq!(props["currency"], "USD");
        let link = first(card, "a.button").expect("Sponsor now link");
        assert_eq!(link.attr("href"), Some(format!("/sponsorship?package={id}#package-{id}").as_str()));
    }
    assert!(select(&page, ".checkout-note").is_empty());
    let page = parse(&app.page("/sponsorship?package=gold").await);
    let note = select(by_id(&page, "package-gold").unwrap(), ".checkout-note");
    assert_eq!(note.len(), 1);
    assert!(text(note[0]).contains("JavaScript"));
    assert_eq!(select(&page, ".checkout-note").len(), 1);
}

/// What the server charged for the order it just created, in cents.
async fn charged(app: &crate::common::TestApp, payload: Value) -> i64 {
    let (status, body) = app.post_json("/api/ccavenue-initiate", &payload).await;
    assert_eq!(status, 201, "{payload}: {body}");
    let order_id = body["orderId"].as_str().expect("orderId");
    sqlx::query_scalar("SELECT amount_cents FROM orders WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(&app.pool)
        .await
        .expect("the order is stored")
}

#[tokio::test]
async fn the_price_a_card_shows_is_the_price_charged() {
    let app = app().await;
    // Prices live in the database; the page and the charge both follow a change.
    app.exec("UPDATE ticket_plans SET price_cents = 25000 WHERE id = 'presenter-virtual'").await;
    let billing = json!({
        "name": "Ada Lovelace", "email": "ada@example.org", "phone": "+12015550123",
        "zip": "62701", "country": "United States",
    });
    let with = |extra: Value| {
        let mut payload = billing.clone();
        payload.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        payload
    };

    let pricing = parse(&app.page("/pricing").await);
    for fixture::Plan { id, .. } in fixture::PLANS {
        let (_, props) = island(by_id(&pricing, &format!("plan-{id}")).unwrap(), "TicketCheckout");
        let shown = props["amountCents"].as_i64().unwrap();
        assert_eq!(charged(&app, with(json!({ "plan": id }))).await, shown, "{id}");
    }
    let (_, props) = island(by_id(&pricing, "plan-presenter-virtual").unwrap(), "TicketCheckout");
    assert_eq!(props["amountCents"], 25_000);

    let sponsorship = parse(&app.page("/sponsorship").await);
    let (_, props) = island(by_id(&sponsorship, "package-platinum").unwrap(), "SponsorCheckout");
    let sponsor = json!({ "sponsorPackage": "platinum", "name": "Acme", "email": "pay@acme.example" });
    assert_eq!(charged(&app, sponsor).await, props["amountCents"].as_i64().unwrap());

    // The custom total the page shows (here the no-JavaScript breakdown) is the one charged.
    for (amount, cents) in [("100", 10_600), ("33.335", 3_534), ("2.3549", 250)] {
        let page = parse(&app.page(&format!("/pricing?amount={amount}")).await);
        let shown = text(select(&page, ".custom-payment__total")[0]);
        assert_eq!(shown, format!("Total USD {}.{:02}", cents / 100, cents % 100));
        assert_eq!(charged(&app, with(json!({ "customAmount": amount }))).await, cents, "{amount}");
    }
}
