//! The conflicts of a draft programme (issue 31 item 2): shown on `/organiser/programme` as
//! they arise, and publishing is refused while any remains.

use time::PrimitiveDateTime;

use super::draft::{PLACEABLE_KINDS, Paper, Placement};
use crate::repo::published::{Published, Talk};
use crate::seed::session_rules::parse_local;

/// One reason the draft cannot be published, in words an organiser acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflict {
    /// One presenting author (the papers' submitting address) in two sessions that overlap.
    PresenterTwice { presenter: String, first: String, first_session: String, second: String, second_session: String },
    /// A talk that ends after its session does, by `minutes`.
    Overrun { talk: String, session: String, minutes: i64 },
    /// A placed paper whose state is no longer `accepted`.
    NotAccepted { talk: String, state: String },
    /// A placement in a session the seed no longer has, or one that takes no papers.
    NoSuchSession { talk: String, session: String },
}

impl Conflict {
    /// The sentence the organiser page shows.
    pub fn message(&self) -> String {
        match self {
            Conflict::PresenterTwice { presenter, first, first_session, second, second_session } => format!(
                "{presenter} presents “{first}” in {first_session} and “{second}” in {second_session}, which overlap."
            ),
            Conflict::Overrun { talk, session, minutes } => {
                format!("“{talk}” runs {minutes} min past the end of {session}.")
            }
            Conflict::NotAccepted { talk, state } => format!("“{talk}” is {state}, no longer accepted."),
            Conflict::NoSuchSession { talk, session } => {
                format!("“{talk}” is placed in session {session}, which does not take papers or no longer exists.")
            }
        }
    }
}

/// Every conflict of `draft` (made by [`super::draft::draft`] from `placements` and
/// `papers`), in a fixed order: placements first, then overruns, then presenters.
pub fn conflicts(draft: &Published, placements: &[Placement], papers: &[Paper]) -> Vec<Conflict> {
    let mut found = Vec::new();
    for placement in placements {
        let Some(paper) = papers.iter().find(|p| p.id == placement.submission_id) else { continue };
        let placeable =
            draft.session(&placement.session).is_some_and(|s| PLACEABLE_KINDS.contains(&s.session.kind.as_str()));
        if !placeable {
            found.push(Conflict::NoSuchSession { talk: paper.title.clone(), session: placement.session.clone() });
        }
        if paper.state != "accepted" {
            found.push(Conflict::NotAccepted { talk: paper.title.clone(), state: paper.state.clone() });
        }
    }
    for talk in draft.talks.iter().filter(|t| t.submission.is_some()) {
        let (Some((_, talk_end)), Some((_, session_end))) = (talk_span(talk), session_span(draft, &talk.session))
        else {
            continue;
        };
        if talk_end > session_end {
            found.push(Conflict::Overrun {
                talk: talk.title.clone(),
                session: session_title(draft, &talk.session),
                minutes: (talk_end - session_end).whole_minutes(),
            });
        }
    }
    let placed: Vec<(&Talk, &Paper)> =
        draft.talks.iter().filter_map(|t| Some((t, papers.iter().find(|p| Some(p.id) == t.submission)?))).collect();
    for (i, (a, paper_a)) in placed.iter().enumerate() {
        for (b, paper_b) in &placed[i + 1..] {
            if a.session == b.session || paper_a.email.is_empty() || paper_a.email != paper_b.email {
                continue;
            }
            let (Some(span_a), Some(span_b)) = (session_span(draft, &a.session), session_span(draft, &b.session))
            else {
                continue;
            };
            if span_a.0 < span_b.1 && span_b.0 < span_a.1 {
                found.push(Conflict::PresenterTwice {
                    presenter: paper_a.email.clone(),
                    first: a.title.clone(),
                    first_session: session_title(draft, &a.session),
                    second: b.title.clone(),
                    second_session: session_title(draft, &b.session),
                });
            }
        }
    }
    found
}

/// A talk's start and end, wall clock in the event's zone.
pub fn talk_span(talk: &Talk) -> Option<(PrimitiveDateTime, PrimitiveDateTime)> {
    let start = parse_local(&talk.starts_at)?;
    Some((start, start + time::Duration::minutes(talk.minutes)))
}

fn session_span(draft: &Published, slug: &str) -> Option<(PrimitiveDateTime, PrimitiveDateTime)> {
    let s = &draft.session(slug)?.session;
    Some((parse_local(&s.starts_at)?, parse_local(&s.ends_at)?))
}

fn session_title(draft: &Published, slug: &str) -> String {
    draft.session(slug).map_or_else(|| slug.to_owned(), |s| s.session.title.clone())
}

/// Minutes a session has left once its placed talks are counted (negative: over time).
pub fn minutes_left(draft: &Published, session: &str) -> Option<i64> {
    let (start, end) = session_span(draft, session)?;
    let used: i64 = draft.talks_of(session).filter(|t| t.submission.is_some()).map(|t| t.minutes).sum();
    Some((end - start).whole_minutes() - used)
}

#[cfg(test)]
mod tests {
    use super::super::draft::draft;
    use super::super::draft::tests::{paper, place, seed_of, session};
    use super::*;

    #[test]
    fn each_rule_is_found_and_named() {
        let sessions = [
            session("a", "technical", "2025-03-22 09:00", "2025-03-22 10:00"),
            session("b", "poster", "2025-03-22 09:30", "2025-03-22 11:00"),
            session("c", "technical", "2025-03-22 10:00", "2025-03-22 11:00"),
            session("brk", "break", "2025-03-22 11:00", "2025-03-22 11:30"),
        ];
        let mut papers = vec![
            paper(1, "One", "same@x.org"),
            paper(2, "Two", "same@x.org"),
            paper(3, "Three", "same@x.org"),
            paper(4, "Four", "four@x.org"),
            paper(5, "Five", "five@x.org"),
        ];
        papers[4].state = "withdrawn".into();
        let placements = [
            place(1, "a", 1, 50),
            place(4, "a", 2, 20),
            place(2, "b", 1, 10),
            place(3, "c", 1, 10),
            place(5, "brk", 1, 10),
        ];
        let d = draft(&seed_of(&sessions), &placements, &papers, None);
        let messages: Vec<String> = conflicts(&d, &placements, &papers).iter().map(Conflict::message).collect();
        assert_eq!(
            messages,
            [
                "“Five” is placed in session brk, which does not take papers or no longer exists.",
                "“Five” is withdrawn, no longer accepted.",
                "“Four” runs 10 min past the end of Session a.",
                "same@x.org presents “One” in Session a and “Two” in Session b, which overlap.",
                "same@x.org presents “Two” in Session b and “Three” in Session c, which overlap.",
            ]
        );
        assert_eq!(minutes_left(&d, "a"), Some(-10));
        assert_eq!(minutes_left(&d, "c"), Some(50));
    }

    #[test]
    fn back_to_back_sessions_and_one_session_are_no_conflict() {
        let sessions = [
            session("a", "technical", "2025-03-22 09:00", "2025-03-22 10:00"),
            session("c", "technical", "2025-03-22 10:00", "2025-03-22 11:00"),
        ];
        let papers = [paper(1, "One", "same@x.org"), paper(2, "Two", "same@x.org"), paper(3, "Three", "same@x.org")];
        let placements = [place(1, "a", 1, 30), place(2, "a", 2, 30), place(3, "c", 1, 60)];
        let d = draft(&seed_of(&sessions), &placements, &papers, None);
        assert_eq!(conflicts(&d, &placements, &papers), []);
    }
}
