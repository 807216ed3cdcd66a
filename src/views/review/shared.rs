//! What the reviewers' pages show, built from stored rows: a review read from its own copy
//! of the questions it answered (never from today's form), the review form's choices, the
//! discussion's messages and times in the event's zone.

use std::collections::BTreeMap;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::clock::dates::{clock, day_label};
use crate::clock::zone::Zone;
use crate::repo::reviews::{Comment, Review};
use crate::review::form::{self, Answer, CONFIDENCE, FieldErrors, Form, Recommendation, Sent, score_field};

/// Where the reviewers' pages of one paper live; `code` is its review code.
pub fn paper_href(code: &str) -> String {
    format!("/review/papers/{}", url::form_urlencoded::byte_serialize(code.as_bytes()).collect::<String>())
}

/// A review's state as the reviewer's list says it: "To do" before anything was saved.
pub fn state_label(state: Option<&str>) -> &'static str {
    match state {
        None => "To do",
        Some("submitted") => "Submitted",
        Some(_) => "Draft",
    }
}

/// A stored RFC 3339 time in the event's zone: `Monday, 3 March 2025, 17:30 Singapore time`;
/// the stored text itself when it does not parse.
pub fn local_time(stamp: &str, zone: &Zone) -> String {
    match OffsetDateTime::parse(stamp, &Rfc3339) {
        Ok(at) => {
            let local = at.to_offset(zone.offset_at(at));
            format!("{}, {} {} time", day_label(local.date()), clock(local.time()), zone.city())
        }
        Err(_) => stamp.to_owned(),
    }
}

/// One answer of a review as its copy has it: `3 of 4: Steady`.
#[derive(Debug, Clone)]
pub struct AnswerView {
    pub label: String,
    pub weight: i64,
    pub score: String,
}

impl AnswerView {
    fn of(answer: &Answer) -> AnswerView {
        let score = if answer.out_of > 0 {
            format!("{} of {}: {}", answer.score, answer.out_of, answer.score_label)
        } else {
            format!("{}: {}", answer.score, answer.score_label)
        };
        AnswerView { label: answer.label.clone(), weight: answer.weight, score }
    }
}

/// A review as a page shows it, from its stored copy.
#[derive(Debug, Clone)]
pub struct ReviewView {
    /// "Your review" or "Reviewer 2".
    pub heading: String,
    /// The `id` of its heading.
    pub anchor: String,
    pub state: &'static str,
    /// When it was last saved, in the event's zone.
    pub updated: String,
    pub score: Option<String>,
    pub answers: Vec<AnswerView>,
    pub recommendation: Option<String>,
    pub confidence: Option<String>,
    pub comments_to_authors: String,
    pub confidential_comments: String,
}

impl ReviewView {
    pub fn of(heading: String, anchor: String, review: &Review, zone: &Zone) -> ReviewView {
        ReviewView {
            heading,
            anchor,
            state: state_label(Some(&review.state)),
            updated: local_time(&review.updated, zone),
            score: review.score.map(form::points),
            answers: form::answers_of(&review.answers).iter().map(AnswerView::of).collect(),
            recommendation: review.recommendation.as_deref().map(|r| form::recommendation_label(r).to_owned()),
            confidence: review
                .confidence
                .map(|c| form::confidence_label(c).map_or_else(|| c.to_string(), str::to_owned)),
            comments_to_authors: review.comments_to_authors.clone(),
            confidential_comments: review.confidential_comments.clone(),
        }
    }
}

/// One choice of a radio group.
#[derive(Debug, Clone)]
pub struct Choice {
    pub id: String,
    pub value: String,
    pub label: String,
    pub checked: bool,
}

/// One criterion's radio group.
#[derive(Debug, Clone)]
pub struct CriterionView {
    pub field: String,
    pub label: String,
    pub description: String,
    pub weight: i64,
    pub choices: Vec<Choice>,
    pub error: Option<String>,
}

/// The review form as drawn: the criteria of today's form, checked as `sent` says.
#[derive(Debug, Clone)]
pub struct ReviewForm {
    pub action: String,
    pub version: String,
    pub criteria: Vec<CriterionView>,
    pub recommendations: Vec<Choice>,
    pub recommendation_error: Option<String>,
    pub confidences: Vec<Choice>,
    pub confidence_error: Option<String>,
    pub comments_to_authors: String,
    pub comments_to_authors_error: Option<String>,
    pub confidential_comments: String,
    pub confidential_comments_error: Option<String>,
    /// A submitted review is only submitted again ("Save draft" would take it back).
    pub submitted: bool,
    /// The errors, in the form's order, with the id each points at.
    pub errors: Vec<(String, String)>,
}

