//! The draft programme (issue 31 item 2): the seed's sessions with the organisers' placement
//! of accepted papers and the seed's keynote speakers, in the shape a version is published
//! in. Pure: the same inputs give the same draft, so the organiser page, publishing and the
//! tests all build it with [`draft`].

use std::collections::HashSet;

use time::{Duration, PrimitiveDateTime};

use crate::repo::content::{Room, Session, Speaker, Track};
pub use crate::repo::programme::Placement;
use crate::repo::published::{Published, PublishedSession, Talk};
use crate::repo::submissions::Submission;
use crate::seed::session_rules::{format_local, parse_local};

/// Session kinds that hold placed papers (issue 31 item 2).
pub const PLACEABLE_KINDS: [&str; 2] = ["technical", "poster"];

/// What the programme takes from a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paper {
    pub id: i64,
    pub reference: String,
    pub title: String,
    pub authors: Vec<String>,
    pub affiliation: String,
    /// The submitting author's address: how two papers' presenters are matched (item 2) and
    /// where a moved talk's mail goes (item 3). Never published.
    pub email: String,
    /// `submitted`, `accepted`, `rejected` or `withdrawn`.
    pub state: String,
    /// The chosen presenter, or the first author when none was chosen.
    pub presenter: String,
    pub r#abstract: String,
    /// `Oral` or `Poster`.
    pub format: String,
}

impl Paper {
    pub fn of(submission: &Submission, presenter: &str, public_abstract: &str) -> Paper {
        let s = &submission.submitted;
        let authors = authors(&s.author_name, &s.co_author_name);
        let presenter = authors
            .iter()
            .find(|a| a.eq_ignore_ascii_case(presenter.trim()))
            .or(authors.first())
            .cloned()
            .unwrap_or_default();
        Paper {
            id: submission.id,
            reference: s.reference.clone(),
            title: s.paper_title.trim().to_owned(),
            authors,
            affiliation: s.university_organization.trim().to_owned(),
            email: s.email.trim().to_lowercase(),
            state: submission.state.clone(),
            presenter,
            r#abstract: public_abstract.trim().to_owned(),
            format: s.presentation_type.clone(),
        }
    }
}

impl Paper {
    /// Whether its authors asked to present it as a poster and a session of `session_kind`
    /// is an oral one (only `poster` sessions are not).
    pub fn poster_in_oral_session(&self, session_kind: &str) -> bool {
        self.format.trim().eq_ignore_ascii_case("Poster") && session_kind != "poster"
    }
}

/// The authors of a paper in order: the author, then the co-authors as typed, split at
/// commas, semicolons, "and" and "&" (the form has one free-text co-author field).
pub fn authors(author: &str, co_authors: &str) -> Vec<String> {
    let mut names = vec![author.trim().to_owned()];
    let co = co_authors.replace(" and ", ",").replace(['&', ';'], ",");
    names.extend(co.split(',').map(str::trim).filter(|n| !n.is_empty()).map(str::to_owned));
    names.retain(|n| !n.is_empty());
    let mut seen = HashSet::new();
    names.retain(|n| seen.insert(n.to_lowercase()));
    names
}

/// The content the draft is made of: the seed's programme and speakers.
pub struct Seed<'a> {
    pub rooms: &'a [Room],
    pub tracks: &'a [Track],
    pub sessions: &'a [Session],
    pub speakers: &'a [Speaker],
}

