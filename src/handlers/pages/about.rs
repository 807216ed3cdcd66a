//! Pages about the event: `/AboutUs`, `/AboutConference`, `/awards`, `/sponsorship`, `/venue`.

use askama::Template;
use axum::extract::{RawQuery, Request, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::base::money;
use crate::cache::pages::ClockUse;
use crate::error::AppError;
use crate::handlers::render::{cached, html, html_response};
use crate::handlers::state::AppState;
use crate::repo::content::{self, Attraction, Item, Material, Partner, SponsorPackage, Statistic};
use crate::views::layout::{Block, Layout, Meta, PageCtx};

#[derive(Template)]
#[template(path = "pages/about_us.html")]
pub struct AboutUsPage {
    pub layout: Layout,
    pub why_attend: Block<Vec<Item>>,
    pub who_can_attend: Block<Vec<Item>>,
    pub partners: Block<Vec<Partner>>,
    pub impact: Block<Vec<Statistic>>,
}

pub async fn about_us(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/AboutUs", ClockUse::Year, render_about_us).await
}

pub fn render_about_us(page: &PageCtx<'_>) -> Result<String, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("About Us | {}", site.short_name),
            format!(
                "Who organises {} and why: an international hybrid conference endorsed by {}.",
                site.short_name, site.endorsement
            ),
            "/AboutUs",
        )
    })?;
    let content = page.content;
    html(&AboutUsPage {
        layout,
        why_attend: content.why_attend.clone(),
        who_can_attend: content.who_can_attend.clone(),
        partners: content.partners.clone(),
        impact: content.impact_statistics.clone(),
    })
}

#[derive(Template)]
#[template(path = "pages/about_conference.html")]
pub struct AboutConferencePage {
    pub layout: Layout,
    pub why_attend: Block<Vec<Item>>,
    pub who_can_attend: Block<Vec<Item>>,
    pub materials: Block<Vec<Material>>,
}

pub async fn about_conference(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/AboutConference", ClockUse::Year, render_about_conference).await
}

pub fn render_about_conference(page: &PageCtx<'_>) -> Result<String, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("About the Conference | {}", site.short_name),
            format!("Overview of {}: why attend, who can attend, and how to register.", site.name),
            "/AboutConference",
        )
    })?;
    let content = page.content;
    html(&AboutConferencePage {
        layout,
        why_attend: content.why_attend.clone(),
        who_can_attend: content.who_can_attend.clone(),
        materials: content.materials.clone(),
    })
}

#[derive(Template)]
#[template(path = "pages/awards.html")]
pub struct AwardsPage {
    pub layout: Layout,
    pub main_awards: Block<Vec<Item>>,
    pub sustainability_awards: Block<Vec<Item>>,
}

pub async fn awards(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/awards", ClockUse::Year, render_awards).await
}

pub fn render_awards(page: &PageCtx<'_>) -> Result<String, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("Awards | {}", site.short_name),
            format!("Best paper, presentation and sustainability awards at {}. Nominate now.", site.short_name),
            "/awards",
        )
    })?;
    html(&AwardsPage {
        layout,
        main_awards: page.content.main_awards.clone(),
        sustainability_awards: page.content.sustainability_awards.clone(),
    })
}

/// A sponsor package with what its card needs.
pub struct PackageCard {
    pub package: SponsorPackage,
    pub price: String,
    /// Props of its `SponsorCheckout` island: the package id the payment API takes, the title,
    /// the price in cents and the currency (display only: the server charges its own price).
    pub props: Value,
    /// The visitor followed this card's 'Sponsor now' link without JavaScript.
    pub selected: bool,
}

impl PackageCard {
    pub fn benefits(&self) -> Vec<&str> {
        content::lines(&self.package.benefits)
    }
}

#[derive(Template)]
#[template(path = "pages/sponsorship.html")]
pub struct SponsorshipPage {
    pub layout: Layout,
    pub packages: Block<Vec<PackageCard>>,
    pub prospectus: Option<Material>,
}

/// Query of `/sponsorship`: a card's 'Sponsor now' link without JavaScript sends `package`.
#[derive(Debug, Default, Deserialize)]
struct SponsorshipQuery {
    package: Option<String>,
}

/// GET `/sponsorship`: cached when it has no query; `?package=` is rendered per request.
pub async fn sponsorship(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Result<Response, AppError> {
    match query.filter(|q| !q.is_empty()) {
        None => {
            cached(&state, request.headers(), "/sponsorship", ClockUse::Year, |p| render_sponsorship(p, None)).await
        }
        Some(query) => {
            let snapshot = state.content.snapshot().await;
            let body = render_sponsorship(&state.page_ctx(&snapshot), Some(&query))?;
            Ok(html_response(StatusCode::OK, body))
        }
    }
}

/// `/sponsorship`'s HTML; `query` is the raw query string when there is one.
pub fn render_sponsorship(page: &PageCtx<'_>, query: Option<&str>) -> Result<String, AppError> {
    // A malformed query string is ignored rather than refused: this is a page, not an API.
    let query: SponsorshipQuery = query.and_then(|q| serde_urlencoded::from_str(q).ok()).unwrap_or_default();
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("Sponsorship | {}", site.short_name),
            format!(
                "Sponsor {}: Platinum, Diamond, Gold and Silver packages and custom partnerships.",
                site.short_name
            ),
            "/sponsorship",
        )
    })?;
    let prospectus = page
        .content
        .materials
        .as_ref()
        .ok()
        .and_then(|materials| materials.iter().find(|m| m.title.to_lowercase().contains("prospectus")))
        .cloned();
    let contact_email = &layout.site.contact_email;
    let packages = page.content.sponsor_packages.clone().map(|packages| {
        packages
            .into_iter()
            .map(|p| PackageCard {
                price: money::format_display(p.price_cents, &p.currency),
                props: json!({
                    "sponsorPackage": p.id,
                    "title": p.title,
                    "amountCents": p.price_cents,
                    "currency": p.currency,
                    "contactEmail": contact_email,
                }),
                selected: query.package.as_deref() == Some(p.id.as_str()),
                package: p,
            })
            .collect()
    });
    html(&SponsorshipPage { packages, prospectus, layout })
}

#[derive(Template)]
#[template(path = "pages/venue.html")]
pub struct VenuePage {
    pub layout: Layout,
    pub attractions: Block<Vec<Attraction>>,
}

pub async fn venue(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/venue", ClockUse::Year, render_venue).await
}

pub fn render_venue(page: &PageCtx<'_>) -> Result<String, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("Venue | {}", site.short_name),
            format!("{}, {}: map, directions and nearby attractions.", site.venue_name, site.city),
            "/venue",
        )
    })?;
    html(&VenuePage { layout, attractions: page.content.attractions.clone() })
}
