//! Certificates in the back office (issue 33 item 5): the counts, the Release button, and the
//! issued certificates (searchable, 50 a page, newest first), each with Revoke and Reissue with
//! a corrected name. The rules and the mails are `crate::attendance::certificates`; every
//! action is audited in its transaction (`certificates.released`, `certificate.revoked`,
//! `certificate.reissued`).
//!
//! Releasing is refused (409, the page says from when) before the conference's last day on
//! the app's clock. Releasing again issues only the certificates that are missing (a late
//! check-in, a paper published late) and mails only those people; with nothing missing it
//! changes nothing and says so.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::form::{fields, one};
use super::query::Params;
use super::session::SignedIn;
use super::sign_in::layout;
use crate::attendance::certificates::{self, Event, Released, UNKNOWN};
use crate::attendance::tickets;
use crate::error::{AppError, Refused};
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::repo::certificates::{self as store, Certificate};
use crate::views::organiser::certificates::{CertificatesPage, NameRefused, RevokePage, Row, row};
pub use crate::views::organiser::certificates::{REISSUE, REVOKE};
use crate::views::organiser::shared::{Pager, shown, when};

/// The page's address.
pub const PATH: &str = "/organiser/certificates";
/// Where the Release button posts.
pub const RELEASE: &str = "/organiser/certificates/release";

/// The page's query parameters: the search, and what the last action did.
const PARAMS: [&str; 5] = ["q", "released", "nothing", "revoked", "reissued"];

async fn page(
    state: &AppState,
    status: StatusCode,
    params: &Params,
    notice: Option<String>,
    problem: Option<String>,
    refused: Option<NameRefused>,
) -> Result<Response, AppError> {
    let search = params.search()?;
    let page = params.page()?;
    let (total, listed) = store::list(&state.pool, search.as_deref(), page).await?;
    let base_url = state.config.base_url();
    let snapshot = state.content.snapshot().await;
    let zone = &snapshot.zone;
    let rows = listed.into_iter().map(|c| row(c, base_url, refused.as_ref(), zone)).collect();
    let event = Event::of(snapshot.site()?);
    let overview = certificates::overview(&state.pool, &event, zone, state.clock.now()).await?;
    // A refused reissue of a certificate this page does not list: its reason at the top.
    let rows: Vec<Row> = rows;
    let shown_in_row = rows.iter().any(|r| r.error.is_some());
    let problem = problem.or_else(|| refused.filter(|_| !shown_in_row).map(|r| r.error));
    let view = CertificatesPage {
        layout: layout(state, "Certificates", PATH).await?,
        notice,
        problem,
        released: overview.released.map(|(n, at, by)| (n, when(&at, zone), by)),
        opens: overview.opens,
        counts: overview.counts,
        waiting: overview.waiting,
        release_action: RELEASE,
        search: params.value("q"),
        pager: Pager::new(PATH, &params.filters(), page, total),
        rows,
        name_max: tickets::NAME_MAX_CHARS,
    };
    render(status, &view)
}

/// GET `/organiser/certificates`: the counts, the Release button and the issued certificates
/// (`q` searches code, name and e-mail; `page`); `released`, `nothing`, `revoked` and
/// `reissued` say what the last action did.
pub async fn show(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    let params = Params::parse(raw.as_deref(), &PARAMS)?;
    let notice = if let Some(number) = params.get("released") {
        Some(format!(
            "Release {} is done: each person it issued a certificate to gets one mail listing theirs.",
            shown(number)
        ))
    } else if params.get("nothing").is_some() {
        Some("Nothing new to issue: everyone who earned a certificate has one. No mail was sent.".to_owned())
    } else if let Some(code) = params.get("revoked") {
        Some(format!("Certificate {} is revoked: its verify page says so.", shown(code)))
    } else {
        params.get("reissued").map(|code| {
            format!("The certificate was reissued as {} and mailed to its holder; the old one is revoked.", shown(code))
        })
    };
    page(&state, StatusCode::OK, &params, notice, None, None).await
}

/// POST `/organiser/certificates/release`: issues every missing certificate and mails each
/// person it issued something to (see the module). 409 with the page and its reason before the
/// conference's last day; otherwise 303 to the page, which says what happened.
pub async fn release(State(state): State<AppState>, SignedIn(organiser): SignedIn) -> Result<Response, AppError> {
    let snapshot = state.content.snapshot().await;
    let event = Event::of(snapshot.site()?);
    let ctx = crate::mail::Context::load(&state.pool, &state.config).await?;
    match certificates::release(&state.pool, &ctx, &event, &snapshot.zone, &organiser.actor(), state.clock.now()).await
    {
        Ok(Released::NothingNew) => Ok(see_other(&format!("{PATH}?nothing=1"))),
        Ok(Released::Issued { number, attendance, presentation, mails }) => {
            tracing::info!(number, attendance, presentation, mails, "certificates released");
            Ok(see_other(&format!("{PATH}?released={number}")))
        }
        Err(refused) => refused_page(&state, refused).await,
    }
}

