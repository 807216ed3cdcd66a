//! The back office's lists (DESIGN.md section 12, issue 20 item 4): each list, filter,
//! search and detail page on the fixture seed plus rows sent through the public forms or
//! written here; the CSV of a filtered view holds exactly the table's rows; bad filter values
//! are a 400 page; and no list, detail, download or CSV answers data without a live session.

use axum::http::StatusCode;
use time::macros::datetime;

use crate::api_submission::{Form, submit};
use crate::common::TestApp;
use crate::common::html::{parse, select, text};
use crate::organiser::{CHAIR, organisers_app, organisers_app_at, sign_in};
use conference::clock::Clock;

/// GET `path` with the session `cookie`.
async fn get(app: &TestApp, cookie: &str, path: &str) -> crate::common::Reply {
    app.request(path, &[("cookie", cookie)]).await
}

/// The cells of each row of a list page's table (rows that say "Nothing matches" excepted).
fn table(body: &str) -> Vec<Vec<String>> {
    let page = parse(body);
    select(&page, ".organiser__table-wrap tbody tr")
        .into_iter()
        .map(|row| select(row, "td").into_iter().map(|cell| text(cell).trim().to_owned()).collect::<Vec<_>>())
        .filter(|cells| cells.len() > 1)
        .collect()
}

/// The records of a CSV answer (header first).
fn csv_records(body: &str) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(body.as_bytes());
    reader.records().map(|r| r.unwrap().iter().map(str::to_owned).collect()).collect()
}

/// Submits a paper through the public form; its reference.
async fn submit_paper(app: &TestApp, email: &str, title: &str, paper_type: &str) -> String {
    let form = Form::valid().with("email", email).with("paperTitle", title).with("paperType", paper_type);
    let (status, answer) = submit(app, &form).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    answer["reference"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn submissions_filter_search_sort_detail_paper_and_csv() {
    let app = organisers_app().await;
    let abstract_ref = submit_paper(&app, "ana@example.org", "Tidal lanterns at 50% brightness", "Abstract").await;
    let full_ref = submit_paper(&app, "ben@example.org", "Harbour computing", "Full Paper").await;
    let cookie = sign_in(&app, CHAIR).await;

    let all = get(&app, &cookie, "/organiser/submissions").await;
    assert_eq!(all.status, StatusCode::OK, "{}", all.text());
    assert_eq!(all.header("cache-control"), Some("private, no-store"));
    let rows = table(&all.text());
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0][0], full_ref, "newest first by default");

    let only = |rows: Vec<Vec<String>>| rows.into_iter().map(|r| r[0].clone()).collect::<Vec<_>>();
    let abstracts = get(&app, &cookie, "/organiser/submissions?paper_type=Abstract").await;
    assert_eq!(only(table(&abstracts.text())), [abstract_ref.as_str()]);
    let searched = get(&app, &cookie, "/organiser/submissions?q=HARBOUR").await;
    assert_eq!(only(table(&searched.text())), [full_ref.as_str()], "search ignores letter case");
    let by_mail = get(&app, &cookie, "/organiser/submissions?q=ana%40example").await;
    assert_eq!(only(table(&by_mail.text())), [abstract_ref.as_str()]);
    let by_reference = get(&app, &cookie, &format!("/organiser/submissions?q={}", &full_ref[7..])).await;
    assert_eq!(only(table(&by_reference.text())), [full_ref.as_str()]);
    // LIKE's wildcards match themselves: `%` finds the title with a percent sign only.
    let percent = get(&app, &cookie, "/organiser/submissions?q=%25").await;
    assert_eq!(only(table(&percent.text())), [abstract_ref.as_str()]);
    let underscore = get(&app, &cookie, "/organiser/submissions?q=_").await;
    assert!(table(&underscore.text()).is_empty());
    let by_title = get(&app, &cookie, "/organiser/submissions?sort=title&dir=asc").await;
    assert_eq!(only(table(&by_title.text())), [full_ref.as_str(), abstract_ref.as_str()]);
    let today = time::OffsetDateTime::now_utc().date();
    let later = today + time::Duration::days(1);
    let in_range = get(&app, &cookie, &format!("/organiser/submissions?from={today}&to={today}")).await;
    assert_eq!(table(&in_range.text()).len(), 2, "`to` takes the whole day");
    let after = get(&app, &cookie, &format!("/organiser/submissions?from={later}")).await;
    assert!(table(&after.text()).is_empty());

    // The CSV of a filtered view: the same rows, with `conference export submissions`'s columns.
    let page = parse(&abstracts.text());
    let link = select(&page, "a[download]")[0].value().attr("href").unwrap().to_owned();
    assert_eq!(link, "/organiser/submissions.csv?paper_type=Abstract");
    let csv = get(&app, &cookie, &link).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert_eq!(csv.header("content-type"), Some("text/csv; charset=utf-8"));
    assert_eq!(csv.header("content-disposition"), Some("attachment; filename=\"submissions.csv\""));
    let records = csv_records(&csv.text());
    assert_eq!(records[0][..3], ["id", "reference", "created"]);
    assert_eq!(records[1..].iter().map(|r| r[1].clone()).collect::<Vec<_>>(), [abstract_ref.as_str()]);
    let audited: (String, String) =
        sqlx::query_as("SELECT object_id, details FROM audit_log WHERE action = 'export.csv' ORDER BY id DESC LIMIT 1")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(audited.0, "submissions");
    assert!(audited.1.contains("\"paper_type\":\"Abstract\""), "{}", audited.1);

    // Detail page and paper.
    let detail = get(&app, &cookie, &format!("/organiser/submissions/{abstract_ref}")).await;
    assert_eq!(detail.status, StatusCode::OK);
    for field in [
        "Tidal lanterns at 50% brightness",
        "ana@example.org",
        "Ben Reyes, Carla Santos",
        "University of Manila",
        "LinkedIn",
        "paper.pdf",
    ] {
        assert!(detail.text().contains(field), "{field}");
    }
    let paper = get(&app, &cookie, &format!("/organiser/submissions/{abstract_ref}/paper")).await;
    assert_eq!(paper.status, StatusCode::OK);
    assert_eq!(
        paper.header("content-disposition"),
        Some(format!("attachment; filename=\"{abstract_ref}.pdf\"").as_str())
    );
    assert_eq!(paper.header("x-content-type-options"), Some("nosniff"));
    let stored = app.stored_paper(&format!("papers/{abstract_ref}.pdf")).await.expect("stored");
    assert_eq!(paper.body.to_vec(), stored);
    let downloads: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'paper.downloaded' AND object_id = $1")
            .bind(&abstract_ref)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(downloads, 1);
    assert_eq!(get(&app, &cookie, "/organiser/submissions/P-2025-NOPE00").await.status, StatusCode::NOT_FOUND);
    assert_eq!(get(&app, &cookie, "/organiser/submissions/P-2025-NOPE00/paper").await.status, StatusCode::NOT_FOUND);
}

