//! `conference::proceedings::format_check` (issue 44 item 2): a camera-ready PDF that passes,
//! and one that breaks each rule, every one generated here. krilla writes the papers (embedded
//! DejaVu subsets, images, A4 or not); lopdf's writer makes the broken ones a word processor
//! would (a font left out, JavaScript, encryption), each with a correct cross-reference table.

use std::io::Write;

use conference::proceedings::format_check::{FormatRules, PaperSize, Report, Rule, check, page_list};
use lopdf::content::{Content, Operation};
use lopdf::encryption::{EncryptionState, EncryptionVersion, Permissions};
use lopdf::{Document, Object, Stream, dictionary};

use crate::common::papers::{A4, Body, LETTER, a4_text, paper};

fn save(doc: &mut Document) -> Vec<u8> {
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// An A4 paper written with lopdf, every page's text in `font` (one dictionary, `/F1`).
fn hand_made(pages: usize, font: lopdf::Dictionary) -> Vec<u8> {
    let mut doc = Document::with_version("1.7");
    let tree = doc.new_object_id();
    let font = doc.add_object(font);
    let resources = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font } });
    let mut kids = Vec::new();
    for number in 1..=pages {
        let operations = vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 11.into()]),
            Operation::new("Td", vec![72.into(), 760.into()]),
            Operation::new("Tj", vec![Object::string_literal(format!("Page {number} of a paper"))]),
            Operation::new("ET", vec![]),
        ];
        let content = doc.add_object(Stream::new(dictionary! {}, Content { operations }.encode().unwrap()));
        kids.push(doc.add_object(dictionary! { "Type" => "Page", "Parent" => tree, "Contents" => content }).into());
    }
    let media_box: Vec<Object> = vec![0.into(), 0.into(), 595.into(), 842.into()];
    let count = i64::try_from(pages).unwrap();
    let node = dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => count, "Resources" => resources, "MediaBox" => media_box };
    doc.objects.insert(tree, Object::Dictionary(node));
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => tree });
    doc.trailer.set("Root", catalog);
    save(&mut doc)
}

fn rules() -> FormatRules {
    FormatRules::default()
}

fn only(report: &Report, rule: Rule) -> &conference::proceedings::format_check::Failure {
    let rules: Vec<Rule> = report.failures.iter().map(|f| f.rule).collect();
    assert_eq!(rules, [rule], "{:#?}", report.failures);
    &report.failures[0]
}

#[test]
fn a_ten_page_a4_paper_with_embedded_fonts_and_figures_passes() {
    let pdf = a4_text(10);
    let report = check(&pdf, &rules());
    assert!(report.passed(), "{:#?}", report.failures);
    assert_eq!(report.pages, Some(10));
    assert!(report.errors().is_empty());
    // A landscape page of A4 (a wide table) is still A4 paper.
    let mut pages = vec![(A4, Body::Text); 5];
    pages[2].0 = (A4.1, A4.0);
    assert!(check(&paper(&pages), &rules()).passed());
}

#[test]
fn a_us_letter_page_is_named_with_its_size_and_page() {
    let mut pages = vec![(A4, Body::Text); 5];
    pages[2].0 = LETTER;
    let report = check(&paper(&pages), &rules());
    let failure = only(&report, Rule::PageSize);
    assert_eq!(failure.pages, [3]);
    assert_eq!(failure.message, "Page 3 is 216 × 279 mm (US Letter); the proceedings need A4 (210 × 297 mm).");

    let letter = check(&paper(&[(LETTER, Body::Text); 6]), &rules());
    let failure = only(&letter, Rule::PageSize);
    assert_eq!(failure.pages, [1, 2, 3, 4, 5, 6]);
    assert!(failure.message.starts_with("Pages 1–6 are 216 × 279 mm (US Letter);"), "{}", failure.message);

    // Within the 2 mm slack, a page passes; 3 mm off, it does not.
    let near = |mm: f32| (A4.0 + mm * 72.0 / 25.4, A4.1);
    assert!(check(&paper(&[(near(1.9), Body::Text); 4]), &rules()).passed());
    let off = check(&paper(&[(near(3.0), Body::Text); 4]), &rules());
    assert_eq!(
        only(&off, Rule::PageSize).message,
        "Pages 1–4 are 213 × 297 mm; the proceedings need A4 (210 × 297 mm)."
    );
}

