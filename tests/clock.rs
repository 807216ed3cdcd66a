//! What pages show of the clock, with an injected clock (issue 13 point 7, issue 9): the
//! countdown before, at and after its target, the timeline's past marks in the venue's time
//! zone, the footer year, and pages reused for at most a minute.

use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use crate::common::html::{by_id, first, links, parse, text, texts};
use crate::common::{TestApp, app_at, fixture};

/// The fixture seed's countdown target: 2025-03-21T00:00:00+08:00.
const TARGET: OffsetDateTime = datetime!(2025-03-20 16:00 UTC);

/// The countdown's four values as the page shows them.
async fn countdown(app: &TestApp) -> Vec<String> {
    let page = parse(&app.page("/").await);
    let timer = first(&page, "[role=timer]").expect("countdown");
    let words: Vec<String> = text(timer).split_whitespace().map(String::from).collect();
    words.chunks(2).map(|pair| pair[0].clone()).collect()
}

/// Titles of the timeline entries marked as passed.
async fn passed_titles(app: &TestApp) -> Vec<String> {
    let page = parse(&app.page("/").await);
    texts(&page, ".timeline__item--past .timeline__title del")
}

#[tokio::test]
async fn the_countdown_counts_before_and_stops_at_and_after_its_target() {
    let before = TARGET - Duration::days(3) - Duration::hours(4) - Duration::minutes(5) - Duration::seconds(6);
    let app = app_at(before).await;
    assert_eq!(countdown(&app).await, ["03", "04", "05", "06"], "days, hours, minutes, seconds left");
    app.state.clock.set(TARGET);
    assert_eq!(countdown(&app).await, ["00", "00", "00", "00"], "at the target");
    app.state.clock.set(TARGET + Duration::days(1));
    assert_eq!(countdown(&app).await, ["00", "00", "00", "00"], "after the target, during the conference");
    app.state.clock.set(LAST_DAY_ENDS - Duration::minutes(1));
    assert_eq!(countdown(&app).await, ["00", "00", "00", "00"], "the last minute of the last day");
}

/// The fixture's last day, 23 March 2025, ends at midnight in Singapore (UTC+08:00).
const LAST_DAY_ENDS: OffsetDateTime = datetime!(2025-03-23 16:00 UTC);

/// The home page's hero.
async fn hero(app: &TestApp) -> scraper::Html {
    parse(&app.page("/").await)
}

/// Between editions (issue 43 item 7, DESIGN.md section 17): once the last day has ended in the
/// event's zone (and the countdown's target has passed), the countdown gives way to what took
/// place, with links to the programme and the gallery and the newsletter to hear about the next
/// edition; a minute before, the countdown still shows its zeros. The page cached in the minute
/// before is not served after the boundary.
#[tokio::test]
async fn after_the_last_day_the_home_page_says_the_conference_took_place() {
    let app = app_at(LAST_DAY_ENDS - Duration::minutes(1)).await;
    let before = hero(&app).await;
    assert!(first(&before, "[role=timer]").is_some(), "the countdown a minute before the last day ends");
    assert!(first(&before, ".took-place").is_none());
    let etag = app.request("/", &[]).await.header("etag").map(String::from);

    for now in [LAST_DAY_ENDS, LAST_DAY_ENDS + Duration::minutes(1), LAST_DAY_ENDS + Duration::days(400)] {
        app.state.clock.set(now);
        let page = hero(&app).await;
        assert!(first(&page, "[role=timer]").is_none(), "no countdown at {now}");
        assert!(first(&page, "[data-island=Countdown]").is_none(), "no countdown island at {now}");
        let past = first(&page, ".hero .took-place").expect("what took place, in the hero");
        assert_eq!(
            text(first(past, ".took-place__summary").unwrap()),
            format!("{} took place on 21-23 March 2025 in {}.", fixture::SHORT_NAME, fixture::CITY)
        );
        assert_eq!(
            links(past),
            [
                ("/schedule".to_owned(), "See the programme".to_owned()),
                ("/gallery".to_owned(), "See the gallery".to_owned()),
                ("#footer-newsletter".to_owned(), "Subscribe to the newsletter".to_owned()),
            ],
            "no proceedings link: the site has no proceedings page"
        );
        assert!(text(past).contains("to hear about the next edition"), "{}", text(past));
        let newsletter = by_id(&page, "footer-newsletter").expect("the link's target");
        assert_eq!(text(newsletter), "Newsletter");
        assert!(first(&page, "form[action='/api/newsletter'] input[name=email]").is_some(), "the sign-up form");
    }
    assert_ne!(app.request("/", &[]).await.header("etag").map(String::from), etag, "a new page, not the cached one");
}

/// The boundary is the end of the last day in the event's zone, not in UTC: at 23:59 in
/// Singapore on the last day the countdown is still there, whatever the UTC date.
#[tokio::test]
async fn the_boundary_is_midnight_after_the_last_day_in_the_event_zone() {
    let app = app_at(datetime!(2025-03-23 15:59:59 UTC)).await;
    assert!(first(&hero(&app).await, "[role=timer]").is_some(), "23:59:59 on the last day in Singapore");
    app.state.clock.set(datetime!(2025-03-23 16:00:00 UTC));
    assert!(first(&hero(&app).await, ".took-place").is_some(), "00:00 on the day after, in Singapore");
    // The page prepared ahead for the next minute reads that minute's clock.
    let app = app_at(datetime!(2025-03-23 15:59:30 UTC)).await;
    assert!(first(&hero(&app).await, "[role=timer]").is_some());
    conference::handlers::ahead::prepare_next_minute(&app.state).await;
    app.state.clock.set(datetime!(2025-03-23 16:00:05 UTC));
    assert!(first(&hero(&app).await, ".took-place").is_some(), "the page prepared for 16:00");
}

