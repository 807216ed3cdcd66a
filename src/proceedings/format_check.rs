//! The format check of a camera-ready PDF (DESIGN.md section 18, issue 44 item 2): every rule a
//! file must meet before it goes to the publisher, each failure with the pages it concerns and
//! a message its author can act on. The idea is HotCRP's format checker (page size, page
//! limit, fonts, image-only pages); the rules come from the seed ([`FormatRules`]).
//!
//! The file is read in Rust with lopdf (chosen by measurement: bench/README.md, "PDF format
//! check (issue 44 item 2)"), never by running a tool. An upload is hostile until checked, so
//! the work is bounded before any parsing: the size first, then the header and the end of the
//! file, then the parse with every decompressed stream capped ([`MAX_STREAM_BYTES`]) and the
//! pages' content read within one budget ([`MAX_CONTENT_BYTES`]). A file that cannot be read
//! is itself a failure; nothing here panics on any input (a panic inside the parser is caught
//! and reported as an unreadable file).
//!
//! Units: page sizes in millimetres (PDF boxes are in points, 1/72 inch, times the page's
//! `/UserUnit`), file sizes in bytes, pages numbered from 1.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Error as PdfError, LoadOptions, Object, ObjectId};

/// The most one stream (an object stream, a page's content, a form) may inflate to: 64 MiB.
/// A ten-page paper's largest stream is a few hundred kB; this stops a compressed bomb.
pub const MAX_STREAM_BYTES: usize = 64 * 1024 * 1024;

/// The most the pages' content streams may inflate to together: 256 MiB.
pub const MAX_CONTENT_BYTES: usize = 256 * 1024 * 1024;

/// How deep forms drawn inside forms are followed when looking for fonts and text.
const MAX_FORM_DEPTH: usize = 8;

/// How far the `%PDF-` header and the `%%EOF` marker may sit from the file's start and end:
/// ISO 32000-1 readers tolerate bytes before the header, and writers add a line after the
/// marker; 1,024 bytes is the slack common readers give.
const MARKER_SLACK: usize = 1024;

/// A paper size, portrait, in millimetres.
#[derive(Debug, Clone, PartialEq)]
pub struct PaperSize {
    /// As authors know it: "A4", "US Letter".
    pub name: String,
    pub width_mm: f64,
    pub height_mm: f64,
}

impl PaperSize {
    /// ISO 216 A4: 210 × 297 mm.
    pub fn a4() -> Self {
        PaperSize { name: "A4".into(), width_mm: 210.0, height_mm: 297.0 }
    }
}

/// What a camera-ready PDF must meet (DESIGN.md section 18); the seed fills it, and
/// [`Default`] gives the design's defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct FormatRules {
    /// Every page's size, either way up (a landscape page of a wide table is still A4 paper).
    pub paper: PaperSize,
    /// How far each side of a page may be from `paper`, in millimetres (default 2).
    pub tolerance_mm: f64,
    /// Fewest pages (default 4).
    pub min_pages: u32,
    /// Most pages (default 12).
    pub max_pages: u32,
    /// Largest file, in bytes (default 10,000,000: 10 MB). Checked before anything is parsed.
    pub max_bytes: u64,
    /// Every font's program in the file (default on): a font that is not embedded prints in
    /// whatever the press has in its place.
    pub fonts_embedded: bool,
    /// Text on every page (default on): a page that is only an image is a scan, which
    /// indexers and readers cannot search.
    pub text_on_every_page: bool,
}

impl Default for FormatRules {
    fn default() -> Self {
        FormatRules {
            paper: PaperSize::a4(),
            tolerance_mm: 2.0,
            min_pages: 4,
            max_pages: 12,
            max_bytes: 10_000_000,
            fonts_embedded: true,
            text_on_every_page: true,
        }
    }
}

/// Which rule a failure breaks. Encryption and JavaScript are always checked: a publisher can
/// process neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rule {
    /// Larger than [`FormatRules::max_bytes`].
    FileSize,
    /// Not a PDF, cut short, or damaged past reading.
    Readable,
    /// Protected by a password or encrypted (even with an empty password).
    Encryption,
    /// Carries JavaScript: the document's `/Names /JavaScript` tree, an `/OpenAction` or
    /// additional action (`/AA`) of the document, a page or an annotation with `/S /JavaScript`.
    JavaScript,
    /// Fewer than [`FormatRules::min_pages`] or more than [`FormatRules::max_pages`].
    PageCount,
    /// A page that is not [`FormatRules::paper`] within the tolerance.
    PageSize,
    /// A font whose program is not in the file.
    FontsEmbedded,
    /// A page with no text drawn on it. Invisible text counts (an OCR layer over a scan
    /// passes): the rule is that readers and indexers can search every page.
    TextOnEveryPage,
}

