//! Reading the multipart request: text parts kept in memory (each capped), the paper
//! streamed chunk by chunk to a temporary file in `DATA_DIR/papers` and counted against
//! `UPLOAD_MAX_BYTES` as it arrives (413 beyond it), never held whole in memory.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::path::Path;

use axum::extract::multipart::{Field, MultipartError};
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Request};
use axum::http::{StatusCode, header};
use tempfile::NamedTempFile;
use tokio::io::AsyncWriteExt;
use tower::{Layer, ServiceExt};

use super::answer::{Refusal, internal, too_large};
use crate::handlers::extract::HONEYPOT_FIELD;
use crate::handlers::state::AppState;
use crate::papers::files::{UPLOAD_TEMP_PREFIX, UPLOAD_TEMP_SUFFIX};
use crate::submissions::fields::TextPart;
use crate::submissions::submit::Upload;

/// Room for the text fields and the multipart framing on top of `UPLOAD_MAX_BYTES`, in
/// bytes: the whole request may be this much larger than the largest paper.
pub const FIELDS_MARGIN_BYTES: u64 = 256 * 1024;

/// Most bytes kept of one text part; longer values are refused as too long (every field's
/// own limit, in characters, is far below this).
const TEXT_PART_MAX_BYTES: usize = 64 * 1024;

/// Most parts one request may carry: the form has 15, a client adding a few is harmless.
const MAX_PARTS: usize = 40;

/// Everything the request carried.
#[derive(Default)]
pub(super) struct Form {
    pub(super) texts: BTreeMap<String, TextPart>,
    pub(super) file: Option<Upload>,
    pub(super) extra_files: usize,
}

impl Form {
    pub(super) fn honeypot_filled(&self) -> bool {
        self.texts.get(HONEYPOT_FIELD).and_then(|t| t.value.as_deref()).is_some_and(|v| !v.trim().is_empty())
    }
}

/// Reads the whole request: 415 when it is not multipart, 413 beyond the limits, 400 when
/// it cannot be read or has too many parts.
pub(super) async fn read_form(state: &AppState, request: Request) -> Result<Form, Refusal> {
    let max_file = state.config.upload_max_bytes;
    let max_request = max_file.saturating_add(FIELDS_MARGIN_BYTES);
    // A declared length already over the limit is refused before reading a byte.
    let declared =
        request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > max_request) {
        return Err(too_large(max_file));
    }
    let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !content_type.trim_start().to_ascii_lowercase().starts_with("multipart/form-data") {
        return Err(Refusal::Unsupported {
            message: "Send the submission as multipart/form-data, with the paper in a part named file".into(),
            file: false,
        });
    }
    let mut multipart = limited_multipart(request, max_request).await?;

    // Beside the papers, so the final rename stays within one folder (atomic, one fsync).
    let tmp_dir = state.config.data_dir.join(crate::papers::files::PAPERS_DIR);
    tokio::fs::create_dir_all(&tmp_dir).await.map_err(|e| internal("creating DATA_DIR/papers", e))?;

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
    if crate::handlers::extract::is_body_timeout(&err) {
        return Refusal::Timeout;
    }
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
        .prefix(UPLOAD_TEMP_PREFIX)
        .suffix(UPLOAD_TEMP_SUFFIX)
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
