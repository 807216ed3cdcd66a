//! What a certificate's verify page shows (issue 33 item 5, DESIGN.md section 16).

use askama::Template;

use crate::views::layout::Layout;

/// A certificate's verify page as drawn (`templates/pages/certificate.html`): the name, the
/// type, the event, its dates, and whether it is valid. Nothing else of it.
#[derive(Template)]
#[template(path = "pages/certificate.html")]
pub struct CertificatePage {
    pub layout: Layout,
    pub name: String,
    /// `Attendance` or `Presentation`.
    pub kind: &'static str,
    pub event: String,
    pub dates: String,
    pub valid: bool,
    /// The PDF of a revoked certificate was asked for (410).
    pub gone: bool,
}
