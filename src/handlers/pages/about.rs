//! Pages about the event: `/AboutUs`, `/AboutConference`, `/awards`, `/sponsorship`, `/venue`.

use askama::Template;
use axum::extract::{RawQuery, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::AppError;
use crate::handlers::page;
use crate::layout::{Block, Layout, Meta, block};
use crate::money;
use crate::repo::content::{self, Attraction, Item, Material, Partner, SponsorPackage, Statistic};
use crate::state::AppState;

#[derive(Template)]
#[template(path = "pages/about_us.html")]
pub struct AboutUsPage {
    pub layout: Layout,
    pub why_attend: Block<Vec<Item>>,
    pub who_can_attend: Block<Vec<Item>>,
    pub partners: Block<Vec<Partner>>,
    pub impact: Block<Vec<Statistic>>,
}

pub async fn about_us(State(state): State<AppState>) -> Result<Response, AppError> {
    let layout = Layout::load(&state, |site| {
        Meta::new(
            format!("About Us | {}", site.short_name),
            format!(
                "Who organises {} and why: an international hybrid conference endorsed by {}.",
                site.short_name, site.endorsement
            ),
            "/AboutUs",
        )
    })
    .await?;
    let pool = &state.pool;
    let (why, who, partners, impact) = tokio::join!(
        content::about_items(pool, "why_attend"),
        content::about_items(pool, "who_can_attend"),
        content::partners(pool, "partner"),
        content::statistics(pool, "impact"),
    );
    page(&AboutUsPage {
        layout,
        why_attend: block("why_attend", why),
        who_can_attend: block("who_can_attend", who),
        partners: block("partners", partners),
        impact: block("impact statistics", impact),
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

pub async fn about_conference(State(state): State<AppState>) -> Result<Response, AppError> {
    let layout = Layout::load(&state, |site| {
        Meta::new(
            format!("About the Conference | {}", site.short_name),
            format!("Overview of {}: why attend, who can attend, and how to register.", site.name),
            "/AboutConference",
        )
    })
    .await?;
    let pool = &state.pool;
    let (why, who, materials) = tokio::join!(
        content::about_items(pool, "why_attend"),
        content::about_items(pool, "who_can_attend"),
        content::materials(pool),
    );
    page(&AboutConferencePage {
        layout,
        why_attend: block("why_attend", why),
        who_can_attend: block("who_can_attend", who),
        materials: block("download_buttons", materials),
    })
}

#[derive(Template)]
#[template(path = "pages/awards.html")]
pub struct AwardsPage {
    pub layout: Layout,
    pub main_awards: Block<Vec<Item>>,
    pub sustainability_awards: Block<Vec<Item>>,
}

pub async fn awards(State(state): State<AppState>) -> Result<Response, AppError> {
    let layout = Layout::load(&state, |site| {
        Meta::new(
            format!("Awards | {}", site.short_name),
            format!("Best paper, presentation and sustainability awards at {}. Nominate now.", site.short_name),
            "/awards",
        )
    })
    .await?;
    let (main, sustainability) =
        tokio::join!(content::awards(&state.pool, "main"), content::awards(&state.pool, "sustainability"));
    page(&AwardsPage {
        layout,
        main_awards: block("awards", main),
        sustainability_awards: block("awards", sustainability),
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

pub async fn sponsorship(State(state): State<AppState>, RawQuery(query): RawQuery) -> Result<Response, AppError> {
    // A malformed query string is ignored rather than refused: this is a page, not an API.
    let query: SponsorshipQuery = query.and_then(|q| serde_urlencoded::from_str(&q).ok()).unwrap_or_default();
    let layout = Layout::load(&state, |site| {
        Meta::new(
            format!("Sponsorship | {}", site.short_name),
            format!(
                "Sponsor {}: Platinum, Diamond, Gold and Silver packages and custom partnerships.",
                site.short_name
            ),
            "/sponsorship",
        )
    })
    .await?;
    let (packages, materials) = tokio::join!(content::sponsor_packages(&state.pool), content::materials(&state.pool));
    let prospectus = materials.unwrap_or_default().into_iter().find(|m| m.title.to_lowercase().contains("prospectus"));
    let contact_email = &layout.site.contact_email;
    let packages = packages.map(|packages| {
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
    page(&SponsorshipPage { packages: block("sponsor_packages", packages), prospectus, layout })
}

#[derive(Template)]
#[template(path = "pages/venue.html")]
pub struct VenuePage {
    pub layout: Layout,
    pub attractions: Block<Vec<Attraction>>,
}

pub async fn venue(State(state): State<AppState>) -> Result<Response, AppError> {
    let layout = Layout::load(&state, |site| {
        Meta::new(
            format!("Venue | {}", site.short_name),
            format!("{}, {}: map, directions and nearby attractions.", site.venue_name, site.city),
            "/venue",
        )
    })
    .await?;
    let attractions = content::attractions(&state.pool).await;
    page(&VenuePage { layout, attractions: block("attractions", attractions) })
}
