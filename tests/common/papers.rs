//! Camera-ready papers as krilla writes them, for the format check's tests
//! (tests/domain/format_check.rs) and its benchmark (examples/format_check_bench.rs, which
//! includes this file by path): A4 or any size, text in an embedded DejaVu subset, a figure on
//! every third page, or a page that is one picture, as a scanner makes it.

use krilla::Document as Writer;
use krilla::geom::{Point, Size, Transform};
use krilla::image::Image;
use krilla::page::PageSettings;
use krilla::text::{Font, TextDirection};

/// A4 and US Letter in points.
pub const A4: (f32, f32) = (595.276, 841.89);
pub const LETTER: (f32, f32) = (612.0, 792.0);

static DEJAVU: &[u8] = include_bytes!("../../templates/pdf/fonts/DejaVuSans.ttf");

#[derive(Clone, Copy)]
pub enum Body {
    /// Lines of text, and a figure on every third page.
    Text,
    /// One picture filling the page, as a scanner makes it.
    Scan,
}

/// A paper as krilla writes it: each page's size in points and what it holds.
pub fn paper(pages: &[((f32, f32), Body)]) -> Vec<u8> {
    let font = Font::new(DEJAVU.to_vec().into(), 0).unwrap();
    let picture = || {
        let (w, h) = (64u32, 48u32);
        let rgba = (0..w * h).flat_map(|i| [(i % w * 4) as u8, (i / w * 5) as u8, 128, 255]).collect();
        Image::from_rgba8(rgba, w, h)
    };
    let mut writer = Writer::new();
    for (number, &((w, h), body)) in (1..).zip(pages) {
        let mut page = writer.start_page_with(PageSettings::from_wh(w, h).unwrap());
        let mut surface = page.surface();
        match body {
            Body::Text => {
                let title = format!("A study of format checks, page {number}");
                surface.draw_text(Point::from_xy(56.0, 72.0), font.clone(), 14.0, &title, false, TextDirection::Auto);
                for line in 0..30 {
                    let text = "Camera-ready papers go to the publisher as they are: fonts, sizes, pages.";
                    let at = Point::from_xy(56.0, 100.0 + line as f32 * 14.0);
                    surface.draw_text(at, font.clone(), 10.0, text, false, TextDirection::Auto);
                }
                if number % 3 == 0 {
                    surface.push_transform(&Transform::from_translate(56.0, 540.0));
                    surface.draw_image(picture(), Size::from_wh(300.0, 200.0).unwrap());
                    surface.pop();
                }
            }
            Body::Scan => surface.draw_image(picture(), Size::from_wh(w, h).unwrap()),
        }
        surface.finish();
        page.finish();
    }
    writer.finish().unwrap()
}

pub fn a4_text(pages: usize) -> Vec<u8> {
    paper(&vec![(A4, Body::Text); pages])
}
