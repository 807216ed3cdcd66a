//! The author's camera-ready step (issue 44 item 1, DESIGN.md section 18) under the private
//! status link: `GET /submission/status/<token>/camera-ready` shows it, and three plain forms
//! POST the final PDF (multipart), the details and the licence, each to its own action of
//! `crate::proceedings::camera_ready`. Each success is a 303 back to the step, which says
//! what was saved; a refusal draws the step again with its status (422 for bad input, 409
//! when the step is closed) and an error summary, what was typed kept. An unknown token is
//! the status link's 404; a paper that is not accepted (or was withdrawn) is its status page
//! with a 409. The protections are the status link's: `noindex`, `no-store`, no referrer,
//! same-origin POSTs.

use askama::Template;
use axum::body::Bytes;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, Path, RawQuery, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::Response;

use crate::decisions::authors::{author, by_token};
use crate::error::{AppError, Refused};
use crate::handlers::pages::submission_status;
use crate::handlers::render::{html, html_response, see_other};
use crate::handlers::state::AppState;
use crate::proceedings::camera_ready::{self as domain};
use crate::proceedings::details::DetailsForm;
use crate::proceedings::format_check::FormatRules;
use crate::repo::submissions::Submission;
use crate::submissions::status_link::STATUS_PREFIX;
use crate::views::layout::{Layout, Meta};
use crate::views::pages::camera_ready::{CameraReadyView, Refusal};

/// The step's page.
pub const PATH: &str = "/submission/status/{token}/camera-ready";
/// Its three forms.
pub const PDF_PATH: &str = "/submission/status/{token}/camera-ready/pdf";
pub const DETAILS_PATH: &str = "/submission/status/{token}/camera-ready/details";
pub const LICENCE_PATH: &str = "/submission/status/{token}/camera-ready/licence";

/// Largest body of the PDF's form: the format check's default size limit (10 MB) and room
/// for the form around it, so a file a little too large reaches the check and is told its
/// size rather than cut off.
pub const PDF_BODY_LIMIT: usize = 24 * 1024 * 1024;

/// Whether `path` is a PDF form's address (for the router's declared-length guard).
pub fn is_pdf_path(path: &str) -> bool {
    path.starts_with(STATUS_PREFIX) && path.ends_with("/camera-ready/pdf")
}

/// The rules every upload is checked against. The seed holds no rules yet, so the design's
/// defaults (`FormatRules::default`).
fn rules() -> FormatRules {
    FormatRules::default()
}

#[derive(Template)]
#[template(path = "pages/camera_ready.html")]
struct CameraReadyPage {
    layout: Layout,
    v: CameraReadyView,
    notice: Option<&'static str>,
}

/// The step of `s` drawn with `status`, or the status page (409) when `s` has none.
async fn draw(
    state: &AppState,
    token: &str,
    s: Submission,
    status: StatusCode,
    notice: Option<&'static str>,
    refusal: Refusal,
) -> Result<Response, AppError> {
    let step = match domain::step(&state.pool, state.clock.now(), &s).await {
        Ok(step) => step,
        Err(Refused::NotAllowed(why)) => {
            return submission_status::page(state, token, Some(s), StatusCode::CONFLICT, Some(&why)).await;
        }
        Err(other) => return Err(other.into()),
    };
    let status_path = format!("{STATUS_PREFIX}{token}");
    let snapshot = state.content.snapshot().await;
    let layout = Layout::new(&state.page_ctx(&snapshot), |site| {
        Meta::new(
            format!("Camera-ready paper | {}", site.short_name),
            "Hand in the final version of an accepted paper.",
            format!("{status_path}/camera-ready"),
        )
        .noindex()
    })?;
    let v = CameraReadyView::of(&s, &step, &status_path, &rules(), refusal, &snapshot.zone);
    let mut response = html_response(status, html(&CameraReadyPage { layout, v, notice })?);
    private(&mut response);
    Ok(response)
}

/// The headers of every answer of a private link.
fn private(response: &mut Response) {
    let headers = response.headers_mut();
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(HeaderName::from_static("x-robots-tag"), HeaderValue::from_static("noindex"));
}

/// What the step says after a 303 (`?saved=pdf|details|licence`).
fn saved(query: Option<&str>) -> Option<&'static str> {
    match query? {
        "saved=pdf" => Some("Your PDF passed the format check and is handed in."),
        "saved=details" => Some("The title, abstract, keywords and authors are saved."),
        "saved=licence" => Some("The licence is accepted."),
        _ => None,
    }
}

