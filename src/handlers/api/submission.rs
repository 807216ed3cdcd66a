//! POST `/api/paper-submission` (DESIGN.md section 5): one `multipart/form-data` request with
//! the spec's submission fields (spec section 3) and one part `file`, the paper.
//!
//! The paper is streamed to a temporary file under `DATA_DIR/tmp` (never held whole in
//! memory), counted against `UPLOAD_MAX_BYTES` as it arrives (413), checked by its content as
//! PDF, DOC or DOCX (415), and the fields are checked in the spec's order (section 5: the
//! file, then the paper type, then the required fields; 422). Then the file is moved to
//! `DATA_DIR/papers/<reference>.<ext>` and the row and both mails (the author's
//! acknowledgement, the organisers' notice with the paper attached) are written in one
//! transaction; if that fails the moved file is removed again, so nothing is half stored.
//! Papers are never served: no route reads `DATA_DIR`.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use askama::Template;
use axum::extract::multipart::{Field, MultipartError};
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde::Serialize;
use tempfile::NamedTempFile;
use tokio::io::AsyncWriteExt;
use tower::{Layer, ServiceExt};

use crate::error::{AppError, ErrorBody, anyhow_lite};
use crate::handlers::pages::info::CONFERENCE_SOURCES;
use crate::mail::{self, Attachment, MailSite};
use crate::protect::{HONEYPOT_FIELD, is_valid_email, is_valid_phone};
use crate::repo::submissions::{self, NewSubmission};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/paper-submission", post(submit))
}

/// Room for the text fields and the multipart framing on top of `UPLOAD_MAX_BYTES`, in
/// bytes: the whole request may be this much larger than the largest paper.
pub const FIELDS_MARGIN_BYTES: u64 = 256 * 1024;

/// Most bytes kept of one text part; longer values are refused as too long (every field's
/// own limit, in characters, is far below this).
const TEXT_PART_MAX_BYTES: usize = 64 * 1024;

/// Most parts one request may carry: the form has 15, a client adding a few is harmless.
const MAX_PARTS: usize = 40;

/// spec section 5 and 8: the first check of the paper form.
pub const MISSING_FILE: &str = "Please upload your paper file";
/// spec section 5 and 8: the second check of the paper form.
pub const MISSING_PAPER_TYPE: &str = "Please select a paper type";

/// spec section 5: paperType options.
pub const PAPER_TYPES: [&str; 2] = ["Abstract", "Full Paper"];
/// spec section 5: presentationType options.
pub const PRESENTATION_TYPES: [&str; 2] = ["Poster", "Oral"];

/// A text field of the form: its payload name, a label for messages, the most characters
/// it may hold, and the message when a required field is missing.
struct TextField {
    name: &'static str,
    label: &'static str,
    max_chars: usize,
    missing: Option<&'static str>,
}

/// The text fields in the order the spec checks them (section 5: paperType, then authorName,
/// phone, email, country, coAuthorName, paperTitle, department, universityOrganization,
/// presentationType, message, conferenceSource). `name` is optional: the spec keeps it in the
/// form's state without a visible input. The limits match the page's `maxlength`s.
const TEXT_FIELDS: [TextField; 13] = [
    TextField { name: "paperType", label: "Paper type", max_chars: 20, missing: Some(MISSING_PAPER_TYPE) },
    TextField {
        name: "authorName",
        label: "Author name",
        max_chars: 200,
        missing: Some("Please enter the author name"),
    },
    TextField { name: "number", label: "Phone", max_chars: 32, missing: Some("Please enter your phone number") },
    TextField {
        name: "email",
        label: "Email address",
        max_chars: 254,
        missing: Some("Please enter your email address"),
    },
    TextField { name: "country", label: "Country", max_chars: 80, missing: Some("Please enter your country") },
    TextField {
        name: "coAuthorName",
        label: "Co-author name(s)",
        max_chars: 500,
        missing: Some("Please enter the co-author name(s)"),
    },
    TextField {
        name: "paperTitle",
        label: "Paper title",
        max_chars: 300,
        missing: Some("Please enter the paper title"),
    },
    TextField {
        name: "department",
        label: "Department",
        max_chars: 200,
        missing: Some("Please enter your department"),
    },
    TextField {
        name: "universityOrganization",
        label: "University / Organization",
        max_chars: 200,
        missing: Some("Please enter your university or organization"),
    },
    TextField {
        name: "presentationType",
        label: "Presentation type",
        max_chars: 20,
        missing: Some("Please select a presentation type"),
    },
    TextField { name: "message", label: "Message", max_chars: 5000, missing: Some("Please enter a message") },
    TextField {
        name: "conferenceSource",
        label: "How did you hear about the conference?",
        max_chars: 64,
        missing: Some("Please select how you heard about the conference"),
    },
    TextField { name: "name", label: "Name", max_chars: 200, missing: None },
];

