//! Protection of every POST (DESIGN.md section 5, "Details that tests rely on"), in two parts:
//!
//! - [`guard`], a middleware on the whole router (so every POST route, present or future, is
//!   covered): the same-origin check (403) and the per-client rate limit (429 with
//!   `Retry-After`; the gateway's answers exempt). Other methods pass untouched.
//! - [`Submission`], the extractor of the visitor forms (`/api/contact`, `/api/newsletter`):
//!   content type (415), body size (413), readable JSON (400), the `_gotcha` honeypot, and
//!   [`Check`] for required fields, formats and length bounds (422 with
//!   `{"message", "errors": {field: reason}}`, the payload's own field names).
//!
//! Every refusal is a clear status with a JSON `{"message"}`.
//!
//! Client address: the [`ClientIp`] of `crate::client_ip` (the TCP peer, or with
//! `TRUSTED_PROXIES` the visitor a trusted proxy names). Requests without a socket (tests
//! driving the router with `oneshot`) all count as one "unknown" client. Budgets live in this
//! process: with several instances behind a balancer, each instance grants its own budget.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use governor::clock::{Clock, MonotonicClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter as Gcra};

use axum::Json;
use axum::body::{Body, HttpBody};
use axum::extract::{FromRequest, OriginalUri, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::{Map, Value};

use crate::client_ip::ClientIp;
use crate::config::Config;
use crate::error::{AppError, ErrorBody};
use crate::state::AppState;

/// The one POST route another origin may call: the payment gateway posts its answer from its
/// own origin; the cipher and the stored order protect it (DESIGN.md section 5).
pub const ORIGIN_EXEMPT_PATHS: [&str; 1] = ["/api/ccavenue-handle"];

/// Largest JSON or form body a visitor form accepts, in bytes (64 KiB: the longest message,
/// 5,000 characters of up to 4 UTF-8 bytes each, fits with room to spare).
pub const FORM_BODY_LIMIT: usize = 64 * 1024;

/// Name of the honeypot field every form carries (DESIGN.md section 5).
pub const HONEYPOT_FIELD: &str = "_gotcha";

/// POST routes outside the visitors' budget: the gateway's answers (DESIGN.md section 2,
/// `RATE_LIMIT_PER_MINUTE`). They come from the gateway's few addresses for every payer at
/// once, and a refused answer would leave a paid order undecided.
pub const RATE_LIMIT_EXEMPT_PATHS: [&str; 1] = ["/api/ccavenue-handle"];

/// A refused request: status, JSON `{"message"}` and maybe a `Retry-After`.
#[derive(Debug)]
pub struct Refusal {
    pub status: StatusCode,
    pub message: String,
    /// Seconds, for 429.
    pub retry_after: Option<u64>,
}

impl Refusal {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Refusal { status, message: message.into(), retry_after: None }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let body = ErrorBody { message: self.message, errors: BTreeMap::new() };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

// ---------------------------------------------------------------------------------------
// The middleware: origin and rate limit.

/// State of [`guard`]: the allowed origin and the rate limiter, shared by all requests.
#[derive(Clone)]
pub struct Guard {
    origin: String,
    limiter: Arc<RateLimiter>,
}

impl Guard {
    /// Allowed origin from `PUBLIC_URL`, budget from `RATE_LIMIT_PER_MINUTE`.
    pub fn new(config: &Config) -> Self {
        Guard {
            origin: origin_of(&config.public_url).unwrap_or_else(|| config.base_url().to_ascii_lowercase()),
            limiter: Arc::new(RateLimiter::new(config.rate_limit_per_minute)),
        }
    }
}

/// The middleware (`axum::middleware::from_fn_with_state(Guard::new(&config), guard)`).
/// Cross-origin POSTs are refused before they count against the client's budget, so a
/// foreign page cannot use a visitor's browser to lock that visitor out.
pub async fn guard(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    // Nested routers see their path without the prefix; `OriginalUri` keeps the full one.
    let path = request
        .extensions()
        .get::<OriginalUri>()
        .map(|uri| uri.0.path().to_owned())
        .unwrap_or_else(|| request.uri().path().to_owned());
    // Two Origin headers: a browser never sends that, so it is a client trying to slip a
    // foreign origin past a check that reads only one (DESIGN.md section 5).
    if request.headers().get_all(header::ORIGIN).iter().nth(1).is_some() {
        tracing::warn!(%path, "POST with more than one Origin header refused");
        return Refusal::new(StatusCode::FORBIDDEN, "Cross-origin requests are not allowed").into_response();
    }
    if !ORIGIN_EXEMPT_PATHS.contains(&path.as_str())
        && let Some(origin) = request.headers().get(header::ORIGIN)
    {
        let allowed = origin.to_str().ok().and_then(origin_of).is_some_and(|o| o == guard.origin);
        if !allowed {
            tracing::warn!(%path, origin = ?origin, "cross-origin POST refused");
            return Refusal::new(StatusCode::FORBIDDEN, "Cross-origin requests are not allowed").into_response();
        }
    }
    if RATE_LIMIT_EXEMPT_PATHS.contains(&path.as_str()) {
        return next.run(request).await;
    }
    let client = ClientIp::of(request.extensions());
    if let Err(retry_after) = guard.limiter.check(client.0) {
        tracing::warn!(%path, %client, "rate limit reached");
        let mut refusal = Refusal::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("Too many requests. Please try again in {retry_after} seconds."),
        );
        refusal.retry_after = Some(retry_after);
        return refusal.into_response();
    }
    next.run(request).await
}

/// `scheme://host[:port]` of a URL or `Origin` value, lower-cased, default port dropped;
/// `None` for `null` and anything that is not an http(s) URL.
pub fn origin_of(url: &str) -> Option<String> {
    let url = url.trim();
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => return None,
    };
    let authority = rest.split(['/', '?', '#']).next()?.to_ascii_lowercase();
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let authority = authority.strip_suffix(default_port).unwrap_or(&authority);
    Some(format!("{scheme}://{authority}"))
}

