//! The `conference` command line (DESIGN.md section 2): its subcommands and what each runs.

/// `conference edition archive`: the current edition frozen as static files (issue 43 item 5).
pub mod edition_archive;
/// `conference seed --check`: a content seed applied in a rolled-back transaction, and what
/// it would change.
pub mod seed_check;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::config::Config;
use crate::handlers::state::AppState;
use crate::repo::audit;
use crate::seed::apply;
use crate::{backup, db, export, http};

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
        /// Apply nothing: report what the seed would change and any page it would break;
        /// exit status 1 on any problem (DESIGN.md section 13).
        #[arg(long)]
        check: bool,
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
    /// Write one archive of the running site: a consistent database snapshot, every paper
    /// file and a manifest of row counts and SHA-256s (DESIGN.md section 13).
    Backup {
        /// The archive to write (written under a temp name, then renamed).
        #[arg(long)]
        out: PathBuf,
    },
    /// Check an archive: manifest, every SHA-256, the schema version and SQLite's
    /// integrity_check; print its row counts. Exit status 1 on any mismatch.
    VerifyBackup {
        /// The archive to check.
        file: PathBuf,
    },
    /// The conference's deadlines (DESIGN.md section 20): without a subcommand, list each
    /// with its value in the event's zone, whether it has passed and where it comes from.
    Settings {
        #[command(subcommand)]
        action: Option<SettingsAction>,
    },
    /// Editions (DESIGN.md section 17): moving the conference to its next year.
    Edition {
        #[command(subcommand)]
        action: EditionAction,
    },
    /// Restore an archive into an empty database and data folder, on either engine.
    Restore {
        /// The archive to restore.
        #[arg(long)]
        from: PathBuf,
        /// Move a non-empty database and papers folder aside first (renamed, never deleted).
        #[arg(long)]
        force: bool,
    },
}

/// Runs the chosen subcommand to completion.
/// What `conference settings` does besides listing.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum SettingsAction {
    /// Set deadlines, all or nothing: `KEY=VALUE ...` (a date `YYYY-MM-DD` means the end of
    /// that day in the event's zone; `YYYY-MM-DD HH:MM` in the event's zone and RFC 3339 are
    /// accepted). Audited with the actor `cli`; an unknown key or a bad value exits non-zero
    /// and changes nothing. A value set here outlives a later `seed`.
    Set {
        /// `KEY=VALUE`, e.g. `review_deadline=2026-03-01`.
        #[arg(required = true)]
        values: Vec<String>,
    },
}

/// What `conference edition` does.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum EditionAction {
    /// Draft the next edition's content seed from the one in force: every date and time moved
    /// by the same number of days, the edition's year changed in the site's names, each other
    /// mention of the old year listed on stderr (table, row, field). Reads no database.
    Seed {
        /// The new edition's first day, `YYYY-MM-DD`, after the current edition's last day.
        #[arg(long)]
        start: String,
        /// The file to write (whole or not at all); never the seed in force.
        #[arg(long)]
        out: PathBuf,
        /// The seed to draft from; without it, the one `conference seed` applies.
        #[arg(long)]
        from: Option<PathBuf>,
    },
    /// Write the current edition's archive as `edition next` would freeze it today: every
    /// public page and its files under `DIR/<year>/` (the start date's year), links rewritten
    /// to `/<year>/...`, no form that posts, a banner linking to the live site; plain files any
    /// static server serves. Reads the database only; refuses a non-empty `DIR/<year>`.
    Archive {
        /// The folder to write `<year>/` (and `<year>.zip`) into; created when missing.
        #[arg(long)]
        out: PathBuf,
        /// Also write `DIR/<year>.zip` holding the same files.
        #[arg(long)]
        zip: bool,
    },
}

impl Cli {
    /// Whether the command is `serve` (also the default, with no command): `main` starts the
    /// server itself, beside the command line rather than under it, so the one-shot commands
    /// never depend on the accept loop (DESIGN.md section 11).
    pub fn serves(&self) -> bool {
        matches!(self.command, None | Some(Command::Serve))
    }
}

