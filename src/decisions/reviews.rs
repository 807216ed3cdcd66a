//! What organisers decide from (issue 32 item 8): one submission's reviews, drafts too, each
//! with its reviewer's name and its own answers, against the reviews a paper needs, and its
//! discussion. Read-only; the times stay as stored (RFC 3339 UTC) for the page to show in
//! the event's zone.

use crate::db::Pool;
use crate::error::Outcome;
use crate::repo::submissions::Submission;
use crate::repo::{review_records, reviewers};
use crate::review::figures;

/// One review as organisers read it.
#[derive(Debug, Clone)]
pub struct Review {
    /// `Reviewer 2: Ada Lovelace`, with ` (draft)` and ` (assignment withdrawn: not counted)`
    /// when so.
    pub heading: String,
    /// `Ada Lovelace (ada@example.org)`.
    pub reviewer: String,
    pub draft: bool,
    /// When it was submitted (`None` for a draft), and when last saved.
    pub submitted_at: Option<String>,
    pub updated: String,
    /// Each criterion as the review answered it: (label with weight, score with its label).
    pub answers: Vec<(String, String)>,
    /// `Not given` when empty, as the three that follow.
    pub score: String,
    pub recommendation: String,
    pub confidence: String,
    pub to_authors: String,
    pub confidential: String,
}

/// A submission's reviews and discussion ([`of`]).
#[derive(Debug, Clone)]
pub struct Reviewing {
    /// `2 of 2 reviews`, or `1 of 2 reviews: below the required 2`.
    pub summary: String,
    pub below: bool,
    pub reviews: Vec<Review>,
    /// (who, when as stored, what), oldest first.
    pub discussion: Vec<(String, String, String)>,
}

/// "1 of 2 reviews": the submitted reviews against the reviews a paper needs, and whether
/// that is fewer.
fn needed_summary(submitted: i64, needed: i64) -> (String, bool) {
    let noun = if needed == 1 { "review" } else { "reviews" };
    if submitted < needed {
        (format!("{submitted} of {needed} {noun}: below the required {needed}"), true)
    } else {
        (format!("{submitted} of {needed} {noun}"), false)
    }
}

/// `s`'s reviews and discussion now, with the settings' `reviewers_per_paper` as the need.
pub async fn of(pool: &Pool, s: &Submission) -> Outcome<Reviewing> {
    let needed = reviewers::settings(pool).await?.reviewers_per_paper;
    let (summary, below) = needed_summary(s.review.reviews_submitted, needed);
    let none = || "Not given".to_owned();
    let reviews = review_records::of_paper(pool, s.id)
        .await?
        .into_iter()
        .map(|r| {
            let draft = r.state != "submitted";
            let mut heading = format!("Reviewer {}: {}", r.number, r.reviewer);
            if draft {
                heading.push_str(" (draft)");
            }
            if r.assignment == "withdrawn" {
                heading.push_str(" (assignment withdrawn: not counted)");
            }
            let answers = figures::answers(&r.answers)
                .into_iter()
                .map(|a| {
                    let label = if a.label.is_empty() { a.key.clone() } else { a.label.clone() };
                    let score = match (a.score, a.score_label.is_empty()) {
                        (Some(score), false) => format!("{score}: {}", a.score_label),
                        (Some(score), true) => score.to_string(),
                        (None, _) => "Not answered".to_owned(),
                    };
                    (format!("{label} (weight {})", a.weight), score)
                })
                .collect();
            Review {
                heading,
                reviewer: format!("{} ({})", r.reviewer, r.reviewer_email),
                draft,
                submitted_at: r.submitted_at.filter(|_| !draft),
                updated: r.updated,
                answers,
                score: r.score.map(figures::points).unwrap_or_else(none),
                recommendation: r
                    .recommendation
                    .as_deref()
                    .map(figures::recommendation)
                    .map_or_else(none, str::to_owned),
                confidence: r.confidence.map(|c| format!("{c} of 5")).unwrap_or_else(none),
                to_authors: r.comments_to_authors,
                confidential: r.confidential_comments,
            }
        })
        .collect();
    let discussion = review_records::discussion(pool, s.id)
        .await?
        .into_iter()
        .map(|c| {
            let who = match (c.reviewer, c.organiser) {
                (Some(reviewer), _) => reviewer,
                (None, Some(organiser)) => format!("{organiser} (organiser)"),
                (None, None) => "An organiser".to_owned(),
            };
            (who, c.created, c.body)
        })
        .collect();
    Ok(Reviewing { summary, below, reviews, discussion })
}