/// 201 body.
#[derive(Debug, Serialize)]
pub struct Created {
    pub id: i64,
    /// Human-readable, e.g. `P-2025-7KQ4M9`; quoted in both mails.
    pub reference: String,
}

/// Why a submission was refused; each answers with the `{"message","errors"}` JSON body.
#[derive(Debug)]
enum Refusal {
    /// 400: not a readable multipart body.
    BadRequest(String),
    /// 413: the paper is larger than `UPLOAD_MAX_BYTES` (or the request than that plus the
    /// fields' margin).
    TooLarge(String),
    /// 415: not multipart, or a paper that is not PDF, DOC or DOCX by its content.
    Unsupported { message: String, file: bool },
    /// 422: field errors in the spec's order; the message is the first one.
    Invalid(Vec<(&'static str, String)>),
    /// 500, logged.
    Internal(AppError),
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let (status, message, errors) = match self {
            Refusal::BadRequest(message) => (StatusCode::BAD_REQUEST, message, BTreeMap::new()),
            Refusal::TooLarge(message) => {
                (StatusCode::PAYLOAD_TOO_LARGE, message.clone(), BTreeMap::from([("file".to_owned(), message)]))
            }
            Refusal::Unsupported { message, file } => {
                let errors =
                    if file { BTreeMap::from([("file".to_owned(), message.clone())]) } else { BTreeMap::new() };
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, message, errors)
            }
            Refusal::Invalid(errors) => {
                let message = errors.first().map(|(_, m)| m.clone()).unwrap_or_default();
                let errors = errors.into_iter().map(|(k, m)| (k.to_owned(), m)).collect();
                (StatusCode::UNPROCESSABLE_ENTITY, message, errors)
            }
            Refusal::Internal(err) => return crate::error::ApiError(err).into_response(),
        };
        (status, Json(ErrorBody { message, errors })).into_response()
    }
}

fn internal(context: &'static str, err: impl std::error::Error + Send + Sync + 'static) -> Refusal {
    Refusal::Internal(AppError::Internal(anyhow_lite::Error::new(context, err)))
}

fn too_large(max_bytes: u64) -> Refusal {
    // The drop zone's own wording (spec section 5).
    Refusal::TooLarge(format!("File is larger than {max_bytes} bytes"))
}

/// Fragment of `/submission` that confirms a submission posted without JavaScript.
pub const SENT_FRAGMENT: &str = "paper-sent";
/// Fragment of `/submission` that reports a refused submission posted without JavaScript.
pub const ERROR_FRAGMENT: &str = "paper-error";

/// The handler: 201 `{"id","reference"}`, or a refusal. A plain HTML form post (a browser
/// without JavaScript asks for `text/html`) is answered with a 303 back to the page, at a
/// fragment that shows the outcome; the island and API clients get JSON.
pub async fn submit(State(state): State<AppState>, request: Request) -> Response {
    let wants_html = request
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"));
    let result = receive_and_store(&state, request).await;
    match (wants_html, result) {
        (true, Ok(_)) => Redirect::to(&format!("/submission#{SENT_FRAGMENT}")).into_response(),
        (true, Err(refusal)) => {
            if let Refusal::Internal(AppError::Internal(inner)) = &refusal {
                tracing::error!(error = %inner, "paper submission failed");
            }
            Redirect::to(&format!("/submission#{ERROR_FRAGMENT}")).into_response()
        }
        (false, Ok(created)) => (StatusCode::CREATED, Json(created)).into_response(),
        (false, Err(refusal)) => refusal.into_response(),
    }
}

