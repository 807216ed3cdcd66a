//! The content seed's rules for the review form and settings (issue 32 item 2, DESIGN.md
//! section 15): at least one criterion, keys that are unique slugs, a scale of 2 to 10
//! labels, a weight of 1 to 100, a known review mode, positive limits, a deadline written
//! `YYYY-MM-DD HH:MM` and well-formed webmail domains. `conference seed` and `seed --check`
//! refuse a seed that breaks one (`crate::seed::apply::check_review_form`), naming the criterion.
//!
//! Here rather than in `crate::review` because the seed's own checks (`crate::db`) sit in the
//! foundation layer, as the programme's do (`crate::seed::session_rules`); `crate::review::form`
//! builds the reviewers' form on these types.

use crate::seed::session_rules::parse_local;

/// The review modes of the seed's `site.review_mode` (DESIGN.md section 15).
pub const REVIEW_MODES: [&str; 3] = ["double_anonymous", "single_anonymous", "open"];

/// Labels a criterion's scale has at least and at most.
pub const SCALE_MIN: usize = 2;
pub const SCALE_MAX: usize = 10;
/// The weight a criterion may have.
pub const WEIGHT_MIN: i64 = 1;
pub const WEIGHT_MAX: i64 = 100;
/// The longest key: it is part of a form field's name and of every stored answer.
pub const KEY_MAX_CHARS: usize = 40;

/// One row of `review_criteria` as stored, as `crate::repo::reviews` reads it.
pub use crate::repo::reviews::CriterionRow;

/// One question of the review form: its key (a slug), what reviewers read, the labels of
/// scores `1..=scale.len()` (lowest first) and its weight in a review's score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Criterion {
    pub key: String,
    pub label: String,
    pub description: String,
    pub scale: Vec<String>,
    pub weight: i64,
}

impl Criterion {
    /// The highest score: the number of labels.
    pub fn max_score(&self) -> i64 {
        i64::try_from(self.scale.len()).unwrap_or(i64::MAX)
    }

    /// The label of `score` (1-based), if the scale has it.
    pub fn score_label(&self, score: i64) -> Option<&str> {
        let index = usize::try_from(score.checked_sub(1)?).ok()?;
        self.scale.get(index).map(String::as_str)
    }
}

/// The review settings of the seed's `site` row that the rules read.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SettingsRow {
    pub review_mode: String,
    pub reviewers_per_paper: i64,
    pub max_papers_per_reviewer: i64,
    pub review_deadline: Option<String>,
}

/// A review form or setting the seed may not apply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    #[error("review_criteria: the review form has no criterion; add at least one; nothing was changed")]
    NoCriteria,
    #[error(
        "review criterion {key:?}: the key must be 1 to {KEY_MAX_CHARS} lower-case letters, digits and hyphens, starting with a letter; nothing was changed"
    )]
    BadKey { key: String },
    #[error("review criterion {key}: the key is used twice; nothing was changed")]
    DuplicateKey { key: String },
    #[error("review criterion {key}: the label is empty; nothing was changed")]
    BlankLabel { key: String },
    #[error("review criterion {key}: the scale {reason}; nothing was changed")]
    BadScale { key: String, reason: String },
    #[error(
        "review criterion {key}: the weight {weight} is not between {WEIGHT_MIN} and {WEIGHT_MAX}; nothing was changed"
    )]
    BadWeight { key: String, weight: i64 },
    #[error("site.review_mode {mode:?} is not one of double_anonymous, single_anonymous, open; nothing was changed")]
    BadMode { mode: String },
    #[error("site.{field} is {value}; it must be at least 1; nothing was changed")]
    BadLimit { field: &'static str, value: i64 },
    #[error("site.review_deadline {value:?} is not a time written YYYY-MM-DD HH:MM; nothing was changed")]
    BadDeadline { value: String },
    #[error("webmail_domains: {domain:?} is not a lower-case mail domain such as gmail.com; nothing was changed")]
    BadWebmailDomain { domain: String },
}

/// Whether `key` is a slug: a lower-case ASCII letter, then letters, digits and single
/// hyphens, not ending in one; at most [`KEY_MAX_CHARS`].
pub fn is_slug(key: &str) -> bool {
    let bytes = key.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= KEY_MAX_CHARS
        && bytes[0].is_ascii_lowercase()
        && bytes.iter().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && !key.ends_with('-')
        && !key.contains("--")
}

