//! A certificate's public pages (issue 33 item 5, DESIGN.md section 16).
//!
//! - `/certificates/<code>`, the verify page that the PDF prints and its QR opens: the name,
//!   the type (attendance or presentation), the event, its dates, and whether the certificate
//!   is valid or revoked. Nothing else: not the paper's title, not the e-mail address, not
//!   when it was issued or revoked, not what replaced it.
//! - `/certificates/<code>.pdf`: the certificate as a PDF (`crate::attendance::documents`), an
//!   attachment; 410 with a page that says so for a revoked one.
//!
//! An unknown or malformed code is the site's 404. Both are `noindex` (header and meta) and
//! `Cache-Control: private, no-store` (`crate::http::cache_control::is_certificate`): the
//! page cache and any shared cache would otherwise show a revoked certificate as valid for
//! up to a minute, or ten while revalidating; never in the sitemap, and no public page links
//! them.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::Response;

use crate::attendance::certificates::{self, Asked, Event};
use crate::attendance::documents::certificate_pdf;
use crate::error::AppError;
use crate::handlers::organiser::download::attachment;
use crate::handlers::render::{html, html_response};
use crate::handlers::state::AppState;
use crate::repo::certificates as store;
use crate::views::layout::{Layout, Meta};
use crate::views::pages::certificate::CertificatePage;

/// The route of the verify page and the PDF (`<code>` or `<code>.pdf`: the router matches
/// whole segments only).
pub const PATH: &str = "/certificates/{code}";

fn noindex(mut response: Response) -> Response {
    response.headers_mut().insert(HeaderName::from_static("x-robots-tag"), HeaderValue::from_static("noindex"));
    response
}

/// GET `/certificates/{code}` and `/certificates/{code}.pdf`: the verify page or the PDF of
/// a certificate; 404 for a code of the wrong shape or that no certificate has; 410 (a page
/// saying the certificate was revoked) for the PDF of a revoked one.
pub async fn show(State(state): State<AppState>, Path(segment): Path<String>) -> Result<Response, AppError> {
    let Some(asked) = certificates::asked(&segment) else {
        return Err(AppError::NotFound(String::new()));
    };
    let code = match &asked {
        Asked::Page(code) | Asked::Pdf(code) => code.clone(),
    };
    let Some(certificate) = store::by_code(&state.pool, &code).await? else {
        return Err(AppError::NotFound(String::new()));
    };
    let snapshot = state.content.snapshot().await;
    let event = Event::of(snapshot.site()?);
    let valid = certificate.revoked_at.is_none();
    if matches!(asked, Asked::Pdf(_)) && valid {
        let signatories = certificates::signatories(&state.pool).await?;
        let document = certificates::document(&certificate, &event, signatories, state.config.base_url());
        let pdf = certificate_pdf(&document);
        let name = format!("certificate-{}.pdf", certificate.code);
        return Ok(noindex(attachment(Body::from(pdf), "application/pdf", &name)));
    }
    let gone = matches!(asked, Asked::Pdf(_));
    let path = format!("{}{}", certificates::PREFIX, certificate.code);
    let layout = Layout::new(&state.page_ctx(&snapshot), |site| {
        Meta::new(format!("Certificate | {}", site.short_name), "Verify a conference certificate.", &path).noindex()
    })?;
    let view = CertificatePage {
        layout,
        name: certificate.holder_name,
        kind: certificates::kind_label(&certificate.kind),
        event: event.name,
        dates: event.dates,
        valid,
        gone,
    };
    let status = if gone { StatusCode::GONE } else { StatusCode::OK };
    Ok(noindex(html_response(status, html(&view)?)))
}
