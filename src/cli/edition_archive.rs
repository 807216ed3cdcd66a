//! `conference edition archive --out DIR [--zip]` (issue 43 item 5, DESIGN.md section 17): the
//! current edition frozen as `edition next` would freeze it today, as plain files under
//! `DIR/<year>/` that any static file server serves. Every public page is requested from the
//! router in-process, as a visitor would see it; links are followed from the pages, sitemap and
//! schedule exports; the answers are rewritten by `crate::editions::archive`. The database is
//! only read.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};

use axum::body::{Body, Bytes};
use axum::http::{Request, StatusCode, header};
use tower::ServiceExt;

use crate::cache::assets;
use crate::editions::archive::{self, Entry, Freezer};
use crate::handlers::exports;
use crate::handlers::page_table::{PAGES, TALK, addresses};
use crate::handlers::state::AppState;

/// Site paths answered per visitor or changing state (the APIs, the organisers' and
/// reviewers' areas, attendees' and authors' private links, certificates, payment outcomes, the
/// TEST gateway, the newsletter's signed links, a starred agenda): never archived; a link to
/// one points to the live site. Each stands for itself and what lies below it.
const DYNAMIC: &[&str] = &[
    "/api",
    "/organiser",
    "/review",
    "/attendee",
    "/certificates",
    "/check-in",
    "/Success",
    "/Failed",
    "/test-gateway",
    "/newsletter",
    "/submission/status",
    "/schedule/agenda.ics",
    "/favicon.ico",
];

/// The conference materials' downloads: under `/api` but the same bytes for everyone, so kept.
const MATERIALS: &str = "/api/files/";

/// At most this many documents: a bound on a crawl that would never end (a link that grows).
const MAX_DOCUMENTS: usize = 20_000;

/// Whether `path` (no query) is a route the archive never holds ([`DYNAMIC`]).
pub fn is_dynamic(path: &str) -> bool {
    !path.starts_with(MATERIALS)
        && DYNAMIC
            .iter()
            .any(|route| path.strip_prefix(route).is_some_and(|rest| rest.is_empty() || rest.starts_with('/')))
}

/// Why no archive was written (each message ends with "nothing was written").
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error(
        "{0} is not empty: the archive of {1} is there already; move it away or choose another --out; nothing was written"
    )]
    NotEmpty(PathBuf, i32),
    #[error("{0} exists: move it away or choose another --out; nothing was written")]
    ZipExists(PathBuf),
    #[error("the site's content did not load (no start date to name the edition by); nothing was written")]
    NoSite,
    #[error("the site's start date {0:?} is not YYYY-MM-DD; nothing was written")]
    BadStartDate(String),
    #[error("cannot write in {0}: {1}; nothing was written")]
    Write(PathBuf, std::io::Error),
    #[error("the archive could not be zipped: {0}; nothing was written")]
    Zip(#[from] zip::result::ZipError),
}

/// What [`write`] wrote.
#[derive(Debug, Clone)]
pub struct Written {
    /// The edition's year (its start date's).
    pub year: i32,
    /// `DIR/<year>`.
    pub folder: PathBuf,
    pub pages: usize,
    pub files: usize,
    /// `DIR/<year>.zip` with `--zip`.
    pub zip: Option<PathBuf>,
    /// Same-site links that did not answer 200, linked to the live site instead, with the
    /// status.
    pub skipped: Vec<(String, StatusCode)>,
}

/// One answer of the crawl.
struct Fetched {
    path: String,
    entry: Entry,
    content_type: String,
    body: Bytes,
}

/// Writes the archive of the edition `state` serves under `out/<year>/` (whole or not at all:
/// built in a hidden folder of `out`, then renamed), and with `zip` also `out/<year>.zip`
/// holding the same files under `<year>/`. Refuses a non-empty `out/<year>` and an existing
/// zip; reads the database only.
pub async fn write(state: AppState, out: &Path, zip: bool) -> Result<Written, ArchiveError> {
    let content = state.content.snapshot().await;
    let site = content.site.as_ref().map_err(|_| ArchiveError::NoSite)?;
    let year = crate::clock::dates::parse(&site.start_date)
        .ok_or_else(|| ArchiveError::BadStartDate(site.start_date.clone()))?
        .year();
    let folder = out.join(year.to_string());
    if std::fs::read_dir(&folder).map_or(folder.exists(), |mut entries| entries.next().is_some()) {
        return Err(ArchiveError::NotEmpty(folder, year));
    }
    let zip_path = zip.then(|| out.join(format!("{year}.zip")));
    if let Some(path) = zip_path.as_ref().filter(|path| path.exists()) {
        return Err(ArchiveError::ZipExists(path.clone()));
    }
    let write_error = |err: std::io::Error| ArchiveError::Write(out.to_path_buf(), err);
    std::fs::create_dir_all(out).map_err(write_error)?;
    let staging = tempfile::Builder::new().prefix(".archive-").tempdir_in(out).map_err(write_error)?;

    let public_url = state.config.base_url().to_owned();
    let today = state.clock.now().date();
    let banner = format!("This is the archive of {} ({year}), as it was on {today}.", site.name);
    let (fetched, skipped) = crawl(state, &content, &public_url).await;
    let archived: HashMap<String, Entry> = fetched.iter().map(|f| (f.path.clone(), f.entry)).collect();
    let freezer = Freezer { year, public_url: &public_url, archived: &archived, banner: &banner };

    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut pages = 0;
    let mut names = HashSet::new();
    for answer in &fetched {
        let Some(name) = archive::file_name(&answer.path, answer.entry).filter(|name| names.insert(name.clone()))
        else {
            continue;
        };
        let body = match (answer.entry, std::str::from_utf8(&answer.body)) {
            (Entry::Page, Ok(html)) => freezer.page(html, &answer.path).into_bytes(),
            (Entry::File, Ok(text)) if is_text(&answer.content_type) => {
                freezer.text(text, &answer.content_type).into_bytes()
            }
            _ => answer.body.to_vec(),
        };
        let file = staging.path().join(&name);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).map_err(write_error)?;
        }
        std::fs::write(&file, &body).map_err(write_error)?;
        pages += usize::from(answer.entry == Entry::Page);
        files.push((name, body));
    }
    if let Some(zip_path) = &zip_path {
        write_zip(out, zip_path, year, &files)?;
    }
    // An empty `out/<year>` (checked above) gives way to the archive.
    if folder.is_dir() {
        std::fs::remove_dir(&folder).map_err(write_error)?;
    }
    std::fs::rename(staging.path(), &folder).map_err(write_error)?;
    // The staging folder was private (0700); a static server's user reads the archive.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).map_err(write_error)?;
    }
    Ok(Written { year, folder, pages, files: files.len() - pages, zip: zip_path, skipped })
}