/// Runs a one-shot command (every command but `serve`, see [`Cli::serves`]).
pub async fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    let config = cli.config;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Migrate => {
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            tracing::info!("migrations applied");
        }
        Command::Seed { file, check } => {
            // Organisers edit the file and re-apply it without rebuilding; a binary run
            // elsewhere falls back to the seed it was built with. A file named on the command
            // line must exist: a mistyped path never applies another seed instead, and is
            // refused before the database is touched.
            let file = match file {
                Some(file) if !file.is_file() => {
                    return Err(format!("seed file {} does not exist; nothing was changed", file.display()).into());
                }
                Some(file) => Some(file),
                None => Some(PathBuf::from(apply::CONTENT_SEED_PATH)).filter(|default| default.is_file()),
            };
            if check {
                let (sql, name) = match &file {
                    Some(file) => (std::fs::read_to_string(file)?, file.display().to_string()),
                    None => (apply::CONTENT_SEED.to_owned(), "the seed built into the binary".to_owned()),
                };
                return check_seed(&config, &sql, &name).await;
            }
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            match file {
                Some(file) => {
                    let sql = std::fs::read_to_string(&file)?;
                    apply::seed_with(&pool, sql).await?;
                    tracing::info!(file = %file.display(), "content seed applied");
                }
                None => {
                    apply::seed(&pool).await?;
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
            let action = if kind == export::ExportKind::Papers { "export.papers" } else { "export.csv" };
            record_cli_action(&pool, action, "export", kind.as_str(), details).await?;
        }
        Command::Backup { out } => {
            let now = time::OffsetDateTime::now_utc();
            let manifest = backup::take::backup(&config.database_url, &config.data_dir, &out, now).await?;
            println!("{}", backup_summary(&manifest, &format!("wrote {}", out.display())));
            // Everything left the database: in the audit log like an export.
            let pool = db::connect(&config.database_url).await?;
            let details = serde_json::json!({ "out": out.display().to_string(), "tables": manifest.tables });
            record_cli_action(&pool, "backup.write", "backup", &manifest.created, details).await?;
        }
        Command::VerifyBackup { file } => {
            let unpacked = backup::verify::verify(&file).await?;
            println!("{}", backup_summary(&unpacked.manifest, &format!("{} is sound", file.display())));
        }
        Command::Settings { action } => {
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            let now = time::OffsetDateTime::now_utc();
            if let Some(SettingsAction::Set { values }) = action {
                let mut typed = Vec::new();
                for value in &values {
                    let Some((key, value)) = value.split_once('=') else {
                        return Err(format!("{value:?} is not KEY=VALUE; nothing was changed").into());
                    };
                    typed.push((key.trim().to_owned(), value.to_owned()));
                }
                let actor = crate::calendar::change::Actor { name: audit::CLI, client: None };
                let outcome = crate::calendar::change::set(&pool, &typed, actor, now).await?;
                for changed in &outcome.changed {
                    let before = changed.before.as_deref().unwrap_or("not set");
                    println!("{}: {before} -> {}", changed.key.name(), changed.after);
                }
                if outcome.changed.is_empty() {
                    println!("nothing changed");
                }
                for warning in &outcome.warnings {
                    println!("warning: {warning}");
                }
            }
            print!("{}", settings_list(&crate::calendar::settings::Calendar::load(&pool).await?, now));
        }
        Command::Restore { from, force } => {
            let now = time::OffsetDateTime::now_utc();
            let restored = backup::restore::restore(&from, &config.database_url, &config.data_dir, force, now).await?;
            for aside in &restored.moved_aside {
                println!("moved aside: {aside}");
            }
            println!("{}", backup_summary(&restored.manifest, &format!("restored {}", from.display())));
            // Who replaced the site's data, in the organisers' audit log (DESIGN.md section 12).
            let pool = db::connect(&config.database_url).await?;
            let details =
                serde_json::json!({ "archive": from.display().to_string(), "moved_aside": restored.moved_aside });
            record_cli_action(&pool, "backup.restore", "backup", &restored.manifest.created, details).await?;
        }
        Command::Edition { action: EditionAction::Seed { start, out, from } } => {
            return draft_edition_seed(&start, &out, from);
        }
        Command::Edition { action: EditionAction::Archive { out, zip } } => {
            let pool = db::connect(&config.database_url).await?;
            // Read only: a database without the schema is refused, never migrated here.
            if backup::schema_version(&pool).await?.is_none() {
                return Err(
                    "the database has no schema yet: run `conference migrate` first; nothing was written".into()
                );
            }
            let written = edition_archive::write(AppState::new(pool, config), &out, zip).await?;
            println!(
                "wrote the {} archive to {}: {} pages, {} files",
                written.year,
                written.folder.display(),
                written.pages,
                written.files
            );
            if let Some(zip) = &written.zip {
                println!("wrote {}", zip.display());
            }
            for (path, status) in &written.skipped {
                println!("not archived (answers {status}), linked to the live site: {path}");
            }
        }
        Command::Serve => return Err("`serve` is started by main (Cli::serves), not by cli::run".into()),
    }
    Ok(())
}

