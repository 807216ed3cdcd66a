//! The application under test: a fresh database per test (migrated, seeded with the tests'
//! own `tests/fixtures/content.sql`) in a temporary folder, driven through `oneshot` without
//! opening a port.

#![allow(dead_code)]

pub mod database;
pub mod fixture;
pub mod html;
pub mod ics;
pub mod inflate;
pub mod log;
pub mod loopback;
pub mod paper_form;
pub mod papers;
pub mod payer;
pub mod payments;
pub mod pdf;
pub mod programme;
pub mod review;
pub mod rng;
pub mod smtp;
pub mod tls;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tempfile::TempDir;
use tower::ServiceExt;

use conference::clock::Clock;
use conference::config::Config;
use conference::db::{Engine, Pool};
use conference::handlers::state::AppState;

/// `PUBLIC_URL` of `Config::for_tests`.
pub const BASE: &str = "http://127.0.0.1:3000";

/// Every page of `conference::handlers::page_table::PAGES` (the spec's table, section 2, plus
/// `/cookie-policy`) with the path that is its canonical form, a highlight's once per slug of
/// [`HIGHLIGHT_SLUGS`], a session's once per session of [`fixture::SESSIONS`], a talk's never
/// (the fixture has no published programme until a test publishes one). Aliases
/// (`/Schedule`, `/Terms-%26-Conditions`) share a canonical. Only HTML pages: the table's
/// calendar (`/schedule.ics`) is left out.
/// `/Success` needs a paid order: [`TestApp::page_paths`] gives the address to request.
pub static PAGES: std::sync::LazyLock<Vec<(&'static str, &'static str)>> = std::sync::LazyLock::new(|| {
    let mut pages = Vec::new();
    for page in conference::handlers::page_table::PAGES.iter().filter(|page| page.html) {
        if page.path == "/highlights/{slug}" {
            for slug in HIGHLIGHT_SLUGS {
                // Test-only: a handful of strings, alive for the whole run anyway.
                let path: &'static str = Box::leak(format!("/highlights/{slug}").into_boxed_str());
                pages.push((path, path));
            }
        } else if page.path == conference::handlers::page_table::TALK {
            // No talk before a version is published (`programme::publish_fixture_programme`).
        } else if page.path == conference::handlers::page_table::SESSION {
            for session in fixture::SESSIONS {
                let path: &'static str = Box::leak(format!("/schedule/sessions/{}", session.slug).into_boxed_str());
                pages.push((path, path));
            }
        } else {
            pages.push((page.path, page.canonical));
        }
    }
    pages
});

/// The id of the order [`TestApp::paid_order`] writes.
pub const PAID_ORDER: &str = "ORD1740816000000TEST01";

/// The three highlight slugs of the spec.
pub const HIGHLIGHT_SLUGS: [&str; 3] =
    ["sustainable-technologies", "innovation-sustainable-future", "smart-future-technologies"];

/// The six content collections of the old backend (spec section 3).
pub const COLLECTIONS: [&str; 6] =
    ["dates", "committee", "schedule", "speakers", "co_organizers_img", "download_buttons"];

/// A running application over its own database.
pub struct TestApp {
    pub router: conference::App,
    pub pool: Pool,
    /// Keeps the database folder alive as long as the app.
    pub dir: TempDir,
    /// The configuration the app runs with (`DATA_DIR` is `dir`).
    pub config: Config,
    /// The app's state: its content snapshot, page cache and clock.
    pub state: AppState,
    /// The PostgreSQL database made for this test, dropped with the app.
    pub postgres: Option<database::Scratch>,
}

impl TestApp {
    /// The engine this run tests: PostgreSQL when `TEST_DATABASE_URL` names a server.
    pub fn engine(&self) -> Engine {
        Engine::of_pool(&self.pool)
    }
}

/// A fresh application: temporary folder, migrated database seeded with [`fixture::SEED`].
pub async fn app() -> TestApp {
    app_with(|_| {}).await
}

/// [`app`] whose pages read "now" from a fixed clock standing at `now` (move it with
/// `app.state.clock.set(...)`).
pub async fn app_at(now: time::OffsetDateTime) -> TestApp {
    app_with_clock(|_| {}, Clock::fixed(now)).await
}

/// [`app`] with a changed configuration (e.g. a small `rate_limit_per_minute`).
pub async fn app_with(configure: impl FnOnce(&mut Config)) -> TestApp {
    app_with_clock(configure, Clock::system()).await
}

