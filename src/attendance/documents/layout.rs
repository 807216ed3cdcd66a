//! The small layout language of `templates/pdf/*.json` and its renderer (krilla).
//!
//! A template is a page size, a margin and a list of blocks laid out from the top down, each
//! below the one before, inside the page less its margin:
//!
//! - `text`: a line of `{name}` placeholders and words, wrapped to the width it has; `font`
//!   (`regular` or `bold`), `size` (points), `align` (`left`, `center`, `right`), `color`
//!   (`#rrggbb`), `leading` (line height as a multiple of the size, 1.3 by default);
//! - `space` (`height` points), `at` (`y`: the next block starts `y` points below the page's
//!   top), `rule` (a line across the width: `thickness`, `color`);
//! - `row`: `columns` side by side (`width`: the share of the row, `blocks`), the row as tall
//!   as its tallest column; `across`: the same `blocks` once per item of the list `each`, in
//!   equal columns;
//! - `qr`: a QR code of `text` (`size` points square, quiet zone included, `align`); `image`:
//!   the PNG named `image`, `height` points tall (at most the width it has), `align`;
//! - `frame`: a border `inset` points inside the page's edge (`thickness`, `color`); it takes
//!   no room.
//!
//! Every block may have `gap` (points of room above it), `if` / `unless` (drawn only when the
//! named text, list or image is present and not empty / absent or empty) and `each` (drawn
//! once per item of the named list, the item's names first, then the document's).
//!
//! The output depends on the values alone: krilla writes no date unless given one and derives
//! the document ID from the content, and the fonts are the repository's
//! (`templates/pdf/fonts/`, DejaVu Sans, embedded as subsets), so the same values give the
//! same bytes on every server.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use krilla::Document;
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect, Size, Transform};
use krilla::image::Image;
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use serde::Deserialize;

/// The regular and bold faces (DejaVu Sans 2.37, Bitstream Vera licence beside them), in the
/// binary so every server draws the same glyphs.
static REGULAR_TTF: &[u8] = include_bytes!("../../../templates/pdf/fonts/DejaVuSans.ttf");
static BOLD_TTF: &[u8] = include_bytes!("../../../templates/pdf/fonts/DejaVuSans-Bold.ttf");

/// A face: what krilla embeds, and its metrics for measuring text.
struct Face {
    pdf: Font,
    metrics: ttf_parser::Face<'static>,
}

impl Face {
    fn load(data: &'static [u8]) -> Face {
        Face {
            pdf: Font::new(data.into(), 0).expect("the repository's font parses"),
            metrics: ttf_parser::Face::parse(data, 0).expect("the repository's font parses"),
        }
    }

    /// The advance of `text` at `size` points, in points (no kerning: close enough to place
    /// a line, never enough to overflow a column by more than a hair).
    fn width(&self, text: &str, size: f32) -> f32 {
        let units: f32 = text
            .chars()
            .map(|c| {
                let glyph = self.metrics.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
                f32::from(self.metrics.glyph_hor_advance(glyph).unwrap_or(0))
            })
            .sum();
        units * size / f32::from(self.metrics.units_per_em())
    }

    /// From the top of a line to its baseline, at `size` points.
    fn ascent(&self, size: f32) -> f32 {
        f32::from(self.metrics.ascender()) * size / f32::from(self.metrics.units_per_em())
    }
}

static REGULAR: LazyLock<Face> = LazyLock::new(|| Face::load(REGULAR_TTF));
static BOLD: LazyLock<Face> = LazyLock::new(|| Face::load(BOLD_TTF));

/// A document's layout, as read from its template.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// Width and height in points.
    page: [f32; 2],
    margin: f32,
    blocks: Vec<Block>,
}

impl Template {
    /// Reads a template; panics with its name when it is not one (templates are compiled in
    /// and each is rendered by a unit test).
    pub fn parse(name: &str, json: &str) -> Template {
        serde_json::from_str(json).unwrap_or_else(|err| panic!("templates/pdf/{name}: {err}"))
    }
}

