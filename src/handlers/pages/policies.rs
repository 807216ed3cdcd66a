//! Policy pages: `/cancellation-policy`, `/Terms-&-Conditions`, `/Privacy-Policy`,
//! `/cookie-policy`. Terms and privacy show their sections as an accordion (spec section 2).

use askama::Template;
use axum::extract::State;
use axum::response::Response;

use crate::dates;
use crate::error::AppError;
use crate::handlers::page;
use crate::layout::{Block, Layout, Meta, block};
use crate::repo::content::{self, Policy, PolicySection, paragraphs};
use crate::state::AppState;

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
    pub fn paragraphs(&self, body: &str) -> Vec<String> {
        paragraphs(body)
    }
}

async fn policy_page(state: &AppState, slug: &str, accordion: bool) -> Result<Response, AppError> {
    let policy = content::policy(&state.pool, slug).await?.ok_or_else(|| AppError::NotFound(String::new()))?;
    let sections = content::policy_sections(&state.pool, slug).await;
    let layout = Layout::load(state, |site| {
        Meta::new(format!("{} | {}", policy.name, site.short_name), policy.summary.clone(), policy.link.clone())
            .article()
    })
    .await?;
    page(&PolicyPage {
        layout,
        updated: dates::long(&policy.updated),
        policy,
        sections: block("policy_sections", sections),
        accordion,
    })
}

pub async fn cancellation(State(state): State<AppState>) -> Result<Response, AppError> {
    policy_page(&state, "cancellation-policy", false).await
}

pub async fn terms(State(state): State<AppState>) -> Result<Response, AppError> {
    policy_page(&state, "terms-and-conditions", true).await
}

pub async fn privacy(State(state): State<AppState>) -> Result<Response, AppError> {
    policy_page(&state, "privacy-policy", true).await
}

pub async fn cookies(State(state): State<AppState>) -> Result<Response, AppError> {
    policy_page(&state, "cookie-policy", false).await
}
