//! Builds the islands (`islands/`, a Vite project) so `src/cache/assets.rs` can embed
//! `islands/dist/`: `npm ci` when `node_modules` is missing or older than the lock file, then
//! `npm run build`. `ISLANDS_SKIP_BUILD=1` skips both while a built manifest exists.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

const HINT: &str = "Node.js and npm are needed to build the islands (islands/, a Vite project). \
Install them (e.g. `apt-get install nodejs npm`), or, with an existing islands/dist/, set \
ISLANDS_SKIP_BUILD=1 to reuse it.";

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let islands = root.join("islands");

    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=ISLANDS_SKIP_BUILD");
    watch_dir(&islands.join("src"));
    for file in ["package.json", "package-lock.json", "vite.config.ts", "tsconfig.json", "index.html"] {
        let path = islands.join(file);
        // A missing file would make cargo rerun this script every time; watch what exists.
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }

    let manifest = islands.join("dist/.vite/manifest.json");
    let skip = std::env::var("ISLANDS_SKIP_BUILD").is_ok_and(|v| v == "1");
    if skip {
        if manifest.exists() {
            println!("cargo:warning=ISLANDS_SKIP_BUILD=1: using the existing islands/dist/ as it is");
            return;
        }
        println!("cargo:warning=ISLANDS_SKIP_BUILD=1 ignored: islands/dist/.vite/manifest.json does not exist yet");
    }

    if needs_install(&islands) {
        npm(&islands, &["ci", "--no-audit", "--no-fund"]);
    }
    npm(&islands, &["run", "build"]);

    if !manifest.exists() {
        panic!("`npm run build` in islands/ succeeded but wrote no {}", manifest.display());
    }
}

/// Every file and directory under `dir`: a directory's own entry makes cargo notice files
/// added to or removed from it.
fn watch_dir(dir: &Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            watch_dir(&path);
        } else {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
}

/// `node_modules` is missing, or was installed before `package-lock.json` last changed.
/// npm writes `node_modules/.package-lock.json` on every install, so its time is the install's.
fn needs_install(islands: &Path) -> bool {
    let node_modules = islands.join("node_modules");
    let installed = modified(&node_modules.join(".package-lock.json")).or_else(|| modified(&node_modules));
    match (installed, modified(&islands.join("package-lock.json"))) {
        (None, _) => true,
        (Some(installed), Some(lock)) => installed < lock,
        (Some(_), None) => false, // `npm ci` refuses to run without a lock file; let the build say what is wrong
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Runs `npm <args>` in `dir`; panics with its output and the hint when it fails.
fn npm(dir: &Path, args: &[&str]) {
    let program = if cfg!(windows) { "npm.cmd" } else { "npm" };
    let shown = format!("npm {}", args.join(" "));
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        // Cargo sets DEBUG=true/false for build scripts; to Node tools it is a log filter.
        .env_remove("DEBUG")
        .output()
        .unwrap_or_else(|e| panic!("could not run `{shown}` in {}: {e}\n\n{HINT}", dir.display()));
    if !output.status.success() {
        panic!(
            "`{shown}` in {} failed ({})\n\n--- stdout ---\n{}\n--- stderr ---\n{}\n\n{HINT}",
            dir.display(),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
    }
}
