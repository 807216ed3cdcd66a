//! Reading the site's PDFs as a reader does (issue 33 item 7): lopdf parses the file; the text
//! of a page is what its text operators show, decoded through each font's ToUnicode map; a
//! font is embedded when its descriptor carries the font program.
//!
//! lopdf's own `extract_text` is not used: its ToUnicode parser takes only `/CIDSystemInfo`,
//! `/CMapName` and `/CMapType` before the mappings and rejects the `/CMapVersion` and `/WMode`
//! entries that krilla (pdf-writer) writes, as PDF 32000-1 section 9.10.3 allows. The maps are
//! read here instead: `bfchar` and `bfrange` sections, UTF-16BE destinations.
//!
//! Shared by `tests/attendee_documents.rs` and the unit tests of
//! `src/attendance/documents.rs` (included there by path).

use std::collections::BTreeMap;

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object};

/// The bytes of a `<...>` hex string.
fn hex(token: &str) -> Vec<u8> {
    let digits: Vec<u8> = token.bytes().filter(u8::is_ascii_hexdigit).collect();
    digits.chunks(2).map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap_or(0)).collect()
}

fn code(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0, |acc, b| (acc << 8) | u32::from(*b))
}

fn utf16(bytes: &[u8]) -> String {
    let units: Vec<u16> = bytes.chunks(2).map(|p| u16::from_be_bytes([p[0], *p.get(1).unwrap_or(&0)])).collect();
    String::from_utf16_lossy(&units)
}

/// A ToUnicode CMap's mappings: character code → text.
fn to_unicode(cmap: &str) -> BTreeMap<u32, String> {
    let mut map = BTreeMap::new();
    let tokens: Vec<String> = cmap
        .replace('<', " <")
        .replace('>', "> ")
        .replace('[', " [ ")
        .replace(']', " ] ")
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let mut i = 0;
    let mut section = "";
    while i < tokens.len() {
        match tokens[i].as_str() {
            "beginbfchar" => section = "char",
            "beginbfrange" => section = "range",
            "endbfchar" | "endbfrange" => section = "",
            t if t.starts_with('<') && section == "char" => {
                map.insert(code(&hex(t)), utf16(&hex(&tokens[i + 1])));
                i += 1;
            }
            t if t.starts_with('<') && section == "range" => {
                let (low, high) = (code(&hex(t)), code(&hex(&tokens[i + 1])));
                if tokens[i + 2] == "[" {
                    let mut at = i + 3;
                    for c in low..=high {
                        map.insert(c, utf16(&hex(&tokens[at])));
                        at += 1;
                    }
                    i = at; // on "]"
                } else {
                    let mut start = hex(&tokens[i + 2]);
                    for c in low..=high {
                        map.insert(c, utf16(&start));
                        if let Some(last) = start.last_mut() {
                            *last = last.wrapping_add(1);
                        }
                    }
                    i += 2;
                }
            }
            _ => {}
        }
        i += 1;
    }
    map
}

/// A font of a page: its code width (2 bytes for a Type0 font, else 1) and its map.
struct FontText {
    width: usize,
    map: BTreeMap<u32, String>,
}

fn font_text(doc: &Document, font: &Dictionary) -> FontText {
    let width = if font.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Type0".as_slice()) { 2 } else { 1 };
    let map = font
        .get(b"ToUnicode")
        .and_then(Object::as_reference)
        .and_then(|id| doc.get_object(id))
        .and_then(Object::as_stream)
        .and_then(|s| s.decompressed_content().or_else(|_| Ok(s.content.clone())))
        .map(|bytes| to_unicode(&String::from_utf8_lossy(&bytes)))
        .unwrap_or_default();
    FontText { width, map }
}

/// The text of each page, its text objects and line moves as spaces, white space squeezed to
/// single spaces. Panics when the PDF does not parse.
pub fn pages(pdf: &[u8]) -> Vec<String> {
    let doc = Document::load_mem(pdf).expect("the PDF parses");
    let mut texts = Vec::new();
    for (_, page) in doc.get_pages() {
        let fonts: BTreeMap<Vec<u8>, FontText> = doc
            .get_page_fonts(page)
            .expect("the page's fonts")
            .into_iter()
            .map(|(name, font)| (name, font_text(&doc, font)))
            .collect();
        let content = Content::decode(&doc.get_page_content(page)).expect("its operators");
        let mut text = String::new();
        let mut current: Option<&FontText> = None;
        let show = |bytes: &[u8], font: Option<&FontText>, text: &mut String| {
            let Some(font) = font else { return };
            for c in bytes.chunks(font.width) {
                text.push_str(font.map.get(&code(c)).map(String::as_str).unwrap_or("\u{fffd}"));
            }
        };
        for op in &content.operations {
            match op.operator.as_str() {
                "Tf" => current = op.operands.first().and_then(|n| n.as_name().ok()).and_then(|n| fonts.get(n)),
                "Tj" | "'" | "\"" => {
                    if let Some(bytes) = op.operands.last().and_then(|s| s.as_str().ok()) {
                        show(bytes, current, &mut text);
                    }
                }
                "TJ" => {
                    for part in op.operands.first().and_then(|a| a.as_array().ok()).into_iter().flatten() {
                        if let Ok(bytes) = part.as_str() {
                            show(bytes, current, &mut text);
                        }
                    }
                }
                "BT" | "ET" | "Td" | "TD" | "T*" | "Tm" => text.push(' '),
                _ => {}
            }
        }
        texts.push(text.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    texts
}

/// The fonts of the PDF whose program is not in it (none, when every font is embedded), by
/// name, and how many font descriptors it has (a Type0 font's is its descendant's).
pub fn fonts_not_embedded(pdf: &[u8]) -> (Vec<String>, usize) {
    let doc = Document::load_mem(pdf).expect("the PDF parses");
    let descriptors: Vec<&Dictionary> = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter(|d| d.get(b"Type").and_then(Object::as_name).ok() == Some(b"FontDescriptor".as_slice()))
        .collect();
    let missing = descriptors
        .iter()
        .filter(|d| !(d.has(b"FontFile2") || d.has(b"FontFile3")))
        .map(|d| d.get(b"FontName").and_then(Object::as_name).map(|n| String::from_utf8_lossy(n).into_owned()))
        .map(Result::unwrap_or_default)
        .collect();
    // Every font that draws glyphs (not a Type0 wrapper) has a descriptor to embed it by.
    let drawing = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter(|d| d.get(b"Type").and_then(Object::as_name).ok() == Some(b"Font".as_slice()))
        .filter(|d| d.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"Type0".as_slice()))
        .count();
    assert_eq!(drawing, descriptors.len(), "every font has a descriptor");
    (missing, descriptors.len())
}
