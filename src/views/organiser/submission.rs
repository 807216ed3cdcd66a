//! One submission of the back office (`crate::handlers::organiser::submission`): its fields in
//! groups, its reviews and discussion, and the form that stages its decision
//! ([`SubmissionPage`]).

use crate::clock::zone::Zone;
use crate::decisions::reviews;
use crate::decisions::states::{self as decisions, Decision};
use crate::forms::paper_form;
use crate::repo::submissions::Submission;
use crate::views::organiser::detail::{ActionForm, DetailPage, Field, Group};
use crate::views::organiser::shared::{self as view, Cell, Moment};
use crate::views::organiser::submissions::href;

/// One review as a submission's page shows it: the domain's, with its state in words.
pub struct ShownReview {
    pub review: reviews::Review,
    /// `Submitted 21 Mar 2025, 09:00 PST` or `Draft, not submitted (last saved ...)`, as HTML
    /// (its time in a `<time datetime>`).
    pub state: String,
}

impl std::ops::Deref for ShownReview {
    type Target = reviews::Review;

    fn deref(&self) -> &reviews::Review {
        &self.review
    }
}

/// A submission's reviews and discussion (issue 32 item 8), times in the event's zone.
pub struct Reviewing {
    pub summary: String,
    pub below: bool,
    pub reviews: Vec<ShownReview>,
    /// (who, when, what), oldest first.
    pub discussion: Vec<(String, Moment, String)>,
}

/// A submission's page: its fields, then its reviews and discussion, then its forms.
#[derive(askama::Template)]
#[template(path = "organiser/submission.html")]
pub struct SubmissionPage {
    pub detail: DetailPage,
    pub reviewing: Reviewing,
    /// What was just saved, on top.
    pub notice: Option<String>,
}

impl std::ops::Deref for SubmissionPage {
    type Target = DetailPage;

    fn deref(&self) -> &DetailPage {
        &self.detail
    }
}

/// The form that stages a decision on one submission, drawn from its current version.
pub fn decision_form(s: &Submission) -> ActionForm {
    ActionForm {
        heading: "Pending decision",
        action: format!("{}/decision", href(&s.submitted.reference)),
        fields: vec![
            Field::hidden("version", s.version.to_string()),
            Field::select(
                "decision",
                "Decision",
                s.pending_decision.clone().unwrap_or_else(|| "none".into()),
                &[("none", "None"), ("accepted", "Accept"), ("rejected", "Reject")],
            ),
            Field::textarea("note", "Note for the author's mail (optional)", s.decision_note.clone()),
        ],
        button: "Save the pending decision",
    }
}

/// Submission `s`'s fields in groups (paper, authors, decision, file), times in `zone`; the
/// spec's `name`, which the form never asks for, only when the paper has one.
pub fn groups(s: &Submission, zone: &Zone) -> Vec<Group> {
    let n = &s.submitted;
    let text = |value: &str| Cell::text(value);
    vec![
        Group {
            heading: "Paper",
            fields: vec![
                ("Reference", text(&n.reference)),
                ("Title", text(&n.paper_title)),
                ("Paper type", text(&n.paper_type)),
                ("Presentation", text(&n.presentation_type)),
                ("Received", Cell::time(&s.created, zone)),
                ("Message", text(&n.message)),
                (
                    "Heard of us through",
                    text(
                        paper_form::CONFERENCE_SOURCES
                            .iter()
                            .find(|(value, _)| *value == n.conference_source)
                            .map_or(n.conference_source.as_str(), |(_, label)| label),
                    ),
                ),
            ],
        },
        Group {
            heading: "Authors",
            fields: [
                ("Author", text(&n.author_name)),
                ("Co-authors", text(&n.co_author_name)),
                // The spec's `name` has no input on the form: shown only when a paper has one.
                ("Name", text(&n.name)),
                ("E-mail", Cell::link(n.email.clone(), format!("mailto:{}", n.email))),
                ("Phone", text(&n.number)),
                ("Country", text(&n.country)),
                ("Department", text(&n.department)),
                ("University or organisation", text(&n.university_organization)),
            ]
            .into_iter()
            .filter(|(label, value)| *label != "Name" || !value.text.trim().is_empty())
            .collect(),
        },
        Group {
            heading: "Decision",
            fields: vec![
                ("State", text(decisions::state_label(&s.state))),
                (
                    "Pending decision",
                    text(s.pending_decision.as_deref().and_then(Decision::parse).map_or("None", Decision::verb)),
                ),
                ("Note for the author's mail", text(&s.decision_note)),
                ("Decision applied", Cell::time_or(s.decided_at.as_deref(), zone, "Not yet")),
                ("Version", text(&s.version.to_string())),
            ],
        },
        Group {
            heading: "File",
            fields: vec![
                ("Uploaded as", text(&n.file_name)),
                ("Type", text(&n.file_type)),
                ("Size", text(&paper_form::human_size(n.file_size))),
                ("Stored as", text(&n.file_path)),
            ],
        },
    ]
}

impl Reviewing {
    /// A submission's reviews and discussion as the domain `read` them, times in `zone`.
    pub fn of(read: reviews::Reviewing, zone: &Zone) -> Reviewing {
        let reviews = read
            .reviews
            .into_iter()
            .map(|review| {
                let state = match &review.submitted_at {
                    Some(at) => format!("Submitted {}", view::when(at, zone)),
                    None => format!("Draft, not submitted (last saved {})", view::when(&review.updated, zone)),
                };
                ShownReview { review, state }
            })
            .collect();
        let discussion =
            read.discussion.into_iter().map(|(who, at, body)| (who, view::when(&at, zone), body)).collect();
        Reviewing { summary: read.summary, below: read.below, reviews, discussion }
    }
}
