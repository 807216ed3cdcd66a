//! Fills a database with a conference's worth of visitors' rows for `bench/organiser.sh`
//! (issue 20 item 6): 20,000 submissions with small paper files, 50,000 orders, 20,000
//! messages and 20,000 subscribers, plus 20,000 sent mails and 5,000 audit entries so the
//! outbox and audit lists have pages too; and peer review (issue 32 item 10): 400 reviewers,
//! two released assignments per submission and 40,000 reviews (nine in ten submitted), the
//! first reviewer being `REVIEWER_EMAIL` (the bench's organiser, who reviews with the same
//! session). Not part of the server: a benchmark's tool.
//!
//! ```sh
//! DATABASE_URL=sqlite:///tmp/b/conference.db DATA_DIR=/tmp/b/data \
//!   cargo run --release --example organiser_data
//! ```
//!
//! Applies the migrations first, then writes each table in one transaction. The rows are the
//! same on every run (a fixed pseudo-random sequence) and spread over the 120 days before
//! now, so date filters, searches and pages select realistic shares. Papers go where the
//! server keeps them: files under `DATA_DIR/papers` on SQLite, `paper_chunks` on PostgreSQL.
//! On PostgreSQL it ends with `VACUUM ANALYZE`, as autovacuum would on a live server.
//! Counts can be lowered for a quick try: `SUBMISSIONS=100 ORDERS=100 ... `.

use std::error::Error;

use conference::clock::stamp::timestamp;
use conference::db::{self, Engine};
use time::{Duration, OffsetDateTime};

/// Words of titles, names and messages: few enough that a search word matches many rows.
const WORDS: [&str; 40] = [
    "tidal", "harbour", "lantern", "quantum", "river", "delta", "mangrove", "coral", "sensor", "network", "urban",
    "forest", "solar", "wind", "energy", "learning", "graph", "protein", "climate", "soil", "water", "policy",
    "health", "vaccine", "market", "supply", "chain", "robot", "vision", "language", "bridge", "steel", "concrete",
    "battery", "hydrogen", "ocean", "monsoon", "crop", "fibre", "signal",
];
const FIRST: [&str; 24] = [
    "Ana", "Ben", "Chen", "Dara", "Emeka", "Fatima", "Goran", "Hana", "Ines", "Jonas", "Kavya", "Lucia", "Mateo",
    "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Yusuf",
];
const LAST: [&str; 20] = [
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Tanaka",
    "Silva",
    "Kowalski",
    "Haddad",
    "Novak",
    "Reyes",
    "Mensah",
    "Ivanova",
    "Fischer",
    "Kaur",
    "Rossi",
    "Nakamura",
    "Dubois",
    "Petrov",
    "Osei",
    "Larsen",
    "Costa",
];
const COUNTRIES: [&str; 8] =
    ["India", "Malaysia", "Nigeria", "Germany", "Brazil", "United States", "Japan", "United Kingdom"];
/// The smallest PDF the upload check accepts (a catalog and an empty page tree).
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n";

/// The fuzz run's seeded generator (the same rows on every run); not every helper is used here.
#[path = "../tests/common/rng.rs"]
#[allow(dead_code)]
mod rng;
use rng::Rng;

/// `n` words of the generator's vocabulary.
fn words(rng: &mut Rng, n: usize) -> String {
    (0..n).map(|_| *rng.pick(&WORDS)).collect::<Vec<_>>().join(" ")
}

/// A first and a last name.
fn name(rng: &mut Rng) -> String {
    format!("{} {}", rng.pick(&FIRST), rng.pick(&LAST))
}

