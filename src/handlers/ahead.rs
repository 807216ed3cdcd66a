//! Pages that show the clock to the minute (the home page's countdown and timeline, the
//! calendar's stamp), rendered ahead of each minute so that no visitor waits for a render and
//! a brotli pass when the minute turns (`crate::cache::PageCache::prepare_ahead`).

use std::time::Duration;

use time::OffsetDateTime;

use crate::cache::pages::ClockUse;
use crate::handlers::pages::home;
use crate::handlers::render::MinutePage;
use crate::handlers::seo;
use crate::handlers::state::AppState;
use crate::views::layout::PageCtx;

/// Every page cached per minute.
const MINUTE_PAGES: [&MinutePage; 2] = [&home::MINUTE_PAGE, &seo::CALENDAR_PAGE];

/// How long before a minute turns its pages are rendered: enough for a render and a brotli
/// pass on a busy machine, and the answers of the minute still running stay in place.
const LEAD: Duration = Duration::from_secs(10);

/// The start of the minute after `now`.
pub fn next_minute(now: OffsetDateTime) -> OffsetDateTime {
    crate::clock::minute_start(now) + time::Duration::minutes(1)
}

/// Renders every minute page as it will read at the start of the next minute (by the state's
/// clock). A page that fails to render is logged and left to be rendered on request.
pub async fn prepare_next_minute(state: &AppState) {
    let Some(snapshot) = state.content.loaded() else { return };
    if snapshot.generation == 0 {
        return;
    }
    let at = next_minute(state.clock.now());
    let page = PageCtx { now: at, ..state.page_ctx(&snapshot) };
    for minute_page in MINUTE_PAGES {
        let route = minute_page.route;
        let render = || (minute_page.render)(&page);
        let prepared =
            state.pages.prepare_ahead(route, snapshot.generation, ClockUse::Minute, at, minute_page.kind, render);
        if let Err(err) = prepared.await {
            tracing::warn!(route, error = %err, "could not render ahead of the minute");
        }
    }
}

/// Runs [`prepare_next_minute`] [`LEAD`] before every minute of the system clock, until the
/// task is aborted.
pub fn spawn(state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let now = OffsetDateTime::now_utc();
            let until_next = (next_minute(now) - now).unsigned_abs();
            tokio::time::sleep(until_next.saturating_sub(LEAD)).await;
            prepare_next_minute(&state).await;
            // Past the lead time of this minute: wait for it to turn before planning the next.
            tokio::time::sleep(LEAD + Duration::from_secs(1)).await;
        }
    })
}
