//! The PDFs an attendee receives (issue 33 item 7): the ticket, the receipt or credit note, and
//! the certificates. Each is drawn from values only, so the same values give the same bytes on
//! every server and every download (receipts are never rewritten, item 4).
//!
//! Each document's layout is a template in the repository, `templates/pdf/<name>.json`, in the
//! small layout language of [`layout`]; this module only names the values a template draws.
//! krilla draws them (chosen by measurement: bench/README.md, "PDF library (issue 33 item
//! 7)") with the repository's DejaVu Sans embedded as subsets.

mod layout;

use std::sync::LazyLock;

use layout::{Scope, Template};

use super::receipts::Content;

static TICKET: LazyLock<Template> =
    LazyLock::new(|| Template::parse("ticket.json", include_str!("../../templates/pdf/ticket.json")));
static RECEIPT: LazyLock<Template> =
    LazyLock::new(|| Template::parse("receipt.json", include_str!("../../templates/pdf/receipt.json")));
static CERTIFICATE: LazyLock<Template> =
    LazyLock::new(|| Template::parse("certificate.json", include_str!("../../templates/pdf/certificate.json")));

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

/// The ticket as a PDF: one A4 page (`templates/pdf/ticket.json`).
pub fn ticket_pdf(doc: &TicketDocument) -> Vec<u8> {
    let scope = Scope::default()
        .text("event", &doc.event)
        .text("dates", &doc.dates)
        .text("venue", &doc.venue)
        .text("holder_name", &doc.holder_name)
        .text("ticket_type", &doc.ticket_type)
        .text("mode", &doc.mode)
        .text("order_id", &doc.order_id)
        .text("check_in_url", &doc.check_in_url);
    layout::render(&TICKET, &scope, &format!("Ticket: {}", doc.event))
}

/// A receipt or credit note, as issued (`content` is the stored JSON): one A4 page
/// (`templates/pdf/receipt.json`) titled as issued (`Receipt`, `Invoice` or `Credit note`).
pub fn receipt_pdf(content: &Content) -> Vec<u8> {
    let lines = content
        .lines
        .iter()
        .map(|l| Scope::default().text("description", &l.description).text("amount", Content::amount(l.amount_cents)))
        .collect();
    let scope = Scope::default()
        .text("title", &content.title)
        .text("number", &content.number)
        .text("date", &content.date)
        .text("seller_name", &content.seller.name)
        .lines("seller_address", &content.seller.address)
        .text("seller_tax_number", &content.seller.reference)
        .text("buyer_name", &content.buyer.name)
        .lines("buyer_address", &content.buyer.address)
        .text("buyer_email", &content.buyer.reference)
        .list("lines", lines)
        .text("currency", &content.currency)
        .text("total", content.total())
        .text("status", &content.status)
        .text("order_id", &content.order_id)
        .text("method", &content.method)
        .text("tracking_id", &content.tracking_id)
        .text("cites", content.cites.clone().unwrap_or_default())
        .text("test", if content.test { "yes" } else { "" });
    layout::render(&RECEIPT, &scope, &format!("{} {}", content.title, content.number))
}

/// A certificate as a PDF: one A4 landscape page (`templates/pdf/certificate.json`); a
/// signatory without a signature image, or with one that is not a PNG, is named without it.
pub fn certificate_pdf(doc: &CertificateDocument) -> Vec<u8> {
    let signatories = doc
        .signatories
        .iter()
        .map(|s| {
            Scope::default().text("name", &s.name).text("role", &s.role).image("signature", s.signature_png.as_deref())
        })
        .collect();
    let scope = Scope::default()
        .text("holder_name", &doc.holder_name)
        .text("heading", &doc.heading)
        .text("title", doc.title.clone().unwrap_or_default())
        .text("event", &doc.event)
        .text("dates", &doc.dates)
        .list("signatories", signatories)
        .text("verify_url", &doc.verify_url);
    layout::render(&CERTIFICATE, &scope, &format!("{}: {}", doc.heading, doc.holder_name))
}

/// Whether `png` is a signature image the certificate can draw, decoded as the PDFs decode
/// it; one that is not is left out of the certificate (`seed --check` names it beforehand).
pub fn png_draws(png: &[u8]) -> bool {
    layout::decode_png(png).is_some()
}