/// Search (DESIGN.md section 12) matches what an organiser typed as plain text, whatever it
/// holds: on SQLite a text of 3 or more characters goes through the full-text index (migration
/// 0014), whose query language (quotes, `*`, `OR`, `NEAR`) never applies; shorter texts scan.
/// The index follows a row's change in the same transaction as the change.
#[tokio::test]
async fn search_takes_the_text_literally_in_any_letter_case_and_follows_changes() {
    let app = organisers_app().await;
    let lanterns = submit_paper(&app, "ana@example.org", "Tidal lanterns OR harbour \"lights\"", "Abstract").await;
    let grid = submit_paper(&app, "ben@example.org", "Grid* NEAR storage", "Full Paper").await;
    let cookie = sign_in(&app, CHAIR).await;
    let found = |q: &'static str| {
        let app = &app;
        let cookie = &cookie;
        async move {
            let page = get(app, cookie, &format!("/organiser/submissions?q={q}")).await;
            assert_eq!(page.status, StatusCode::OK, "q={q}: {}", page.text());
            let mut refs: Vec<String> = table(&page.text()).into_iter().map(|r| r[0].clone()).collect();
            refs.sort();
            refs
        }
    };
    let mut both = vec![lanterns.clone(), grid.clone()];
    both.sort();
    for (q, expected) in [
        ("TIDAL%20LANTERNS", vec![lanterns.clone()]),
        ("lanterns%20or%20harbour", vec![lanterns.clone()]),
        // As query syntax these would match both rows or be refused; as text, they match their own.
        ("%22lights%22", vec![lanterns.clone()]),
        ("grid*", vec![grid.clone()]),
        ("grid%20OR%20tidal", vec![]),
        ("NEAR(grid", vec![]),
        ("%22", vec![lanterns.clone()]),
        // Shorter than a trigram: scanned, still ignoring case.
        ("GR", vec![grid.clone()]),
        (".org", both.clone()),
        // A text spanning two columns is in neither.
        ("storageben", vec![]),
    ] {
        assert_eq!(found(q).await, expected, "q={q}");
    }
    // A changed title is found by its new words, not its old ones.
    sqlx::query("UPDATE submissions SET paper_title = 'Solar kites' WHERE reference = $1")
        .bind(&grid)
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(found("solar%20kites").await, vec![grid.clone()]);
    assert!(found("storage").await.is_empty());
    // The count above the table agrees with the rows.
    let page = parse(&get(&app, &cookie, "/organiser/submissions?q=example.org").await.text());
    let count = text(select(&page, ".organiser__count")[0]);
    assert!(count.starts_with("2 found"), "{count}");
}