impl Rule {
    /// The rule's name in an answer's `errors` (e.g. `page_size`).
    pub fn key(self) -> &'static str {
        match self {
            Rule::FileSize => "file_size",
            Rule::Readable => "readable",
            Rule::Encryption => "encryption",
            Rule::JavaScript => "javascript",
            Rule::PageCount => "page_count",
            Rule::PageSize => "page_size",
            Rule::FontsEmbedded => "fonts_embedded",
            Rule::TextOnEveryPage => "text_on_every_page",
        }
    }
}

/// One broken rule: the pages it concerns (numbered from 1, ascending; empty when it concerns
/// the whole file) and a sentence for the author saying what is wrong and what is wanted.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub rule: Rule,
    pub pages: Vec<u32>,
    pub message: String,
}

/// The outcome of a check: the file's page count when it could be read, and every failure
/// (none: the file passes).
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub pages: Option<u32>,
    pub failures: Vec<Failure>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// The failures as a 422's `errors`: rule key → its messages, joined by a space when a
    /// rule failed more than once (two fonts, two wrong page sizes).
    pub fn errors(&self) -> BTreeMap<String, String> {
        let mut errors: BTreeMap<String, String> = BTreeMap::new();
        for failure in &self.failures {
            errors
                .entry(failure.rule.key().to_owned())
                .and_modify(|text| {
                    text.push(' ');
                    text.push_str(&failure.message);
                })
                .or_insert_with(|| failure.message.clone());
        }
        errors
    }
}

/// Checks `pdf` (the whole file) against `rules`. Never panics; the work is bounded by the
/// size rule and the module's stream budgets. CPU-bound and synchronous: a ten-page paper
/// takes about 0.2 ms in a release build, a damaged one up to tens of milliseconds, so an
/// async caller runs it in `spawn_blocking`.
pub fn check(pdf: &[u8], rules: &FormatRules) -> Report {
    if pdf.len() as u64 > rules.max_bytes {
        let message = format!(
            "The file is {}; the proceedings take files of at most {}. Compress the images and export again.",
            size_text(pdf.len() as u64, u64::div_ceil),
            size_text(rules.max_bytes, |a, b| a / b)
        );
        return unread(Rule::FileSize, message);
    }
    let head = &pdf[..pdf.len().min(MARKER_SLACK)];
    if find(head, b"%PDF-").is_none() {
        return unread(
            Rule::Readable,
            "This file is not a PDF. Export or print your paper to PDF and upload that file.".into(),
        );
    }
    let tail = &pdf[pdf.len().saturating_sub(MARKER_SLACK)..];
    if find(tail, b"%%EOF").is_none() {
        return unread(
            Rule::Readable,
            "The PDF is incomplete: it stops before its end (the upload or the export was cut short). \
             Export it again and upload the new file."
                .into(),
        );
    }
    let options = LoadOptions { max_decompressed_size: Some(MAX_STREAM_BYTES), ..LoadOptions::default() };
    // lopdf is a parser of untrusted bytes; a panic in it is one more unreadable file.
    let outcome = catch_unwind(AssertUnwindSafe(|| match Document::load_mem_with_options(pdf, options) {
        Ok(doc) => inspect(&doc, rules),
        Err(err) => refused(&err),
    }));
    outcome.unwrap_or_else(|_| unread(Rule::Readable, damaged()))
}

fn unread(rule: Rule, message: String) -> Report {
    Report { pages: None, failures: vec![Failure { rule, pages: Vec::new(), message }] }
}

fn damaged() -> String {
    "The PDF is damaged and cannot be read. Export it again from your editor and upload the new file.".into()
}

fn encrypted() -> String {
    "The PDF is encrypted or protected by a password. Export it again without a password or \
     restrictions."
        .into()
}

/// A file lopdf refused: a password it could not open is the encryption rule, anything else is
/// an unreadable file.
fn refused(err: &PdfError) -> Report {
    match err {
        PdfError::InvalidPassword
        | PdfError::Decryption(_)
        | PdfError::UnsupportedSecurityHandler(_)
        | PdfError::AlreadyEncrypted => unread(Rule::Encryption, encrypted()),
        _ => unread(Rule::Readable, damaged()),
    }
}

