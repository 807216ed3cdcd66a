//! GET `/api/collections/{name}/records`: the content collections, read-only, in the list
//! shape of the old content backend (DESIGN.md section 5).

use std::collections::HashMap;

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::Serialize;
use serde_json::Value;

use crate::content::collections;
use crate::error::{ApiResult, AppError};
use crate::handlers::state::AppState;

/// Largest page a client may ask for (the old backend's batch size, spec section 9).
pub const MAX_PER_PAGE: i64 = 500;
/// Page size when `perPage` is absent (the old backend's default).
pub const DEFAULT_PER_PAGE: i64 = 30;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordList {
    pub page: i64,
    pub per_page: i64,
    pub total_items: i64,
    pub total_pages: i64,
    pub items: Vec<Value>,
}

/// `page` (from 1), `perPage` (1..=500) and `sort` (e.g. `-created`); anything else is
/// ignored, as the old backend did. A bad value is a 400 naming the parameter.
pub async fn records(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(params): Query<HashMap<String, String>>,
) -> ApiResult<Json<RecordList>> {
    let collection =
        collections::find(&name).ok_or_else(|| AppError::NotFound(format!("Collection '{name}' not found")))?;
    let page = integer(&params, "page", 1)?;
    if page < 1 {
        return Err(AppError::BadRequest("page must be 1 or more".into()).into());
    }
    let per_page = integer(&params, "perPage", DEFAULT_PER_PAGE)?;
    if !(1..=MAX_PER_PAGE).contains(&per_page) {
        return Err(AppError::BadRequest(format!("perPage must be between 1 and {MAX_PER_PAGE}")).into());
    }
    let sort = params.get("sort").map(String::as_str).unwrap_or("");
    let keys =
        collection.sort_keys(sort).map_err(|field| AppError::BadRequest(format!("Cannot sort {name} by '{field}'")))?;
    let snapshot = state.content.snapshot().await;
    let records = match snapshot.collections.get(collection.name) {
        Some(Ok(records)) => records,
        _ => return Err(AppError::internal("collections", format!("{name} is not loaded")).into()),
    };
    let mut sorted: Vec<&Value> = records.iter().collect();
    collections::sort(&mut sorted, &keys);
    let total_items = i64::try_from(sorted.len()).unwrap_or(i64::MAX);
    let offset = usize::try_from((page - 1).saturating_mul(per_page)).unwrap_or(usize::MAX);
    let items =
        sorted.into_iter().skip(offset).take(usize::try_from(per_page).unwrap_or(0)).cloned().collect::<Vec<Value>>();
    Ok(Json(RecordList { page, per_page, total_items, total_pages: (total_items + per_page - 1) / per_page, items }))
}

fn integer(params: &HashMap<String, String>, key: &str, default: i64) -> Result<i64, AppError> {
    match params.get(key) {
        None => Ok(default),
        Some(raw) => raw.trim().parse().map_err(|_| AppError::BadRequest(format!("{key} must be a whole number"))),
    }
}
