//! Checking the text fields of the paper form in the spec's order (section 5), with the
//! messages of spec sections 5 and 8.

use std::collections::BTreeMap;

use crate::forms::paper_form::CONFERENCE_SOURCES;
use crate::forms::validate::{is_allowed_char, is_blank, is_valid_email, is_valid_phone};
use crate::repo::submissions::NewSubmission;

/// A text field as the request carried it (read by `crate::handlers::api::submission::upload`).
#[derive(Debug, Default, Clone)]
pub struct TextPart {
    /// `None` when the bytes were not UTF-8.
    pub value: Option<String>,
    /// More than the handler's limit (`TEXT_PART_MAX_BYTES`) arrived.
    pub overflow: bool,
    /// How often the part was sent.
    pub count: usize,
}

/// spec section 5 and 8: the second check of the paper form.
pub const MISSING_PAPER_TYPE: &str = "Please select a paper type";

/// spec section 5: paperType options.
pub const PAPER_TYPES: [&str; 2] = ["Abstract", "Full Paper"];
/// spec section 5: presentationType options.
pub const PRESENTATION_TYPES: [&str; 2] = ["Poster", "Oral"];

/// A text field of the form: its payload name, a label for messages, the most characters
/// it may hold, and the message when a required field is missing.
struct TextField {
    name: &'static str,
    label: &'static str,
    max_chars: usize,
    missing: Option<&'static str>,
}

/// The text fields in the order the spec checks them (section 5: paperType, then authorName,
/// phone, email, country, coAuthorName, paperTitle, department, universityOrganization,
/// presentationType, message, conferenceSource). `name` is optional: the spec keeps it in the
/// form's state without a visible input. The limits match the page's `maxlength`s.
const TEXT_FIELDS: [TextField; 13] = [
    TextField { name: "paperType", label: "Paper type", max_chars: 20, missing: Some(MISSING_PAPER_TYPE) },
    TextField {
        name: "authorName",
        label: "Author name",
        max_chars: 200,
        missing: Some("Please enter the author name"),
    },
    TextField { name: "number", label: "Phone", max_chars: 32, missing: Some("Please enter your phone number") },
    TextField {
        name: "email",
        label: "Email address",
        max_chars: 254,
        missing: Some("Please enter your email address"),
    },
    TextField { name: "country", label: "Country", max_chars: 80, missing: Some("Please enter your country") },
    TextField {
        name: "coAuthorName",
        label: "Co-author name(s)",
        max_chars: 500,
        missing: Some("Please enter the co-author name(s)"),
    },
    TextField {
        name: "paperTitle",
        label: "Paper title",
        max_chars: 300,
        missing: Some("Please enter the paper title"),
    },
    TextField {
        name: "department",
        label: "Department",
        max_chars: 200,
        missing: Some("Please enter your department"),
    },
    TextField {
        name: "universityOrganization",
        label: "University / Organization",
        max_chars: 200,
        missing: Some("Please enter your university or organization"),
    },
    TextField {
        name: "presentationType",
        label: "Presentation type",
        max_chars: 20,
        missing: Some("Please select a presentation type"),
    },
    TextField { name: "message", label: "Message", max_chars: 5000, missing: Some("Please enter a message") },
    TextField {
        name: "conferenceSource",
        label: "How did you hear about the conference?",
        max_chars: 64,
        missing: Some("Please select how you heard about the conference"),
    },
    TextField { name: "name", label: "Name", max_chars: 200, missing: None },
];

/// The payload names of the form's text fields, in the order the spec checks them (the fuzz
/// test reads them from here).
pub const FIELD_NAMES: [&str; TEXT_FIELDS.len()] = {
    let mut names = [""; TEXT_FIELDS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = TEXT_FIELDS[i].name;
        i += 1;
    }
    names
};