/// Writes a contact message as `/api/contact` stores it.
async fn message(app: &TestApp, id: &str, name: &str, email: &str, text: &str, created: &str) {
    sqlx::query("INSERT INTO messages (id, name, number, email, country, message, created) VALUES ($1, $2, '+639171234567', $3, 'Philippines', $4, $5)")
        .bind(id)
        .bind(name)
        .bind(email)
        .bind(text)
        .bind(created)
        .execute(&app.pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn opening_a_message_marks_it_read_and_offers_a_reply() {
    let app = organisers_app().await;
    message(&app, "m1", "Ana Cruz", "ana@example.org", "Is there parking?", "2025-03-01T09:00:00.000000Z").await;
    message(&app, "m2", "=HYPERLINK(\"http://x\")", "ben@example.org", "Visa letter", "2025-03-02T09:00:00.000000Z")
        .await;
    let cookie = sign_in(&app, CHAIR).await;
    let home = get(&app, &cookie, "/organiser").await.text();
    assert!(home.contains("not yet read: <strong>2</strong>"), "{home}");
    for href in [
        "/organiser/submissions",
        "/organiser/messages",
        "/organiser/orders",
        "/organiser/subscribers",
        "/organiser/outbox",
        "/organiser/audit",
    ] {
        assert!(home.contains(&format!("<a href=\"{href}\">")), "the dashboard links to {href}");
    }

    let unread = table(&get(&app, &cookie, "/organiser/messages?status=unread").await.text());
    assert_eq!(unread.len(), 2);
    let detail = get(&app, &cookie, "/organiser/messages/m1").await;
    assert_eq!(detail.status, StatusCode::OK);
    assert!(detail.text().contains("href=\"mailto:ana@example.org?subject="), "{}", detail.text());
    assert!(detail.text().contains("Is there parking?"));
    let unread = table(&get(&app, &cookie, "/organiser/messages?status=unread").await.text());
    assert_eq!(unread.iter().map(|r| r[1].clone()).collect::<Vec<_>>(), ["=HYPERLINK(\"http://x\")"]);
    let read = table(&get(&app, &cookie, "/organiser/messages?status=read").await.text());
    assert_eq!(read.iter().map(|r| r[1].clone()).collect::<Vec<_>>(), ["Ana Cruz"]);
    let searched = table(&get(&app, &cookie, "/organiser/messages?q=visa").await.text());
    assert_eq!(searched.len(), 1);
    assert!(get(&app, &cookie, "/organiser").await.text().contains("not yet read: <strong>1</strong>"));

    // The CSV: the unread view only, formulas escaped as `conference export` does.
    let csv = csv_records(&get(&app, &cookie, "/organiser/messages.csv?status=unread").await.text());
    assert_eq!(csv[0], ["id", "created", "name", "number", "email", "country", "message"]);
    assert_eq!(csv.len(), 2);
    assert_eq!(csv[1][0], "m2");
    assert_eq!(csv[1][2], "'=HYPERLINK(\"http://x\")");
    assert_eq!(get(&app, &cookie, "/organiser/messages/nope").await.status, StatusCode::NOT_FOUND);
}

/// Writes an order.
async fn order(app: &TestApp, id: &str, kind: &str, status: &str, mode: Option<&str>, name: &str, email: &str) {
    let decided = (status != "initiated").then_some("2025-03-01T08:05:00Z");
    let tracking = (status != "initiated").then_some("3100000042");
    sqlx::query(
        "INSERT INTO orders (order_id, kind, item_id, item_title, amount_cents, currency, status, billing_name,
             billing_email, tracking_id, bank_ref_no, status_message, created, decided_at, payments_mode)
         VALUES ($1, $2, 'item', 'Presenter Virtual', 21900, 'USD', $3, $4, $5, $6, 'BANK77', 'Approved', '2025-03-01T08:00:00Z', $7, $8)",
    )
    .bind(id)
    .bind(kind)
    .bind(status)
    .bind(name)
    .bind(email)
    .bind(tracking)
    .bind(decided)
    .bind(mode)
    .execute(&app.pool)
    .await
    .unwrap();
}

#[tokio::test]
async fn orders_filter_by_state_kind_and_mode_and_show_the_gateway_answer() {
    let app = organisers_app().await;
    order(&app, "ORD1", "plan", "success", Some("live"), "Ada Lovelace", "ada@example.org").await;
    order(&app, "ORD2", "sponsor", "initiated", Some("test"), "Grace Hopper", "grace@example.org").await;
    order(&app, "ORD3", "custom", "failure", None, "Alan Turing", "alan@example.org").await;
    let cookie = sign_in(&app, CHAIR).await;
    let ids = |body: String| table(&body).into_iter().map(|r| r[0].clone()).collect::<Vec<_>>();
    assert_eq!(ids(get(&app, &cookie, "/organiser/orders").await.text()).len(), 3);
    for (query, expected) in [
        ("status=success", vec!["ORD1"]),
        ("kind=sponsor", vec!["ORD2"]),
        ("payments_mode=test", vec!["ORD2"]),
        ("payments_mode=none", vec!["ORD3"]),
        ("q=turing", vec!["ORD3"]),
        ("q=grace%40example", vec!["ORD2"]),
        ("q=ORD1", vec!["ORD1"]),
        ("status=success&kind=sponsor", vec![]),
    ] {
        let reply = get(&app, &cookie, &format!("/organiser/orders?{query}")).await;
        assert_eq!(reply.status, StatusCode::OK, "{query}");
        assert_eq!(ids(reply.text()), expected, "{query}");
        let csv = csv_records(&get(&app, &cookie, &format!("/organiser/orders.csv?{query}")).await.text());
        assert_eq!(csv[0][0], "order_id");
        assert_eq!(csv[1..].iter().map(|r| r[0].clone()).collect::<Vec<_>>(), expected, "CSV of {query}");
    }
    let detail = get(&app, &cookie, "/organiser/orders/ORD1").await.text();
    for field in
        // Times in the event's zone (Singapore, +08), each with its instant (issue 42 item 4).
        [
            "USD 219.00",
            "3100000042",
            "BANK77",
            "Approved",
            "<time datetime=\"2025-03-01T08:00:00.000Z\">1 Mar 2025, 16:00 +08</time>",
            "<time datetime=\"2025-03-01T08:05:00.000Z\">1 Mar 2025, 16:05 +08</time>: success",
        ]
    {
        assert!(detail.contains(field), "{field}");
    }
    assert_eq!(get(&app, &cookie, "/organiser/orders/ORD404").await.status, StatusCode::NOT_FOUND);
}

/// The cells of each row of the tables in the dashboard's section `labelled_by`.
fn dashboard_rows(body: &str, labelled_by: &str) -> Vec<Vec<String>> {
    let page = parse(body);
    select(&page, &format!("section[aria-labelledby='{labelled_by}'] tbody tr"))
        .into_iter()
        .map(|row| select(row, "td").into_iter().map(|cell| text(cell).trim().to_owned()).collect())
        .collect()
}

#[tokio::test]
async fn the_dashboard_counts_orders_by_mode_and_state_and_sums_what_was_paid() {
    let app = organisers_app().await;
    order(&app, "ORD1", "plan", "success", Some("live"), "Ada Lovelace", "ada@example.org").await;
    order(&app, "ORD2", "plan", "success", Some("live"), "Ada Lovelace", "ada@example.org").await;
    order(&app, "ORD3", "sponsor", "success", Some("test"), "Grace Hopper", "grace@example.org").await;
    order(&app, "ORD4", "custom", "success", None, "Alan Turing", "alan@example.org").await;
    order(&app, "ORD5", "custom", "failure", None, "Alan Turing", "alan@example.org").await;
    order(&app, "ORD6", "plan", "initiated", Some("live"), "Ada Lovelace", "ada@example.org").await;
    let cookie = sign_in(&app, CHAIR).await;
    let body = get(&app, &cookie, "/organiser").await.text();
    let rows = dashboard_rows(&body, "dash-orders");
    let row = |cells: &[&str]| cells.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    assert_eq!(
        rows,
        [
            // By state, then what was paid (none refunded): the mode as shown, "" before "live".
            row(&["before modes were recorded", "Failure", "1"]),
            row(&["before modes were recorded", "Success", "1"]),
            row(&["Live", "Initiated", "1"]),
            row(&["Live", "Success", "2"]),
            row(&["TEST mode", "Success", "1"]),
            row(&["before modes were recorded", "Custom", "1", "USD 219.00", "0"]),
            row(&["Live", "Plan", "2", "USD 438.00", "0"]),
            row(&["TEST mode", "Sponsor", "1", "USD 219.00", "0"]),
        ]
    );
}

/// The dashboard and the lists keep their counts between views, yet show every change the
/// moment it is committed, whoever wrote it (here: plain SQL, as another server, the CLI or
/// a restore would): an insert, an update and a delete of each counted kind.
#[tokio::test]
async fn counts_follow_every_committed_change_between_views() {
    let app = organisers_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    let found =
        |body: String| text(select(&parse(&body), ".organiser__count")[0]).split(' ').next().unwrap().to_owned();
    let orders =
        |app, cookie| async move { dashboard_rows(&get(app, cookie, "/organiser").await.text(), "dash-orders") };
    assert_eq!(orders(&app, &cookie).await[0], ["No orders yet."]);
    assert_eq!(found(get(&app, &cookie, "/organiser/orders?status=success").await.text()), "0");

    order(&app, "ORD1", "plan", "initiated", Some("live"), "Ada Lovelace", "ada@example.org").await;
    assert_eq!(orders(&app, &cookie).await[0], ["Live", "Initiated", "1"]);
    sqlx::query("UPDATE orders SET status = 'success' WHERE order_id = 'ORD1'").execute(&app.pool).await.unwrap();
    assert_eq!(orders(&app, &cookie).await[0], ["Live", "Success", "1"]);
    assert_eq!(found(get(&app, &cookie, "/organiser/orders?status=success").await.text()), "1");
    assert_eq!(found(get(&app, &cookie, "/organiser/orders").await.text()), "1");
    sqlx::query("DELETE FROM orders WHERE order_id = 'ORD1'").execute(&app.pool).await.unwrap();
    assert_eq!(orders(&app, &cookie).await[0], ["No orders yet."]);
    assert_eq!(found(get(&app, &cookie, "/organiser/orders").await.text()), "0");

    let subscribed =
        |app, cookie| async move { found(get(app, cookie, "/organiser/subscribers?status=subscribed").await.text()) };
    assert_eq!(subscribed(&app, &cookie).await, "0");
    sqlx::query("INSERT INTO subscribers (id, email, created, status) VALUES ('s1', 'ana@example.org', '2025-03-01T09:00:00Z', 'pending')")
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(found(get(&app, &cookie, "/organiser/subscribers").await.text()), "1");
    assert_eq!(subscribed(&app, &cookie).await, "0");
    sqlx::query("UPDATE subscribers SET status = 'subscribed' WHERE id = 's1'").execute(&app.pool).await.unwrap();
    assert_eq!(subscribed(&app, &cookie).await, "1");
    // A search's count too, on its first page and on the next.
    for page in [1, 2] {
        let searched = get(&app, &cookie, &format!("/organiser/subscribers?q=ana%40&page={page}")).await.text();
        assert_eq!(found(searched), "1");
    }
    sqlx::query("UPDATE subscribers SET email = 'bea@example.org' WHERE id = 's1'").execute(&app.pool).await.unwrap();
    assert_eq!(found(get(&app, &cookie, "/organiser/subscribers?q=ana%40").await.text()), "0");

    let mails = found(get(&app, &cookie, "/organiser/outbox").await.text());
    sqlx::query("DELETE FROM outbox").execute(&app.pool).await.unwrap();
    assert_ne!(mails, "0", "signing in queued a mail");
    assert_eq!(found(get(&app, &cookie, "/organiser/outbox").await.text()), "0");
}

/// "Last 7 days" counts from the minute a week before now, and moves with the clock while
/// nothing is written; "In all" stays.
#[tokio::test]
async fn the_dashboard_counts_the_last_7_days_apart_as_time_passes() {
    let clock = Clock::fixed(datetime!(2025-03-10 12:00:30 UTC));
    let app = organisers_app_at(clock.clone()).await;
    for (title, paper_type, created) in [
        ("A day old", "Abstract", "2025-03-09T10:00:00Z"),
        ("Nine days old", "Abstract", "2025-03-01T10:00:00Z"),
        ("A week old, ten seconds in", "Full Paper", "2025-03-03T12:00:10Z"),
    ] {
        let reference = submit_paper(&app, "ana@example.org", title, paper_type).await;
        sqlx::query("UPDATE submissions SET created = $1 WHERE reference = $2")
            .bind(created)
            .bind(reference)
            .execute(&app.pool)
            .await
            .unwrap();
    }
    let cookie = sign_in(&app, CHAIR).await;
    let papers =
        |app, cookie| async move { dashboard_rows(&get(app, cookie, "/organiser").await.text(), "dash-papers") };
    assert_eq!(papers(&app, &cookie).await, [["Abstract", "1", "2"], ["Full Paper", "1", "1"]]);
    // A list's view in between keeps the counts without changing what "this week" is.
    get(&app, &cookie, "/organiser/submissions").await;
    clock.set(datetime!(2025-03-10 12:00:59 UTC));
    assert_eq!(papers(&app, &cookie).await, [["Abstract", "1", "2"], ["Full Paper", "1", "1"]]);
    clock.set(datetime!(2025-03-10 12:01:05 UTC));
    assert_eq!(papers(&app, &cookie).await, [["Abstract", "1", "2"], ["Full Paper", "0", "1"]]);
}

/// A search that matches many rows (more than 500: on SQLite its page is found by walking the
/// list's order, not by looking up every match) pages through exactly the rows, in exactly the
/// order, of its CSV, and its count agrees; with another filter too (540 rows), and for a text
/// too short for the index.
#[tokio::test]
async fn a_search_matching_hundreds_of_rows_pages_like_its_csv() {
    let app = organisers_app().await;
    for i in 0..700 {
        let (email, status) = if i % 7 == 0 {
            (format!("other{i:03}@example.net"), "pending")
        } else {
            (format!("walker{i:03}@example.org"), if i % 10 == 0 { "subscribed" } else { "pending" })
        };
        // Some rows share a time: the order's tie-breaker must hold on every page.
        sqlx::query("INSERT INTO subscribers (id, email, created, status) VALUES ($1, $2, $3, $4)")
            .bind(format!("s{i:03}"))
            .bind(email)
            .bind(format!("2025-03-01T09:{:02}:00Z", i / 11))
            .bind(status)
            .execute(&app.pool)
            .await
            .unwrap();
    }
    let cookie = sign_in(&app, CHAIR).await;
    for query in ["q=WALKER", "q=walker&status=pending", "q=%40example.org", "q=er"] {
        let csv = csv_records(&get(&app, &cookie, &format!("/organiser/subscribers.csv?{query}")).await.text());
        let expected: Vec<String> = csv[1..].iter().map(|r| r[2].clone()).collect();
        assert!(expected.len() > 100, "{query}: {}", expected.len());
        let mut paged = Vec::new();
        for page in 1.. {
            let body = get(&app, &cookie, &format!("/organiser/subscribers?{query}&page={page}")).await.text();
            let count = text(select(&parse(&body), ".organiser__count")[0]);
            assert!(count.starts_with(&format!("{} found", expected.len())), "{query}: {count}");
            let rows = table(&body);
            if rows.is_empty() {
                break;
            }
            paged.extend(rows.into_iter().map(|r| r[0].clone()));
        }
        assert_eq!(paged, expected, "{query}");
    }
}

/// Deep pages (from row 500 on) start at a row kept from an earlier view instead of skipping
/// every row before it: whichever page is asked first, each holds exactly the rows its CSV
/// has there, for a text key (subscribers) and an integer one (the outbox), and a new row
/// moves them all by one at once.
#[tokio::test]
async fn deep_pages_hold_the_rows_of_their_csv_in_any_order_of_views_and_after_a_change() {
    let app = organisers_app().await;
    for i in 0..620 {
        // Some rows share a time: the order's tie-breaker must hold across an anchor.
        let created = format!("2025-03-01T09:{:02}:00Z", i / 11);
        sqlx::query("INSERT INTO subscribers (id, email, created, status) VALUES ($1, $2, $3, 'pending')")
            .bind(format!("s{i:03}"))
            .bind(format!("reader{i:03}@example.org"))
            .bind(&created)
            .execute(&app.pool)
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO outbox (to_address, subject, text_body, html_body, status, attempts, next_attempt_at, created)
             VALUES ($1, 'Old news', 'x', 'x', 'failed', 5, $2, $2)",
        )
        .bind(format!("reader{i:03}@example.org"))
        .bind(&created)
        .execute(&app.pool)
        .await
        .unwrap();
    }
    let cookie = sign_in(&app, CHAIR).await;
    for (list, column) in [("subscribers", 0), ("outbox", 1)] {
        let expected = |csv: String| csv_records(&csv)[1..].iter().map(|r| r[2].clone()).collect::<Vec<_>>();
        let page_of = |page: i64| {
            let (app, cookie) = (&app, &cookie);
            async move {
                let body = get(app, cookie, &format!("/organiser/{list}?page={page}")).await.text();
                table(&body).into_iter().map(|r| r[column].clone()).collect::<Vec<_>>()
            }
        };
        let rows = expected(get(&app, &cookie, &format!("/organiser/{list}.csv")).await.text());
        assert!(rows.len() >= 620, "{list}: {}", rows.len());
        for page in [13, 11, 12, 11, 13, 1, 2] {
            let from = (page as usize - 1) * 50;
            assert_eq!(page_of(page).await, rows[from..(from + 50).min(rows.len())], "{list} page {page}");
        }
        // Past the last page, deep enough for an anchor: an empty page, no error; past the
        // highest page number: 400 with the reason.
        for page in [20, 100_000] {
            let reply = get(&app, &cookie, &format!("/organiser/{list}?page={page}")).await;
            assert_eq!(reply.status, StatusCode::OK, "{list} page {page}");
            assert!(table(&reply.text()).is_empty(), "{list} page {page}");
        }
        let reply = get(&app, &cookie, &format!("/organiser/{list}?page=100001")).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST);
        assert!(reply.text().contains("is not a page number"), "{}", reply.text());
        let newest = match list {
            "subscribers" => {
                "INSERT INTO subscribers (id, email, created, status)
                 VALUES ('new', 'newest@example.org', '2025-03-02T09:00:00Z', 'pending')"
            }
            _ => {
                "INSERT INTO outbox (to_address, subject, text_body, html_body, status, attempts, next_attempt_at, created)
                 VALUES ('newest@example.org', 'Old news', 'x', 'x', 'failed', 5, '2025-03-02T09:00:00Z', '2025-03-02T09:00:00Z')"
            }
        };
        sqlx::query(newest).execute(&app.pool).await.unwrap();
        let moved = expected(get(&app, &cookie, &format!("/organiser/{list}.csv")).await.text());
        assert_eq!(moved[1..], rows[..], "{list}: the new row comes first");
        for page in [12, 13] {
            let from = (page as usize - 1) * 50;
            assert_eq!(page_of(page).await, moved[from..(from + 50).min(moved.len())], "{list} page {page} after");
        }
    }
}

