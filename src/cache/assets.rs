//! Embedded files: the built islands (`islands/dist`, hashed by Vite), the site's static
//! images and the conference materials. Also the tags a page needs for the islands,
//! read from Vite's manifest (Vite's backend-integration guide).

use std::collections::BTreeSet;
use std::sync::LazyLock;

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use rust_embed::{EmbeddedFile, RustEmbed};
use serde::Deserialize;

use crate::cache::files::FileCache;

/// Vite's build output. `.vite/manifest.json` is read at start-up, never served.
#[derive(RustEmbed)]
#[folder = "islands/dist/"]
#[exclude = ".vite/*"]
struct IslandFiles;

#[derive(RustEmbed)]
#[folder = "islands/dist/.vite/"]
struct ViteManifest;

/// Images and icons under `static/`; materials are only served by `/api/files`.
#[derive(RustEmbed)]
#[folder = "static/"]
#[exclude = "materials/*"]
struct StaticFiles;

/// Conference materials (`download_buttons.link` names a file here).
#[derive(RustEmbed)]
#[folder = "static/materials/"]
pub struct Materials;

/// The runtime entry in `islands/vite.config.ts`.
const ENTRY: &str = "src/main.ts";
/// Manifest key prefix of the page-group stylesheets (Vite inputs besides the entry; each
/// `@import`s the site-wide `index.css`, so it stands alone).
const PAGE_STYLES: &str = "src/styles/page/";

/// Cache policy for Vite's content-hashed files: they never change under a name.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Cache policy for unhashed static files: cached briefly, revalidated by ETag.
pub const REVALIDATE: &str = "public, max-age=3600, must-revalidate";

#[derive(Debug, Deserialize)]
struct ManifestChunk {
    file: String,
    #[serde(default)]
    css: Vec<String>,
    #[serde(default)]
    imports: Vec<String>,
}

/// Script, stylesheet and preload URLs every page writes into its `<head>`.
#[derive(Debug, Clone, Default)]
pub struct IslandTags {
    /// `/assets/…` module script of the runtime entry.
    pub script: String,
    /// Stylesheets of the entry and of every chunk it imports, in load order.
    pub styles: Vec<String>,
    /// `modulepreload` targets: the chunks the entry imports (React among them).
    pub preloads: Vec<String>,
    /// Page-group stylesheets (`islands/src/styles/page/<name>.css`), by `<name>`, as
    /// `/assets/…` URLs. Each bundles the site-wide sheet with the group's own rules, and a page
    /// template links its own INSTEAD of `styles` (issue 13: a page's critical CSS is the
    /// site-wide sheet plus its own, in one render-blocking request).
    pub page_styles: std::collections::BTreeMap<String, String>,
}

impl IslandTags {
    /// Reads the embedded manifest. Panics when the islands were not built, since the
    /// build script guarantees they were and a page without them would be broken.
    pub fn from_manifest() -> Self {
        let file = ViteManifest::get("manifest.json")
            .expect("islands/dist/.vite/manifest.json is embedded (the build script builds the islands)");
        Self::parse(&file.data).expect("Vite manifest is valid")
    }

    fn parse(json: &[u8]) -> Result<Self, String> {
        let manifest: std::collections::HashMap<String, ManifestChunk> =
            serde_json::from_slice(json).map_err(|e| e.to_string())?;
        let entry = manifest.get(ENTRY).ok_or_else(|| format!("manifest has no entry {ENTRY}"))?;
        let mut styles = Vec::new();
        let mut preloads = Vec::new();
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&ManifestChunk> = vec![entry];
        while let Some(chunk) = stack.pop() {
            for css in &chunk.css {
                let url = format!("/assets/{css}");
                if !styles.contains(&url) {
                    styles.push(url);
                }
            }
            for import in &chunk.imports {
                if seen.insert(import.clone())
                    && let Some(imported) = manifest.get(import)
                {
                    preloads.push(format!("/assets/{}", imported.file));
                    stack.push(imported);
                }
            }
        }
        let page_styles = manifest
            .iter()
            .filter_map(|(key, chunk)| {
                let name = key.strip_prefix(PAGE_STYLES)?.strip_suffix(".css")?;
                Some((name.to_owned(), format!("/assets/{}", chunk.file)))
            })
            .collect();
        Ok(IslandTags { script: format!("/assets/{}", entry.file), styles, preloads, page_styles })
    }

    /// The `/assets/…` URL of the page-group stylesheet `name` (`styles/page/<name>.css`).
    /// Panics when the build has no such sheet: a template naming a missing sheet is a
    /// programming error that every page test would hit at once.
    pub fn page_style(&self, name: &str) -> &str {
        self.page_styles
            .get(name)
            .unwrap_or_else(|| panic!("islands/src/styles/page/{name}.css is in the Vite manifest"))
    }
}

/// Island assets and static files as prepared on first request: bytes, brotli and gzip
/// forms and `ETag`s, kept for the life of the process (the files are embedded and never
/// change), so no request compresses a file.
static ISLAND_CACHE: LazyLock<FileCache> = LazyLock::new(FileCache::default);
static STATIC_CACHE: LazyLock<FileCache> = LazyLock::new(FileCache::default);

/// GET `/assets/{*path}`: a Vite output file, cached for a year.
pub async fn island_file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    let file =
        ISLAND_CACHE.get_or_load(&path, IMMUTABLE, || embedded(safe_path(&path).and_then(IslandFiles::get))).await;
    respond(file.as_deref(), &headers)
}