#[test]
fn too_few_and_too_many_pages_fail_with_the_limits() {
    let short = check(&a4_text(3), &rules());
    let failure = only(&short, Rule::PageCount);
    assert_eq!(failure.message, "The paper has 3 pages; the proceedings need at least 4 pages.");
    assert!(failure.pages.is_empty());
    assert_eq!(short.pages, Some(3));

    let long = check(&a4_text(14), &rules());
    let failure = only(&long, Rule::PageCount);
    assert_eq!(failure.message, "The paper has 14 pages; the proceedings take at most 12 pages.");
    assert_eq!(failure.pages, [13, 14], "the pages past the limit");

    let limits = FormatRules { min_pages: 1, max_pages: 2, ..rules() };
    assert!(check(&a4_text(1), &limits).passed());
    assert_eq!(only(&check(&a4_text(3), &limits), Rule::PageCount).pages, [3]);
}

#[test]
fn a_font_that_is_not_embedded_is_named_with_its_pages() {
    let helvetica = dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica" };
    let report = check(&hand_made(5, helvetica), &rules());
    let failure = only(&report, Rule::FontsEmbedded);
    assert_eq!(failure.pages, [1, 2, 3, 4, 5]);
    assert_eq!(
        failure.message,
        "The font Helvetica is not embedded (pages 1–5). Export the PDF again with all fonts embedded."
    );
    // A descriptor without the program is no better; a subset's tag is left out of the name.
    let described = dictionary! {
        "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => "ABCDEF+Arial",
        "FontDescriptor" => dictionary! { "Type" => "FontDescriptor", "FontName" => "ABCDEF+Arial" },
    };
    let failure = only(&check(&hand_made(4, described), &rules()), Rule::FontsEmbedded).clone();
    assert!(failure.message.starts_with("The font Arial is not embedded"), "{}", failure.message);
    // A Type3 font draws its glyphs in the file: embedded.
    let type3 = dictionary! { "Type" => "Font", "Subtype" => "Type3", "FontMatrix" => vec![0.001.into(), 0.into(), 0.into(), 0.001.into(), 0.into(), 0.into()] };
    assert!(check(&hand_made(4, type3), &rules()).passed());
    // The rule can be turned off by the seed.
    let helvetica = dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica" };
    assert!(check(&hand_made(4, helvetica), &FormatRules { fonts_embedded: false, ..rules() }).passed());
}

#[test]
fn an_image_only_page_fails_the_text_rule() {
    let mut pages = vec![(A4, Body::Text); 6];
    pages[1].1 = Body::Scan;
    pages[4].1 = Body::Scan;
    let report = check(&paper(&pages), &rules());
    let failure = only(&report, Rule::TextOnEveryPage);
    assert_eq!(failure.pages, [2, 5]);
    assert!(failure.message.starts_with("Pages 2, 5 have no text, only images (scanned?)."), "{}", failure.message);
    assert!(check(&paper(&pages), &FormatRules { text_on_every_page: false, ..rules() }).passed());
}

#[test]
fn an_encrypted_pdf_fails_whether_or_not_it_opens() {
    for user_password in ["secret", ""] {
        let mut doc = Document::load_mem(&a4_text(4)).unwrap();
        let version = EncryptionVersion::V2 {
            document: &doc,
            owner_password: "owner",
            user_password,
            key_length: 128,
            permissions: Permissions::empty(),
        };
        let state = EncryptionState::try_from(version).unwrap();
        doc.encrypt(&state).unwrap();
        let report = check(&save(&mut doc), &rules());
        let failure = report.failures.iter().find(|f| f.rule == Rule::Encryption);
        let failure = failure.unwrap_or_else(|| panic!("password {user_password:?}: {:#?}", report.failures));
        assert_eq!(
            failure.message,
            "The PDF is encrypted or protected by a password. Export it again without a password or restrictions."
        );
    }
}

