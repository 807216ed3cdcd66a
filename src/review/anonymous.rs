//! What reviewers may learn of a paper's authors (issue 32 item 5, DESIGN.md section 15).
//!
//! In `double_anonymous` mode no reviewer page, download name or mail shows an author's
//! name, e-mail, affiliation (university or organisation, department), country or phone,
//! nor the submission's reference (reviewers know a paper by its review code). In
//! `single_anonymous` and `open` mode the authors' names and affiliation show; their e-mail,
//! phone and the reference never do.
//!
//! The text reviewers read about a paper (its public abstract, or the author's message when
//! there is none) was written by the authors and may name them: it is shown with every
//! hidden string of the paper's own authors replaced ([`redact`]).

/// What stands in a text where an author's detail was.
pub const REDACTED: &str = "[withheld]";

/// What the rules read of a paper's authors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Authors<'a> {
    /// The submitter's name.
    pub name: &'a str,
    pub author_name: &'a str,
    /// Co-authors as typed: names separated by commas, semicolons, `and` or `&`.
    pub co_author_name: &'a str,
    pub email: &'a str,
    pub phone: &'a str,
    pub country: &'a str,
    pub department: &'a str,
    pub university_organization: &'a str,
    pub reference: &'a str,
}

/// The authors' details a reviewer may see (single-anonymous and open modes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The author and co-authors, one name each.
    pub names: Vec<String>,
    /// `Department, University`.
    pub affiliation: String,
}

/// One name per author: the author, then each co-author, without repeats or blanks.
pub fn names(authors: &Authors<'_>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in std::iter::once(authors.author_name).chain(split_names(authors.co_author_name)) {
        let name = name.trim();
        if !name.is_empty() && !names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
            names.push(name.to_owned());
        }
    }
    names
}

fn split_names(list: &str) -> impl Iterator<Item = &str> {
    list.split([',', ';', '&', '\n']).flat_map(|part| part.split(" and "))
}

/// What a reviewer sees of the authors: nothing when `hides_authors` (double-anonymous).
pub fn shown(authors: &Authors<'_>, hides_authors: bool) -> Option<Shown> {
    if hides_authors {
        return None;
    }
    let affiliation = [authors.department.trim(), authors.university_organization.trim()]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(", ");
    Some(Shown { names: names(authors), affiliation })
}

/// The strings of `authors` a reviewer may not read: e-mail (and its domain), phone and
/// reference always; with `hides_authors` also every name, the department, the institution
/// and the country. Strings of fewer than three characters are left out (they would match
/// inside ordinary words).
pub fn hidden_strings(authors: &Authors<'_>, hides_authors: bool) -> Vec<String> {
    let mut hidden: Vec<String> = vec![authors.email.trim().to_owned(), authors.phone.trim().to_owned()];
    if let Some((_, domain)) = authors.email.trim().rsplit_once('@') {
        hidden.push(domain.to_owned());
    }
    hidden.push(authors.reference.trim().to_owned());
    if hides_authors {
        hidden.push(authors.name.trim().to_owned());
        hidden.extend(names(authors));
        hidden.push(authors.department.trim().to_owned());
        hidden.push(authors.university_organization.trim().to_owned());
        hidden.push(authors.country.trim().to_owned());
    }
    hidden.retain(|s| s.chars().count() >= 3);
    // Longest first, so a full name goes before a part of it.
    hidden.sort_by_key(|s| std::cmp::Reverse(s.chars().count()));
    hidden.dedup();
    hidden
}

/// `text` with every occurrence of each of `hidden` (compared case-insensitively) replaced by
/// [`REDACTED`].
pub fn redact(text: &str, hidden: &[String]) -> String {
    let mut out = text.to_owned();
    for needle in hidden {
        out = replace_ignoring_case(&out, needle);
    }
    out
}

