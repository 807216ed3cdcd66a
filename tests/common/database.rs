//! The database a test runs on: a SQLite file in the test's folder, or, when
//! `TEST_DATABASE_URL` names a PostgreSQL server (`.ci/run` starts one), a fresh database on
//! that server, made for the test and dropped after it.

use sqlx::Connection as _;

use conference::db::{Connection, Engine};

/// A database made on the `TEST_DATABASE_URL` server for one test; dropped on drop.
pub struct Scratch {
    /// Where the test's pool connects.
    pub url: String,
    admin_url: String,
    name: String,
}

/// The PostgreSQL server of this run, if any. Any other engine in the variable is a mistake
/// worth stopping for, not a silent fallback to SQLite.
pub fn server_url() -> Option<String> {
    let url = std::env::var("TEST_DATABASE_URL").ok().filter(|u| !u.trim().is_empty())?;
    match Engine::from_url(&url) {
        Ok(Engine::Postgres) => Some(url),
        _ => panic!("TEST_DATABASE_URL must name a PostgreSQL server (postgres://...), got {url:?}"),
    }
}

impl Scratch {
    /// A new empty database on the run's server; `None` when the run is on SQLite.
    pub async fn create() -> Option<Scratch> {
        let admin_url = server_url()?;
        sqlx::any::install_default_drivers();
        let name = format!("test_{}", rand::random::<u64>());
        let mut admin = Connection::connect(&admin_url).await.expect("TEST_DATABASE_URL connects");
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut admin)
            .await
            .expect("CREATE DATABASE");
        admin.close().await.ok();
        let mut url = url::Url::parse(&admin_url).expect("TEST_DATABASE_URL is a URL");
        url.set_path(&name);
        Some(Scratch { url: url.to_string(), admin_url, name })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // Drop runs inside the test's runtime; a runtime of its own on another thread may block.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            runtime.block_on(async move {
                let mut admin = Connection::connect(&admin_url).await?;
                sqlx::raw_sql(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")))
                    .execute(&mut admin)
                    .await?;
                admin.close().await
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("could not drop the test database {}", self.name);
        }
    }
}