/// GET `/static/{*path}`: an image or icon, revalidated hourly.
pub async fn static_file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    let file =
        STATIC_CACHE.get_or_load(&path, REVALIDATE, || embedded(safe_path(&path).and_then(StaticFiles::get))).await;
    respond(file.as_deref(), &headers)
}

/// Prepares every island asset and static file ahead of the first visitors (brotli at its
/// top quality takes a moment for the larger scripts). Called once at start-up.
pub async fn warm() {
    for path in IslandFiles::iter() {
        ISLAND_CACHE.get_or_load(&path, IMMUTABLE, || embedded(IslandFiles::get(&path))).await;
    }
    for path in StaticFiles::iter() {
        STATIC_CACHE.get_or_load(&path, REVALIDATE, || embedded(StaticFiles::get(&path))).await;
    }
}

/// An embedded file's bytes, content type and tag (its SHA-256, shortened).
fn embedded(file: Option<EmbeddedFile>) -> Option<(Bytes, String, String)> {
    let file = file?;
    let tag = hex::encode(&file.metadata.sha256_hash()[..16]);
    // Release builds embed the bytes in the binary: share them rather than copy them.
    let bytes = match file.data {
        std::borrow::Cow::Borrowed(data) => Bytes::from_static(data),
        std::borrow::Cow::Owned(data) => Bytes::from(data),
    };
    Some((bytes, file.metadata.mimetype().to_owned(), tag))
}

fn respond(file: Option<&crate::cache::prepared::Prepared>, headers: &HeaderMap) -> Response {
    match file {
        Some(file) => file.respond(headers),
        None => (StatusCode::NOT_FOUND, "Not found").into_response(),
    }
}

/// The path when it names a file inside the folder: no `..`, `.` or empty segments and no
/// backslashes. Debug builds read rust-embed folders from disk, where `img/../materials/x`
/// would otherwise reach the excluded materials.
fn safe_path(path: &str) -> Option<&str> {
    let clean = !path.is_empty()
        && !path.contains(['\\', '\0'])
        && path.split('/').all(|segment| !segment.is_empty() && segment != "." && segment != "..");
    clean.then_some(path)
}

/// The site paths (`/assets/<file>`) of every built island file: the runtime loads the
/// islands' chunks by name, so the edition archive (DESIGN.md section 17) copies them all.
pub fn island_paths() -> Vec<String> {
    IslandFiles::iter().map(|file| format!("/assets/{file}")).collect()
}

/// Whether a static file exists (tests and the sitemap use it).
pub fn static_exists(path: &str) -> bool {
    safe_path(path.trim_start_matches("/static/")).and_then(StaticFiles::get).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_gives_entry_css_and_preloads() {
        let json = br#"{
          "src/main.ts": {"file": "main-abc.js", "isEntry": true, "imports": ["_react-1.js"], "css": ["main-x.css"]},
          "_react-1.js": {"file": "react-1.js", "css": ["r.css"]},
          "src/islands/Countdown.tsx": {"file": "Countdown-2.js", "isDynamicEntry": true, "imports": ["_react-1.js"]}
        }"#;
        let tags = IslandTags::parse(json).unwrap();
        assert_eq!(tags.script, "/assets/main-abc.js");
        assert_eq!(tags.styles, vec!["/assets/main-x.css", "/assets/r.css"]);
        assert_eq!(tags.preloads, vec!["/assets/react-1.js"]);
    }

    #[test]
    fn manifest_gives_page_stylesheets_by_name() {
        let json = br#"{
          "src/main.ts": {"file": "main-abc.js", "isEntry": true, "css": ["main-x.css"]},
          "src/styles/page/checkout.css": {"file": "checkout-9.css", "isEntry": true},
          "src/styles/page/home.css": {"file": "home-8.css", "isEntry": true}
        }"#;
        let tags = IslandTags::parse(json).unwrap();
        assert_eq!(tags.styles, vec!["/assets/main-x.css"]);
        assert_eq!(tags.page_style("checkout"), "/assets/checkout-9.css");
        assert_eq!(tags.page_style("home"), "/assets/home-8.css");
        assert_eq!(tags.page_styles.len(), 2);
    }

    /// The built entry imports no chunk statically. Whatever it imports the browser fetches and
    /// evaluates before the runtime runs, and the `<head>` preloads it: React came before the
    /// first paint that way (issue 30: the `mount` code-splitting group took `actionable.ts`,
    /// which the runtime imports too, so the entry imported the `mount` chunk and React with
    /// it; LCP on `/` went from 1.1 s to 1.7 s). React and the mounting code load with the
    /// first island (`islands/src/runtime.ts`, `mount.tsx`).
    #[test]
    fn the_built_entry_imports_no_chunk() {
        let tags = IslandTags::from_manifest();
        assert!(
            tags.preloads.is_empty(),
            "the runtime entry (islands/src/main.ts) imports chunks statically: {:?}; a module the entry \
             shares with a lazily loaded one went into that chunk (see islands/src/mount.tsx)",
            tags.preloads
        );
    }

    #[test]
    fn manifest_without_entry_is_an_error() {
        assert!(IslandTags::parse(br#"{"other.ts": {"file": "x.js"}}"#).is_err());
    }
}
