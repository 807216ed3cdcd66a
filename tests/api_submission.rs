//! POST `/api/paper-submission` (DESIGN.md section 5; spec sections 3, 5 and 8): one
//! multipart request with the submission fields and the paper. A valid paper (PDF, DOC or
//! DOCX by content) is stored under `DATA_DIR/papers`, its row written and both mails queued
//! together; every bad input gets a clear status and message and leaves nothing behind, not
//! even when the database fails between the file and the row.

use std::path::Path;

use axum::http::StatusCode;
use conference::mail::{MailTransport, Worker};
use conference::repo::submissions;
use lettre::transport::stub::AsyncStubTransport;
use serde_json::Value;

use crate::common::html::{by_id, first, parse, text};
use crate::common::smtp::MailParts;
use crate::common::{BASE, Reply, TestApp, app, app_with};

const URL: &str = "/api/paper-submission";
const BOUNDARY: &str = "----conference-test-7MA4YWxkTrZu0gW";

// ---------------------------------------------------------------------------------------
// Papers built in the test: small but real files of each kind.

/// A PDF of exactly `len` bytes: [`pdf`] with a comment line of padding before its trailer
/// (a PDF's `%%EOF` stays within its last 1024 bytes).
pub(crate) fn pdf_of_size(len: usize) -> Vec<u8> {
    let base = pdf();
    let (head, tail) = base.split_at(base.len() - b"trailer\n<< /Root 1 0 R >>\n%%EOF\n".len());
    let mut out = head.to_vec();
    out.push(b'%');
    out.resize(len - tail.len() - 1, b'x');
    out.push(b'\n');
    out.extend_from_slice(tail);
    assert_eq!(out.len(), len);
    out
}

fn pdf() -> Vec<u8> {
    b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n".to_vec()
}

