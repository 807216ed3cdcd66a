//! Placeholders of the decision mails' templates (issue 21): `{name}` in a template's subject
//! or body stands for a value of the submission. The names are fixed here, so a template that
//! names another one (a typo, `{titel}`) is refused when the content seed is applied
//! (`crate::seed::apply::seed_with`), with the seed's line, instead of reaching an author as braces.
//!
//! Braces around anything that is not a lower-case name (`{ }`, `{Title Case}`) are text.

/// Every placeholder a decision mail's template may use, as written between braces.
/// `reviews` (issue 32) is the submitted reviews' comments to authors, reviewers numbered,
/// never named (`crate::review::for_authors`).
pub const KNOWN: [&str; 8] =
    ["title", "reference", "authors", "paper_type", "conference", "status_link", "organiser_note", "reviews"];

/// The placeholders of `text` in order of appearance, by name (without braces): each
/// `{name}` whose name is lower-case ASCII letters and underscores.
pub fn names(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find(['}', '{']) {
            Some(close) if after.as_bytes()[close] == b'}' => {
                let name = &after[..close];
                if !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
                    found.push(name);
                }
                rest = &after[close + 1..];
            }
            Some(close) => rest = &after[close..],
            None => break,
        }
    }
    found
}

/// The placeholders of `text` that are not [`KNOWN`].
pub fn unknown(text: &str) -> Vec<&str> {
    names(text).into_iter().filter(|name| !KNOWN.contains(name)).collect()
}

/// `text` with each `{name}` of `values` (name, value) replaced by its value, in one pass, so
/// a value that holds braces is never read as a placeholder.
pub fn fill(text: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after
            .find('}')
            .and_then(|close| values.iter().find(|(name, _)| *name == &after[..close]).map(|(_, v)| (close, *v)));
        match value {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A template that names a placeholder [`KNOWN`] does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "line {line}: the mail template {template} uses the unknown placeholder {{{name}}} (known: {known}); nothing was changed",
    known = KNOWN.map(|k| format!("{{{k}}}")).join(", ")
)]
pub struct UnknownPlaceholder {
    /// 1-based line of the seed where `{name}` is written (0 when the seed does not spell it).
    pub line: usize,
    pub template: String,
    pub name: String,
}

/// The first unknown placeholder of the templates (`(name, subject, body)`) a seed `sql`
/// stored, located on the seed's lines at or after its `mail_templates` insert.
pub fn check(sql: &str, templates: &[(String, String, String)]) -> Result<(), UnknownPlaceholder> {
    for (template, subject, body) in templates {
        let Some(name) = unknown(subject).into_iter().chain(unknown(body)).next() else { continue };
        let written = format!("{{{name}}}");
        let start = sql.lines().position(|l| l.contains("INSERT INTO mail_templates")).unwrap_or(0);
        let line = sql.lines().enumerate().skip(start).find(|(_, l)| l.contains(&written)).map_or(0, |(n, _)| n + 1);
        return Err(UnknownPlaceholder { line, template: template.clone(), name: name.to_owned() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_lower_case_words_in_braces() {
        assert_eq!(
            names("Dear {authors}, {title} ({reference}) {Title} { } {a{b} {x_y}"),
            ["authors", "title", "reference", "b", "x_y"]
        );
        assert_eq!(unknown("{title} {titel} {status_link}"), ["titel"]);
    }

    #[test]
    fn fill_replaces_known_names_once() {
        let values = [("title", "A {reference} title"), ("reference", "P-1")];
        assert_eq!(fill("{title} / {reference} / {other} / {", &values), "A {reference} title / P-1 / {other} / {");
    }

    #[test]
    fn check_names_the_line_and_the_placeholder() {
        let sql = "DELETE FROM mail_templates;\n-- {titel} in a comment above\nINSERT INTO mail_templates VALUES\n('decision_accepted', 'Accepted', 'Dear {authors},\n{titel} is in.');\n";
        let templates =
            vec![("decision_accepted".to_owned(), "Accepted".to_owned(), "Dear {authors},\n{titel} is in.".to_owned())];
        let err = check(sql, &templates).unwrap_err();
        assert_eq!((err.line, err.name.as_str(), err.template.as_str()), (5, "titel", "decision_accepted"));
        assert!(
            err.to_string()
                .starts_with("line 5: the mail template decision_accepted uses the unknown placeholder {titel}"),
            "{err}"
        );
        let fine = vec![("decision_rejected".to_owned(), "{reference}".to_owned(), "{organiser_note}".to_owned())];
        assert_eq!(check(sql, &fine), Ok(()));
    }
}