async fn receive_and_store(state: &AppState, request: Request) -> Result<Created, Refusal> {
    let form = read_form(state, request).await?;

    if form.honeypot_filled() {
        // A bot: answer as if stored, keep nothing (the temporary file goes with `form`).
        tracing::info!("paper submission with the honeypot filled discarded");
        return Ok(Created { id: rand::random_range(1..100_000), reference: new_reference() });
    }

    let mut errors: Vec<(&'static str, String)> = Vec::new();
    let file = match (&form.file, form.extra_files) {
        (_, n) if n > 0 => {
            errors.push(("file", "Please upload only one file".into()));
            None
        }
        (None, _) => {
            errors.push(("file", MISSING_FILE.into()));
            None
        }
        (Some(file), _) if file.size == 0 => {
            errors.push(("file", "The paper file is empty".into()));
            None
        }
        (Some(file), _) => Some(file),
    };
    let fields = check_fields(&form.texts);
    match (file, fields) {
        (None, fields) => {
            errors.extend(fields.err().unwrap_or_default());
            Err(Refusal::Invalid(errors))
        }
        (Some(file), fields) => {
            // The file comes first (DESIGN.md section 5: the file is checked, then stored):
            // a paper of the wrong type is refused whatever the fields say.
            let path = file.temp.path().to_path_buf();
            let kind = tokio::task::spawn_blocking(move || detect_path(&path))
                .await
                .map_err(|e| internal("paper type check", e))?
                .map_err(|e| internal("paper type check", e))?
                .ok_or_else(|| Refusal::Unsupported {
                    message: "The paper must be a PDF, DOC or DOCX file".into(),
                    file: true,
                })?;
            let fields = fields.map_err(Refusal::Invalid)?;
            let file = form.file.expect("checked above");
            store(state, fields, file, kind).await
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reading the request

/// A paper as received: in a temporary file under `DATA_DIR/tmp`, removed when dropped.
struct Upload {
    temp: NamedTempFile,
    /// Bytes.
    size: u64,
    /// The client's file name, as sent.
    file_name: String,
}

/// A text part as received.
#[derive(Debug, Default, Clone)]
struct TextPart {
    /// `None` when the bytes were not UTF-8.
    value: Option<String>,
    /// More than [`TEXT_PART_MAX_BYTES`] arrived.
    overflow: bool,
    /// How often the part was sent.
    count: usize,
}

/// Everything the request carried.
#[derive(Default)]
struct Form {
    texts: BTreeMap<String, TextPart>,
    file: Option<Upload>,
    extra_files: usize,
}

impl Form {
    fn honeypot_filled(&self) -> bool {
        self.texts.get(HONEYPOT_FIELD).and_then(|t| t.value.as_deref()).is_some_and(|v| !v.trim().is_empty())
    }
}

async fn read_form(state: &AppState, request: Request) -> Result<Form, Refusal> {
    let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !content_type.trim_start().to_ascii_lowercase().starts_with("multipart/form-data") {
        return Err(Refusal::Unsupported {
            message: "Send the submission as multipart/form-data, with the paper in a part named file".into(),
            file: false,
        });
    }
    let max_file = state.config.upload_max_bytes;
    let max_request = max_file.saturating_add(FIELDS_MARGIN_BYTES);
    // A declared length already over the limit is refused before reading a byte.
    let declared =
        request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > max_request) {
        return Err(too_large(max_file));
    }
    let mut multipart = limited_multipart(request, max_request).await?;

    let tmp_dir = state.config.data_dir.join("tmp");
    tokio::fs::create_dir_all(&tmp_dir).await.map_err(|e| internal("creating DATA_DIR/tmp", e))?;

    let mut form = Form::default();
    let mut parts = 0;
    loop {
        let field = multipart.next_field().await.map_err(|e| unreadable(e, max_file))?;
        let Some(mut field) = field else { break };
        parts += 1;
        if parts > MAX_PARTS {
            return Err(Refusal::BadRequest(format!("The form has more than {MAX_PARTS} parts")));
        }
        let name = field.name().unwrap_or_default().to_owned();
        if name == "file" {
            let file_name = field.file_name().unwrap_or_default().to_owned();
            let (temp, size) = stream_to_temp(&mut field, &tmp_dir, max_file).await?;
            // A form posted without JavaScript and without a chosen file sends an empty
            // part with no file name: that is a missing file, not an empty one.
            if size == 0 && file_name.is_empty() {
                continue;
            }
            if form.file.is_some() {
                form.extra_files += 1;
            } else {
                form.file = Some(Upload { temp, size, file_name });
            }
        } else {
            let part = read_text(&mut field, max_file).await?;
            let entry = form.texts.entry(name).or_default();
            entry.count += 1;
            entry.overflow |= part.overflow;
            entry.value = part.value;
        }
    }
    Ok(form)
}

/// The multipart reader with the whole body capped at `max_bytes` (counted as it streams,
/// so a body without `Content-Length` is capped too). The cap depends on `UPLOAD_MAX_BYTES`,
/// known only at run time, so axum's `DefaultBodyLimit` is applied here per request rather
/// than as a route layer.
async fn limited_multipart(request: Request, max_bytes: u64) -> Result<Multipart, Refusal> {
    let limit = usize::try_from(max_bytes).unwrap_or(usize::MAX);
    let extract = tower::service_fn(|request: Request| async move {
        Ok::<_, Infallible>(Multipart::from_request(request, &()).await)
    });
    let result = DefaultBodyLimit::max(limit).layer(extract).oneshot(request).await;
    match result {
        Ok(Ok(multipart)) => Ok(multipart),
        Ok(Err(rejection)) => Err(Refusal::BadRequest(format!("The form data could not be read: {rejection}"))),
        Err(never) => match never {},
    }
}

fn unreadable(err: MultipartError, max_file: u64) -> Refusal {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large(max_file)
    } else {
        Refusal::BadRequest(format!("The form data could not be read: {}", err.body_text()))
    }
}

/// Writes a file part to a new temporary file in `dir`, chunk by chunk; more than
/// `max_bytes` is a 413 (and the temporary file is removed as it drops).
async fn stream_to_temp(field: &mut Field<'_>, dir: &Path, max_bytes: u64) -> Result<(NamedTempFile, u64), Refusal> {
    let temp = tempfile::Builder::new()
        .prefix("paper-")
        .suffix(".part")
        .tempfile_in(dir)
        .map_err(|e| internal("creating a temporary upload file", e))?;
    let handle = temp.as_file().try_clone().map_err(|e| internal("opening the temporary upload file", e))?;
    let mut out = tokio::fs::File::from_std(handle);
    let mut size: u64 = 0;
    while let Some(chunk) = field.chunk().await.map_err(|e| unreadable(e, max_bytes))? {
        size += chunk.len() as u64;
        if size > max_bytes {
            return Err(too_large(max_bytes));
        }
        out.write_all(&chunk).await.map_err(|e| internal("writing the temporary upload file", e))?;
    }
    out.flush().await.map_err(|e| internal("writing the temporary upload file", e))?;
    // On disk before the row says it is: a 2xx means nothing is lost (DESIGN.md section 5).
    out.sync_all().await.map_err(|e| internal("syncing the temporary upload file", e))?;
    Ok((temp, size))
}

/// Reads a text part, keeping at most [`TEXT_PART_MAX_BYTES`]; the rest is read and dropped.
async fn read_text(field: &mut Field<'_>, max_file: u64) -> Result<TextPart, Refusal> {
    let mut bytes = Vec::new();
    let mut overflow = false;
    while let Some(chunk) = field.chunk().await.map_err(|e| unreadable(e, max_file))? {
        if bytes.len() + chunk.len() > TEXT_PART_MAX_BYTES {
            overflow = true;
        } else {
            bytes.extend_from_slice(&chunk);
        }
    }
    Ok(TextPart { value: String::from_utf8(bytes).ok(), overflow, count: 1 })
}

// ---------------------------------------------------------------------------------------
// Checking the fields

/// The submission's fields once checked: trimmed, within their limits, options valid.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Fields {
    name: String,
    number: String,
    email: String,
    country: String,
    author_name: String,
    co_author_name: String,
    paper_title: String,
    department: String,
    university_organization: String,
    paper_type: String,
    presentation_type: String,
    message: String,
    conference_source: String,
}

/// Checks every text field in the spec's order; the errors keep that order.
fn check_fields(texts: &BTreeMap<String, TextPart>) -> Result<Fields, Vec<(&'static str, String)>> {
    let mut errors: Vec<(&'static str, String)> = Vec::new();
    let mut values: BTreeMap<&'static str, String> = BTreeMap::new();
    for field in &TEXT_FIELDS {
        let part = texts.get(field.name);
        let error = match part {
            Some(part) if part.count > 1 => Some(format!("{} was sent more than once", field.label)),
            Some(part) if part.overflow => Some(too_long(field)),
            Some(TextPart { value: None, .. }) => Some(format!("{} must be text", field.label)),
            _ => {
                let raw = part.and_then(|p| p.value.as_deref()).unwrap_or("");
                let value = if field.name == "message" { raw.trim().to_owned() } else { single_line(raw) };
                let error = if value.is_empty() {
                    field.missing.map(str::to_owned)
                } else if value.chars().count() > field.max_chars {
                    Some(too_long(field))
                } else {
                    check_value(field.name, &value)
                };
                values.insert(field.name, value);
                error
            }
        };
        if let Some(message) = error {
            errors.push((field.name, message));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut take = |name: &str| values.remove(name).unwrap_or_default();
    Ok(Fields {
        name: take("name"),
        number: take("number"),
        email: take("email"),
        country: take("country"),
        author_name: take("authorName"),
        co_author_name: take("coAuthorName"),
        paper_title: take("paperTitle"),
        department: take("department"),
        university_organization: take("universityOrganization"),
        paper_type: take("paperType"),
        presentation_type: take("presentationType"),
        message: take("message"),
        conference_source: take("conferenceSource"),
    })
}

fn too_long(field: &TextField) -> String {
    format!("{} is too long (at most {} characters)", field.label, field.max_chars)
}

/// A one-line field: line breaks and other control characters become spaces, runs of
/// spaces one, ends trimmed (these values end up in mail subjects and CSV cells).
fn single_line(raw: &str) -> String {
    raw.split(|c: char| c.is_whitespace() || c.is_control()).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ")
}

/// The format and option checks of a non-empty value.
fn check_value(name: &str, value: &str) -> Option<String> {
    match name {
        "email" if !is_valid_email(value) => Some("Please enter a valid email address".into()),
        "number" if !is_valid_phone(value) => Some("Please enter a valid phone number".into()),
        "paperType" if !PAPER_TYPES.contains(&value) => Some("Paper type must be Abstract or Full Paper".into()),
        "presentationType" if !PRESENTATION_TYPES.contains(&value) => {
            Some("Presentation type must be Poster or Oral".into())
        }
        "conferenceSource" if !CONFERENCE_SOURCES.iter().any(|(v, _)| *v == value) => {
            Some("Please select one of the listed options".into())
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------
// The paper's type, by content

/// What a paper may be (spec section 5: PDF or Word, .doc or .docx).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaperKind {
    Pdf,
    Doc,
    Docx,
}

impl PaperKind {
    pub fn extension(self) -> &'static str {
        match self {
            PaperKind::Pdf => "pdf",
            PaperKind::Doc => "doc",
            PaperKind::Docx => "docx",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            PaperKind::Pdf => "application/pdf",
            PaperKind::Doc => "application/msword",
            PaperKind::Docx => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        }
    }
}

/// Bytes read from the start of a paper to recognise it.
const HEAD_BYTES: usize = 64 * 1024;
/// Largest ZIP central directory read to look for `word/` (a DOCX has a few dozen entries).
const MAX_CENTRAL_DIRECTORY: u64 = 1024 * 1024;

fn detect_path(path: &Path) -> std::io::Result<Option<PaperKind>> {
    detect(&mut std::fs::File::open(path)?)
}

/// Recognises a paper by its content, never by its name or the type the client claims:
/// - PDF: `%PDF` within the first 1024 bytes (infer's rule, after the PDF reference);
/// - DOC: an OLE compound file (the Word 97-2003 container; infer's signature check);
/// - DOCX: a ZIP archive with entries under `word/` (infer's check of the first entries,
///   else the archive's central directory, which lists every entry whatever their order).
pub fn detect<R: Read + Seek>(file: &mut R) -> std::io::Result<Option<PaperKind>> {
    let mut head = Vec::with_capacity(HEAD_BYTES);
    file.by_ref().take(HEAD_BYTES as u64).read_to_end(&mut head)?;
    if infer::archive::is_pdf(&head) {
        return Ok(Some(PaperKind::Pdf));
    }
    // infer names the bare compound-file signature `is_msi`; Word's CLSID check
    // (`infer::doc::is_doc`) needs the whole file in memory, which an upload never is.
    if infer::archive::is_msi(&head) {
        return Ok(Some(PaperKind::Doc));
    }
    if infer::archive::is_zip(&head) && (infer::doc::is_docx(&head) || zip_has_word_entries(file)?) {
        return Ok(Some(PaperKind::Docx));
    }
    Ok(None)
}

/// Whether a ZIP archive's central directory lists an entry under `word/`.
fn zip_has_word_entries<R: Read + Seek>(file: &mut R) -> std::io::Result<bool> {
    const EOCD: &[u8] = b"PK\x05\x06";
    const ENTRY: &[u8] = b"PK\x01\x02";
    let len = file.seek(SeekFrom::End(0))?;
    // The end-of-central-directory record (22 bytes) ends the file, after a comment of at
    // most 65535 bytes.
    let tail_len = len.min(22 + 65_535);
    file.seek(SeekFrom::Start(len - tail_len))?;
    let mut tail = Vec::with_capacity(tail_len as usize);
    file.by_ref().take(tail_len).read_to_end(&mut tail)?;
    let Some(at) = tail.windows(4).rposition(|w| w == EOCD) else { return Ok(false) };
    let record = &tail[at..];
    if record.len() < 22 {
        return Ok(false);
    }
    let dir_size = u64::from(u32::from_le_bytes(record[12..16].try_into().expect("4 bytes")));
    let dir_offset = u64::from(u32::from_le_bytes(record[16..20].try_into().expect("4 bytes")));
    if dir_size > MAX_CENTRAL_DIRECTORY || dir_offset.saturating_add(dir_size) > len {
        return Ok(false);
    }
    file.seek(SeekFrom::Start(dir_offset))?;
    let mut dir = Vec::with_capacity(dir_size as usize);
    file.by_ref().take(dir_size).read_to_end(&mut dir)?;
    let mut pos = 0;
    while pos + 46 <= dir.len() && &dir[pos..pos + 4] == ENTRY {
        let u16_at = |i: usize| usize::from(u16::from_le_bytes([dir[pos + i], dir[pos + i + 1]]));
        let (name_len, extra_len, comment_len) = (u16_at(28), u16_at(30), u16_at(32));
        let Some(name) = dir.get(pos + 46..pos + 46 + name_len) else { break };
        if name.starts_with(b"word/") {
            return Ok(true);
        }
        pos += 46 + name_len + extra_len + comment_len;
    }
    Ok(false)
}

// ---------------------------------------------------------------------------------------
// Storing

/// Characters of references: no 0/O or 1/I, so a reference read over the phone is not
/// misheard. 32^6 ≈ 10^9 per year.
const REFERENCE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// A fresh reference, e.g. `P-2025-7KQ4M9` (P for paper, the year of submission).
pub fn new_reference() -> String {
    let year = time::OffsetDateTime::now_utc().year();
    let code: String =
        (0..6).map(|_| char::from(REFERENCE_ALPHABET[rand::random_range(0..REFERENCE_ALPHABET.len())])).collect();
    format!("P-{year}-{code}")
}

/// Where papers are kept, relative to `DATA_DIR`.
pub const PAPERS_DIR: &str = "papers";

/// Moves the paper into place, then writes the row and both mails in one transaction; if
/// the transaction fails, the moved file is removed again.
async fn store(state: &AppState, fields: Fields, upload: Upload, kind: PaperKind) -> Result<Created, Refusal> {
    let ctx = mail::Context::load(state).await.map_err(|e| internal("loading the site for mail", e))?;
    let papers = state.config.data_dir.join(PAPERS_DIR);
    let (reference, stored) = persist(upload.temp, &papers, kind).await?;

    let new = NewSubmission {
        file_path: format!("{PAPERS_DIR}/{reference}.{}", kind.extension()),
        file_name: upload_name(&upload.file_name, &reference, kind),
        file_type: kind.mime().to_owned(),
        file_size: i64::try_from(upload.size).unwrap_or(i64::MAX),
        reference: reference.clone(),
        name: fields.name,
        number: fields.number,
        email: fields.email,
        country: fields.country,
        author_name: fields.author_name,
        co_author_name: fields.co_author_name,
        paper_title: fields.paper_title,
        department: fields.department,
        university_organization: fields.university_organization,
        paper_type: fields.paper_type,
        presentation_type: fields.presentation_type,
        message: fields.message,
        conference_source: fields.conference_source,
    };
    match write_row_and_mails(state, &ctx, &new).await {
        Ok(id) => Ok(Created { id, reference }),
        Err(err) => {
            // Neither a stray file nor a row without its file (DESIGN.md section 5).
            if let Err(remove) = tokio::fs::remove_file(&stored).await {
                tracing::error!(path = %stored.display(), error = %remove, "could not remove a paper whose row failed");
            }
            Err(err)
        }
    }
}

/// Renames the temporary file to `papers/<reference>.<ext>` under a fresh reference (a
/// reference whose file exists already is never reused) and makes the rename durable.
async fn persist(temp: NamedTempFile, papers: &Path, kind: PaperKind) -> Result<(String, PathBuf), Refusal> {
    let papers = papers.to_path_buf();
    tokio::task::spawn_blocking(move || -> std::io::Result<(String, PathBuf)> {
        std::fs::create_dir_all(&papers)?;
        let mut temp = temp;
        let mut attempts = 0;
        loop {
            let reference = new_reference();
            let target = papers.join(format!("{reference}.{}", kind.extension()));
            match temp.persist_noclobber(&target) {
                Ok(_) => {
                    // The rename itself on disk (the folder's entry), not only the bytes.
                    #[cfg(unix)]
                    std::fs::File::open(&papers)?.sync_all()?;
                    return Ok((reference, target));
                }
                Err(err) if err.error.kind() == std::io::ErrorKind::AlreadyExists && attempts < 5 => {
                    attempts += 1;
                    temp = err.file;
                }
                Err(err) => return Err(err.error),
            }
        }
    })
    .await
    .map_err(|e| internal("storing the paper", e))?
    .map_err(|e| internal("storing the paper", e))
}

/// The name organisers see on the attachment: the uploaded name without any folder part and
/// with only safe characters, ending in the extension of what the file really is.
fn upload_name(sent: &str, reference: &str, kind: PaperKind) -> String {
    let base = sent.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = match base.rsplit_once('.') {
        Some((stem, _)) => stem,
        None => base,
    };
    let clean: String = stem
        .chars()
        .map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | ' ' | '(' | ')') { c } else { '_' })
        .take(100)
        .collect();
    let clean = clean.trim();
    if clean.is_empty() { format!("{reference}.{}", kind.extension()) } else { format!("{clean}.{}", kind.extension()) }
}

async fn write_row_and_mails(state: &AppState, ctx: &mail::Context, new: &NewSubmission) -> Result<i64, Refusal> {
    let (ack, notice) = compose_mails(ctx, new).map_err(|e| internal("rendering the submission mails", e))?;
    let db = |e| internal("storing the submission", e);
    let mut tx = state.pool.begin().await.map_err(db)?;
    let id = submissions::insert(&mut tx, new).await.map_err(db)?;
    mail::enqueue(&mut tx, &ack).await.map_err(db)?;
    mail::enqueue(&mut tx, &notice).await.map_err(db)?;
    tx.commit().await.map_err(db)?;
    Ok(id)
}

// ---------------------------------------------------------------------------------------
// Mails

/// What both submission mails show.
pub struct SubmissionMail<'a> {
    pub site: &'a MailSite,
    pub s: &'a NewSubmission,
    /// The conferenceSource option's label.
    pub source: &'a str,
    /// The file size for people, e.g. `1.2 MB`.
    pub size: String,
}

/// The author's acknowledgement: title, reference, the 24-48 hour follow-up (spec section 9).
#[derive(Template)]
#[template(path = "mail/submission_ack.txt")]
pub struct AckText<'a> {
    pub site: &'a MailSite,
    pub m: &'a SubmissionMail<'a>,
}

#[derive(Template)]
#[template(path = "mail/submission_ack.html")]
pub struct AckHtml<'a> {
    pub site: &'a MailSite,
    pub m: &'a SubmissionMail<'a>,
}

