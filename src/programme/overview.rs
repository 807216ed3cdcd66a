//! What `/organiser/programme` shows of the draft (issue 31 items 2 and 3, DESIGN.md
//! section 14): the technical, poster and keynote sessions by day with their time left and
//! their talks in order, each talk with the conflicts that concern it; the placements no
//! session can show; the accepted papers still waiting; what publishing would change; and the
//! lock on authors' edits. Read fresh from the database on every request ([`overview`]).

use super::changes::change_line;
use super::conflicts::{Conflict, minutes_left, talk_span};
use super::draft::{PLACEABLE_KINDS, Paper};
use super::publish::Workbench;
use super::timetable::kind_label;
use crate::clock::dates::{clock, day_label};
use crate::db::Pool;
use crate::repo::content::Session;
use crate::repo::programme as store;
use crate::repo::published::Talk;
use crate::seed::session_rules::parse_local;

/// The warning at a paper submitted for a poster presentation and placed in an oral session.
pub const POSTER_IN_ORAL: &str = "Its authors asked to present it as a poster, and this is an oral session. Check with them, or place it in a poster session.";

/// A talk as the page lists it.
#[derive(Debug, Clone)]
pub struct TalkRow {
    pub reference: String,
    pub title: String,
    pub presenter: String,
    pub minutes: i64,
    /// `09:00–09:15`; empty for a placement no session shows.
    pub time: String,
    /// The session's slug (sent back by the minutes form).
    pub session: String,
    pub first: bool,
    pub last: bool,
    /// `Accepted`, or what the paper is now when it is no longer accepted.
    pub state: String,
    /// The messages of the conflicts that concern it.
    pub conflicts: Vec<String>,
    /// A poster placed in an oral session: [`POSTER_IN_ORAL`].
    pub warning: Option<&'static str>,
}

/// A session as the page lists it.
#[derive(Debug, Clone)]
pub struct SessionRow {
    pub slug: String,
    pub title: String,
    /// "Technical session".
    pub kind: String,
    /// `09:00–12:00`.
    pub time: String,
    pub room: String,
    /// Technical and poster sessions: their talks and forms; a keynote: its speaker.
    pub placeable: bool,
    /// "25 min left" or "10 min over"; `None` for a keynote.
    pub left: Option<String>,
    pub over: bool,
    pub speaker: Option<String>,
    pub talks: Vec<TalkRow>,
}

/// A day of the programme: "Saturday, 22 March 2025", its date (`2025-03-22`) as key.
#[derive(Debug, Clone)]
pub struct DayRow {
    pub label: String,
    pub key: String,
    pub sessions: Vec<SessionRow>,
}

/// The draft as the organisers' page shows it.
#[derive(Debug, Clone)]
pub struct Overview {
    /// What it was built from (the papers, for the notices).
    pub bench: Workbench,
    /// The draft's conflicts' messages, all of them: publishing waits until none is left.
    pub conflicts: Vec<String>,
    pub days: Vec<DayRow>,
    /// Placements in a session that takes no papers or no longer exists, each with "Remove".
    pub stray: Vec<TalkRow>,
    /// Accepted papers not placed yet: (reference, "P-1 · Title (Presenter)").
    pub waiting: Vec<(String, String)>,
    /// Every accepted or placed paper: (reference, title).
    pub papers: Vec<(String, String)>,
    /// The lines of "What publishing would change".
    pub changes: Vec<String>,
    /// Authors' edits locked: (when, RFC 3339 UTC; by whom).
    pub lock: Option<(String, String)>,
}

/// The draft, its conflicts and the lock as they are now.
pub async fn overview(pool: &Pool) -> Result<Overview, sqlx::Error> {
    let bench = Workbench::load(pool).await?;
    let placed: Vec<i64> = bench.placements.iter().map(|p| p.submission_id).collect();
    let waiting = bench
        .papers
        .iter()
        .filter(|p| p.state == "accepted" && !placed.contains(&p.id))
        .map(|p| (p.reference.clone(), format!("{} · {} ({})", p.reference, p.title, p.presenter)))
        .collect();
    Ok(Overview {
        conflicts: bench.conflicts.iter().map(Conflict::message).collect(),
        days: days(&bench),
        stray: stray(&bench),
        waiting,
        papers: bench.papers.iter().map(|p| (p.reference.clone(), p.title.clone())).collect(),
        changes: bench.changes().iter().map(change_line).collect(),
        lock: store::locked(pool).await?,
        bench,
    })
}

/// The name of published version `number`, `None` when there is none.
pub async fn version_name(pool: &Pool, number: i64) -> Result<Option<String>, sqlx::Error> {
    Ok(store::versions(pool).await?.into_iter().find(|v| v.number == number).map(|v| v.name))
}

impl Overview {
    /// The title of paper `reference` when the programme has it.
    pub fn title_of(&self, reference: &str) -> Option<&str> {
        self.bench.papers.iter().find(|p| p.reference == reference).map(|p| p.title.as_str())
    }

    /// Whether paper `reference` asked for a poster and is placed in an oral session.
    pub fn poster_in_oral(&self, reference: &str) -> bool {
        let bench = &self.bench;
        let Some(paper) = bench.papers.iter().find(|p| p.reference == reference) else { return false };
        let Some(placement) = bench.placements.iter().find(|p| p.submission_id == paper.id) else { return false };
        bench
            .sessions
            .iter()
            .find(|s| s.slug == placement.session)
            .is_some_and(|s| paper.poster_in_oral_session(&s.kind))
    }
}