/// The rules a parsed document can break, in the order an author fixes them.
fn inspect(doc: &Document, rules: &FormatRules) -> Report {
    let mut failures = Vec::new();
    if doc.is_encrypted() || doc.was_encrypted() {
        failures.push(Failure { rule: Rule::Encryption, pages: Vec::new(), message: encrypted() });
    }
    let pages: Vec<ObjectId> = doc.page_iter().collect();
    let count = u32::try_from(pages.len()).unwrap_or(u32::MAX);
    if count == 0 {
        failures.push(Failure { rule: Rule::Readable, pages: Vec::new(), message: damaged() });
        return Report { pages: Some(0), failures };
    }
    failures.extend(javascript(doc, &pages));
    failures.extend(page_count(count, rules));
    failures.extend(page_sizes(doc, &pages, rules));
    let mut budget = MAX_CONTENT_BYTES;
    let mut fonts: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut textless = Vec::new();
    let mut imaged = false;
    for (number, &page) in (1..).zip(&pages) {
        let Ok(dict) = doc.get_dictionary(page) else { continue };
        let resources = inherited(doc, dict, b"Resources").and_then(|r| r.as_dict().ok());
        if rules.fonts_embedded {
            for name in missing_fonts(doc, resources, 0, &mut BTreeSet::new()) {
                let pages = fonts.entry(name).or_default();
                if pages.last() != Some(&number) {
                    pages.push(number);
                }
            }
        }
        if rules.text_on_every_page {
            let Ok(content) = doc.get_page_content_with_limit(page, budget) else {
                failures.push(Failure { rule: Rule::Readable, pages: vec![number], message: too_complex() });
                break;
            };
            budget = budget.saturating_sub(content.len());
            let found = drawn(doc, &content, resources, 0, &mut budget);
            if !found.text {
                textless.push(number);
                imaged |= found.image;
            }
        }
    }
    for (font, pages) in fonts {
        let message = format!(
            "The font {font} is not embedded ({}). Export the PDF again with all fonts embedded.",
            page_list(&pages)
        );
        failures.push(Failure { rule: Rule::FontsEmbedded, pages, message });
    }
    if !textless.is_empty() {
        let what = if imaged { "only images (scanned?)" } else { "nothing but drawings or blank space" };
        let message = format!(
            "{} no text, {what}. The proceedings need text that readers and indexers can search: \
             export the page from your editor instead of scanning or pasting it as a picture.",
            have(&textless),
        );
        failures.push(Failure { rule: Rule::TextOnEveryPage, pages: textless, message });
    }
    Report { pages: Some(count), failures }
}

fn too_complex() -> String {
    "The PDF's pages hold more content than the check reads (over 256 MB once unpacked). \
     Export it again with compressed images."
        .into()
}

fn page_count(count: u32, rules: &FormatRules) -> Option<Failure> {
    let plural = |n: u32| if n == 1 { "page" } else { "pages" };
    if count < rules.min_pages {
        let message = format!(
            "The paper has {count} {}; the proceedings need at least {} {}.",
            plural(count),
            rules.min_pages,
            plural(rules.min_pages)
        );
        Some(Failure { rule: Rule::PageCount, pages: Vec::new(), message })
    } else if count > rules.max_pages {
        let message = format!(
            "The paper has {count} pages; the proceedings take at most {} {}.",
            rules.max_pages,
            plural(rules.max_pages)
        );
        Some(Failure { rule: Rule::PageCount, pages: (rules.max_pages + 1..=count).collect(), message })
    } else {
        None
    }
}

/// One failure per distinct wrong size (rounded to whole millimetres), naming its pages.
fn page_sizes(doc: &Document, pages: &[ObjectId], rules: &FormatRules) -> Vec<Failure> {
    let want = &rules.paper;
    let mut wrong: BTreeMap<Option<(i64, i64)>, Vec<u32>> = BTreeMap::new();
    for (number, &page) in (1..).zip(pages) {
        match page_size_mm(doc, page) {
            Some((w, h)) if fits(w, h, want, rules.tolerance_mm) => {}
            Some((w, h)) => wrong.entry(Some((w.round() as i64, h.round() as i64))).or_default().push(number),
            None => wrong.entry(None).or_default().push(number),
        }
    }
    let need = format!("the proceedings need {} ({} × {} mm)", want.name, mm(want.width_mm), mm(want.height_mm));
    wrong
        .into_iter()
        .map(|(size, pages)| {
            let message = match size {
                Some((w, h)) => {
                    let named = paper_name(w as f64, h as f64).map(|n| format!(" ({n})")).unwrap_or_default();
                    format!("{} {w} × {h} mm{named}; {need}.", is_are(&pages))
                }
                None => format!("{} no page size that can be read; {need}.", have(&pages)),
            };
            Failure { rule: Rule::PageSize, pages, message }
        })
        .collect()
}

