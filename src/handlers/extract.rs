//! Reading what a visitor sent: the [`Submission`] extractor of the visitor forms
//! (`/api/contact`, `/api/newsletter`) with its content type (415), body size (413), readable
//! JSON or form data (400) and the `_gotcha` honeypot, and the [`Refusal`] every reader and
//! guard answers with (a clear status and a JSON `{"message"}`). The field rules themselves
//! are `crate::forms::validate::Check` (422).

use std::collections::BTreeMap;
use std::pin::Pin;

use axum::Json;
use axum::body::{Body, HttpBody};
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::{Map, Value};

use crate::config::Config;
use crate::error::ErrorBody;
use crate::forms::validate::Check;
use crate::handlers::state::AppState;

/// Largest JSON or form body a visitor form accepts, in bytes (64 KiB: the longest message,
/// 5,000 characters of up to 4 UTF-8 bytes each, fits with room to spare).
pub const FORM_BODY_LIMIT: usize = 64 * 1024;

/// Name of the honeypot field every form carries (DESIGN.md section 5).
pub const HONEYPOT_FIELD: &str = "_gotcha";

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
            if is_body_timeout(&err) {
                return body_timeout_refusal();
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

/// Whether a body read failed because no byte came within the body timeout (tower-http's
/// `TimeoutError` anywhere in the error's chain of causes). Such a request answers 408.
pub fn is_body_timeout(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(err) = current {
        if err.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        current = err.source();
    }
    false
}

/// The 408 of a body that stopped arriving.
pub fn body_timeout_refusal() -> Refusal {
    Refusal::new(StatusCode::REQUEST_TIMEOUT, "The request body stopped arriving; please send it again.")
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