/// `edition seed`: drafts from `from` (or the seed `conference seed` applies) into `out`,
/// prints what moved and lists the old year's remaining mentions on stderr.
fn draft_edition_seed(
    start: &str,
    out: &std::path::Path,
    from: Option<PathBuf>,
) -> Result<(), Box<dyn std::error::Error>> {
    use crate::editions::seed;
    let start = seed::parse_start(start).map_err(|err| format!("{err}; nothing was written"))?;
    let default = PathBuf::from(apply::CONTENT_SEED_PATH);
    let (sql, name) = match &from {
        Some(file) if !file.is_file() => {
            return Err(format!("seed file {} does not exist; nothing was written", file.display()).into());
        }
        Some(file) => (std::fs::read_to_string(file)?, file.display().to_string()),
        None if default.is_file() => (std::fs::read_to_string(&default)?, default.display().to_string()),
        None => (apply::CONTENT_SEED.to_owned(), "the seed built into the binary".to_owned()),
    };
    let in_force: Vec<PathBuf> = from.into_iter().chain([default]).collect();
    let draft = seed::write(&sql, start, out, &in_force).map_err(|err| format!("{err}; nothing was written"))?;
    println!("wrote {} from {name}", out.display());
    println!("{} dates and times moved by {} days ({} -> {})", draft.moved, draft.days, draft.from, draft.to);
    for (old, new) in &draft.renamed {
        println!("renamed {old:?} -> {new:?}");
    }
    let year = draft.from.year();
    if draft.mentions.is_empty() {
        println!("no other mention of {year} remains");
    } else {
        println!(
            "{} mention(s) of {year} remain, listed on stderr: edit them, then `conference seed --check --file {}`",
            draft.mentions.len(),
            out.display()
        );
    }
    for mention in &draft.mentions {
        eprintln!("{year} remains in {mention}");
    }
    Ok(())
}

/// Records a command-line action in the organisers' audit log (actor `cli`, DESIGN.md
/// section 12).
async fn record_cli_action(
    pool: &db::Pool,
    action: &str,
    object_type: &str,
    object_id: &str,
    details: serde_json::Value,
) -> Result<(), sqlx::Error> {
    let at = crate::clock::stamp::now_rfc3339();
    let mut conn = pool.acquire().await?;
    let entry = audit::NewEntry {
        at: &at,
        actor: audit::CLI,
        client: None,
        action,
        object_type: Some(object_type),
        object_id: Some(object_id),
        details,
    };
    audit::record(&mut conn, &entry).await
}

