//! The attendee's pages (issue 33, DESIGN.md section 16).
//!
//! - `/attendee/<token>`, the private link of the receipt mail: the ticket (type, mode, the
//!   name on it) with its QR code, which encodes `PUBLIC_URL/check-in/<code>` and has that
//!   address printed under it; the receipt (and a refund's credit note) as issued; the name
//!   form until `attendee_changes_until` (the app's clock, the event's zone); and, while the
//!   ticket is not refunded, the stream links of today's online and hybrid sessions, the
//!   current and next first (`crate::attendance::streams`), which no public answer shows. The
//!   page prints as a ticket (`islands/src/styles/page/attendee.css`).
//! - `POST /attendee/<token>` (`name`): changes the name on the ticket, checked by the
//!   forms' one-line rule, audited (`ticket.name_changed` by `attendee`, the name before and
//!   after) in the same transaction.
//! - `/attendee`: "send my link again" (e-mail and order id), which always answers the same
//!   ([`crate::attendance::resend`]).
//! - `/check-in/<code>`, what a phone's camera opens from the QR: "Show this at the
//!   registration desk", and nothing about the ticket or its holder.
//!
//! A token is the only key: 32 random bytes, base64url, stored as SHA-256. An unknown,
//! malformed or foreign one is a 404 with nothing about any ticket, and the "send my link
//! again" form. Every answer of these routes is `noindex` and `Cache-Control: private,
//! no-store` (`crate::http::cache_control::is_attendee_link`), never kept by the page cache,
//! and `Referrer-Policy: no-referrer`, so the link never leaves in a `Referer`; their POSTs
//! need proof of the same origin (`crate::http::guard`).

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::Response;

use crate::attendance::attendee::{self, NameChange};
use crate::attendance::tickets;
use crate::attendance::{links, resend};
use crate::error::{AppError, Refused};
use crate::handlers::render::{html, html_response, see_other};
use crate::handlers::state::AppState;
use crate::repo::attendees::Ticket;
use crate::repo::audit::{ATTENDEE, Actor};
use crate::repo::receipts;
use crate::views::layout::{Layout, Meta};
use crate::views::pages::attendee::{AttendeePage, CheckInPage, NOT_FOUND, NameForm, ResendPage, Shown};

/// The route of the attendee page and its name form.
pub const PATH: &str = "/attendee/{token}";
/// The route of "send my link again".
pub const RESEND_PATH: &str = "/attendee";
/// The route the ticket's QR code opens.
pub const CHECK_IN_PATH: &str = "/check-in/{code}";

/// What the page says after a name change (`?saved=1`, the POST's 303).
const SAVED: &str = "The name on your ticket is changed.";

/// The answer headers of every private attendee page.
fn private(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(HeaderName::from_static("x-robots-tag"), HeaderValue::from_static("noindex"));
    response
}

/// The page of `token`'s ticket (the 404 page when `found` is `None`), with `notice`, and the
/// name form showing `typed` and its `error` when a change was refused.
async fn page(
    state: &AppState,
    token: &str,
    found: Option<Ticket>,
    status: StatusCode,
    notice: Option<&str>,
    typed: Option<(String, String)>,
) -> Result<Response, AppError> {
    let path = format!("{}{token}", links::PREFIX);
    let snapshot = state.content.snapshot().await;
    let layout = Layout::new(&state.page_ctx(&snapshot), |site| {
        Meta::new(format!("Your ticket | {}", site.short_name), "Your conference ticket and receipt.", &path).noindex()
    })?;
    let mut name_form = None;
    let mut changes = String::new();
    let mut streams = None;
    let mut documents = Vec::new();
    let ticket = match found {
        None => None,
        Some(t) => {
            let now = state.clock.now();
            let shown = attendee::ticket_page(&state.pool, &t, &snapshot.zone, now, state.config.base_url()).await?;
            changes = shown.changes;
            if shown.name_open {
                let (value, error) = match typed {
                    Some((value, error)) => (value, Some(error)),
                    None => (t.holder_name.clone(), None),
                };
                name_form = Some(NameForm { action: path.clone(), value, error, max_chars: tickets::NAME_MAX_CHARS });
            }
            documents = shown.documents;
            if t.refunded_at.is_none() {
                streams = Some(attendee::todays_streams(&state.pool, &snapshot, now).await?);
            }
            Some(Shown::of(t, shown.qr, shown.check_in_url))
        }
    };
    let heading = if ticket.is_some() { "Your ticket" } else { "Link not valid" };
    let view = AttendeePage {
        layout,
        heading,
        notice: notice.map(str::to_owned),
        path: path.clone(),
        ticket,
        name_form,
        changes,
        documents,
        streams,
        zone: format!("{} time", snapshot.zone.city()),
        not_found: NOT_FOUND,
        resend_action: RESEND_PATH,
        email: String::new(),
        order: String::new(),
        error: None,
    };
    Ok(private(html_response(status, html(&view)?)))
}