/// The organisers' notice, with the paper attached.
#[derive(Template)]
#[template(path = "mail/submission_notice.txt")]
pub struct NoticeText<'a> {
    pub site: &'a MailSite,
    pub m: &'a SubmissionMail<'a>,
}

#[derive(Template)]
#[template(path = "mail/submission_notice.html")]
pub struct NoticeHtml<'a> {
    pub site: &'a MailSite,
    pub m: &'a SubmissionMail<'a>,
}

/// The two mails of a stored submission: (author's acknowledgement, organisers' notice).
fn compose_mails(
    ctx: &mail::Context,
    s: &NewSubmission,
) -> Result<(mail::OutgoingMail, mail::OutgoingMail), askama::Error> {
    let source = CONFERENCE_SOURCES.iter().find(|(v, _)| *v == s.conference_source).map_or("", |(_, l)| *l);
    let data = SubmissionMail { site: &ctx.site, s, source, size: human_size(s.file_size) };
    let site = &ctx.site;
    let ack = mail::compose(
        s.email.clone(),
        ctx.subject(&format!("We received your paper ({})", s.reference)),
        &AckText { site, m: &data },
        &AckHtml { site, m: &data },
    )?
    .reply_to(ctx.addresses.organisers.clone())
    .dedupe_key(format!("submission-ack:{}", s.reference));
    let notice = mail::compose(
        ctx.addresses.organisers.clone(),
        ctx.subject(&format!("New paper submission {}: {}", s.reference, s.paper_title)),
        &NoticeText { site, m: &data },
        &NoticeHtml { site, m: &data },
    )?
    .reply_to(s.email.clone())
    .dedupe_key(format!("submission-notice:{}", s.reference))
    .attachment(Attachment {
        path: s.file_path.clone(),
        name: s.file_name.clone(),
        content_type: s.file_type.clone(),
    });
    Ok((ack, notice))
}