/// The draft: every seed session, each keynote with its speaker as a talk, and each placed
/// paper as a talk starting after the ones before it. Slugs and `SEQUENCE`s continue from
/// `previous`, so calendar entries and addresses stay the same across versions. The number,
/// name and publication time are left for publishing to fill.
///
/// A placement in a session the seed no longer has, or of a paper not in `papers`, is left
/// out here; [`super::conflicts`] reports it.
pub fn draft(seed: &Seed<'_>, placements: &[Placement], papers: &[Paper], previous: Option<&Published>) -> Published {
    let sessions: Vec<PublishedSession> = seed
        .sessions
        .iter()
        .map(|session| {
            let sequence = match previous.and_then(|p| p.session(&session.slug)) {
                Some(before) if same_session(&before.session, session) => before.sequence,
                Some(before) => before.sequence + 1,
                None => 0,
            };
            PublishedSession { session: session.clone(), sequence }
        })
        .collect();
    let mut slugs = Slugs::new(previous);
    let mut talks = Vec::new();
    for session in seed.sessions {
        let Some(start) = parse_local(&session.starts_at) else { continue };
        if session.kind == "keynote"
            && let Some(speaker) = session.speaker.as_ref().and_then(|id| seed.speakers.iter().find(|s| &s.id == id))
        {
            let minutes = parse_local(&session.ends_at).map_or(0, |end| (end - start).whole_minutes());
            let known = previous.and_then(|p| {
                p.talks.iter().find(|t| t.speaker.as_deref() == Some(&speaker.id) && t.session == session.slug)
            });
            let slug = slugs.keep_or_make(known.map(|t| t.slug.as_str()), &session.title);
            talks.push(Talk {
                slug,
                submission: None,
                speaker: Some(speaker.id.clone()),
                session: session.slug.clone(),
                position: 1,
                starts_at: session.starts_at.clone(),
                minutes,
                title: session.title.clone(),
                authors: vec![speaker.name.clone()],
                affiliation: speaker.role.clone(),
                presenter: speaker.name.clone(),
                r#abstract: speaker.bio.clone(),
                format: "Keynote".into(),
                sequence: 0,
            });
        }
        let mut placed: Vec<&Placement> = placements.iter().filter(|p| p.session == session.slug).collect();
        placed.sort_by_key(|p| (p.position, p.submission_id));
        let mut at: PrimitiveDateTime = start;
        for (index, placement) in placed.into_iter().enumerate() {
            let Some(paper) = papers.iter().find(|p| p.id == placement.submission_id) else { continue };
            let known = previous.and_then(|p| p.talks.iter().find(|t| t.submission == Some(paper.id)));
            let slug = slugs.keep_or_make(known.map(|t| t.slug.as_str()), &paper.title);
            talks.push(Talk {
                slug,
                submission: Some(paper.id),
                speaker: None,
                session: session.slug.clone(),
                position: index as i64 + 1,
                starts_at: format_local(at),
                minutes: placement.minutes,
                title: paper.title.clone(),
                authors: paper.authors.clone(),
                affiliation: paper.affiliation.clone(),
                presenter: paper.presenter.clone(),
                r#abstract: paper.r#abstract.clone(),
                format: paper.format.clone(),
                sequence: 0,
            });
            at += Duration::minutes(placement.minutes);
        }
    }
    for talk in &mut talks {
        talk.sequence = match previous.and_then(|p| p.talk(&talk.slug)) {
            Some(before) if same_talk(before, talk) => before.sequence,
            Some(before) => before.sequence + 1,
            None => 0,
        };
    }
    Published {
        number: 0,
        name: String::new(),
        published_at: String::new(),
        rooms: seed.rooms.to_vec(),
        tracks: seed.tracks.to_vec(),
        sessions,
        talks,
    }
}

/// What a calendar entry of a session shows; `created` and `updated` are bookkeeping.
fn same_session(a: &Session, b: &Session) -> bool {
    (&a.title, &a.description, &a.room, &a.starts_at, &a.ends_at, &a.mode, &a.chair)
        == (&b.title, &b.description, &b.room, &b.starts_at, &b.ends_at, &b.mode, &b.chair)
}

