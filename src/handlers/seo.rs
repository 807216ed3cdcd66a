//! Files for crawlers and calendars: `/sitemap.xml`, `/robots.txt`, `/calendar.ics`.

use axum::extract::{Request, State};
use axum::response::Response;
use time::macros::format_description;

use crate::cache::pages::ClockUse;
use crate::cache::prepared::Kind;
use crate::error::AppError;
use crate::handlers::layout::PageCtx;
use crate::handlers::render::{MinutePage, cached_as};
use crate::handlers::state::AppState;

/// The route of the highlight pages in `routes::PAGES`.
const HIGHLIGHT: &str = "/highlights/{slug}";

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
    let highlights =
        page.content.highlights.as_ref().map_err(|_| AppError::internal("sitemap", "highlights are not loaded"))?;
    // Every page of `page_table::PAGES` the sitemap lists, a highlight's once per highlight.
    let paths =
        crate::handlers::page_table::PAGES.iter().filter(|page| page.sitemap).flat_map(|page| match page.path {
            HIGHLIGHT => highlights.iter().map(|h| format!("/highlights/{}", h.slug)).collect(),
            path => vec![path.to_owned()],
        });
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
            "User-agent: *\nDisallow: /api/\nDisallow: /Success\nDisallow: /Failed\nDisallow: /test-gateway\nDisallow: /organiser\nAllow: /\n\nSitemap: {}\n",
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

pub fn render_calendar(page: &PageCtx<'_>) -> Result<String, AppError> {
    let site = page.content.site()?;
    let dates =
        page.content.dates.as_ref().map_err(|_| AppError::internal("calendar", "important dates are not loaded"))?;
    let host = page
        .config
        .base_url()
        .split("://")
        .nth(1)
        .unwrap_or("localhost")
        .split('/')
        .next()
        .unwrap_or("localhost")
        .to_string();
    let stamp =
        page.now.format(format_description!("[year][month][day]T[hour][minute][second]Z")).expect("timestamp formats");
    let mut cal = Calendar::default();
    cal.line("BEGIN:VCALENDAR");
    cal.line("VERSION:2.0");
    cal.line(&format!("PRODID:-//{}//Conference website//EN", ical_text(&site.short_name)));
    cal.line("CALSCALE:GREGORIAN");
    cal.line("METHOD:PUBLISH");
    cal.line(&format!("X-WR-CALNAME:{}", ical_text(&site.short_name)));
    cal.event(
        &format!("conference@{host}"),
        &stamp,
        &site.start_date,
        &next_day(&site.end_date),
        &site.name,
        &format!("{} {}", site.tagline, page.config.absolute("/")),
        Some(&format!("{}, {}, {}, {}", site.venue_name, site.street_address, site.city, site.country)),
    );
    for date in dates {
        cal.event(
            &format!("date-{}@{host}", date.id),
            &stamp,
            &date.date,
            &next_day(&date.date),
            &format!("{}: {}", site.short_name, date.title),
            &date.description,
            None,
        );
    }
    cal.line("END:VCALENDAR");
    Ok(cal.0)
}

/// `YYYY-MM-DD` of the following day, as iCalendar's exclusive all-day `DTEND` needs.
fn next_day(date: &str) -> String {
    crate::dates::parse(date)
        .and_then(|d| d.next_day())
        .map(|d| format!("{:04}-{:02}-{:02}", d.year(), d.month() as u8, d.day()))
        .unwrap_or_else(|| date.to_string())
}

/// Escapes TEXT values (RFC 5545 section 3.3.11).
fn ical_text(text: &str) -> String {
    text.replace('\\', "\\\\").replace(';', "\\;").replace(',', "\\,").replace("\r\n", "\\n").replace('\n', "\\n")
}

#[derive(Default)]
struct Calendar(String);

impl Calendar {
    /// Appends a content line, folded at 75 octets with CRLF + space (RFC 5545 section 3.1).
    fn line(&mut self, line: &str) {
        let mut count = 0;
        for ch in line.chars() {
            let len = ch.len_utf8();
            if count + len > 75 {
                self.0.push_str("\r\n ");
                count = 1;
            }
            self.0.push(ch);
            count += len;
        }
        self.0.push_str("\r\n");
    }

    #[allow(clippy::too_many_arguments)]
    fn event(
        &mut self,
        uid: &str,
        stamp: &str,
        start: &str,
        end: &str,
        summary: &str,
        description: &str,
        location: Option<&str>,
    ) {
        self.line("BEGIN:VEVENT");
        self.line(&format!("UID:{uid}"));
        self.line(&format!("DTSTAMP:{stamp}"));
        self.line(&format!("DTSTART;VALUE=DATE:{}", start.replace('-', "")));
        self.line(&format!("DTEND;VALUE=DATE:{}", end.replace('-', "")));
        self.line(&format!("SUMMARY:{}", ical_text(summary)));
        self.line(&format!("DESCRIPTION:{}", ical_text(description)));
        if let Some(location) = location {
            self.line(&format!("LOCATION:{}", ical_text(location)));
        }
        self.line("END:VEVENT");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_fold_at_75_octets() {
        let mut cal = Calendar::default();
        cal.line(&format!("SUMMARY:{}", "é".repeat(60)));
        for line in cal.0.split("\r\n") {
            assert!(line.len() <= 75, "{line:?} is {} octets", line.len());
        }
        assert_eq!(cal.0.replace("\r\n ", ""), format!("SUMMARY:{}\r\n", "é".repeat(60)));
    }

    #[test]
    fn text_values_are_escaped() {
        assert_eq!(ical_text("a, b; c\\d\ne"), "a\\, b\\; c\\\\d\\ne");
    }

    #[test]
    fn all_day_end_is_exclusive() {
        assert_eq!(next_day("2025-03-23"), "2025-03-24");
        assert_eq!(next_day("2025-12-31"), "2026-01-01");
    }
}