/// `governor`'s keyed limiter: one GCRA state per client key (see `RateLimiter`).
type KeyedGcra<C> = Gcra<Option<IpAddr>, HashMapStateStore<Option<IpAddr>>, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// The per-client POST budget: `limit` requests per minute for each client address, by
/// `governor`'s GCRA. A client may spend its whole budget at once; after that one more
/// request is allowed every `60 / limit` seconds. Refused requests spend nothing, so a
/// client that keeps knocking is not locked out for longer.
///
/// IPv6 clients are counted per /64 network: one subscriber line usually gets a whole /64
/// and could otherwise take a fresh address for every request.
pub struct RateLimiter<C: Clock = MonotonicClock> {
    gcra: KeyedGcra<C>,
    clock: C,
    /// Checks since the store last dropped clients whose budget is full again.
    checks: AtomicU32,
}

/// How often (in checks) the store forgets clients that are back to a full budget.
const FORGET_EVERY: u32 = 4096;

impl RateLimiter {
    /// `limit` requests per minute; 0 is taken as 1 (a limit that refuses everything is
    /// never what a configuration means).
    pub fn new(limit: u32) -> Self {
        Self::with_clock(limit, MonotonicClock)
    }
}

impl<C: Clock + Clone> RateLimiter<C> {
    /// [`RateLimiter::new`] on a given clock (tests use `governor`'s `FakeRelativeClock`).
    pub fn with_clock(limit: u32, clock: C) -> Self {
        let quota = Quota::per_minute(NonZeroU32::new(limit).unwrap_or(NonZeroU32::MIN));
        RateLimiter { gcra: Gcra::hashmap_with_clock(quota, clock.clone()), clock, checks: AtomicU32::new(0) }
    }

