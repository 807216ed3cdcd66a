//! `conference edition archive --out DIR [--zip]` (issue 43 item 5, DESIGN.md section 17): the
//! fixture's site with a published programme frozen through the built binary, served by a plain
//! static file server (tower-http's `ServeDir`) and crawled from `/<year>/` as a browser would:
//! every link and asset answers 200, nothing points to a dynamic route, no form is left, the
//! canonical links name the `/<year>/` copy, and the zip holds the same files. Bad input is
//! refused with a clear message and writes nothing.

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::io::Read;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::html::{link_rel, parse, select};
use crate::common::programme::{KEYNOTE_SLUG, publish_fixture_programme};
use crate::common::{self, BASE, TestApp, loopback};

/// The live site's routes that answer per visitor or change state: the archive never links
/// to one of them on its own server.
const DYNAMIC: &[&str] = &[
    "/api/",
    "/organiser",
    "/review",
    "/attendee",
    "/certificates",
    "/check-in",
    "/Success",
    "/Failed",
    "/test-gateway",
    "/newsletter/",
    "/submission/status",
];

/// `conference edition archive ARGS` with the app's database, data folder and public URL.
fn edition_archive(app: &TestApp, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conference"))
        .args(["edition", "archive"])
        .args(args)
        .current_dir(app.dir.path())
        .env("DATA_DIR", app.dir.path())
        .env("DATABASE_URL", app.database_url())
        .env("PUBLIC_URL", BASE)
        .env("RUST_LOG", "error")
        .output()
        .expect("the binary runs")
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

async fn edition_year(app: &TestApp) -> String {
    let (start,): (String,) = sqlx::query_as("SELECT start_date FROM site").fetch_one(&app.pool).await.unwrap();
    start[..4].to_owned()
}

/// Every file under `dir`, as `/`-separated paths relative to it.
fn files_under(dir: &Path) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let relative: Vec<String> =
                    path.strip_prefix(dir).unwrap().iter().map(|part| part.to_string_lossy().into_owned()).collect();
                found.insert(relative.join("/"));
            }
        }
    }
    found
}

/// A plain static file server over `dir` on 127.0.0.1 (port 0), as any host of files would
/// serve the archive; stopped when the task is aborted.
async fn serve_files(dir: &Path) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let router = axum::Router::new().fallback_service(tower_http::services::ServeDir::new(dir));
    let task = tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (address, task)
}

/// The path a link of the archive points to on the static server, or `None` for a link
/// elsewhere (another site, mailto:, a fragment; the live site, which `live` collects).
fn archive_path(link: &str, live: &mut BTreeSet<String>) -> Option<String> {
    let link = link.split('#').next().unwrap_or("");
    if let Some(path) = link.strip_prefix(BASE) {
        live.insert(path.to_owned());
        return None;
    }
    (link.starts_with('/') && !link.starts_with("//")).then(|| link.split('?').next().unwrap().to_owned())
}

/// The strings of `value` that are root-relative paths.
fn json_paths(value: &serde_json::Value, found: &mut Vec<String>) {
    match value {
        serde_json::Value::String(text) if text.starts_with('/') && !text.starts_with("//") => found.push(text.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|item| json_paths(item, found)),
        serde_json::Value::Object(map) => map.values().for_each(|item| json_paths(item, found)),
        _ => {}
    }
}

/// The relative module imports (`"./x.js"`) of an island script.
fn relative_imports(script: &str) -> Vec<String> {
    let mut found = Vec::new();
    for quote in ['"', '\'', '`'] {
        let opener = format!("{quote}./");
        let mut rest = script;
        while let Some(at) = rest.find(&opener) {
            rest = &rest[at + opener.len()..];
            // `import.meta.glob`'s keys name the sources (`./islands/X.tsx`), not files.
            if let Some(end) = rest.find(quote).filter(|end| rest[..*end].ends_with(".js")) {
                found.push(rest[..end].to_owned());
            }
        }
    }
    found
}

