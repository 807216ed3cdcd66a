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

/// Adds `headers` to a response, each unless the handler set it already.
pub fn add_missing(response: &mut HeaderMap, headers: &HeaderMap) {
    for (name, value) in headers {
        if !response.contains_key(name) {
            response.insert(name.clone(), value.clone());
        }
    }
}
