//! The database engines (issue 12): what differs between SQLite and PostgreSQL must not
//! show. The whole suite runs on both (see tests/common/database.rs); these are the cases
//! where the engines disagree unless the server smooths it over.

use axum::http::StatusCode;
use serde_json::json;

use crate::common::app_with;

/// PostgreSQL's `text` cannot hold U+0000 where SQLite's can: a NUL in an address or a form
/// is a clear answer on both, never a 500.
#[tokio::test]
async fn a_nul_character_is_a_clear_answer_on_every_engine() {
    let app = app_with(|c| c.rate_limit_per_minute = 1000).await;
    for path in [
        "/highlights/sustainable-technologies%00",
        "/Success?order=ORD1740816000000TEST01%00",
        "/api/files/download_buttons/%00/brochure.pdf",
        "/api/collections/dates%00/records",
    ] {
        let (status, _, body) = app.get(path).await;
        assert!(status.is_client_error() || status.is_redirection(), "GET {path}: {status} {body}");
    }
    let message = json!({
        "name": "Nul\u{0}Byte",
        "number": "+15551234567",
        "email": "nul@example.org",
        "country": "United States",
        "message": "A message with a \u{0} inside",
    });
    let (status, answer) = app.post_json("/api/contact", &message).await;
    match status {
        // SQLite keeps the text as sent.
        StatusCode::CREATED => {
            let (stored,): (String,) =
                sqlx::query_as("SELECT message FROM messages").fetch_one(&app.pool).await.unwrap();
            assert_eq!(stored, "A message with a \u{0} inside");
        }
        StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY => {
            assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()), "{answer}");
            assert_eq!(app.count("messages").await, 0, "nothing half stored");
            assert_eq!(app.count("outbox").await, 0);
        }
        other => panic!("a NUL in a form answered {other}: {answer}"),
    }
}

/// Every column of the schema as `table.column`, sorted, read from the engine's catalogue.
async fn columns(pool: &conference::db::Pool) -> Vec<String> {
    let sql = match conference::db::Engine::of_pool(pool) {
        conference::db::Engine::Sqlite => {
            // Ordinary tables: SQLite's full-text indexes (migration 0014) have no counterpart.
            "SELECT m.name || '.' || p.name FROM pragma_table_list m, pragma_table_info(m.name) p
             WHERE m.schema = 'main' AND m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_sqlx_migrations'
             ORDER BY 1"
        }
        conference::db::Engine::Postgres => {
            // paper_chunks: PostgreSQL keeps papers in the database, SQLite under DATA_DIR.
            "SELECT CAST(table_name || '.' || column_name AS TEXT) FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name NOT IN ('_sqlx_migrations', 'paper_chunks')
             ORDER BY 1"
        }
    };
    let rows: Vec<(String,)> = sqlx::query_as(sql).fetch_all(pool).await.unwrap();
    rows.into_iter().map(|(c,)| c).collect()
}

/// Both migration folders build the same tables and columns (a migration added to
/// `migrations/sqlite` and forgotten in `migrations/postgres` fails here on the PostgreSQL run).
#[tokio::test]
async fn both_engines_migrate_to_the_same_tables_and_columns() {
    let app = crate::common::app().await;
    let dir = tempfile::tempdir().unwrap();
    let sqlite = conference::db::connect(&format!("sqlite://{}/reference.db", dir.path().display())).await.unwrap();
    conference::db::migrate(&sqlite).await.unwrap();
    let reference = columns(&sqlite).await;
    assert!(reference.contains(&"outbox.claimed_until".to_owned()), "{reference:?}");
    assert_eq!(columns(&app.pool).await, reference);
}