fn fits(w: f64, h: f64, want: &PaperSize, tolerance: f64) -> bool {
    let near = |a: f64, b: f64| (a - b).abs() <= tolerance;
    (near(w, want.width_mm) && near(h, want.height_mm)) || (near(w, want.height_mm) && near(h, want.width_mm))
}

/// Common paper sizes, portrait, in millimetres, to name what a wrong page is.
const PAPERS: [(&str, f64, f64); 8] = [
    ("A3", 297.0, 420.0),
    ("A4", 210.0, 297.0),
    ("A5", 148.0, 210.0),
    ("B5", 176.0, 250.0),
    ("JIS B5", 182.0, 257.0),
    ("US Letter", 215.9, 279.4),
    ("US Legal", 215.9, 355.6),
    ("US Executive", 184.2, 266.7),
];

fn paper_name(w: f64, h: f64) -> Option<&'static str> {
    let (short, long) = if w <= h { (w, h) } else { (h, w) };
    PAPERS.iter().find(|(_, pw, ph)| (short - pw).abs() <= 2.0 && (long - ph).abs() <= 2.0).map(|(name, _, _)| *name)
}

/// The page as shown, in millimetres: its crop box (the media box when there is none, ISO
/// 32000-1 section 14.11.2), times `/UserUnit`, turned by `/Rotate`. None when unreadable.
fn page_size_mm(doc: &Document, page: ObjectId) -> Option<(f64, f64)> {
    let dict = doc.get_dictionary(page).ok()?;
    let rect = |key: &[u8]| -> Option<(f64, f64)> {
        let values = inherited(doc, dict, key)?.as_array().ok()?;
        let numbers: Vec<f64> =
            values.iter().filter_map(|v| doc.dereference(v).ok()?.1.as_float().ok()).map(f64::from).collect();
        let [x0, y0, x1, y1] = numbers[..] else { return None };
        let (w, h) = ((x1 - x0).abs(), (y1 - y0).abs());
        (w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0).then_some((w, h))
    };
    let (w, h) = rect(b"CropBox").or_else(|| rect(b"MediaBox"))?;
    let unit = dict.get(b"UserUnit").ok().and_then(|u| u.as_float().ok()).map_or(1.0, f64::from);
    let to_mm = |points: f64| points * unit * 25.4 / 72.0;
    let quarter_turns = inherited(doc, dict, b"Rotate").and_then(|r| r.as_i64().ok()).unwrap_or(0);
    if quarter_turns.rem_euclid(180) == 90 { Some((to_mm(h), to_mm(w))) } else { Some((to_mm(w), to_mm(h))) }
}

/// A page's entry, looked up through its ancestors for the inheritable ones (`/Resources`,
/// `/MediaBox`, `/CropBox`, `/Rotate`, ISO 32000-1 table 30), dereferenced.
fn inherited<'a>(doc: &'a Document, page: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    let mut node = page;
    for _ in 0..64 {
        if let Ok(value) = node.get(key) {
            return doc.dereference(value).ok().map(|(_, v)| v);
        }
        node = doc.dereference(node.get(b"Parent").ok()?).ok()?.1.as_dict().ok()?;
    }
    None
}

fn deref_dict<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Dictionary> {
    doc.dereference(object).ok()?.1.as_dict().ok()
}

fn name_of<'a>(dict: &'a Dictionary, key: &[u8]) -> Option<&'a [u8]> {
    dict.get(key).ok()?.as_name().ok()
}