#[tokio::test]
async fn subscribers_outbox_and_audit_lists() {
    let app = organisers_app().await;
    for (id, email, status) in [("s1", "ana@example.org", "pending"), ("s2", "ben@example.org", "subscribed")] {
        sqlx::query("INSERT INTO subscribers (id, email, created, status) VALUES ($1, $2, '2025-03-01T09:00:00Z', $3)")
            .bind(id)
            .bind(email)
            .bind(status)
            .execute(&app.pool)
            .await
            .unwrap();
    }
    let cookie = sign_in(&app, CHAIR).await;
    let subscribed = get(&app, &cookie, "/organiser/subscribers?status=subscribed").await.text();
    assert_eq!(table(&subscribed).iter().map(|r| r[0].clone()).collect::<Vec<_>>(), ["ben@example.org"]);
    assert!(subscribed.contains("pending: <strong>1</strong>"), "counts by status");
    let searched = table(&get(&app, &cookie, "/organiser/subscribers?q=ana").await.text());
    assert_eq!(searched.len(), 1);
    let csv = csv_records(&get(&app, &cookie, "/organiser/subscribers.csv?status=pending").await.text());
    assert_eq!(csv.len(), 2);
    assert_eq!(csv[1][2], "ana@example.org");

    // The sign-in mail is in the outbox; the audit log has the sign-in.
    let outbox = table(&get(&app, &cookie, "/organiser/outbox?status=pending").await.text());
    assert_eq!(outbox.len(), 1, "{outbox:?}");
    assert_eq!(outbox[0][1], CHAIR);
    assert!(table(&get(&app, &cookie, "/organiser/outbox?status=sent").await.text()).is_empty());
    assert_eq!(csv_records(&get(&app, &cookie, "/organiser/outbox.csv?status=pending").await.text()).len(), 2);
    let audit = table(&get(&app, &cookie, "/organiser/audit?q=signed_in").await.text());
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0][3], "Signed in (auth.signed_in)", "the action in words, with the name the search finds");
    let audit_csv = csv_records(&get(&app, &cookie, "/organiser/audit.csv?q=signed_in").await.text());
    assert_eq!(audit_csv.len(), 2, "the header and the one entry the page showed: {audit_csv:?}");
}

