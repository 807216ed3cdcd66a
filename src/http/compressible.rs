//! Which answers the compression layer may compress: text, never a file that is already
//! compressed or that an organiser downloads as it was stored (issue 30).
//!
//! tower-http's default predicate compresses every type but images, gRPC and event streams,
//! so a PDF, DOCX or ZIP paper went out gzipped again (no gain, CPU spent, no
//! `Content-Length`, no ranges). This one allows only types that are text: `text/*` (HTML,
//! CSV, calendars), JSON and XML (and their `+json`/`+xml` kinds), JavaScript and SVG.
//! Everything else, papers included whatever their type, is sent as it is.

use axum::http::{Response, header};
use tower_http::compression::Predicate;

/// tower-http compression predicate: compress text-like answers only (see the module's text).
#[derive(Debug, Clone, Copy, Default)]
pub struct TextLike;

impl Predicate for TextLike {
    fn should_compress<B>(&self, response: &Response<B>) -> bool
    where
        B: axum::body::HttpBody,
    {
        response.headers().get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok()).is_some_and(is_text_like)
    }
}

/// Whether the media type `content_type` (parameters allowed) is text worth compressing.
/// `text/event-stream` is left alone: it is written as events happen.
pub fn is_text_like(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let Some((kind, subtype)) = essence.split_once('/') else { return false };
    match kind {
        "text" => subtype != "event-stream",
        "application" => {
            matches!(subtype, "json" | "javascript" | "xml" | "x-www-form-urlencoded")
                || subtype.ends_with("+json")
                || subtype.ends_with("+xml")
        }
        "image" => subtype == "svg+xml",
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_text_like;

    #[test]
    fn text_json_xml_and_svg_are_compressed_papers_archives_and_images_are_not() {
        for yes in [
            "text/html; charset=utf-8",
            "text/csv; charset=utf-8",
            "text/calendar",
            "application/json",
            "application/manifest+json",
            "application/xml",
            "application/rss+xml",
            "Application/JSON",
            "image/svg+xml",
        ] {
            assert!(is_text_like(yes), "{yes}");
        }
        for no in [
            "application/pdf",
            "application/zip",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "application/msword",
            "application/octet-stream",
            "image/png",
            "image/webp",
            "text/event-stream",
            "",
            "garbage",
        ] {
            assert!(!is_text_like(no), "{no}");
        }
    }
}
