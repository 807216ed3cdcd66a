//! The records of peer review (issue 32 item 9, DESIGN.md section 15): one row per review
//! that counts (submitted, on a released assignment), as `/organiser/reviews.csv` and
//! `conference export reviews` write it. Publishers of proceedings ask for these.
//!
//! Columns: `reference`, `reviewerNumber`, `reviewer`, `reviewerEmail`, one column per
//! criterion (its key; the union over every review's own answers, the form's criteria in its
//! order first, then keys only older reviews answered), `weightedScore` (two decimals),
//! `recommendation`, `confidence`, `commentsToAuthors`, `confidentialComments`,
//! `submittedAt`. Scores come from each review's snapshot of the form, so a form changed
//! after reviews were written leaves their rows as they were answered.

use std::io::Write;

use futures_util::TryStreamExt;

use super::csv::SafeWriter;
use crate::db::Pool;
use crate::repo::review_records::{self, Record};
use crate::review::figures;

/// The columns before the criteria.
const LEADING: [&str; 4] = ["reference", "reviewerNumber", "reviewer", "reviewerEmail"];
/// The columns after the criteria.
const TRAILING: [&str; 6] =
    ["weightedScore", "recommendation", "confidence", "commentsToAuthors", "confidentialComments", "submittedAt"];

/// The criteria keys the rows have columns for: the form's keys in its order, then any other
/// key a counted review answered, in the order first met.
pub async fn criteria(pool: &Pool) -> Result<Vec<String>, sqlx::Error> {
    let mut keys = review_records::criteria_keys(pool).await?;
    let mut answers = review_records::answers(pool);
    while let Some(json) = answers.try_next().await? {
        for answer in figures::answers(&json) {
            if !keys.contains(&answer.key) {
                keys.push(answer.key);
            }
        }
    }
    Ok(keys)
}

/// The header row for `keys`. A key spelled like a fixed column gets `criterion:` before it,
/// so no two columns share a name.
pub fn header(keys: &[String]) -> Vec<String> {
    let fixed = |key: &str| LEADING.contains(&key) || TRAILING.contains(&key);
    LEADING
        .iter()
        .map(|h| (*h).to_owned())
        .chain(keys.iter().map(|k| if fixed(k) { format!("criterion:{k}") } else { k.clone() }))
        .chain(TRAILING.iter().map(|h| (*h).to_owned()))
        .collect()
}

/// One review's row under [`header`]`(keys)`; a criterion the review did not answer is empty.
pub fn row(r: &Record, keys: &[String]) -> Vec<String> {
    let answers = figures::answers(&r.answers);
    let optional = |value: Option<i64>| value.map(|v| v.to_string()).unwrap_or_default();
    let mut cells = vec![r.reference.clone(), r.number.to_string(), r.reviewer.clone(), r.reviewer_email.clone()];
    cells.extend(keys.iter().map(|key| optional(answers.iter().find(|a| &a.key == key).and_then(|a| a.score))));
    cells.extend([
        figures::score(r.score),
        r.recommendation.clone().unwrap_or_default(),
        optional(r.confidence),
        r.comments_to_authors.clone(),
        r.confidential_comments.clone(),
        r.submitted_at.clone().unwrap_or_default(),
    ]);
    cells
}

/// Every review that counts, header first (`conference export reviews`).
pub async fn write<W: Write>(pool: &Pool, out: &mut SafeWriter<W>) -> Result<(), Box<dyn std::error::Error>> {
    let keys = criteria(pool).await?;
    out.write_record(header(&keys))?;
    let mut rows = review_records::records(pool);
    while let Some(record) = rows.try_next().await? {
        out.write_record(row(&record, &keys))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_criterion_is_a_column_and_missing_answers_are_empty() {
        let keys = vec!["originality".to_owned(), "confidence".to_owned(), "clarity".to_owned()];
        assert_eq!(
            header(&keys),
            [
                "reference",
                "reviewerNumber",
                "reviewer",
                "reviewerEmail",
                "originality",
                "criterion:confidence",
                "clarity",
                "weightedScore",
                "recommendation",
                "confidence",
                "commentsToAuthors",
                "confidentialComments",
                "submittedAt"
            ]
        );
        let record = Record {
            reference: "P-2025-AAAAAA".into(),
            number: 2,
            reviewer: "Rita Reviewer".into(),
            reviewer_email: "rita@example.org".into(),
            answers: r#"[{"key":"clarity","label":"Clarity","weight":1,"score":3,"score_label":"Fair"}]"#.into(),
            score: Some(3000),
            recommendation: Some("weak_accept".into()),
            confidence: Some(4),
            comments_to_authors: "Fine.".into(),
            confidential_comments: "Borderline.".into(),
            submitted_at: Some("2025-02-20T10:00:00.000000Z".into()),
        };
        assert_eq!(
            row(&record, &keys),
            [
                "P-2025-AAAAAA",
                "2",
                "Rita Reviewer",
                "rita@example.org",
                "",
                "",
                "3",
                "3.00",
                "weak_accept",
                "4",
                "Fine.",
                "Borderline.",
                "2025-02-20T10:00:00.000000Z"
            ]
        );
    }
}
