//! A QR code as inline SVG (DESIGN.md section 16: the ticket's QR on the attendee page),
//! drawn by the `qrcode` crate without its image feature.

use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};

/// `text` as an SVG QR code for an HTML page: medium error correction (a phone reads it off
/// a creased print or a dim screen), the standard four-module quiet zone, black on white,
/// scaled by CSS (no fixed size), `role="img"` with `label` as its accessible name. The XML
/// declaration the crate writes is left out: an HTML page allows none inside its body.
/// `None` when `text` is too long for any QR code (about 2,300 bytes at this level).
pub fn svg(text: &str, label: &str) -> Option<String> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).ok()?;
    let drawn = code.render::<svg::Color>().quiet_zone(true).module_dimensions(1, 1).build();
    let start = drawn.find("<svg")?;
    let label = label.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
    Some(drawn[start..].replacen("<svg ", &format!("<svg role=\"img\" aria-label=\"{label}\" class=\"qr\" "), 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_svg_is_one_element_with_its_label_and_no_xml_declaration() {
        let drawn = svg("https://conf.example.org/check-in/ABC", "QR code \"of\" the ticket").unwrap();
        assert!(drawn.starts_with("<svg role=\"img\" aria-label=\"QR code &quot;of&quot; the ticket\""), "{drawn}");
        assert!(drawn.ends_with("</svg>"), "{drawn}");
        assert!(!drawn.contains("<?xml"));
        assert_eq!(drawn.matches("<svg").count(), 1);
        assert!(svg(&"x".repeat(5000), "too long").is_none());
    }
}
