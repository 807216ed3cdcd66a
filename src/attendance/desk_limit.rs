//! The desk's own scan budget (issue 40 item 3): a desk session may scan at most
//! `CHECKIN_SCANS_PER_SECOND` times a second, by `governor`'s GCRA keyed by the session's
//! row. The desk is outside the per-address POST budget (every desk of a venue may share one
//! address, `crate::http::guard::RATE_LIMIT_EXEMPT_PATHS`), so this is what bounds a stuck
//! scanner or a script holding a desk's cookie. The budget is per instance: behind a balancer
//! a session may get one budget per instance, still a bound.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use governor::middleware::NoOpMiddleware;
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter};

use crate::clock::Clock;

/// How often (in checks) sessions back to a full budget are forgotten.
const FORGET_EVERY: u32 = 4096;

/// The limiter's time: monotonic from its creation under the system clock; the app clock's
/// own seconds when a test fixed it, so a test moves the budget's time as it moves "now". A
/// fixed clock a test moves back counts as standing still (GCRA needs time that never runs
/// backwards).
#[derive(Clone)]
struct DeskClock {
    app: Clock,
    started: Instant,
    /// The latest fixed time seen, in seconds since the Unix epoch.
    latest: Arc<AtomicU64>,
}

impl governor::clock::Clock for DeskClock {
    type Instant = Duration;

    fn now(&self) -> Duration {
        if self.app.is_fixed() {
            let at = u64::try_from(self.app.now().unix_timestamp()).unwrap_or(0);
            Duration::from_secs(self.latest.fetch_max(at, Ordering::Relaxed).max(at))
        } else {
            self.started.elapsed()
        }
    }
}

/// Scans per second per desk session. A session may spend a whole second's budget at once
/// (a burst of `per_second`), then one scan every `1 / per_second` seconds.
pub struct DeskLimit {
    gcra: RateLimiter<i64, HashMapStateStore<i64>, DeskClock, NoOpMiddleware<Duration>>,
    clock: DeskClock,
    checks: AtomicU32,
}

impl DeskLimit {
    /// `per_second` scans a second for each session (0 is taken as 1), timed by `clock`.
    pub fn new(per_second: u32, clock: Clock) -> Self {
        let quota = Quota::per_second(NonZeroU32::new(per_second).unwrap_or(NonZeroU32::MIN));
        let clock = DeskClock { app: clock, started: Instant::now(), latest: Arc::default() };
        DeskLimit { gcra: RateLimiter::hashmap_with_clock(quota, clock.clone()), clock, checks: AtomicU32::new(0) }
    }

    /// Counts one scan of `session` (its row id), or refuses it with the milliseconds until
    /// the next one is allowed (at least 1). A refused scan spends nothing.
    pub fn check(&self, session: i64) -> Result<(), u64> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % FORGET_EVERY == FORGET_EVERY - 1 {
            self.gcra.retain_recent();
        }
        self.gcra.check_key(&session).map_err(|not_until| {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(&self.clock));
            u64::try_from(wait.as_millis()).unwrap_or(u64::MAX).max(1)
        })
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn a_session_gets_its_scans_per_second_and_other_sessions_their_own() {
        let clock = Clock::fixed(datetime!(2025-03-21 01:00 UTC));
        let limit = DeskLimit::new(10, clock.clone());
        for _ in 0..10 {
            assert_eq!(limit.check(1), Ok(()));
        }
        assert_eq!(limit.check(1), Err(100), "one more every 100 ms once the second's ten are spent");
        assert_eq!(limit.check(2), Ok(()), "another desk has its own budget");
        clock.set(datetime!(2025-03-21 01:00:01 UTC));
        for _ in 0..10 {
            assert_eq!(limit.check(1), Ok(()), "a second later the whole budget is back");
        }
        assert!(limit.check(1).is_err(), "refused scans spent nothing, the allowed ones did");
        clock.set(datetime!(2025-03-21 00:59 UTC));
        assert!(limit.check(1).is_err(), "a clock moved back gives no budget back");
        assert_eq!(limit.check(3), Ok(()), "and takes none from another desk");
    }
}
