//! One answer in every form: identity bytes, brotli and gzip when they are smaller, and a
//! strong `ETag` per form; which form a request gets (`Accept-Encoding`, RFC 9110 section
//! 12.5.3) and whether it is a 304 (`If-None-Match`, section 13.1.2).

use std::sync::OnceLock;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
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

/// Picks the coding from `Accept-Encoding` (RFC 9110 section 12.5.3): the highest `q` among
/// the forms we have, brotli before gzip on a tie, identity when neither is acceptable.
pub fn negotiate(accept: Option<&HeaderValue>, have_br: bool, have_gzip: bool) -> Coding {
    let Some(accept) = accept.and_then(|v| v.to_str().ok()) else { return Coding::Identity };
    let (mut br, mut gzip, mut any) = (None, None, None);
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case("br") {
            br = Some(q);
        } else if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
            gzip = Some(q);
        } else if name == "*" {
            any = Some(q);
        }
    }
    let br = if have_br { br.or(any).unwrap_or(0.0) } else { 0.0 };
    let gzip = if have_gzip { gzip.or(any).unwrap_or(0.0) } else { 0.0 };
    if br > 0.0 && br >= gzip {
        Coding::Brotli
    } else if gzip > 0.0 {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

/// One answer in every form: identity bytes, brotli and gzip when they are smaller, and a
/// strong `ETag` per form (a content coding is part of the representation, RFC 9110 8.8.3).
#[derive(Debug)]
pub struct Prepared {
    identity: Bytes,
    br: Option<Bytes>,
    gzip: Option<Bytes>,
    etags: [HeaderValue; 3],
    content_type: HeaderValue,
    cache_control: HeaderValue,
    content_disposition: Option<HeaderValue>,
    /// Made by the first cache hit, see [`Prepared::hit_headers`].
    hit_headers: OnceLock<Box<HitHeaders>>,
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
        Prepared {
            etags: [etag(""), etag("-br"), etag("-gz")],
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
    /// names it (weak comparison, RFC 9110 13.1.2). `HEAD` gets the same headers from axum.
    pub fn respond(&self, request: &HeaderMap) -> Response {
        self.respond_as(self.choose(request))
    }

    /// The form a request gets (by `Accept-Encoding`), and whether it is a 304 (its
    /// `If-None-Match` names that form's `ETag`).
    pub fn choose(&self, request: &HeaderMap) -> Form {
        let coding = if self.varies() {
            negotiate(request.get(header::ACCEPT_ENCODING), self.br.is_some(), self.gzip.is_some())
        } else {
            Coding::Identity
        };
        let etag = &self.etags[coding as usize];
        let not_modified = request.get(header::IF_NONE_MATCH).is_some_and(|v| matches(v, etag));
        Form { coding, not_modified }
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

    /// The complete headers of `form`'s answer to a cache hit on `path`. `complete` makes them
    /// from [`Prepared::respond_as`]'s answer the first time (adding what the stack would:
    /// security headers, the route's `Cache-Control`); they are kept, all six forms at once,
    /// so every later hit costs one map clone instead of a dozen header inserts. `None` when
    /// this answer was first hit on another path (never the case: an answer is cached under
    /// the one path it was rendered for), so the caller takes the long way.
    pub fn hit_headers(&self, path: &str, form: Form, complete: impl Fn(Response) -> HeaderMap) -> Option<&HeaderMap> {
        let kept = self.hit_headers.get_or_init(|| {
            let maps = Form::ALL.map(|form| complete(self.respond_as(form)));
            Box::new(HitHeaders { path: path.into(), maps })
        });
        (*kept.path == *path).then(|| &kept.maps[form.index()])
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

/// The complete headers of a cache hit, per [`Form`] (see [`Prepared::hit_headers`]).
#[derive(Debug)]
struct HitHeaders {
    path: Box<str>,
    maps: [HeaderMap; 6],
}

/// Whether an `If-None-Match` value names `etag` (or is `*`), ignoring `W/`.
fn matches(if_none_match: &HeaderValue, etag: &HeaderValue) -> bool {
    let Ok(list) = if_none_match.to_str() else { return false };
    let etag = etag.as_bytes();
    list.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/").as_bytes() == etag)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(v: &str) -> Coding {
        negotiate(Some(&HeaderValue::from_str(v).unwrap()), true, true)
    }

    #[test]
    fn negotiation_follows_q_values() {
        assert_eq!(accept("gzip, deflate, br"), Coding::Brotli);
        assert_eq!(accept("gzip"), Coding::Gzip);
        assert_eq!(accept("br;q=0.5, gzip"), Coding::Gzip);
        assert_eq!(accept("br;q=0, gzip;q=0"), Coding::Identity);
        assert_eq!(accept("identity"), Coding::Identity);
        assert_eq!(accept("*"), Coding::Brotli);
        assert_eq!(negotiate(None, true, true), Coding::Identity);
        assert_eq!(negotiate(Some(&HeaderValue::from_static("br")), false, true), Coding::Identity);
    }

    #[test]
    fn if_none_match_compares_weakly_and_accepts_lists() {
        let etag = HeaderValue::from_static("\"abc\"");
        assert!(matches(&HeaderValue::from_static("\"x\", W/\"abc\""), &etag));
        assert!(matches(&HeaderValue::from_static("*"), &etag));
        assert!(!matches(&HeaderValue::from_static("\"abc-br\""), &etag));
    }
}
