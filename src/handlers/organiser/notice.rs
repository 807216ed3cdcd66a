//! The organiser area's answer to a refused form (DESIGN.md section 12): a notice page that
//! says why, in the refusal's own status, with links on from there, instead of the visitors'
//! error page. Every organiser POST handler that answers a 303 when it is done answers a
//! refusal through [`or_notice_page`].

use axum::response::Response;

use super::sign_in::layout;
use crate::error::AppError;
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::views::organiser::shared::NoticePage;

/// `result`, with a refused form (400, 404, 409 or 422) shown as an organiser notice page
/// under `area` (the navigation's current section) with `links` on from there, the first the
/// main one. Anything else, a 500 above all, stays the site's.
pub async fn or_notice_page(
    state: &AppState,
    area: &str,
    result: Result<Response, AppError>,
    links: Vec<(String, String)>,
) -> Result<Response, AppError> {
    let err = match result {
        Ok(response) => return Ok(response),
        Err(
            err @ (AppError::BadRequest(_)
            | AppError::NotFound(_)
            | AppError::Conflict(_)
            | AppError::Unprocessable { .. }),
        ) => err,
        Err(other) => return Err(other),
    };
    let heading = if matches!(err, AppError::NotFound(_)) { "Not found" } else { "Nothing was changed" };
    let page = NoticePage {
        layout: layout(state, heading, area).await?,
        heading: heading.to_owned(),
        message: err.public_message(),
        role: "alert",
        links,
    };
    render(err.status(), &page)
}
