//! POST `/api/paper-submission` (DESIGN.md section 5): one `multipart/form-data` request with
//! the spec's submission fields (spec section 3) and one part `file`, the paper.
//!
//! The paper is streamed to a temporary file in `DATA_DIR/papers` (never held whole in
//! memory), counted against `UPLOAD_MAX_BYTES` as it arrives (413), checked by its content as
//! PDF, DOC or DOCX (415), and the fields are checked in the spec's order (section 5: the
//! file, then the paper type, then the required fields; 422). Then the file (flushed and fsynced) is renamed to
//! `DATA_DIR/papers/<reference>.<ext>` and the row and both mails (the author's
//! acknowledgement, the organisers' notice with the paper attached) are written in one
//! transaction; if that fails the moved file is removed again, so nothing is half stored.
//! Papers are never served: no route reads `DATA_DIR`.
//!
//! Submodules and domain modules, in the order a paper goes through them: [`upload`] reads
//! the request, `crate::papers::filetype` recognises the paper, `crate::submissions::fields`
//! checks the text fields, and `crate::submissions::submit` keeps the paper, its row and its mails;
//! [`answer`] says how it went.

pub mod answer;
pub mod upload;

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};

use crate::error::AppError;
use crate::handlers::state::AppState;
use crate::submissions::{fields, submit};

pub use crate::forms::paper_form::human_size;
pub use answer::{Created, MISSING_FILE};
use answer::{Refusal, internal};

/// Fragment of `/submission` that confirms a submission posted without JavaScript.
pub const SENT_FRAGMENT: &str = "paper-sent";
/// Fragment of `/submission` that reports a refused submission posted without JavaScript.
pub const ERROR_FRAGMENT: &str = "paper-error";

/// The handler: 201 `{"id","reference"}`, or a refusal (409 once `paper_due_date` has
/// passed). A plain HTML form post (a browser
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
            if let Refusal::Internal(err @ AppError::Internal { .. }) = &refusal {
                tracing::error!(error = %err, "paper submission failed");
            }
            Redirect::to(&format!("/submission#{ERROR_FRAGMENT}")).into_response()
        }
        (false, Ok(created)) => (StatusCode::CREATED, Json(created)).into_response(),
        (false, Err(refusal)) => refusal.into_response(),
    }
}

async fn receive_and_store(state: &AppState, request: Request) -> Result<Created, Refusal> {
    // Closed by the calendar (DESIGN.md section 20): refused before a byte of the paper is
    // read, so nothing is stored, not even a temporary file.
    submit::open(&state.pool, state.clock.now()).await?;
    let form = upload::read_form(state, request).await?;

    if form.honeypot_filled() {
        // A bot: answer as if stored, keep nothing (the temporary file goes with `form`).
        tracing::info!("paper submission with the honeypot filled discarded");
        return Ok(Created { id: rand::random_range(1..100_000), reference: crate::papers::files::new_reference() });
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
    let fields = fields::check_fields(&form.texts);
    match (file, fields) {
        (None, fields) => {
            errors.extend(fields.err().unwrap_or_default());
            Err(Refusal::Invalid(errors))
        }
        (Some(file), fields) => {
            // The file comes first (DESIGN.md section 5: the file is checked, then stored):
            // a paper of the wrong type is refused whatever the fields say.
            let path = file.temp.path().to_path_buf();
            let kind = tokio::task::spawn_blocking(move || crate::papers::filetype::detect_path(&path))
                .await
                .map_err(|e| internal("paper type check", e))?
                .map_err(|e| internal("paper type check", e))?
                .ok_or_else(|| Refusal::Unsupported {
                    message: "The paper must be a PDF, DOC or DOCX file".into(),
                    file: true,
                })?;
            let fields = fields.map_err(Refusal::Invalid)?;
            let file = form.file.expect("checked above");
            let submitted = submit::submit(&state.pool, &state.config, state.clock.now(), fields, file, kind).await?;
            Ok(Created { id: submitted.id, reference: submitted.reference })
        }
    }
}
