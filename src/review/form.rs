//! The review form as reviewers answer it (issue 32 items 2 and 6, DESIGN.md section 15):
//! the seed's criteria (checked by `crate::seed::review_rules`), the recommendation and the
//! confidence, what a review stores of its answers, its score, and a paper's figures from
//! its reviews.
//!
//! Scores: a review's score is the weighted mean of its raw scores, in thousandths of a
//! point (scores 4 with weight 2 and 3 with weight 1 give (4×2 + 3×1) / 3 = 3.667, stored as
//! 3667). Scores are not normalised to their scale: the seed's criteria usually share one
//! scale length, and organisers read the figure against the labels they wrote. Rounding is to
//! the nearest thousandth, halves up.
//!
//! A review stores a copy of the questions it answered ([`Answer`]: key, label, weight,
//! score, the score's label and the scale's length), so a form changed after reviews exist
//! never changes what an old review says: pages show a review from that copy, never from
//! today's criteria.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::forms::validate::is_allowed_char;
use crate::repo::reviews::Review;
pub use crate::seed::review_rules::{Criterion, CriterionRow, FormError};

/// The review form: its criteria in the seed's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form {
    pub criteria: Vec<Criterion>,
}

impl Form {
    /// The form the seed's rows make, checked as the seed was.
    pub fn from_rows(rows: &[CriterionRow]) -> Result<Form, FormError> {
        Ok(Form { criteria: crate::seed::review_rules::check_criteria(rows)? })
    }
}

/// The name of a criterion's radio group in the form and of its field error.
pub fn score_field(key: &str) -> String {
    format!("score-{key}")
}

/// One answered criterion as a review stores it (`reviews.answers`, a JSON array of these):
/// the question as it was asked, and the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    pub key: String,
    pub label: String,
    pub weight: i64,
    pub score: i64,
    pub score_label: String,
    /// The scale's length when answered (0 in a copy written without it).
    #[serde(default)]
    pub out_of: i64,
}

/// A review's stored answers read back; a copy that does not read is shown as none rather
/// than failing the page.
pub fn answers_of(json: &str) -> Vec<Answer> {
    serde_json::from_str(json).unwrap_or_default()
}

/// The weighted mean of `answers`' scores in thousandths, rounded half up; `None` without
/// an answer.
pub fn weighted_score(answers: &[Answer]) -> Option<i64> {
    let weights: i64 = answers.iter().map(|a| a.weight).sum();
    if weights <= 0 {
        return None;
    }
    let points: i64 = answers.iter().map(|a| a.score * a.weight).sum();
    Some(rounded_div(points * 1000, weights))
}

/// `numerator / denominator` rounded to the nearest integer, halves up (both positive).
fn rounded_div(numerator: i64, denominator: i64) -> i64 {
    (2 * numerator + denominator).div_euclid(2 * denominator)
}

/// A score in thousandths as pages show it: `3667` → `3.67`.
pub fn points(thousandths: i64) -> String {
    let hundredths = rounded_div(thousandths, 10);
    format!("{}.{:02}", hundredths.div_euclid(100), hundredths.rem_euclid(100))
}

/// A reviewer's recommendation, strongest acceptance first (the `reviews.recommendation`
/// CHECK of migration 0019).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recommendation {
    StrongAccept,
    Accept,
    WeakAccept,
    WeakReject,
    Reject,
    StrongReject,
}

