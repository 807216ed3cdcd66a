//! The PDFs an attendee receives (issue 33 item 7): the ticket, the receipt or credit note, and
//! the certificates. Each is drawn from values only, so the same values give the same bytes on
//! every server and every download (receipts are never rewritten, item 4).
//!
//! INTERFACE COMMIT: the bodies below are placeholders that the PDF branch replaces; they exist
//! so the certificate branch can be built against the signatures at the same time. Nothing may
//! land on main with these bodies.

use super::receipts::Content;

/// What a ticket PDF shows (DESIGN.md section 16): the QR of `check_in_url`, and that URL as
/// text under it for people who type it.
#[derive(Debug, Clone)]
pub struct TicketDocument {
    /// The conference's full name (`site.name`).
    pub event: String,
    /// The conference's dates as a visitor reads them, e.g. "21–23 March 2025".
    pub dates: String,
    /// Venue name and city, one line.
    pub venue: String,
    pub holder_name: String,
    pub ticket_type: String,
    /// "In person" or "Online".
    pub mode: String,
    pub order_id: String,
    /// `PUBLIC_URL/check-in/<code>`.
    pub check_in_url: String,
}

/// One signature at the foot of a certificate: the organiser's name, role, and their signature
/// image (PNG bytes from the seed), if any.
#[derive(Debug, Clone)]
pub struct Signatory {
    pub name: String,
    pub role: String,
    pub signature_png: Option<Vec<u8>>,
}

/// What a certificate says (issue 33 item 5).
#[derive(Debug, Clone)]
pub struct CertificateDocument {
    pub holder_name: String,
    /// "Certificate of Attendance" or "Certificate of Presentation".
    pub heading: String,
    /// The paper's title, for a presentation certificate.
    pub title: Option<String>,
    pub event: String,
    /// As in [`TicketDocument::dates`].
    pub dates: String,
    pub signatories: Vec<Signatory>,
    /// `PUBLIC_URL/certificates/<code>`, in a QR and printed.
    pub verify_url: String,
}

/// The ticket as a PDF.
pub fn ticket_pdf(_doc: &TicketDocument) -> Vec<u8> {
    b"%PDF-1.7\n%placeholder: the renderer lands with the PDF branch\n".to_vec()
}

/// A receipt or credit note, as issued (`content` is the stored JSON).
pub fn receipt_pdf(_content: &Content) -> Vec<u8> {
    b"%PDF-1.7\n%placeholder: the renderer lands with the PDF branch\n".to_vec()
}

/// A certificate as a PDF.
pub fn certificate_pdf(_doc: &CertificateDocument) -> Vec<u8> {
    b"%PDF-1.7\n%placeholder: the renderer lands with the PDF branch\n".to_vec()
}