    /// Counts one request of `client`, or refuses it with the whole seconds until the client
    /// may try again (rounded up, at least 1, so retrying after `Retry-After` succeeds).
    pub fn check(&self, client: Option<IpAddr>) -> Result<(), u64> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % FORGET_EVERY == FORGET_EVERY - 1 {
            self.gcra.retain_recent();
        }
        self.gcra.check_key(&client.map(budget_key)).map_err(|not_until| {
            let wait = not_until.wait_time_from(self.clock.now());
            (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
        })
    }
}

/// The address a budget belongs to: IPv4 as is, IPv6 reduced to its /64 network.
fn budget_key(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(_) => addr,
        IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & (u128::MAX << 64)).into()),
    }
}

// ---------------------------------------------------------------------------------------
// The extractor: what a visitor form sent.

/// How a submission arrived, which decides how it is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// JSON (the islands, API clients): answered with JSON.
    Json,
    /// A plain HTML form post from a browser without JavaScript
    /// (`application/x-www-form-urlencoded` with `Accept: text/html`): answered with a 303
    /// back to the page it came from, to a fragment that shows the outcome.
    HtmlForm,
    /// Form-encoded from a non-browser client: answered with JSON like [`Mode::Json`].
    Form,
}

/// The fields of a visitor form, read from a JSON object or a form-encoded body.
#[derive(Debug)]
pub struct Submission {
    fields: Map<String, Value>,
    /// Whether the honeypot was filled (a bot): answer as usual, store nothing.
    pub honeypot: bool,
    pub mode: Mode,
    /// Same-origin page the form was posted from (path and query), for [`Mode::HtmlForm`].
    return_to: String,
}

impl FromRequest<AppState> for Submission {
    type Rejection = Refusal;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (parts, body) = request.into_parts();
        let kind = content_kind(&parts.headers)?;
        if let Some(length) =
            parts.headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
            && length > FORM_BODY_LIMIT as u64
        {
            return Err(too_large());
        }
        let bytes = read_limited(body, FORM_BODY_LIMIT).await?;
        let fields = match kind {
            ContentKind::Json => parse_json(&bytes)?,
            ContentKind::Form => parse_form(&bytes)?,
        };
        let honeypot = honeypot_filled(&fields);
        let wants_html = parts
            .headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|accept| accept.contains("text/html"));
        let mode = match kind {
            ContentKind::Json => Mode::Json,
            ContentKind::Form if wants_html => Mode::HtmlForm,
            ContentKind::Form => Mode::Form,
        };
        Ok(Submission { fields, honeypot, mode, return_to: return_path(&parts.headers, &state.config) })
    }
}

impl Submission {
    /// Starts checking the fields; see [`Check`].
    pub fn check(&self) -> Check<'_> {
        Check::new(&self.fields)
    }

    /// The 303 that answers a plain HTML form: back to its page, at `#fragment`.
    pub fn redirect_back(&self, fragment: &str) -> Response {
        Redirect::to(&format!("{}#{fragment}", self.return_to)).into_response()
    }

    /// Logs a discarded honeypot submission (what a bot sent is not stored or mailed).
    pub fn log_honeypot(&self, route: &str) {
        tracing::info!(route, "honeypot field filled; submission discarded");
    }
}

/// Whether the honeypot field `_gotcha` holds anything (a person never sees it, so a bot
/// filled it). Also for forms read without [`Submission`], such as multipart uploads.
pub fn honeypot_filled(fields: &Map<String, Value>) -> bool {
    fields.get(HONEYPOT_FIELD).is_some_and(|v| match v {
        Value::Null => false,
        Value::String(s) => !s.trim().is_empty(),
        _ => true,
    })
}

enum ContentKind {
    Json,
    Form,
}