fn same_talk(a: &Talk, b: &Talk) -> bool {
    (&a.session, &a.starts_at, a.minutes, &a.title, &a.authors, &a.presenter, &a.r#abstract)
        == (&b.session, &b.starts_at, b.minutes, &b.title, &b.authors, &b.presenter, &b.r#abstract)
}

/// Talk slugs: a talk keeps the one it was first published under; a new talk gets one made
/// from its title that no talk of this or the previous version has.
struct Slugs {
    taken: HashSet<String>,
}

impl Slugs {
    fn new(previous: Option<&Published>) -> Slugs {
        Slugs { taken: previous.map(|p| p.talks.iter().map(|t| t.slug.clone()).collect()).unwrap_or_default() }
    }

    fn keep_or_make(&mut self, known: Option<&str>, title: &str) -> String {
        if let Some(slug) = known {
            return slug.to_owned();
        }
        let base = slugify(title);
        let base = if base.is_empty() { "talk".to_owned() } else { base };
        let mut slug = base.clone();
        let mut n = 2;
        while self.taken.contains(&slug) {
            slug = format!("{base}-{n}");
            n += 1;
        }
        self.taken.insert(slug.clone());
        slug
    }
}

/// Lower-case ASCII letters and digits joined by hyphens, at most 60 characters and cut at a
/// word: `Tidal computing: a survey` → `tidal-computing-a-survey`.
pub fn slugify(title: &str) -> String {
    let mut slug = String::new();
    for word in title.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        let word = word.to_ascii_lowercase();
        if !slug.is_empty() && slug.len() + 1 + word.len() > 60 {
            break;
        }
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.push_str(&word[..word.len().min(60)]);
    }
    slug
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn session(slug: &str, kind: &str, starts_at: &str, ends_at: &str) -> Session {
        Session {
            slug: slug.into(),
            title: format!("Session {slug}"),
            description: String::new(),
            kind: kind.into(),
            track: None,
            room: "hall".into(),
            starts_at: starts_at.into(),
            ends_at: ends_at.into(),
            mode: "hybrid".into(),
            chair: None,
            speaker: None,
            created: String::new(),
            updated: String::new(),
        }
    }

    pub fn paper(id: i64, title: &str, email: &str) -> Paper {
        Paper {
            id,
            reference: format!("P-{id}"),
            title: title.into(),
            authors: vec![format!("Author {id}"), "Co Author".into()],
            affiliation: "Tide University".into(),
            email: email.into(),
            state: "accepted".into(),
            presenter: format!("Author {id}"),
            r#abstract: String::new(),
            format: "Oral".into(),
        }
    }

    pub fn place(submission_id: i64, session: &str, position: i64, minutes: i64) -> Placement {
        Placement { submission_id, session: session.into(), position, minutes }
    }

    pub fn seed_of(sessions: &[Session]) -> Seed<'_> {
        Seed { rooms: &[], tracks: &[], sessions, speakers: &[] }
    }

    #[test]
    fn talks_follow_each_other_in_their_order() {
        let sessions = [session("a", "technical", "2025-03-22 09:00", "2025-03-22 10:00")];
        let papers = [paper(1, "First", "a@x.org"), paper(2, "Second", "b@x.org")];
        let draft = draft(&seed_of(&sessions), &[place(2, "a", 1, 20), place(1, "a", 2, 15)], &papers, None);
        let talks: Vec<(&str, &str, i64)> =
            draft.talks.iter().map(|t| (t.slug.as_str(), t.starts_at.as_str(), t.position)).collect();
        assert_eq!(talks, [("second", "2025-03-22 09:00", 1), ("first", "2025-03-22 09:20", 2)]);
    }

    #[test]
    fn slugs_and_sequences_carry_over_and_rise_on_change() {
        let sessions = [session("a", "technical", "2025-03-22 09:00", "2025-03-22 10:00")];
        let mut papers = [paper(1, "Same title", "a@x.org"), paper(2, "Same title", "b@x.org")];
        let v1 = draft(&seed_of(&sessions), &[place(1, "a", 1, 20), place(2, "a", 2, 20)], &papers, None);
        assert_eq!(v1.talks[0].slug, "same-title");
        assert_eq!(v1.talks[1].slug, "same-title-2");
        papers[0].title = "A new title".into();
        let v2 = draft(&seed_of(&sessions), &[place(1, "a", 1, 20), place(2, "a", 2, 20)], &papers, Some(&v1));
        assert_eq!(v2.talks[0].slug, "same-title", "a published talk keeps its address");
        assert_eq!((v2.talks[0].sequence, v2.talks[1].sequence), (1, 0));
        assert_eq!(v2.sessions[0].sequence, 0);
    }

    #[test]
    fn keynotes_come_from_the_seed_speakers() {
        let mut keynote = session("k", "keynote", "2025-03-21 10:00", "2025-03-21 10:45");
        keynote.speaker = Some("spk".into());
        let speakers = [Speaker {
            id: "spk".into(),
            position: 1,
            category: "keynote".into(),
            name: "Prof. Tide".into(),
            role: "Professor, Tide University".into(),
            image: String::new(),
            bio: "Studies tides.".into(),
            created: String::new(),
            updated: String::new(),
        }];
        let sessions = [keynote];
        let seed = Seed { rooms: &[], tracks: &[], sessions: &sessions, speakers: &speakers };
        let draft = draft(&seed, &[], &[], None);
        assert_eq!(draft.talks.len(), 1);
        assert_eq!(draft.talks[0].authors, ["Prof. Tide"]);
        assert_eq!(draft.talks[0].minutes, 45);
        assert_eq!(draft.talks[0].format, "Keynote");
    }

    #[test]
    fn authors_split_the_co_author_field() {
        assert_eq!(
            authors(" Ana Cruz ", "Ben Uy, Cy Lim and Di Tan; ana cruz"),
            ["Ana Cruz", "Ben Uy", "Cy Lim", "Di Tan"]
        );
        assert_eq!(slugify("Tidal computing: a survey (2025)"), "tidal-computing-a-survey-2025");
    }
}
