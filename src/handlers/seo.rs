//! Files for crawlers and calendars: `/sitemap.xml`, `/robots.txt`, `/calendar.ics`.

use axum::extract::{Request, State};
use axum::response::Response;
use icalendar::{Component, DatePerhapsTime, Event, EventLike, Property};

use crate::cache::pages::ClockUse;
use crate::cache::prepared::Kind;
use crate::error::AppError;
use crate::handlers::calendars::{host_of, one_newline, published};
use crate::handlers::page_table::{PAGES, addresses};
use crate::handlers::render::{MinutePage, cached_as};
use crate::handlers::state::AppState;
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

/// The body of `/calendar.ics` (RFC 5545): the conference and each important date as an
/// all-day `VEVENT`, stamped with the clock's minute. `icalendar` escapes the TEXT values and
/// folds lines at 75 octets. A date that is not `YYYY-MM-DD` is left out (and logged): one
/// invalid `DTSTART` makes calendar apps drop the whole subscription.
///
/// Errors: the site row or the important dates are not loaded.
pub fn render_calendar(page: &PageCtx<'_>) -> Result<String, AppError> {
    let site = page.content.site()?;
    let dates =
        page.content.dates.as_ref().map_err(|_| AppError::internal("calendar", "important dates are not loaded"))?;
    let host = host_of(page.config.base_url());
    // DTSTAMP from the site's clock (which tests set); the crate would stamp the wall clock.
    let stamp = DatePerhapsTime::from(page.now).to_property("DTSTAMP");

    let mut calendar = published(&site.short_name, &site.short_name);
    let conference = all_day(
        &format!("conference@{host}"),
        &stamp,
        &site.start_date,
        &site.end_date,
        &site.name,
        &format!("{} {}", site.tagline, page.config.absolute("/")),
    );
    if let Some(mut conference) = conference {
        let place = format!("{}, {}, {}, {}", site.venue_name, site.street_address, site.city, site.country);
        calendar.push(conference.location(&one_newline(&place)).done());
    }
    for date in dates {
        let summary = format!("{}: {}", site.short_name, date.title);
        let uid = format!("date-{}@{host}", date.id);
        let event = all_day(&uid, &stamp, &date.date, &date.date, &summary, &date.description);
        if let Some(event) = event {
            calendar.push(event);
        }
    }
    Ok(calendar.to_string())
}

/// An all-day `VEVENT` from `first` to `last` (`YYYY-MM-DD`, both included). `None`, logged,
/// when either is not a date.
fn all_day(uid: &str, stamp: &Property, first: &str, last: &str, summary: &str, description: &str) -> Option<Event> {
    let (Some(start), Some(last_day)) = (crate::clock::dates::parse(first), crate::clock::dates::parse(last)) else {
        tracing::warn!(uid, first, last, "calendar: a date is not YYYY-MM-DD, its event is left out");
        return None;
    };
    let mut event = Event::new();
    event
        .uid(uid)
        .append_property(stamp.clone())
        .starts(start)
        // An all-day DTEND is exclusive (RFC 5545 section 3.6.1).
        .ends(last_day.next_day().unwrap_or(last_day))
        .summary(&one_newline(summary))
        .description(&one_newline(description));
    Some(event)
}

#[cfg(test)]
mod tests {
    use icalendar::Calendar;
    use time::macros::datetime;

    use super::*;

    fn stamp() -> Property {
        DatePerhapsTime::from(datetime!(2031-12-31 23:59:30 UTC)).to_property("DTSTAMP")
    }

    /// The calendar text of one event, and its content lines unfolded (RFC 5545 section 3.1).
    fn written(event: Event) -> (String, Vec<String>) {
        let text = Calendar::empty().push(event).to_string();
        let lines = text.replace("\r\n ", "").split("\r\n").map(str::to_owned).collect();
        (text, lines)
    }

    #[test]
    fn text_is_escaped_and_long_lines_fold_at_75_octets() {
        let summary = "Opening, keynote; lunch \\ posters\r\nin the hall";
        let description = "é".repeat(60);
        let (text, lines) =
            written(all_day("u@host", &stamp(), "2025-03-21", "2025-03-21", summary, &description).unwrap());
        for line in text.split("\r\n") {
            assert!(line.len() <= 75, "{line:?} is {} octets", line.len());
        }
        assert!(!text.replace("\r\n", "").contains(['\r', '\n']), "CRLF line ends only: {text:?}");
        assert!(lines.contains(&r"SUMMARY:Opening\, keynote\; lunch \\ posters\nin the hall".to_owned()), "{lines:#?}");
        assert!(lines.contains(&format!("DESCRIPTION:{description}")), "{lines:#?}");
    }

    #[test]
    fn an_all_day_event_ends_the_day_after_and_is_stamped_by_the_clock() {
        let (_, lines) = written(all_day("u@host", &stamp(), "2025-12-30", "2025-12-31", "New year", "").unwrap());
        for expected in
            ["DTSTART;VALUE=DATE:20251230", "DTEND;VALUE=DATE:20260101", "DTSTAMP:20311231T235930Z", "UID:u@host"]
        {
            assert!(lines.contains(&expected.to_owned()), "{expected} in {lines:#?}");
        }
    }

    #[test]
    fn a_date_that_is_not_a_date_leaves_its_event_out() {
        assert!(all_day("u@host", &stamp(), "2025-03-21", "21 March", "x", "").is_none());
        assert!(all_day("u@host", &stamp(), "2025-02-30", "2025-03-01", "x", "").is_none());
    }
}
