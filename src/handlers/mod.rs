//! HTTP handlers, one module per area; `crate::routes` lists every route.

pub mod api;
pub mod pages;

use askama::Template;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

/// Renders a page template as a `text/html` response; its `Cache-Control` comes from
/// `crate::cache_control` (one policy for every page).
pub fn render(status: StatusCode, template: &impl Template) -> Result<Response, AppError> {
    let html = template.render().map_err(|e| AppError::internal("template", e))?;
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    Ok(response)
}

/// [`render`] with status 200.
pub fn page(template: &impl Template) -> Result<Response, AppError> {
    render(StatusCode::OK, template)
}
pub mod seo;