impl Recommendation {
    /// Every recommendation, in the form's order.
    pub const ALL: [Recommendation; 6] = [
        Recommendation::StrongAccept,
        Recommendation::Accept,
        Recommendation::WeakAccept,
        Recommendation::WeakReject,
        Recommendation::Reject,
        Recommendation::StrongReject,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Recommendation::StrongAccept => "strong_accept",
            Recommendation::Accept => "accept",
            Recommendation::WeakAccept => "weak_accept",
            Recommendation::WeakReject => "weak_reject",
            Recommendation::Reject => "reject",
            Recommendation::StrongReject => "strong_reject",
        }
    }

    /// What the form and the pages call it.
    pub fn label(self) -> &'static str {
        match self {
            Recommendation::StrongAccept => "Strong accept",
            Recommendation::Accept => "Accept",
            Recommendation::WeakAccept => "Weak accept",
            Recommendation::WeakReject => "Weak reject",
            Recommendation::Reject => "Reject",
            Recommendation::StrongReject => "Strong reject",
        }
    }

    /// The stored name read back.
    pub fn parse(name: &str) -> Option<Recommendation> {
        Recommendation::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

/// The label of a stored recommendation (the stored name itself for one this build does
/// not know).
pub fn recommendation_label(name: &str) -> &str {
    match Recommendation::parse(name) {
        Some(known) => known.label(),
        None => name,
    }
}

/// The reviewer's confidence, 1 to 5, with what each means.
pub const CONFIDENCE: [(i64, &str); 5] = [
    (1, "1: Low, an educated guess"),
    (2, "2: Fair, the topic is outside my area"),
    (3, "3: Moderate, I know the area"),
    (4, "4: High, I work in this area"),
    (5, "5: Expert, I know this topic in depth"),
];

/// The label of a confidence level, if it is one.
pub fn confidence_label(level: i64) -> Option<&'static str> {
    CONFIDENCE.iter().find(|(value, _)| *value == level).map(|(_, label)| *label)
}

/// Most characters in each of a review's two comments.
pub const COMMENTS_MAX_CHARS: usize = 20_000;

/// What a reviewer sent from the form, as text: each criterion's chosen value by key (absent
/// when none was chosen), the recommendation and confidence (empty when none), both comments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sent {
    pub scores: BTreeMap<String, String>,
    pub recommendation: String,
    pub confidence: String,
    pub comments_to_authors: String,
    pub confidential_comments: String,
}

/// A review as the form's rules accept it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The answered criteria, in the form's order.
    pub answers: Vec<Answer>,
    /// Whether every criterion is answered.
    pub complete: bool,
    pub recommendation: Option<Recommendation>,
    pub confidence: Option<i64>,
    pub comments_to_authors: String,
    pub confidential_comments: String,
}

impl Checked {
    /// The review's score: the weighted mean once every criterion is answered (a partial
    /// draft has none, so no half-answered figure is ever shown as a score).
    pub fn score(&self) -> Option<i64> {
        if self.complete { weighted_score(&self.answers) } else { None }
    }

    /// The answers as stored (`reviews.answers`).
    pub fn answers_json(&self) -> String {
        serde_json::to_string(&self.answers).unwrap_or_else(|_| "[]".into())
    }
}

/// Field errors, keyed by the form's field names ([`score_field`], `recommendation`,
/// `confidence`, `comments_to_authors`, `confidential_comments`).
pub type FieldErrors = BTreeMap<String, String>;

/// Checks what was sent against `form`. A draft may leave anything out (`submitting`
/// false); a submitted review needs every criterion, the recommendation and the confidence.
/// Whatever is given must be one of the form's choices, and comments must be text of at most
/// [`COMMENTS_MAX_CHARS`] (line ends as `\n`).
pub fn check(form: &Form, sent: &Sent, submitting: bool) -> Result<Checked, FieldErrors> {
    let mut errors = FieldErrors::new();
    let mut answers = Vec::with_capacity(form.criteria.len());
    for criterion in &form.criteria {
        let field = score_field(&criterion.key);
        match sent.scores.get(&criterion.key).map(|v| v.trim()).filter(|v| !v.is_empty()) {
            None if submitting => {
                errors.insert(field, format!("Choose a score for {}.", criterion.label));
            }
            None => {}
            Some(value) => {
                let score = value.parse::<i64>().ok().filter(|s| criterion.score_label(*s).is_some());
                match score {
                    Some(score) => answers.push(Answer {
                        key: criterion.key.clone(),
                        label: criterion.label.clone(),
                        weight: criterion.weight,
                        score,
                        score_label: criterion.score_label(score).unwrap_or_default().to_owned(),
                        out_of: criterion.max_score(),
                    }),
                    None => {
                        errors.insert(
                            field,
                            format!("Choose one of the scores 1 to {} for {}.", criterion.max_score(), criterion.label),
                        );
                    }
                }
            }
        }
    }
    let recommendation = match sent.recommendation.trim() {
        "" => {
            if submitting {
                errors.insert("recommendation".into(), "Choose a recommendation.".into());
            }
            None
        }
        name => {
            let parsed = Recommendation::parse(name);
            if parsed.is_none() {
                errors.insert("recommendation".into(), "Choose one of the recommendations listed.".into());
            }
            parsed
        }
    };
    let confidence = match sent.confidence.trim() {
        "" => {
            if submitting {
                errors.insert("confidence".into(), "Choose how confident you are in this review.".into());
            }
            None
        }
        value => {
            let level = value.parse::<i64>().ok().filter(|l| confidence_label(*l).is_some());
            if level.is_none() {
                errors.insert("confidence".into(), "Choose a confidence from 1 to 5.".into());
            }
            level
        }
    };
    let mut comments = |name: &str, label: &str, value: &str| -> String {
        let text = value.replace("\r\n", "\n").replace('\r', "\n");
        let text = text.trim().to_owned();
        if text.chars().count() > COMMENTS_MAX_CHARS {
            errors.insert(name.into(), format!("{label} may have at most {COMMENTS_MAX_CHARS} characters."));
        } else if !text.chars().all(is_allowed_char) {
            errors.insert(name.into(), format!("{label} contain a control character; remove it."));
        }
        text
    };
    let comments_to_authors = comments("comments_to_authors", "Comments to the authors", &sent.comments_to_authors);
    let confidential_comments = comments("confidential_comments", "Confidential comments", &sent.confidential_comments);
    if !errors.is_empty() {
        return Err(errors);
    }
    let complete = answers.len() == form.criteria.len();
    Ok(Checked { answers, complete, recommendation, confidence, comments_to_authors, confidential_comments })
}