fn count(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The `i`-th of `n` instants spread over the 120 days before `now`, oldest first.
fn spread(now: OffsetDateTime, i: usize, n: usize) -> OffsetDateTime {
    let span = Duration::days(120).whole_seconds() as f64;
    now - Duration::seconds_f64(span * (n - i) as f64 / n as f64)
}

/// RFC 3339 to the second, as `submissions.created` is stored.
fn to_second(at: OffsetDateTime) -> String {
    timestamp(at)[..19].to_owned() + "Z"
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let url = std::env::var("DATABASE_URL").map_err(|_| "DATABASE_URL is not set")?;
    let data_dir = std::path::PathBuf::from(std::env::var("DATA_DIR").map_err(|_| "DATA_DIR is not set")?);
    let pool = db::connect(&url).await?;
    db::migrate(&pool).await?;
    conference::seed::apply::seed_if_empty(&pool).await?;
    let engine = Engine::of_pool(&pool);
    let now = OffsetDateTime::now_utc();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);

    let n = count("SUBMISSIONS", 20_000);
    let papers = data_dir.join("papers");
    std::fs::create_dir_all(&papers)?;
    let mut tx = pool.begin().await?;
    for i in 0..n {
        let reference = format!("P-2025-B{i:05}");
        let file_path = format!("papers/{reference}.pdf");
        let email = format!("author{i}@example.org");
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO submissions (reference, name, number, email, country, author_name, co_author_name,
                                      paper_title, department, university_organization, paper_type,
                                      presentation_type, message, conference_source, file_path, file_name,
                                      file_type, file_size, created)
             VALUES ($1, '', '+14155550100', $2, $3, $4, $5, $6, 'Engineering', 'University of the Coast', $7, $8,
                     $9, 'google', $10, 'paper.pdf', 'application/pdf', $11, $12)
             RETURNING id",
        )
        .bind(&reference)
        .bind(&email)
        .bind(*rng.pick(&COUNTRIES))
        .bind(name(&mut rng))
        .bind(if rng.below(3) == 0 { String::new() } else { name(&mut rng) })
        .bind(format!("On {} and {}", words(&mut rng, 3), words(&mut rng, 2)))
        .bind(if rng.below(2) == 0 { "Abstract" } else { "Full Paper" })
        .bind(if rng.below(2) == 0 { "Oral" } else { "Poster" })
        .bind(words(&mut rng, 12))
        .bind(&file_path)
        .bind(PDF.len() as i64)
        .bind(to_second(spread(now, i, n)))
        .fetch_one(&mut *tx)
        .await?;
        match engine {
            Engine::Sqlite => std::fs::write(data_dir.join(&file_path), PDF)?,
            Engine::Postgres => {
                conference::repo::papers::store(&mut tx, id, &mut &PDF[..]).await?;
            }
        }
    }
    tx.commit().await?;
    println!("submissions: {n}");

    let n = count("ORDERS", 50_000);
    let mut tx = pool.begin().await?;
    for i in 0..n {
        let (kind, item_id, item_title, cents) = match rng.below(10) {
            0..=6 => ("plan", "presenter-virtual", "Presenter Virtual", 19_900),
            7 | 8 => ("custom", "custom-payment", "Custom payment", 10_600),
            _ => ("sponsor", "gold", "Gold sponsor", 250_000),
        };
        let status = ["success", "success", "success", "failure", "aborted", "initiated", "invalid"][rng.below(7)];
        let mode = match rng.below(10) {
            0 => None,
            1 | 2 => Some("test"),
            _ => Some("live"),
        };
        let created = spread(now, i, n);
        let decided = (status != "initiated").then(|| timestamp(created + Duration::minutes(3)));
        let name = name(&mut rng);
        sqlx::query(
            "INSERT INTO orders (order_id, kind, item_id, item_title, custom_amount, amount_cents, currency,
                                 status, billing_name, billing_email, billing_tel, billing_address, billing_city,
                                 billing_state, billing_zip, billing_country, gateway_status, tracking_id,
                                 bank_ref_no, payment_mode, status_message, created, decided_at, payments_mode,
                                 gateway)
             VALUES ($1, $2, $3, $4, $5, $6, 'USD', $7, $8, $9, '+14155550100', '1 Harbour Road', 'Springfield',
                     'Oregon', '97477', $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)",
        )
        .bind(format!("ORD{}{:06}", created.unix_timestamp() * 1000, i))
        .bind(kind)
        .bind(item_id)
        .bind(item_title)
        .bind((kind == "custom").then_some("100.00"))
        .bind(cents as i64)
        .bind(status)
        .bind(&name)
        .bind(format!("payer{i}@example.net"))
        .bind(*rng.pick(&COUNTRIES))
        .bind(decided.as_ref().map(|_| status.to_owned()))
        .bind(decided.as_ref().map(|_| format!("{}", 110_000_000_000u64 + i as u64)))
        .bind(decided.as_ref().map(|_| format!("BRN{i:08}")))
        .bind(decided.as_ref().map(|_| "Credit Card"))
        .bind(decided.as_ref().map(|_| "Transaction processed"))
        .bind(timestamp(created))
        .bind(decided.as_deref())
        .bind(mode)
        .bind(mode.map(|m| if m == "test" { "http://127.0.0.1/test-gateway" } else { "https://secure.ccavenue.com" }))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    println!("orders: {n}");

    let n = count("MESSAGES", 20_000);
    let mut tx = pool.begin().await?;
    for i in 0..n {
        let created = spread(now, i, n);
        let read = (rng.below(3) != 0).then(|| timestamp(created + Duration::hours(5)));
        sqlx::query(
            "INSERT INTO messages (id, name, number, email, country, message, created, read_at)
             VALUES ($1, $2, '+14155550100', $3, $4, $5, $6, $7)",
        )
        .bind(format!("msg{i:012}"))
        .bind(name(&mut rng))
        .bind(format!("visitor{i}@example.com"))
        .bind(*rng.pick(&COUNTRIES))
        .bind(format!("Hello, a question about {}. {}", words(&mut rng, 3), words(&mut rng, 30)))
        .bind(timestamp(created))
        .bind(read)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    println!("messages: {n}");

    let n = count("SUBSCRIBERS", 20_000);
    let mut tx = pool.begin().await?;
    for i in 0..n {
        let created = spread(now, i, n);
        let status = ["subscribed", "subscribed", "pending", "unsubscribed"][rng.below(4)];
        let confirmed = (status != "pending").then(|| timestamp(created + Duration::minutes(10)));
        sqlx::query("INSERT INTO subscribers (id, email, created, status, confirmed) VALUES ($1, $2, $3, $4, $5)")
            .bind(format!("sub{i:012}"))
            .bind(format!("reader{i}@example.com"))
            .bind(timestamp(created))
            .bind(status)
            .bind(confirmed)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    println!("subscribers: {n}");

    let n = count("MAILS", 20_000);
    let mut tx = pool.begin().await?;
    for i in 0..n {
        let created = timestamp(spread(now, i, n));
        let failed = i % 500 == 0;
        sqlx::query(
            "INSERT INTO outbox (to_address, subject, text_body, html_body, status, attempts, next_attempt_at,
                                 last_error, created, sent_at)
             VALUES ($1, $2, 'Thank you.', '<p>Thank you.</p>', $3, $4, $5, $6, $5, $7)",
        )
        .bind(format!("author{i}@example.org"))
        .bind(format!("Your submission {}", words(&mut rng, 2)))
        .bind(if failed { "failed" } else { "sent" })
        .bind(if failed { 8 } else { 1 })
        .bind(&created)
        .bind(failed.then_some("connection refused"))
        .bind((!failed).then_some(created.clone()))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    println!("mails: {n}");

    let n = count("AUDIT", 5_000);
    let mut tx = pool.begin().await?;
    for i in 0..n {
        let action = ["auth.signed_in", "paper.downloaded", "export.csv", "auth.signed_out"][rng.below(4)];
        sqlx::query(
            "INSERT INTO audit_log (at, actor, client, action, object_type, object_id, details)
             VALUES ($1, 'chair@example.org', '127.0.0.1', $2, 'submission', $3, '{}')",
        )
        .bind(timestamp(spread(now, i, n)))
        .bind(action)
        .bind(format!("P-2025-B{:05}", i % 20_000))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    println!("audit entries: {n}");

    let reviews = review_rows(&pool, &mut rng, now).await?;
    println!("reviews: {reviews}");
    if engine == Engine::Postgres {
        // What autovacuum does on a live server some time after a bulk of inserts: statistics for
        // the planner, and the visibility map that lets counts read an index alone.
        sqlx::raw_sql("VACUUM ANALYZE").execute(&pool).await?;
    }
    pool.close().await;
    Ok(())
}

/// Reviewers, assignments and reviews over the submissions written above, with the
/// submissions' review figures as the reviewer pages keep them; how many reviews.
async fn review_rows(pool: &db::Pool, rng: &mut Rng, now: OffsetDateTime) -> Result<usize, Box<dyn Error>> {
    const RECOMMENDATIONS: [&str; 6] =
        ["strong_accept", "accept", "weak_accept", "weak_reject", "reject", "strong_reject"];
    let reviewers = count("REVIEWERS", 400).max(2);
    let first = std::env::var("REVIEWER_EMAIL").unwrap_or_else(|_| "bench.chair@example.org".into());
    let stamp = timestamp(now - Duration::days(30));
    let mut tx = pool.begin().await?;
    let mut ids = Vec::with_capacity(reviewers);
    for r in 0..reviewers {
        let email = if r == 0 { first.clone() } else { format!("reviewer{r}@review.example.net") };
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO reviewers (email, name, affiliation, topics, state, invited_at, answered_at)
             VALUES ($1, $2, $3, '', 'accepted', $4, $4) RETURNING id",
        )
        .bind(email)
        .bind(name(rng))
        .bind(format!("Institute of {}", words(rng, 2)))
        .bind(&stamp)
        .fetch_one(&mut *tx)
        .await?;
        ids.push(id);
    }
    let submission_ids: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM submissions ORDER BY id").fetch_all(&mut *tx).await?;
    let mut written = 0;
    for (i, &submission) in submission_ids.iter().enumerate() {
        let (mut scores, mut counts) = (Vec::new(), std::collections::BTreeMap::<&str, i64>::new());
        for number in 1..=2i64 {
            // Reviewer 1 (the bench's organiser) gets every 200th paper: a list of 100 papers.
            let reviewer =
                if number == 1 && i % 200 == 0 { ids[0] } else { ids[1 + (i * 2 + number as usize) % (reviewers - 1)] };
            let (assignment,): (i64,) = sqlx::query_as(
                "INSERT INTO review_assignments (submission_id, reviewer_id, number, state, created, released_at)
                 VALUES ($1, $2, $3, 'released', $4, $4) RETURNING id",
            )
            .bind(submission)
            .bind(reviewer)
            .bind(number)
            .bind(&stamp)
            .fetch_one(&mut *tx)
            .await?;
            let submitted = rng.below(10) != 0;
            let (a, b) = (1 + rng.below(5) as i64, 1 + rng.below(5) as i64);
            let score = (a * 2 + b) * 1000 / 3;
            let recommendation = *rng.pick(&RECOMMENDATIONS);
            let answers = format!(
                r#"[{{"key":"originality","label":"Originality","weight":2,"score":{a},"score_label":"{a}"}},{{"key":"clarity","label":"Clarity","weight":1,"score":{b},"score_label":"{b}"}}]"#
            );
            sqlx::query(
                "INSERT INTO reviews (assignment_id, submission_id, reviewer_id, state, answers, score, recommendation,
                                      confidence, comments_to_authors, confidential_comments, created, updated,
                                      submitted_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12)",
            )
            .bind(assignment)
            .bind(submission)
            .bind(reviewer)
            .bind(if submitted { "submitted" } else { "draft" })
            .bind(answers)
            .bind(score)
            .bind(recommendation)
            .bind(1 + rng.below(5) as i64)
            .bind(words(rng, 40))
            .bind(words(rng, 10))
            .bind(&stamp)
            .bind(submitted.then_some(stamp.clone()))
            .execute(&mut *tx)
            .await?;
            written += 1;
            if submitted {
                scores.push(score);
                *counts.entry(recommendation).or_default() += 1;
            }
        }
        let (mean, spread) = match (scores.iter().min(), scores.iter().max()) {
            (Some(low), Some(high)) => (Some(scores.iter().sum::<i64>() / scores.len() as i64), Some(high - low)),
            _ => (None, None),
        };
        sqlx::query(
            "UPDATE submissions SET review_code = $1, reviews_submitted = $2, review_score = $3, review_spread = $4,
                                    recommendations = $5 WHERE id = $6",
        )
        .bind(format!("R-B{i:05}"))
        .bind(scores.len() as i64)
        .bind(mean)
        .bind(spread)
        .bind(serde_json::to_string(&counts)?)
        .bind(submission)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(written)
}
