//! Files for crawlers and calendars: `/sitemap.xml`, `/robots.txt`, `/calendar.ics`.

use axum::extract::{Request, State};
use axum::response::Response;

use crate::cache::pages::ClockUse;
use crate::cache::prepared::Kind;
use crate::error::AppError;
use crate::handlers::page_table::{PAGES, addresses};
use crate::handlers::render::{MinutePage, cached_as};
use crate::handlers::state::AppState;
use crate::programme::ical::dates;
use crate::views::layout::PageCtx;

/// Crawlers and calendar apps may keep these an hour.
const SEO_CACHE_CONTROL: &str = "public, max-age=3600";

const SITEMAP: Kind = Kind {
    content_type: "application/xml; charset=utf-8",
    cache_control: SEO_CACHE_CONTROL,
    content_disposition: None,
};
const ROBOTS: Kind =
    Kind { content_type: "text/plain; charset=utf-8", cache_control: SEO_CACHE_CONTROL, content_disposition: None };
pub const CALENDAR: Kind = Kind {
    content_type: "text/calendar; charset=utf-8",
    cache_control: SEO_CACHE_CONTROL,
    content_disposition: Some("inline; filename=\"conference.ics\""),
};

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// GET `/sitemap.xml`: every indexable page with absolute URLs from `PUBLIC_URL`.
pub async fn sitemap(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached_as(&state, request.headers(), "/sitemap.xml", ClockUse::Year, SITEMAP, render_sitemap).await
}

pub fn render_sitemap(page: &PageCtx<'_>) -> Result<String, AppError> {
    // A highlight's and a session's page once each; the sitemap still answers when their
    // block did not load (the page's own error says so).
    let paths = PAGES.iter().filter(|page| page.sitemap).flat_map(|route| addresses(route, page.content));
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for path in paths {
        xml.push_str(&format!("  <url><loc>{}</loc></url>\n", xml_escape(&page.config.absolute(&path))));
    }
    xml.push_str("</urlset>\n");
    Ok(xml)
}

/// GET `/robots.txt`: everything may be crawled but the APIs and payment pages.
pub async fn robots(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached_as(&state, request.headers(), "/robots.txt", ClockUse::Year, ROBOTS, |page| {
        Ok(format!(
            "User-agent: *\nDisallow: /api/\nDisallow: /Success\nDisallow: /Failed\nDisallow: /test-gateway\nDisallow: /organiser\nDisallow: /review\nAllow: /\n\nSitemap: {}\n",
            page.config.absolute("/sitemap.xml")
        ))
    })
    .await
}

/// GET `/calendar.ics`: the conference and its important dates as all-day events
/// (RFC 5545), so visitors can subscribe or import them. Cached per minute (its `DTSTAMP`).
/// `/calendar.ics`, cached per minute for its `DTSTAMP`.
pub const CALENDAR_PAGE: MinutePage = MinutePage { route: "/calendar.ics", kind: CALENDAR, render: render_calendar };

pub async fn calendar(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    CALENDAR_PAGE.serve(&state, request.headers()).await
}

/// The body of `/calendar.ics` ([`dates::calendar`]) at the clock's minute.
///
/// Errors: the site row or the important dates are not loaded.
pub fn render_calendar(page: &PageCtx<'_>) -> Result<String, AppError> {
    let site = page.content.site()?;
    let dates =
        page.content.dates.as_ref().map_err(|_| AppError::internal("calendar", "important dates are not loaded"))?;
    Ok(dates::calendar(site, dates, page.config.base_url(), page.now))
}