/// The list with a refusal's message and status (409 for a stale form or a release before
/// its day); a refusal without a page of its own (404, 500) as the error page.
async fn refused_page(state: &AppState, refused: Refused) -> Result<Response, AppError> {
    match refused {
        Refused::Stale(message) | Refused::NotAllowed(message) => {
            page(state, StatusCode::CONFLICT, &Params::default(), None, Some(message), None).await
        }
        other => Err(other.into()),
    }
}

/// A certificate's code from its route; 404 for one of the wrong shape.
fn code_of(typed: &str) -> Result<String, AppError> {
    tickets::normalise_code(typed).filter(|code| code == typed).ok_or_else(|| AppError::NotFound(UNKNOWN.into()))
}

async fn revoke_page(
    state: &AppState,
    status: StatusCode,
    c: Certificate,
    reason: String,
    error: Option<String>,
) -> Result<Response, AppError> {
    let zone = state.event_zone().await;
    let layout = layout(state, &format!("Revoke certificate {}", c.code), PATH).await?;
    let view = RevokePage::new(layout, c, &zone, reason, error);
    render(status, &view)
}

/// GET `/organiser/certificates/{code}/revoke`: asks for the reason and a confirmation; 404
/// for a code no certificate has, 409 with the list when it is revoked already.
pub async fn confirm_revoke(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    Path(code): Path<String>,
) -> Result<Response, AppError> {
    let code = code_of(&code)?;
    match store::by_code(&state.pool, &code).await? {
        None => Err(AppError::NotFound(UNKNOWN.into())),
        Some(c) if c.revoked_at.is_some() => {
            let message = format!("Certificate {code} was revoked already, so nothing was changed.");
            page(&state, StatusCode::CONFLICT, &Params::default(), None, Some(message), None).await
        }
        Some(c) => revoke_page(&state, StatusCode::OK, c, String::new(), None).await,
    }
}

/// POST `/organiser/certificates/{code}/revoke` (`reason`): revokes the certificate, the
/// reason kept in its audit entry; 404 for a code no certificate has, 409 with the page when it
/// is revoked already, 422 with the confirmation step again without a reason; otherwise 303 to
/// the page.
pub async fn revoke(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(code): Path<String>,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    let code = code_of(&code)?;
    let fields = fields(&body);
    let typed = fields.iter().find(|(k, _)| k == "reason").map(|(_, v)| v.clone()).unwrap_or_default();
    match certificates::revoke(&state.pool, &code, &typed, &organiser.actor(), state.clock.now()).await {
        Ok(revoked) => Ok(see_other(&format!("{PATH}?revoked={}", revoked.code))),
        Err(Refused::Invalid { message, .. }) => {
            let Some(c) = store::by_code(&state.pool, &code).await? else {
                return Err(AppError::NotFound(UNKNOWN.into()));
            };
            revoke_page(&state, StatusCode::UNPROCESSABLE_ENTITY, c, typed, Some(message)).await
        }
        Err(refused) => refused_page(&state, refused).await,
    }
}

/// POST `/organiser/certificates/{code}/reissue` (`name`): revokes the certificate and issues
/// a new one with a new code under `name` (the forms' one-line rule), mailed to its holder
/// (audited). 404 for a code no certificate has; 400 for a form without exactly one `name`;
/// 422 with the page, the name typed and its error for a name the rule refuses; 409 when it
/// was replaced already; otherwise 303 to the page.
pub async fn reissue(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(code): Path<String>,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    let code = code_of(&code)?;
    let fields = fields(&body);
    let typed = one(&fields, "name")?.to_owned();
    let snapshot = state.content.snapshot().await;
    let event = Event::of(snapshot.site()?);
    let ctx = crate::mail::Context::load(&state.pool, &state.config).await?;
    let now = state.clock.now();
    match certificates::reissue(&state.pool, &ctx, &event, &code, &typed, &organiser.actor(), now).await {
        Ok(reissued) => Ok(see_other(&format!("{PATH}?reissued={}", reissued.new_code))),
        Err(Refused::Invalid { message: error, .. }) => {
            let refused = NameRefused { code, typed, error };
            page(&state, StatusCode::UNPROCESSABLE_ENTITY, &Params::default(), None, None, Some(refused)).await
        }
        Err(refused) => refused_page(&state, refused).await,
    }
}