/// Checks every text field in the spec's order; the errors keep that order. The fields come
/// back trimmed, within their limits and with valid options (spec section 5) in the row they
/// will be stored as; its reference and file columns stay empty for `submit` to fill.
pub fn check_fields(texts: &BTreeMap<String, TextPart>) -> Result<NewSubmission, Vec<(&'static str, String)>> {
    let mut errors: Vec<(&'static str, String)> = Vec::new();
    let mut values: BTreeMap<&'static str, String> = BTreeMap::new();
    for field in &TEXT_FIELDS {
        let part = texts.get(field.name);
        let error = match part {
            Some(part) if part.count > 1 => Some(format!("{} was sent more than once", field.label)),
            Some(part) if part.overflow => Some(too_long(field)),
            Some(TextPart { value: None, .. }) => Some(format!("{} must be text", field.label)),
            _ => {
                // Browsers send a textarea's line ends as CR LF.
                let raw = part.and_then(|p| p.value.as_deref()).unwrap_or("").replace("\r\n", "\n");
                let value = if field.name == "message" { raw.trim().to_owned() } else { single_line(&raw) };
                let error = if is_blank(&value) {
                    field.missing.map(str::to_owned)
                } else if value.chars().any(|c| !is_allowed_char(c)) {
                    Some(format!("{} contains characters that are not allowed", field.label))
                } else if value.chars().count() > field.max_chars {
                    Some(too_long(field))
                } else {
                    check_value(field.name, &value)
                };
                values.insert(field.name, value);
                error
            }
        };
        if let Some(message) = error {
            errors.push((field.name, message));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut take = |name: &str| values.remove(name).unwrap_or_default();
    Ok(NewSubmission {
        name: take("name"),
        number: take("number"),
        email: take("email"),
        country: take("country"),
        author_name: take("authorName"),
        co_author_name: take("coAuthorName"),
        paper_title: take("paperTitle"),
        department: take("department"),
        university_organization: take("universityOrganization"),
        paper_type: take("paperType"),
        presentation_type: take("presentationType"),
        message: take("message"),
        conference_source: take("conferenceSource"),
        ..NewSubmission::default()
    })
}

fn too_long(field: &TextField) -> String {
    format!("{} is too long (at most {} characters)", field.label, field.max_chars)
}

/// A one-line field: line breaks and tabs become spaces, runs of spaces one, ends trimmed
/// (these values end up in mail subjects and CSV cells). Other control characters stay, to
/// be refused.
fn single_line(raw: &str) -> String {
    raw.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The format and option checks of a non-empty value.
fn check_value(name: &str, value: &str) -> Option<String> {
    match name {
        "email" if !is_valid_email(value) => Some("Please enter a valid email address".into()),
        "number" if !is_valid_phone(value) => Some("Please enter a valid phone number".into()),
        "paperType" if !PAPER_TYPES.contains(&value) => Some("Paper type must be Abstract or Full Paper".into()),
        "presentationType" if !PRESENTATION_TYPES.contains(&value) => {
            Some("Presentation type must be Poster or Oral".into())
        }
        "conferenceSource" if !CONFERENCE_SOURCES.iter().any(|(v, _)| *v == value) => {
            Some("Please select one of the listed options".into())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(pairs: &[(&str, &str)]) -> BTreeMap<String, TextPart> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), TextPart { value: Some((*v).to_owned()), overflow: false, count: 1 }))
            .collect()
    }

    const VALID: [(&str, &str); 12] = [
        ("authorName", "Ana Cruz"),
        ("number", "+639171234567"),
        ("email", "ana@example.org"),
        ("country", "Philippines"),
        ("coAuthorName", "Ben Reyes"),
        ("paperTitle", "Solar  microgrids\r\nfor islands"),
        ("department", "Engineering"),
        ("universityOrganization", "University of Manila"),
        ("paperType", "Full Paper"),
        ("presentationType", "Oral"),
        ("message", "  Line one\nLine two  "),
        ("conferenceSource", "linkedin"),
    ];

    #[test]
    fn valid_fields_are_trimmed_and_one_line_fields_joined() {
        let fields = check_fields(&texts(&VALID)).expect("valid");
        assert_eq!(fields.paper_title, "Solar microgrids for islands");
        assert_eq!(fields.message, "Line one\nLine two");
        assert_eq!(fields.name, "");
    }

    #[test]
    fn control_characters_are_refused_and_blank_messages_are_missing() {
        let mut pairs = VALID.to_vec();
        pairs.retain(|(k, _)| *k != "message" && *k != "authorName");
        pairs.push(("message", "\0\0 \u{1}\r\n"));
        pairs.push(("authorName", "Ana\0Cruz"));
        let errors = check_fields(&texts(&pairs)).unwrap_err();
        assert_eq!(
            errors,
            [
                ("authorName", "Author name contains characters that are not allowed".to_owned()),
                ("message", "Please enter a message".to_owned())
            ]
        );
    }

    #[test]
    fn errors_come_in_the_specs_order() {
        let errors = check_fields(&texts(&[])).unwrap_err();
        let keys: Vec<&str> = errors.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            keys,
            [
                "paperType",
                "authorName",
                "number",
                "email",
                "country",
                "coAuthorName",
                "paperTitle",
                "department",
                "universityOrganization",
                "presentationType",
                "message",
                "conferenceSource"
            ]
        );
        assert_eq!(errors[0].1, MISSING_PAPER_TYPE);
    }
}
