//! A camera-ready paper's details as its author types them (DESIGN.md section 18): title,
//! abstract, 3 to 5 keywords, and the ordered author list (name, affiliation, e-mail,
//! optional ORCID iD, exactly one corresponding author). [`DetailsForm::read`] takes the
//! plain form's fields; [`DetailsForm::check`] gives the [`Details`] to store or every
//! problem at once, keyed by the form's field names.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::orcid;
use crate::forms::validate::is_valid_email;

/// Fewest and most keywords.
pub const MIN_KEYWORDS: usize = 3;
pub const MAX_KEYWORDS: usize = 5;
/// Most authors of one paper.
pub const MAX_AUTHORS: usize = 20;
/// Longest title, keyword, name, affiliation, in characters.
pub const MAX_LINE_CHARS: usize = 300;
/// Longest abstract, in characters.
pub const MAX_ABSTRACT_CHARS: usize = 5000;

/// One author as typed: the form's fields `author-<n>-name`, `-affiliation`, `-email`,
/// `-orcid` (n from 1), all blank for an unused row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthorForm {
    pub name: String,
    pub affiliation: String,
    pub email: String,
    pub orcid: String,
}

impl AuthorForm {
    fn is_blank(&self) -> bool {
        [&self.name, &self.affiliation, &self.email, &self.orcid].iter().all(|v| v.trim().is_empty())
    }
}

/// The details form as sent: `title`, `abstract`, `keyword` (once per keyword, blanks
/// ignored), the author rows, and `corresponding` (the row number of the corresponding
/// author, once).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DetailsForm {
    pub title: String,
    pub abstract_text: String,
    pub keywords: Vec<String>,
    /// Rows in the form's order, blank ones included.
    pub authors: Vec<AuthorForm>,
    /// Every `corresponding` value sent.
    pub corresponding: Vec<String>,
}

/// One author as stored (the JSON of `camera_ready.authors`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Author {
    pub name: String,
    pub affiliation: String,
    pub email: String,
    /// Canonical `0000-0002-1825-0097`.
    pub orcid: Option<String>,
    pub corresponding: bool,
}

/// Details that passed [`DetailsForm::check`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Details {
    pub title: String,
    pub abstract_text: String,
    pub keywords: Vec<String>,
    /// In the paper's order; exactly one is corresponding.
    pub authors: Vec<Author>,
}

impl Details {
    /// The corresponding author (there is exactly one).
    pub fn corresponding(&self) -> Option<&Author> {
        self.authors.iter().find(|a| a.corresponding)
    }
}

