//! The page table (spec section 2, DESIGN.md section 4): every page route with its handler,
//! its canonical path and whether the sitemap lists it. The router, the sitemap and the tests
//! all read [`PAGES`].

use axum::routing::{MethodRouter, get};

use crate::content::snapshot::Snapshot;
use crate::handlers::calendars;
use crate::handlers::pages::{about, changes, home, info, payment_result, policies, schedule, talk};
use crate::handlers::state::AppState;

/// A page of the site: what visitors, crawlers and the tests reach (spec section 2, DESIGN.md
/// section 4). The router, the sitemap and the tests all read [`PAGES`].
pub struct PageRoute {
    /// The path as axum matches it (`{slug}` for a highlight).
    pub path: &'static str,
    /// The path this one is an alias of, or itself (the page's canonical link).
    pub canonical: &'static str,
    /// Whether `/sitemap.xml` lists it (aliases and payment outcomes are left out).
    pub sitemap: bool,
    /// Whether it answers an HTML page (`false`: a calendar file served like a page, from
    /// the page cache).
    pub html: bool,
    /// The route's method router (what `crate::http::router` mounts at `path`).
    pub handler: fn() -> MethodRouter<AppState>,
}

/// Every page route; `/highlights/{slug}`, `/schedule/sessions/{slug}` and
/// `/schedule/talks/{slug}` stand for one page per highlight, per session of the content and
/// per talk of the published programme.
pub const PAGES: &[PageRoute] = &[
    page("/", true, || get(home::home)),
    page("/AboutUs", true, || get(about::about_us)),
    page("/AboutConference", true, || get(about::about_conference)),
    page("/committee", true, || get(info::committee)),
    page("/gallery", true, || get(info::gallery)),
    page(schedule::SCHEDULE, true, || get(schedule::schedule)),
    alias("/Schedule", schedule::SCHEDULE, || get(schedule::schedule)),
    // One page per session of the content (the sitemap and `seed --check` list each, see
    // [`addresses`]).
    PageRoute { path: SESSION, canonical: SESSION, sitemap: true, html: true, handler: || get(schedule::session) },
    // One page per talk of the published programme; `<slug>.ics` on the same route is its
    // calendar entry (axum matches no suffix after a parameter).
    PageRoute { path: TALK, canonical: TALK, sitemap: true, html: true, handler: || get(talk::talk) },
    // What each published version changed (issue 31 item 3).
    page(changes::CHANGES, true, || get(changes::changes)),
    // The whole programme as iCalendar (issue 31 item 5), kept in the page cache like a page.
    PageRoute {
        path: "/schedule.ics",
        canonical: "/schedule.ics",
        sitemap: false,
        html: false,
        handler: || get(calendars::schedule_ics),
    },
    page("/pricing", true, || get(info::pricing)),
    page("/submission", true, || get(info::submission)),
    page("/awards", true, || get(about::awards)),
    page("/sponsorship", true, || get(about::sponsorship)),
    page("/venue", true, || get(about::venue)),
    page(HIGHLIGHT, true, || get(info::highlight)),
    page("/cancellation-policy", true, || get(policies::cancellation)),
    page("/Terms-&-Conditions", true, || get(policies::terms)),
    // The same page reached with the `&` percent-encoded.
    alias("/Terms-%26-Conditions", "/Terms-&-Conditions", || get(policies::terms)),
    page("/Privacy-Policy", true, || get(policies::privacy)),
    page("/cookie-policy", true, || get(policies::cookies)),
    // About one visitor's payment: not for crawlers.
    page("/Success", false, || get(payment_result::success)),
    page("/Failed", false, || get(payment_result::failed)),
];

/// The route of the session pages (`/schedule/sessions/{slug}`).
pub const SESSION: &str = "/schedule/sessions/{slug}";
/// The route of the talk pages (`/schedule/talks/{slug}`, and `{slug}.ics`).
pub const TALK: &str = "/schedule/talks/{slug}";
/// The route of the highlights' pages.
pub const HIGHLIGHT: &str = "/highlights/{slug}";

/// The addresses `page` stands for with `content`: a `{slug}` route once per highlight,
/// session or published talk (none when that block did not load, no talk before the first
/// version), any other its own path. The one rule the
/// sitemap and `seed --check` (`crate::http::page_check`) expand the table by.
pub fn addresses(page: &PageRoute, content: &Snapshot) -> Vec<String> {
    match page.path {
        HIGHLIGHT => content
            .highlights
            .as_ref()
            .map(|highlights| highlights.iter().map(|h| format!("/highlights/{}", h.slug)).collect())
            .unwrap_or_default(),
        SESSION => content
            .sessions
            .as_ref()
            .map(|sessions| sessions.iter().map(|s| crate::programme::session_path(&s.slug)).collect())
            .unwrap_or_default(),
        TALK => match &content.published {
            Ok(Some(published)) => published.talks.iter().map(|t| crate::programme::talk_path(&t.slug)).collect(),
            _ => Vec::new(),
        },
        path => vec![path.to_owned()],
    }
}

const fn page(path: &'static str, sitemap: bool, handler: fn() -> MethodRouter<AppState>) -> PageRoute {
    PageRoute { path, canonical: path, sitemap, html: true, handler }
}

const fn alias(path: &'static str, canonical: &'static str, handler: fn() -> MethodRouter<AppState>) -> PageRoute {
    PageRoute { path, canonical, sitemap: false, html: true, handler }
}

/// The page-cache key of a request path: an alias's canonical path (`/Schedule` is
/// `/schedule`), so both spellings share one entry; any other path as it is.
pub fn cache_key(path: &str) -> &str {
    PAGES
        .iter()
        .find(|page| page.path == path && page.path != page.canonical && !page.path.contains('{'))
        .map_or(path, |page| page.canonical)
}
