//! Pages and files served from memory (issue 9): one prepared answer per page and content
//! version with brotli and gzip forms, `ETag`/304, `Vary` and `HEAD`.

use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::common::html::{parse, select};
use crate::common::inflate::{gunzip, unbrotli};
use crate::common::{TestApp, app};

/// Routes whose answers are prepared ahead: pages, the sitemap, an island asset, a static file.
async fn prepared_routes(app: &TestApp) -> Vec<String> {
    let page = parse(&app.page("/").await);
    let script = select(&page, "[src]")
        .into_iter()
        .filter_map(|e| e.attr("src"))
        .find(|src| src.starts_with("/assets/") && src.ends_with(".js"))
        .expect("the page loads an island script")
        .to_string();
    let mut routes: Vec<String> =
        ["/", "/pricing", "/committee", "/Terms-&-Conditions", "/sitemap.xml", "/static/img/logo.svg"]
            .map(String::from)
            .to_vec();
    routes.push(script);
    routes
}

#[tokio::test]
async fn each_encoding_decodes_to_the_identity_bytes_with_its_own_etag_and_vary() {
    let app = app().await;
    for route in prepared_routes(&app).await {
        let identity = app.request(&route, &[]).await;
        assert_eq!(identity.status, StatusCode::OK, "{route}");
        assert_eq!(identity.header("content-encoding"), None, "{route}");
        let br = app.request(&route, &[("accept-encoding", "br, gzip")]).await;
        assert_eq!(br.header("content-encoding"), Some("br"), "{route} prefers brotli");
        assert_eq!(unbrotli(&br.body), identity.body, "{route}: brotli decodes to the identity bytes");
        assert!(br.body.len() < identity.body.len(), "{route}: brotli is smaller");
        let gzip = app.request(&route, &[("accept-encoding", "gzip")]).await;
        assert_eq!(gzip.header("content-encoding"), Some("gzip"), "{route}");
        assert_eq!(gunzip(&gzip.body), identity.body, "{route}: gzip decodes to the identity bytes");
        for reply in [&identity, &br, &gzip] {
            let vary = reply.header("vary").unwrap_or("").to_ascii_lowercase();
            assert!(vary.contains("accept-encoding"), "{route}: Vary: Accept-Encoding, got {vary:?}");
            assert_eq!(
                reply.header("content-length").map(|l| l.parse::<usize>().unwrap()),
                Some(reply.body.len()),
                "{route}: Content-Length"
            );
        }
        let etags = [identity.header("etag"), br.header("etag"), gzip.header("etag")];
        assert!(etags.iter().all(|e| e.is_some_and(|e| e.starts_with('"') && e.ends_with('"'))), "strong ETags");
        assert!(etags[0] != etags[1] && etags[1] != etags[2] && etags[0] != etags[2], "{route}: one ETag per form");
    }
}

#[tokio::test]
async fn the_same_page_is_the_same_bytes_until_the_content_changes() {
    let app = app().await;
    let first = app.request("/committee", &[("accept-encoding", "br")]).await;
    let second = app.request("/committee", &[("accept-encoding", "br")]).await;
    assert_eq!(first.body, second.body);
    assert_eq!(first.header("etag"), second.header("etag"));

    let seed = crate::common::fixture::SEED.replace(crate::common::fixture::CHAIR, "Prof. Juan Changed");
    conference::seed::apply::seed_with(&app.pool, seed).await.expect("seed applies");
    assert!(app.state.content.reload().await.expect("content reloads"), "a new snapshot");
    let third = app.request("/committee", &[("accept-encoding", "br")]).await;
    assert_ne!(third.header("etag"), first.header("etag"), "new content, new ETag");
    assert!(String::from_utf8(unbrotli(&third.body)).unwrap().contains("Prof. Juan Changed"));
}

