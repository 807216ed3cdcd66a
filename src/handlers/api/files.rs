//! GET `/api/files/{collectionId}/{id}/{filename}`: a conference material as a download.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::Response;

use crate::cache::assets::Materials;
use crate::error::{ApiResult, AppError};
use crate::handlers::state::AppState;

/// Serves the file only when `filename` is exactly the `link` the record names; the file
/// comes from the embedded materials, so no path can reach anything else.
pub async fn file(
    State(state): State<AppState>,
    Path((collection_id, id, filename)): Path<(String, String, String)>,
) -> ApiResult<Response> {
    let not_found = || AppError::NotFound("File not found".into());
    if collection_id != "download_buttons" {
        return Err(not_found().into());
    }
    let snapshot = state.content.snapshot().await;
    let material = snapshot.material(&id).ok_or_else(not_found)?;
    if material.link != filename {
        return Err(not_found().into());
    }
    let file = Materials::get(&material.link).ok_or_else(|| {
        tracing::error!(link = %material.link, "material named in download_buttons is missing from static/materials");
        not_found()
    })?;
    let mut response = Response::new(Body::from(file.data.into_owned()));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(file.metadata.mimetype()).expect("mime type"));
    let disposition = format!("attachment; filename=\"{}\"", material.link.replace(['"', '\\'], "_"));
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&disposition).unwrap_or(HeaderValue::from_static("attachment")),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600"));
    Ok(response)
}
