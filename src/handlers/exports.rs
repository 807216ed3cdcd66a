//! The programme's exports for attendee apps (issue 31 item 5, DESIGN.md section 14):
//! `/schedule.xml` and `/schedule.json`, the frab / c3voc schedule of the latest published
//! version (`crate::programme::frab`). Like the pages, each is rendered once per content
//! version and served from memory; publishing a version bumps the content version, so apps
//! get it on their next request.
//!
//! One row of [`EXPORTS`] per format (STYLE.md point 12): its path, how it is sent and how
//! it is written from the one [`Frab`] both share.

use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::response::Response;

use crate::cache::pages::ClockUse;
use crate::cache::prepared::Kind;
use crate::error::AppError;
use crate::handlers::render::{PAGE_CACHE_CONTROL, cached_as};
use crate::handlers::state::AppState;
use crate::programme::Programme;
use crate::programme::frab::{Frab, schedule};
use crate::views::layout::PageCtx;

/// Where the XML form is served.
pub const SCHEDULE_XML: &str = "/schedule.xml";
/// Where the JSON form is served.
pub const SCHEDULE_JSON: &str = "/schedule.json";

/// A format of the programme: its path, how it is sent, and how it is written.
pub struct Export {
    pub path: &'static str,
    /// Sent like a page (`Cache-Control` revalidating every time, an `ETag`): apps poll the
    /// programme and must see a new version at once.
    pub kind: Kind,
    pub write: fn(&Frab) -> String,
}

/// The frab schedule XML, valid against `tests/schemas/frab-schedule.xsd`.
pub const XML: Export = Export {
    path: SCHEDULE_XML,
    kind: Kind {
        content_type: "application/xml; charset=utf-8",
        cache_control: PAGE_CACHE_CONTROL,
        content_disposition: None,
    },
    write: Frab::to_xml,
};

/// The frab schedule JSON, valid against `tests/schemas/frab-schedule.schema.json`.
pub const JSON: Export = Export {
    path: SCHEDULE_JSON,
    kind: Kind { content_type: "application/json", cache_control: PAGE_CACHE_CONTROL, content_disposition: None },
    write: Frab::to_json,
};

/// Every export of the programme.
pub const EXPORTS: [&Export; 2] = [&XML, &JSON];

impl Export {
    /// Serves this export from the page cache (its handler's whole body). Nothing in it
    /// follows the clock: [`ClockUse::Year`] is the coarsest key the cache has.
    pub async fn serve(&self, state: &AppState, request: &HeaderMap) -> Result<Response, AppError> {
        cached_as(state, request, self.path, ClockUse::Year, self.kind, |page| self.render(page)).await
    }

    /// The body for the content `page` reads.
    ///
    /// Errors: the site row or the programme is not loaded.
    pub fn render(&self, page: &PageCtx<'_>) -> Result<String, AppError> {
        let site = page.content.site()?;
        let programme = Programme::of(page.content)
            .map_err(|_| AppError::internal("schedule export", "the programme is not loaded"))?;
        Ok((self.write)(&schedule(&programme, site, page.config.base_url())))
    }
}

/// GET `/schedule.xml`.
pub async fn schedule_xml(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    XML.serve(&state, request.headers()).await
}

/// GET `/schedule.json`.
pub async fn schedule_json(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    JSON.serve(&state, request.headers()).await
}
