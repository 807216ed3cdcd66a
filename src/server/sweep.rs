//! Removing what a crash left in `DATA_DIR` (issue 11): at start-up and every
//! [`SWEEP_INTERVAL`], upload temp files nobody writes any more, `.eml` temp files, and paper
//! files whose row was never committed. Each run that removes something says how much in
//! one log line.
//!
//! Why ages and not "everything": other server copies may share `DATA_DIR`, and a request
//! of this one may be between two steps. An upload temp file is written with every chunk
//! that arrives, so one untouched for longer than the body timeout belongs to a request that
//! has ended; a paper is renamed into place a moment before its row commits, so only papers
//! older than `ORPHAN_GRACE_SECS` without a row are orphans.
//!
//! Each run also sends the reviewers' reminder that is due (issue 32 item 7,
//! `crate::review::reminders`), by the sweeper's clock: every instance sweeps, and the outbox
//! takes each reminder's key once, so a reviewer gets each reminder once.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::db::Pool;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::clock::Clock;
use crate::config::Config;
use crate::mail::transport::{EML_TEMP_PREFIX, EML_TEMP_SUFFIX};
use crate::papers::files::{PAPERS_DIR, UPLOAD_TEMP_PREFIX, UPLOAD_TEMP_SUFFIX};

/// How often the sweep runs after the one at start-up.
pub const SWEEP_INTERVAL: Duration = Duration::from_secs(5 * 60);

/// What one run removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Swept {
    /// Upload and mail temp files.
    pub temp_files: usize,
    /// Paper files without a row.
    pub orphan_papers: usize,
}

/// The sweep of one `DATA_DIR`.
#[derive(Clone)]
pub struct Sweeper {
    pool: Pool,
    data_dir: PathBuf,
    temp_age: Duration,
    orphan_grace: Duration,
    /// Mail addresses and `PUBLIC_URL`, for the reminders.
    config: Config,
    /// "Now" of the reminders; the system clock unless a test fixed it.
    clock: Clock,
}

impl Sweeper {
    /// Temp files go once untouched for the body timeout plus a second; papers without a
    /// row after `ORPHAN_GRACE_SECS`.
    pub fn new(pool: Pool, config: &Config) -> Self {
        Sweeper {
            pool,
            data_dir: config.data_dir.clone(),
            temp_age: Duration::from_secs(config.body_timeout_secs.max(1) + 1),
            orphan_grace: Duration::from_secs(config.orphan_grace_secs),
            config: config.clone(),
            clock: Clock::system(),
        }
    }

    /// The same sweeper reading "now" from `clock` (tests: a fixed instant).
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// Queues the reviewers' reminder due now, if any (`crate::review::reminders::send_due`);
    /// how many mails this run queued. Problems are logged, never fatal: the next run tries
    /// again.
    pub async fn remind(&self) -> usize {
        match crate::review::reminders::send_due(&self.pool, &self.config, self.clock.now()).await {
            Ok(0) => 0,
            Ok(queued) => {
                tracing::info!(queued, "review reminders queued");
                queued
            }
            Err(err) => {
                tracing::error!(error = %err, "review reminders could not be sent; the next sweep tries again");
                0
            }
        }
    }

    /// One sweep, and the reminders due ([`Sweeper::remind`]); problems are logged, never
    /// fatal.
    pub async fn run_once(&self) -> Swept {
        self.remind().await;
        let rows = match crate::repo::submissions::file_paths(&self.pool).await {
            Ok(paths) => Some(paths.into_iter().collect::<HashSet<String>>()),
            Err(err) => {
                tracing::error!(error = %err, "sweep could not read the submissions; papers left alone");
                None
            }
        };
        let this = self.clone();
        let swept = tokio::task::spawn_blocking(move || this.sweep_files(rows.as_ref())).await.unwrap_or_default();
        if swept != Swept::default() {
            tracing::info!(
                temp_files = swept.temp_files,
                orphan_papers = swept.orphan_papers,
                dir = %self.data_dir.display(),
                "sweep removed files a crash left behind"
            );
        }
        swept
    }

    fn sweep_files(&self, rows: Option<&HashSet<String>>) -> Swept {
        let mut swept = Swept::default();
        let papers = self.data_dir.join(PAPERS_DIR);
        for (path, name, age) in files_with_age(&papers) {
            if name.starts_with(UPLOAD_TEMP_PREFIX) && name.ends_with(UPLOAD_TEMP_SUFFIX) {
                if age >= self.temp_age && remove(&path) {
                    swept.temp_files += 1;
                }
            } else if let Some(rows) = rows
                && !name.starts_with('.')
                && age >= self.orphan_grace
                && !rows.contains(&format!("{PAPERS_DIR}/{name}"))
                && remove(&path)
            {
                tracing::warn!(file = %path.display(), "paper without a submission row removed");
                swept.orphan_papers += 1;
            }
        }
        // Earlier versions kept upload temp files in DATA_DIR/tmp.
        for (path, _, age) in files_with_age(&self.data_dir.join("tmp")) {
            if age >= self.temp_age && remove(&path) {
                swept.temp_files += 1;
            }
        }
        for (path, name, age) in files_with_age(&self.data_dir.join("mail")) {
            if name.starts_with(EML_TEMP_PREFIX)
                && name.ends_with(EML_TEMP_SUFFIX)
                && age >= self.temp_age
                && remove(&path)
            {
                swept.temp_files += 1;
            }
        }
        swept
    }

    /// Sweeps every [`SWEEP_INTERVAL`] until `stop` turns `true`.
    pub fn spawn(self, mut stop: watch::Receiver<bool>) -> JoinHandle<()> {
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    changed = stop.changed() => if changed.is_err() || *stop.borrow() { break },
                    () = tokio::time::sleep(SWEEP_INTERVAL) => { self.run_once().await; }
                }
            }
        })
    }
}

/// The regular files of `dir` with their names and time since last modified; none when the
/// folder is missing.
fn files_with_age(dir: &Path) -> Vec<(PathBuf, String, Duration)> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| {
            let meta = entry.metadata().ok().filter(std::fs::Metadata::is_file)?;
            let age = meta.modified().ok()?.elapsed().unwrap_or_default();
            Some((entry.path(), entry.file_name().to_string_lossy().into_owned(), age))
        })
        .collect()
}

fn remove(path: &Path) -> bool {
    match std::fs::remove_file(path) {
        Ok(()) => true,
        Err(err) => {
            tracing::warn!(file = %path.display(), error = %err, "sweep could not remove a file");
            false
        }
    }
}