#[tokio::test]
async fn lists_page_through_fifty_rows_at_a_time() {
    let app = organisers_app().await;
    for n in 0..55 {
        message(
            &app,
            &format!("m{n:02}"),
            "Ana",
            "ana@example.org",
            "Hello",
            &format!("2025-03-01T09:00:{n:02}.000000Z"),
        )
        .await;
    }
    let cookie = sign_in(&app, CHAIR).await;
    let first = get(&app, &cookie, "/organiser/messages").await.text();
    assert_eq!(table(&first).len(), 50);
    assert!(first.contains("55 found, page 1 of 2"), "{first}");
    assert!(first.contains("href=\"/organiser/messages?page=2\""));
    assert_eq!(table(&get(&app, &cookie, "/organiser/messages?page=2").await.text()).len(), 5);
    let csv = csv_records(&get(&app, &cookie, "/organiser/messages.csv").await.text());
    assert_eq!(csv.len(), 56, "the CSV holds every page");
}

#[tokio::test]
async fn bad_filter_values_get_a_400_page_that_says_why() {
    let app = organisers_app().await;
    let cookie = sign_in(&app, CHAIR).await;
    for (path, says) in [
        ("/organiser/submissions?paper_type=Poem", "Use one of: Abstract, Full Paper"),
        ("/organiser/submissions?from=yesterday", "YYYY-MM-DD"),
        ("/organiser/submissions?from=2025-03-02&to=2025-03-01", "before it starts"),
        ("/organiser/submissions?sort=price", "Use one of"),
        ("/organiser/submissions?dir=up", "Use one of"),
        ("/organiser/submissions?colour=red", "no filter called"),
        ("/organiser/submissions.csv?paper_type=Poem", "Use one of"),
        ("/organiser/messages?status=maybe", "Use one of: unread, read"),
        ("/organiser/messages?page=0", "not a page number"),
        ("/organiser/messages?page=x", "not a page number"),
        ("/organiser/orders?status=paid", "Use one of"),
        ("/organiser/orders?kind=gift", "Use one of"),
        ("/organiser/orders?payments_mode=demo", "Use one of"),
        ("/organiser/orders.csv?kind=gift", "Use one of"),
        ("/organiser/subscribers?status=gone", "Use one of"),
        ("/organiser/outbox?status=lost", "Use one of"),
        ("/organiser/audit?q=%00", "NUL"),
        ("/organiser/audit?q=a&q=b", "twice"),
    ] {
        let reply = get(&app, &cookie, path).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{path}: {}", reply.text());
        assert!(reply.text().contains(says), "{path}: {}", reply.text());
    }
}

