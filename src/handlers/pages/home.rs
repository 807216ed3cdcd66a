//! `/`: the home page (spec section 2, Home) with the Event JSON-LD of DESIGN.md section 4.

use askama::Template;
use axum::extract::{Request, State};
use axum::response::Response;
use serde_json::{Value, json};

use crate::base::money;
use crate::clock::dates::{self, Remaining};
use crate::error::AppError;
use crate::handlers::render::{MinutePage, PAGE, html};
use crate::handlers::state::AppState;
use crate::repo::content::{CoOrganizer, Highlight, Item, Material, Partner, Site, Speaker, Statistic, TicketPlan};
use crate::views::layout::{Block, Layout, Meta, PageCtx};

use crate::views::pages::shared::{
    SpeakerGroup, TimelineItem, on_base, script_json, speaker_groups, timeline, venue_place,
};

#[derive(Template)]
#[template(path = "pages/home.html")]
pub struct HomePage {
    pub layout: Layout,
    pub countdown: Remaining,
    pub countdown_props: Value,
    pub sponsors: Block<Vec<Partner>>,
    pub co_organizers: Block<Vec<CoOrganizer>>,
    pub materials: Block<Vec<Material>>,
    pub highlights: Block<Vec<Highlight>>,
    pub objectives: Block<Vec<Item>>,
    pub statistics: Block<Vec<Statistic>>,
    pub goals: Block<Vec<Item>>,
    pub speakers: Block<Vec<SpeakerGroup>>,
    pub timeline: Block<Vec<TimelineItem>>,
    pub faqs: Block<Vec<Item>>,
    pub json_ld: String,
    /// Props of the `Speakers` island (tabs and drawer); null when the speakers failed.
    pub speakers_props: Value,
    /// Props of the `GoalsRow` island (the draggable row of goals).
    pub goals_props: Value,
    /// Props of the `Timeline` island, which re-checks `passed` against the visitor's clock.
    pub timeline_props: Value,
}

/// GET `/`: cached per minute, since it shows the countdown and the timeline's past marks.
/// `/`, cached per minute: the countdown and the timeline's past marks show the clock.
pub const MINUTE_PAGE: MinutePage = MinutePage { route: "/", kind: PAGE, render };

pub async fn home(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    MINUTE_PAGE.serve(&state, request.headers()).await
}

/// The home page's HTML from the snapshot at `page.now`.
pub fn render(page: &PageCtx<'_>) -> Result<String, AppError> {
    let content = page.content;
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("{} | {}, {}", site.short_name, site.city, dates::range_label(&site.start_date, &site.end_date)),
            site.description.clone(),
            "/",
        )
    })?;
    let now = page.now;
    let plans = content.ticket_plans.clone().unwrap_or_default();
    let speakers = content.speakers.clone().map(speaker_groups);
    let goals = content.goals.clone();
    let timeline = content.dates.clone().map(|d| timeline(d, &layout.site.utc_offset, now));
    let performers = speakers.iter().flatten().flat_map(|group| &group.speakers);
    let json_ld = script_json(&event_json_ld(&layout.site, page.config.base_url(), &plans, performers));
    html(&HomePage {
        countdown: Remaining::until(&layout.site.countdown_target, now),
        countdown_props: json!({ "target": layout.site.countdown_target }),
        sponsors: content.sponsors.clone(),
        co_organizers: content.co_organizers.clone(),
        materials: content.materials.clone(),
        highlights: content.highlights.clone(),
        objectives: content.objectives.clone(),
        statistics: content.home_statistics.clone(),
        speakers_props: speakers.as_ref().map_or(Value::Null, |_| speakers_props()),
        goals_props: goals.as_ref().map_or(Value::Null, |goals| json!({ "goals": goals })),
        timeline_props: timeline.as_ref().map_or(Value::Null, |items| timeline_props(items, &layout.site.utc_offset)),
        goals,
        speakers,
        timeline,
        faqs: content.faqs.clone(),
        json_ld,
        layout,
    })
}

/// The category whose tab the speakers island opens on (spec section 2: default keynote).
pub const DEFAULT_SPEAKER_TAB: &str = "keynote";

/// `{ initial }`: the island reads the groups and speakers (names, roles, photos, bios) from
/// its fallback's markup (templates/partials/speakers.html), which already carries every one
/// of them; a second copy here sent every bio twice.
pub fn speakers_props() -> Value {
    json!({ "initial": DEFAULT_SPEAKER_TAB })
}

/// `{ utcOffset, items: [{ date, label, title, description, passed }] }`; `passed` is the
/// server's answer, which the island re-evaluates with the visitor's clock.
pub fn timeline_props(items: &[TimelineItem], utc_offset: &str) -> Value {
    let items: Vec<Value> = items
        .iter()
        .map(|i| {
            json!({
                "date": i.date,
                "label": i.label,
                "title": i.title,
                "description": i.description,
                "passed": i.passed,
            })
        })
        .collect();
    json!({ "utcOffset": utc_offset, "items": items })
}

/// schema.org `Event` for Google's event rich results: dates with offset, mixed attendance,
/// a physical `Place` and a `VirtualLocation`, organizer, one `Offer` per ticket plan and the
/// speakers as `performer` (`Person` with name, job title and affiliation, read from the
/// speaker's role "Title, Organisation"). Every URL is on `public_url` (PUBLIC_URL): the
/// seed's `virtual_url` gives only the path.
pub fn event_json_ld<'a>(
    site: &Site,
    public_url: &str,
    plans: &[TicketPlan],
    speakers: impl IntoIterator<Item = &'a Speaker>,
) -> Value {
    let base = public_url.trim_end_matches('/');
    let performers: Vec<Value> = speakers
        .into_iter()
        .map(|speaker| {
            let (job_title, affiliation) = match speaker.role.split_once(", ") {
                Some((title, organisation)) => (Some(title.trim()), organisation.trim()),
                None => (None, speaker.role.trim()),
            };
            let mut person = json!({
                "@type": "Person",
                "name": speaker.name,
                "affiliation": { "@type": "Organization", "name": affiliation },
            });
            if let Some(title) = job_title {
                person["jobTitle"] = json!(title);
            }
            person
        })
        .collect();
    let offers: Vec<Value> = plans
        .iter()
        .map(|plan| {
            json!({
                "@type": "Offer",
                "name": plan.title,
                "price": money::format_cents(plan.price_cents),
                "priceCurrency": plan.currency,
                "availability": "https://schema.org/InStock",
                "url": format!("{base}/pricing"),
                "validFrom": "2024-10-01T00:00:00+08:00",
            })
        })
        .collect();
    json!({
        "@context": "https://schema.org",
        "@type": "Event",
        "name": site.name,
        "description": site.description,
        "startDate": format!("{}T09:00:00{}", site.start_date, site.utc_offset),
        "endDate": format!("{}T18:00:00{}", site.end_date, site.utc_offset),
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": "https://schema.org/MixedEventAttendanceMode",
        "location": [
            venue_place(site, &site.venue_name),
            { "@type": "VirtualLocation", "url": on_base(base, &site.virtual_url) }
        ],
        "image": [format!("{base}{}", site.og_image)],
        "organizer": { "@type": "Organization", "name": site.organizer_name, "url": site.organizer_url },
        "offers": offers,
        "performer": performers,
        "url": format!("{base}/"),
    })
}