/// Every public page and file reachable from the page table, the sitemap, the calendars and
/// schedule exports and the island files, requested from `state`'s router; with the
/// same-site links that answered other than 200.
async fn crawl(
    state: AppState,
    content: &crate::content::snapshot::Snapshot,
    public_url: &str,
) -> (Vec<Fetched>, Vec<(String, StatusCode)>) {
    let mut seeds: Vec<String> = Vec::new();
    for page in PAGES.iter().filter(|page| page.path == page.canonical) {
        let paths = addresses(page, content);
        if page.path == TALK {
            // Each talk's calendar entry sits beside its page (`<slug>.ics`).
            seeds.extend(paths.iter().map(|path| format!("{path}.ics")));
        }
        seeds.extend(paths);
    }
    seeds.extend(["/sitemap.xml", "/calendar.ics", exports::SCHEDULE_XML, exports::SCHEDULE_JSON].map(String::from));
    seeds.extend(assets::island_paths());

    let router = crate::http::router::app(state);
    let mut seen: HashSet<String> = HashSet::new();
    let mut queue: VecDeque<String> = VecDeque::new();
    for seed in seeds {
        if !is_dynamic(&seed) && seen.insert(seed.clone()) {
            queue.push_back(seed);
        }
    }
    let (mut fetched, mut skipped) = (Vec::new(), Vec::new());
    while let Some(path) = queue.pop_front() {
        let Ok(request) = Request::get(&path).body(Body::empty()) else {
            skipped.push((path, StatusCode::BAD_REQUEST));
            continue;
        };
        let response = router.clone().oneshot(request).await.expect("the router is infallible");
        let status = response.status();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("application/octet-stream")
            .to_owned();
        // Materials are a few MiB at most; 64 MiB bounds a runaway answer.
        let body = axum::body::to_bytes(response.into_body(), 64 << 20).await;
        let (StatusCode::OK, Ok(body)) = (status, body) else {
            skipped.push((path, status));
            continue;
        };
        let entry = if content_type.starts_with("text/html") { Entry::Page } else { Entry::File };
        let text = std::str::from_utf8(&body).unwrap_or("");
        let references = match entry {
            Entry::Page => archive::references(text),
            Entry::File if is_text(&content_type) => archive::absolute_references(text, &content_type, public_url),
            Entry::File => Vec::new(),
        };
        for reference in references {
            let Some(link) = archive::site_path(&reference, public_url) else { continue };
            let safe = archive::file_name(&link.path, Entry::Page).is_some();
            if safe && !is_dynamic(&link.path) && seen.len() < MAX_DOCUMENTS && seen.insert(link.path.clone()) {
                queue.push_back(link.path);
            }
        }
        fetched.push(Fetched { path, entry, content_type, body });
    }
    (fetched, skipped)
}

/// Whether an answer of `content_type` is text the archive rewrites (stylesheets, scripts,
/// calendars, XML, JSON).
fn is_text(content_type: &str) -> bool {
    content_type.starts_with("text/") || ["javascript", "json", "xml"].iter().any(|kind| content_type.contains(kind))
}

/// `files` (names under `<year>/`) into `zip_path`, written under a temporary name in `out`
/// and renamed. Stored, not deflated: the `zip` crate is built without compression
/// (bench/README.md, "Edition archive").
fn write_zip(out: &Path, zip_path: &Path, year: i32, files: &[(PathBuf, Vec<u8>)]) -> Result<(), ArchiveError> {
    let write_error = |err: std::io::Error| ArchiveError::Write(out.to_path_buf(), err);
    let partial = tempfile::Builder::new().prefix(".archive-").suffix(".zip").tempfile_in(out).map_err(write_error)?;
    let mut writer = zip::ZipWriter::new(partial.as_file());
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, body) in files {
        let parts: Vec<String> = name.iter().map(|part| part.to_string_lossy().into_owned()).collect();
        writer.start_file(format!("{year}/{}", parts.join("/")), options)?;
        writer.write_all(body).map_err(write_error)?;
    }
    writer.finish()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        partial.as_file().set_permissions(std::fs::Permissions::from_mode(0o644)).map_err(write_error)?;
    }
    partial.persist(zip_path).map_err(|err| write_error(err.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_routes_and_what_lies_below_them() {
        for path in ["/api/contact", "/organiser", "/organiser/orders", "/attendee", "/certificates/AB12", "/Success"] {
            assert!(is_dynamic(path), "{path}");
        }
        for path in ["/", "/schedule", "/api/files/1/2/brochure.pdf", "/reviewers-guide", "/newsletters", "/pricing"] {
            assert!(!is_dynamic(path), "{path}");
        }
    }
}
