//! A large published programme for `bench/` (issue 31 item 7): 250 talks in 40 sessions over
//! 3 days. Not part of the server: a benchmark's tool, run against the database of a server
//! the benchmark started on the production seed. It adds technical sessions beside the
//! seed's until there are 40, stores 250 accepted papers with made-up authors, places them
//! and publishes version 1 through the same code organisers use, so the running server shows
//! it within its next content poll.
//!
//! ```sh
//! cargo build --release --example programme_fixture
//! target/release/examples/programme_fixture sqlite://DIR/conference.db?mode=rwc [TALKS]
//! ```
//!
//! TALKS (default 250) places fewer papers: `tests/validate-html.sh` checks every kind of
//! programme page with a dozen.

use std::error::Error;

use conference::programme::publish::{Workbench, publish};
use conference::repo::programme::place;
use conference::repo::submissions::{NewSubmission, insert};

/// The issue's figures.
const SESSIONS: usize = 40;
const TALKS: usize = 250;

const FIRST: [&str; 10] = ["Ana", "Bayani", "Chen", "Dalisay", "Emeka", "Farah", "Gustavo", "Hana", "Ivan", "Josefa"];
const LAST: [&str; 10] =
    ["Reyes", "Okafor", "Tanaka", "Lindqvist", "Moreau", "Haddad", "Santos", "Kowalski", "Nguyen", "Mendoza"];
const TOPICS: [&str; 8] = [
    "solar micro-grids for island communities",
    "circular supply chains in textile manufacturing",
    "urban heat islands and cool roofs",
    "low-carbon concrete from agricultural waste",
    "flood forecasting with community sensors",
    "battery reuse in rural electrification",
    "sustainable fisheries management",
    "water reuse in industrial parks",
];

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let url = std::env::args().nth(1).ok_or("usage: programme_fixture DATABASE_URL [TALKS]")?;
    let talks: usize = match std::env::args().nth(2) {
        Some(n) => n.parse().map_err(|_| format!("TALKS {n:?} is not a number"))?,
        None => TALKS,
    };
    let pool = conference::db::connect(&url).await?;
    let bench = Workbench::load(&pool).await?;
    if bench.previous.is_some() {
        return Err("this database already has a published programme".into());
    }
    let mut tx = conference::db::begin_write(&pool).await?;
    let placeable = |kind: &str| kind == "technical" || kind == "poster";
    let mut slots: Vec<String> = bench.sessions.iter().filter(|s| placeable(&s.kind)).map(|s| s.slug.clone()).collect();
    // Extra technical sessions in the evenings, one a room and slot, so the programme has
    // the issue's 40 sessions.
    let extra = SESSIONS.saturating_sub(bench.sessions.len());
    for n in 0..extra {
        let day = 21 + (n % 3);
        let hour = if n < 12 { 17 } else { 19 };
        let room = ["room-201", "room-202", "room-203", "online-stage"][(n / 3) % 4];
        let slug = format!("bench-session-{n}");
        sqlx::query(
            "INSERT INTO sessions (slug, title, description, kind, track, room, starts_at, ends_at, mode, chair, created, updated)
             VALUES ($1, $2, 'Contributed papers.', 'technical', NULL, $3, $4, $5, 'hybrid', 'Dr. Session Chair',
                     '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z')",
        )
        .bind(&slug)
        .bind(format!("Contributed papers {}", n + 1))
        .bind(room)
        .bind(format!("2025-03-{day} {hour}:00"))
        .bind(format!("2025-03-{day} {}:30", hour + 1))
        .execute(&mut *tx)
        .await?;
        slots.push(slug);
    }
    for n in 0..talks {
        let first = FIRST[n % FIRST.len()];
        let last = LAST[(n / FIRST.len()) % LAST.len()];
        let paper = NewSubmission {
            reference: format!("P-BENCH-{n:04}"),
            name: String::new(),
            number: "+639171234567".into(),
            email: format!("author{n}@example.org"),
            country: "Philippines".into(),
            author_name: format!("{first} {last}"),
            co_author_name: format!(
                "{} {}, {} {}",
                FIRST[(n + 3) % 10],
                LAST[(n + 1) % 10],
                FIRST[(n + 7) % 10],
                LAST[(n + 5) % 10]
            ),
            paper_title: format!("A study of {} ({})", TOPICS[n % TOPICS.len()], n + 1),
            department: "Department of Environmental Science".into(),
            university_organization: "University of the Example Islands".into(),
            paper_type: "Full Paper".into(),
            presentation_type: "Oral".into(),
            message: String::new(),
            conference_source: "Website".into(),
            file_path: format!("papers/P-BENCH-{n:04}.pdf"),
            file_name: "paper.pdf".into(),
            file_type: "application/pdf".into(),
            file_size: 1024,
        };
        let id = insert(&mut tx, &paper).await?;
        sqlx::query("UPDATE submissions SET state = 'accepted' WHERE id = $1").bind(id).execute(&mut *tx).await?;
        place(&mut tx, id, &slots[n % slots.len()], 8, "2025-01-01T00:00:00Z").await?;
    }
    tx.commit().await?;
    let version = publish(&pool, 1, "Bench programme", "cli", None, time::OffsetDateTime::now_utc(), &|_, _, _| {
        unreachable!("the first version moves no talk")
    })
    .await
    .map_err(|e| format!("{e}: {:?}", e))?;
    println!("published version 1: {} sessions, {} talks", version.sessions.len(), version.talks.len());
    Ok(())
}
