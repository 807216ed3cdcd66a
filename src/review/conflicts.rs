//! Conflicts of interest between a reviewer and a paper (issue 32 item 3, DESIGN.md section
//! 15), found before any assignment: a conflicted reviewer is never assigned the paper and
//! never sees it, its reviews or its scores.
//!
//! The rules, in the order [`conflict`] tries them:
//! - the reviewer wrote it: the paper's submitting address is the reviewer's;
//! - a shared mail domain: the reviewer's domain is an author's, unless it is a webmail
//!   domain (the list is in the content seed: `gmail.com` says nothing about who works where);
//! - a shared affiliation, compared normalised ([`normalise_affiliation`]);
//! - a conflict declared by the reviewer or by organisers.
//!
//! Pure: the callers read the reviewers, papers, declarations and webmail list.

use std::collections::HashSet;

/// What the rules read of a reviewer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reviewer<'a> {
    pub email: &'a str,
    pub affiliation: &'a str,
}

/// What the rules read of a paper: its submitting address and its authors' institution (the
/// form has one affiliation field for the paper).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paper<'a> {
    pub email: &'a str,
    pub affiliation: &'a str,
}

/// Why a reviewer may not review a paper, in words an organiser acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflict {
    OwnPaper,
    SameDomain(String),
    SameAffiliation(String),
    Declared,
}

impl Conflict {
    /// The sentence the organiser pages show.
    pub fn message(&self) -> String {
        match self {
            Conflict::OwnPaper => "The reviewer submitted this paper.".into(),
            Conflict::SameDomain(domain) => format!("The reviewer and an author share the mail domain {domain}."),
            Conflict::SameAffiliation(name) => format!("The reviewer and the authors are both at {name}."),
            Conflict::Declared => "A conflict was declared.".into(),
        }
    }
}

/// The domain of an address, lower-case: `Ana@Tide.EDU` → `tide.edu`; `None` without an `@`.
pub fn domain(email: &str) -> Option<String> {
    let (_, domain) = email.trim().rsplit_once('@')?;
    let domain = domain.trim().trim_end_matches('.').to_lowercase();
    (!domain.is_empty()).then_some(domain)
}

/// An affiliation as the rules compare it: lower-case words of letters and digits, with
/// "the" and "of" dropped and "univ." read as "university", so `The University of Tides`,
/// `University of Tides,` and `Univ. of  Tides` are one institution.
pub fn normalise_affiliation(name: &str) -> String {
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .map(|w| if w == "univ" || w == "uni" { "university".to_owned() } else { w })
        .filter(|w| w != "the" && w != "of")
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first rule that keeps `reviewer` from `paper`, or `None`. `webmail` holds the
/// domains that make no conflict (lower-case); `declared` says whether the reviewer or an
/// organiser declared one for this pair.
pub fn conflict(
    reviewer: &Reviewer<'_>,
    paper: &Paper<'_>,
    webmail: &HashSet<String>,
    declared: bool,
) -> Option<Conflict> {
    if reviewer.email.trim().eq_ignore_ascii_case(paper.email.trim()) {
        return Some(Conflict::OwnPaper);
    }
    if let (Some(mine), Some(theirs)) = (domain(reviewer.email), domain(paper.email))
        && mine == theirs
        && !webmail.contains(&mine)
    {
        return Some(Conflict::SameDomain(mine));
    }
    let (mine, theirs) = (normalise_affiliation(reviewer.affiliation), normalise_affiliation(paper.affiliation));
    if !mine.is_empty() && mine == theirs {
        return Some(Conflict::SameAffiliation(paper.affiliation.trim().to_owned()));
    }
    declared.then_some(Conflict::Declared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn webmail() -> HashSet<String> {
        ["gmail.com", "yahoo.com"].into_iter().map(String::from).collect()
    }

    fn check(reviewer: (&str, &str), paper: (&str, &str), declared: bool) -> Option<Conflict> {
        conflict(
            &Reviewer { email: reviewer.0, affiliation: reviewer.1 },
            &Paper { email: paper.0, affiliation: paper.1 },
            &webmail(),
            declared,
        )
    }

    #[test]
    fn each_rule_is_found_in_order() {
        let r = ("Ana@Tide.edu", "Port Quill Polytechnic");
        assert_eq!(check(r, ("ana@tide.edu ", "Elsewhere"), false), Some(Conflict::OwnPaper));
        assert_eq!(check(r, ("ben@TIDE.edu", "Elsewhere"), false), Some(Conflict::SameDomain("tide.edu".into())));
        assert_eq!(
            check(r, ("cy@lantern.org", "The Port Quill Polytechnic,"), false),
            Some(Conflict::SameAffiliation("The Port Quill Polytechnic,".into()))
        );
        assert_eq!(check(r, ("cy@lantern.org", "Elsewhere"), true), Some(Conflict::Declared));
        assert_eq!(check(r, ("cy@lantern.org", "Elsewhere"), false), None);
    }

    #[test]
    fn webmail_domains_and_empty_affiliations_make_no_conflict() {
        assert_eq!(check(("ana@gmail.com", ""), ("ben@Gmail.com", ""), false), None);
        assert_eq!(check(("ana@x.org", "  "), ("ben@y.org", ""), false), None);
    }

    #[test]
    fn affiliations_compare_normalised() {
        assert_eq!(normalise_affiliation("The University of Tides"), "university tides");
        assert_eq!(normalise_affiliation("Univ. of  Tides,"), "university tides");
        assert_eq!(domain("no-at-sign"), None);
        assert_eq!(
            Conflict::SameDomain("tide.edu".into()).message(),
            "The reviewer and an author share the mail domain tide.edu."
        );
    }
}