#[test]
fn javascript_in_the_document_or_on_a_page_fails() {
    let script = |doc: &mut Document| {
        doc.add_object(dictionary! { "S" => "JavaScript", "JS" => Object::string_literal("app.alert(1)") })
    };
    // On opening the document.
    let mut doc = Document::load_mem(&a4_text(4)).unwrap();
    let action = script(&mut doc);
    doc.catalog_mut().unwrap().set("OpenAction", action);
    let report = check(&save(&mut doc), &rules());
    let failure = only(&report, Rule::JavaScript);
    assert!(failure.pages.is_empty(), "the whole document");
    assert!(failure.message.starts_with("The PDF runs JavaScript"), "{}", failure.message);

    // In the document's name tree, chained after a harmless open action.
    let mut doc = Document::load_mem(&a4_text(4)).unwrap();
    let action = script(&mut doc);
    let names =
        dictionary! { "JavaScript" => dictionary! { "Names" => vec![Object::string_literal("init"), action.into()] } };
    doc.catalog_mut().unwrap().set("Names", names);
    assert_eq!(only(&check(&save(&mut doc), &rules()), Rule::JavaScript).pages, Vec::<u32>::new());
    let mut doc = Document::load_mem(&a4_text(4)).unwrap();
    let action = script(&mut doc);
    let open = dictionary! { "S" => "GoTo", "D" => vec![Object::Integer(0)], "Next" => action };
    doc.catalog_mut().unwrap().set("OpenAction", open);
    only(&check(&save(&mut doc), &rules()), Rule::JavaScript);

    // On opening page 2, and in a link's action on page 4.
    let mut doc = Document::load_mem(&a4_text(4)).unwrap();
    let action = script(&mut doc);
    let pages = doc.get_pages();
    doc.get_dictionary_mut(pages[&2]).unwrap().set("AA", dictionary! { "O" => action });
    let link = dictionary! { "Type" => "Annot", "Subtype" => "Link", "Rect" => vec![0.into(), 0.into(), 9.into(), 9.into()], "A" => action };
    let link = doc.add_object(link);
    doc.get_dictionary_mut(pages[&4]).unwrap().set("Annots", vec![link.into()]);
    let report = check(&save(&mut doc), &rules());
    let failure = only(&report, Rule::JavaScript);
    assert_eq!(failure.pages, [2, 4]);
    assert_eq!(
        failure.message,
        "Pages 2, 4 have JavaScript in their actions or links. Export the PDF again without scripts."
    );
}

#[test]
fn a_file_over_the_size_limit_fails_before_it_is_read() {
    let mut pdf = a4_text(4);
    pdf.resize(10_000_001, b' ');
    let report = check(&pdf, &rules());
    let failure = only(&report, Rule::FileSize);
    assert_eq!(report.pages, None, "not parsed");
    assert_eq!(
        failure.message,
        "The file is 10.1 MB; the proceedings take files of at most 10.0 MB. Compress the images and export again."
    );
    let small = FormatRules { max_bytes: 1_500, ..rules() };
    let report = check(&a4_text(4), &small);
    let message = &only(&report, Rule::FileSize).message;
    assert!(
        message.ends_with("kB; the proceedings take files of at most 1 kB. Compress the images and export again."),
        "{message}"
    );
}

