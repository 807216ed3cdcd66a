//! One answer in every form: identity bytes, brotli and gzip when they are smaller, and a
//! strong `ETag` per form; which form a request gets (`Accept-Encoding`, RFC 9110 section
//! 12.5.3) and whether it is a 304 (`If-None-Match`, section 13.1.2).

use std::sync::OnceLock;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use headers::{ETag, HeaderMapExt, IfNoneMatch};
use md5::Digest;

use super::compress::{brotli, gzip};

/// Marks a response that is already in its final encoding, so the compression layer of
/// `crate::http::router` leaves it alone (see [`NotPrepared`]).
#[derive(Debug, Clone, Copy)]
pub struct AlreadyEncoded;

/// tower-http compression predicate: compress only what this module did not prepare.
#[derive(Debug, Clone, Copy, Default)]
pub struct NotPrepared;

impl tower_http::compression::Predicate for NotPrepared {
    fn should_compress<B>(&self, response: &axum::http::Response<B>) -> bool
    where
        B: axum::body::HttpBody,
    {
        response.extensions().get::<AlreadyEncoded>().is_none()
    }
}

/// A content coding a client may get.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    // The order of `Prepared`'s ETags.
    Identity = 0,
    Brotli = 1,
    Gzip = 2,
}

/// A qvalue (RFC 9110 section 12.4.2) in thousandths: `0` to `1` with at most three
/// decimals. Anything else (`abc`, `1.5`, `-1`, `0.0001`) counts as 0, "not acceptable":
/// a weight the client wrote wrong never selects a coding.
fn qvalue(text: &str) -> u16 {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    let thousandths =
        fraction.bytes().chain(std::iter::repeat(b'0')).take(3).fold(0, |n, d| n * 10 + u16::from(d - b'0'));
    match whole {
        "0" => thousandths,
        "1" if thousandths == 0 => 1000,
        _ => 0,
    }
}

/// What one request's `Accept-Encoding` says, read across all its field lines (RFC 9110
/// section 5.3: repeated lines are one comma-separated list): each coding's qvalue, as
/// written (`None` when not named).
#[derive(Debug, Default, Clone, Copy)]
struct AcceptEncoding {
    br: Option<u16>,
    gzip: Option<u16>,
    identity: Option<u16>,
    any: Option<u16>,
}

impl AcceptEncoding {
    /// `None` when the request has no `Accept-Encoding` at all.
    fn read(request: &HeaderMap) -> Option<AcceptEncoding> {
        let mut lines = request.get_all(header::ACCEPT_ENCODING).iter().peekable();
        lines.peek()?;
        let mut accept = AcceptEncoding::default();
        for item in lines.filter_map(|line| line.to_str().ok()).flat_map(|line| line.split(',')) {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let q = parts
                .filter_map(|param| param.split_once('='))
                .find(|(key, _)| key.trim().eq_ignore_ascii_case("q"))
                .map_or(1000, |(_, value)| qvalue(value));
            let slot = match name.to_ascii_lowercase().as_str() {
                "br" => &mut accept.br,
                "gzip" | "x-gzip" => &mut accept.gzip,
                "identity" => &mut accept.identity,
                "*" => &mut accept.any,
                _ => continue,
            };
            // A coding named twice: its first weight counts.
            slot.get_or_insert(q);
        }
        Some(accept)
    }
}

/// Picks the coding of an answer (RFC 9110 section 12.5.3): the highest weight among the
/// forms it has (`*` stands for a coding not named; brotli before gzip on a tie), unless
/// the client prefers identity outright; identity when no coding is acceptable, unless
/// `identity;q=0` (or `*;q=0` without a word on identity) excludes it too, then `None`
/// (406). No `Accept-Encoding` at all: identity.
pub fn negotiate(request: &HeaderMap, have_br: bool, have_gzip: bool) -> Option<Coding> {
    let Some(accept) = AcceptEncoding::read(request) else { return Some(Coding::Identity) };
    let weight = |named: Option<u16>, have: bool| if have { named.or(accept.any).unwrap_or(0) } else { 0 };
    let (br, gzip) = (weight(accept.br, have_br), weight(accept.gzip, have_gzip));
    let coded = if br > 0 && br >= gzip {
        Some((Coding::Brotli, br))
    } else if gzip > 0 {
        Some((Coding::Gzip, gzip))
    } else {
        None
    };
    match (coded, accept.identity) {
        (Some((_, q)), Some(identity)) if identity > q => Some(Coding::Identity),
        (Some((coding, _)), _) => Some(coding),
        (None, identity) => {
            let identity = identity.unwrap_or(if accept.any == Some(0) { 0 } else { 1000 });
            (identity > 0).then_some(Coding::Identity)
        }
    }
}