/// Collapses runs of blanks to one space and trims.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl DetailsForm {
    /// Reads the form's (name, value) pairs; unknown fields are ignored, author rows above
    /// [`MAX_AUTHORS`] too (the page never offers them).
    pub fn read<'a>(pairs: impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)>) -> DetailsForm {
        let mut form = DetailsForm::default();
        for (name, value) in pairs {
            let value = value.into_owned();
            match name.as_ref() {
                "title" => form.title = value,
                "abstract" => form.abstract_text = value,
                "keyword" => form.keywords.push(value),
                "corresponding" => form.corresponding.push(value),
                other => {
                    let Some((row, field)) = other.strip_prefix("author-").and_then(|rest| rest.split_once('-')) else {
                        continue;
                    };
                    let Some(row) = row.parse::<usize>().ok().filter(|&r| (1..=MAX_AUTHORS).contains(&r)) else {
                        continue;
                    };
                    if form.authors.len() < row {
                        form.authors.resize(row, AuthorForm::default());
                    }
                    let author = &mut form.authors[row - 1];
                    match field {
                        "name" => author.name = value,
                        "affiliation" => author.affiliation = value,
                        "email" => author.email = value,
                        "orcid" => author.orcid = value,
                        _ => {}
                    }
                }
            }
        }
        form
    }

    /// The details to store, or each problem keyed by its field (`title`, `abstract`,
    /// `keywords`, `author-<n>-<field>`, `authors`, `corresponding`). Blank author rows
    /// are dropped and the others keep their order; the corresponding author is named by
    /// their row as the form numbered it.
    pub fn check(&self) -> Result<Details, BTreeMap<String, String>> {
        let mut errors = BTreeMap::new();
        let title = one_line(&self.title);
        if title.is_empty() {
            errors.insert("title".into(), "Enter the paper's title.".into());
        } else if title.chars().count() > MAX_LINE_CHARS {
            errors.insert("title".into(), format!("The title is longer than {MAX_LINE_CHARS} characters."));
        }
        let abstract_text = self.abstract_text.trim().replace("\r\n", "\n");
        if abstract_text.is_empty() {
            errors.insert("abstract".into(), "Enter the paper's abstract.".into());
        } else if abstract_text.chars().count() > MAX_ABSTRACT_CHARS {
            errors.insert("abstract".into(), format!("The abstract is longer than {MAX_ABSTRACT_CHARS} characters."));
        }
        let keywords: Vec<String> = self.keywords.iter().map(|k| one_line(k)).filter(|k| !k.is_empty()).collect();
        if !(MIN_KEYWORDS..=MAX_KEYWORDS).contains(&keywords.len()) {
            errors.insert(
                "keywords".into(),
                format!("Give {MIN_KEYWORDS} to {MAX_KEYWORDS} keywords; {} were given.", keywords.len()),
            );
        } else if keywords.iter().any(|k| k.chars().count() > MAX_LINE_CHARS) {
            errors.insert("keywords".into(), format!("A keyword is longer than {MAX_LINE_CHARS} characters."));
        }
        let corresponding = match self.corresponding.as_slice() {
            [] => {
                errors.insert("corresponding".into(), "Choose the corresponding author: exactly one.".into());
                None
            }
            [one] => one.trim().parse::<usize>().ok(),
            _ => {
                errors.insert(
                    "corresponding".into(),
                    "Only one author can be the corresponding author; more than one was chosen.".into(),
                );
                None
            }
        };
        let mut authors = Vec::new();
        let mut corresponding_found = false;
        for (index, typed) in self.authors.iter().enumerate() {
            let row = index + 1;
            if typed.is_blank() {
                continue;
            }
            let key = |field: &str| format!("author-{row}-{field}");
            let name = one_line(&typed.name);
            let affiliation = one_line(&typed.affiliation);
            let email = typed.email.trim().to_owned();
            if name.is_empty() || name.chars().count() > MAX_LINE_CHARS {
                errors.insert(key("name"), format!("Enter author {row}'s name (at most {MAX_LINE_CHARS} characters)."));
            }
            if affiliation.is_empty() || affiliation.chars().count() > MAX_LINE_CHARS {
                errors.insert(
                    key("affiliation"),
                    format!("Enter author {row}'s affiliation (at most {MAX_LINE_CHARS} characters)."),
                );
            }
            if !is_valid_email(&email) {
                errors.insert(key("email"), format!("Enter author {row}'s e-mail address, such as name@example.org."));
            }
            let orcid = if typed.orcid.trim().is_empty() {
                None
            } else {
                match orcid::parse(&typed.orcid) {
                    Ok(id) => Some(id),
                    Err(err) => {
                        errors.insert(key("orcid"), format!("Author {row}'s ORCID iD: {err}."));
                        None
                    }
                }
            };
            let is_corresponding = corresponding == Some(row);
            corresponding_found |= is_corresponding;
            authors.push(Author { name, affiliation, email, orcid, corresponding: is_corresponding });
        }
        if authors.is_empty() {
            errors.insert("authors".into(), "Enter at least one author.".into());
        }
        if corresponding.is_some() && !corresponding_found && !errors.contains_key("corresponding") {
            errors.insert("corresponding".into(), "The corresponding author must be one of the authors listed.".into());
        } else if self.corresponding.len() == 1 && corresponding.is_none() {
            errors.insert("corresponding".into(), "Choose the corresponding author: exactly one.".into());
        }
        if errors.is_empty() { Ok(Details { title, abstract_text, keywords, authors }) } else { Err(errors) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> DetailsForm {
        DetailsForm::read(pairs.iter().map(|&(n, v)| (Cow::Borrowed(n), Cow::Borrowed(v))))
    }

    const GOOD: [(&str, &str); 11] = [
        ("title", " A  study "),
        ("abstract", "Text."),
        ("keyword", "tides"),
        ("keyword", "bells"),
        ("keyword", ""),
        ("keyword", "lanterns"),
        ("author-1-name", "Ana Cruz"),
        ("author-1-affiliation", "Harbour University"),
        ("author-1-email", "ana@example.org"),
        ("author-1-orcid", "0000-0002-1825-0097"),
        ("corresponding", "1"),
    ];

    #[test]
    fn a_good_form_reads_and_blank_rows_drop() {
        let mut pairs = GOOD.to_vec();
        pairs.extend([
            ("author-3-name", "Ben Reyes"),
            ("author-3-affiliation", "U"),
            ("author-3-email", "ben@example.org"),
        ]);
        let details = form(&pairs).check().unwrap();
        assert_eq!(details.title, "A study");
        assert_eq!(details.keywords, ["tides", "bells", "lanterns"]);
        assert_eq!(details.authors.len(), 2);
        assert_eq!(details.corresponding().unwrap().name, "Ana Cruz");
        assert!(!details.authors[1].corresponding);
    }

    #[test]
    fn two_or_no_corresponding_authors_are_refused() {
        let mut two = GOOD.to_vec();
        two.push(("corresponding", "2"));
        assert!(form(&two).check().unwrap_err()["corresponding"].contains("Only one"));
        let none: Vec<_> = GOOD.iter().copied().filter(|(n, _)| *n != "corresponding").collect();
        assert!(form(&none).check().unwrap_err()["corresponding"].contains("exactly one"));
        let blank_row: Vec<_> =
            GOOD.iter().map(|&(n, v)| if n == "corresponding" { (n, "4") } else { (n, v) }).collect();
        assert!(form(&blank_row).check().unwrap_err()["corresponding"].contains("one of the authors"));
    }
}
