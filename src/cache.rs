//! Answers prepared once and served from memory: every page's bytes with their brotli and
//! gzip forms and strong `ETag`s (DESIGN.md section 10), and the same for static files and
//! island assets.
//!
//! Mechanism for what depends on the clock: a per-minute cache. A page that shows the clock
//! (the countdown and timeline on `/`, the calendar's stamp) is keyed by the minute it was
//! rendered in, every other page by the year (its footer's copyright year), both next to the
//! snapshot's generation. We chose this over splicing a per-request fragment into cached
//! parts because a spliced page has to be compressed per request (or compressed in separately
//! flushed pieces, which costs ratio and complexity), and per-request compression is exactly
//! the cost this cache removes. A page rendered in minute M is served until minute M ends, so
//! its countdown is never more than 60 s old; the Countdown island corrects it to the second
//! on mount, in boxes of fixed width (no layout shift). Rendering `/` once a minute costs a
//! few milliseconds of templating plus one brotli pass off the async workers.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, OnceLock};

use arc_swap::ArcSwap;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use md5::Digest;
use time::OffsetDateTime;

/// brotli quality for answers compressed ahead of time: the highest (11), since it is paid
/// once per content version (or minute) rather than per request.
pub const BROTLI_QUALITY: u32 = 11;
/// Largest brotli window (log2 bytes), 4 MiB. Each answer gets the smallest window that holds
/// it: at quality 11 the encoder's match finder is sized by the window (about 8 bytes per
/// window byte), so a 4 MiB window for a 60 KB page would cost ~32 MB of memory per pass for
/// nothing.
const BROTLI_WINDOW_MAX: u32 = 22;

/// Marks a response that is already in its final encoding, so the compression layer of
/// `routes::app` leaves it alone (see [`NotPrepared`]).
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
/// `crate::cache_hits`, adds nothing of its own).
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

fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 4);
    // brotli's smallest window is 2^10 bytes.
    let window = (usize::BITS - data.len().max(1024).saturating_sub(1).leading_zeros()).clamp(10, BROTLI_WINDOW_MAX);
    {
        let mut writer = brotli::CompressorWriter::new(&mut out, 64 * 1024, BROTLI_QUALITY, window);
        writer.write_all(data).expect("writing to memory");
    }
    out
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(data.len() / 3), flate2::Compression::best());
    encoder.write_all(data).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

/// How much of the clock a cached answer shows, which bounds how long it may be reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockUse {
    /// Countdown, timeline marks, a timestamp: re-rendered every minute.
    Minute,
    /// Only the footer's year.
    Year,
}

impl ClockUse {
    /// The part of the cache key that comes from the clock.
    pub fn key(self, now: OffsetDateTime) -> i64 {
        match self {
            ClockUse::Minute => now.unix_timestamp().div_euclid(60),
            ClockUse::Year => i64::from(now.year()),
        }
    }
}

struct Entry {
    generation: u64,
    clock: ClockUse,
    clock_key: i64,
    answer: Arc<Prepared>,
}

/// Rendered pages by route: one entry per route (the newest), so memory stays bounded by the
/// number of routes whatever the clock or the content does.
pub struct PageCache {
    entries: ArcSwap<HashMap<String, Arc<Entry>>>,
    /// Answers rendered ahead for the coming minute (see [`PageCache::prepare_ahead`]), moved
    /// into `entries` by the first request of that minute.
    ahead: ArcSwap<HashMap<String, Arc<Entry>>>,
    /// Renders one page at a time: a minute's first requests, arriving together, render and
    /// compress it once (the others wait, then find it).
    rendering: tokio::sync::Mutex<()>,
}

impl Default for PageCache {
    fn default() -> Self {
        PageCache {
            entries: ArcSwap::from_pointee(HashMap::new()),
            ahead: ArcSwap::from_pointee(HashMap::new()),
            rendering: tokio::sync::Mutex::new(()),
        }
    }
}

impl PageCache {
    /// The cached answer for `route` at this snapshot generation, if it is still fresh at
    /// `now` (rendered in the same minute, or year, as [`ClockUse`] says). A lock-free read.
    pub fn get(&self, route: &str, generation: u64, now: OffsetDateTime) -> Option<Arc<Prepared>> {
        let fresh = |entry: &Entry| entry.generation == generation && entry.clock_key == entry.clock.key(now);
        if let Some(entry) = self.entries.load().get(route)
            && fresh(entry)
        {
            return Some(entry.answer.clone());
        }
        // The minute turned: the answer rendered ahead for it, if any, becomes the current one.
        let ahead = self.ahead.load().get(route).filter(|entry| fresh(entry)).cloned()?;
        self.store(route, ahead.clone());
        Some(ahead.answer.clone())
    }

    fn store(&self, route: &str, entry: Arc<Entry>) {
        self.entries.rcu(|entries| {
            let mut entries = HashMap::clone(entries);
            entries.insert(route.to_owned(), entry.clone());
            entries
        });
    }

