//! Runtime configuration: environment variables of DESIGN.md section 2, each also a flag.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// The `conference` command line.
#[derive(Debug, Parser)]
#[command(name = "conference", version, about = "The conference website server")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub config: Config,
}

#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum Command {
    /// Migrate, seed an empty database, and serve (the default).
    Serve,
    /// Apply pending schema migrations and exit.
    Migrate,
    /// Re-apply the content seed; visitors' data is untouched.
    Seed {
        /// The seed file to apply; when it does not exist, the copy built into the binary.
        #[arg(long, default_value = "migrations/seed/content.sql")]
        file: PathBuf,
    },
}

/// Server configuration; every field reads its environment variable when the flag is absent.
#[derive(Debug, Clone, Parser)]
pub struct Config {
    /// Socket to serve on.
    #[arg(long, env = "LISTEN_ADDR", default_value = "127.0.0.1:3000", global = true)]
    pub listen_addr: SocketAddr,

    /// Database URL; the SQLite file is created when missing.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://data/conference.db", global = true)]
    pub database_url: String,

    /// Folder for uploaded papers and mail files.
    #[arg(long, env = "DATA_DIR", default_value = "data", global = true)]
    pub data_dir: PathBuf,

    /// Absolute base URL for canonical and Open Graph links, the sitemap and gateway return URLs.
    /// Also the only origin allowed to POST from a browser.
    #[arg(long, env = "PUBLIC_URL", default_value = "http://127.0.0.1:3000", global = true)]
    pub public_url: String,
}

impl Config {
    /// `PUBLIC_URL` without a trailing slash, so paths can be appended.
    pub fn base_url(&self) -> &str {
        self.public_url.trim_end_matches('/')
    }

    /// Absolute URL of a site path such as `/pricing`.
    pub fn absolute(&self, path: &str) -> String {
        format!("{}{}", self.base_url(), path)
    }

    /// A configuration for tests: in-memory defaults, a given data folder.
    pub fn for_tests(data_dir: PathBuf) -> Self {
        Config {
            listen_addr: "127.0.0.1:0".parse().expect("valid address"),
            database_url: format!("sqlite://{}/conference.db", data_dir.display()),
            data_dir,
            public_url: "http://127.0.0.1:3000".into(),
        }
    }
}
