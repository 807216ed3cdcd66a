//! What the camera-ready step shows (issue 44 item 1, DESIGN.md section 18): each part as
//! handed in, the forms while the step is open (what the author typed comes back with a
//! refusal, so nothing typed is lost), and an error summary whose links lead to each field.

use std::collections::BTreeMap;

use crate::clock::zone::Zone;
use crate::proceedings::camera_ready::Step;
use crate::proceedings::details::{AuthorForm, DetailsForm, MAX_AUTHORS, MAX_KEYWORDS};
use crate::proceedings::format_check::FormatRules;
use crate::proceedings::licence::{LICENCE, Licence};
use crate::repo::submissions::Submission;
use crate::views::organiser::shared::when;

/// The step as the page draws it.
pub struct CameraReadyView {
    pub reference: String,
    /// The status page's path (the way back) and the step's own.
    pub status_path: String,
    pub path: String,
    /// Why no change is taken now; the forms are left out.
    pub closed: Option<String>,
    pub due: Option<String>,
    pub complete: bool,
    /// The licence was signed by someone no longer the corresponding author.
    pub licence_stale: bool,
    /// The file as accepted: `paper.pdf, 8 pages, 120,345 bytes, handed in 2025-03-01T...`.
    pub pdf: Option<String>,
    pub rules: String,
    pub details_at: Option<String>,
    /// The licence's acceptance: who signed it, when, which text.
    pub licence_signed: Option<String>,
    pub licence: Licence,
    pub form: FormRows,
    /// The error summary's message and each problem with the id of the field it concerns.
    pub problem: Option<String>,
    pub problems: Vec<(String, String)>,
    pub errors: BTreeMap<String, String>,
    pub signature: String,
}

/// The details form's rows: always [`MAX_KEYWORDS`] keyword fields and two empty author rows
/// after the last one filled.
pub struct FormRows {
    pub title: String,
    pub abstract_text: String,
    pub keywords: Vec<(usize, String)>,
    pub authors: Vec<(usize, AuthorForm)>,
    /// The row of the corresponding author, when one is chosen.
    pub corresponding: Option<usize>,
}

/// The field a problem's key concerns, as its element id.
fn field_id(key: &str) -> String {
    match key {
        "title" | "abstract" | "signature" => key.to_owned(),
        "keywords" => "keyword-1".to_owned(),
        "corresponding" => "corresponding-1".to_owned(),
        "authors" => "author-1-name".to_owned(),
        k if k.starts_with("author-") => k.to_owned(),
        // The format check's rules and an empty file: the file field.
        _ => "pdf".to_owned(),
    }
}

impl FormRows {
    /// The form as posted, or as stored, or prefilled from the submission.
    fn of(s: &Submission, step: &Step, posted: Option<DetailsForm>) -> FormRows {
        let form = posted.unwrap_or_else(|| match &step.details {
            Some(d) => DetailsForm {
                title: d.title.clone(),
                abstract_text: d.abstract_text.clone(),
                keywords: d.keywords.clone(),
                corresponding: d
                    .authors
                    .iter()
                    .position(|a| a.corresponding)
                    .map(|i| (i + 1).to_string())
                    .into_iter()
                    .collect(),
                authors: d
                    .authors
                    .iter()
                    .map(|a| AuthorForm {
                        name: a.name.clone(),
                        affiliation: a.affiliation.clone(),
                        email: a.email.clone(),
                        orcid: a.orcid.clone().unwrap_or_default(),
                    })
                    .collect(),
            },
            None => prefilled(s),
        });
        let filled = form.authors.iter().rposition(|a| a != &AuthorForm::default()).map_or(0, |i| i + 1);
        let rows = (filled + 2).clamp(3, MAX_AUTHORS);
        let mut authors = form.authors;
        authors.resize(rows.max(authors.len()).min(MAX_AUTHORS), AuthorForm::default());
        let mut keywords = form.keywords;
        keywords.resize(keywords.len().max(MAX_KEYWORDS), String::new());
        FormRows {
            title: form.title,
            abstract_text: form.abstract_text,
            keywords: (1..).zip(keywords).collect(),
            authors: (1..).zip(authors).collect(),
            corresponding: match form.corresponding.as_slice() {
                [one] => one.trim().parse().ok(),
                _ => None,
            },
        }
    }
}