impl ReviewForm {
    pub fn new(
        action: String,
        version: String,
        form: &Form,
        sent: &Sent,
        errors: &FieldErrors,
        submitted: bool,
    ) -> Self {
        let mut listed = Vec::new();
        let criteria: Vec<CriterionView> = form
            .criteria
            .iter()
            .map(|criterion| {
                let field = score_field(&criterion.key);
                let chosen = sent.scores.get(&criterion.key).map(|v| v.trim());
                let choices = criterion
                    .scale
                    .iter()
                    .enumerate()
                    .map(|(at, label)| {
                        let value = (at + 1).to_string();
                        Choice {
                            id: format!("{field}-{value}"),
                            checked: chosen == Some(value.as_str()),
                            label: format!("{value}: {label}"),
                            value,
                        }
                    })
                    .collect();
                let error = errors.get(&field).cloned();
                if let Some(error) = &error {
                    listed.push((format!("{field}-1"), error.clone()));
                }
                CriterionView {
                    field,
                    label: criterion.label.clone(),
                    description: criterion.description.clone(),
                    weight: criterion.weight,
                    choices,
                    error,
                }
            })
            .collect();
        let recommendations = Recommendation::ALL
            .iter()
            .map(|r| Choice {
                id: format!("recommendation-{}", r.as_str()),
                value: r.as_str().to_owned(),
                label: r.label().to_owned(),
                checked: sent.recommendation.trim() == r.as_str(),
            })
            .collect();
        let confidences = CONFIDENCE
            .iter()
            .map(|(level, label)| Choice {
                id: format!("confidence-{level}"),
                value: level.to_string(),
                label: (*label).to_owned(),
                checked: sent.confidence.trim() == level.to_string(),
            })
            .collect();
        let error = |name: &str, anchor: &str, listed: &mut Vec<(String, String)>| {
            let error = errors.get(name).cloned();
            if let Some(error) = &error {
                listed.push((anchor.to_owned(), error.clone()));
            }
            error
        };
        let recommendation_error = error("recommendation", "recommendation-strong_accept", &mut listed);
        let confidence_error = error("confidence", "confidence-1", &mut listed);
        let comments_to_authors_error = error("comments_to_authors", "comments-to-authors", &mut listed);
        let confidential_comments_error = error("confidential_comments", "confidential-comments", &mut listed);
        ReviewForm {
            action,
            version,
            criteria,
            recommendations,
            recommendation_error,
            confidences,
            confidence_error,
            comments_to_authors: sent.comments_to_authors.clone(),
            comments_to_authors_error,
            confidential_comments: sent.confidential_comments.clone(),
            confidential_comments_error,
            submitted,
            errors: listed,
        }
    }
}

/// A message of the discussion: who ("Reviewer 2", "Reviewer 1 (you)", "Organisers"), when,
/// and what.
#[derive(Debug, Clone)]
pub struct CommentView {
    pub who: String,
    pub at: String,
    pub body: String,
}

impl CommentView {
    pub fn of(comment: &Comment, me: i64, zone: &Zone) -> CommentView {
        let who = match (comment.reviewer_id, comment.number) {
            (None, _) => "Organisers".to_owned(),
            (Some(id), Some(number)) if id == me => format!("Reviewer {number} (you)"),
            (Some(_), Some(number)) => format!("Reviewer {number}"),
            (Some(_), None) => "A reviewer".to_owned(),
        };
        CommentView { who, at: local_time(&comment.created, zone), body: comment.body.clone() }
    }
}

/// The notice a page shows after a redirect's `done`.
pub fn done_notice(done: Option<&str>) -> Option<&'static str> {
    Some(match done? {
        "draft" => "Your draft is saved. You can come back to it until the deadline.",
        "submitted" => "Your review is submitted. Thank you! You can still change it until the deadline.",
        "edited" => "Your changes to the submitted review are saved.",
        "comment" => "Your message is posted to the discussion.",
        "conflict" => {
            "Your conflict is recorded and the paper is no longer yours to review. The organisers will ask someone else."
        }
        _ => return None,
    })
}

/// `sent`'s fields from a posted form: each `score-<key>` by key.
pub fn scores_of(fields: &[(String, String)]) -> BTreeMap<String, String> {
    fields
        .iter()
        .filter_map(|(name, value)| name.strip_prefix("score-").map(|key| (key.to_owned(), value.clone())))
        .collect()
}