/// Bytes for people: `834 bytes`, `12.5 KB`, `1.2 MB` (1 KB = 1024 bytes).
pub fn human_size(bytes: i64) -> String {
    const UNITS: [&str; 3] = ["KB", "MB", "GB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut size = bytes as f64 / 1024.0;
    let mut unit = 0;
    while size >= 1024.0 && unit < UNITS.len() - 1 {
        size /= 1024.0;
        unit += 1;
    }
    format!("{:.1} {}", size, UNITS[unit])
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    fn texts(pairs: &[(&str, &str)]) -> BTreeMap<String, TextPart> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), TextPart { value: Some((*v).to_owned()), overflow: false, count: 1 }))
            .collect()
    }

    const VALID: [(&str, &str); 12] = [
        ("authorName", "Ana Cruz"),
        ("number", "+639171234567"),
        ("email", "ana@example.org"),
        ("country", "Philippines"),
        ("coAuthorName", "Ben Reyes"),
        ("paperTitle", "Solar  microgrids\r\nfor islands"),
        ("department", "Engineering"),
        ("universityOrganization", "University of Manila"),
        ("paperType", "Full Paper"),
        ("presentationType", "Oral"),
        ("message", "  Line one\nLine two  "),
        ("conferenceSource", "linkedin"),
    ];

    #[test]
    fn valid_fields_are_trimmed_and_one_line_fields_joined() {
        let fields = check_fields(&texts(&VALID)).expect("valid");
        assert_eq!(fields.paper_title, "Solar microgrids for islands");
        assert_eq!(fields.message, "Line one\nLine two");
        assert_eq!(fields.name, "");
    }

    #[test]
    fn errors_come_in_the_specs_order() {
        let errors = check_fields(&texts(&[])).unwrap_err();
        let keys: Vec<&str> = errors.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            keys,
            [
                "paperType",
                "authorName",
                "number",
                "email",
                "country",
                "coAuthorName",
                "paperTitle",
                "department",
                "universityOrganization",
                "presentationType",
                "message",
                "conferenceSource"
            ]
        );
        assert_eq!(errors[0].1, MISSING_PAPER_TYPE);
    }

    #[test]
    fn kinds_are_recognised_by_content() {
        let kind = |bytes: &[u8]| detect(&mut Cursor::new(bytes.to_vec())).unwrap();
        assert_eq!(kind(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"), Some(PaperKind::Pdf));
        assert_eq!(kind(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0, 0, 0]), Some(PaperKind::Doc));
        assert_eq!(kind(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), None);
        assert_eq!(kind(b"hello, world"), None);
        assert_eq!(kind(b""), None);
        // A ZIP that is not a Word document (no word/ entries) is refused.
        assert_eq!(kind(b"PK\x03\x04rest-of-a-zip"), None);
    }

    #[test]
    fn references_read_well() {
        let r = new_reference();
        assert!(r.starts_with("P-20"), "{r}");
        assert_eq!(r.len(), "P-2025-7KQ4M9".len());
        assert!(r[7..].bytes().all(|b| REFERENCE_ALPHABET.contains(&b)), "{r}");
    }

    #[test]
    fn attachment_names_are_safe_and_match_the_content() {
        assert_eq!(upload_name("C:\\papers\\My paper.v2.PDF", "P-1", PaperKind::Pdf), "My paper_v2.pdf");
        assert_eq!(upload_name("../../etc/passwd", "P-1", PaperKind::Docx), "passwd.docx");
        assert_eq!(upload_name("paper.pdf", "P-1", PaperKind::Doc), "paper.doc");
        assert_eq!(upload_name("", "P-2025-ABC234", PaperKind::Pdf), "P-2025-ABC234.pdf");
    }

    #[test]
    fn sizes_for_people() {
        assert_eq!(human_size(834), "834 bytes");
        assert_eq!(human_size(12_800), "12.5 KB");
        assert_eq!(human_size(20 * 1024 * 1024), "20.0 MB");
    }
}
