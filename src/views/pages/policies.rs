//! What a policy page shows: cancellation, terms, privacy, cookies; terms and privacy show
//! their sections as an accordion (spec section 2).

use askama::Template;

use crate::clock::dates;
use crate::error::AppError;
use crate::repo::content::{Policy, PolicySection, paragraphs};
use crate::views::layout::{Block, Layout, Meta, PageCtx};

/// A policy page as drawn (`templates/pages/policy.html`).
#[derive(Template)]
#[template(path = "pages/policy.html")]
pub struct PolicyPage {
    pub layout: Layout,
    pub policy: Policy,
    pub updated: String,
    pub sections: Block<Vec<PolicySection>>,
    /// Sections as an accordion (terms, privacy) rather than one long text.
    pub accordion: bool,
}

impl PolicyPage {
    /// A section's body as paragraphs.
    pub fn paragraphs(&self, body: &str) -> Vec<String> {
        paragraphs(body)
    }
}

/// The policy `slug`'s page, its sections as an accordion when `accordion`.
///
/// Errors: the site's 404 for a policy the content does not have; the site row is not loaded.
pub fn policy_page(page: &PageCtx<'_>, slug: &str, accordion: bool) -> Result<PolicyPage, AppError> {
    let (policy, sections) = page.content.policy(slug).ok_or_else(|| AppError::NotFound(String::new()))?;
    let layout = Layout::new(page, |site| {
        Meta::new(format!("{} | {}", policy.name, site.short_name), policy.summary.clone(), policy.link.clone())
            .article()
    })?;
    Ok(PolicyPage {
        layout,
        updated: dates::long(&policy.updated),
        policy: policy.clone(),
        sections: sections.map(<[PolicySection]>::to_vec),
        accordion,
    })
}