/// [`app_with`] and a clock.
pub async fn app_with_clock(configure: impl FnOnce(&mut Config), clock: Clock) -> TestApp {
    let dir = tempfile::tempdir().expect("temporary folder");
    let postgres = database::Scratch::create().await;
    let url = match &postgres {
        Some(scratch) => scratch.url.clone(),
        None => format!("sqlite://{}/test.db", dir.path().display()),
    };
    let pool = conference::db::connect(&url).await.expect("database connects");
    conference::db::migrate(&pool).await.expect("migrations apply");
    fixture::seed(&pool).await.expect("the fixture seed applies");
    let mut config = Config::for_tests(dir.path().to_path_buf());
    config.database_url = url;
    configure(&mut config);
    let state = AppState::new(pool.clone(), config.clone()).with_clock(clock);
    TestApp { router: conference::app(state.clone()), pool, dir, config, state, postgres }
}

/// A whole response, body collected.
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

impl TestApp {
    /// Sends any request and collects the answer.
    pub async fn send(&self, request: Request<Body>) -> Reply {
        let response = self.router.clone().oneshot(request).await.expect("the router is infallible");
        let (parts, body) = response.into_parts();
        let body = body.collect().await.expect("body collects").to_bytes().to_vec();
        Reply { status: parts.status, headers: parts.headers, body }
    }

    /// POST `body` as `content_type` with extra request headers.
    pub async fn post(&self, path: &str, content_type: &str, body: impl Into<Body>, headers: &[(&str, &str)]) -> Reply {
        let mut request = Request::post(path).body(body.into()).expect("valid request");
        if !content_type.is_empty() {
            request.headers_mut().insert("content-type", HeaderValue::from_str(content_type).expect("content type"));
        }
        insert_headers(&mut request, headers);
        self.send(request).await
    }

    /// POST `body` as JSON from a same-origin page; status and the answer's JSON.
    pub async fn post_json(&self, path: &str, body: &Value) -> (StatusCode, Value) {
        let reply = self.post(path, "application/json", body.to_string(), &[("origin", BASE)]).await;
        let value = serde_json::from_slice(&reply.body)
            .unwrap_or_else(|e| panic!("POST {path}: invalid JSON ({e}): {}", reply.text()));
        (reply.status, value)
    }

    /// The database URL of the app (for a second process on the same database).
    pub fn database_url(&self) -> String {
        self.config.database_url.clone()
    }

    /// GET with extra request headers.
    pub async fn request(&self, path: &str, headers: &[(&str, &str)]) -> Reply {
        let mut request = Request::builder().uri(path).body(Body::empty()).expect("valid request");
        insert_headers(&mut request, headers);
        self.send(request).await
    }

    /// GET `path`: status, headers and the body as text.
    pub async fn get(&self, path: &str) -> (StatusCode, HeaderMap, String) {
        self.get_with(path, &[]).await
    }

    /// GET `path` with extra request headers.
    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> (StatusCode, HeaderMap, String) {
        let reply = self.request(path, headers).await;
        let text = reply.text();
        (reply.status, reply.headers, text)
    }

    /// GET a page that must answer 200; its HTML.
    pub async fn page(&self, path: &str) -> String {
        let (status, headers, body) = self.get(path).await;
        assert_eq!(status, StatusCode::OK, "GET {path} answers 200; body: {}", excerpt(&body));
        let content_type = headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("");
        assert!(content_type.starts_with("text/html"), "GET {path} is HTML, got {content_type:?}");
        body
    }

    /// GET `path` and parse the body as JSON.
    pub async fn json(&self, path: &str) -> (StatusCode, Value) {
        let (status, headers, body) = self.get(path).await;
        let content_type = headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("");
        assert!(content_type.starts_with("application/json"), "GET {path} answers JSON, got {content_type:?}: {body}");
        let value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: invalid JSON ({e}): {body}"));
        (status, value)
    }

    /// The paper stored as `file_path` (e.g. `papers/P-2025-7KQ4M9.pdf`): the file under
    /// `DATA_DIR` on SQLite, its chunks in the database on PostgreSQL.
    pub async fn stored_paper(&self, file_path: &str) -> Option<Vec<u8>> {
        match self.engine() {
            Engine::Sqlite => std::fs::read(self.dir.path().join(file_path)).ok(),
            Engine::Postgres => conference::repo::papers::read(&self.pool, file_path).await.expect("paper reads"),
        }
    }

    /// How many papers are stored (files under `DATA_DIR/papers`, or papers in the database).
    pub async fn stored_papers(&self) -> usize {
        match self.engine() {
            Engine::Sqlite => std::fs::read_dir(self.dir.path().join("papers")).map(|d| d.count()).unwrap_or(0),
            Engine::Postgres => {
                let (n,): (i64,) = sqlx::query_as("SELECT COUNT(DISTINCT submission_id) FROM paper_chunks")
                    .fetch_one(&self.pool)
                    .await
                    .expect("count papers");
                usize::try_from(n).expect("a count")
            }
        }
    }

