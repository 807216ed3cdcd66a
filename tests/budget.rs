//! First-load JavaScript budget (issue 13, item 8): what a page makes every visitor download
//! before anything is asked of it, read from Vite's manifest: the runtime entry and what it
//! imports, plus the islands the page hydrates on load (`data-hydrate="load"`) with their
//! static imports. Islands on `idle`, `visible` or `intent` are not part of the first load.
//! Sizes are gzip bytes (the server prefers brotli, which is smaller), so a new dependency in
//! the first load cannot double it unnoticed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::common::app;
use crate::common::html::{parse, select};
use crate::common::inflate::gzip_len;

/// The runtime entry (islands/vite.config.ts).
const ENTRY: &str = "src/main.ts";

/// Budget of every page, gzip bytes: React (about 68 KB) and the runtime leave room for the
/// small always-on islands (menu, countdown, accordion). Forms, the paper form included, load
/// when the visitor reaches for them (`data-hydrate="intent"`).
const BUDGET: usize = 80 * 1024;

fn manifest() -> BTreeMap<String, Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("islands/dist/.vite/manifest.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the build builds the islands)", path.display()));
    serde_json::from_str(&text).expect("Vite's manifest is JSON")
}

/// Files (`dist/` names) that loading `keys` fetches: each chunk and its static imports.
fn closure(manifest: &BTreeMap<String, Value>, keys: &[String]) -> BTreeSet<String> {
    let mut files = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = keys.to_vec();
    while let Some(key) = stack.pop() {
        if !seen.insert(key.clone()) {
            continue;
        }
        let chunk = manifest.get(&key).unwrap_or_else(|| panic!("the manifest has no {key}"));
        files.insert(chunk["file"].as_str().expect("a chunk names its file").to_string());
        for import in chunk["imports"].as_array().into_iter().flatten() {
            stack.push(import.as_str().expect("import key").to_string());
        }
    }
    files
}

fn first_load(manifest: &BTreeMap<String, Value>, page: &str) -> (usize, Vec<String>) {
    let mut keys = vec![ENTRY.to_string()];
    for island in select(&parse(page), "[data-island]") {
        let name = island.attr("data-island").expect("selected by it");
        if matches!(island.attr("data-hydrate").unwrap_or("load").trim(), "" | "load") {
            keys.push(format!("src/islands/{name}.tsx"));
        }
    }
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("islands/dist");
    let files = closure(manifest, &keys);
    let bytes = files.iter().map(|f| gzip_len(&std::fs::read(dist.join(f)).expect("a built chunk"))).sum();
    (bytes, files.into_iter().collect())
}

#[tokio::test]
async fn every_page_keeps_its_first_load_javascript_within_budget() {
    let app = app().await;
    let manifest = manifest();
    let mut over = Vec::new();
    for (path, _) in app.page_paths().await {
        let (_, _, page) = app.get(&path).await;
        let (bytes, files) = first_load(&manifest, &page);
        if bytes > BUDGET {
            over.push(format!("{path}: {bytes} gzip bytes > {BUDGET}: {files:?}"));
        }
    }
    assert!(over.is_empty(), "first-load JavaScript over budget:\n{}", over.join("\n"));
}

#[tokio::test]
async fn forms_and_checkout_are_not_part_of_the_first_load() {
    let app = app().await;
    let manifest = manifest();
    for path in ["/", "/pricing", "/sponsorship", "/committee", "/submission"] {
        let (_, _, page) = app.get(path).await;
        let (_, files) = first_load(&manifest, &page);
        let heavy: Vec<&String> = files
            .iter()
            .filter(|f| {
                ["phone-field", "validate", "payment-modal", "gsap", "PaperForm"].iter().any(|h| f.starts_with(h))
            })
            .collect();
        assert!(heavy.is_empty(), "{path} loads {heavy:?} before the visitor asks for them");
    }
}