fn content_kind(headers: &HeaderMap) -> Result<ContentKind, Refusal> {
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let essence = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    match essence.as_str() {
        "application/json" => Ok(ContentKind::Json),
        "application/x-www-form-urlencoded" => Ok(ContentKind::Form),
        "" => Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Missing Content-Type: send the form as application/json",
        )),
        other => Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("Unsupported Content-Type {other}: send the form as application/json"),
        )),
    }
}

fn too_large() -> Refusal {
    Refusal::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("The request body is too large (limit {FORM_BODY_LIMIT} bytes)"),
    )
}

/// The whole body, or 413 as soon as it passes `limit` bytes (whatever `Content-Length`
/// claimed).
async fn read_limited(mut body: Body, limit: usize) -> Result<Vec<u8>, Refusal> {
    let mut bytes = Vec::new();
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let frame = frame.map_err(|err| {
            if crate::connections::is_body_timeout(&err) {
                return crate::connections::body_timeout_refusal();
            }
            Refusal::new(StatusCode::BAD_REQUEST, format!("The request body could not be read: {err}"))
        })?;
        if let Ok(data) = frame.into_data() {
            if bytes.len() + data.len() > limit {
                return Err(too_large());
            }
            bytes.extend_from_slice(&data);
        }
    }
    Ok(bytes)
}

fn parse_json(bytes: &[u8]) -> Result<Map<String, Value>, Refusal> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Refusal::new(StatusCode::BAD_REQUEST, "The request body is empty: send a JSON object"));
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Refusal::new(StatusCode::BAD_REQUEST, "The request body must be a JSON object")),
        Err(err) => Err(Refusal::new(StatusCode::BAD_REQUEST, format!("The request body is not valid JSON ({err})"))),
    }
}

fn parse_form(bytes: &[u8]) -> Result<Map<String, Value>, Refusal> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(bytes)
        .map_err(|err| Refusal::new(StatusCode::BAD_REQUEST, format!("The form data could not be read ({err})")))?;
    let mut map = Map::new();
    for (name, value) in pairs {
        // The first value of a repeated name counts, as a form has each name once.
        map.entry(name).or_insert(Value::String(value));
    }
    Ok(map)
}

/// The page a plain form post goes back to: path and query of a same-origin `Referer`,
/// parsed with the `url` crate; anything else (another origin, a relative or unparsable
/// value, a path a browser would read as another host such as `//evil.example` or
/// `/\evil.example`) goes to `/`, the page that holds the visitor forms (the contact form
/// and the footer's newsletter form).
fn return_path(headers: &HeaderMap, config: &Config) -> String {
    const FORM_PAGE: &str = "/";
    let Some(referer) = headers.get(header::REFERER).and_then(|v| v.to_str().ok()) else {
        return FORM_PAGE.into();
    };
    let (Ok(referer), Ok(base)) = (url::Url::parse(referer), url::Url::parse(config.base_url())) else {
        return FORM_PAGE.into();
    };
    if referer.origin() != base.origin() || !referer.origin().is_tuple() {
        return FORM_PAGE.into();
    }
    // `url` has already turned `\` into `/` for http(s), as browsers do.
    let path = referer.path();
    if !path.starts_with('/') || path.starts_with("//") || path.contains('\\') {
        return FORM_PAGE.into();
    }
    match referer.query() {
        Some(query) => format!("{path}?{query}"),
        None => path.to_owned(),
    }
}

// ---------------------------------------------------------------------------------------
// Field checks.

/// Collects field errors while reading a [`Submission`]; [`Check::finish`] turns them into
/// the 422 answer. Every reader trims the value and returns it (empty when it is wrong).
pub struct Check<'a> {
    fields: &'a Map<String, Value>,
    errors: BTreeMap<String, String>,
    /// The first error in form order: the 422's `message`.
    first: Option<String>,
}

impl<'a> Check<'a> {
    /// Checks fields gathered some other way (e.g. the text parts of a multipart upload),
    /// with the same rules and messages as [`Submission::check`].
    pub fn new(fields: &'a Map<String, Value>) -> Self {
        Check { fields, errors: BTreeMap::new(), first: None }
    }

