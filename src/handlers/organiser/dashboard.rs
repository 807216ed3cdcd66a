//! `GET /organiser`: the dashboard for a signed-in organiser, the sign-in page for anyone
//! else (DESIGN.md section 12): submissions by paper type this week and in all, messages,
//! orders by state with the paid totals (test-mode orders apart), subscribers, whether mail
//! goes out (with each failing mail's last error), this organiser's open sessions and the
//! latest audit entries.

use askama::Template;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::session;
use super::sign_in::{layout, sign_in_page};
use crate::error::AppError;
use crate::handlers::layout::Layout;
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::mail::outbox::timestamp;
use crate::money;
use crate::repo::audit::{self, Entry};
use crate::repo::dashboard::{self, FailingMail, OrderCount, PaidTotal, PaperTypeCount, StatusCount};
use crate::repo::organisers::{self as store, Session};

/// Audit entries the dashboard shows.
const LATEST_ENTRIES: i64 = 10;
/// Failing mails the dashboard shows.
const FAILING_MAILS: i64 = 10;

#[derive(Template)]
#[template(path = "organiser/dashboard.html")]
pub struct DashboardPage {
    pub layout: Layout,
    pub email: String,
    pub papers: Vec<PaperTypeCount>,
    /// Submissions per state (issue 21).
    pub states: Vec<StatusCount>,
    /// Decisions staged, not applied.
    pub pending: i64,
    pub messages: i64,
    /// Messages no organiser has opened yet.
    pub unread: i64,
    pub orders: Vec<OrderCount>,
    pub paid: Vec<PaidTotal>,
    pub subscribers: Vec<StatusCount>,
    pub outbox: Vec<StatusCount>,
    pub failing: Vec<FailingMail>,
    pub sessions: Vec<Session>,
    /// The row of the session this page was asked with.
    pub current_session: i64,
    pub entries: Vec<Entry>,
}

impl DashboardPage {
    /// A paid total as the receipts write it, e.g. `219.00`.
    pub fn amount(&self, cents: &i64) -> String {
        money::format_cents(*cents)
    }

    /// How a payments mode is named on the dashboard.
    pub fn mode_label(&self, mode: &str) -> &'static str {
        match mode {
            "live" => "live",
            "test" => "TEST mode",
            _ => "before modes were recorded",
        }
    }
}

/// GET `/organiser`.
pub async fn home(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    let (parts, _) = request.into_parts();
    let Some(organiser) = session::authenticate(&parts, &state).await? else {
        return sign_in_page(&state, StatusCode::OK, None, None, String::new()).await;
    };
    let pool = &state.pool;
    let week_ago = timestamp(state.clock.now() - time::Duration::days(7));
    let page = DashboardPage {
        layout: layout(&state, "Organisers", session::HOME).await?,
        papers: dashboard::submissions_by_type(pool, &week_ago).await?,
        states: dashboard::submissions_by_state(pool).await?,
        pending: dashboard::pending_decisions(pool).await?,
        messages: dashboard::messages(pool).await?,
        unread: dashboard::unread_messages(pool).await?,
        orders: dashboard::orders_by_state(pool).await?,
        paid: dashboard::paid_totals(pool).await?,
        subscribers: dashboard::subscribers_by_status(pool).await?,
        outbox: dashboard::outbox_by_status(pool).await?,
        failing: dashboard::failing_mail(pool, FAILING_MAILS).await?,
        sessions: store::sessions_of(pool, &organiser.email).await?,
        current_session: organiser.session,
        entries: audit::latest(pool, LATEST_ENTRIES).await?,
        email: organiser.email,
    };
    render(StatusCode::OK, &page)
}
