//! Runs the islands' Vitest suite and the Playwright end-to-end suite (Debian's Chromium)
//! against this build's server binary, then the edit loop's browser test (dev/dev.mjs on a copy
//! of the repository, `islands/dev-loop/`), so `cargo test` is the one test command.
//!
//! `harness = false`: this is a plain program; its exit code is the verdict. Set
//! `BROWSER_TESTS=skip` to leave both suites out (only for quick local iteration; with `CI`
//! set it fails the run). A missing Chromium, Node.js or npm fails it, with or without `CI`.

use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;

fn run(title: &str, program: &str, args: &[&str], envs: &[(&str, &str)]) -> bool {
    let islands = Path::new(env!("CARGO_MANIFEST_DIR")).join("islands");
    println!("\n== {title}: {program} {}", args.join(" "));
    let started = Instant::now();
    let status = Command::new(program).args(args).envs(envs.iter().copied()).current_dir(&islands).status();
    println!("== {title}: {:.0} s", started.elapsed().as_secs_f64());
    match status {
        Ok(status) if status.success() => true,
        Ok(status) => {
            eprintln!("{title} failed ({status})");
            false
        }
        Err(err) => {
            eprintln!("{title} could not start {program}: {err} (Node.js and npm are needed)");
            false
        }
    }
}

fn main() -> ExitCode {
    if std::env::var("BROWSER_TESTS").as_deref() == Ok("skip") {
        // CI (`.ci/run` sets CI) must not turn green with the browser suites left out.
        if std::env::var_os("CI").is_some() {
            eprintln!("browser: BROWSER_TESTS=skip is for local iteration; CI is set, so the run fails instead");
            return ExitCode::FAILURE;
        }
        println!("browser: skipped (BROWSER_TESTS=skip)");
        return ExitCode::SUCCESS;
    }
    if !Path::new("/usr/bin/chromium").exists() {
        eprintln!("browser: /usr/bin/chromium is missing; install Debian's chromium (apt-get install -y chromium)");
        return ExitCode::FAILURE;
    }
    let server = env!("CARGO_BIN_EXE_conference");
    let unit = run("islands unit tests", "npm", &["test", "--silent"], &[]);
    // The run's temp folder, removed when the run is over. Playwright's config makes the
    // server's data folder (`conference-e2e-*`) in it and must remove it when the runner exits
    // (issue 40 item 5): a run that leaves one behind fails, so the cleanup a hand run relies
    // on is tried on every run.
    let tmp = match tempfile::Builder::new().prefix("conference-e2e-run-").tempdir() {
        Ok(dir) => dir,
        Err(err) => {
            eprintln!("browser: cannot make a temp folder for the run: {err}");
            return ExitCode::FAILURE;
        }
    };
    let tmp_dir = tmp.path().to_string_lossy().into_owned();
    let mut e2e = run("browser tests", "npx", &["playwright", "test"], &[("SERVER_BIN", server), ("TMPDIR", &tmp_dir)]);
    // The edit loop (dev/dev.mjs, issue 45) on a copy of the repository: after the main suite,
    // whose servers are stopped by then, since its cargo builds want the machine.
    let dev_loop = run("edit loop browser test", "npx", &["playwright", "test", "-c", "dev-loop.config.ts"], &[("TMPDIR", &tmp_dir)]);
    e2e &= dev_loop;
    let left: Vec<String> = std::fs::read_dir(tmp.path())
        .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    let left: Vec<String> =
        left.into_iter().filter(|name| name.starts_with("conference-e2e-") || name.starts_with("conference-devloop-")).collect();
    if !left.is_empty() {
        eprintln!("browser: the end-to-end run left its data folder behind in the temp folder: {left:?}");
        e2e = false;
    }
    drop(tmp);
    if !e2e {
        print_failure_contexts();
    }
    if unit && e2e { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// Lines of each failed test's page snapshot printed, at most.
const SNAPSHOT_LINES: usize = 120;

/// Prints what each failed test's page showed when it failed (the page snapshot Playwright
/// writes to `test-results/<test>/error-context.md`): CI keeps only this output, not the
/// folder, and a rare failure must be readable from the run that had it.
fn print_failure_contexts() {
    let islands = Path::new(env!("CARGO_MANIFEST_DIR")).join("islands");
    let folders = ["test-results", "test-results-dev-loop"].map(|name| islands.join(name));
    for entry in folders.iter().filter_map(|dir| std::fs::read_dir(dir).ok()).flatten().flatten() {
        let Ok(context) = std::fs::read_to_string(entry.path().join("error-context.md")) else { continue };
        let snapshot = context.split_once("# Page snapshot").map_or(context.as_str(), |(_, after)| after);
        // From the page's `main` on: the header and navigation are the same on every page.
        let lines: Vec<&str> = snapshot.lines().collect();
        let main = lines.iter().position(|l| l.trim_start().starts_with("- main")).unwrap_or(0);
        println!("\n== page when {} failed (from its main region):", entry.file_name().to_string_lossy());
        for line in lines.iter().skip(main).take(SNAPSHOT_LINES) {
            println!("{line}");
        }
    }
}
