//! CSV of contact messages, newsletter subscribers and paper submissions (written with the
//! forms feature).

use std::borrow::Cow;
use std::io::Write;

use crate::db::Pool;
use crate::repo::submissions::{self, Submission};
use crate::repo::{messages, subscribers};

/// Contact messages, oldest first: `id,created,name,number,email,country,message` (the
/// spec's field names, section 3).
pub async fn write_messages<W: Write>(pool: &Pool, out: &mut csv::Writer<W>) -> Result<(), Box<dyn std::error::Error>> {
    out.write_record(["id", "created", "name", "number", "email", "country", "message"])?;
    for m in messages::all(pool).await? {
        // `number` is checked to hold only digits, spaces and `+-.()`, so it is written as is.
        let [name, email, country, message] = [&m.name, &m.email, &m.country, &m.message].map(|v| spreadsheet_safe(v));
        out.write_record([m.id.as_str(), &m.created, &name, &m.number, &email, &country, &message])?;
    }
    Ok(())
}

/// Newsletter subscribers, oldest first: `id,created,email`.
pub async fn write_subscribers<W: Write>(
    pool: &Pool,
    out: &mut csv::Writer<W>,
) -> Result<(), Box<dyn std::error::Error>> {
    out.write_record(["id", "created", "email"])?;
    for s in subscribers::all(pool).await? {
        out.write_record([s.id.as_str(), &s.created, &spreadsheet_safe(&s.email)])?;
    }
    Ok(())
}

/// A visitor's text as a CSV cell that a spreadsheet shows as text: a leading `=`, `+`, `-`,
/// `@`, tab or carriage return would make Excel or LibreOffice run it as a formula (OWASP,
/// "CSV Injection"), so such a value gets a leading `'`.
pub fn spreadsheet_safe(value: &str) -> Cow<'_, str> {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{value}"))
    } else {
        Cow::Borrowed(value)
    }
}

/// One column of the submissions export: its header and the cell of a row.
type Column = (&'static str, fn(&Submission) -> Cow<'_, str>);

/// The submissions export, column by column. `number` is checked like the contact form's;
/// reference, options, path and type are the server's own values. Everything else a visitor
/// typed is made spreadsheet-safe.
const SUBMISSION_COLUMNS: [Column; 20] = [
    ("id", |s| s.id.to_string().into()),
    ("reference", |s| s.submitted.reference.as_str().into()),
    ("created", |s| s.created.as_str().into()),
    ("name", |s| spreadsheet_safe(&s.submitted.name)),
    ("number", |s| s.submitted.number.as_str().into()),
    ("email", |s| spreadsheet_safe(&s.submitted.email)),
    ("country", |s| spreadsheet_safe(&s.submitted.country)),
    ("authorName", |s| spreadsheet_safe(&s.submitted.author_name)),
    ("coAuthorName", |s| spreadsheet_safe(&s.submitted.co_author_name)),
    ("paperTitle", |s| spreadsheet_safe(&s.submitted.paper_title)),
    ("department", |s| spreadsheet_safe(&s.submitted.department)),
    ("universityOrganization", |s| spreadsheet_safe(&s.submitted.university_organization)),
    ("paperType", |s| s.submitted.paper_type.as_str().into()),
    ("presentationType", |s| s.submitted.presentation_type.as_str().into()),
    ("message", |s| spreadsheet_safe(&s.submitted.message)),
    ("conferenceSource", |s| s.submitted.conference_source.as_str().into()),
    ("filePath", |s| s.submitted.file_path.as_str().into()),
    ("fileName", |s| spreadsheet_safe(&s.submitted.file_name)),
    ("fileType", |s| s.submitted.file_type.as_str().into()),
    ("fileSize", |s| s.submitted.file_size.to_string().into()),
];

/// Paper submissions, oldest first: `id,reference,created`, the spec's submission fields
/// (section 3), then the stored paper: `filePath` (the spec's `pdfUrl`, relative to
/// `DATA_DIR`), `fileName` (as uploaded), `fileType` and `fileSize` (bytes).
pub async fn write_submissions<W: Write>(
    pool: &Pool,
    out: &mut csv::Writer<W>,
) -> Result<(), Box<dyn std::error::Error>> {
    out.write_record(SUBMISSION_COLUMNS.map(|(header, _)| header))?;
    for s in submissions::all(pool).await? {
        let row = SUBMISSION_COLUMNS.map(|(_, cell)| cell(&s));
        out.write_record(row.iter().map(|cell| cell.as_bytes()))?;
    }
    Ok(())
}
