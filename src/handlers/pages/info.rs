//! Programme and participation pages: `/committee`, `/gallery`, `/schedule`, `/pricing`,
//! `/submission` and `/highlights/{slug}`.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;

use crate::dates;
use crate::error::AppError;
use crate::handlers::page;
use crate::layout::{Block, Layout, Meta, block};
use crate::money;
use crate::repo::content::{self, COMMITTEE_GROUPS, CommitteeMember, GalleryImage, Highlight, Item, ScheduleEntry, TicketPlan};
use crate::state::AppState;

/// Members of one committee group.
pub struct CommitteeGroup {
    pub name: &'static str,
    pub members: Vec<CommitteeMember>,
}

#[derive(Template)]
#[template(path = "pages/committee.html")]
pub struct CommitteePage {
    pub layout: Layout,
    /// Groups in the spec's order; empty groups are left out.
    pub groups: Block<Vec<CommitteeGroup>>,
}

pub async fn committee(State(state): State<AppState>) -> Result<Response, AppError> {
    let layout = Layout::load(&state, |site| {
        Meta::new(
            format!("Organising Committee | {}", site.short_name),
            format!("The core committee and advisory boards of {}.", site.name),
            "/committee",
        )
    })
    .await?;
    let members = content::committee(&state.pool).await;
    let groups = members.map(|members| {
        COMMITTEE_GROUPS
            .iter()
            .map(|name| CommitteeGroup {
                name,
                members: members.iter().filter(|m| m.committee == *name).cloned().collect(),
            })
            .filter(|g| !g.members.is_empty())
            .collect()
    });
    page(&CommitteePage { layout, groups: block("committee", groups) })
}

#[derive(Template)]
#[template(path = "pages/gallery.html")]
pub struct GalleryPage {
    pub layout: Layout,
    pub images: Block<Vec<GalleryImage>>,
}

pub async fn gallery(State(state): State<AppState>) -> Result<Response, AppError> {
    let layout = Layout::load(&state, |site| {
        Meta::new(
            format!("Gallery | {}", site.short_name),
            format!("Photos from {}: sessions, workshops and delegates.", site.short_name),
            "/gallery",
        )
    })
    .await?;
    let images = content::gallery(&state.pool).await;
    page(&GalleryPage { layout, images: block("gallery", images) })
}

/// The entries of one conference day.
pub struct ScheduleDay {
    pub date: String,
    pub label: String,
    pub entries: Vec<ScheduleEntry>,
}

#[derive(Template)]
#[template(path = "pages/schedule.html")]
pub struct SchedulePage {
    pub layout: Layout,
    /// Grouped by date (spec section 3: fetched and grouped by date).
    pub days: Block<Vec<ScheduleDay>>,
}

pub async fn schedule(State(state): State<AppState>) -> Result<Response, AppError> {
    let layout = Layout::load(&state, |site| {
        Meta::new(
            format!("Schedule | {}", site.short_name),
            format!("Day-by-day programme of {}: keynotes, sessions and workshops.", site.short_name),
            "/schedule",
        )
    })
    .await?;
    let entries = content::schedule(&state.pool).await;
    let days = entries.map(|entries| {
        let mut days: Vec<ScheduleDay> = Vec::new();
        for entry in entries {
            match days.last_mut() {
                Some(day) if day.date == entry.date => day.entries.push(entry),
                _ => days.push(ScheduleDay { label: dates::long(&entry.date), date: entry.date.clone(), entries: vec![entry] }),
            }
        }
        days
    });
    page(&SchedulePage { layout, days: block("schedule", days) })
}

/// A ticket plan with its display price.
pub struct PlanCard {
    pub plan: TicketPlan,
    pub price: String,
}

impl PlanCard {
    pub fn features(&self) -> Vec<&str> {
        content::lines(&self.plan.features)
    }
}

#[derive(Template)]
#[template(path = "pages/pricing.html")]
pub struct PricingPage {
    pub layout: Layout,
    pub presenter: Block<Vec<PlanCard>>,
    pub listener: Block<Vec<PlanCard>>,
    pub steps: Block<Vec<Item>>,
}

pub async fn pricing(State(state): State<AppState>) -> Result<Response, AppError> {
    let layout = Layout::load(&state, |site| {
        Meta::new(
            format!("Registration & Tickets | {}", site.short_name),
            format!(
                "Register for {}: presenter and listener tickets, virtual or in person, and custom payments.",
                site.short_name
            ),
            "/pricing",
        )
    })
    .await?;
    let (plans, steps) = tokio::join!(content::ticket_plans(&state.pool), content::about_items(&state.pool, "registration_step"));
    let cards = |audience: &str, plans: &Result<Vec<TicketPlan>, sqlx::Error>| match plans {
        Ok(plans) => Ok(plans
            .iter()
            .filter(|p| p.audience == audience)
            .map(|p| PlanCard { price: money::format_display(p.price_cents, &p.currency), plan: p.clone() })
            .collect()),
        Err(_) => Err(crate::layout::BlockError),
    };
    if let Err(err) = &plans {
        tracing::error!(error = %err, "ticket plans failed to load");
    }
    page(&PricingPage {
        presenter: cards("presenter", &plans),
        listener: cards("listener", &plans),
        steps: block("registration steps", steps),
        layout,
    })
}

#[derive(Template)]
#[template(path = "pages/submission.html")]
pub struct SubmissionPage {
    pub layout: Layout,
    pub paper_due: String,
}

/// conferenceSource options of the paper form (spec section 5), value and label.
pub const CONFERENCE_SOURCES: [(&str, &str); 9] = [
    ("conference-alerts", "Conference Alerts"),
    ("email", "Email"),
    ("friend-colleague-supervisor", "Friend / Colleague / Supervisor"),
    ("conference-alarm", "Conference Alarm"),
    ("facebook", "Facebook"),
    ("google-search", "Google Search"),
    ("eventbrite", "Eventbrite"),
    ("linkedin", "LinkedIn"),
    ("others", "Others"),
];

impl SubmissionPage {
    pub fn sources(&self) -> &'static [(&'static str, &'static str)] {
        &CONFERENCE_SOURCES
    }
}

pub async fn submission(State(state): State<AppState>) -> Result<Response, AppError> {
    let layout = Layout::load(&state, |site| {
        Meta::new(
            format!("Paper Submission | {}", site.short_name),
            format!(
                "Submit your abstract or full paper to {} by {}. Guidelines and online submission form.",
                site.short_name,
                dates::long(&site.paper_due_date)
            ),
            "/submission",
        )
    })
    .await?;
    let paper_due = dates::long(&layout.site.paper_due_date);
    page(&SubmissionPage { layout, paper_due })
}

#[derive(Template)]
#[template(path = "pages/highlight.html")]
pub struct HighlightPage {
    pub layout: Layout,
    pub highlight: Highlight,
    pub topics: Block<Vec<Item>>,
}

/// `/highlights/{slug}`; an unknown slug is a 404 reading 'Highlight not found'.
pub async fn highlight(State(state): State<AppState>, Path(slug): Path<String>) -> Result<Response, AppError> {
    let highlight = content::highlight(&state.pool, &slug)
        .await?
        .ok_or_else(|| AppError::NotFound("Highlight not found".into()))?;
    let topics = content::highlight_topics(&state.pool, &slug).await;
    let layout = Layout::load(&state, |site| {
        Meta::new(
            format!("{} | {}", highlight.title, site.short_name),
            highlight.summary.clone(),
            format!("/highlights/{}", highlight.slug),
        )
        .article()
    })
    .await?;
    page(&HighlightPage { layout, highlight, topics: block("highlight_topics", topics) })
}
