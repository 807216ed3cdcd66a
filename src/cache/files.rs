//! Files that never change while the process runs, prepared on first request and kept.

use std::collections::HashMap;
use std::sync::Arc;

use arc_swap::ArcSwap;
use axum::body::Bytes;
use axum::http::HeaderValue;

use super::prepared::Prepared;

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