/// `haystack` with each whole-word occurrence of `needle` (case-insensitive) replaced: a
/// match bordered by a letter or digit is part of another word (`Ana` in `analysis`).
fn replace_ignoring_case(haystack: &str, needle: &str) -> String {
    let wanted: Vec<char> = needle.chars().flat_map(char::to_lowercase).collect();
    if wanted.is_empty() {
        return haystack.to_owned();
    }
    let mut out = String::with_capacity(haystack.len());
    let mut rest = haystack;
    let mut after_word = false;
    while let Some(first) = rest.chars().next() {
        if !after_word && let Some(end) = match_at(rest, &wanted) {
            let next_is_word = rest[end..].chars().next().is_some_and(char::is_alphanumeric);
            if !next_is_word {
                out.push_str(REDACTED);
                after_word = rest[..end].chars().last().is_some_and(char::is_alphanumeric);
                rest = &rest[end..];
                continue;
            }
        }
        out.push(first);
        after_word = first.is_alphanumeric();
        rest = &rest[first.len_utf8()..];
    }
    out
}

/// The byte length of the start of `text` that reads as `wanted` (lower-cased characters),
/// if it does and ends on a whole character.
fn match_at(text: &str, wanted: &[char]) -> Option<usize> {
    let mut got = text.char_indices().flat_map(|(at, c)| c.to_lowercase().map(move |l| (at, c, l)));
    let mut end = 0;
    for want in wanted {
        let (at, c, lower) = got.next()?;
        if lower != *want {
            return None;
        }
        end = at + c.len_utf8();
    }
    // A character whose lower case is longer must be matched whole.
    match got.next() {
        Some((at, _, _)) if at < end => None,
        _ => Some(end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn authors() -> Authors<'static> {
        Authors {
            name: "Zephyrine Quillbottom",
            author_name: "Zephyrine Quillbottom",
            co_author_name: "Oswin Marchbanks and Tilda Fenwick; Ana",
            email: "zq@quillbottom-labs.example",
            phone: "+4915112345678",
            country: "Tuvalu",
            department: "Bioluminescent Cartography",
            university_organization: "Grimsditch Polytechnic",
            reference: "P-2025-ABC123",
        }
    }

    #[test]
    fn names_are_split_and_affiliation_joined_when_shown() {
        assert_eq!(names(&authors()), ["Zephyrine Quillbottom", "Oswin Marchbanks", "Tilda Fenwick", "Ana"]);
        assert_eq!(shown(&authors(), true), None);
        let shown = shown(&authors(), false).unwrap();
        assert_eq!(shown.affiliation, "Bioluminescent Cartography, Grimsditch Polytechnic");
    }

    #[test]
    fn an_authors_text_loses_every_hidden_string() {
        let text = "Corresponding author: ZEPHYRINE QUILLBOTTOM (zq@quillbottom-labs.example, +4915112345678), \
                    Grimsditch Polytechnic, Tuvalu. See quillbottom-labs.example. Ref P-2025-ABC123.";
        let hidden = hidden_strings(&authors(), true);
        let redacted = redact(text, &hidden);
        for gone in ["ZEPHYRINE", "quillbottom", "+49151", "Grimsditch", "Tuvalu", "P-2025"] {
            assert!(!redacted.to_lowercase().contains(&gone.to_lowercase()), "{gone} in {redacted}");
        }
        assert!(redacted.starts_with("Corresponding author: [withheld] ([withheld], [withheld])"), "{redacted}");
        // Single-anonymous: names and affiliation stay, contact details go.
        let open = redact(text, &hidden_strings(&authors(), false));
        assert!(open.contains("ZEPHYRINE QUILLBOTTOM") && open.contains("Tuvalu"), "{open}");
        assert!(!open.contains("+4915112345678") && !open.contains("P-2025-ABC123"), "{open}");
        // Whole words only: "Ana" is not in "Banana" or "analysis".
        assert_eq!(
            redact("Banana, Ana; ana-lysis analysis", &["ana".into()]),
            "Banana, [withheld]; [withheld]-lysis analysis"
        );
        assert_eq!(redact("Straße İstanbul", &["STRASSE".into()]), "Straße İstanbul");
        assert_eq!(redact("ça va", &["ÇA".into()]), "[withheld] va");
    }
}