    fn fail(&mut self, name: &str, reason: String) -> String {
        if self.first.is_none() {
            self.first = Some(reason.clone());
        }
        self.errors.entry(name.to_owned()).or_insert(reason);
        String::new()
    }

    /// The raw text of `name`: `None` when absent, null or blank (only white space and
    /// control characters). Text fields are JSON strings (DESIGN.md section 5): a number,
    /// boolean, array or object is refused on the field.
    fn raw(&mut self, name: &str, label: &str) -> Result<Option<String>, ()> {
        match self.fields.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if crate::validate::is_blank(s) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => {
                self.fail(name, format!("{label} must be text"));
                Err(())
            }
        }
    }

    /// A required one-line text of at most `max_chars` characters. Runs of white space
    /// (tabs, line breaks) become one space: these values end up in mail headers and CSV.
    pub fn line(&mut self, name: &str, label: &str, max_chars: usize) -> String {
        let Ok(raw) = self.raw(name, label) else { return String::new() };
        let Some(raw) = raw else { return self.fail(name, format!("{label} is required")) };
        if raw.replace("\r\n", "\n").chars().any(|c| !crate::validate::is_allowed_char(c)) {
            return self.fail(name, format!("{label} contains characters that are not allowed"));
        }
        let value = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        self.bounded(name, label, value, max_chars)
    }

    /// A required text that may span lines, at most `max_chars` characters. Line ends are
    /// normalised to `\n`.
    pub fn text(&mut self, name: &str, label: &str, max_chars: usize) -> String {
        let Ok(raw) = self.raw(name, label) else { return String::new() };
        let Some(raw) = raw else { return self.fail(name, format!("{label} is required")) };
        let value = raw.replace("\r\n", "\n").replace('\r', "\n").trim().to_owned();
        self.bounded(name, label, value, max_chars)
    }

    fn bounded(&mut self, name: &str, label: &str, value: String, max_chars: usize) -> String {
        if value.chars().count() > max_chars {
            return self.fail(name, format!("{label} must be at most {max_chars} characters"));
        }
        if value.chars().any(|c| !crate::validate::is_allowed_char(c)) {
            return self.fail(name, format!("{label} contains characters that are not allowed"));
        }
        value
    }

    /// A required email address in a valid format ([`is_valid_email`]).
    pub fn email(&mut self, name: &str, label: &str) -> String {
        let value = self.line(name, label, EMAIL_MAX_CHARS);
        if value.is_empty() {
            return value;
        }
        if !is_valid_email(&value) {
            return self.fail(name, "Please enter a valid email address".into());
        }
        value
    }

    /// A required phone number ([`is_valid_phone`]), at most `max_chars` characters.
    pub fn phone(&mut self, name: &str, label: &str, max_chars: usize) -> String {
        let value = self.line(name, label, max_chars);
        if value.is_empty() {
            return value;
        }
        if !is_valid_phone(&value) {
            return self.fail(name, "Please enter a valid phone number".into());
        }
        value
    }

    /// `Ok` when every field passed; else the 422 whose message is the first problem in
    /// form order and whose `errors` name every field with one.
    pub fn finish(self) -> Result<(), AppError> {
        match self.first {
            None => Ok(()),
            Some(message) => Err(AppError::Unprocessable { message, errors: self.errors }),
        }
    }
}

pub use crate::validate::{EMAIL_MAX_CHARS, is_valid_email};