#[derive(Debug, Deserialize)]
struct Block {
    #[serde(default)]
    gap: f32,
    #[serde(default, rename = "if")]
    when: Option<String>,
    #[serde(default)]
    unless: Option<String>,
    #[serde(default)]
    each: Option<String>,
    #[serde(flatten)]
    kind: Kind,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Kind {
    Text {
        text: String,
        #[serde(default)]
        font: Weight,
        #[serde(default = "default_size")]
        size: f32,
        #[serde(default)]
        align: Align,
        #[serde(default)]
        color: Option<String>,
        #[serde(default = "default_leading")]
        leading: f32,
    },
    Space {
        height: f32,
    },
    At {
        y: f32,
    },
    Rule {
        #[serde(default = "default_thickness")]
        thickness: f32,
        #[serde(default)]
        color: Option<String>,
    },
    Row {
        columns: Vec<Column>,
    },
    Across {
        list: String,
        #[serde(default)]
        spacing: f32,
        blocks: Vec<Block>,
    },
    Qr {
        text: String,
        size: f32,
        #[serde(default)]
        align: Align,
    },
    Image {
        image: String,
        height: f32,
        #[serde(default)]
        align: Align,
    },
    Frame {
        inset: f32,
        #[serde(default = "default_thickness")]
        thickness: f32,
        #[serde(default)]
        color: Option<String>,
    },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Column {
    width: f32,
    blocks: Vec<Block>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Weight {
    #[default]
    Regular,
    Bold,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Align {
    #[default]
    Left,
    Center,
    Right,
}

fn default_size() -> f32 {
    11.0
}

fn default_leading() -> f32 {
    1.3
}

fn default_thickness() -> f32 {
    0.75
}

/// The values a template draws: texts, lists of items (each a scope of its own) and PNG
/// images, by name.
#[derive(Debug, Default, Clone)]
pub struct Scope {
    texts: BTreeMap<&'static str, String>,
    lists: BTreeMap<&'static str, Vec<Scope>>,
    images: BTreeMap<&'static str, Vec<u8>>,
}

impl Scope {
    pub fn text(mut self, name: &'static str, value: impl Into<String>) -> Scope {
        self.texts.insert(name, value.into());
        self
    }

    pub fn list(mut self, name: &'static str, items: Vec<Scope>) -> Scope {
        self.lists.insert(name, items);
        self
    }

    /// A list of one-text items, each under `item`.
    pub fn lines(self, name: &'static str, lines: &[String]) -> Scope {
        self.list(name, lines.iter().map(|l| Scope::default().text("item", l.clone())).collect())
    }

    /// `png`, when there is one.
    pub fn image(mut self, name: &'static str, png: Option<&[u8]>) -> Scope {
        if let Some(png) = png {
            self.images.insert(name, png.to_vec());
        }
        self
    }
}

/// A scope and the scopes it is inside: names are looked up innermost first.
#[derive(Clone, Copy)]
struct Names<'a> {
    scope: &'a Scope,
    outer: Option<&'a Names<'a>>,
}

impl<'a> Names<'a> {
    fn text(&self, name: &str) -> Option<&'a str> {
        self.scope.texts.get(name).map(String::as_str).or_else(|| self.outer.and_then(|o| o.text(name)))
    }

    fn list(&self, name: &str) -> Option<&'a [Scope]> {
        self.scope.lists.get(name).map(Vec::as_slice).or_else(|| self.outer.and_then(|o| o.list(name)))
    }

    fn image(&self, name: &str) -> Option<&'a [u8]> {
        self.scope.images.get(name).map(Vec::as_slice).or_else(|| self.outer.and_then(|o| o.image(name)))
    }

    /// Whether `name` is a non-empty text, list or image.
    fn present(&self, name: &str) -> bool {
        self.text(name).is_some_and(|t| !t.trim().is_empty())
            || self.list(name).is_some_and(|l| !l.is_empty())
            || self.image(name).is_some()
    }