    /// A second server instance over the same database and `DATA_DIR`, with its own pool,
    /// as a load balancer's other backend. Drop it before `self`.
    pub async fn another_instance(&self) -> TestApp {
        self.another_instance_with(|_| {}).await
    }

    /// [`TestApp::another_instance`] with a changed configuration (e.g. another
    /// `ORGANISER_EMAIL`), on the same database and clock.
    pub async fn another_instance_with(&self, configure: impl FnOnce(&mut Config)) -> TestApp {
        let mut config = self.config.clone();
        configure(&mut config);
        let pool = conference::db::connect(&config.database_url).await.expect("second instance connects");
        let state = AppState::new(pool.clone(), config.clone()).with_clock(self.state.clock.clone());
        TestApp {
            router: conference::app(state.clone()),
            pool,
            dir: tempfile::tempdir().expect("temporary folder"),
            config,
            state,
            postgres: None,
        }
    }

    /// Makes every INSERT into `table` fail with `message` (a broken disk, a full table), on
    /// either engine, until [`TestApp::allow_inserts`].
    pub async fn fail_inserts(&self, table: &str, message: &str) {
        match self.engine() {
            Engine::Sqlite => {
                self.exec(&format!(
                    "CREATE TRIGGER fail_{table} BEFORE INSERT ON {table} BEGIN SELECT RAISE(ABORT, '{message}'); END"
                ))
                .await
            }
            Engine::Postgres => {
                self.exec(&format!(
                    "CREATE FUNCTION fail_{table}() RETURNS trigger LANGUAGE plpgsql
                     AS $$ BEGIN RAISE EXCEPTION '{message}'; END $$;
                     CREATE TRIGGER fail_{table} BEFORE INSERT ON {table}
                     FOR EACH ROW EXECUTE FUNCTION fail_{table}();"
                ))
                .await
            }
        }
    }

    /// Undoes [`TestApp::fail_inserts`].
    pub async fn allow_inserts(&self, table: &str) {
        match self.engine() {
            Engine::Sqlite => self.exec(&format!("DROP TRIGGER fail_{table}")).await,
            Engine::Postgres => self.exec(&format!("DROP TRIGGER fail_{table} ON {table}")).await,
        }
    }

    /// Runs one SQL statement on the app's database (to break or change content).
    pub async fn exec(&self, sql: &str) {
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_string()))
            .execute(&self.pool)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    /// A paid order of [`fixture::PRESENTER_VIRTUAL`], so `/Success?order=ID` has something
    /// to show; returns its id.
    pub async fn paid_order(&self) -> &'static str {
        self.exec(&format!(
            "INSERT INTO orders (order_id, kind, item_id, item_title, amount_cents, currency, status,
                 billing_name, billing_email, tracking_id, created, decided_at)
             VALUES ('{PAID_ORDER}', 'plan', '{id}', '{title}', {cents}, 'USD', 'success',
                 'Ada Lovelace', 'ada@example.org', '3100000001', '2025-03-01T08:00:00Z', '2025-03-01T08:05:00Z')
             ON CONFLICT (order_id) DO NOTHING",
            id = fixture::PRESENTER_VIRTUAL.id,
            title = fixture::PRESENTER_VIRTUAL.title,
            cents = fixture::PRESENTER_VIRTUAL.cents,
        ))
        .await;
        PAID_ORDER
    }

    /// [`PAGES`] as a visitor reaches them: `/Success` only shows for a paid order.
    pub async fn page_paths(&self) -> Vec<(String, &'static str)> {
        let order = self.paid_order().await;
        PAGES
            .iter()
            .map(|(path, canonical)| match *path {
                "/Success" => (format!("/Success?order={order}"), *canonical),
                _ => (path.to_string(), *canonical),
            })
            .collect()
    }

    /// `SELECT COUNT(*)` of a table.
    pub async fn count(&self, table: &str) -> i64 {
        let sql = format!("SELECT COUNT(*) FROM {table}");
        let (n,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_one(&self.pool).await.expect("count");
        n
    }
}

/// Sets each `(name, value)` on `request`.
fn insert_headers(request: &mut Request<Body>, headers: &[(&str, &str)]) {
    for (name, value) in headers {
        request.headers_mut().insert(
            HeaderName::from_bytes(name.as_bytes()).expect("header name"),
            HeaderValue::from_str(value).expect("header value"),
        );
    }
}

/// The first characters of a body, for assertion messages.
pub fn excerpt(body: &str) -> String {
    body.chars().take(600).collect()
}
