//! What the author's status page shows (issue 21, DESIGN.md section 12 "Decisions"): one
//! submission's reference, title, paper type, time received and state, and for an accepted
//! paper where the latest published programme put it and its public abstract and presenter
//! (issue 31 item 6). Nothing else of the submission, nothing of any other.

use serde_json::Value;

use crate::clock::dates::{day_label, iso};
use crate::content::Snapshot;
use crate::programme::Programme;
use crate::programme::authors::PublicDetails as Stored;
use crate::programme::ical::entry::TalkEntry;
use crate::programme::timetable::session_path;
use crate::repo::submissions::Submission;
use crate::views::pages::schedule::ProgrammeIslands;

/// What the page shows of the submission: nothing else of it, nothing of any other.
pub struct Shown {
    pub reference: String,
    pub title: String,
    pub paper_type: String,
    /// When it was received, as stored.
    pub received: String,
    /// What the author is told of its state (a pending decision shows as `submitted`).
    pub state: &'static str,
}

impl Shown {
    /// What the page shows of `s`, whose state the author is told as `state`.
    pub fn of(s: Submission, state: &'static str) -> Shown {
        Shown {
            state,
            reference: s.submitted.reference,
            title: s.submitted.paper_title,
            paper_type: s.submitted.paper_type,
            received: s.created,
        }
    }
}

/// Where the latest published programme put the paper, in the event's zone.
pub struct InProgramme {
    pub title: String,
    pub talk_path: String,
    pub ics_path: String,
    pub session: String,
    pub session_path: String,
    /// `Saturday, 22 March 2025`.
    pub day: String,
    /// `09:20`.
    pub start: String,
    pub end: String,
    /// `2025-03-22T09:20:00+08:00`.
    pub start_iso: String,
    pub end_iso: String,
    /// `Singapore time (UTC+08:00)`.
    pub zone: String,
    pub room: String,
    pub mode: String,
    /// The props of the `ZoneSwitch` island in its line mode, which adds the talk's time in
    /// the author's own zone under the event time (`islands/src/islands/ZoneSwitch.tsx`).
    pub zone_local: Value,
}

/// The paper's public abstract and presenter: a form until the programme is locked, read-only
/// after.
pub struct PublicDetails {
    /// Where the form posts; `None` once the programme is locked.
    pub action: Option<String>,
    /// The submission's version the form was drawn from.
    pub version: i64,
    pub text: String,
    pub presenter: String,
    pub authors: Vec<String>,
}

impl PublicDetails {
    /// The public abstract and presenter `stored` (or as `posted`, while the form is open) of
    /// a submission at `version`, the form posting under the status page `path` until the
    /// programme is locked.
    pub fn of(stored: Stored, version: i64, path: &str, posted: Option<Posted>) -> PublicDetails {
        let (text, presenter) = match posted {
            Some(posted) if !stored.locked => (posted.text, posted.presenter),
            _ => (stored.text, stored.presenter),
        };
        PublicDetails {
            action: (!stored.locked).then(|| format!("{path}/programme")),
            version,
            text,
            presenter,
            authors: stored.authors,
        }
    }
}

/// What the author posted, shown again with a 400 so nothing typed is lost.
pub struct Posted {
    pub text: String,
    pub presenter: String,
}

/// What the page says of a token that opens no submission.
pub const NOT_FOUND: &str =
    "This status link is not one we sent. Please use the link from the latest mail about your paper.";

/// The page's heading: the withdrawal's question when `asking`, "Link not valid" when the
/// token opened no submission.
pub fn heading(found: bool, asking: bool) -> &'static str {
    match (found, asking) {
        (true, true) => "Withdraw this paper?",
        (true, false) => "Your submission",
        (false, _) => "Link not valid",
    }
}

/// Where the latest published version put submission `id`; `None` before the first version,
/// when it is not in the latest one, or when the programme is not loaded.
pub fn in_programme(content: &Snapshot, id: i64) -> Option<InProgramme> {
    let programme = Programme::of(content).ok()?;
    programme.version.as_ref()?;
    let (session, talk) = programme.talks().find(|(_, t)| t.talk.submission == Some(id))?;
    let entry = TalkEntry::timed(session, talk);
    Some(InProgramme {
        title: talk.talk.title.clone(),
        talk_path: talk.path(),
        ics_path: format!("{}.ics", talk.path()),
        session: entry.session.clone(),
        session_path: session_path(session.slug()),
        day: day_label(entry.start.date()),
        start: talk.start_label(),
        end: talk.end_label(),
        start_iso: iso(entry.start),
        end_iso: iso(entry.end),
        zone: programme.zone_label(),
        room: entry.room.clone(),
        mode: entry.mode_label(),
        zone_local: zone_local(&programme),
    })
}

/// The programme pages' `ZoneSwitch` props with `line`: on this page the island offers no
/// choice and rewrites nothing, it only restates the talk's time in the author's zone.
pub fn zone_local(programme: &Programme) -> Value {
    let mut props = ProgrammeIslands::of(programme).zone_switch;
    props["line"] = Value::Bool(true);
    props
}