/// A Word 97-2003 document: an OLE compound file with a `WordDocument` stream (which
/// starts with Word's FIB magic), written with the `cfb` crate.
fn doc() -> Vec<u8> {
    let mut file = cfb::CompoundFile::create(std::io::Cursor::new(Vec::new())).unwrap();
    std::io::Write::write_all(&mut file.create_stream("/WordDocument").unwrap(), &[0xEC, 0xA5, 0xC1, 0x00, 0xC1, 0x00])
        .unwrap();
    file.flush().unwrap();
    file.into_inner().into_inner()
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// A ZIP archive of stored (uncompressed) entries, in the given order.
fn zip(entries: &[(&str, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, content) in entries {
        let offset = out.len() as u32;
        let (crc, size, name_len) = (crc32(content.as_bytes()), content.len() as u32, name.len() as u16);
        out.extend_from_slice(b"PK\x03\x04");
        out.extend_from_slice(&20u16.to_le_bytes()); // version needed
        out.extend_from_slice(&[0, 0, 0, 0, 0, 0]); // flags, method (stored), time
        out.extend_from_slice(&0x21u16.to_le_bytes()); // date: 1980-01-01
        for v in [crc, size, size] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&name_len.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(content.as_bytes());

        central.extend_from_slice(b"PK\x01\x02");
        central.extend_from_slice(&20u16.to_le_bytes()); // made by
        central.extend_from_slice(&20u16.to_le_bytes()); // needed
        central.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
        central.extend_from_slice(&0x21u16.to_le_bytes());
        for v in [crc, size, size] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        central.extend_from_slice(&name_len.to_le_bytes());
        central.extend_from_slice(&[0; 12]); // extra, comment, disk, internal and external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let (dir_offset, dir_size, count) = (out.len() as u32, central.len() as u32, entries.len() as u16);
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06");
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&dir_size.to_le_bytes());
    out.extend_from_slice(&dir_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#;
const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;
const DOCUMENT: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Solar microgrids for island communities</w:t></w:r></w:p></w:body></w:document>"#;

const DOCUMENT_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>"#;

/// A minimal Word document in the order Word writes its entries: content types,
/// relationships, then the `word/` parts.
fn docx() -> Vec<u8> {
    zip(&[
        ("[Content_Types].xml", CONTENT_TYPES),
        ("_rels/.rels", RELS),
        ("word/_rels/document.xml.rels", DOCUMENT_RELS),
        ("word/document.xml", DOCUMENT),
    ])
}

/// A Word document whose `word/` part comes after the document properties (as other
/// writers order entries): only the archive's central directory tells it apart.
fn docx_word_last() -> Vec<u8> {
    zip(&[
        ("[Content_Types].xml", CONTENT_TYPES),
        ("_rels/.rels", RELS),
        ("docProps/app.xml", "<Properties/>"),
        ("docProps/core.xml", "<coreProperties/>"),
        ("word/document.xml", DOCUMENT),
    ])
}

/// A 1x1 PNG.
fn png() -> Vec<u8> {
    let hex = "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082";
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
}

// ---------------------------------------------------------------------------------------
// Building requests

/// One multipart part.
#[derive(Clone)]
enum Part {
    Text(String, Vec<u8>),
    File { name: String, file_name: String, content_type: String, bytes: Vec<u8> },
}

/// A submission form: fields in the order the island sends them, then files.
#[derive(Clone)]
pub(crate) struct Form {
    parts: Vec<Part>,
}

/// The spec's required fields (section 5) with their messages, in the order they are checked.
const REQUIRED: [(&str, &str); 12] = [
    ("paperType", "Please select a paper type"),
    ("authorName", "Please enter the author name"),
    ("number", "Please enter your phone number"),
    ("email", "Please enter your email address"),
    ("country", "Please enter your country"),
    ("coAuthorName", "Please enter the co-author name(s)"),
    ("paperTitle", "Please enter the paper title"),
    ("department", "Please enter your department"),
    ("universityOrganization", "Please enter your university or organization"),
    ("presentationType", "Please select a presentation type"),
    ("message", "Please enter a message"),
    ("conferenceSource", "Please select how you heard about the conference"),
];

impl Form {
    pub(crate) fn fields_only() -> Form {
        let fields = [
            ("authorName", "Ana Cruz"),
            ("coAuthorName", "Ben Reyes, Carla Santos"),
            ("number", "+639171234567"),
            ("email", "ana.cruz@example.org"),
            ("country", "Philippines"),
            ("paperTitle", "Solar microgrids for island communities"),
            ("department", "Electrical Engineering"),
            ("universityOrganization", "University of Manila"),
            ("paperType", "Full Paper"),
            ("presentationType", "Oral"),
            ("conferenceSource", "linkedin"),
            ("message", "Corresponding author: Ana Cruz.\nKeywords: solar, microgrid, islands."),
        ];
        Form { parts: fields.iter().map(|(k, v)| Part::Text((*k).into(), v.as_bytes().to_vec())).collect() }
    }

    /// Every field valid and a PDF named `paper.pdf`.
    pub(crate) fn valid() -> Form {
        Form::fields_only().file("paper.pdf", "application/pdf", pdf())
    }

    pub(crate) fn file(mut self, file_name: &str, content_type: &str, bytes: Vec<u8>) -> Form {
        self.parts.push(Part::File {
            name: "file".into(),
            file_name: file_name.into(),
            content_type: content_type.into(),
            bytes,
        });
        self
    }

    fn without(mut self, name: &str) -> Form {
        self.parts.retain(|p| !matches!(p, Part::Text(n, _) | Part::File { name: n, .. } if n == name));
        self
    }

    pub(crate) fn with(self, name: &str, value: &str) -> Form {
        self.with_bytes(name, value.as_bytes().to_vec())
    }

    fn with_bytes(mut self, name: &str, value: Vec<u8>) -> Form {
        match self.parts.iter_mut().find(|p| matches!(p, Part::Text(n, _) if n == name)) {
            Some(Part::Text(_, v)) => *v = value,
            _ => self.parts.push(Part::Text(name.into(), value)),
        }
        self
    }

    /// Adds a second part of the same name.
    fn and(mut self, name: &str, value: &str) -> Form {
        self.parts.push(Part::Text(name.into(), value.as_bytes().to_vec()));
        self
    }

    fn body(&self) -> Vec<u8> {
        let mut body = Vec::new();
        for part in &self.parts {
            body.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
            match part {
                Part::Text(name, value) => {
                    body.extend_from_slice(
                        format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
                    );
                    body.extend_from_slice(value);
                }
                Part::File { name, file_name, content_type, bytes } => {
                    body.extend_from_slice(
                        format!(
                            "Content-Disposition: form-data; name=\"{name}\"; filename=\"{file_name}\"\r\nContent-Type: {content_type}\r\n\r\n"
                        )
                        .as_bytes(),
                    );
                    body.extend_from_slice(bytes);
                }
            }
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
        body
    }
}

fn multipart_type() -> String {
    format!("multipart/form-data; boundary={BOUNDARY}")
}

/// POSTs `form` as the island does (same origin, JSON answers); the answer as JSON.
pub(crate) async fn submit(app: &TestApp, form: &Form) -> (StatusCode, Value) {
    let reply =
        app.post(URL, &multipart_type(), form.body(), &[("origin", BASE), ("accept", "application/json")]).await;
    (reply.status, json_of(&reply))
}

fn json_of(reply: &Reply) -> Value {
    let content_type = reply.header("content-type").unwrap_or("");
    assert!(content_type.starts_with("application/json"), "JSON answer, got {content_type:?}: {}", reply.text());
    serde_json::from_slice(&reply.body).unwrap_or_else(|e| panic!("invalid JSON ({e}): {}", reply.text()))
}

// ---------------------------------------------------------------------------------------
// What is stored

/// Files in `DATA_DIR/<sub>` (none when the folder does not exist).
fn files_in(dir: &Path, sub: &str) -> Vec<String> {
    match std::fs::read_dir(dir.join(sub)) {
        Ok(entries) => entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect(),
        Err(_) => Vec::new(),
    }
}

/// Upload temp files (`DATA_DIR/papers/.upload-*.part`, beside the papers).
fn temp_uploads(dir: &Path) -> Vec<String> {
    files_in(dir, "papers").into_iter().filter(|name| name.starts_with(".upload-")).collect()
}

/// Rows, queued mails, stored papers and temporary uploads: all zero after a refusal.
async fn leftovers(app: &TestApp) -> (i64, i64, usize, usize) {
    (
        app.count("submissions").await,
        app.count("outbox").await,
        app.stored_papers().await,
        temp_uploads(app.dir.path()).len(),
    )
}

pub(crate) async fn assert_nothing_stored(app: &TestApp, what: &str) {
    assert_eq!(leftovers(app).await, (0, 0, 0, 0), "{what}: no row, no mail, no paper, no temporary file");
}

/// Asserts a 422 whose message is `message` and whose `errors[field]` is `reason`, with
/// nothing stored by it.
async fn assert_unprocessable(app: &TestApp, form: &Form, field: &str, message: &str, reason: &str) {
    let before = leftovers(app).await;
    let (status, answer) = submit(app, form).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(answer["message"], message, "{answer}");
    assert_eq!(answer["errors"][field], reason, "{answer}");
    assert_eq!(leftovers(app).await, before, "422 for {field}: no row, no mail, no paper, no temporary file");
    assert_eq!(before.3, 0, "no temporary file is ever left");
}

fn reference_of(answer: &Value) -> String {
    let reference = answer["reference"].as_str().unwrap_or_else(|| panic!("201 carries a reference: {answer}"));
    let (prefix, code) = reference.rsplit_once('-').expect("P-YYYY-CODE");
    assert!(prefix.starts_with("P-20") && prefix.len() == 6, "{reference}");
    assert!(code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()), "{reference}");
    reference.to_owned()
}

// ---------------------------------------------------------------------------------------
// Accepted papers

#[tokio::test]
async fn a_valid_pdf_is_stored_with_its_row_and_both_mails_queued() {
    let app = app().await;
    let (status, answer) = submit(&app, &Form::valid()).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let reference = reference_of(&answer);
    let id = answer["id"].as_i64().expect("a numeric id");

    let stored = submissions::by_reference(&app.pool, &reference).await.unwrap().expect("the row is stored");
    assert_eq!(stored.id, id);
    let row = &stored.submitted;
    assert_eq!(
        (row.author_name.as_str(), row.co_author_name.as_str(), row.number.as_str(), row.email.as_str()),
        ("Ana Cruz", "Ben Reyes, Carla Santos", "+639171234567", "ana.cruz@example.org")
    );
    assert_eq!(
        (row.country.as_str(), row.paper_title.as_str(), row.department.as_str(), row.university_organization.as_str()),
        ("Philippines", "Solar microgrids for island communities", "Electrical Engineering", "University of Manila")
    );
    assert_eq!(
        (row.paper_type.as_str(), row.presentation_type.as_str(), row.conference_source.as_str()),
        ("Full Paper", "Oral", "linkedin")
    );
    assert_eq!(row.message, "Corresponding author: Ana Cruz.\nKeywords: solar, microgrid, islands.");
    assert_eq!(row.name, "", "name is optional (no visible input in the spec)");

    // The spec's pdfUrl: the stored file, relative to DATA_DIR, byte for byte what was sent.
    assert_eq!(row.file_path, format!("papers/{reference}.pdf"));
    assert_eq!((row.file_name.as_str(), row.file_type.as_str()), ("paper.pdf", "application/pdf"));
    assert_eq!(row.file_size, pdf().len() as i64);
    assert_eq!(app.stored_paper(&row.file_path).await.expect("the paper is stored"), pdf());
    assert!(temp_uploads(app.dir.path()).is_empty(), "no temporary upload is left behind");

    // Both mails, queued with the row.
    let site = conference::repo::content::site(&app.pool).await.unwrap();
    type MailRow = (String, Option<String>, String, String, String, Option<String>, Option<String>, Option<String>);
    let mails: Vec<MailRow> = sqlx::query_as(
        "SELECT to_address, reply_to, subject, text_body, html_body, attachment_path, attachment_name, attachment_type
         FROM outbox ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    assert_eq!(mails.len(), 2, "the author's acknowledgement and the organisers' notice");

    let (to, _, subject, text, html, attachment, _, _) = &mails[0];
    assert_eq!(to, "ana.cruz@example.org", "the acknowledgement goes to the author");
    assert!(subject.contains(&reference), "{subject}");
    for part in [text, html] {
        assert!(part.contains("Solar microgrids for island communities"), "the title: {part}");
        assert!(part.contains(&reference), "the reference: {part}");
        assert!(part.contains("Our coordinator will contact you within 24-48 hours"), "the follow-up: {part}");
    }
    assert!(html.contains("<html") && !text.contains("<html"), "a text part and an HTML part");
    assert_eq!(attachment, &None, "the author is not sent their own paper back");

    let (to, reply_to, subject, text, html, path, name, content_type) = &mails[1];
    assert_eq!(to, &site.contact_email, "without ORGANISER_EMAIL, notices go to the site's contact address");
    assert_eq!(reply_to.as_deref(), Some("ana.cruz@example.org"), "organisers answer the author with one click");
    assert!(subject.contains(&reference) && subject.contains("Solar microgrids"), "{subject}");
    for part in [text, html] {
        for value in
            ["Ana Cruz", "Ben Reyes, Carla Santos", "+639171234567", "University of Manila", "LinkedIn", "Oral"]
        {
            assert!(part.contains(value), "the notice shows {value}: {part}");
        }
    }
    assert_eq!(path.as_deref(), Some(row.file_path.as_str()), "the notice carries the stored paper");
    assert_eq!(name.as_deref(), Some("paper.pdf"));
    assert_eq!(content_type.as_deref(), Some("application/pdf"));
}

/// A reference drawn twice (on PostgreSQL the paper goes in with the row, so the row is where
/// a clash shows): the second insert fails as "reference taken" on either database, which is
/// what makes the submission draw another reference instead of failing (store.rs).
#[tokio::test]
async fn a_taken_reference_is_told_apart_from_other_database_errors() {
    let app = app().await;
    let (status, answer) = submit(&app, &Form::valid()).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let stored = submissions::by_reference(&app.pool, &reference_of(&answer)).await.unwrap().unwrap().submitted;
    let mut tx = app.pool.begin().await.unwrap();
    let err = submissions::insert(&mut tx, &stored).await.expect_err("a reference is stored once");
    assert!(submissions::is_reference_taken(&err), "{err}");
    drop(tx);
    let other =
        sqlx::query("SELECT no_such_column FROM submissions").execute(&app.pool).await.expect_err("no such column");
    assert!(!submissions::is_reference_taken(&other), "{other}");
    let count: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM submissions").fetch_one(&app.pool).await.unwrap();
    assert_eq!(count.0, 1, "the clash stored nothing");
}

#[tokio::test]
async fn doc_and_docx_are_accepted_by_their_content() {
    let app = app().await;
    let cases = [
        ("paper.doc", "application/msword", doc(), "doc", "application/msword"),
        (
            "paper.docx",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            docx(),
            "docx",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ),
        (
            "word-last.docx",
            "application/octet-stream",
            docx_word_last(),
            "docx",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ),
        // The name and the claimed type do not matter; the content does.
        ("scan", "application/octet-stream", pdf(), "pdf", "application/pdf"),
    ];
    for (file_name, claimed, bytes, ext, mime) in cases {
        let (status, answer) = submit(&app, &Form::fields_only().file(file_name, claimed, bytes.clone())).await;
        assert_eq!(status, StatusCode::CREATED, "{file_name}: {answer}");
        let reference = reference_of(&answer);
        let row = submissions::by_reference(&app.pool, &reference).await.unwrap().unwrap().submitted;
        assert_eq!(row.file_path, format!("papers/{reference}.{ext}"), "{file_name}");
        assert_eq!(row.file_type, mime, "{file_name}");
        assert_eq!(app.stored_paper(&row.file_path).await.expect("the paper is stored"), bytes, "{file_name}");
    }
    assert_eq!(app.count("submissions").await, 4);
    // Four notices; one address gets at most three acknowledgements a day (DESIGN.md section 5).
    assert_eq!(app.count("outbox").await, 7);
}

#[tokio::test]
async fn the_mails_go_out_with_the_paper_attached() {
    let app = app_with(|c| c.organiser_email = Some("papers@example.org".into())).await;
    let (status, answer) = submit(&app, &Form::valid().with("paperTitle", "Tides <and> \"waves\" & wind")).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let reference = reference_of(&answer);

    let stub = AsyncStubTransport::new_ok();
    let summary =
        Worker::new(app.pool.clone(), MailTransport::Stub(stub.clone()), &app.config).run_once().await.unwrap();
    assert_eq!(summary.sent, 2, "{summary:?}");
    let sent = stub.messages().await;
    let mail_to = |address: &str| {
        let (_, raw) =
            sent.iter().find(|(envelope, _)| envelope.to().iter().any(|a| a.to_string() == address)).unwrap();
        MailParts::parse(raw)
    };

    let ack = mail_to("ana.cruz@example.org");
    assert!(ack.attachments.is_empty());
    assert!(ack.text.contains("Tides <and> \"waves\" & wind"), "the text part as written: {}", ack.text);
    assert!(!ack.html.contains("<and>"), "the HTML part escapes what the author typed");
    assert!(ack.text.contains(&reference) && ack.html.contains(&reference));

    let notice = mail_to("papers@example.org");
    assert_eq!(notice.attachments, ["paper.pdf"], "the organisers get the paper itself");
    assert_eq!(notice.header("Reply-To"), Some("ana.cruz@example.org"));
}

// ---------------------------------------------------------------------------------------
// The spec's order of checks and every bad field

#[tokio::test]
async fn the_file_is_checked_first_then_the_paper_type_then_the_fields() {
    let app = app().await;
    // Nothing at all: the file comes first.
    let (status, answer) = submit(&app, &Form { parts: Vec::new() }).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(answer["message"], "Please upload your paper file");
    assert_eq!(answer["errors"]["file"], "Please upload your paper file");
    for (field, reason) in REQUIRED {
        assert_eq!(answer["errors"][field], reason, "every missing field is named: {answer}");
    }

    // Fields but no file: still the file.
    assert_unprocessable(
        &app,
        &Form::fields_only(),
        "file",
        "Please upload your paper file",
        "Please upload your paper file",
    )
    .await;

    // A file but nothing else: the paper type, then the rest.
    let (status, answer) = submit(&app, &Form { parts: Vec::new() }.file("paper.pdf", "application/pdf", pdf())).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(answer["message"], "Please select a paper type");
    assert_eq!(answer["errors"]["paperType"], "Please select a paper type");
    assert_eq!(answer["errors"].as_object().unwrap().len(), REQUIRED.len(), "{answer}");
    assert_nothing_stored(&app, "a file without fields").await;
}

#[tokio::test]
async fn each_required_field_missing_or_blank_is_refused_by_name() {
    let app = app().await;
    for (field, reason) in REQUIRED {
        assert_unprocessable(&app, &Form::valid().without(field), field, reason, reason).await;
        assert_unprocessable(&app, &Form::valid().with(field, "  \t "), field, reason, reason).await;
    }
}

#[tokio::test]
async fn bad_formats_and_options_are_refused() {
    let app = app().await;
    let cases = [
        ("email", "ana.cruz", "Please enter a valid email address"),
        ("email", "ana@cruz", "Please enter a valid email address"),
        ("number", "call me", "Please enter a valid phone number"),
        ("paperType", "Poster", "Paper type must be Abstract or Full Paper"),
        ("paperType", "abstract", "Paper type must be Abstract or Full Paper"),
        ("presentationType", "Video", "Presentation type must be Poster or Oral"),
        ("conferenceSource", "tiktok", "Please select one of the listed options"),
        ("conferenceSource", "Select an option", "Please select one of the listed options"),
    ];
    for (field, value, reason) in cases {
        assert_unprocessable(&app, &Form::valid().with(field, value), field, reason, reason).await;
    }
    // Every option of the spec is accepted.
    for (field, value) in
        [("paperType", "Abstract"), ("presentationType", "Poster"), ("conferenceSource", "friend-colleague-supervisor")]
    {
        let (status, answer) = submit(&app, &Form::valid().with(field, value)).await;
        assert_eq!(status, StatusCode::CREATED, "{field}={value}: {answer}");
    }
}

#[tokio::test]
async fn too_long_fields_are_refused_with_their_limit() {
    let app = app().await;
    let limits = [
        ("authorName", "Author name", 200),
        ("coAuthorName", "Co-author name(s)", 500),
        ("country", "Country", 80),
        ("paperTitle", "Paper title", 300),
        ("department", "Department", 200),
        ("universityOrganization", "University / Organization", 200),
        ("message", "Message", 5000),
        ("name", "Name", 200),
    ];
    for (field, label, max) in limits {
        let reason = format!("{label} is too long (at most {max} characters)");
        assert_unprocessable(&app, &Form::valid().with(field, &"é".repeat(max + 1)), field, &reason, &reason).await;
        // At the limit (counted in characters, not bytes) it is fine.
        let (status, answer) = submit(&app, &Form::valid().with(field, &"é".repeat(max))).await;
        assert_eq!(status, StatusCode::CREATED, "{field} at {max} characters: {answer}");
    }
    let phone = "+63 917 123 4567 8901 2345 6789 0123";
    let reason = "Phone is too long (at most 32 characters)";
    assert_unprocessable(&app, &Form::valid().with("number", phone), "number", reason, reason).await;
    let email = format!("{}@example.org", "a".repeat(250));
    let reason = "Email address is too long (at most 254 characters)";
    assert_unprocessable(&app, &Form::valid().with("email", &email), "email", reason, reason).await;
    // Far beyond any limit: still a field error, not a failure.
    let huge = "x".repeat(200_000);
    let reason = "Message is too long (at most 5000 characters)";
    assert_unprocessable(&app, &Form::valid().with("message", &huge), "message", reason, reason).await;
}

#[tokio::test]
async fn repeated_or_unreadable_fields_are_refused() {
    let app = app().await;
    let reason = "Email address was sent more than once";
    assert_unprocessable(&app, &Form::valid().and("email", "other@example.org"), "email", reason, reason).await;
    let reason = "Country must be text";
    assert_unprocessable(&app, &Form::valid().with_bytes("country", vec![0xff, 0xfe, 0x00]), "country", reason, reason)
        .await;
}

#[tokio::test]
async fn one_file_only_and_not_an_empty_one() {
    let app = app().await;
    let two = Form::valid().file("second.pdf", "application/pdf", pdf());
    assert_unprocessable(&app, &two, "file", "Please upload only one file", "Please upload only one file").await;

    let empty = Form::fields_only().file("paper.pdf", "application/pdf", Vec::new());
    assert_unprocessable(&app, &empty, "file", "The paper file is empty", "The paper file is empty").await;

    // What a browser sends for a file input left empty: a part with no name and no bytes.
    let none = Form::fields_only().file("", "application/octet-stream", Vec::new());
    assert_unprocessable(&app, &none, "file", "Please upload your paper file", "Please upload your paper file").await;
}

// ---------------------------------------------------------------------------------------
// Type and size

#[tokio::test]
async fn a_file_that_is_not_a_pdf_doc_or_docx_is_refused_with_415() {
    let app = app().await;
    let cases = [
        ("an image renamed paper.pdf", png()),
        ("plain text", b"This is my paper, honestly.".to_vec()),
        ("a ZIP without word/", zip(&[("notes.txt", "hello"), ("more.txt", "world")])),
        (
            "a spreadsheet",
            zip(&[("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", RELS), ("xl/workbook.xml", "<workbook/>")]),
        ),
        // Look-alikes that passed a check of the first bytes (issue 11).
        ("HTML with a PDF inside", [b"<html>".as_slice(), &pdf()].concat()),
        ("NUL bytes, then a PDF", [[0u8; 16].as_slice(), &pdf()].concat()),
        ("an OLE header followed by zeros", {
            let mut ole = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
            ole.resize(8192, 0);
            ole
        }),
        ("a PDF cut short", pdf()[..60].to_vec()),
        ("a ZIP with word/ but no content types", zip(&[("word/document.xml", DOCUMENT)])),
    ];
    for (what, bytes) in cases {
        let form = Form::fields_only().file("paper.pdf", "application/pdf", bytes);
        let (status, answer) = submit(&app, &form).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{what}: {answer}");
        assert_eq!(answer["message"], "The paper must be a PDF, DOC or DOCX file", "{what}");
        assert_eq!(answer["errors"]["file"], "The paper must be a PDF, DOC or DOCX file", "{what}");
        assert_nothing_stored(&app, what).await;
    }
}

#[tokio::test]
async fn a_paper_over_the_limit_is_refused_with_413_and_leaves_nothing() {
    let app = app_with(|c| c.upload_max_bytes = 2048).await;
    let big = pdf_of_size(2049);
    let form = Form::fields_only().file("paper.pdf", "application/pdf", big);
    let body = form.body();

    // No Content-Length (a streamed body): counted as it arrives.
    let reply = app.post(URL, &multipart_type(), body.clone(), &[("origin", BASE)]).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", reply.text());
    assert_eq!(json_of(&reply)["message"], "File is larger than 2048 bytes");
    assert_nothing_stored(&app, "413 without Content-Length").await;

    // A declared length far over the limit is refused before reading.
    let huge = pdf_of_size(2048 + 300 * 1024);
    let huge_body = Form::fields_only().file("paper.pdf", "application/pdf", huge).body();
    let length = huge_body.len().to_string();
    let reply = app.post(URL, &multipart_type(), huge_body, &[("origin", BASE), ("content-length", &length)]).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", reply.text());
    assert_eq!(json_of(&reply)["errors"]["file"], "File is larger than 2048 bytes");
    assert_nothing_stored(&app, "413 with Content-Length").await;

    // Exactly at the limit is fine.
    let at_limit = pdf_of_size(2048);
    let (status, answer) = submit(&app, &Form::fields_only().file("paper.pdf", "application/pdf", at_limit)).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    assert!(temp_uploads(app.dir.path()).is_empty());
}

// ---------------------------------------------------------------------------------------
// Malformed requests

#[tokio::test]
async fn a_body_that_is_not_multipart_is_refused_with_a_message() {
    let app = app().await;
    let expected = "Send the submission as multipart/form-data, with the paper in a part named file";
    for (content_type, body) in [
        ("application/json", r#"{"authorName":"Ana","pdfUrl":"https://files.example/paper.pdf"}"#),
        ("application/x-www-form-urlencoded", "authorName=Ana"),
        ("text/plain", "hello"),
        ("", ""),
    ] {
        let reply = app.post(URL, content_type, body, &[("origin", BASE)]).await;
        assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{content_type}: {}", reply.text());
        assert_eq!(json_of(&reply)["message"], expected, "{content_type}");
    }

    // Multipart in name only: an empty or truncated body, a missing boundary.
    for (content_type, body) in [
        (multipart_type(), Vec::new()),
        (multipart_type(), Form::valid().body()[..300].to_vec()),
        ("multipart/form-data".to_owned(), Form::valid().body()),
    ] {
        let reply = app.post(URL, &content_type, body, &[("origin", BASE)]).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{content_type}: {}", reply.text());
        let message = json_of(&reply)["message"].as_str().unwrap().to_owned();
        assert!(message.starts_with("The form data could not be read"), "{message}");
    }
    assert_nothing_stored(&app, "malformed requests").await;
}

#[tokio::test]
async fn a_post_from_another_origin_is_refused() {
    let app = app().await;
    let reply = app.post(URL, &multipart_type(), Form::valid().body(), &[("origin", "https://evil.example")]).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.text());
    assert_nothing_stored(&app, "cross-origin").await;
}

#[tokio::test]
async fn a_filled_honeypot_gets_a_normal_answer_and_stores_nothing() {
    let app = app().await;
    let (status, answer) = submit(&app, &Form::valid().with("_gotcha", "https://spam.example")).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    reference_of(&answer);
    assert!(answer["id"].is_i64(), "{answer}");
    assert_nothing_stored(&app, "honeypot").await;
}

// ---------------------------------------------------------------------------------------
// Nothing half stored

#[tokio::test]
async fn a_database_failure_after_the_file_is_moved_leaves_neither_file_nor_row() {
    let app = app().await;
    // The row cannot be written: the paper is already in place by then.
    app.fail_inserts("submissions", "disk on fire").await;
    let (status, answer) = submit(&app, &Form::valid()).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{answer}");
    assert_eq!(answer["message"], "Something went wrong on our side. Please try again later.");
    assert!(!answer.to_string().contains("disk on fire"), "internals stay in the log");
    assert_nothing_stored(&app, "the row failed").await;

    // The row is written but its mails cannot be: the row goes too.
    app.allow_inserts("submissions").await;
    app.fail_inserts("outbox", "outbox full").await;
    let (status, answer) = submit(&app, &Form::valid()).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{answer}");
    assert_nothing_stored(&app, "the mails failed").await;

    // Once the database is well again, the same submission goes through.
    app.allow_inserts("outbox").await;
    let (status, answer) = submit(&app, &Form::valid()).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    assert_eq!(leftovers(&app).await, (1, 2, 1, 0));
}

#[tokio::test]
async fn stored_papers_are_never_served() {
    let app = app().await;
    let (status, answer) = submit(&app, &Form::valid()).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let file = format!("{}.pdf", reference_of(&answer));
    for path in [
        format!("/papers/{file}"),
        format!("/data/papers/{file}"),
        format!("/static/../papers/{file}"),
        format!("/static/%2e%2e/papers/{file}"),
        format!("/assets/..%2fpapers%2f{file}"),
        format!("/api/files/papers/papers/{file}"),
    ] {
        let reply = app.request(&path, &[]).await;
        assert!(reply.status.is_client_error(), "GET {path} answers {}", reply.status);
        assert!(!reply.body.starts_with(b"%PDF"), "GET {path} does not serve the paper");
    }
}

// ---------------------------------------------------------------------------------------
// Without JavaScript, and for organisers

#[tokio::test]
async fn a_plain_form_post_is_answered_with_a_redirect_to_the_outcome() {
    let app = app().await;
    let html = [("origin", BASE), ("accept", "text/html,application/xhtml+xml,*/*;q=0.8")];
    let reply = app.post(URL, &multipart_type(), Form::valid().body(), &html).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(reply.header("location"), Some("/submission#paper-sent"));
    assert_eq!(app.count("submissions").await, 1);

    let reply = app.post(URL, &multipart_type(), Form::fields_only().body(), &html).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(reply.header("location"), Some("/submission#paper-error"));
    assert_eq!(app.count("submissions").await, 1, "the refused one is not stored");

    let page = parse(&app.page("/submission").await);
    for id in ["paper-sent", "paper-error"] {
        assert!(by_id(&page, id).is_some(), "the page has the #{id} notice");
    }
}

#[tokio::test]
async fn the_page_carries_the_form_for_the_island_and_without_javascript() {
    let app = app_with(|c| c.upload_max_bytes = 10 * 1024 * 1024).await;
    let page = parse(&app.page("/submission").await);
    let island = first(&page, "[data-island=PaperForm]").expect("the PaperForm island");
    assert!(
        first(&page, "form[action='/api/paper-submission'][enctype='multipart/form-data']").is_some(),
        "the form works without JavaScript"
    );
    let props: Value = serde_json::from_str(island.attr("data-props").expect("props")).expect("props are JSON");
    assert_eq!(props["maxBytes"], 10_485_760, "props carry the limit");
    assert!(text(&page).contains("up to 10 MB"), "the limit in words");
    for name in [
        "authorName",
        "coAuthorName",
        "number",
        "email",
        "country",
        "paperTitle",
        "department",
        "universityOrganization",
        "paperType",
        "presentationType",
        "conferenceSource",
        "message",
        "file",
        "_gotcha",
    ] {
        assert!(first(&page, &format!("[name={name}]")).is_some(), "the form has {name}");
    }
    let phone = first(&page, "input[name=number]").expect("the phone input");
    assert_eq!(phone.attr("type"), Some("tel"), "the phone input is type=tel");
    let placeholder = first(&page, "option[value='']").expect("an option without a value");
    assert_eq!(text(placeholder), "Select an option");
    for value in ["Abstract", "Full Paper", "Poster", "Oral", "conference-alerts", "others"] {
        assert!(first(&page, &format!("[value='{value}']")).is_some(), "the form has value={value:?}");
    }
}

#[tokio::test]
async fn the_export_lists_submissions_with_their_stored_file() {
    let app = app().await;
    let (status, answer) = submit(&app, &Form::valid().with("paperTitle", "=HYPERLINK(\"http://evil.example\")")).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let reference = reference_of(&answer);

    let mut out = Vec::new();
    conference::export::export(&app.pool, conference::export::ExportKind::Submissions, &mut out).await.unwrap();
    let csv = String::from_utf8(out).unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    assert_eq!(
        header,
        [
            "id",
            "reference",
            "created",
            "name",
            "number",
            "email",
            "country",
            "authorName",
            "coAuthorName",
            "paperTitle",
            "department",
            "universityOrganization",
            "paperType",
            "presentationType",
            "message",
            "conferenceSource",
            "filePath",
            "fileName",
            "fileType",
            "fileSize",
            "state",
            "decidedAt",
            "reviews",
            "score",
            "spread",
            "disagreement",
            "recommendations"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    let get = |name: &str| row.get(header.iter().position(|h| h == name).unwrap()).unwrap().to_owned();
    assert_eq!(get("reference"), reference);
    assert_eq!(get("filePath"), format!("papers/{reference}.pdf"));
    assert_eq!(get("fileSize"), pdf().len().to_string());
    assert_eq!(get("authorName"), "Ana Cruz");
    assert_eq!(get("message"), "Corresponding author: Ana Cruz.\nKeywords: solar, microgrid, islands.");
    assert_eq!(get("paperTitle"), "'=HYPERLINK(\"http://evil.example\")", "a formula is shown as text");
}

// ---------------------------------------------------------------------------------------
// Papers on either engine (issue 12): stored whole, reachable from any instance, exported

/// A PDF of `size` bytes or so: the test paper with binary filler before its trailer.
fn large_pdf(size: usize) -> Vec<u8> {
    let mut bytes = pdf();
    let trailer = bytes.split_off(bytes.len() - "%%EOF\n".len());
    bytes.extend((0..size).map(|i| (i % 251) as u8));
    bytes.extend(trailer);
    bytes
}

#[tokio::test]
async fn a_paper_of_several_chunks_is_stored_byte_for_byte() {
    let app = app().await;
    let bytes = large_pdf(700_000);
    let (status, answer) = submit(&app, &Form::fields_only().file("big.pdf", "application/pdf", bytes.clone())).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let row = conference::repo::submissions::by_reference(&app.pool, &reference_of(&answer)).await.unwrap().unwrap();
    assert_eq!(row.submitted.file_size, bytes.len() as i64);
    assert_eq!(app.stored_paper(&row.submitted.file_path).await.expect("the paper is stored"), bytes);
    assert_eq!(app.stored_papers().await, 1);
    // Where the bytes live differs by engine, and each run checks its own: this one binary runs
    // on SQLite, then on PostgreSQL (`.ci/run`), so a check made on one engine only would
    // pass, unchecked, on the other.
    let reference = reference_of(&answer);
    match app.engine() {
        conference::db::Engine::Sqlite => {
            assert_eq!(files_in(app.dir.path(), "papers"), [format!("{reference}.pdf")], "one file under DATA_DIR");
        }
        conference::db::Engine::Postgres => {
            let (chunks, largest): (i64, i64) =
                sqlx::query_as("SELECT COUNT(*), MAX(octet_length(data)) FROM paper_chunks WHERE submission_id = $1")
                    .bind(row.id)
                    .fetch_one(&app.pool)
                    .await
                    .unwrap();
            assert_eq!(chunks, 3, "700 KB in chunks of 256 KiB");
            assert_eq!(largest, 262_144, "full chunks of 256 KiB");
            assert!(files_in(app.dir.path(), "papers").is_empty(), "PostgreSQL keeps papers out of DATA_DIR");
        }
    }
    assert!(files_in(app.dir.path(), "tmp").is_empty(), "no temporary upload is left behind");
}

#[tokio::test]
async fn export_papers_writes_every_paper_named_by_its_reference() {
    let app = app().await;
    let big = large_pdf(300_000);
    let mut expected = Vec::new();
    for form in [Form::valid(), Form::fields_only().file("big.pdf", "application/pdf", big.clone())] {
        let (status, answer) = submit(&app, &form).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        expected.push(reference_of(&answer));
    }
    let out = tempfile::tempdir().unwrap();
    // On PostgreSQL the export runs as if on another machine: an empty DATA_DIR.
    let elsewhere = tempfile::tempdir().unwrap();
    let data_dir = match app.engine() {
        conference::db::Engine::Sqlite => app.dir.path(),
        conference::db::Engine::Postgres => elsewhere.path(),
    };
    let written = conference::export::papers::write_all(&app.pool, data_dir, &out.path().join("papers")).await.unwrap();
    assert_eq!(written, 2);
    let mut names = files_in(out.path(), "papers");
    names.sort();
    let mut wanted: Vec<String> = expected.iter().map(|r| format!("{r}.pdf")).collect();
    wanted.sort();
    assert_eq!(names, wanted, "one file per paper, named by its reference, nothing else");
    assert_eq!(std::fs::read(out.path().join(format!("papers/{}.pdf", expected[0]))).unwrap(), pdf());
    assert_eq!(std::fs::read(out.path().join(format!("papers/{}.pdf", expected[1]))).unwrap(), big);
}

#[tokio::test]
async fn export_papers_names_a_paper_it_cannot_find() {
    let app = app().await;
    let (status, answer) = submit(&app, &Form::valid()).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let reference = reference_of(&answer);
    match app.engine() {
        conference::db::Engine::Sqlite => {
            std::fs::remove_file(app.dir.path().join(format!("papers/{reference}.pdf"))).unwrap()
        }
        conference::db::Engine::Postgres => app.exec("DELETE FROM paper_chunks").await,
    }
    let out = tempfile::tempdir().unwrap();
    let err = conference::export::papers::write_all(&app.pool, app.dir.path(), out.path()).await.unwrap_err();
    assert!(err.to_string().contains(&reference), "{err}");
    assert!(files_in(out.path(), "").is_empty(), "no partial file is left: {:?}", files_in(out.path(), ""));
}