/// A paper's figures from its counted reviews (migration 0019): how many, the mean of their
/// scores and the spread between the highest and the lowest (thousandths; `None` without a
/// scored review), and the recommendations counted as a JSON object (`{"accept":2}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    pub submitted: i64,
    pub score: Option<i64>,
    pub spread: Option<i64>,
    pub recommendations: String,
}

/// The figures of `reviews` (each review's score and recommendation).
pub fn figures(reviews: &[(Option<i64>, Option<String>)]) -> Figures {
    let scores: Vec<i64> = reviews.iter().filter_map(|(score, _)| *score).collect();
    let score = if scores.is_empty() {
        None
    } else {
        let count = i64::try_from(scores.len()).unwrap_or(i64::MAX);
        Some(rounded_div(scores.iter().sum(), count))
    };
    let spread = match (scores.iter().max(), scores.iter().min()) {
        (Some(max), Some(min)) => Some(max - min),
        _ => None,
    };
    let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
    for recommendation in reviews.iter().filter_map(|(_, r)| r.as_deref()) {
        *counts.entry(recommendation).or_default() += 1;
    }
    Figures {
        submitted: i64::try_from(reviews.len()).unwrap_or(i64::MAX),
        score,
        spread,
        recommendations: serde_json::to_string(&counts).unwrap_or_else(|_| "{}".into()),
    }
}

