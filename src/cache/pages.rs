//! Rendered pages by route (DESIGN.md section 10).
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
use std::sync::Arc;

use arc_swap::ArcSwap;
use axum::body::Bytes;
use time::OffsetDateTime;

use super::prepared::{Kind, Prepared};

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
    tokio::task::spawn_blocking(move || Prepared::of_kind(body, kind)).await.expect("compression does not panic")
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
        crate::base::sys::lower_thread_priority();
        let _ = done.send(Prepared::of_kind(copy, kind));
    });
    match spawned {
        Ok(_) => answer.await.expect("compression does not panic"),
        Err(err) => {
            tracing::warn!(error = %err, "no thread for compressing ahead; compressing on the blocking pool");
            prepare(body, kind).await
        }
    }
}