/// A phone number as people write it: digits with `+`, spaces, `-`, `.`, `(` and `)`, and
/// between 5 and 20 digits (E.164 numbers have at most 15; room for an extension).
pub fn is_valid_phone(number: &str) -> bool {
    let digits = number.chars().filter(char::is_ascii_digit).count();
    number.chars().all(|c| c.is_ascii_digit() || " +-.()".contains(c)) && (5..=20).contains(&digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_compare_by_scheme_host_and_port() {
        assert_eq!(origin_of("http://127.0.0.1:3000/").as_deref(), Some("http://127.0.0.1:3000"));
        assert_eq!(origin_of("HTTPS://Example.ORG:443/path?q#f").as_deref(), Some("https://example.org"));
        assert_eq!(origin_of("http://example.org:80").as_deref(), Some("http://example.org"));
        assert_eq!(origin_of("http://example.org:8080").as_deref(), Some("http://example.org:8080"));
        assert_eq!(origin_of("null"), None);
        assert_eq!(origin_of("file:///etc/passwd"), None);
        assert_eq!(origin_of("http://user@evil.example"), None);
    }

    #[test]
    fn the_limiter_allows_the_budget_per_minute_and_names_the_wait() {
        use governor::clock::FakeRelativeClock;
        use std::time::Duration;

        let clock = FakeRelativeClock::default();
        let limiter = RateLimiter::with_clock(3, clock.clone());
        let me = Some(IpAddr::from([10, 0, 0, 1]));
        let other = Some(IpAddr::from([10, 0, 0, 2]));
        for _ in 0..3 {
            assert_eq!(limiter.check(me), Ok(()));
        }
        // 3 a minute: one more every 20 s once the burst is spent.
        assert_eq!(limiter.check(me), Err(20));
        clock.advance(Duration::from_millis(19_500));
        assert_eq!(limiter.check(me), Err(1), "half a second is announced as a whole one");
        assert_eq!(limiter.check(other), Ok(()), "budgets are per client");
        clock.advance(Duration::from_millis(500));
        assert_eq!(limiter.check(me), Ok(()));
        assert_eq!(limiter.check(me), Err(20), "refused requests spent nothing, the allowed one did");
        assert_eq!(limiter.check(None), Ok(()), "requests without an address share one budget");
    }

    #[test]
    fn an_ipv6_client_has_one_budget_per_64_network() {
        let limiter = RateLimiter::new(1);
        assert_eq!(limiter.check(Some("2001:db8:1:2::1".parse().unwrap())), Ok(()));
        assert!(limiter.check(Some("2001:db8:1:2:ffff::9".parse().unwrap())).is_err(), "same /64");
        assert_eq!(limiter.check(Some("2001:db8:1:3::1".parse().unwrap())), Ok(()), "another /64");
        assert!(RateLimiter::new(0).check(None).is_ok(), "0 is taken as 1");
    }

    #[test]
    fn form_posts_return_only_to_same_origin_paths() {
        let config = Config::for_tests("data".into());
        let back = |referer: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::REFERER, HeaderValue::from_str(referer).unwrap());
            return_path(&headers, &config)
        };
        assert_eq!(back("http://127.0.0.1:3000/pricing?plan=a#top"), "/pricing?plan=a");
        assert_eq!(back("http://127.0.0.1:3000"), "/");
        for foreign in [
            "/\\evil.example",
            "//evil.example/",
            "http://127.0.0.1:3000/\\evil.example",
            "http://127.0.0.1:3000//evil.example",
            "https://127.0.0.1:3000/pricing",
            "http://evil.example/pricing",
            "http://127.0.0.1:3000@evil.example/",
            "javascript:alert(1)",
            "not a url",
        ] {
            assert_eq!(back(foreign), "/", "{foreign}");
        }
    }

    #[test]
    fn phone_rule_accepts_written_numbers() {
        for good in ["+15551234567", "+63 917 123 4567", "(02) 8123-4567", "555.123.4567"] {
            assert!(is_valid_phone(good), "{good}");
        }
        for bad in ["call me", "1234", "+1 555 CALL NOW", "123456789012345678901"] {
            assert!(!is_valid_phone(bad), "{bad}");
        }
    }
}