#[tokio::test]
async fn if_none_match_answers_304_for_the_form_the_client_holds() {
    let app = app().await;
    for (route, accept) in [("/", ""), ("/", "br"), ("/pricing", "gzip"), ("/static/img/logo.svg", "br")] {
        let headers: Vec<(&str, &str)> = if accept.is_empty() { vec![] } else { vec![("accept-encoding", accept)] };
        let first = app.request(route, &headers).await;
        let etag = first.header("etag").expect("an ETag").to_string();
        let weak = format!("W/{etag}");
        for tag in [etag.as_str(), weak.as_str(), &format!("\"other\", {etag}")] {
            let mut conditional = headers.clone();
            conditional.push(("if-none-match", tag));
            let again = app.request(route, &conditional).await;
            assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{route} {accept} with If-None-Match {tag}");
            assert!(again.body.is_empty(), "a 304 has no body");
            assert_eq!(again.header("etag"), Some(etag.as_str()));
            assert!(again.header("vary").is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")));
        }
        let mut stale = headers.clone();
        stale.push(("if-none-match", "\"0123\""));
        assert_eq!(app.request(route, &stale).await.status, StatusCode::OK, "{route}: another ETag gets the page");
    }
}

#[tokio::test]
async fn head_answers_the_headers_of_get_without_a_body() {
    let app = app().await;
    for route in ["/", "/committee", "/pricing", "/sitemap.xml", "/static/img/logo.svg"] {
        for accept in ["", "br, gzip"] {
            let headers: Vec<(&str, &str)> = if accept.is_empty() { vec![] } else { vec![("accept-encoding", accept)] };
            let get = app.request(route, &headers).await;
            let mut request = Request::head(route).body(Body::empty()).unwrap();
            for (name, value) in &headers {
                request.headers_mut().insert(*name, value.parse().unwrap());
            }
            let head = app.send(request).await;
            assert_eq!(head.status, StatusCode::OK, "HEAD {route}");
            assert!(head.body.is_empty(), "HEAD {route} has no body");
            for name in ["etag", "content-type", "content-encoding", "content-length", "vary", "cache-control"] {
                assert_eq!(head.header(name), get.header(name), "HEAD {route} ({accept}): {name}");
            }
        }
    }
}

#[tokio::test]
async fn prepared_answers_are_not_compressed_again() {
    let app = app().await;
    for route in prepared_routes(&app).await {
        // An encoding we have no prepared form of: identity, untouched by the compression layer.
        let reply = app.request(&route, &[("accept-encoding", "deflate")]).await;
        assert_eq!(reply.header("content-encoding"), None, "{route}");
        let plain = app.request(&route, &[]).await;
        assert_eq!(reply.body, plain.body, "{route}");
    }
    // What is built per request still is compressed.
    let api = app.request("/api/collections/speakers/records", &[("accept-encoding", "br")]).await;
    assert_eq!(api.header("content-encoding"), Some("br"));
}

#[tokio::test]
async fn pages_with_a_query_are_rendered_from_memory_too() {
    let app = app().await;
    let plain = app.page("/pricing").await;
    let selected = app.page("/pricing?plan=presenter-virtual").await;
    assert_ne!(plain, selected, "the query changes the page");
    app.exec("ALTER TABLE ticket_plans RENAME TO ticket_plans_gone").await;
    let again = app.page("/pricing?plan=presenter-virtual").await;
    assert_eq!(again, selected, "no SQL for a page with a query either");
}

/// A fresh page is answered ahead of the middleware stack (src/cache_hits.rs); what a visitor,
/// a proxy or a crawler gets must not depend on whether it was the first request.
#[tokio::test]
async fn a_cached_answer_carries_the_same_headers_as_the_rendered_one() {
    let app = app().await;
    let routes = [
        "/",
        "/AboutUs",
        "/committee",
        "/pricing",
        "/Terms-&-Conditions",
        "/Terms-%26-Conditions",
        "/cookie-policy",
        "/highlights/sustainable-technologies",
        "/sitemap.xml",
        "/robots.txt",
        "/calendar.ics",
    ];
    for route in routes {
        for accept in ["", "br, gzip", "gzip"] {
            let headers: Vec<(&str, &str)> = if accept.is_empty() { vec![] } else { vec![("accept-encoding", accept)] };
            let first = app.request(route, &headers).await;
            let again = app.request(route, &headers).await;
            assert_eq!(first.status, StatusCode::OK, "{route}");
            assert_eq!(again.status, StatusCode::OK, "{route}");
            assert_eq!(again.body, first.body, "{route} ({accept})");
            assert_eq!(again.headers, first.headers, "{route} ({accept}): the same headers, rendered or cached");
            assert!(again.header("content-security-policy").is_some(), "{route}: security headers on a cached answer");
            // A 304 from memory: the 200's headers but those of the body (RFC 9110 15.4.5).
            let mut conditional = headers.clone();
            conditional.push(("if-none-match", first.header("etag").expect("an ETag")));
            let unchanged = app.request(route, &conditional).await;
            assert_eq!(unchanged.status, StatusCode::NOT_MODIFIED, "{route} ({accept})");
            let of_the_body = ["content-type", "content-length", "content-encoding", "content-disposition", "date"];
            let without_body = |headers: &axum::http::HeaderMap| -> Vec<(String, Vec<u8>)> {
                let mut kept: Vec<(String, Vec<u8>)> = headers
                    .iter()
                    .filter(|(name, _)| !of_the_body.contains(&name.as_str()))
                    .map(|(name, value)| (name.to_string(), value.as_bytes().to_vec()))
                    .collect();
                kept.sort();
                kept
            };
            assert_eq!(
                without_body(&unchanged.headers),
                without_body(&first.headers),
                "{route} ({accept}): 304 headers"
            );
        }
    }
    let calendar = app.request("/calendar.ics", &[]).await;
    assert_eq!(calendar.header("content-disposition"), Some("inline; filename=\"conference.ics\""));
}

/// What the cache-hit path must leave to the stack: a query, a body, another method.
#[tokio::test]
async fn requests_a_cached_answer_does_not_fit_go_through_the_handlers() {
    let app = app().await;
    let plain = app.page("/sponsorship").await;
    let chosen = app.page("/sponsorship?package=platinum").await;
    assert_ne!(plain, chosen, "a query is rendered by the handler, not taken from the cache");
    // A GET that announces a body above the limit is refused before anything reads it.
    let big = app.request("/", &[("content-length", "999999999")]).await;
    assert_eq!(big.status, StatusCode::PAYLOAD_TOO_LARGE);
    let post = app.post("/committee", "text/plain", "x", &[]).await;
    assert_eq!(post.status, StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD are served from the cache");
}

/// One exchange over TCP with the real accept loop: status and every header (lower-cased
/// names, in order), the `Date` left out (it moves with the clock).
async fn over_tcp(
    addr: std::net::SocketAddr,
    request_line: &str,
    headers: &[(&str, &str)],
) -> (u16, Vec<(String, String)>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut request = format!("{request_line} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(std::time::Duration::from_secs(20), stream.read_to_end(&mut answer))
        .await
        .expect("the server answers")
        .unwrap();
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("a header block");
    let head = String::from_utf8_lossy(&answer[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .filter(|(name, _)| name != "date")
        .collect();
    (status, headers)
}

/// Issue 25: a hit answered by the accept loop itself carries exactly the headers the stack
/// gives the same request (the first one, a miss), for a 200, a 304 and a HEAD.
#[tokio::test]
async fn a_hit_over_tcp_carries_the_headers_of_the_stacks_answer() {
    let served = crate::connections::serve(|_| {}).await;
    // The same fixture and year render the same bytes: another app tells the ETag to ask for.
    let other = app().await;
    let pricing = other.request("/pricing", &[("accept-encoding", "br")]).await;
    let etag = pricing.header("etag").expect("an ETag").to_owned();
    // Request line, headers, expected status.
    type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, u16);
    let cases: [Case; 3] = [
        ("GET /committee", vec![("accept-encoding", "gzip, br")], 200),
        ("GET /pricing", vec![("accept-encoding", "br"), ("if-none-match", etag.as_str())], 304),
        ("HEAD /gallery", vec![("accept-encoding", "gzip")], 200),
    ];
    for (request_line, headers, status) in cases {
        let (first_status, stack) = over_tcp(served.addr, request_line, &headers).await;
        let (again_status, hit) = over_tcp(served.addr, request_line, &headers).await;
        assert_eq!((first_status, again_status), (status, status), "{request_line}");
        assert!(stack.iter().any(|(name, _)| name == "content-security-policy"), "{request_line}: {stack:?}");
        assert_eq!(hit, stack, "{request_line}: the hit's headers are the stack's");
    }
    served.stop().await;
}

/// Issue 25: an alias of a page (`/Schedule`, the terms with `&` encoded) shares the
/// canonical page's cache entry instead of one of its own, and is answered from it.
#[tokio::test]
async fn aliases_share_the_canonical_pages_entry() {
    let app = app().await;
    for (alias, canonical) in [("/Schedule", "/schedule"), ("/Terms-%26-Conditions", "/Terms-&-Conditions")] {
        let first = app.request(alias, &[]).await;
        let cached = app.state.pages.get(canonical, app.state.content.generation().unwrap(), app.state.clock.now());
        assert!(cached.is_some(), "{alias} is kept under {canonical}");
        assert!(
            app.state.pages.get(alias, app.state.content.generation().unwrap(), app.state.clock.now()).is_none(),
            "{alias} has no entry of its own"
        );
        let again = app.request(canonical, &[]).await;
        assert_eq!(again.body, first.body, "{alias} and {canonical} are one page");
        assert_eq!(again.header("etag"), first.header("etag"));
        // And the alias is a hit, answered ahead of the stack like its page.
        let request = Request::get(alias).body(Body::empty()).unwrap();
        let answer = app.router.dispatch(request, None);
        assert!(matches!(answer, conference::http::cache_hits::HitOrMiss::Hit(_)), "{alias} is answered from memory");
    }
}

/// Issue 25: `Accept-Encoding` and `If-None-Match` are read across all their lines; an
/// invalid weight counts as 0 and `identity;q=0` is honoured.
#[tokio::test]
async fn negotiation_reads_every_line_by_the_book() {
    let app = app().await;
    let get = |headers: Vec<(&'static str, &'static str)>| {
        let app = &app;
        async move {
            let mut request = axum::http::Request::get("/committee");
            for (name, value) in headers {
                request = request.header(name, value);
            }
            app.send(request.body(axum::body::Body::empty()).unwrap()).await
        }
    };
    let two_lines = get(vec![("accept-encoding", "deflate"), ("accept-encoding", "br")]).await;
    assert_eq!(two_lines.header("content-encoding"), Some("br"), "br on the second line");
    let bad_q = get(vec![("accept-encoding", "br;q=abc, gzip;q=0.5")]).await;
    assert_eq!(bad_q.header("content-encoding"), Some("gzip"), "br;q=abc is not acceptable");
    let identity_first = get(vec![("accept-encoding", "br;q=0.5, identity")]).await;
    assert_eq!(identity_first.header("content-encoding"), None, "identity preferred");
    let nothing = get(vec![("accept-encoding", "identity;q=0, deflate")]).await;
    assert_eq!(nothing.status, StatusCode::NOT_ACCEPTABLE);
    let etag = get(vec![("accept-encoding", "gzip")]).await.header("etag").unwrap().to_owned();
    let etag: &'static str = Box::leak(etag.into_boxed_str());
    let second_line =
        get(vec![("accept-encoding", "gzip"), ("if-none-match", "\"other\""), ("if-none-match", etag)]).await;
    assert_eq!(second_line.status, StatusCode::NOT_MODIFIED, "the tag on the second line");
}