/// No form of the answer is acceptable to the client (`identity;q=0` and no coding it
/// accepts): 406.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotAcceptable;

/// One answer in every form: identity bytes, brotli and gzip when they are smaller, and a
/// strong `ETag` per form (a content coding is part of the representation, RFC 9110 8.8.3).
#[derive(Debug)]
pub struct Prepared {
    identity: Bytes,
    br: Option<Bytes>,
    gzip: Option<Bytes>,
    etags: [HeaderValue; 3],
    /// The same tags, parsed, for `If-None-Match`.
    etag_values: [ETag; 3],
    content_type: HeaderValue,
    cache_control: HeaderValue,
    content_disposition: Option<HeaderValue>,
    /// Made by the first cache hit, see [`Prepared::hit_headers`].
    hit_headers: OnceLock<Box<[HeaderMap; 6]>>,
}

/// What describes a rendered answer besides its bytes: the headers it is always sent with,
/// so the answer kept in the cache is complete (a hit served ahead of the handlers, see
/// `crate::http::cache_hits`, adds nothing of its own).
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    pub content_type: &'static str,
    pub cache_control: &'static str,
    /// `Content-Disposition`, for a file a visitor may save (the calendar).
    pub content_disposition: Option<&'static str>,
}

/// What a text type is worth compressing.
pub fn compressible(content_type: &str) -> bool {
    content_type.starts_with("text/")
        || content_type.contains("javascript")
        || content_type.contains("json")
        || content_type.contains("xml")
        || content_type.starts_with("image/x-icon")
        || content_type.starts_with("image/vnd.microsoft.icon")
}

impl Prepared {
    /// Compresses `body` (CPU-heavy at brotli's top quality: call it off the async workers,
    /// e.g. in `spawn_blocking`). `tag` is the identity form's opaque tag (hex, no quotes).
    pub fn new(body: Bytes, content_type: HeaderValue, cache_control: HeaderValue, tag: Option<String>) -> Prepared {
        let tag = tag.unwrap_or_else(|| hex::encode(md5::Md5::digest(&body)));
        let compress = compressible(content_type.to_str().unwrap_or(""));
        let (br, gzip) = if compress {
            let smaller = |c: Vec<u8>| (c.len() < body.len()).then(|| Bytes::from(c));
            (smaller(brotli(&body)), smaller(gzip(&body)))
        } else {
            (None, None)
        };
        let etag = |suffix: &str| HeaderValue::from_str(&format!("\"{tag}{suffix}\"")).expect("hex ETag");
        let etags = [etag(""), etag("-br"), etag("-gz")];
        let parsed = |value: &HeaderValue| value.to_str().ok().and_then(|v| v.parse::<ETag>().ok()).expect("hex ETag");
        Prepared {
            etag_values: [parsed(&etags[0]), parsed(&etags[1]), parsed(&etags[2])],
            etags,
            identity: body,
            br,
            gzip,
            content_type,
            cache_control,
            content_disposition: None,
            hit_headers: OnceLock::new(),
        }
    }

    /// [`Prepared::new`] with `kind`'s headers (CPU-heavy: off the async workers).
    pub fn of_kind(body: Bytes, kind: Kind) -> Prepared {
        let mut answer = Prepared::new(
            body,
            HeaderValue::from_static(kind.content_type),
            HeaderValue::from_static(kind.cache_control),
            None,
        );
        answer.content_disposition = kind.content_disposition.map(HeaderValue::from_static);
        answer
    }

    /// The identity bytes.
    pub fn identity(&self) -> &Bytes {
        &self.identity
    }