/// A scale as stored (a JSON array of labels) read and checked: 2 to 10 labels, none blank.
/// The error completes "the scale ...".
pub fn parse_scale(text: &str) -> Result<Vec<String>, String> {
    let labels: Vec<String> = serde_json::from_str(text)
        .map_err(|_| format!("{text:?} is not a JSON array of labels such as [\"Poor\", \"Good\"]"))?;
    if !(SCALE_MIN..=SCALE_MAX).contains(&labels.len()) {
        return Err(format!("has {} labels; it needs {SCALE_MIN} to {SCALE_MAX}", labels.len()));
    }
    if let Some(at) = labels.iter().position(|label| label.trim().is_empty()) {
        return Err(format!("label {} is empty", at + 1));
    }
    Ok(labels.into_iter().map(|label| label.trim().to_owned()).collect())
}

/// The criteria `rows` (in `position` order) checked and read; the first problem found.
pub fn check_criteria(rows: &[CriterionRow]) -> Result<Vec<Criterion>, FormError> {
    if rows.is_empty() {
        return Err(FormError::NoCriteria);
    }
    let mut criteria: Vec<Criterion> = Vec::with_capacity(rows.len());
    for row in rows {
        if !is_slug(&row.key) {
            return Err(FormError::BadKey { key: row.key.clone() });
        }
        if criteria.iter().any(|c| c.key == row.key) {
            return Err(FormError::DuplicateKey { key: row.key.clone() });
        }
        if row.label.trim().is_empty() {
            return Err(FormError::BlankLabel { key: row.key.clone() });
        }
        let scale = parse_scale(&row.scale).map_err(|reason| FormError::BadScale { key: row.key.clone(), reason })?;
        if !(WEIGHT_MIN..=WEIGHT_MAX).contains(&row.weight) {
            return Err(FormError::BadWeight { key: row.key.clone(), weight: row.weight });
        }
        criteria.push(Criterion {
            key: row.key.clone(),
            label: row.label.trim().to_owned(),
            description: row.description.trim().to_owned(),
            scale,
            weight: row.weight,
        });
    }
    Ok(criteria)
}

/// The settings' rules: a known mode, limits of at least 1, a deadline that parses.
pub fn check_settings(settings: &SettingsRow) -> Result<(), FormError> {
    if !REVIEW_MODES.contains(&settings.review_mode.as_str()) {
        return Err(FormError::BadMode { mode: settings.review_mode.clone() });
    }
    for (field, value) in [
        ("reviewers_per_paper", settings.reviewers_per_paper),
        ("max_papers_per_reviewer", settings.max_papers_per_reviewer),
    ] {
        if value < 1 {
            return Err(FormError::BadLimit { field, value });
        }
    }
    if let Some(deadline) = &settings.review_deadline
        && parse_local(deadline).is_none()
    {
        return Err(FormError::BadDeadline { value: deadline.clone() });
    }
    Ok(())
}

/// Webmail domains as the conflict rules compare them: lower-case, with a dot, no `@` or
/// blank.
pub fn check_webmail(domains: &[String]) -> Result<(), FormError> {
    let well_formed = |d: &str| {
        d.contains('.')
            && !d.starts_with('.')
            && !d.ends_with('.')
            && d.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
    };
    match domains.iter().find(|d| !well_formed(d)) {
        Some(bad) => Err(FormError::BadWebmailDomain { domain: bad.clone() }),
        None => Ok(()),
    }
}