    /// `template` with each `{name}` replaced by its text; an unknown name stays as written,
    /// so a template's mistake shows (and fails its unit test) instead of vanishing.
    fn fill(&self, template: &str) -> String {
        let mut out = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            match after.find('}') {
                Some(close) if self.text(&after[..close]).is_some() => {
                    out.push_str(self.text(&after[..close]).unwrap_or_default());
                    rest = &after[close + 1..];
                }
                _ => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// `#rrggbb`, else black.
fn color(text: Option<&str>) -> rgb::Color {
    let hex = text.and_then(|t| t.strip_prefix('#')).filter(|h| h.len() == 6);
    let channel = |at: usize| hex.and_then(|h| u8::from_str_radix(&h[at..at + 2], 16).ok()).unwrap_or(0);
    rgb::Color::new(channel(0), channel(2), channel(4))
}

fn fill_with(surface: &mut Surface, colour: rgb::Color) {
    surface.set_fill(Some(Fill { paint: colour.into(), ..Default::default() }));
}

/// A filled rectangle; nothing for an empty one.
fn rect(surface: &mut Surface, x: f32, y: f32, w: f32, h: f32, colour: rgb::Color) {
    let Some(r) = Rect::from_xywh(x, y, w, h) else { return };
    let mut path = PathBuilder::new();
    path.push_rect(r);
    if let Some(path) = path.finish() {
        fill_with(surface, colour);
        surface.draw_path(&path);
    }
}

/// The left edge of something `width` wide aligned in `[x, x + room)`.
fn place(align: Align, x: f32, room: f32, width: f32) -> f32 {
    match align {
        Align::Left => x,
        Align::Center => x + (room - width) / 2.0,
        Align::Right => x + room - width,
    }
}

/// `text` broken into lines no wider than `room` at `size`: at spaces, and inside a word
/// only when the word alone is wider.
fn wrap(face: &Face, text: &str, size: f32, room: f32) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        for word in paragraph.split(' ').filter(|w| !w.is_empty()) {
            let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
            if face.width(&candidate, size) <= room {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            for c in word.chars() {
                line.push(c);
                if face.width(&line, size) > room && line.chars().count() > 1 {
                    line.pop();
                    lines.push(std::mem::replace(&mut line, c.to_string()));
                }
            }
        }
        lines.push(line);
    }
    lines
}

/// A PNG as 8-bit RGBA pixels for krilla; `None` when it does not decode (the block is left
/// out, the rest of the document drawn).
pub(super) fn decode_png(png: &[u8]) -> Option<Image> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().ok()?;
    let mut buffer = vec![0; reader.output_buffer_size()?];
    let frame = reader.next_frame(&mut buffer).ok()?;
    let pixels = &buffer[..frame.buffer_size()];
    let rgba: Vec<u8> = match frame.color_type {
        png::ColorType::Rgba => pixels.to_vec(),
        png::ColorType::Rgb => pixels.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        png::ColorType::GrayscaleAlpha => pixels.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        png::ColorType::Grayscale => pixels.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => return None, // expanded by the transformations above
    };
    (frame.width > 0 && frame.height > 0).then(|| Image::from_rgba8(rgba, frame.width, frame.height))
}

/// Draws `blocks` into the column `[x, x + width)` from `y` down; the `y` below the last.
fn flow(surface: &mut Surface, blocks: &[Block], names: &Names, x: f32, width: f32, mut y: f32, page: [f32; 2]) -> f32 {
    for block in blocks {
        if block.when.as_deref().is_some_and(|n| !names.present(n))
            || block.unless.as_deref().is_some_and(|n| names.present(n))
        {
            continue;
        }
        match &block.each {
            Some(list) => {
                for item in names.list(list).unwrap_or_default() {
                    let inner = Names { scope: item, outer: Some(names) };
                    y = draw(surface, block, &inner, x, width, y + block.gap, page);
                }
            }
            None => y = draw(surface, block, names, x, width, y + block.gap, page),
        }
    }
    y
}

/// Draws one block at `y`; the `y` below it.
fn draw(surface: &mut Surface, block: &Block, names: &Names, x: f32, width: f32, y: f32, page: [f32; 2]) -> f32 {
    match &block.kind {
        Kind::Text { text, font, size, align, color: c, leading } => {
            let face: &Face = match font {
                Weight::Regular => &REGULAR,
                Weight::Bold => &BOLD,
            };
            let mut y = y;
            fill_with(surface, color(c.as_deref()));
            for line in wrap(face, &names.fill(text), *size, width) {
                if !line.is_empty() {
                    let left = place(*align, x, width, face.width(&line, *size));
                    let baseline = y + face.ascent(*size);
                    surface.draw_text(
                        Point::from_xy(left, baseline),
                        face.pdf.clone(),
                        *size,
                        &line,
                        false,
                        TextDirection::Auto,
                    );
                }
                y += size * leading;
            }
            y
        }
        Kind::Space { height } => y + height,
        Kind::At { y: at } => *at,
        Kind::Rule { thickness, color: c } => {
            rect(surface, x, y, width, *thickness, color(c.as_deref()));
            y + thickness
        }
        Kind::Row { columns } => {
            let mut left = x;
            let mut bottom = y;
            for column in columns {
                let w = width * column.width;
                bottom = bottom.max(flow(surface, &column.blocks, names, left, w, y, page));
                left += w;
            }
            bottom
        }
        Kind::Across { list, spacing, blocks } => {
            let items = names.list(list).unwrap_or_default();
            if items.is_empty() {
                return y;
            }
            let n = items.len() as f32;
            let w = (width - spacing * (n - 1.0)) / n;
            let mut bottom = y;
            for (i, item) in items.iter().enumerate() {
                let inner = Names { scope: item, outer: Some(names) };
                let left = x + i as f32 * (w + spacing);
                bottom = bottom.max(flow(surface, blocks, &inner, left, w, y, page));
            }
            bottom
        }
        Kind::Qr { text, size, align } => {
            let value = names.fill(text);
            let Ok(code) = qrcode::QrCode::with_error_correction_level(value.as_bytes(), qrcode::EcLevel::M) else {
                return y; // longer than any QR code: the printed address still says it
            };
            let modules = code.width();
            // The standard four-module quiet zone on each side.
            let module = size / (modules + 8) as f32;
            let left = place(*align, x, width, *size) + 4.0 * module;
            let top = y + 4.0 * module;
            let mut path = PathBuilder::new();
            for (i, colour) in code.to_colors().iter().enumerate() {
                if *colour == qrcode::Color::Dark {
                    let (col, row) = ((i % modules) as f32, (i / modules) as f32);
                    if let Some(r) = Rect::from_xywh(left + col * module, top + row * module, module, module) {
                        path.push_rect(r);
                    }
                }
            }
            if let Some(path) = path.finish() {
                fill_with(surface, rgb::Color::black());
                surface.draw_path(&path);
            }
            y + size
        }
        Kind::Image { image, height, align } => {
            let Some(decoded) = names.image(image).and_then(decode_png) else { return y };
            let (w, h) = decoded.size();
            let mut draw_h = *height;
            let mut draw_w = draw_h * w as f32 / h as f32;
            if draw_w > width {
                draw_w = width;
                draw_h = width * h as f32 / w as f32;
            }
            let Some(size) = Size::from_wh(draw_w, draw_h) else { return y };
            // Standing on the block's bottom line, so a flatter image keeps its baseline.
            let left = place(*align, x, width, draw_w);
            surface.push_transform(&Transform::from_translate(left, y + height - draw_h));
            surface.draw_image(decoded, size);
            surface.pop();
            y + height
        }
        Kind::Frame { inset, thickness, color: c } => {
            let colour = color(c.as_deref());
            let (w, h) = (page[0] - 2.0 * inset, page[1] - 2.0 * inset);
            rect(surface, *inset, *inset, w, *thickness, colour);
            rect(surface, *inset, inset + h - thickness, w, *thickness, colour);
            rect(surface, *inset, *inset, *thickness, h, colour);
            rect(surface, inset + w - thickness, *inset, *thickness, h, colour);
            y
        }
    }
}

/// One page of `template` drawn with `scope`, as PDF bytes; `title` is the document's title
/// in its metadata.
pub fn render(template: &Template, scope: &Scope, title: &str) -> Vec<u8> {
    let mut document = Document::new();
    document.set_metadata(Metadata::new().title(title.to_owned()).language("en".to_owned()));
    let [w, h] = template.page;
    let settings = PageSettings::from_wh(w, h).expect("a template's page has a size");
    let mut page = document.start_page_with(settings);
    let mut surface = page.surface();
    let names = Names { scope, outer: None };
    let m = template.margin;
    flow(&mut surface, &template.blocks, &names, m, w - 2.0 * m, m, template.page);
    surface.finish();
    page.finish();
    // Errors come from fonts (the repository's, tested), images (decoded above) and
    // validation (none asked for).
    document.finish().expect("krilla writes the document")
}