/// The names of the fonts in `resources` (and the forms it holds) whose program is not in the
/// file. A Type3 font's glyphs are PDF drawings, so it is always embedded; a Type0 font's
/// program sits with its descendant font.
fn missing_fonts(
    doc: &Document,
    resources: Option<&Dictionary>,
    depth: usize,
    seen: &mut BTreeSet<ObjectId>,
) -> Vec<String> {
    let Some(resources) = resources else { return Vec::new() };
    let mut missing = Vec::new();
    let fonts = resources.get(b"Font").ok().and_then(|f| deref_dict(doc, f));
    for (_, font) in fonts.into_iter().flat_map(Dictionary::iter) {
        let Some(font) = deref_dict(doc, font) else { continue };
        if !font_embedded(doc, font) {
            let name =
                name_of(font, b"BaseFont").map_or("(unnamed)".into(), |n| String::from_utf8_lossy(n).into_owned());
            // A subset's name starts with six capitals and a plus: ABCDEF+Times-Roman.
            let name = match name.split_once('+') {
                Some((tag, rest)) if tag.len() == 6 && tag.bytes().all(|b| b.is_ascii_uppercase()) => rest.to_owned(),
                _ => name,
            };
            missing.push(name);
        }
    }
    for form in forms(doc, resources, seen) {
        if depth < MAX_FORM_DEPTH {
            let inner = form.get(b"Resources").ok().and_then(|r| deref_dict(doc, r));
            missing.extend(missing_fonts(doc, inner, depth + 1, seen));
        }
    }
    missing
}

fn font_embedded(doc: &Document, font: &Dictionary) -> bool {
    let has_program = |font: &Dictionary| {
        font.get(b"FontDescriptor")
            .ok()
            .and_then(|d| deref_dict(doc, d))
            .is_some_and(|d| d.has(b"FontFile") || d.has(b"FontFile2") || d.has(b"FontFile3"))
    };
    match name_of(font, b"Subtype") {
        Some(b"Type3") => true,
        Some(b"Type0") => font
            .get(b"DescendantFonts")
            .ok()
            .and_then(|d| doc.dereference(d).ok()?.1.as_array().ok())
            .and_then(|list| list.first())
            .and_then(|d| deref_dict(doc, d))
            .is_some_and(has_program),
        _ => has_program(font),
    }
}

/// The form XObjects of `resources` not seen before (their stream dictionaries).
fn forms<'a>(doc: &'a Document, resources: &'a Dictionary, seen: &mut BTreeSet<ObjectId>) -> Vec<&'a Dictionary> {
    let xobjects = resources.get(b"XObject").ok().and_then(|x| deref_dict(doc, x));
    let mut found = Vec::new();
    for (_, object) in xobjects.into_iter().flat_map(Dictionary::iter) {
        let Ok((id, Object::Stream(stream))) = doc.dereference(object) else { continue };
        if name_of(&stream.dict, b"Subtype") == Some(b"Form") && id.is_none_or(|id| seen.insert(id)) {
            found.push(&stream.dict);
        }
    }
    found
}

/// What a content stream draws, as far as the text rule cares.
#[derive(Default)]
struct Drawn {
    text: bool,
    image: bool,
}