#[test]
fn bytes_that_are_not_a_pdf_fail_clearly() {
    let not_pdf = "This file is not a PDF. Export or print your paper to PDF and upload that file.";
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let word = b"PK\x03\x04\x14\0\x06\0word/document.xml".to_vec();
    let noise: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    for bytes in [Vec::new(), b"%PD".to_vec(), png, word, noise, b"<!doctype html><p>My paper</p>".repeat(100)] {
        let report = check(&bytes, &rules());
        assert_eq!(only(&report, Rule::Readable).message, not_pdf, "{:?}", &bytes[..bytes.len().min(20)]);
    }
}

#[test]
fn a_truncated_or_damaged_pdf_fails_clearly_and_never_panics() {
    let pdf = a4_text(4);
    for cut in (1..16).map(|sixteenth| pdf.len() * sixteenth / 16) {
        let report = check(&pdf[..cut], &rules());
        let failure = only(&report, Rule::Readable);
        assert!(failure.message.starts_with("The PDF is incomplete"), "cut at {cut}: {}", failure.message);
    }
    // A header, an end marker and nothing readable between.
    let hollow = b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";
    assert_eq!(
        only(&check(hollow, &rules()), Rule::Readable).message,
        "The PDF is damaged and cannot be read. Export it again from your editor and upload the new file."
    );
    // Arrays nested a hundred thousand deep, in an object and in a page's content: read
    // within the parser's depth limit, not by recursing until the stack runs out.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let nested = format!("%PDF-1.7\n1 0 obj {deep} endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
    only(&check(nested.as_bytes(), &rules()), Rule::Readable);
    let mut doc = Document::load_mem(&pdf).unwrap();
    let content = doc.add_object(Stream::new(dictionary! {}, format!("{deep} Tj").into_bytes()));
    let first = doc.get_pages()[&1];
    doc.get_dictionary_mut(first).unwrap().set("Contents", content);
    assert_eq!(only(&check(&save(&mut doc), &rules()), Rule::TextOnEveryPage).pages, [1]);
    // Bytes overwritten anywhere: some answer, never a panic.
    let mut state = 0x2545_f491_u32;
    for _ in 0..200 {
        let mut damaged = pdf.clone();
        for _ in 0..8 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let at = state as usize % damaged.len();
            damaged[at] = (state >> 24) as u8;
        }
        let report = check(&damaged, &rules());
        assert!(report.failures.iter().all(|f| !f.message.is_empty()));
    }
}

#[test]
fn a_compressed_bomb_is_refused_within_the_bounds() {
    // 300 MB of zeros deflated to a few hundred kB, as one page's content.
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    let block = vec![b' '; 1 << 20];
    for _ in 0..300 {
        encoder.write_all(&block).unwrap();
    }
    let deflated = encoder.finish().unwrap();
    let mut doc = Document::load_mem(&a4_text(4)).unwrap();
    let bomb = doc.add_object(Stream::new(dictionary! { "Filter" => "FlateDecode" }, deflated).with_compression(false));
    let pages = doc.get_pages();
    doc.get_dictionary_mut(pages[&3]).unwrap().set("Contents", bomb);
    let report = check(&save(&mut doc), &rules());
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.rule == Rule::Readable && f.message.contains("more content than the check reads")),
        "{:#?}",
        report.failures
    );
}

#[test]
fn other_paper_and_the_errors_of_an_answer() {
    let letter =
        FormatRules { paper: PaperSize { name: "US Letter".into(), width_mm: 215.9, height_mm: 279.4 }, ..rules() };
    assert!(check(&paper(&[(LETTER, Body::Text); 4]), &letter).passed());
    let report = check(&a4_text(2), &letter);
    let errors = report.errors();
    assert_eq!(errors.keys().collect::<Vec<_>>(), ["page_count", "page_size"]);
    assert_eq!(
        errors["page_size"],
        "Pages 1–2 are 210 × 297 mm (A4); the proceedings need US Letter (215.9 × 279.4 mm)."
    );
    assert_eq!(page_list(&[1, 2, 3, 5, 7, 8]), "pages 1–3, 5, 7–8");
    assert_eq!(page_list(&[4]), "page 4");
}
