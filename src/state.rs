//! Shared application state, handed to handlers through axum's `State`.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::assets::IslandTags;
use crate::config::Config;
use crate::db::Pool;

#[derive(Clone)]
pub struct AppState {
    pub pool: Pool,
    pub config: Arc<Config>,
    pub islands: Arc<IslandTags>,
}

impl AppState {
    pub fn new(pool: Pool, config: Config) -> Self {
        AppState { pool, config: Arc::new(config), islands: Arc::new(IslandTags::from_manifest()) }
    }
}

impl FromRef<AppState> for Pool {
    fn from_ref(state: &AppState) -> Self {
        state.pool.clone()
    }
}
