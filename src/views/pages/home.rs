//! What the home page shows (spec section 2, Home): the countdown, the content's blocks, the
//! speakers by category, the important dates' timeline, the props of its islands and the
//! Event JSON-LD of DESIGN.md section 4.

use askama::Template;
use serde_json::{Value, json};

use crate::clock::dates::{self, Remaining};
use crate::editions::between::has_taken_place;
use crate::error::AppError;
use crate::repo::content::{CoOrganizer, Highlight, Item, Material, Partner, Statistic};
use crate::views::layout::{Block, Layout, Meta, PageCtx};
use crate::views::pages::json_ld::event_json_ld;
use crate::views::pages::shared::{SpeakerGroup, TimelineItem, script_json, speaker_groups, timeline};

/// `/` as drawn (`templates/pages/home.html`).
#[derive(Template)]
#[template(path = "pages/home.html")]
pub struct HomePage {
    pub layout: Layout,
    pub countdown: Remaining,
    pub countdown_props: Value,
    /// Between editions (DESIGN.md section 17): shown in the countdown's place once the
    /// edition is over; `None` while the countdown runs.
    pub took_place: Option<TookPlace>,
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

/// What the home page says once the edition is over (DESIGN.md section 17).
pub struct TookPlace {
    /// `ICSIFT 2025 took place on 21-23 March 2025 in Manila.`
    pub summary: String,
    /// (label, site path) of the past edition's pages. No proceedings page exists yet; one
    /// joins this list when it does.
    pub links: Vec<(&'static str, &'static str)>,
}

/// The past edition's pages the home page links to between editions.
const PAST_EDITION_LINKS: [(&str, &str); 2] = [("See the programme", "/schedule"), ("See the gallery", "/gallery")];

/// The home page from the snapshot at `page.now`: the countdown, the content's blocks, the
/// timeline's past marks and the conference's `Event` JSON-LD.
///
/// Errors: the site row is not loaded.
pub fn home_page(page: &PageCtx<'_>) -> Result<HomePage, AppError> {
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
    let site = &layout.site;
    let took_place = has_taken_place(&site.end_date, &site.countdown_target, &content.zone, now).then(|| TookPlace {
        summary: format!(
            "{} took place on {} in {}.",
            site.short_name,
            dates::range_label(&site.start_date, &site.end_date),
            site.city
        ),
        links: PAST_EDITION_LINKS.to_vec(),
    });
    Ok(HomePage {
        countdown: Remaining::until(&layout.site.countdown_target, now),
        took_place,
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
