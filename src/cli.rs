//! The `conference` command line (DESIGN.md section 2): its subcommands and what each runs.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::config::Config;
use crate::repo::audit;
use crate::{db, export, server};

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
        /// The seed file to apply; a file that does not exist is an error. Without it:
        /// `migrations/seed/content.sql` when run in a checkout, else the copy built into
        /// the binary.
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Write what visitors sent as CSV to stdout, or with `papers`, every paper file into
    /// `--out DIR` named by its reference.
    Export {
        #[arg(value_enum)]
        kind: export::ExportKind,
        /// Folder for `export papers` (created when missing).
        #[arg(long, required_if_eq("kind", "papers"))]
        out: Option<PathBuf>,
    },
}

/// Runs the chosen subcommand to completion.
pub async fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    let config = cli.config;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Migrate => {
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            tracing::info!("migrations applied");
        }
        Command::Seed { file } => {
            // Organisers edit the file and re-apply it without rebuilding; a binary run
            // elsewhere falls back to the seed it was built with. A file named on the command
            // line must exist: a mistyped path never applies another seed instead, and is
            // refused before the database is touched.
            let file = match file {
                Some(file) if !file.is_file() => {
                    return Err(format!("seed file {} does not exist; nothing was changed", file.display()).into());
                }
                Some(file) => Some(file),
                None => Some(PathBuf::from(db::CONTENT_SEED_PATH)).filter(|default| default.is_file()),
            };
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            match file {
                Some(file) => {
                    let sql = std::fs::read_to_string(&file)?;
                    db::seed_with(&pool, sql).await?;
                    tracing::info!(file = %file.display(), "content seed applied");
                }
                None => {
                    db::seed(&pool).await?;
                    tracing::info!("content seed applied from the copy built into the binary");
                }
            }
        }
        Command::Export { kind, out } => {
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            let details = match (kind, out) {
                (export::ExportKind::Papers, Some(out)) => {
                    let written = export::papers::write_all(&pool, &config.data_dir, &out).await?;
                    tracing::info!(written, out = %out.display(), "papers exported");
                    serde_json::json!({ "kind": kind.as_str(), "written": written, "out": out.display().to_string() })
                }
                (kind, _) => {
                    export::export(&pool, kind, std::io::stdout().lock()).await?;
                    serde_json::json!({ "kind": kind.as_str() })
                }
            };
            // What left the database, in the organisers' audit log (DESIGN.md section 12).
            let at = crate::mail::outbox::now_rfc3339();
            let mut conn = pool.acquire().await?;
            let entry = audit::NewEntry {
                at: &at,
                actor: audit::CLI,
                client: None,
                action: if kind == export::ExportKind::Papers { "export.papers" } else { "export.csv" },
                object_type: Some("export"),
                object_id: Some(kind.as_str()),
                details,
            };
            audit::record(&mut conn, &entry).await?;
        }
        Command::Serve => server::serve(config).await?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_papers_needs_an_out_folder() {
        assert!(Cli::try_parse_from(["conference", "export", "papers"]).is_err());
        let cli = Cli::try_parse_from(["conference", "export", "papers", "--out", "papers-2025"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Export { out: Some(_), .. })));
        assert!(Cli::try_parse_from(["conference", "export", "messages"]).is_ok(), "CSV exports need no folder");
    }
}
