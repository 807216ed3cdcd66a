//! Stream links in the back office (issue 33 item 6): every online or hybrid session of the
//! programme with its stream link, and a form per session that sets, changes or removes it
//! (an empty address removes it; the action is `crate::attendance::streams::set`, audited as
//! `stream.set` or `stream.removed`). The links reach attendees only through
//! the attendee page of a paid ticket (`crate::attendance::streams`).

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::form::{fields, one};
use super::session::SignedIn;
use super::sign_in::layout;
use crate::attendance::streams::{self, LABEL_MAX_CHARS, URL_MAX_CHARS};
use crate::error::{self as domain, AppError};
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::programme::timetable::Programme;
use crate::repo::streams as store;
pub use crate::views::organiser::streams::PATH;
use crate::views::organiser::streams::{Refused, StreamsPage, rows};

/// Where a session's form posts.
pub const SESSION: &str = "/organiser/streams/{session}";

async fn page(
    state: &AppState,
    status: StatusCode,
    notice: Option<String>,
    refused: Option<Refused>,
) -> Result<Response, AppError> {
    let snapshot = state.content.snapshot().await;
    let programme = Programme::of(&snapshot).map_err(|_| AppError::internal("stream links", "programme not loaded"))?;
    let links = store::all(&state.pool).await?;
    let rows = rows(&programme, &links, refused.as_ref());
    let problem = refused.filter(|r| !rows.iter().any(|row| row.slug == r.slug)).map(|r| r.error);
    let view = StreamsPage {
        layout: layout(state, "Stream links", PATH).await?,
        zone: programme.zone_label(),
        rows,
        notice,
        problem,
        url_max: URL_MAX_CHARS,
        label_max: LABEL_MAX_CHARS,
    };
    render(status, &view)
}

/// GET `/organiser/streams`: the online and hybrid sessions and their stream links;
/// `?saved=<session>` says that session's link was saved.
pub async fn show(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(query): RawQuery,
) -> Result<Response, AppError> {
    let saved = query.as_deref().and_then(|q| q.strip_prefix("saved=")).map(|slug| {
        let slug = url::form_urlencoded::parse(format!("s={slug}").as_bytes()).next().map(|(_, v)| v.into_owned());
        format!("The stream link of {} is saved.", slug.unwrap_or_default())
    });
    page(&state, StatusCode::OK, saved, None).await
}

/// POST `/organiser/streams/{session}` (`url`, `label`): sets the stream link of an online or
/// hybrid session, or removes it when `url` is empty ([`streams::set`]); 303 to the page. A
/// refusal about the session's form (422) is the page again with what was typed and why; 400
/// for a form without exactly one `url`.
pub async fn set(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(session): Path<String>,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    let fields = fields(&body);
    let url = one(&fields, "url")?.to_owned();
    let label = fields.iter().find(|(k, _)| k == "label").map(|(_, v)| v.clone()).unwrap_or_default();
    let snapshot = state.content.snapshot().await;
    let programme = Programme::of(&snapshot).map_err(|_| AppError::internal("stream links", "programme not loaded"))?;
    let now = state.clock.now();
    match streams::set(&state.pool, now, &organiser.actor(), &programme, &session, &url, &label).await {
        Ok(_) => Ok(see_other(&format!("{PATH}?saved={session}"))),
        Err(domain::Refused::Conflicted(error) | domain::Refused::Invalid { message: error, .. }) => {
            let refused = Refused { slug: session, url, label, error };
            page(&state, StatusCode::UNPROCESSABLE_ENTITY, None, Some(refused)).await
        }
        Err(other) => Err(other.into()),
    }
}
