//! The ceiling `bench/pages.sh` holds page-cache hits against (issue 30 item 4): a bare axum
//! handler serving the same bytes from memory, with nothing of the site around it (no
//! security headers, no log span, no negotiation beyond a substring test). Not part of the
//! server: a benchmark's tool.
//!
//! ```sh
//! cargo build --release --example bare_pages
//! target/release/examples/bare_pages 127.0.0.1:18092 DIR
//! ```
//!
//! DIR holds what `bench/pages.sh` saved of each page: `NAME` (identity), `NAME.gz` and
//! `NAME.br`, where `/` is `index.html`, `/committee` is `committee` and `/schedule/talks/x` is
//! `schedule/talks/x`. A request gets the
//! brotli form when its `Accept-Encoding` mentions `br`, else gzip when it mentions `gzip`,
//! else the identity form; an unknown path is a 404.

use std::collections::HashMap;
use std::error::Error;
use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::Response;

/// One page's three forms.
struct Page {
    identity: Bytes,
    gzip: Option<Bytes>,
    br: Option<Bytes>,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(addr), Some(dir)) = (args.next(), args.next()) else {
        return Err("usage: bare_pages LISTEN_ADDR DIR".into());
    };
    let mut pages = HashMap::new();
    load(std::path::Path::new(&dir), "", &mut pages)?;
    let app = Router::new().fallback(page).with_state(Arc::new(pages));
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    axum::serve(listener, app).await?;
    Ok(())
}

/// Reads the pages under `dir` (into folders: `schedule/talks/x` is `/schedule/talks/x`).
fn load(dir: &std::path::Path, prefix: &str, pages: &mut HashMap<String, Page>) -> Result<(), Box<dyn Error>> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        if path.is_dir() {
            load(&path, &format!("{prefix}/{name}"), pages)?;
            continue;
        }
        if name.ends_with(".gz") || name.ends_with(".br") {
            continue;
        }
        let read = |suffix: &str| std::fs::read(format!("{}{suffix}", path.display())).ok().map(Bytes::from);
        let route = if name == "index.html" { format!("{prefix}/") } else { format!("{prefix}/{name}") };
        pages.insert(route, Page { identity: Bytes::from(std::fs::read(&path)?), gzip: read(".gz"), br: read(".br") });
    }
    Ok(())
}

async fn page(State(pages): State<Arc<HashMap<String, Page>>>, uri: Uri, headers: HeaderMap) -> Response {
    let Some(page) = pages.get(uri.path()) else {
        let mut missing = Response::new(Body::empty());
        *missing.status_mut() = StatusCode::NOT_FOUND;
        return missing;
    };
    let accepts = headers.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).unwrap_or("");
    let (body, coding) = match (&page.br, &page.gzip) {
        (Some(br), _) if accepts.contains("br") => (br.clone(), Some("br")),
        (_, Some(gzip)) if accepts.contains("gzip") => (gzip.clone(), Some("gzip")),
        _ => (page.identity.clone(), None),
    };
    let mut response = Response::new(Body::from(body));
    let out = response.headers_mut();
    out.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    out.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Some(coding) = coding {
        out.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    response
}
