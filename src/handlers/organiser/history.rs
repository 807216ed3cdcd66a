//! An item's history on its page (`crate::views::organiser::detail::DetailPage`): the audit
//! log's entries about it, read for the page ([`HistoryEntry::of`]).

use crate::views::organiser::history::HistoryEntry;

/// The history of an item (`object_type`, `object_id` as the audit log names it).
pub async fn history(
    state: &crate::handlers::state::AppState,
    object_type: &str,
    object_id: &str,
) -> Result<Vec<HistoryEntry>, crate::error::AppError> {
    let entries = crate::repo::audit::of_object(&state.pool, object_type, object_id).await?;
    let zone = state.event_zone().await;
    Ok(entries.into_iter().map(|entry| HistoryEntry::of(entry, &zone)).collect())
}