/// The submission's own title and authors, the submitting author first and corresponding.
fn prefilled(s: &Submission) -> DetailsForm {
    let paper = &s.submitted;
    let mut authors = vec![AuthorForm {
        name: paper.author_name.clone(),
        affiliation: paper.university_organization.clone(),
        email: paper.email.clone(),
        orcid: String::new(),
    }];
    authors.extend(
        paper
            .co_author_name
            .split([',', ';'])
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(|name| AuthorForm { name: name.to_owned(), ..AuthorForm::default() }),
    );
    DetailsForm { title: paper.paper_title.clone(), authors, corresponding: vec!["1".into()], ..DetailsForm::default() }
}

/// What a refusal adds to the page: its message, the field errors, what was typed.
#[derive(Default)]
pub struct Refusal {
    pub message: Option<String>,
    pub errors: BTreeMap<String, String>,
    pub posted: Option<DetailsForm>,
    pub signature: String,
}

impl CameraReadyView {
    /// The page of `s`'s `step`, under the status page `status_path`; stored times are shown
    /// in the event's `zone`, as everywhere on the site.
    pub fn of(
        s: &Submission,
        step: &Step,
        status_path: &str,
        rules: &FormatRules,
        refusal: Refusal,
        zone: &Zone,
    ) -> CameraReadyView {
        let stored = step.stored.as_ref();
        let at = |stamp: &str| when(stamp, zone).text;
        let pdf = stored.and_then(|r| {
            Some(format!(
                "{}, {} pages, {} bytes, handed in {}",
                r.pdf_name.as_deref().unwrap_or("paper.pdf"),
                r.pdf_pages?,
                r.pdf_bytes?,
                at(r.pdf_at.as_deref()?)
            ))
        });
        let licence_signed = stored.and_then(|r| {
            Some(format!(
                "Accepted by {} on {} ({})",
                r.licence_signed.as_deref()?,
                at(r.licence_at.as_deref()?),
                r.licence_version.as_deref()?
            ))
        });
        let problems = refusal.errors.iter().map(|(key, text)| (field_id(key), text.clone())).collect();
        CameraReadyView {
            reference: s.submitted.reference.clone(),
            status_path: status_path.to_owned(),
            path: format!("{status_path}/camera-ready"),
            closed: step.closed.clone(),
            due: step.due.clone(),
            complete: step.complete,
            licence_stale: step.licence_stale,
            pdf,
            rules: format!(
                "{} paper ({} mm slack), {} to {} pages, at most {} bytes, every font embedded, text on every page \
                 (no scans), no encryption or JavaScript.",
                rules.paper.name, rules.tolerance_mm, rules.min_pages, rules.max_pages, rules.max_bytes
            ),
            details_at: stored.and_then(|r| r.details_at.as_deref()).map(at),
            licence_signed,
            licence: LICENCE,
            form: FormRows::of(s, step, refusal.posted),
            problem: refusal.message,
            problems,
            errors: refusal.errors,
            signature: refusal.signature,
        }
    }

    /// The message of field `key`, for its inline error.
    pub fn error(&self, key: &str) -> Option<&str> {
        self.errors.get(key).map(String::as_str)
    }

    /// The message of author row `row`'s `field`.
    pub fn author_error(&self, row: &usize, field: &str) -> Option<&str> {
        self.error(&format!("author-{row}-{field}"))
    }

    /// Whether author row `row` is the corresponding author's.
    pub fn is_corresponding(&self, row: &usize) -> bool {
        self.form.corresponding == Some(*row)
    }

    /// The PDF's problems (the format check's rules), for the file field.
    pub fn pdf_errors(&self) -> Vec<&str> {
        self.errors.iter().filter(|(k, _)| field_id(k) == "pdf").map(|(_, v)| v.as_str()).collect()
    }
}
