//! Shared application state, handed to handlers through axum's `State`.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::attendance::desk_limit::DeskLimit;
use crate::cache::assets::IslandTags;
use crate::cache::pages::PageCache;
use crate::clock::Clock;
use crate::config::Config;
use crate::content::{Content, Snapshot, store::POLL_INTERVAL};
use crate::db::Pool;
use crate::payments::PaymentConfig;
use crate::repo::dashboard::CountCache;
use crate::views::layout::PageCtx;

#[derive(Clone)]
pub struct AppState {
    pub pool: Pool,
    pub config: Arc<Config>,
    pub islands: Arc<IslandTags>,
    /// The content snapshot pages render from (DESIGN.md section 10).
    pub content: Arc<Content>,
    /// Rendered, compressed pages by route.
    pub pages: Arc<PageCache>,
    /// Where pages read "now"; the system clock unless a test fixed it.
    pub clock: Clock,
    /// The payment settings, resolved once from `config` (a configuration that must not
    /// start is `Off` here: fail closed, `PaymentConfig::from_config`).
    pub payments: Arc<PaymentConfig>,
    /// The organisers' dashboard counts, kept until a counted table changes (issue 20).
    pub counts: Arc<CountCache>,
    /// Each desk session's scans a second (`CHECKIN_SCANS_PER_SECOND`, issue 40 item 3).
    pub desk_limit: Arc<DeskLimit>,
}

impl AppState {
    /// The event's zone from the content in force, the zone of every time an organiser's page
    /// shows ([`crate::views::organiser::shared::when`]).
    pub async fn event_zone(&self) -> crate::clock::zone::Zone {
        self.content.snapshot().await.zone.clone()
    }

    /// State over `pool`. Inside a tokio runtime it also starts the content watcher, which
    /// stops when the last copy of this state is dropped.
    pub fn new(pool: Pool, config: Config) -> Self {
        let content = Content::new(pool.clone());
        if tokio::runtime::Handle::try_current().is_ok() {
            content.spawn_watcher(POLL_INTERVAL);
        }
        let payments = Arc::new(PaymentConfig::from_config(&config));
        let desk_limit = Arc::new(DeskLimit::new(config.checkin_scans_per_second, Clock::system()));
        AppState {
            pool,
            config: Arc::new(config),
            islands: Arc::new(IslandTags::from_manifest()),
            content,
            pages: Arc::new(PageCache::default()),
            clock: Clock::system(),
            payments,
            counts: Arc::default(),
            desk_limit,
        }
    }

    /// The same state reading "now" from `clock` (tests: a fixed instant).
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.desk_limit = Arc::new(DeskLimit::new(self.config.checkin_scans_per_second, clock.clone()));
        self.clock = clock;
        self
    }

    /// What a page renders from: `snapshot` and this state's clock, settings and island tags.
    pub fn page_ctx<'a>(&'a self, snapshot: &'a Snapshot) -> PageCtx<'a> {
        PageCtx {
            content: snapshot,
            now: self.clock.now(),
            config: &self.config,
            islands: &self.islands,
            payments_off: self.payments.mode == crate::payments::config::Mode::Off,
        }
    }
}

impl FromRef<AppState> for Pool {
    fn from_ref(state: &AppState) -> Self {
        state.pool.clone()
    }
}