/// `seed --check`: prints what the seed `sql` (from `name`) would change in the database,
/// committing nothing, then renders every page with the new content on a throwaway SQLite
/// copy of it and prints any page that fails or shows a block's error text. Errs (exit
/// status 1) on an SQL error, with the seed's line, on a broken rule, on values that would
/// print wrong (each on its own line, `seed_check::ContentProblem`), or on any page problem.
async fn check_seed(config: &Config, sql: &str, name: &str) -> Result<(), Box<dyn std::error::Error>> {
    let pool = db::connect(&config.database_url).await?;
    if backup::schema_version(&pool).await?.is_none() {
        return Err("the database has no schema yet: run `conference migrate` first, then check the seed".into());
    }
    let diff = match seed_check::diff(&pool, sql).await {
        Ok(diff) => diff,
        Err(seed_check::SeedCheckError::Statement { line, column, message }) => {
            return Err(format!("{name}:{line}:{column}: {message}; nothing was changed").into());
        }
        Err(seed_check::SeedCheckError::Template(unknown)) => return Err(format!("{name}: {unknown}").into()),
        Err(seed_check::SeedCheckError::Programme(rule)) => return Err(format!("{name}: {rule}").into()),
        Err(seed_check::SeedCheckError::ReviewForm(rule)) => return Err(format!("{name}: {rule}").into()),
        Err(seed_check::SeedCheckError::Content(problems)) => {
            let lines: Vec<String> = problems.iter().map(|problem| format!("{name}: {problem}")).collect();
            return Err(format!("{}\nnothing was changed", lines.join("\n")).into());
        }
        Err(err) => return Err(err.into()),
    };
    let kept = crate::repo::settings::stored(&mut *pool.acquire().await?).await?.overrides;
    pool.close().await;
    println!("seed check of {name}: nothing is changed");
    if diff.tables.is_empty() {
        println!("no row would change");
    }
    for change in &diff.tables {
        println!("{:<24} {} added, {} removed, {} changed", change.table, change.added, change.removed, change.changed);
    }
    for field in &diff.site {
        println!("  site.{}: {:?} -> {:?}", field.field, field.before, field.after);
    }
    // The organisers' deadlines outlive a seed (DESIGN.md section 20): named, never touched.
    for kept in kept {
        println!(
            "  settings.{}: {:?} set by {} at {} stays; the seed does not touch it (conference settings)",
            kept.key, kept.value, kept.changed_by, kept.changed_at
        );
    }

    // Pages render from the content alone: a throwaway SQLite database with the new seed.
    let dir = tempfile::tempdir()?;
    let mut scratch = config.clone();
    scratch.database_url = format!("sqlite://{}/seed-check.db", dir.path().display());
    scratch.data_dir = dir.path().to_path_buf();
    let copy = db::connect(&scratch.database_url).await?;
    db::migrate(&copy).await?;
    apply::seed_with(&copy, sql.to_owned()).await.map_err(|err| format!("the seed does not apply on SQLite: {err}"))?;
    let problems = http::page_check::check_pages(AppState::new(copy.clone(), scratch)).await;
    copy.close().await;
    for problem in &problems {
        println!("page {}: {}", problem.path, problem.reason);
    }
    if problems.is_empty() {
        println!("every page renders");
        Ok(())
    } else {
        Err(format!("{} page(s) would break with this seed; nothing was changed", problems.len()).into())
    }
}

/// What `backup`, `verify-backup` and `restore` print: the headline, then the archive's time,
/// schema version, files and rows per table.
/// `conference settings`' listing: one line per deadline, its value in the event's zone,
/// whether it has passed at `now`, and where it comes from.
fn settings_list(calendar: &crate::calendar::settings::Calendar, now: time::OffsetDateTime) -> String {
    use crate::calendar::settings::Source;
    let mut text = String::new();
    for entry in &calendar.entries {
        let value = match (&entry.when, &entry.text) {
            (Some(when), _) => format!(
                "{} ({})",
                when.label(),
                if entry.is_passed(now) { "passed".to_owned() } else { when.words(now) }
            ),
            (None, Some(text)) => format!("{text:?} does not read as a date (counts as passed)"),
            (None, None) => "not set".to_owned(),
        };
        let source = match &entry.source {
            Source::Organisers { by, at } => format!("set by {by} at {at}"),
            Source::Seed => "from the seed".to_owned(),
            Source::Default => "default: the event's last day".to_owned(),
            Source::Unset => "unset".to_owned(),
        };
        let stored = entry.text.as_deref().unwrap_or("-");
        text.push_str(&format!("{:<24} {stored:<22} {value}; {source}\n", entry.key.name()));
    }
    text
}

fn backup_summary(manifest: &backup::Manifest, headline: &str) -> String {
    let bytes: u64 = manifest.files.iter().map(|f| f.bytes).sum();
    let mut text = format!(
        "{headline}\ntaken {} on {}, schema version {}\n{} files, {bytes} bytes unpacked\n",
        manifest.created,
        manifest.engine,
        manifest.schema_version,
        manifest.files.len()
    );
    for (table, rows) in &manifest.tables {
        text.push_str(&format!("{table:<24} {rows:>10}\n"));
    }
    text.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_set_needs_at_least_one_value() {
        assert!(Cli::try_parse_from(["conference", "settings", "set"]).is_err());
        let cli = Cli::try_parse_from(["conference", "settings", "set", "review_deadline=2026-03-01"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Settings { action: Some(SettingsAction::Set { .. }) })));
        let list = Cli::try_parse_from(["conference", "settings"]).unwrap();
        assert_eq!(list.command, Some(Command::Settings { action: None }));
    }

    #[test]
    fn export_papers_needs_an_out_folder() {
        assert!(Cli::try_parse_from(["conference", "export", "papers"]).is_err());
        let cli = Cli::try_parse_from(["conference", "export", "papers", "--out", "papers-2025"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Export { out: Some(_), .. })));
        assert!(Cli::try_parse_from(["conference", "export", "messages"]).is_ok(), "CSV exports need no folder");
    }
}