/// Every rule of the form, the settings and the webmail list; the first problem found.
pub fn check(criteria: &[CriterionRow], settings: &SettingsRow, webmail: &[String]) -> Result<(), FormError> {
    check_criteria(criteria)?;
    check_settings(settings)?;
    check_webmail(webmail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(key: &str, scale: &str, weight: i64) -> CriterionRow {
        CriterionRow {
            key: key.into(),
            position: 1,
            label: "Originality".into(),
            description: "New?".into(),
            scale: scale.into(),
            weight,
        }
    }

    fn settings() -> SettingsRow {
        SettingsRow {
            review_mode: "double_anonymous".into(),
            reviewers_per_paper: 2,
            max_papers_per_reviewer: 15,
            review_deadline: Some("2025-03-03 18:00".into()),
        }
    }

    const SCALE: &str = r#"["Poor", "Fair", "Good"]"#;

    #[test]
    fn a_good_form_is_read_with_its_labels() {
        let criteria =
            check_criteria(&[row("originality", SCALE, 2), row("clarity-2", r#"[" Low ", "High"]"#, 1)]).unwrap();
        assert_eq!(criteria[0].scale, ["Poor", "Fair", "Good"]);
        assert_eq!(criteria[0].max_score(), 3);
        assert_eq!(criteria[0].score_label(3), Some("Good"));
        assert_eq!(criteria[0].score_label(0), None);
        assert_eq!(criteria[0].score_label(4), None);
        assert_eq!(criteria[1].scale, ["Low", "High"], "labels are trimmed");
        assert_eq!(check(&[row("originality", SCALE, 1)], &settings(), &["gmail.com".into()]), Ok(()));
    }

    #[test]
    fn each_broken_criterion_is_named() {
        assert_eq!(check_criteria(&[]), Err(FormError::NoCriteria));
        for key in ["", "Originality", "2nd", "a b", "a_b", "end-", "a--b", &"k".repeat(41)] {
            assert_eq!(
                check_criteria(&[row(key, SCALE, 1)]),
                Err(FormError::BadKey { key: key.into() }),
                "{key:?} is not a slug"
            );
        }
        assert_eq!(
            check_criteria(&[row("a", SCALE, 1), row("a", SCALE, 1)]),
            Err(FormError::DuplicateKey { key: "a".into() })
        );
        let blank = CriterionRow { label: "  ".into(), ..row("a", SCALE, 1) };
        assert_eq!(check_criteria(&[blank]), Err(FormError::BlankLabel { key: "a".into() }));
        for (scale, says) in [
            ("not json", "is not a JSON array"),
            (r#"["Only"]"#, "has 1 labels; it needs 2 to 10"),
            (r#"["1","2","3","4","5","6","7","8","9","10","11"]"#, "has 11 labels"),
            (r#"["Poor", " "]"#, "label 2 is empty"),
            (r#"[1, 2]"#, "is not a JSON array of labels"),
        ] {
            let err = check_criteria(&[row("clarity", scale, 1)]).unwrap_err();
            let message = err.to_string();
            assert!(message.starts_with("review criterion clarity: the scale "), "{message}");
            assert!(message.contains(says), "{says:?} in {message}");
            assert!(message.ends_with("nothing was changed"), "{message}");
        }
        for weight in [0, 101, -3] {
            assert_eq!(
                check_criteria(&[row("a", SCALE, weight)]),
                Err(FormError::BadWeight { key: "a".into(), weight })
            );
        }
    }

    #[test]
    fn settings_and_webmail_are_checked() {
        assert_eq!(check_settings(&settings()), Ok(()));
        assert_eq!(check_settings(&SettingsRow { review_deadline: None, ..settings() }), Ok(()));
        let mode = SettingsRow { review_mode: "blind".into(), ..settings() };
        assert_eq!(check_settings(&mode), Err(FormError::BadMode { mode: "blind".into() }));
        let per_paper = SettingsRow { reviewers_per_paper: 0, ..settings() };
        assert_eq!(check_settings(&per_paper), Err(FormError::BadLimit { field: "reviewers_per_paper", value: 0 }));
        let load = SettingsRow { max_papers_per_reviewer: 0, ..settings() };
        assert_eq!(check_settings(&load), Err(FormError::BadLimit { field: "max_papers_per_reviewer", value: 0 }));
        for value in ["2025-03-03", "03/03/2025 18:00", "2025-02-30 18:00", "2025-03-03 25:00"] {
            let deadline = SettingsRow { review_deadline: Some(value.into()), ..settings() };
            assert_eq!(check_settings(&deadline), Err(FormError::BadDeadline { value: value.into() }), "{value}");
        }
        assert_eq!(check_webmail(&["gmail.com".into(), "163.com".into()]), Ok(()));
        for bad in ["Gmail.com", "gmail", "@gmail.com", " gmail.com", ""] {
            assert_eq!(
                check_webmail(&[bad.into()]),
                Err(FormError::BadWebmailDomain { domain: bad.into() }),
                "{bad:?}"
            );
        }
    }
}