/// Whether `content` shows text (`Tj`, `TJ`, `'`, `"`; ISO 32000-1 section 9.4.3) or draws an
/// image, itself or in a form it draws (`Do`), within `budget` bytes of inflated forms.
fn drawn(doc: &Document, content: &[u8], resources: Option<&Dictionary>, depth: usize, budget: &mut usize) -> Drawn {
    let mut found = Drawn::default();
    for operation in Content::decode_iter(content) {
        let Ok(operation) = operation else { break };
        match operation.operator.as_str() {
            "Tj" | "TJ" | "'" | "\"" => {
                found.text = true;
                return found;
            }
            "BI" | "ID" => found.image = true,
            "Do" => {
                let name = operation.operands.first().and_then(|n| n.as_name().ok());
                let xobject = resources
                    .and_then(|r| r.get(b"XObject").ok())
                    .and_then(|x| deref_dict(doc, x))
                    .zip(name)
                    .and_then(|(x, name)| x.get(name).ok())
                    .and_then(|o| doc.dereference(o).ok()?.1.as_stream().ok());
                let Some(stream) = xobject else { continue };
                match name_of(&stream.dict, b"Subtype") {
                    Some(b"Image") => found.image = true,
                    Some(b"Form") if depth < MAX_FORM_DEPTH => {
                        let Ok(inner) = stream.decompressed_content_with_limit((*budget).min(MAX_STREAM_BYTES)) else {
                            continue;
                        };
                        *budget = budget.saturating_sub(inner.len());
                        let own = stream.dict.get(b"Resources").ok().and_then(|r| deref_dict(doc, r)).or(resources);
                        let inside = drawn(doc, &inner, own, depth + 1, budget);
                        found.image |= inside.image;
                        if inside.text {
                            found.text = true;
                            return found;
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    found
}

/// JavaScript anywhere a viewer runs it: the document's name tree, its open action and
/// additional actions (one failure for the document), and each page's additional actions and
/// annotations' actions (one failure naming the pages).
fn javascript(doc: &Document, pages: &[ObjectId]) -> Vec<Failure> {
    let mut failures = Vec::new();
    if let Ok(catalog) = doc.catalog() {
        let in_names =
            catalog.get(b"Names").ok().and_then(|n| deref_dict(doc, n)).is_some_and(|n| n.has(b"JavaScript"));
        let on_open = catalog.get(b"OpenAction").ok().is_some_and(|a| runs_script(doc, a, 0));
        let on_event = catalog.get(b"AA").ok().is_some_and(|aa| triggers_script(doc, aa));
        if in_names || on_open || on_event {
            let message = "The PDF runs JavaScript when it is opened or used. Export it again without \
                           scripts (from the editor, not an interactive form)."
                .to_owned();
            failures.push(Failure { rule: Rule::JavaScript, pages: Vec::new(), message });
        }
    }
    let mut scripted = Vec::new();
    for (number, &page) in (1..).zip(pages) {
        let Ok(dict) = doc.get_dictionary(page) else { continue };
        let on_page = dict.get(b"AA").ok().is_some_and(|aa| triggers_script(doc, aa));
        let annotations = dict.get(b"Annots").ok().and_then(|a| doc.dereference(a).ok()?.1.as_array().ok());
        let in_annotation = annotations.into_iter().flatten().filter_map(|a| deref_dict(doc, a)).any(|annotation| {
            annotation.get(b"A").ok().is_some_and(|a| runs_script(doc, a, 0))
                || annotation.get(b"AA").ok().is_some_and(|aa| triggers_script(doc, aa))
        });
        if on_page || in_annotation {
            scripted.push(number);
        }
    }
    if !scripted.is_empty() {
        let their = if scripted.len() == 1 { "its" } else { "their" };
        let message = format!(
            "{} JavaScript in {their} actions or links. Export the PDF again without scripts.",
            have(&scripted)
        );
        failures.push(Failure { rule: Rule::JavaScript, pages: scripted, message });
    }
    failures
}

/// An additional-actions dictionary (`/AA`: trigger → action) with a script among its actions.
fn triggers_script(doc: &Document, actions: &Object) -> bool {
    deref_dict(doc, actions).is_some_and(|aa| aa.iter().any(|(_, action)| runs_script(doc, action, 0)))
}

/// An action (ISO 32000-1 section 12.6) that is JavaScript, or chains one through `/Next`.
fn runs_script(doc: &Document, action: &Object, depth: usize) -> bool {
    let Some(action) = deref_dict(doc, action) else { return false };
    if name_of(action, b"S") == Some(b"JavaScript") || action.has(b"JS") {
        return true;
    }
    if depth >= MAX_FORM_DEPTH {
        return false;
    }
    match action.get(b"Next").ok().and_then(|n| doc.dereference(n).ok()).map(|(_, n)| n) {
        Some(Object::Array(next)) => next.iter().any(|n| runs_script(doc, n, depth + 1)),
        Some(next) => runs_script(doc, next, depth + 1),
        None => false,
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// `bytes` in kB under a megabyte, else in MB to one decimal (decimal units), rounded by
/// `round` (up for a file, down for a limit, so the two never read the same).
fn size_text(bytes: u64, round: fn(u64, u64) -> u64) -> String {
    if bytes < 1_000_000 {
        format!("{} kB", round(bytes, 1_000))
    } else {
        let tenths = round(bytes, 100_000);
        format!("{}.{} MB", tenths / 10, tenths % 10)
    }
}

fn mm(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    if rounded.fract() == 0.0 { format!("{rounded:.0}") } else { format!("{rounded:.1}") }
}

/// "Page 3 is" or "Pages 1–3, 5 are".
fn is_are(pages: &[u32]) -> String {
    let list = page_list(pages);
    let verb = if pages.len() == 1 { "is" } else { "are" };
    capitalised(&format!("{list} {verb}"))
}

/// "Page 3 has" or "Pages 1–3, 5 have".
fn have(pages: &[u32]) -> String {
    let list = page_list(pages);
    let verb = if pages.len() == 1 { "has" } else { "have" };
    capitalised(&format!("{list} {verb}"))
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// "page 3", "pages 1–3, 5" (ascending numbers, runs joined by an en dash).
pub fn page_list(pages: &[u32]) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &page in pages {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == page => *end = page,
            _ => runs.push((page, page)),
        }
    }
    let runs: Vec<String> =
        runs.iter().map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}–{b}") }).collect();
    let word = if pages.len() == 1 { "page" } else { "pages" };
    format!("{word} {}", runs.join(", "))
}