/// The tests' PDF reader (parsing with lopdf, text through the ToUnicode maps), shared with
/// the integration tests.
#[cfg(test)]
#[path = "../../tests/common/pdf.rs"]
mod pdf_reading;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attendance::receipts::{Line, Party};

    use crate::attendance::documents::pdf_reading::{fonts_not_embedded, pages};

    fn assert_fonts_embedded(pdf: &[u8]) {
        let (missing, fonts) = fonts_not_embedded(pdf);
        assert!(fonts > 0 && missing.is_empty(), "every font embedded: {missing:?} of {fonts}");
    }

    fn ticket() -> TicketDocument {
        TicketDocument {
            event: "International Conference on Examples 2025".into(),
            dates: "21–23 March 2025".into(),
            venue: "Marina Hall, Singapore".into(),
            holder_name: "Zoë Ñúñez".into(),
            ticket_type: "Presenter Physical".into(),
            mode: "In person, at the venue".into(),
            order_id: "ORD-20250301-0001".into(),
            check_in_url: "https://conf.example.org/check-in/ABCDEFGHJKLMNPQRSTUVWXYZ23".into(),
        }
    }

    #[test]
    fn a_ticket_shows_its_holder_type_order_and_check_in_address_with_embedded_fonts() {
        let pdf = ticket_pdf(&ticket());
        assert!(pdf.starts_with(b"%PDF-"));
        let pages = pages(&pdf);
        assert_eq!(pages.len(), 1);
        let text = &pages[0];
        for expected in [
            "International Conference on Examples 2025",
            "21–23 March 2025 · Marina Hall, Singapore",
            "Presenter Physical",
            "Zoë Ñúñez",
            "In person, at the venue",
            "ORD-20250301-0001",
            "Show this code at the registration desk.",
            "https://conf.example.org/check-in/ABCDEFGHJKLMNPQRSTUVWXYZ23",
        ] {
            assert!(text.contains(expected), "{expected:?} in {text:?}");
        }
        assert!(!text.contains('{'), "every placeholder filled: {text}");
        assert_fonts_embedded(&pdf);
        assert_eq!(pdf, ticket_pdf(&ticket()), "the same ticket, the same bytes");
    }

    fn receipt() -> Content {
        Content {
            title: "Receipt".into(),
            number: "FIX-2025-000007".into(),
            date: "1 March 2025".into(),
            seller: Party {
                name: "Examples Society".into(),
                address: vec!["1 Harbour Road".into(), "018989 Singapore".into()],
                reference: "T08SS0001A".into(),
            },
            buyer: Party {
                name: "Zoë Ñúñez".into(),
                address: vec!["Calle Mayor 5".into(), "28013 Madrid".into(), "Spain".into()],
                reference: "zoe@example.org".into(),
            },
            lines: vec![Line { description: "Registration ticket: Presenter Physical".into(), amount_cents: 14500 }],
            currency: "USD".into(),
            total_cents: 14500,
            status: "PAID".into(),
            order_id: "ORD-20250301-0001".into(),
            method: "Credit Card".into(),
            tracking_id: "3100000001".into(),
            cites: None,
            test: false,
        }
    }

    #[test]
    fn a_receipt_shows_seller_buyer_lines_payment_and_paid_with_embedded_fonts() {
        let pdf = receipt_pdf(&receipt());
        let pages = pages(&pdf);
        assert_eq!(pages.len(), 1);
        let text = &pages[0];
        for expected in [
            "Receipt",
            "FIX-2025-000007",
            "Examples Society",
            "1 Harbour Road",
            "Tax number: T08SS0001A",
            "Zoë Ñúñez",
            "28013 Madrid",
            "zoe@example.org",
            "Registration ticket: Presenter Physical",
            "145.00",
            "USD 145.00",
            "1 March 2025",
            "Credit Card",
            "ORD-20250301-0001",
            "3100000001",
            "PAID",
        ] {
            assert!(text.contains(expected), "{expected:?} in {text:?}");
        }
        assert!(!text.contains("cancels"), "a receipt cites nothing");
        assert!(!text.contains("TEST"), "paid for real");
        assert!(!text.contains('{'), "every placeholder filled: {text}");
        assert_fonts_embedded(&pdf);
        assert_eq!(pdf, receipt_pdf(&receipt()), "a number's document is the same bytes every time");
    }

    #[test]
    fn a_credit_note_cites_the_receipt_it_cancels_and_a_test_payment_says_so() {
        let note = Content {
            title: "Credit note".into(),
            number: "FIX-2025-000009".into(),
            status: "CREDITED".into(),
            cites: Some("FIX-2025-000007".into()),
            test: true,
            ..receipt()
        };
        let text = &pages(&receipt_pdf(&note))[0];
        for expected in [
            "Credit note",
            "FIX-2025-000009",
            "This credit note cancels receipt FIX-2025-000007",
            "CREDITED",
            "TEST: paid through the site's test gateway; no money moved.",
        ] {
            assert!(text.contains(expected), "{expected:?} in {text:?}");
        }
        assert!(!text.contains("PAID"), "{text}");
    }

    /// A small PNG, `width` × `height`, RGBA.
    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        let pixels: Vec<u8> =
            (0..width * height).flat_map(|i| [20, 30, 90, if i % 3 == 0 { 255 } else { 0 }]).collect();
        writer.write_image_data(&pixels).unwrap();
        writer.finish().unwrap();
        out
    }

    fn certificate() -> CertificateDocument {
        CertificateDocument {
            holder_name: "Zoë Ñúñez — Ζωή Νούνιεζ".into(),
            heading: "Certificate of Presentation".into(),
            title: Some("Gapless numbering of receipts under concurrent payments".into()),
            event: "International Conference on Examples 2025".into(),
            dates: "21–23 March 2025".into(),
            signatories: vec![
                Signatory { name: "Ada Chair".into(), role: "General Chair".into(), signature_png: Some(png(120, 40)) },
                Signatory { name: "Борис Co".into(), role: "Programme Chair".into(), signature_png: None },
                Signatory {
                    name: "Cy Broken".into(),
                    role: "Treasurer".into(),
                    signature_png: Some(b"not a png".to_vec()),
                },
            ],
            verify_url: "https://conf.example.org/certificates/ABCDEFGHJKLMNPQR".into(),
        }
    }

    #[test]
    fn a_certificate_names_holder_paper_event_signatories_and_its_verify_address() {
        let pdf = certificate_pdf(&certificate());
        let pages = pages(&pdf);
        assert_eq!(pages.len(), 1);
        let text = &pages[0];
        for expected in [
            "Certificate of Presentation",
            "Zoë Ñúñez — Ζωή Νούνιεζ",
            "presented the paper",
            "Gapless numbering of receipts under concurrent payments",
            "International Conference on Examples 2025",
            "21–23 March 2025",
            "Ada Chair",
            "General Chair",
            "Борис Co",
            "Cy Broken",
            "https://conf.example.org/certificates/ABCDEFGHJKLMNPQR",
        ] {
            assert!(text.contains(expected), "{expected:?} in {text:?}");
        }
        assert!(!text.contains("attended"), "{text}");
        assert_fonts_embedded(&pdf);
        // The one good signature is an image; the broken one is left out, its name kept.
        let doc = lopdf::Document::load_mem(&pdf).unwrap();
        let images = doc
            .objects
            .values()
            .filter_map(|o| o.as_stream().ok())
            .filter(|s| s.dict.get(b"Subtype").and_then(|t| t.as_name()).ok() == Some(b"Image".as_slice()))
            .filter(|s| s.dict.get(b"ColorSpace").and_then(|c| c.as_name()).ok() != Some(b"DeviceGray".as_slice()))
            .count();
        assert_eq!(images, 1, "one signature image (its alpha is a soft mask)");
        assert_eq!(pdf, certificate_pdf(&certificate()), "the same certificate, the same bytes");
    }

    #[test]
    fn an_attendance_certificate_says_attended_and_names_no_paper() {
        let doc = CertificateDocument {
            heading: "Certificate of Attendance".into(),
            title: None,
            signatories: Vec::new(),
            ..certificate()
        };
        let text = &pages(&certificate_pdf(&doc))[0];
        assert!(text.contains("Certificate of Attendance") && text.contains("attended"), "{text}");
        assert!(!text.contains("presented"), "{text}");
    }
}
