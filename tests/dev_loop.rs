//! The edit loop is not part of the site (DESIGN.md section 19, issue 45): `node dev/dev.mjs`
//! supervises the server from outside, so the server itself has no dev route, no page
//! carries the reload script and the binary has no `dev` command.

use axum::http::StatusCode;

use crate::common::app;

/// What the dev supervisor (dev/dev.mjs) serves and injects; none of it may reach a visitor.
const DEV_ROUTES: [&str; 3] = ["/__dev/events", "/__dev/reload.js", "/__dev"];
const RELOAD_MARKS: [&str; 3] = ["/__dev/", "EventSource", "location.reload"];

#[tokio::test]
async fn the_server_has_no_dev_route() {
    let app = app().await;
    for path in DEV_ROUTES {
        let (status, _, _) = app.get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path} is the dev supervisor's, not the server's");
    }
}

#[tokio::test]
async fn no_page_carries_the_reload_code() {
    let app = app().await;
    for (path, _) in app.page_paths().await {
        let page = app.page(&path).await;
        for mark in RELOAD_MARKS {
            assert!(!page.contains(mark), "{path} carries {mark:?}, a piece of the dev loop's reload");
        }
    }
}

#[test]
fn the_binary_has_no_dev_command() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_conference"))
        .arg("dev")
        .env("RUST_LOG", "off")
        .output()
        .expect("the conference binary runs");
    assert!(!output.status.success(), "`conference dev` is refused: the edit loop lives in dev/dev.mjs");
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_conference")).arg("--help").output().expect("--help runs");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(!help.lines().any(|l| l.trim_start().starts_with("dev ")), "no dev command in --help:\n{help}");
}
