//! Security headers on every response (issue: Serving). The Content-Security-Policy allows
//! only the site's own scripts, no inline script, and the map embed's frame.

use axum::http::{HeaderMap, HeaderName, HeaderValue, header};

/// The policy. `style-src 'unsafe-inline'` is kept for style attributes that animation and
/// toast libraries set; scripts stay strictly same-origin.
///
/// `extra_form_action` is one more origin forms may post to: the current payment mode's
/// gateway (CCAvenue's when live, `PUBLIC_URL`'s in test mode, none when off), from
/// [`crate::payments::PaymentConfig::form_action_origin`], which only yields a bare
/// `scheme://host[:port]`, so nothing else can slip into the header.
pub fn content_security_policy(extra_form_action: Option<&str>) -> String {
    let form_action = match extra_form_action {
        Some(origin) => format!("'self' {origin}"),
        None => "'self'".into(),
    };
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
         font-src 'self'; connect-src 'self'; frame-src https://www.google.com https://maps.google.com; \
         form-action {form_action}; frame-ancestors 'none'; base-uri 'self'; object-src 'none'"
    )
}

/// HSTS value when the site is served over https (DESIGN.md section 2): one year.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=31536000";

/// Every security header, with `Strict-Transport-Security` only when `PUBLIC_URL` is
/// `https` (a browser told to insist on https for a plain-http site would lock its visitors
/// out). `super::response_headers` adds them to every answer, cache hits included.
pub fn response_headers(csp: &str, https: bool) -> HeaderMap {
    let fixed: [(HeaderName, &'static str); 5] = [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (HeaderName::from_static("permissions-policy"), "camera=(), microphone=(), geolocation=(), interest-cohort=()"),
        (HeaderName::from_static("cross-origin-opener-policy"), "same-origin"),
    ];
    let mut headers: HeaderMap =
        fixed.into_iter().map(|(name, value)| (name, HeaderValue::from_static(value))).collect();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_str(csp).expect("CSP is a valid header value"));
    if https {
        headers.insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(STRICT_TRANSPORT_SECURITY));
    }
    headers
}

/// Headers a browser reads only on a document (a page, or an SVG opened on its own): CSP
/// (CSP 3 section 4.1: a policy is attached to a document or worker, never to a script or
/// stylesheet it loads), `X-Frame-Options` (RFC 7034: framing of a document), Permissions
/// Policy and COOP (HTML's browsing-context rules). On a script, stylesheet, font or raster
/// image they are bytes every visitor downloads for nothing, about 500 per file over
/// HTTP/1.1. `nosniff`, `Referrer-Policy` (a stylesheet's own `url()` fetches follow it) and
/// HSTS stay on every answer.
const DOCUMENT_ONLY: [HeaderName; 4] = [
    header::CONTENT_SECURITY_POLICY,
    header::X_FRAME_OPTIONS,
    HeaderName::from_static("permissions-policy"),
    HeaderName::from_static("cross-origin-opener-policy"),
];

/// Whether an answer of this `Content-Type` can never be a document or a worker: JavaScript
/// (the site starts no workers), CSS, fonts, and images other than SVG (which can hold
/// script when opened directly). Anything else, or no type, counts as a document.
fn is_subresource(content_type: Option<&HeaderValue>) -> bool {
    let Some(essence) = content_type.and_then(|value| value.to_str().ok()) else { return false };
    let essence = essence.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    matches!(essence.as_str(), "text/javascript" | "application/javascript" | "text/css")
        || essence.starts_with("font/")
        || (essence.starts_with("image/") && essence != "image/svg+xml")
}

/// Adds `headers` to a response, each unless the handler set it already, and without the
/// document-only ones ([`DOCUMENT_ONLY`]) on a script, stylesheet, font or raster image.
pub fn add_missing(response: &mut HeaderMap, headers: &HeaderMap) {
    let subresource = is_subresource(response.get(header::CONTENT_TYPE));
    for (name, value) in headers {
        let unwanted = subresource && DOCUMENT_ONLY.contains(name);
        if !unwanted && !response.contains_key(name) {
            response.insert(name.clone(), value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn completed(content_type: Option<&'static str>) -> HeaderMap {
        let mut response = HeaderMap::new();
        if let Some(value) = content_type {
            response.insert(header::CONTENT_TYPE, HeaderValue::from_static(value));
        }
        add_missing(&mut response, &response_headers(&content_security_policy(None), true));
        response
    }

    #[test]
    fn documents_get_every_header() {
        for content_type in [Some("text/html; charset=utf-8"), Some("image/svg+xml"), Some("application/json"), None] {
            let headers = completed(content_type);
            for name in
                DOCUMENT_ONLY.iter().chain([&header::X_CONTENT_TYPE_OPTIONS, &header::STRICT_TRANSPORT_SECURITY])
            {
                assert!(headers.contains_key(name), "{content_type:?} lacks {name}");
            }
        }
    }

    #[test]
    fn scripts_styles_fonts_and_raster_images_skip_the_document_only_headers() {
        for content_type in ["text/javascript", "text/css; charset=utf-8", "font/woff2", "image/webp", "IMAGE/PNG"] {
            let headers = completed(Some(content_type));
            for name in &DOCUMENT_ONLY {
                assert!(!headers.contains_key(name), "{content_type} carries {name}");
            }
            for name in [header::X_CONTENT_TYPE_OPTIONS, header::REFERRER_POLICY, header::STRICT_TRANSPORT_SECURITY] {
                assert!(headers.contains_key(&name), "{content_type} lacks {name}");
            }
        }
    }
}