/// GET `/attendee/{token}`; `?saved=1` adds the notice that the name was changed (any other
/// query is ignored). 404 for a token that opens no ticket.
pub async fn show(
    State(state): State<AppState>,
    Path(token): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, AppError> {
    let found = attendee::find(&state.pool, &token).await?;
    let status = if found.is_some() { StatusCode::OK } else { StatusCode::NOT_FOUND };
    let saved = found.is_some() && query.as_deref() == Some("saved=1");
    page(&state, &token, found, status, saved.then_some(SAVED), None).await
}

/// The one value of `name` in a form; `Err` with a 400's message when it is missing or sent
/// more than once.
fn one_field(body: &Bytes, name: &str) -> Result<String, &'static str> {
    let values: Vec<String> =
        url::form_urlencoded::parse(body).filter(|(n, _)| n == name).map(|(_, v)| v.into_owned()).collect();
    match <[String; 1]>::try_from(values) {
        Ok([value]) => Ok(value),
        Err(values) if values.is_empty() => {
            Err("The form sent no value, so nothing was changed. Please use the form on this page.")
        }
        Err(_) => {
            Err("The form sent a field more than once, so nothing was changed. Please use the form on this page.")
        }
    }
}

/// POST `/attendee/{token}` (`name`): changes the name on the ticket while changes are open
/// (`attendee_changes_until`, the event's zone) and the ticket is not refunded. 404 for an
/// unknown token; 400 for a form without exactly one `name`; 422 with the form shown again and
/// the field's error for a name the rule refuses; 409 when changes are closed or the ticket
/// was refunded. Otherwise the change and its audit entry are stored together and the answer
/// is a 303 to the page, which says so; the same name again changes nothing.
pub async fn change_name(
    State(state): State<AppState>,
    Path(token): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let Some(ticket) = attendee::find(&state.pool, &token).await? else {
        return page(&state, &token, None, StatusCode::NOT_FOUND, None, None).await;
    };
    let typed = match one_field(&body, "name") {
        Ok(typed) => typed,
        Err(message) => return page(&state, &token, Some(ticket), StatusCode::BAD_REQUEST, Some(message), None).await,
    };
    let zone = state.content.snapshot().await.zone.clone();
    let actor = Actor { email: ATTENDEE.into(), client: None };
    let back = format!("{}{token}", links::PREFIX);
    match attendee::change_name(&state.pool, state.clock.now(), &zone, &actor, &ticket, &typed).await {
        Ok(NameChange::Unchanged) => Ok(private(see_other(&back))),
        Ok(NameChange::Changed { order_id, .. }) => {
            tracing::info!(order_id, "name on a ticket changed by its attendee");
            Ok(private(see_other(&format!("{back}?saved=1"))))
        }
        Err(Refused::Invalid { message, errors }) => {
            let shown = errors.into_iter().next().map(|(_, error)| (typed, error));
            page(&state, &token, Some(ticket), StatusCode::UNPROCESSABLE_ENTITY, Some(&message), shown).await
        }
        Err(Refused::NotAllowed(message)) => {
            let current = attendee::find(&state.pool, &token).await?;
            page(&state, &token, current, StatusCode::CONFLICT, Some(&message), None).await
        }
        Err(refused) => Err(refused.into()),
    }
}