    /// The answer for a request's headers: the negotiated form, or 304 when `If-None-Match`
    /// names it, or 406 when no form is acceptable. `HEAD` gets the same headers from axum.
    pub fn respond(&self, request: &HeaderMap) -> Response {
        match self.choose(request) {
            Ok(form) => self.respond_as(form),
            Err(NotAcceptable) => {
                let mut response = Response::new(Body::from(
                    "None of the content codings this answer is available in is acceptable (Accept-Encoding).",
                ));
                *response.status_mut() = StatusCode::NOT_ACCEPTABLE;
                let h = response.headers_mut();
                h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
                h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
                response
            }
        }
    }

    /// The form a request gets (by `Accept-Encoding`, across all its lines), and whether it
    /// is a 304: its `If-None-Match` (all lines, parsed by the `headers` crate) names that
    /// form's `ETag` by the weak comparison (RFC 9110 section 13.1.2), or is `*`.
    pub fn choose(&self, request: &HeaderMap) -> Result<Form, NotAcceptable> {
        let coding = negotiate(request, self.br.is_some(), self.gzip.is_some()).ok_or(NotAcceptable)?;
        let not_modified = request
            .typed_get::<IfNoneMatch>()
            .is_some_and(|condition| !condition.precondition_passes(&self.etag_values[coding as usize]));
        Ok(Form { coding, not_modified })
    }

    /// The bytes of `coding`'s form (identity when that form is not kept).
    pub fn body(&self, coding: Coding) -> &Bytes {
        let form = match coding {
            Coding::Brotli => self.br.as_ref(),
            Coding::Gzip => self.gzip.as_ref(),
            Coding::Identity => None,
        };
        form.unwrap_or(&self.identity)
    }

    fn varies(&self) -> bool {
        self.br.is_some() || self.gzip.is_some()
    }

    /// The answer in `form`, with the headers this module owns (not the security headers or
    /// a route's `Cache-Control` policy, which the stack adds).
    pub fn respond_as(&self, form: Form) -> Response {
        let etag = &self.etags[form.coding as usize];
        let mut response = if form.not_modified {
            let mut response = Response::new(Body::empty());
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            response
        } else {
            let body = self.body(form.coding);
            let mut response = Response::new(Body::from(body.clone()));
            // Room for these and the security headers, so the map never grows.
            response.headers_mut().reserve(16);
            let h = response.headers_mut();
            h.insert(header::CONTENT_TYPE, self.content_type.clone());
            h.insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
            let encoding = match form.coding {
                Coding::Brotli if self.br.is_some() => Some("br"),
                Coding::Gzip if self.gzip.is_some() => Some("gzip"),
                _ => None,
            };
            if let Some(encoding) = encoding {
                h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
            }
            if let Some(disposition) = &self.content_disposition {
                h.insert(header::CONTENT_DISPOSITION, disposition.clone());
            }
            response
        };
        let h = response.headers_mut();
        h.insert(header::ETAG, etag.clone());
        h.insert(header::CACHE_CONTROL, self.cache_control.clone());
        if self.varies() {
            h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        response.extensions_mut().insert(AlreadyEncoded);
        response
    }

    /// The complete headers of `form`'s answer to a cache hit. `complete` makes them from
    /// [`Prepared::respond_as`]'s answer the first time (adding what the stack would: security
    /// headers, the route's `Cache-Control`); they are kept, all six forms at once, so every
    /// later hit costs one map clone instead of a dozen header inserts. An answer is kept
    /// under one cache key only, so one set serves every hit on it.
    pub fn hit_headers(&self, form: Form, complete: impl Fn(Response) -> HeaderMap) -> &HeaderMap {
        let kept = self.hit_headers.get_or_init(|| Box::new(Form::ALL.map(|form| complete(self.respond_as(form)))));
        &kept[form.index()]
    }
}

/// Which of a prepared answer's forms a request gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Form {
    pub coding: Coding,
    /// `If-None-Match` names this form's `ETag`: 304, no body.
    pub not_modified: bool,
}

