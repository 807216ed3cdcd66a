//! `GET /organiser`: the dashboard for a signed-in organiser, the sign-in page for anyone
//! else (DESIGN.md section 12): submissions by paper type this week and in all, messages,
//! orders by state with the paid totals (test-mode orders apart), subscribers, whether mail
//! goes out (with each failing mail's last error), this organiser's open sessions and the
//! latest audit entries.

use std::sync::Arc;

use askama::Template;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::session;
use super::sign_in::{layout, sign_in_page};
use crate::base::money;
use crate::clock::stamp::timestamp;
use crate::error::AppError;
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::repo::audit::{self, Entry};
use crate::repo::dashboard::Counts;
use crate::repo::organisers::{self as store, Session};
use crate::sign_in::roles::Role;
use crate::views::layout::Layout;
use crate::views::organiser::shared::{self as view, Cell};

/// Audit entries the dashboard shows.
const LATEST_ENTRIES: i64 = 10;

#[derive(Template)]
#[template(path = "organiser/dashboard.html")]
pub struct DashboardPage {
    pub layout: Layout,
    pub email: String,
    /// Submissions by paper type and state, messages, orders, paid totals, subscribers, mail.
    pub counts: Arc<Counts>,
    pub sessions: Vec<Session>,
    /// The row of the session this page was asked with.
    pub current_session: i64,
    pub entries: Vec<Entry>,
    /// Check-ins per day and ticket type (issue 33 item 3).
    pub check_ins: Vec<crate::repo::check_ins::DayCount>,
    /// The event's zone, the times' ([`view::when`]).
    pub zone: crate::clock::zone::Zone,
}

impl DashboardPage {
    /// A paid total as the receipts write it, e.g. `219.00`.
    pub fn amount(&self, cents: &i64) -> String {
        money::format_cents(*cents)
    }

    /// A stored time in the event's zone, as a `<time datetime>`.
    pub fn when(&self, stamp: &str) -> view::Moment {
        view::when(stamp, &self.zone)
    }

    /// A stored state or status in words (`submitted` is "Submitted").
    pub fn word(&self, value: &str) -> String {
        view::word(value)
    }

    /// An audit entry's action in words ("Pending decision set").
    pub fn action<'a>(&self, action: &'a str) -> &'a str {
        view::action_label(action)
    }

    /// Who did it ("The author" for `author`).
    pub fn actor<'a>(&self, actor: &'a str) -> &'a str {
        view::actor_label(actor)
    }

    /// What an audit entry is about, linked to its page when it has one.
    pub fn object(&self, entry: &Entry) -> Cell {
        let (Some(kind), Some(id)) = (entry.object_type.as_deref(), entry.object_id.as_deref()) else {
            return Cell::text("");
        };
        match kind {
            "submission" => Cell::link(format!("Submission {id}"), format!("/organiser/submissions/{id}")),
            "message" => Cell::link(format!("Message {id}"), format!("/organiser/messages/{id}")),
            "order" => Cell::link(format!("Order {id}"), format!("/organiser/orders/{id}")),
            "list" => Cell::text(format!("List of {id}")),
            "programme" => Cell::link(format!("Programme version {id}"), "/organiser/programme"),
            "organiser" => Cell::text(id),
            other => Cell::text(format!("{} {id}", view::word(other))),
        }
    }

    /// How a payments mode is named on the dashboard.
    pub fn mode_label(&self, mode: &str) -> &'static str {
        match mode {
            "live" => "Live",
            "test" => "TEST mode",
            _ => "before modes were recorded",
        }
    }
}

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
