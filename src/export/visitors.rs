//! CSV of contact messages, newsletter subscribers and paper submissions (written with the
//! forms feature).

use std::io::Write;

use sqlx::SqlitePool;

use crate::repo::{messages, subscribers};

/// Contact messages, oldest first: `id,created,name,number,email,country,message` (the
/// spec's field names, section 3).
pub async fn write_messages<W: Write>(
    pool: &SqlitePool,
    out: &mut csv::Writer<W>,
) -> Result<(), Box<dyn std::error::Error>> {
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
    pool: &SqlitePool,
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
pub fn spreadsheet_safe(value: &str) -> std::borrow::Cow<'_, str> {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        std::borrow::Cow::Owned(format!("'{value}"))
    } else {
        std::borrow::Cow::Borrowed(value)
    }
}

/// Paper submissions, oldest first: `id,reference,created`, the spec's submission fields
/// (section 3), then the stored paper: `filePath` (the spec's `pdfUrl`, relative to
/// `DATA_DIR`), `fileName` (as uploaded), `fileType` and `fileSize` (bytes).
pub async fn write_submissions<W: Write>(
    pool: &SqlitePool,
    out: &mut csv::Writer<W>,
) -> Result<(), Box<dyn std::error::Error>> {
    out.write_record([
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
    ])?;
    for s in crate::repo::submissions::all(pool).await? {
        // `number` is checked like the contact form's; reference, options, path and type are
        // the server's own values. Everything else a visitor typed is made spreadsheet-safe.
        let typed = [
            &s.name,
            &s.email,
            &s.country,
            &s.author_name,
            &s.co_author_name,
            &s.paper_title,
            &s.department,
            &s.university_organization,
            &s.message,
            &s.file_name,
        ]
        .map(|v| spreadsheet_safe(v));
        let [name, email, country, author, co_author, title, department, organization, message, file_name] = typed;
        out.write_record([
            s.id.to_string().as_str(),
            &s.reference,
            &s.created,
            &name,
            &s.number,
            &email,
            &country,
            &author,
            &co_author,
            &title,
            &department,
            &organization,
            &s.paper_type,
            &s.presentation_type,
            &message,
            &s.conference_source,
            &s.file_path,
            &file_name,
            &s.file_type,
            &s.file_size.to_string(),
        ])?;
    }
    Ok(())
}