#[tokio::test]
async fn the_archive_is_served_by_a_plain_static_server_with_every_link_resolving() {
    let app = common::app().await;
    publish_fixture_programme(&app).await;
    let year = edition_year(&app).await;
    let out = tempfile::tempdir().unwrap();
    let output = edition_archive(&app, &["--out", arg(out.path()), "--zip"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "stdout: {stdout}\nstderr: {}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains(&format!("wrote the {year} archive to")), "{stdout}");

    let (address, server) = serve_files(out.path()).await;
    let client = loopback::builder().timeout(std::time::Duration::from_secs(30)).build().unwrap();
    let origin = format!("http://{address}");
    let home = format!("/{year}/");
    // From the home page, and from the files a crawler or an attendee app reads first.
    let starts = [home.clone(), format!("/{year}/sitemap.xml"), format!("/{year}/schedule.xml")];
    let mut queue = VecDeque::from(starts.clone());
    let mut seen: HashSet<String> = HashSet::from(starts);
    let mut live = BTreeSet::new();
    let mut pages = 0;
    while let Some(path) = queue.pop_front() {
        let reply = client.get(format!("{origin}{path}")).send().await.unwrap();
        assert_eq!(reply.status(), 200, "{path} does not resolve on the static server");
        let is_html = reply.headers()["content-type"].to_str().unwrap().starts_with("text/html");
        let is_script = path.ends_with(".js");
        let body = reply.text().await.unwrap_or_default();
        let mut links = Vec::new();
        if is_html {
            pages += 1;
            let page = parse(&body);
            assert!(select(&page, "form").is_empty(), "{path} still has a form");
            for island in
                ["ContactForm", "Newsletter", "PaperForm", "TicketCheckout", "SponsorCheckout", "CustomPayment"]
            {
                assert!(!body.contains(&format!("data-island=\"{island}\"")), "{path} still mounts {island}");
            }
            let canonical = link_rel(&page, "canonical").unwrap_or_else(|| panic!("{path} has a canonical link"));
            assert!(
                canonical.starts_with(&format!("{BASE}{home}")),
                "{path}: the canonical link {canonical} names a /{year}/ copy"
            );
            let banner = select(&page, ".archive-banner a");
            assert_eq!(banner.len(), 1, "{path}: one banner");
            assert_eq!(
                banner[0].attr("href"),
                Some(format!("{BASE}/").as_str()),
                "{path}: the banner links the live site"
            );
            for element in select(&page, "[href], [src]") {
                links.extend(element.attr("href").or(element.attr("src")).map(str::to_owned));
            }
            // The islands' props hold links and images too (the mobile menu, the gallery).
            for element in select(&page, "[data-props]") {
                let props: serde_json::Value = serde_json::from_str(element.attr("data-props").unwrap()).unwrap();
                json_paths(&props, &mut links);
            }
        } else if is_script {
            // The islands' chunks import each other by relative paths and preload by the base.
            let folder = &path[..path.rfind('/').unwrap() + 1];
            links.extend(relative_imports(&body).into_iter().map(|file| format!("{folder}{file}")));
            assert!(!body.contains("`/assets/"), "{path} loads chunks from /assets/ outside the archive");
        } else if path.ends_with(".css") {
            for url in body.split("url(").skip(1) {
                links.push(url.split(')').next().unwrap().trim_matches(['"', '\'']).to_owned());
            }
        } else if path.ends_with(".xml") || path.ends_with(".ics") {
            for line in body.replace("\r\n ", "").lines() {
                for part in line.split(['<', '>', ' ', '"']) {
                    if part.starts_with(BASE) {
                        links.push(part.replace("&amp;", "&"));
                    }
                }
            }
        }
        for link in links {
            let Some(target) = archive_path(&link, &mut live) else { continue };
            assert!(target.starts_with(&home), "{path} links {link} outside the archive");
            if seen.insert(target.clone()) {
                queue.push_back(target);
            }
        }
        // Absolute links into the archive (canonical, sitemap, calendars) resolve too.
        for path in live.clone() {
            if path.starts_with(&home) && seen.insert(path.clone()) {
                queue.push_back(path);
            }
        }
    }
    server.abort();
    let expected = [format!("/{year}/schedule/talks/{KEYNOTE_SLUG}/"), format!("/{year}/schedule/")];
    for path in &expected {
        assert!(seen.contains(path), "{path} is reached from the archive's home");
    }
    assert!(pages >= 20, "the archive holds every public page; {pages} reached");
    // The live site is linked by the banner and the notes in place of forms; of its dynamic
    // routes only "send my link again", where a past edition's attendee asks for the link
    // to their page, which keeps answering (DESIGN.md section 17).
    for path in &live {
        let bare = path.split('?').next().unwrap();
        assert!(
            bare.starts_with(&home) || bare == "/attendee" || DYNAMIC.iter().all(|route| !bare.starts_with(route)),
            "a link to the live site's dynamic route {path}"
        );
    }
    for page in ["/", "/pricing", "/submission", "/sponsorship"] {
        assert!(live.contains(page), "a note or the banner links the live {page}: {live:?}");
    }

    // The zip holds the same files, under `<year>/`.
    let zip_file = std::fs::File::open(out.path().join(format!("{year}.zip"))).unwrap();
    let mut zip = zip::ZipArchive::new(zip_file).unwrap();
    let in_zip: BTreeSet<String> = zip.file_names().map(|name| name.unwrap().into_owned()).collect();
    let on_disk: BTreeSet<String> =
        files_under(&out.path().join(&year)).into_iter().map(|file| format!("{year}/{file}")).collect();
    assert_eq!(in_zip, on_disk);
    let mut home_in_zip = String::new();
    zip.by_name(&format!("{year}/index.html")).unwrap().read_to_string(&mut home_in_zip).unwrap();
    assert_eq!(home_in_zip, std::fs::read_to_string(out.path().join(&year).join("index.html")).unwrap());

    // Nothing in the database changed: a second archive elsewhere is the same set of files.
    let again = tempfile::tempdir().unwrap();
    assert!(edition_archive(&app, &["--out", arg(again.path())]).status.success());
    assert_eq!(files_under(&again.path().join(&year)), files_under(&out.path().join(&year)));
}

#[tokio::test]
async fn a_non_empty_or_unwritable_out_folder_is_refused_and_nothing_is_written() {
    let app = common::app().await;
    let year = edition_year(&app).await;
    let out = tempfile::tempdir().unwrap();
    let kept = out.path().join(&year).join("notes.txt");
    std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
    std::fs::write(&kept, "mine").unwrap();
    let output = edition_archive(&app, &["--out", arg(out.path()), "--zip"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains(&format!("{} is not empty", out.path().join(&year).display())), "{stderr}");
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert_eq!(files_under(out.path()), BTreeSet::from([format!("{year}/notes.txt")]), "nothing else appeared");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "mine");

    // A file where the folder should be: it cannot be written in.
    let blocked: PathBuf = out.path().join("a-file");
    std::fs::write(&blocked, "x").unwrap();
    let inside = blocked.join("archive");
    let output = edition_archive(&app, &["--out", arg(&inside)]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains(&format!("cannot write in {}", inside.display())), "{stderr}");
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&blocked).unwrap(), "x");

    // An existing zip is never overwritten.
    let fresh = tempfile::tempdir().unwrap();
    let zip = fresh.path().join(format!("{year}.zip"));
    std::fs::write(&zip, "old").unwrap();
    let output = edition_archive(&app, &["--out", arg(fresh.path()), "--zip"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("exists"), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(std::fs::read_to_string(&zip).unwrap(), "old");
    assert!(!fresh.path().join(&year).exists());

    // Without --out the command line says what is missing.
    let output = edition_archive(&app, &[]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--out"));
}
