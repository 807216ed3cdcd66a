//! `/`: the home page (spec section 2, Home); what it shows is `crate::views::pages::home`.

use axum::extract::{Request, State};
use axum::response::Response;

use crate::error::AppError;
use crate::handlers::render::{MinutePage, PAGE, html};
use crate::handlers::state::AppState;
use crate::views::layout::PageCtx;
use crate::views::pages::home::home_page;

/// GET `/`: cached per minute, since it shows the countdown and the timeline's past marks.
/// `/`, cached per minute: the countdown and the timeline's past marks show the clock.
pub const MINUTE_PAGE: MinutePage = MinutePage { route: "/", kind: PAGE, render };

pub async fn home(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    MINUTE_PAGE.serve(&state, request.headers()).await
}

/// The home page's HTML from the snapshot at `page.now`.
pub fn render(page: &PageCtx<'_>) -> Result<String, AppError> {
    html(&home_page(page)?)
}