    /// Renders `route` as it will read at `at` (the start of the coming minute) and keeps it
    /// for then, so no visitor waits for a render and a brotli pass when the minute turns.
    /// The answer is served from `at` to the end of that minute, so what it shows of the
    /// clock is never more than 60 s old, as for an answer rendered on request.
    pub async fn prepare_ahead<E>(
        &self,
        route: &str,
        generation: u64,
        clock: ClockUse,
        at: OffsetDateTime,
        kind: Kind,
        render: impl FnOnce() -> Result<String, E>,
    ) -> Result<(), E> {
        let answer = Arc::new(prepare_in_background(Bytes::from(render()?), kind).await);
        let entry = Arc::new(Entry { generation, clock, clock_key: clock.key(at), answer });
        self.ahead.rcu(|entries| {
            let mut entries = HashMap::clone(entries);
            entries.insert(route.to_owned(), entry.clone());
            entries
        });
        Ok(())
    }

    /// The cached answer, or `render`'s output prepared (compressed off the async workers)
    /// and cached. `render`'s error is returned and nothing is cached. Generation 0 (content
    /// that could not be loaded at all) is never cached.
    pub async fn get_or_render<E>(
        &self,
        route: &str,
        generation: u64,
        clock: ClockUse,
        now: OffsetDateTime,
        kind: Kind,
        render: impl FnOnce() -> Result<String, E>,
    ) -> Result<Arc<Prepared>, E> {
        if let Some(answer) = self.get(route, generation, now) {
            return Ok(answer);
        }
        let _rendering = self.rendering.lock().await;
        if let Some(answer) = self.get(route, generation, now) {
            return Ok(answer);
        }
        let answer = Arc::new(prepare(Bytes::from(render()?), kind).await);
        if generation > 0 {
            self.store(route, Arc::new(Entry { generation, clock, clock_key: clock.key(now), answer: answer.clone() }));
        }
        Ok(answer)
    }
}

/// `body` in every form, compressed off the async workers.
async fn prepare(body: Bytes, kind: Kind) -> Prepared {
    tokio::task::spawn_blocking(move || prepared(body, kind)).await.expect("compression does not panic")
}

/// [`prepare`] for work nobody waits for (a page rendered ahead of its minute): on a thread of
/// its own at a lower scheduling priority, so that on a busy machine the requests being
/// served get the CPU first (brotli's top quality keeps a core busy for a while on the home
/// page; run in their way it showed as a p99 spike once a minute in bench/pages.sh) and the
/// page is still ready within the seconds it has.
async fn prepare_in_background(body: Bytes, kind: Kind) -> Prepared {
    let (done, answer) = tokio::sync::oneshot::channel();
    let copy = body.clone();
    let spawned = std::thread::Builder::new().name("prepare-ahead".into()).spawn(move || {
        crate::server::lower_thread_priority();
        let _ = done.send(prepared(copy, kind));
    });
    match spawned {
        Ok(_) => answer.await.expect("compression does not panic"),
        Err(err) => {
            tracing::warn!(error = %err, "no thread for compressing ahead; compressing on the blocking pool");
            prepare(body, kind).await
        }
    }
}

fn prepared(body: Bytes, kind: Kind) -> Prepared {
    let mut answer = Prepared::new(
        body,
        HeaderValue::from_static(kind.content_type),
        HeaderValue::from_static(kind.cache_control),
        None,
    );
    answer.content_disposition = kind.content_disposition.map(HeaderValue::from_static);
    answer
}

/// Files that never change while the process runs (embedded static files and island
/// assets), prepared on first request and kept.
#[derive(Default)]
pub struct FileCache {
    entries: ArcSwap<HashMap<String, Arc<Prepared>>>,
    /// One file compressed at a time: a request for a file the start-up warm-up has not
    /// reached waits for the file under way, then finds its own or compresses it once.
    loading: tokio::sync::Mutex<()>,
}

impl FileCache {
    /// The prepared file at `path`; `load` gives its bytes, content type and tag when it
    /// exists (called once per file).
    pub async fn get_or_load(
        &self,
        path: &str,
        cache_control: &'static str,
        load: impl FnOnce() -> Option<(Bytes, String, String)>,
    ) -> Option<Arc<Prepared>> {
        if let Some(answer) = self.entries.load().get(path) {
            return Some(answer.clone());
        }
        let _loading = self.loading.lock().await;
        if let Some(answer) = self.entries.load().get(path) {
            return Some(answer.clone());
        }
        let (bytes, content_type, tag) = load()?;
        let content_type = HeaderValue::from_str(&content_type).ok()?;
        let answer = tokio::task::spawn_blocking(move || {
            Prepared::new(bytes, content_type, HeaderValue::from_static(cache_control), Some(tag))
        })
        .await
        .expect("compression does not panic");
        let answer = Arc::new(answer);
        self.entries.rcu(|entries| {
            let mut entries = HashMap::clone(entries);
            entries.insert(path.to_owned(), answer.clone());
            entries
        });
        Some(answer)
    }
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
