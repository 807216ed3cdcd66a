//! The conference website: one axum server that renders every page and owns every API.
//!
//! The code reads top-down in six layers (DESIGN.md section 11). A module names only modules
//! of its own layer (never in a loop) or of lower ones; nothing below the handlers takes
//! `AppState` (domain and data code take the pool or the settings they use); a `mod.rs` holds
//! declarations, and its children name their siblings, not their parent. `tests/layers.rs`
//! reads this table and every `use` of `src/` and fails on a breach, naming file and name.
//!
//! A page request: `server::accept` → `http::cache_hits` (a fresh page from `cache`) or
//! `http::router`'s stack → a handler of `handlers::pages` → `handlers::render` with
//! `views::layout` over the `content` snapshot → the answer kept in `cache::pages`.
//! `docs/architecture.md` follows a page and a paper submission through the layers.

// 1. process: the program and what runs beside the requests.
/// The command line: subcommands and what each runs.
pub mod cli;
/// Start-up, the accept loop, connection limits, HTTPS (files or ACME) and the plain port's
/// redirect, graceful shutdown, the sweeper.
pub mod server;

// 2. http: from a request to a handler and back.
/// The router and its middleware stack, the cache-hit fast path, the POST guard, body
/// limits, security and cache headers; every page rendered through it (`seed --check`).
pub mod http;

// 3. handlers: what each route answers.
/// Pages, APIs, seo files; the page table, the layout, rendering helpers, extractors and the
/// application state.
pub mod handlers;
/// What each page shows, free of HTTP: templates' structs, view models, shared labels and the
/// layout.
pub mod views;

// 4. domain: the conference's rules, free of HTTP.
/// Attendees: tickets and their codes, the attendee links, numbered receipts and credit
/// notes, the ticket's QR code.
pub mod attendance;
/// Backups: one archive of the database snapshot, papers and manifest; checking and
/// restoring it on either engine.
pub mod backup;
/// The conference calendar: the operational deadlines, which value is in force, changing
/// them, and the forms they close (DESIGN.md section 20).
pub mod calendar;
/// CCAvenue's protocol and cipher.
pub mod ccavenue;
/// Decisions on submissions: states, status links, the decision mails.
pub mod decisions;
/// Editions (DESIGN.md section 17): the next edition's seed drafted from the one in force.
pub mod editions;
/// CSV exports of what visitors sent, and the paper files.
pub mod export;
/// Mail: composing, the outbox, transports and the worker.
pub mod mail;
/// Papers: file types, references, file names and where they are kept.
pub mod papers;
/// Payments: settings, checkout rules, the order state machine, receipts.
pub mod payments;
/// Proceedings: the camera-ready PDF's format check (DESIGN.md section 18).
pub mod proceedings;
/// The programme: the draft of sessions and placed papers, its conflicts, publishing versions
/// and their changes, and the timetable visitors read in the event's zone.
pub mod programme;
/// Peer review: reviewers, conflicts, assignments, reviewing, what authors read, reminders.
pub mod review;
/// Sign-in and roles, one mechanism for every role: who may sign in to which area, the
/// secrets of links and sessions.
pub mod sign_in;
/// An author submitting a paper: the form's fields, keeping the paper, its row and status
/// link, and the mails.
pub mod submissions;

// 5. data: what is stored.
/// The content snapshot in memory, its loader and watcher.
pub mod content;
/// All SQL.
pub mod repo;
/// The content seed: applying it in one transaction, and its rules, checked there: the
/// programme's sessions, the review form and settings, the decision mails' placeholders.
pub mod seed;

// 6. foundation: what everything stands on.
/// Small pieces every layer uses: amounts in cents, the client's address behind proxies,
/// operating-system tuning.
pub mod base;
/// Prepared (pre-compressed) answers: pages, files, their forms and cache headers; the island
/// and static asset catalogue from the build's manifest.
pub mod cache;
/// Time: where "now" comes from, the event's IANA zone, content dates as pages show them.
pub mod clock;
/// Settings from the environment and flags.
pub mod config;
/// Database connections, migrations and the content seed.
pub mod db;
/// The one error type.
pub mod error;
/// What visitors type: the rules every form shares, the paper form's options.
pub mod forms;

pub use http::cache_hits::App;
pub use http::router::app;
