//! `GET /organiser`: the dashboard for a signed-in organiser, the sign-in page for anyone
//! else (DESIGN.md section 12): submissions by paper type this week and in all, messages,
//! orders by state with the paid totals (test-mode orders apart), subscribers, whether mail
//! goes out (with each failing mail's last error), this organiser's open sessions and the
//! latest audit entries.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::session;
use super::sign_in::{layout, sign_in_page};
use crate::clock::stamp::timestamp;
use crate::error::AppError;
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::repo::audit;
use crate::repo::dashboard::Counts;
use crate::repo::organisers as store;
use crate::sign_in::roles::Role;
use crate::views::organiser::dashboard::DashboardPage;

/// Audit entries the dashboard shows.
const LATEST_ENTRIES: i64 = 10;

/// The dashboard's counts as of now, from the server's
/// [`CountCache`](crate::repo::dashboard::CountCache); every list's page takes its summary
/// and, where they hold it, its number of rows from them.
pub async fn counts(state: &AppState) -> Result<Arc<Counts>, sqlx::Error> {
    state.counts.get(&state.pool, &week_ago(state), false).await
}

/// When "this week" starts: 7 days ago, to the minute, so that one count serves a minute's
/// views of the dashboard.
fn week_ago(state: &AppState) -> String {
    timestamp(crate::clock::minute_start(state.clock.now()) - time::Duration::days(7))
}

/// GET `/organiser`.
pub async fn home(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    let (parts, _) = request.into_parts();
    let organiser = match session::authenticate(&parts, &state).await? {
        session::Access::Organiser(organiser) => organiser,
        session::Access::None => {
            return sign_in_page(&state, Role::Organiser, StatusCode::OK, None, None, String::new()).await;
        }
        session::Access::OtherRole => return Ok(session::not_found()),
    };
    let pool = &state.pool;
    let page = DashboardPage {
        layout: layout(&state, "Organisers", session::HOME).await?,
        counts: state.counts.get(pool, &week_ago(&state), true).await?,
        sessions: store::sessions_of(pool, &organiser.email).await?,
        current_session: organiser.session,
        entries: audit::latest(pool, LATEST_ENTRIES).await?,
        check_ins: crate::repo::check_ins::counts(pool).await?,
        zone: state.event_zone().await,
        email: organiser.email,
    };
    render(StatusCode::OK, &page)
}