async fn resend_page(
    state: &AppState,
    status: StatusCode,
    answer: Option<&'static str>,
    error: Option<String>,
    (email, order): (String, String),
) -> Result<Response, AppError> {
    let snapshot = state.content.snapshot().await;
    let layout = Layout::new(&state.page_ctx(&snapshot), |site| {
        Meta::new(
            format!("Your attendee page | {}", site.short_name),
            "Ask for the link to your ticket and receipt again.",
            RESEND_PATH,
        )
        .noindex()
    })?;
    let view = ResendPage { layout, answer, error, email, order, resend_action: RESEND_PATH };
    Ok(private(html_response(status, html(&view)?)))
}

/// GET `/attendee`: the "send my link again" form.
pub async fn resend_form(State(state): State<AppState>) -> Result<Response, AppError> {
    resend_page(&state, StatusCode::OK, None, None, (String::new(), String::new())).await
}

/// POST `/attendee` (`email`, `order`): the same answer whatever the pair names
/// ([`resend::ANSWER`]); a new link is mailed only when it names a paid registration (and
/// its ticket had fewer than [`resend::LINKS_PER_HOUR`] links this hour). 422 with the form
/// shown again when a field is empty or the address is not one; 400 for a field sent twice.
pub async fn resend(State(state): State<AppState>, body: Bytes) -> Result<Response, AppError> {
    let (email, order) = match (one_field(&body, "email"), one_field(&body, "order")) {
        (Ok(email), Ok(order)) => (email.trim().to_owned(), order.trim().to_owned()),
        (Err(message), _) | (_, Err(message)) => {
            let typed = (String::new(), String::new());
            return resend_page(&state, StatusCode::BAD_REQUEST, None, Some(message.into()), typed).await;
        }
    };
    let ctx = crate::mail::Context::load(&state.pool, &state.config).await?;
    match resend::request(&state.pool, &ctx, &order, &email, state.clock.now()).await {
        Ok(Ok(())) => tracing::info!(order_id = order, "attendee link sent again"),
        Ok(Err(why)) => tracing::info!(order_id = order, reason = ?why, "attendee link asked for; nothing sent"),
        Err(Refused::Invalid { message, .. }) => {
            return resend_page(&state, StatusCode::UNPROCESSABLE_ENTITY, None, Some(message), (email, order)).await;
        }
        Err(refused) => return Err(refused.into()),
    }
    resend_page(&state, StatusCode::OK, Some(resend::ANSWER), None, (String::new(), String::new())).await
}

/// GET `/check-in/{code}`: what a phone's camera opens from a ticket's QR. For a code of the
/// right shape, "Show this at the registration desk", with no word about the ticket or
/// whether it exists (the desk checks it); 404 for anything else.
pub async fn check_in(State(state): State<AppState>, Path(code): Path<String>) -> Result<Response, AppError> {
    let snapshot = state.content.snapshot().await;
    let known_shape = tickets::normalise_code(&code).is_some();
    let path = format!("{}{code}", tickets::CHECK_IN_PREFIX);
    let layout = Layout::new(&state.page_ctx(&snapshot), |site| {
        Meta::new(format!("Ticket | {}", site.short_name), "A conference ticket's check-in address.", &path).noindex()
    })?;
    if !known_shape {
        return Err(AppError::NotFound(String::new()));
    }
    Ok(private(html_response(StatusCode::OK, html(&CheckInPage { layout })?)))
}

// ---------------------------------------------------------------------------------------
// The documents as PDFs (issue 33 items 1 and 7): the ticket, the receipt and a refund's
// credit note, behind the same token as the page.
// ---------------------------------------------------------------------------------------