impl Form {
    const ALL: [Form; 6] = [
        Form { coding: Coding::Identity, not_modified: false },
        Form { coding: Coding::Brotli, not_modified: false },
        Form { coding: Coding::Gzip, not_modified: false },
        Form { coding: Coding::Identity, not_modified: true },
        Form { coding: Coding::Brotli, not_modified: true },
        Form { coding: Coding::Gzip, not_modified: true },
    ];

    fn index(self) -> usize {
        self.coding as usize + if self.not_modified { 3 } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(lines: &[(&str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in lines {
            headers.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        headers
    }

    fn accept(lines: &[&str]) -> Option<Coding> {
        let lines: Vec<(&str, &str)> = lines.iter().map(|line| ("accept-encoding", *line)).collect();
        negotiate(&request(&lines), true, true)
    }

    #[test]
    fn negotiation_follows_q_values() {
        assert_eq!(accept(&["gzip, deflate, br"]), Some(Coding::Brotli));
        assert_eq!(accept(&["gzip"]), Some(Coding::Gzip));
        assert_eq!(accept(&["br;q=0.5, gzip"]), Some(Coding::Gzip));
        assert_eq!(accept(&["br;q=0, gzip;q=0"]), Some(Coding::Identity));
        assert_eq!(accept(&["identity"]), Some(Coding::Identity));
        assert_eq!(accept(&["*"]), Some(Coding::Brotli));
        assert_eq!(negotiate(&HeaderMap::new(), true, true), Some(Coding::Identity));
        assert_eq!(negotiate(&request(&[("accept-encoding", "br")]), false, true), Some(Coding::Identity));
    }

    #[test]
    fn every_accept_encoding_line_counts() {
        assert_eq!(accept(&["deflate", "br"]), Some(Coding::Brotli), "br on the second line");
        assert_eq!(accept(&["br;q=0.2", "gzip;q=0.8"]), Some(Coding::Gzip));
    }

    #[test]
    fn an_invalid_q_is_zero() {
        assert_eq!(accept(&["br;q=abc, gzip;q=0.5"]), Some(Coding::Gzip));
        assert_eq!(accept(&["br;q=1.5, gzip;q=0.1"]), Some(Coding::Gzip));
        assert_eq!(accept(&["br;q=0.0001, gzip;q=0.001"]), Some(Coding::Gzip));
        assert_eq!(accept(&["br;q=-1"]), Some(Coding::Identity));
        assert_eq!(accept(&["br;Q=0.9, gzip;q=0.8"]), Some(Coding::Brotli), "the parameter name is case-insensitive");
        assert_eq!(qvalue("0.5"), 500);
        assert_eq!(qvalue("1.000"), 1000);
        assert_eq!(qvalue("0."), 0);
    }

    #[test]
    fn identity_is_honoured() {
        assert_eq!(accept(&["br;q=0.5, identity"]), Some(Coding::Identity), "identity preferred outright");
        assert_eq!(accept(&["identity;q=0.4, gzip;q=0.5"]), Some(Coding::Gzip));
        assert_eq!(accept(&["identity;q=0, deflate"]), None, "nothing acceptable: 406");
        assert_eq!(accept(&["*;q=0"]), None, "* excludes identity when identity is not named");
        assert_eq!(accept(&["*;q=0, identity;q=0.1"]), Some(Coding::Identity));
        assert_eq!(accept(&["identity;q=0, gzip"]), Some(Coding::Gzip));
        assert_eq!(negotiate(&request(&[("accept-encoding", "identity;q=0")]), false, false), None);
    }

    #[test]
    fn if_none_match_compares_weakly_across_lines() {
        let answer = Prepared::new(
            Bytes::from_static(b"x"),
            HeaderValue::from_static("image/png"),
            HeaderValue::from_static("no-cache"),
            Some("abc".into()),
        );
        let not_modified = |lines: &[&str]| {
            let lines: Vec<(&str, &str)> = lines.iter().map(|line| ("if-none-match", *line)).collect();
            answer.choose(&request(&lines)).unwrap().not_modified
        };
        assert!(not_modified(&["\"x\", W/\"abc\""]));
        assert!(not_modified(&["*"]));
        assert!(not_modified(&["\"x\"", "\"abc\""]), "the tag on a second line");
        assert!(!not_modified(&["\"abc-br\""]));
        assert!(!not_modified(&["\"x\""]));
    }
}
