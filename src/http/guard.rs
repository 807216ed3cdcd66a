//! The guard of every POST (DESIGN.md section 5, "Details that tests rely on"): a middleware
//! on the whole router, so every POST route, present or future, is covered. It refuses a
//! foreign `Origin` (403) and keeps each client within its per-minute budget (429 with
//! `Retry-After`; the gateway's answers exempt). Other methods pass untouched.
//!
//! Client address: the [`ClientIp`] of `crate::base::client_ip` (the TCP peer, or with
//! `TRUSTED_PROXIES` the visitor a trusted proxy names). Requests without a socket (tests
//! driving the router with `oneshot`) all count as one "unknown" client. Budgets live in this
//! process: with several instances behind a balancer, each instance grants its own budget.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use axum::extract::{OriginalUri, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, MonotonicClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter as Gcra};

use super::cache_control::{is_attendee_link, is_signed_in_area, is_status_link};
use crate::base::client_ip::ClientIp;
use crate::config::{Config, origin_of};
use crate::handlers::extract::Refusal;

/// The one POST route another origin may call: the payment gateway posts its answer from its
/// own origin; the cipher and the stored order protect it (DESIGN.md section 5).
pub const ORIGIN_EXEMPT_PATHS: [&str; 1] = ["/api/ccavenue-handle"];

/// POST routes outside the visitors' budget: the gateway's answers (DESIGN.md section 2,
/// `RATE_LIMIT_PER_MINUTE`). They come from the gateway's few addresses for every payer at
/// once, and a refused answer would leave a paid order undecided. Also the check-in desk's
/// scans (issue 33 item 3): every desk of a venue may share one address, a morning queue
/// scans far past 30 a minute, and only a signed-in desk's scan does any work.
pub const RATE_LIMIT_EXEMPT_PATHS: [&str; 2] = ["/api/ccavenue-handle", "/organiser/check-in"];

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
        // `Origin: null` is what a browser sends for a same-origin form POST from a page
        // served with `Referrer-Policy: no-referrer` (the organiser link's confirmation page);
        // it is accepted only with `Sec-Fetch-Site: same-origin`, which pages cannot forge.
        let same_origin_fetch = request.headers().get("sec-fetch-site").is_some_and(|v| v.as_bytes() == b"same-origin");
        let allowed = origin.to_str().ok().and_then(origin_of).is_some_and(|o| o == guard.origin)
            || (origin.as_bytes() == b"null" && same_origin_fetch);
        if !allowed {
            tracing::warn!(%path, origin = ?origin, "cross-origin POST refused");
            return Refusal::new(StatusCode::FORBIDDEN, "Cross-origin requests are not allowed").into_response();
        }
    }
    // The organiser area asks for proof of a same-origin request, not only the absence of a
    // foreign one (DESIGN.md section 12): a POST without `Origin` must say
    // `Sec-Fetch-Site: same-origin`, which browsers send and pages cannot forge. An author's
    // status link (its withdrawal) is held to the same rule (issue 21), and so are the
    // attendee's pages (issue 33).
    if (is_signed_in_area(&path) || is_status_link(&path) || is_attendee_link(&path))
        && !request.headers().contains_key(header::ORIGIN)
    {
        let same_site = request.headers().get("sec-fetch-site").is_some_and(|v| v.as_bytes() == b"same-origin");
        if !same_site {
            tracing::warn!(%path, "organiser POST without Origin or Sec-Fetch-Site: same-origin refused");
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
