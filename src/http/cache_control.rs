//! `Cache-Control` a CDN or shared cache in front of the site can act on (DESIGN.md
//! section 9), decided by path, method, status and content type and set on every answer
//! by `super::response_headers`, so a handler or a page cache never has to remember it:
//!
//! - every `/api/*` and `/organiser` answer and the pages about one visitor's payment (`/Success`, `/Failed`,
//!   `/test-gateway`) are [`PRIVATE`], whatever the handler set;
//! - HTML pages (GET/HEAD, 2xx, 304 or 404) are [`PAGE`]: browsers revalidate every time
//!   (with the ETag), a shared cache may serve a page for 60 s, which keeps the countdown's
//!   server values within a minute (section 10), and may serve a stale copy for 10 more
//!   minutes while it revalidates, or while the site is down for a restart;
//! - any other HTML answer (a 5xx page, a 429, the answer to a form POST) is [`PRIVATE`];
//! - the rest (island assets with their year-long immutable policy, static files, the
//!   sitemap) keep what their handler set.

use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::Response;

use crate::cache::control::{PAGE, PRIVATE};

/// Pages that show one visitor's payment (or the test gateway's form for it).
const PRIVATE_PAGES: [&str; 3] = ["/Success", "/Failed", "/test-gateway"];

/// Sets the [`policy`] for `response` to a request of `method` for `path`.
pub fn apply(method: &Method, path: &str, response: &mut Response) {
    let is_html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.as_bytes().trim_ascii_start())
        .is_some_and(|t| t.len() >= 9 && t[..9].eq_ignore_ascii_case(b"text/html"));
    if let Some(policy) = policy(method, path, response.status(), is_html) {
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    }
}

/// The areas behind a sign-in, `/organiser` and `/review` and below (DESIGN.md sections 12
/// and 15): no cache keeps any of it, and its POSTs need proof of the same origin.
pub fn is_signed_in_area(path: &str) -> bool {
    ["/organiser", "/review"]
        .iter()
        .any(|area| path.strip_prefix(area).is_some_and(|rest| rest.is_empty() || rest.starts_with('/')))
}

/// An author's private status link and its withdrawal (issue 21): one person's data behind a
/// secret in the URL, so no cache keeps it and POSTs need proof of the same origin.
pub fn is_status_link(path: &str) -> bool {
    path.starts_with(crate::submissions::status_link::STATUS_PREFIX)
}

/// The attendee's pages (issue 33, DESIGN.md section 16): the private link `/attendee/<token>`
/// and "send my link again" at `/attendee`, and the ticket's QR address `/check-in/<code>`
/// (which will show the desk a ticket's holder). No cache keeps any of it, and POSTs need
/// proof of the same origin.
pub fn is_attendee_link(path: &str) -> bool {
    path == "/attendee" || path.starts_with("/attendee/") || path.starts_with("/check-in/")
}

/// A certificate's verify page and PDF (issue 33 item 5): public, but a revoke must show at
/// once, so no cache keeps them (a shared cache would serve "valid" for up to a minute, or
/// ten while revalidating).
pub fn is_certificate(path: &str) -> bool {
    path.starts_with(crate::attendance::certificates::PREFIX)
}

/// The policy for an answer, or `None` to keep the handler's.
pub fn policy(method: &Method, path: &str, status: StatusCode, is_html: bool) -> Option<&'static str> {
    if path == "/api"
        || path.starts_with("/api/")
        || is_signed_in_area(path)
        || is_status_link(path)
        || is_attendee_link(path)
        || is_certificate(path)
        || PRIVATE_PAGES.contains(&path)
    {
        return Some(PRIVATE);
    }
    if !is_html {
        return None;
    }
    let cacheable_status = status.is_success() || status == StatusCode::NOT_MODIFIED || status == StatusCode::NOT_FOUND;
    if (method == Method::GET || method == Method::HEAD) && cacheable_status { Some(PAGE) } else { Some(PRIVATE) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_by_path_method_and_status() {
        let get = &Method::GET;
        assert_eq!(policy(get, "/", StatusCode::OK, true), Some(PAGE));
        assert_eq!(policy(&Method::HEAD, "/venue", StatusCode::NOT_MODIFIED, true), Some(PAGE));
        assert_eq!(policy(get, "/no-such-page", StatusCode::NOT_FOUND, true), Some(PAGE));
        assert_eq!(policy(get, "/", StatusCode::INTERNAL_SERVER_ERROR, true), Some(PRIVATE));
        assert_eq!(policy(&Method::POST, "/pricing", StatusCode::OK, true), Some(PRIVATE));
        for path in ["/Success", "/Failed", "/test-gateway", "/api/health", "/api/files/a/b/c.pdf", "/api"] {
            assert_eq!(policy(get, path, StatusCode::OK, true), Some(PRIVATE), "{path}");
            assert_eq!(policy(get, path, StatusCode::OK, false), Some(PRIVATE), "{path}");
        }
        assert_eq!(policy(get, "/apiary", StatusCode::OK, true), Some(PAGE), "only the /api/ tree");
        for path in ["/organiser", "/organiser/sign-in/abc", "/organiser/submissions.csv"] {
            assert_eq!(policy(get, path, StatusCode::OK, true), Some(PRIVATE), "{path}");
            assert_eq!(policy(get, path, StatusCode::SEE_OTHER, false), Some(PRIVATE), "{path}");
        }
        assert_eq!(policy(get, "/organisers", StatusCode::OK, true), Some(PAGE), "only the /organiser tree");
        for status in [StatusCode::OK, StatusCode::NOT_FOUND] {
            assert_eq!(policy(get, "/submission/status/abc", status, true), Some(PRIVATE), "{status}");
        }
        for path in ["/attendee", "/attendee/abc", "/check-in/ABC"] {
            assert_eq!(policy(get, path, StatusCode::OK, true), Some(PRIVATE), "{path}");
            assert_eq!(policy(get, path, StatusCode::NOT_FOUND, true), Some(PRIVATE), "{path}");
        }
        assert_eq!(policy(get, "/attendees", StatusCode::OK, true), Some(PAGE), "only the /attendee tree");
        for path in ["/certificates/ABC", "/certificates/ABC.pdf"] {
            assert_eq!(policy(get, path, StatusCode::OK, true), Some(PRIVATE), "{path}");
            assert_eq!(policy(get, path, StatusCode::OK, false), Some(PRIVATE), "{path}");
            assert_eq!(policy(get, path, StatusCode::GONE, true), Some(PRIVATE), "{path}");
        }
        assert_eq!(policy(get, "/assets/main-abc123.js", StatusCode::OK, false), None);
        assert_eq!(policy(get, "/sitemap.xml", StatusCode::OK, false), None);
    }
}