/// What the form shows for a stored review: its answers to the criteria today's form still
/// asks (a score the scale still has), its choices and comments.
pub fn sent_of(review: &Review) -> Sent {
    Sent {
        scores: answers_of(&review.answers).into_iter().map(|a| (a.key, a.score.to_string())).collect(),
        recommendation: review.recommendation.clone().unwrap_or_default(),
        confidence: review.confidence.map(|c| c.to_string()).unwrap_or_default(),
        comments_to_authors: review.comments_to_authors.clone(),
        confidential_comments: review.confidential_comments.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> Form {
        Form::from_rows(&[
            CriterionRow {
                key: "rigour".into(),
                position: 1,
                label: "Rigour".into(),
                description: String::new(),
                scale: r#"["Adrift", "Shallow", "Steady", "Deep"]"#.into(),
                weight: 2,
            },
            CriterionRow {
                key: "clarity".into(),
                position: 2,
                label: "Clarity".into(),
                description: String::new(),
                scale: r#"["Murky", "Dim", "Bright"]"#.into(),
                weight: 1,
            },
        ])
        .unwrap()
    }

    fn sent(rigour: &str, clarity: &str, recommendation: &str, confidence: &str) -> Sent {
        let mut scores = BTreeMap::new();
        for (key, value) in [("rigour", rigour), ("clarity", clarity)] {
            if !value.is_empty() {
                scores.insert(key.to_owned(), value.to_owned());
            }
        }
        Sent {
            scores,
            recommendation: recommendation.into(),
            confidence: confidence.into(),
            comments_to_authors: "Good.\r\nThanks.".into(),
            confidential_comments: String::new(),
        }
    }

    #[test]
    fn the_score_is_the_weighted_mean_in_thousandths() {
        let checked = check(&form(), &sent("4", "3", "accept", "4"), true).unwrap();
        assert_eq!(checked.score(), Some(3667), "(4×2 + 3×1) / 3 = 3.667");
        assert_eq!(points(3667), "3.67");
        assert_eq!(points(3000), "3.00");
        assert_eq!(points(2505), "2.51", "halves up");
        assert_eq!(checked.answers[0].score_label, "Deep");
        assert_eq!(checked.answers[1].out_of, 3);
        assert_eq!(checked.comments_to_authors, "Good.\nThanks.", "line ends as \\n");
        let stored = answers_of(&checked.answers_json());
        assert_eq!(stored, checked.answers, "the snapshot reads back");
        assert_eq!(weighted_score(&[]), None);
        let one = check(&form(), &sent("1", "1", "", ""), false).unwrap();
        assert_eq!(one.score(), Some(1000));
    }

    #[test]
    fn a_draft_may_be_partial_but_a_submitted_review_is_whole() {
        let draft = check(&form(), &sent("2", "", "", ""), false).unwrap();
        assert!(!draft.complete);
        assert_eq!(draft.score(), None, "a partial draft has no score");
        assert_eq!(draft.answers.len(), 1);
        let errors = check(&form(), &sent("2", "", "", ""), true).unwrap_err();
        assert_eq!(errors.keys().collect::<Vec<_>>(), ["confidence", "recommendation", "score-clarity"]);
        assert_eq!(errors["score-clarity"], "Choose a score for Clarity.");
    }

    #[test]
    fn only_the_forms_choices_are_taken() {
        for (rigour, clarity, recommendation, confidence, field) in [
            ("5", "1", "accept", "3", "score-rigour"),
            ("0", "1", "accept", "3", "score-rigour"),
            ("x", "1", "accept", "3", "score-rigour"),
            ("1", "1", "maybe", "3", "recommendation"),
            ("1", "1", "accept", "6", "confidence"),
            ("1", "1", "accept", "0", "confidence"),
        ] {
            let errors = check(&form(), &sent(rigour, clarity, recommendation, confidence), false).unwrap_err();
            assert_eq!(errors.keys().collect::<Vec<_>>(), [field], "{rigour} {clarity} {recommendation} {confidence}");
        }
        let mut long = sent("1", "1", "accept", "3");
        long.confidential_comments = "x".repeat(COMMENTS_MAX_CHARS + 1);
        assert!(check(&form(), &long, false).unwrap_err().contains_key("confidential_comments"));
        let mut control = sent("1", "1", "accept", "3");
        control.comments_to_authors = "bell\u{7}".into();
        assert!(check(&form(), &control, false).unwrap_err().contains_key("comments_to_authors"));
    }

    #[test]
    fn recommendations_and_confidence_have_labels() {
        assert_eq!(Recommendation::ALL.map(Recommendation::label).first(), Some(&"Strong accept"));
        assert_eq!(Recommendation::ALL.map(Recommendation::label).last(), Some(&"Strong reject"));
        for r in Recommendation::ALL {
            assert_eq!(Recommendation::parse(r.as_str()), Some(r));
        }
        assert_eq!(recommendation_label("weak_reject"), "Weak reject");
        assert_eq!(confidence_label(5), Some("5: Expert, I know this topic in depth"));
        assert_eq!(confidence_label(6), None);
    }

    #[test]
    fn a_papers_figures_count_its_reviews() {
        let none = figures(&[]);
        assert_eq!(none, Figures { submitted: 0, score: None, spread: None, recommendations: "{}".into() });
        let two = figures(&[(Some(3667), Some("accept".into())), (Some(2000), Some("weak_reject".into()))]);
        assert_eq!(two.submitted, 2);
        assert_eq!(two.score, Some(2834), "(3667 + 2000) / 2 = 2833.5, halves up");
        assert_eq!(two.spread, Some(1667));
        assert_eq!(two.recommendations, r#"{"accept":1,"weak_reject":1}"#);
        let same = figures(&[(Some(3000), Some("accept".into())), (Some(3000), Some("accept".into()))]);
        assert_eq!((same.spread, same.recommendations.as_str()), (Some(0), r#"{"accept":2}"#));
    }
}