/// The route of the ticket as a PDF.
pub const TICKET_PDF_PATH: &str = "/attendee/{token}/ticket.pdf";
/// The route of the receipt (or invoice) as a PDF.
pub const RECEIPT_PDF_PATH: &str = "/attendee/{token}/receipt.pdf";
/// The route of a refund's credit note as a PDF.
pub const CREDIT_NOTE_PDF_PATH: &str = "/attendee/{token}/credit-note.pdf";

/// What the page says when a document asked for does not exist (yet): a refunded ticket,
/// or a credit note of an order that was not refunded.
const NO_DOCUMENT: &str = "There is no such document for this registration. The documents it has are on this page.";

/// A PDF as a private download: its length sent (never compressed again, as a paper is not:
/// `crate::http::compressible`), named `filename`, with the attendee pages' headers.
fn pdf_download(bytes: Vec<u8>, filename: &str) -> Response {
    let safe: String =
        filename.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    let body = axum::body::Body::from(bytes);
    private(crate::handlers::organiser::download::attachment(body, "application/pdf", &format!("{safe}.pdf")))
}

/// Draws a PDF away from the async workers (a few milliseconds of CPU each).
async fn drawn(draw: impl FnOnce() -> Vec<u8> + Send + 'static) -> Result<Vec<u8>, AppError> {
    tokio::task::spawn_blocking(draw).await.map_err(|err| AppError::internal("PDF drawing", err))
}

/// GET `/attendee/{token}/ticket.pdf`: the ticket (`crate::attendance::documents::ticket_pdf`),
/// `ticket-<order id>.pdf`. 404 (the page's) for a token that opens no ticket; for a refunded
/// ticket, the page with a 404 and a word that there is none.
pub async fn ticket_pdf(State(state): State<AppState>, Path(token): Path<String>) -> Result<Response, AppError> {
    let Some(t) = attendee::find(&state.pool, &token).await? else {
        return page(&state, &token, None, StatusCode::NOT_FOUND, None, None).await;
    };
    if t.refunded_at.is_some() {
        return page(&state, &token, Some(t), StatusCode::NOT_FOUND, Some(NO_DOCUMENT), None).await;
    }
    let document = attendee::ticket_document(state.content.snapshot().await.site()?, &t, state.config.base_url());
    let bytes = drawn(move || crate::attendance::documents::ticket_pdf(&document)).await?;
    Ok(pdf_download(bytes, &format!("ticket-{}", t.order_id)))
}

/// The stored document of `kind` of `token`'s order as a PDF, drawn from the JSON it was
/// issued with, so a number is the same bytes on every download; `<number>.pdf`.
async fn stored_document(state: &AppState, token: &str, kind: receipts::Kind) -> Result<Response, AppError> {
    let Some(t) = attendee::find(&state.pool, token).await? else {
        return page(state, token, None, StatusCode::NOT_FOUND, None, None).await;
    };
    let Some((number, content)) = attendee::stored_document(&state.pool, &t.order_id, kind).await? else {
        return page(state, token, Some(t), StatusCode::NOT_FOUND, Some(NO_DOCUMENT), None).await;
    };
    let bytes = drawn(move || crate::attendance::documents::receipt_pdf(&content)).await?;
    Ok(pdf_download(bytes, &number))
}

/// GET `/attendee/{token}/receipt.pdf`: the order's receipt (or invoice) as issued. 404 (the
/// page's) for a token that opens no ticket or an order without a numbered receipt.
pub async fn receipt_pdf(State(state): State<AppState>, Path(token): Path<String>) -> Result<Response, AppError> {
    stored_document(&state, &token, receipts::Kind::Receipt).await
}

/// GET `/attendee/{token}/credit-note.pdf`: a refunded order's credit note, which cites the
/// receipt it cancels. 404 (the page's) as for the receipt, and while there is no refund.
pub async fn credit_note_pdf(State(state): State<AppState>, Path(token): Path<String>) -> Result<Response, AppError> {
    stored_document(&state, &token, receipts::Kind::CreditNote).await
}
