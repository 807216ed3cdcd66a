//! CSV of contact messages, newsletter subscribers and paper submissions (written with the
//! forms feature).

use std::borrow::Cow;
use std::io::Write;

use super::csv::SafeWriter;
use crate::db::Pool;
use crate::repo::messages::{self, Message};
use crate::repo::submissions::{self, Submission};
use crate::repo::subscribers::{self, Subscriber};
use crate::review::figures;

/// Contact messages, oldest first: `id,created,name,number,email,country,message` (the
/// spec's field names, section 3).
pub async fn write_messages<W: Write>(pool: &Pool, out: &mut SafeWriter<W>) -> Result<(), Box<dyn std::error::Error>> {
    out.write_record(MESSAGE_HEADER)?;
    for m in messages::all(pool).await? {
        write_message(out, &m)?;
    }
    Ok(())
}

/// The header of the messages export.
pub const MESSAGE_HEADER: [&str; 7] = ["id", "created", "name", "number", "email", "country", "message"];

/// One message's row (the organisers' CSV of a filtered list writes the same rows).
pub fn write_message<W: Write>(out: &mut SafeWriter<W>, m: &Message) -> csv::Result<()> {
    out.write_record([&m.id, &m.created, &m.name, &m.number, &m.email, &m.country, &m.message])
}

/// Newsletter subscribers, oldest first: `id,created,email,status,confirmed` (`status` is
/// `pending`, `subscribed` or `unsubscribed`; `confirmed` when the link was opened).
pub async fn write_subscribers<W: Write>(
    pool: &Pool,
    out: &mut SafeWriter<W>,
) -> Result<(), Box<dyn std::error::Error>> {
    out.write_record(SUBSCRIBER_HEADER)?;
    for s in subscribers::all(pool).await? {
        write_subscriber(out, &s)?;
    }
    Ok(())
}

/// The header of the subscribers export.
pub const SUBSCRIBER_HEADER: [&str; 5] = ["id", "created", "email", "status", "confirmed"];

/// One subscriber's row.
pub fn write_subscriber<W: Write>(out: &mut SafeWriter<W>, s: &Subscriber) -> csv::Result<()> {
    out.write_record([&s.id, &s.created, &s.email, &s.status, s.confirmed.as_deref().unwrap_or("")])
}

/// How many columns the submissions export has.
pub const SUBMISSION_COLUMN_COUNT: usize = 27;

/// One column of the submissions export: its header and the cell of a row.
type Column = (&'static str, fn(&Submission) -> Cow<'_, str>);

/// The submissions export, column by column (every cell is made spreadsheet-safe by
/// [`SafeWriter`]).
const SUBMISSION_COLUMNS: [Column; SUBMISSION_COLUMN_COUNT] = [
    ("id", |s| s.id.to_string().into()),
    ("reference", |s| s.submitted.reference.as_str().into()),
    ("created", |s| s.created.as_str().into()),
    ("name", |s| s.submitted.name.as_str().into()),
    ("number", |s| s.submitted.number.as_str().into()),
    ("email", |s| s.submitted.email.as_str().into()),
    ("country", |s| s.submitted.country.as_str().into()),
    ("authorName", |s| s.submitted.author_name.as_str().into()),
    ("coAuthorName", |s| s.submitted.co_author_name.as_str().into()),
    ("paperTitle", |s| s.submitted.paper_title.as_str().into()),
    ("department", |s| s.submitted.department.as_str().into()),
    ("universityOrganization", |s| s.submitted.university_organization.as_str().into()),
    ("paperType", |s| s.submitted.paper_type.as_str().into()),
    ("presentationType", |s| s.submitted.presentation_type.as_str().into()),
    ("message", |s| s.submitted.message.as_str().into()),
    ("conferenceSource", |s| s.submitted.conference_source.as_str().into()),
    ("filePath", |s| s.submitted.file_path.as_str().into()),
    ("fileName", |s| s.submitted.file_name.as_str().into()),
    ("fileType", |s| s.submitted.file_type.as_str().into()),
    ("fileSize", |s| s.submitted.file_size.to_string().into()),
    // Issue 21: the state and when the latest decision was applied (empty before one).
    ("state", |s| s.state.as_str().into()),
    ("decidedAt", |s| s.decided_at.as_deref().unwrap_or("").into()),
    // Issue 32: the submitted reviews' figures (empty without a review): how many, the mean
    // weighted score and the spread with two decimals, whether the reviewers disagree (a
    // spread of 2 points or more), and the recommendations counted.
    ("reviews", |s| s.review.reviews_submitted.to_string().into()),
    ("score", |s| figures::score(s.review.review_score).into()),
    ("spread", |s| figures::score(s.review.review_spread).into()),
    ("disagreement", |s| {
        if s.review.review_spread.is_some_and(|v| v >= figures::DISAGREEMENT) { "yes" } else { "" }.into()
    }),
    ("recommendations", |s| figures::recommendation_counts(&s.review.recommendations).into()),
];

/// Paper submissions, oldest first: `id,reference,created`, the spec's submission fields
/// (section 3), then the stored paper: `filePath` (the spec's `pdfUrl`, relative to
/// `DATA_DIR`), `fileName` (as uploaded), `fileType` and `fileSize` (bytes), then `state`
/// and `decidedAt` (issue 21), then `reviews`, `score`, `spread`, `disagreement` and
/// `recommendations` (issue 32).
pub async fn write_submissions<W: Write>(
    pool: &Pool,
    out: &mut SafeWriter<W>,
) -> Result<(), Box<dyn std::error::Error>> {
    out.write_record(submission_header())?;
    for s in submissions::all(pool).await? {
        write_submission(out, &s)?;
    }
    Ok(())
}

/// The header of the submissions export.
pub fn submission_header() -> [&'static str; SUBMISSION_COLUMN_COUNT] {
    SUBMISSION_COLUMNS.map(|(header, _)| header)
}

/// One submission's row.
pub fn write_submission<W: Write>(out: &mut SafeWriter<W>, s: &Submission) -> csv::Result<()> {
    let row = SUBMISSION_COLUMNS.map(|(_, cell)| cell(s));
    out.write_record(row.iter())
}
