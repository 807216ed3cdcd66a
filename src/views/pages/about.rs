//! What the pages about the event show: `/AboutUs`, `/AboutConference`, `/awards`,
//! `/sponsorship`, `/venue`, from the content snapshot.

use askama::Template;
use serde_json::{Value, json};

use crate::base::money;
use crate::error::AppError;
use crate::repo::content::{self, Attraction, Item, Material, Partner, SponsorPackage, Statistic};
use crate::views::layout::{Block, Layout, Meta, PageCtx};

/// Drawn by `templates/pages/about_us.html`.
#[derive(Template)]
#[template(path = "pages/about_us.html")]
pub struct AboutUsPage {
    pub layout: Layout,
    pub why_attend: Block<Vec<Item>>,
    pub who_can_attend: Block<Vec<Item>>,
    pub partners: Block<Vec<Partner>>,
    pub impact: Block<Vec<Statistic>>,
}

/// `/AboutUs` from the content snapshot.
///
/// Errors: the site row is not loaded.
pub fn about_us_page(page: &PageCtx<'_>) -> Result<AboutUsPage, AppError> {
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
    Ok(AboutUsPage {
        layout,
        why_attend: content.why_attend.clone(),
        who_can_attend: content.who_can_attend.clone(),
        partners: content.partners.clone(),
        impact: content.impact_statistics.clone(),
    })
}

/// Drawn by `templates/pages/about_conference.html`.
#[derive(Template)]
#[template(path = "pages/about_conference.html")]
pub struct AboutConferencePage {
    pub layout: Layout,
    pub why_attend: Block<Vec<Item>>,
    pub who_can_attend: Block<Vec<Item>>,
    pub materials: Block<Vec<Material>>,
}

/// `/AboutConference` from the content snapshot.
///
/// Errors: the site row is not loaded.
pub fn about_conference_page(page: &PageCtx<'_>) -> Result<AboutConferencePage, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("About the Conference | {}", site.short_name),
            format!("Overview of {}: why attend, who can attend, and how to register.", site.name),
            "/AboutConference",
        )
    })?;
    let content = page.content;
    Ok(AboutConferencePage {
        layout,
        why_attend: content.why_attend.clone(),
        who_can_attend: content.who_can_attend.clone(),
        materials: content.materials.clone(),
    })
}

/// Drawn by `templates/pages/awards.html`.
#[derive(Template)]
#[template(path = "pages/awards.html")]
pub struct AwardsPage {
    pub layout: Layout,
    pub main_awards: Block<Vec<Item>>,
    pub sustainability_awards: Block<Vec<Item>>,
}

/// `/awards` from the content snapshot.
///
/// Errors: the site row is not loaded.
pub fn awards_page(page: &PageCtx<'_>) -> Result<AwardsPage, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("Awards | {}", site.short_name),
            format!("Best paper, presentation and sustainability awards at {}. Nominate now.", site.short_name),
            "/awards",
        )
    })?;
    Ok(AwardsPage {
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

/// Drawn by `templates/pages/sponsorship.html`.
#[derive(Template)]
#[template(path = "pages/sponsorship.html")]
pub struct SponsorshipPage {
    pub layout: Layout,
    pub packages: Block<Vec<PackageCard>>,
    pub prospectus: Option<Material>,
}

/// `/sponsorship`'s page; `selected` is the package a card's 'Sponsor now' link named
/// without JavaScript (`?package=`), whose card then says how to sponsor anyway.
pub fn sponsorship_page(page: &PageCtx<'_>, selected: Option<&str>) -> Result<SponsorshipPage, AppError> {
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
                selected: selected == Some(p.id.as_str()),
                package: p,
            })
            .collect()
    });
    Ok(SponsorshipPage { packages, prospectus, layout })
}

/// Drawn by `templates/pages/venue.html`.
#[derive(Template)]
#[template(path = "pages/venue.html")]
pub struct VenuePage {
    pub layout: Layout,
    pub attractions: Block<Vec<Attraction>>,
}

/// `/venue` from the content snapshot.
///
/// Errors: the site row is not loaded.
pub fn venue_page(page: &PageCtx<'_>) -> Result<VenuePage, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("Venue | {}", site.short_name),
            format!("{}, {}: map, directions and nearby attractions.", site.venue_name, site.city),
            "/venue",
        )
    })?;
    Ok(VenuePage { layout, attractions: page.content.attractions.clone() })
}