/// `HH:MM` of a `YYYY-MM-DD HH:MM`.
fn wall_clock(local: &str) -> String {
    local.split_once(' ').map_or_else(|| local.to_owned(), |(_, time)| time.to_owned())
}

/// "25 min left", "0 min left", "10 min over".
fn left_label(minutes: i64) -> String {
    if minutes < 0 { format!("{} min over", -minutes) } else { format!("{minutes} min left") }
}

/// The conflicts that concern the talk `title`: in the session titled `session` (a talk of
/// the page's sessions), or placed in session `slug` the programme cannot show (`stray`).
fn conflicts_of(conflicts: &[Conflict], title: &str, session: &str, paper: Option<&Paper>, stray: bool) -> Vec<String> {
    conflicts
        .iter()
        .filter(|c| match c {
            Conflict::PresenterTwice { first, first_session, second, second_session, .. } => {
                !stray
                    && ((first == title && first_session == session) || (second == title && second_session == session))
            }
            Conflict::Overrun { talk, session: s, .. } => !stray && talk == title && s == session,
            Conflict::NotAccepted { talk, .. } => talk == title && paper.is_some_and(|p| p.state != "accepted"),
            Conflict::NoSuchSession { talk, session: s } => stray && talk == title && s == session,
        })
        .map(Conflict::message)
        .collect()
}

fn talk_row(bench: &Workbench, talk: &Talk, session: &Session, first: bool, last: bool) -> TalkRow {
    let paper = bench.paper_of(talk);
    let end = talk_span(talk).map(|(_, end)| clock(end.time())).unwrap_or_default();
    TalkRow {
        reference: paper.map_or_else(String::new, |p| p.reference.clone()),
        title: talk.title.clone(),
        presenter: talk.presenter.clone(),
        minutes: talk.minutes,
        time: format!("{}–{end}", wall_clock(&talk.starts_at)),
        session: talk.session.clone(),
        first,
        last,
        state: paper.map_or_else(String::new, |p| crate::repo::submissions::state_label(&p.state).to_owned()),
        conflicts: conflicts_of(&bench.conflicts, &talk.title, &session.title, paper, false),
        warning: paper.filter(|p| p.poster_in_oral_session(&session.kind)).map(|_| POSTER_IN_ORAL),
    }
}

fn room_name(bench: &Workbench, slug: &str) -> String {
    bench.rooms.iter().find(|r| r.slug == slug).map_or_else(|| slug.to_owned(), |r| r.name.clone())
}

/// The sessions the page lists (technical, poster and keynote), by day, in time order.
fn days(bench: &Workbench) -> Vec<DayRow> {
    let mut days: Vec<DayRow> = Vec::new();
    for session in &bench.sessions {
        let placeable = PLACEABLE_KINDS.contains(&session.kind.as_str());
        if !placeable && session.kind != "keynote" {
            continue;
        }
        let Some(start) = parse_local(&session.starts_at) else { continue };
        let talks: Vec<&Talk> = bench.draft.talks_of(&session.slug).collect();
        let speaker = (!placeable).then(|| talks.iter().map(|t| t.presenter.clone()).collect::<Vec<_>>().join(", "));
        let placed: Vec<&&Talk> = talks.iter().filter(|t| t.submission.is_some()).collect();
        let rows = placed
            .iter()
            .enumerate()
            .map(|(i, talk)| talk_row(bench, talk, session, i == 0, i + 1 == placed.len()))
            .collect();
        let left = minutes_left(&bench.draft, &session.slug);
        let row = SessionRow {
            slug: session.slug.clone(),
            title: session.title.clone(),
            kind: kind_label(&session.kind),
            time: format!("{}–{}", wall_clock(&session.starts_at), wall_clock(&session.ends_at)),
            room: room_name(bench, &session.room),
            placeable,
            left: if placeable { left.map(left_label) } else { None },
            over: left.is_some_and(|m| m < 0),
            speaker: speaker.filter(|s| !s.is_empty()),
            talks: if placeable { rows } else { Vec::new() },
        };
        let key = start.date().to_string();
        match days.last_mut() {
            Some(day) if day.key == key => day.sessions.push(row),
            _ => days.push(DayRow { label: day_label(start.date()), key, sessions: vec![row] }),
        }
    }
    days
}

/// Placements the page cannot show in a session: the seed dropped their session, or it no
/// longer takes papers.
fn stray(bench: &Workbench) -> Vec<TalkRow> {
    let placeable =
        |slug: &str| bench.sessions.iter().any(|s| s.slug == slug && PLACEABLE_KINDS.contains(&s.kind.as_str()));
    bench
        .placements
        .iter()
        .filter(|p| !placeable(&p.session))
        .filter_map(|p| {
            let paper = bench.papers.iter().find(|paper| paper.id == p.submission_id)?;
            let conflicts = conflicts_of(&bench.conflicts, &paper.title, &p.session, Some(paper), true);
            Some(TalkRow {
                reference: paper.reference.clone(),
                title: paper.title.clone(),
                presenter: paper.presenter.clone(),
                minutes: p.minutes,
                time: String::new(),
                session: p.session.clone(),
                first: true,
                last: true,
                state: crate::repo::submissions::state_label(&paper.state).to_owned(),
                conflicts,
                warning: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_reads_as_organisers_say_it() {
        assert_eq!(left_label(25), "25 min left");
        assert_eq!(left_label(0), "0 min left");
        assert_eq!(left_label(-10), "10 min over");
    }
}
