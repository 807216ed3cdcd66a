//! One submission of the back office (`crate::handlers::organiser::submission`): its fields in
//! groups ([`groups`]) and the form that stages its decision ([`decision_form`]). The page
//! itself, which holds the domain's reviews, stays with its handler.

use crate::clock::zone::Zone;
use crate::forms::paper_form;
use crate::repo::submissions::{Submission, state_label};
use crate::views::organiser::detail::{ActionForm, Field, Group};
use crate::views::organiser::shared::Cell;
use crate::views::organiser::submissions::href;

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

/// Submission `s`'s fields in groups (paper, authors, decision, file), `pending` its pending
/// decision in words ("Accept", or "None"), times in `zone`; the spec's `name`, which the
/// form never asks for, only when the paper has one.
pub fn groups(s: &Submission, pending: &str, zone: &Zone) -> Vec<Group> {
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
                ("State", text(state_label(&s.state))),
                ("Pending decision", text(pending)),
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