/// Every route of the back office, as an organiser would bookmark it.
async fn routes(app: &TestApp) -> (Vec<String>, Vec<String>) {
    let reference = submit_paper(app, "ana@example.org", "A paper", "Abstract").await;
    message(app, "m1", "Ana", "ana@example.org", "Hello", "2025-03-01T09:00:00.000000Z").await;
    order(app, "ORD1", "plan", "success", Some("live"), "Ada", "ada@example.org").await;
    let pages = [
        "/organiser/submissions".to_owned(),
        "/organiser/submissions?paper_type=Abstract".to_owned(),
        format!("/organiser/submissions/{reference}"),
        "/organiser/messages".to_owned(),
        "/organiser/messages/m1".to_owned(),
        "/organiser/orders".to_owned(),
        "/organiser/orders/ORD1".to_owned(),
        "/organiser/subscribers".to_owned(),
        "/organiser/outbox".to_owned(),
        "/organiser/audit".to_owned(),
        // A bad filter says nothing either before the session is checked.
        "/organiser/orders?kind=gift".to_owned(),
    ];
    let files = [
        format!("/organiser/submissions/{reference}/paper"),
        "/organiser/submissions.csv".to_owned(),
        "/organiser/messages.csv".to_owned(),
        "/organiser/orders.csv".to_owned(),
        "/organiser/subscribers.csv".to_owned(),
        "/organiser/outbox.csv".to_owned(),
        "/organiser/audit.csv".to_owned(),
        "/organiser/orders.csv?kind=gift".to_owned(),
    ];
    (pages.to_vec(), files.to_vec())
}