/// GET the step.
pub async fn show(
    State(state): State<AppState>,
    Path(token): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, AppError> {
    let Some(s) = by_token(&state.pool, &token).await? else {
        return submission_status::unknown(&state, &token).await;
    };
    draw(&state, &token, s, StatusCode::OK, saved(query.as_deref()), Refusal::default()).await
}

/// The answer to an action: a 303 back to the step, or the step with the refusal.
async fn answer<T>(
    state: &AppState,
    token: &str,
    s: Submission,
    outcome: Result<T, Refused>,
    what: &str,
    mut refusal: Refusal,
) -> Result<Response, AppError> {
    let refused = match outcome {
        Ok(_) => {
            let mut response = see_other(&format!("{STATUS_PREFIX}{token}/camera-ready?saved={what}"));
            private(&mut response);
            return Ok(response);
        }
        Err(refused) => refused,
    };
    let status = match &refused {
        Refused::Invalid { .. } | Refused::Conflicted(_) => StatusCode::UNPROCESSABLE_ENTITY,
        Refused::NotAllowed(_) | Refused::Stale(_) => StatusCode::CONFLICT,
        Refused::NotFound(_) => StatusCode::NOT_FOUND,
        Refused::Failed(_) => return Err(refused.into()),
    };
    match refused {
        Refused::Invalid { message, errors } => {
            refusal.message = Some(message);
            refusal.errors = errors;
        }
        other => refusal.message = Some(other.to_string()),
    }
    draw(state, token, s, status, None, refusal).await
}

/// POST the final PDF (multipart, field `pdf`).
pub async fn pdf(
    State(state): State<AppState>,
    Path(token): Path<String>,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Response, AppError> {
    let Some(s) = by_token(&state.pool, &token).await? else {
        return submission_status::unknown(&state, &token).await;
    };
    let unreadable = |detail: String| Refusal {
        message: Some(format!(
            "The upload could not be read ({detail}), so nothing was changed. Please choose the file again."
        )),
        ..Refusal::default()
    };
    let mut multipart = match multipart {
        Ok(multipart) => multipart,
        Err(rejection) => {
            return draw(&state, &token, s, StatusCode::BAD_REQUEST, None, unreadable(rejection.body_text())).await;
        }
    };
    let mut file = None;
    loop {
        match multipart.next_field().await {
            Ok(Some(field)) if field.name() == Some("pdf") && file.is_none() => {
                let name = field.file_name().unwrap_or("paper.pdf").to_owned();
                match field.bytes().await {
                    Ok(bytes) => file = Some((name, bytes.to_vec())),
                    Err(err) => return draw(&state, &token, s, err.status(), None, unreadable(err.body_text())).await,
                }
            }
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(err) => return draw(&state, &token, s, err.status(), None, unreadable(err.body_text())).await,
        }
    }
    let (name, bytes) = file.unwrap_or_default();
    let outcome = domain::hand_in_pdf(&state.pool, state.clock.now(), &author(), &s, &name, bytes, &rules()).await;
    answer(&state, &token, s, outcome, "pdf", Refusal::default()).await
}

/// POST the details (form-encoded).
pub async fn details(
    State(state): State<AppState>,
    Path(token): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let Some(s) = by_token(&state.pool, &token).await? else {
        return submission_status::unknown(&state, &token).await;
    };
    let form = DetailsForm::read(url::form_urlencoded::parse(&body));
    let outcome = domain::save_details(&state.pool, state.clock.now(), &author(), &s, &form).await;
    answer(&state, &token, s, outcome, "details", Refusal { posted: Some(form), ..Refusal::default() }).await
}

/// POST the licence's acceptance (form-encoded, field `signature`).
pub async fn licence(
    State(state): State<AppState>,
    Path(token): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let Some(s) = by_token(&state.pool, &token).await? else {
        return submission_status::unknown(&state, &token).await;
    };
    let signature = url::form_urlencoded::parse(&body)
        .find(|(name, _)| name == "signature")
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default();
    let outcome = domain::accept_licence(&state.pool, state.clock.now(), &author(), &s, &signature).await;
    answer(&state, &token, s, outcome, "licence", Refusal { signature, ..Refusal::default() }).await
}
