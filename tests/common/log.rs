//! What the server logs, captured for tests that read it.
//!
//! One global subscriber for the whole test binary, set once: a per-thread one
//! (`set_default`) misses events whose callsites other tests' threads registered at the same
//! time (tracing caches each callsite's interest), which made log tests flaky. Every test's
//! lines land in the buffer, so a test looks for values no other test uses. The server's own
//! events at DEBUG are kept (a request's start and finish), everything else from INFO.

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

/// The captured log lines.
#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    /// Everything logged so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// The buffer the test binary's logs go to (installed by the first caller).
pub fn captured() -> &'static Captured {
    static CAPTURED: OnceLock<Captured> = OnceLock::new();
    CAPTURED.get_or_init(|| {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_env_filter(tracing_subscriber::EnvFilter::new("info,conference::http::trace=debug"))
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("no other global subscriber in the tests");
        captured
    })
}
