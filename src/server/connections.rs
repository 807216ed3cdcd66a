//! Connection limits (DESIGN.md section 2, issue 11): what keeps one process serving through
//! slow or hostile clients. The accept loop (`super::accept`) applies them:
//!
//! - headers complete within `HEADER_READ_TIMEOUT_SECS` (hyper's `header_read_timeout`, which
//!   needs the `TokioTimer` that `axum::serve` does not install); hyper restarts the same
//!   timer while a keep-alive connection waits for its next request, so it is also the idle
//!   keep-alive timeout;
//! - no body byte for `BODY_TIMEOUT_SECS` ends the request (tower-http's
//!   `RequestBodyTimeoutLayer`; the readers answer 408, see `crate::handlers::extract::is_body_timeout`); the timer
//!   restarts with every chunk, so a slow upload that keeps sending is never cut;
//! - at most `MAX_CONNECTIONS_PER_CLIENT` connections per client address (trusted proxies
//!   exempt) and `MAX_CONNECTIONS` in all, kept below the open-file limit with room for the
//!   database, papers and mail;
//! - a declared `Content-Length` above a route's limit answers 413 before the body is read
//!   (`crate::http::body_limit`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::base::client_ip::TrustedProxies;
use crate::config::Config;

/// File descriptors kept back from the connection cap: the SQLite database and its WAL and
/// shared-memory files per pooled connection, a paper being stored, mail files, an SMTP
/// connection, the listener, logs. 256 leaves ample room for all of them.
pub const RESERVED_FDS: u64 = 256;

/// Largest total connection cap when `MAX_CONNECTIONS` is 0 (auto): beyond this the 2-core
/// machine is CPU-bound anyway, and each connection costs memory.
pub const AUTO_MAX_CONNECTIONS: u64 = 16_384;

/// The limits in force, from [`Config`] and the open-file limit.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Against slowloris: a client that dribbles its headers (or idles on keep-alive).
    pub header_read_timeout: Duration,
    /// Against a body that stops arriving (the "10 of 1,000 bytes" request).
    pub body_timeout: Duration,
    /// Against one address holding every socket.
    pub max_per_client: usize,
    /// Against running out of file descriptors ("Too many open files" stops the accept loop
    /// and the database alike).
    pub max_total: usize,
    /// How long a SIGTERM waits for accepted requests before closing them.
    pub drain_timeout: Duration,
    /// Peers without a per-address cap: trusted proxies (`TRUSTED_PROXIES`) carry every
    /// visitor's connections. Empty by default.
    pub exempt: TrustedProxies,
    /// What a stop does with connections still queued on the listening socket (issue 40).
    pub on_stop: OnStop,
}

/// What becomes of the connections the kernel has queued on the listening socket when the
/// server stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnStop {
    /// The socket is ours (bound at start-up): accept what is queued and serve it, for at most
    /// [`STOP_ACCEPTING_WITHIN`], then close it. A balancer should stop sending first
    /// (README, "Restarts"): a connection that reaches a closed socket is reset.
    Drain,
    /// The socket was handed to us by a socket manager (systemd's `LISTEN_FDS`), which keeps
    /// it open: stop accepting at once and leave the queue to the next process, so a restart
    /// refuses nobody.
    HandOver,
}

/// The longest a stopping server keeps accepting its own socket's queue (`OnStop::Drain`).
/// A balancer that keeps sending would otherwise keep it accepting for ever, and whoever
/// stops it (systemd's `TimeoutStopSec`) would kill what is in flight.
pub const STOP_ACCEPTING_WITHIN: Duration = Duration::from_secs(1);

impl Limits {
    /// The configured limits; `open_files` is the soft open-file limit in force (after
    /// `crate::base::sys::raise_open_file_limit`), which caps `MAX_CONNECTIONS`.
    pub fn from_config(config: &Config, open_files: u64) -> Self {
        let room = open_files.saturating_sub(RESERVED_FDS).max(16);
        let max_total = match config.max_connections {
            0 => room.min(AUTO_MAX_CONNECTIONS),
            configured => (configured as u64).min(room),
        };
        Limits {
            header_read_timeout: Duration::from_secs(config.header_read_timeout_secs.max(1)),
            body_timeout: Duration::from_secs(config.body_timeout_secs.max(1)),
            max_per_client: config.max_connections_per_client.max(1),
            max_total: usize::try_from(max_total).unwrap_or(usize::MAX),
            drain_timeout: Duration::from_secs(config.drain_timeout_secs),
            exempt: config.trusted_proxies.clone(),
            on_stop: OnStop::Drain,
        }
    }
}

/// Counts open connections per client address. A [`ClientSlot`] holds one and gives it back
/// when dropped, whatever way the connection ends.
#[derive(Clone, Default)]
pub struct PerClient {
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One counted connection of one address.
pub struct ClientSlot {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl PerClient {
    /// A slot for `ip`, or `None` when it already has `max` connections open.
    pub fn try_acquire(&self, ip: IpAddr, max: usize) -> Option<ClientSlot> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let count = open.entry(ip).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(ClientSlot { ip, open: self.open.clone() })
    }

    /// Connections `ip` has open now.
    pub fn open(&self, ip: IpAddr) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).get(&ip).copied().unwrap_or(0)
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_client_slots_are_counted_and_given_back() {
        let per = PerClient::default();
        let a = IpAddr::from([10, 0, 0, 1]);
        let b = IpAddr::from([10, 0, 0, 2]);
        let first = per.try_acquire(a, 2).unwrap();
        let _second = per.try_acquire(a, 2).unwrap();
        assert!(per.try_acquire(a, 2).is_none(), "a third connection of one address is refused");
        assert!(per.try_acquire(b, 2).is_some(), "other addresses are not affected");
        drop(first);
        assert_eq!(per.open(a), 1);
        assert!(per.try_acquire(a, 2).is_some());
    }

    #[test]
    fn the_total_cap_stays_below_the_open_file_limit() {
        let mut config = Config::for_tests("data".into());
        config.max_connections = 0;
        assert_eq!(Limits::from_config(&config, 1024).max_total, 1024 - RESERVED_FDS as usize);
        config.max_connections = 5000;
        assert_eq!(Limits::from_config(&config, 1024).max_total, 768);
        config.max_connections = 100;
        assert_eq!(Limits::from_config(&config, 1024).max_total, 100);
        assert_eq!(Limits::from_config(&config, 1 << 20).max_total, 100);
    }
}
