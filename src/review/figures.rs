//! The review figures organisers decide from, in words (issue 32 item 8): scores kept in
//! thousandths of a point (`submissions.review_score`, `reviews.score`) shown with two
//! decimals, the spread with "disagreement" from 2 points on, the recommendations counted,
//! and a review's own answers as the form was when it was saved (`reviews.answers`).

use serde::Deserialize;

/// A spread of reviews' scores from which reviewers disagree: 2 points, in thousandths.
pub const DISAGREEMENT: i64 = 2000;

/// The recommendations a review may give, best first: (stored value, label).
pub const RECOMMENDATIONS: [(&str, &str); 6] = [
    ("strong_accept", "Strong accept"),
    ("accept", "Accept"),
    ("weak_accept", "Weak accept"),
    ("weak_reject", "Weak reject"),
    ("reject", "Reject"),
    ("strong_reject", "Strong reject"),
];

/// Thousandths of a point with two decimals, rounded half up: `3500` is `3.50`, `2125` is
/// `2.13`.
pub fn points(thousandths: i64) -> String {
    let hundredths = (thousandths + 5).div_euclid(10);
    format!("{}.{:02}", hundredths.div_euclid(100), hundredths.rem_euclid(100))
}

/// A score for a list: two decimals, empty without one.
pub fn score(thousandths: Option<i64>) -> String {
    thousandths.map(points).unwrap_or_default()
}

/// A spread for a list: two decimals and "(disagreement)" from [`DISAGREEMENT`] on; empty
/// without one.
pub fn spread(thousandths: Option<i64>) -> String {
    match thousandths {
        Some(s) if s >= DISAGREEMENT => format!("{} (disagreement)", points(s)),
        Some(s) => points(s),
        None => String::new(),
    }
}

/// A stored recommendation as people read it (`weak_accept`: `Weak accept`); an unknown one
/// as it is.
pub fn recommendation(value: &str) -> &str {
    RECOMMENDATIONS.iter().find(|(v, _)| *v == value).map_or(value, |(_, label)| label)
}

/// The counts of `submissions.recommendations` (JSON object, `{"accept":2,"weak_reject":1}`)
/// in words, best first: `2 accept · 1 weak reject`. Empty for none (or a value that is not
/// such an object).
pub fn recommendation_counts(json: &str) -> String {
    let counts: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json).unwrap_or_default();
    let count = |key: &str| counts.get(key).and_then(serde_json::Value::as_i64).filter(|n| *n > 0);
    let known =
        RECOMMENDATIONS.iter().filter_map(|(value, label)| Some(format!("{} {}", count(value)?, label.to_lowercase())));
    let unknown = counts
        .keys()
        .filter(|key| !RECOMMENDATIONS.iter().any(|(v, _)| v == key))
        .filter_map(|key| Some(format!("{} {key}", count(key)?)));
    known.chain(unknown).collect::<Vec<_>>().join(" · ")
}

/// One criterion's answer as a review saved it (`reviews.answers`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Answer {
    pub key: String,
    #[serde(default)]
    pub label: String,
    #[serde(default)]
    pub weight: i64,
    pub score: Option<i64>,
    #[serde(default)]
    pub score_label: String,
}

/// A review's answers; none for a value that cannot be read (an answer without its key is
/// left out rather than losing the others).
pub fn answers(json: &str) -> Vec<Answer> {
    let values: Vec<serde_json::Value> = serde_json::from_str(json).unwrap_or_default();
    values.into_iter().filter_map(|value| serde_json::from_value(value).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousandths_read_as_points_with_two_decimals() {
        assert_eq!(points(3500), "3.50");
        assert_eq!(points(2125), "2.13");
        assert_eq!(points(1000), "1.00");
        assert_eq!(points(4994), "4.99");
        assert_eq!(points(4995), "5.00");
        assert_eq!(score(None), "");
        assert_eq!(spread(Some(1999)), "2.00");
        assert_eq!(spread(Some(2000)), "2.00 (disagreement)");
        assert_eq!(spread(Some(0)), "0.00");
    }

    #[test]
    fn recommendations_are_counted_best_first() {
        assert_eq!(recommendation_counts(r#"{"weak_reject":1,"accept":2}"#), "2 accept · 1 weak reject");
        assert_eq!(recommendation_counts("{}"), "");
        assert_eq!(recommendation_counts("not json"), "");
        assert_eq!(recommendation_counts(r#"{"strong_accept":0,"reject":3}"#), "3 reject");
        assert_eq!(recommendation("weak_accept"), "Weak accept");
    }

    #[test]
    fn answers_keep_what_the_form_said() {
        let saved = r#"[{"key":"originality","label":"Originality","weight":2,"score":4,"score_label":"Good"},
                        {"label":"no key"},
                        {"key":"clarity","label":"Clarity","weight":1,"score":null}]"#;
        let read = answers(saved);
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].score_label, "Good");
        assert_eq!(read[1].score, None);
        assert!(answers("[").is_empty());
    }
}
