//! Policy pages: `/cancellation-policy`, `/Terms-&-Conditions`, `/Privacy-Policy`,
//! `/cookie-policy`. Terms and privacy show their sections as an accordion (spec section 2).

use axum::extract::{Request, State};
use axum::response::Response;

use crate::cache::pages::ClockUse;
use crate::error::AppError;
use crate::handlers::render::{cached, html};
use crate::handlers::state::AppState;
use crate::views::layout::PageCtx;
use crate::views::pages::policies as policy;

/// A policy page; an unknown policy (not in the content) is the site's 404.
/// Cached under the page's canonical `route`, so both spellings of the terms' path share one
/// entry, which `crate::http::cache_hits` finds for either.
async fn policy_page(
    state: &AppState,
    request: Request,
    route: &str,
    slug: &str,
    accordion: bool,
) -> Result<Response, AppError> {
    let snapshot = state.content.snapshot().await;
    if snapshot.policy(slug).is_none() {
        return Err(AppError::NotFound(String::new()));
    }
    let (parts, _) = request.into_parts();
    cached(state, &parts.headers, route, ClockUse::Year, |page| render_policy(page, slug, accordion)).await
}

pub fn render_policy(page: &PageCtx<'_>, slug: &str, accordion: bool) -> Result<String, AppError> {
    html(&policy::policy_page(page, slug, accordion)?)
}

pub async fn cancellation(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    policy_page(&state, request, "/cancellation-policy", "cancellation-policy", false).await
}

pub async fn terms(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    policy_page(&state, request, "/Terms-&-Conditions", "terms-and-conditions", true).await
}

pub async fn privacy(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    policy_page(&state, request, "/Privacy-Policy", "privacy-policy", true).await
}

pub async fn cookies(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    policy_page(&state, request, "/cookie-policy", "cookie-policy", false).await
}