#[tokio::test]
async fn the_home_page_is_reused_within_a_minute_and_renewed_after_it() {
    let start = datetime!(2025-03-01 10:00:00 UTC);
    let app = app_at(start).await;
    let first = countdown(&app).await;
    let etag = app.request("/", &[]).await.header("etag").map(String::from);
    // 59 s later, same minute: the same bytes (the countdown is at most 60 s old; the island
    // corrects it to the second).
    app.state.clock.set(start + Duration::seconds(59));
    assert_eq!(countdown(&app).await, first);
    assert_eq!(app.request("/", &[]).await.header("etag").map(String::from), etag);
    // The next minute: rendered again from the clock.
    app.state.clock.set(start + Duration::seconds(60));
    let next = countdown(&app).await;
    assert_ne!(next, first, "a new minute, a new countdown");
    let expected = OffsetDateTime::parse("2025-03-21T00:00:00+08:00", &time::format_description::well_known::Rfc3339)
        .unwrap()
        - (start + Duration::seconds(60));
    let minutes = expected.whole_minutes() % 60;
    assert_eq!(next[2], format!("{minutes:02}"), "minutes left at the new minute");
    assert_ne!(app.request("/", &[]).await.header("etag").map(String::from), etag);
}

#[tokio::test]
async fn timeline_marks_follow_the_clock_in_the_venues_time_zone() {
    // 2025-03-07 is Notification of Acceptance; Manila is UTC+8.
    let app = app_at(datetime!(2025-02-01 00:00 UTC)).await;
    assert!(passed_titles(&app).await.is_empty(), "nothing has passed");
    // 2025-03-07 16:30 UTC is 2025-03-08 00:30 in Manila: the 7th is over there.
    app.state.clock.set(datetime!(2025-03-07 16:30 UTC));
    assert_eq!(passed_titles(&app).await, ["Abstract Submission Deadline", "Notification of Acceptance"]);
    // An hour earlier it is still the 7th in Manila.
    app.state.clock.set(datetime!(2025-03-07 15:30 UTC));
    assert_eq!(passed_titles(&app).await, ["Abstract Submission Deadline"]);
    app.state.clock.set(datetime!(2025-04-01 00:00 UTC));
    assert_eq!(passed_titles(&app).await.len(), 7, "after the conference every date has passed");
}

#[tokio::test]
async fn the_footer_year_and_calendar_stamp_follow_the_clock() {
    let app = app_at(datetime!(2031-12-31 23:59:30 UTC)).await;
    let footer = |page: &str| text(first(&parse(page), "footer").expect("a footer"));
    assert!(footer(&app.page("/committee").await).contains("© 2031"), "footer of 2031");
    let (_, _, ics) = app.get("/calendar.ics").await;
    assert!(ics.contains("DTSTAMP:20311231T235930Z"), "stamped with the clock");
    app.state.clock.set(datetime!(2032-01-01 00:00:10 UTC));
    assert!(footer(&app.page("/committee").await).contains("© 2032"), "a new year, a new footer");
    let (_, _, ics) = app.get("/calendar.ics").await;
    assert!(ics.contains("DTSTAMP:20320101T000010Z"));
}

/// The home page of the coming minute is rendered before the minute turns (src/handlers/
/// ahead.rs), as it reads at the minute's start: a visitor never waits for it, and what it
/// shows of the clock is still never more than 60 s old.
#[tokio::test]
async fn the_home_page_of_the_next_minute_is_ready_before_it_starts() {
    let start = datetime!(2025-03-01 10:00:50 UTC);
    let app = app_at(start).await;
    let current = countdown(&app).await;
    conference::handlers::ahead::prepare_next_minute(&app.state).await;
    // Still this minute: the page rendered for it, not the one prepared ahead.
    app.state.clock.set(start + Duration::seconds(9));
    assert_eq!(countdown(&app).await, current);
    // 30 s into the next minute: the page as it read at 10:01:00, 30 s older than the clock.
    app.state.clock.set(datetime!(2025-03-01 10:01:30 UTC));
    let left = TARGET - datetime!(2025-03-01 10:01:00 UTC);
    let expected = [left.whole_days(), left.whole_hours() % 24, left.whole_minutes() % 60, left.whole_seconds() % 60]
        .map(|n| format!("{n:02}"));
    assert_eq!(countdown(&app).await, expected);
    // Content that changed since makes the prepared page stale: rendered again on request.
    let seed = crate::common::fixture::SEED.replace(crate::common::fixture::FIRST_QUESTION, "Can I attend from afar?");
    conference::handlers::ahead::prepare_next_minute(&app.state).await;
    conference::seed::apply::seed_with(&app.pool, seed).await.expect("seed applies");
    assert!(app.state.content.reload().await.expect("content reloads"));
    app.state.clock.set(datetime!(2025-03-01 10:02:10 UTC));
    assert!(
        app.page("/").await.contains("Can I attend from afar?"),
        "the new content, not the page prepared before it"
    );
}