#[tokio::test]
async fn no_list_detail_download_or_csv_answers_without_a_live_session() {
    let clock = Clock::fixed(datetime!(2025-03-01 09:00 UTC));
    let app = organisers_app_at(clock.clone()).await;
    let (pages, files) = routes(&app).await;
    let live = sign_in(&app, CHAIR).await;
    // The sweep would be worthless if the routes did not answer data to a live session.
    for path in pages.iter().filter(|p| !p.contains("gift")).chain(files.iter().filter(|p| !p.contains("gift"))) {
        assert_eq!(get(&app, &live, path).await.status, StatusCode::OK, "{path} signed in");
    }
    let expired = sign_in(&app, CHAIR).await;
    clock.set(datetime!(2025-03-01 23:00 UTC));
    let forged = format!("organiser_session={}", "A".repeat(43));
    for cookie in [None, Some(expired.as_str()), Some(forged.as_str()), Some("organiser_session=../x")] {
        let headers: Vec<(&str, &str)> = cookie.map(|c| vec![("cookie", c)]).unwrap_or_default();
        for path in &pages {
            let reply = app.request(path, &headers).await;
            assert_eq!(reply.status, StatusCode::SEE_OTHER, "{path} {cookie:?}");
            assert_eq!(reply.header("location"), Some("/organiser"), "{path}");
            assert!(reply.body.is_empty(), "{path}");
        }
        for path in &files {
            let reply = app.request(path, &headers).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path} {cookie:?}");
            assert!(reply.header("content-disposition").is_none(), "{path}");
            assert!(!reply.text().contains("ana@example.org") && !reply.text().contains("%PDF"), "{path}");
        }
    }
    let read: Option<String> =
        sqlx::query_scalar("SELECT read_at FROM messages WHERE id = 'm1'").fetch_one(&app.pool).await.unwrap();
    assert!(read.is_some(), "read by the live session above");
    let downloads: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action IN ('export.csv', 'paper.downloaded') AND at > '2025-03-01T09:00:00.000000Z'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(downloads, 0, "nothing was downloaded without a session");
}
