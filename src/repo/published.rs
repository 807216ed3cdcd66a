//! The stored shape of a published programme version (issue 31 item 3, DESIGN.md section 14):
//! the sessions, rooms and tracks of the seed and the talks placed in them, frozen when an
//! organiser publishes (`crate::programme::publish`). Visitors only ever see the latest one;
//! it is kept as JSON in `programme_versions.programme` and read into the content snapshot.

use serde::{Deserialize, Serialize};

use super::content::{Room, Session, Track};

/// One frozen version. `number` counts from 1; `published_at` is RFC 3339 UTC.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Published {
    pub number: i64,
    /// The name organisers gave it (`<version>` of the frab XML).
    pub name: String,
    pub published_at: String,
    pub rooms: Vec<Room>,
    pub tracks: Vec<Track>,
    pub sessions: Vec<PublishedSession>,
    /// Every talk, by session then position.
    pub talks: Vec<Talk>,
}

/// A session as published, with the `SEQUENCE` of its calendar entry (RFC 5545 section
/// 3.8.7.4): 0 when first published, raised by each version that changes its time, room,
/// title or mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishedSession {
    #[serde(flatten)]
    pub session: Session,
    pub sequence: i64,
}

/// A talk: a placed accepted paper, or a keynote given by one of the seed's speakers.
///
/// Public fields only (DESIGN.md section 14): never an e-mail, phone number or paper file.
/// `submission` is kept so the next version knows which paper a talk is; no page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Talk {
    /// Stable across versions: made from the title when the talk is first published.
    pub slug: String,
    /// The paper's `submissions.id`; `None` for a keynote.
    pub submission: Option<i64>,
    /// The seed speaker's id for a keynote.
    pub speaker: Option<String>,
    /// The session's slug.
    pub session: String,
    /// 1, 2, ... within the session.
    pub position: i64,
    /// `YYYY-MM-DD HH:MM` in the event's zone, like the seed's sessions.
    pub starts_at: String,
    pub minutes: i64,
    pub title: String,
    /// Authors' names in the paper's order.
    pub authors: Vec<String>,
    /// The authors' institution as the paper gives it (a speaker's role for a keynote).
    pub affiliation: String,
    /// The author who presents it; one of `authors`.
    pub presenter: String,
    /// The public abstract (at most 300 words); empty when none was given.
    pub r#abstract: String,
    /// `Oral`, `Poster` or `Keynote`.
    pub format: String,
    /// As for sessions: raised when the talk's time, session or title changes.
    pub sequence: i64,
}

/// The changelog line of a version: what `/schedule/changes` lists under it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Change {
    TalkAdded { talk: String, title: String, to: Slot },
    TalkMoved { talk: String, title: String, from: Slot, to: Slot },
    TalkRemoved { talk: String, title: String, from: Slot },
    SessionAdded { session: String, title: String, to: Slot },
    SessionRetimed { session: String, title: String, from: Slot, to: Slot },
    SessionRemoved { session: String, title: String, from: Slot },
}

/// Where and when something is: a session's title and room, and a start and end in the
/// event's zone (`YYYY-MM-DD HH:MM`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    pub session: String,
    pub room: String,
    pub starts_at: String,
    pub ends_at: String,
}

/// A version as the changelog lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionSummary {
    pub number: i64,
    pub name: String,
    pub published_at: String,
    pub changes: Vec<Change>,
}

impl Published {
    pub fn session(&self, slug: &str) -> Option<&PublishedSession> {
        self.sessions.iter().find(|s| s.session.slug == slug)
    }

    pub fn talk(&self, slug: &str) -> Option<&Talk> {
        self.talks.iter().find(|t| t.slug == slug)
    }

    /// The talks of a session in their order.
    pub fn talks_of<'a>(&'a self, session: &'a str) -> impl Iterator<Item = &'a Talk> + 'a {
        self.talks.iter().filter(move |t| t.session == session)
    }
}
