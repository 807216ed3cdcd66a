//! What a version changed from the one before (issue 31 item 3): the lines of
//! `/schedule/changes` and the talks whose authors are mailed their new time.

use super::conflicts::talk_span;
use crate::repo::published::{Change, Published, PublishedSession, Slot, Talk};
use crate::seed::session_rules::format_local;

/// The changes from `previous` to `next`, sessions first, then talks, each in `next`'s order
/// (removed ones in `previous`'s). The first version has none: it is the programme itself.
pub fn changes(previous: Option<&Published>, next: &Published) -> Vec<Change> {
    let Some(previous) = previous else { return Vec::new() };
    let mut found = Vec::new();
    for s in &next.sessions {
        let slug = &s.session.slug;
        let title = s.session.title.clone();
        match previous.session(slug) {
            None => found.push(Change::SessionAdded { session: slug.clone(), title, to: session_slot(next, s) }),
            Some(before) => {
                let (from, to) = (session_slot(previous, before), session_slot(next, s));
                if from != to {
                    found.push(Change::SessionRetimed { session: slug.clone(), title, from, to });
                }
            }
        }
    }
    for s in previous.sessions.iter().filter(|s| next.session(&s.session.slug).is_none()) {
        found.push(Change::SessionRemoved {
            session: s.session.slug.clone(),
            title: s.session.title.clone(),
            from: session_slot(previous, s),
        });
    }
    for t in &next.talks {
        match previous.talk(&t.slug) {
            None => {
                found.push(Change::TalkAdded { talk: t.slug.clone(), title: t.title.clone(), to: talk_slot(next, t) })
            }
            Some(before) => {
                let (from, to) = (talk_slot(previous, before), talk_slot(next, t));
                if from != to {
                    found.push(Change::TalkMoved { talk: t.slug.clone(), title: t.title.clone(), from, to });
                }
            }
        }
    }
    for t in previous.talks.iter().filter(|t| next.talk(&t.slug).is_none()) {
        found.push(Change::TalkRemoved { talk: t.slug.clone(), title: t.title.clone(), from: talk_slot(previous, t) });
    }
    found
}

/// The placed papers of `next` that moved (another session, start or length) since
/// `previous`: the ones whose authors get a mail with the new time.
pub fn moved_papers<'a>(previous: Option<&Published>, next: &'a Published) -> Vec<&'a Talk> {
    let Some(previous) = previous else { return Vec::new() };
    next.talks
        .iter()
        .filter(|t| t.submission.is_some())
        .filter(|t| previous.talk(&t.slug).is_some_and(|before| talk_slot(previous, before) != talk_slot(next, t)))
        .collect()
}

fn session_slot(programme: &Published, s: &PublishedSession) -> Slot {
    Slot {
        session: s.session.title.clone(),
        room: room_name(programme, &s.session.room),
        starts_at: s.session.starts_at.clone(),
        ends_at: s.session.ends_at.clone(),
    }
}

/// Where a talk is: its session's title and room, and its own start and end.
pub fn talk_slot(programme: &Published, t: &Talk) -> Slot {
    let session = programme.session(&t.session);
    let ends_at = talk_span(t).map(|(_, end)| format_local(end)).unwrap_or_default();
    Slot {
        session: session.map_or_else(|| t.session.clone(), |s| s.session.title.clone()),
        room: session.map_or_else(String::new, |s| room_name(programme, &s.session.room)),
        starts_at: t.starts_at.clone(),
        ends_at,
    }
}

/// A slot as organisers read it: "Session A, Tide Room A, 2025-03-22 09:00–09:15" (the end's
/// day only when it differs from the start's).
pub fn slot_label(slot: &Slot) -> String {
    let (day, start) = slot.starts_at.split_once(' ').unwrap_or((&slot.starts_at, ""));
    let end = match slot.ends_at.split_once(' ') {
        Some((end_day, end)) if end_day == day => end.to_owned(),
        _ => slot.ends_at.clone(),
    };
    let room = if slot.room.is_empty() { String::new() } else { format!(", {}", slot.room) };
    format!("{}{room}, {day} {start}–{end}", slot.session)
}

/// A line of "What publishing would change" on the organisers' programme page.
pub fn change_line(change: &Change) -> String {
    match change {
        Change::TalkAdded { title, to, .. } => format!("Talk added: “{title}”, {}", slot_label(to)),
        Change::TalkMoved { title, from, to, .. } => {
            format!("Talk moved: “{title}”, from {} to {}", slot_label(from), slot_label(to))
        }
        Change::TalkRemoved { title, from, .. } => format!("Talk removed: “{title}”, was {}", slot_label(from)),
        Change::SessionAdded { title, to, .. } => format!("Session added: {title}, {}", slot_label(to)),
        Change::SessionRetimed { title, from, to, .. } => {
            format!("Session retimed: {title}, from {} to {}", slot_label(from), slot_label(to))
        }
        Change::SessionRemoved { title, from, .. } => format!("Session removed: {title}, was {}", slot_label(from)),
    }
}

fn room_name(programme: &Published, slug: &str) -> String {
    programme.rooms.iter().find(|r| r.slug == slug).map_or_else(|| slug.to_owned(), |r| r.name.clone())
}

#[cfg(test)]
mod tests {
    use super::super::draft::draft;
    use super::super::draft::tests::{paper, place, seed_of, session};
    use super::*;

    #[test]
    fn added_moved_removed_and_retimed() {
        let mut sessions = vec![
            session("a", "technical", "2025-03-22 09:00", "2025-03-22 10:00"),
            session("b", "technical", "2025-03-22 11:00", "2025-03-22 12:00"),
        ];
        let papers = [paper(1, "One", "1@x.org"), paper(2, "Two", "2@x.org"), paper(3, "Three", "3@x.org")];
        let v1 = draft(&seed_of(&sessions), &[place(1, "a", 1, 20), place(2, "a", 2, 20)], &papers, None);
        assert_eq!(changes(None, &v1), []);
        sessions[1].starts_at = "2025-03-22 11:30".into();
        sessions[1].ends_at = "2025-03-22 12:30".into();
        let v2 = draft(&seed_of(&sessions), &[place(2, "a", 1, 20), place(3, "b", 1, 20)], &papers, Some(&v1));
        let kinds: Vec<String> = changes(Some(&v1), &v2)
            .iter()
            .map(|c| match c {
                Change::SessionRetimed { session, from, to, .. } => {
                    format!("retimed {session} {} → {}", from.starts_at, to.starts_at)
                }
                Change::TalkMoved { talk, from, to, .. } => {
                    format!("moved {talk} {} → {}", from.starts_at, to.starts_at)
                }
                Change::TalkAdded { talk, to, .. } => format!("added {talk} {}", to.starts_at),
                Change::TalkRemoved { talk, .. } => format!("removed {talk}"),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "retimed b 2025-03-22 11:00 → 2025-03-22 11:30",
                "moved two 2025-03-22 09:20 → 2025-03-22 09:00",
                "added three 2025-03-22 11:30",
                "removed one",
            ]
        );
        let moved: Vec<&str> = moved_papers(Some(&v1), &v2).iter().map(|t| t.slug.as_str()).collect();
        assert_eq!(moved, ["two"]);
    }

    #[test]
    fn slots_read_as_organisers_say_them() {
        let slot = Slot {
            session: "Session A".into(),
            room: "Tide Room A".into(),
            starts_at: "2025-03-22 09:00".into(),
            ends_at: "2025-03-22 09:15".into(),
        };
        assert_eq!(slot_label(&slot), "Session A, Tide Room A, 2025-03-22 09:00–09:15");
    }
}
