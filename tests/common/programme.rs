//! A published programme for the tests (issue 31): four accepted papers of the fixture placed
//! in `session-a` and `session-b` and published as "Version one", with the values the pages,
//! calendars and exports must show. The keynote session of the fixture seed
//! (`tidal-keynote`, given by `spk-keynote-1`) becomes a talk of its own.

use conference::mail::OutgoingMail;
use conference::programme::Published;
use conference::repo::submissions::NewSubmission;
use time::OffsetDateTime;
use time::macros::datetime;

use super::TestApp;

/// A paper of the fixture programme: what the author submitted, where it is placed, and how
/// its talk reads once published (times with the zone's offset and in UTC as iCalendar
/// writes them).
#[derive(Debug, Clone, Copy)]
pub struct Paper {
    pub reference: &'static str,
    pub title: &'static str,
    /// The talk's address: made from the title when first published.
    pub slug: &'static str,
    pub author: &'static str,
    /// The form's free-text co-author field.
    pub co_authors: &'static str,
    /// The authors as the programme lists them.
    pub authors: &'static str,
    pub affiliation: &'static str,
    /// Never public: the pages must not show these.
    pub email: &'static str,
    pub phone: &'static str,
    pub session: &'static str,
    pub minutes: i64,
    pub start: &'static str,
    pub end: &'static str,
    pub start_utc: &'static str,
    pub end_utc: &'static str,
}

/// The papers, in the order they are placed (session A's two, then session B's two).
pub const PAPERS: [Paper; 4] = [
    Paper {
        reference: "P-2025-FIX001",
        title: "Tidal Engines for Small Harbours",
        slug: "tidal-engines-for-small-harbours",
        author: "Ana Cruz",
        co_authors: "Ben Uy and Cy Lim",
        authors: "Ana Cruz, Ben Uy, Cy Lim",
        affiliation: "Port Quill Polytechnic",
        email: "ana.cruz@harbour.example",
        phone: "+15550109001",
        session: "session-a",
        minutes: 20,
        start: "2025-03-22T09:00:00+08:00",
        end: "2025-03-22T09:20:00+08:00",
        start_utc: "20250322T010000Z",
        end_utc: "20250322T012000Z",
    },
    Paper {
        reference: "P-2025-FIX002",
        title: "Counting Waves with Lanterns",
        slug: "counting-waves-with-lanterns",
        author: "Dara Finch",
        co_authors: "",
        authors: "Dara Finch",
        affiliation: "Lantern Institute",
        email: "dara.finch@lantern.example",
        phone: "+15550109002",
        session: "session-a",
        minutes: 15,
        start: "2025-03-22T09:20:00+08:00",
        end: "2025-03-22T09:35:00+08:00",
        start_utc: "20250322T012000Z",
        end_utc: "20250322T013500Z",
    },
    Paper {
        reference: "P-2025-FIX003",
        title: "Lantern Light in Fog",
        slug: "lantern-light-in-fog",
        author: "Eli Moss",
        co_authors: "Fen Ray",
        authors: "Eli Moss, Fen Ray",
        affiliation: "Fogbank University",
        email: "eli.moss@fog.example",
        phone: "+15550109003",
        session: "session-b",
        minutes: 30,
        start: "2025-03-22T09:00:00+08:00",
        end: "2025-03-22T09:30:00+08:00",
        start_utc: "20250322T010000Z",
        end_utc: "20250322T013000Z",
    },
    Paper {
        reference: "P-2025-FIX004",
        title: "A Survey of Lantern Studies",
        slug: "a-survey-of-lantern-studies",
        author: "Gil Hart",
        co_authors: "",
        authors: "Gil Hart",
        affiliation: "Harbour College",
        email: "gil.hart@college.example",
        phone: "+15550109004",
        session: "session-b",
        minutes: 20,
        start: "2025-03-22T09:30:00+08:00",
        end: "2025-03-22T09:50:00+08:00",
        start_utc: "20250322T013000Z",
        end_utc: "20250322T015000Z",
    },
];

/// The keynote talk the fixture seed's keynote session becomes: its slug (from the session's
/// title), title and speaker with the speaker's role.
pub const KEYNOTE_SLUG: &str = "keynote-computing-with-tides";
pub const KEYNOTE_TITLE: &str = "Keynote: Computing with tides";
pub const KEYNOTE_SPEAKER: &str = "Prof. Caspian Threlkeld";
pub const KEYNOTE_ROLE: &str = "Professor of Tidal Computing, Brightmoor University";

/// The first version's name and publication time.
pub const VERSION_ONE: &str = "Version one";
pub const VERSION_ONE_AT: OffsetDateTime = datetime!(2025-03-01 09:30 UTC);

/// Who publishes in the tests (the audit log's actor).
pub const PUBLISHER: &str = "chair@fixcon.example.net";

/// Stores `paper` as an accepted submission; its id.
pub async fn accepted(app: &TestApp, paper: &Paper) -> i64 {
    let new = NewSubmission {
        reference: paper.reference.into(),
        name: String::new(),
        number: paper.phone.into(),
        email: paper.email.into(),
        country: "Lanternland".into(),
        author_name: paper.author.into(),
        co_author_name: paper.co_authors.into(),
        paper_title: paper.title.into(),
        department: "Department of Tides".into(),
        university_organization: paper.affiliation.into(),
        paper_type: "Full Paper".into(),
        presentation_type: "Oral".into(),
        message: "Fixture paper.".into(),
        conference_source: "Other".into(),
        file_path: format!("papers/{}.pdf", paper.reference),
        file_name: "paper.pdf".into(),
        file_type: "application/pdf".into(),
        file_size: 100,
    };
    let mut conn = app.pool.acquire().await.expect("a connection");
    let id = conference::repo::submissions::insert(&mut conn, &new).await.expect("the submission is stored");
    sqlx::query("UPDATE submissions SET state = 'accepted', decided_at = '2025-02-01T08:00:00Z' WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .expect("the paper is accepted");
    id
}

/// Places submission `id` at the end of `session` for `minutes` (as the organiser page does).
pub async fn place(app: &TestApp, id: i64, session: &str, minutes: i64) {
    let mut conn = app.pool.acquire().await.expect("a connection");
    conference::repo::programme::place(&mut conn, id, session, minutes, "2025-02-15T08:00:00Z")
        .await
        .expect("the paper is placed");
}

/// The id of a fixture paper stored by [`publish_fixture_programme`].
pub async fn id_of(app: &TestApp, paper: &Paper) -> i64 {
    sqlx::query_scalar("SELECT id FROM submissions WHERE reference = $1")
        .bind(paper.reference)
        .fetch_one(&app.pool)
        .await
        .expect("the fixture paper is stored")
}

/// A moved talk's mail as the tests queue it: to the paper's author, nothing else to check.
pub(crate) fn moved_mail(
    version: &Published,
    talk: &conference::repo::published::Talk,
    paper: &conference::programme::draft::Paper,
) -> OutgoingMail {
    OutgoingMail {
        to: paper.email.clone(),
        reply_to: None,
        subject: format!("Your talk moved in version {}", version.number),
        text_body: format!("{} now starts at {}.", talk.title, talk.starts_at),
        html_body: String::new(),
        attachment: None,
        dedupe_key: None,
        list_unsubscribe: None,
    }
}

/// Publishes the draft as version `number` named `name` at `at`, without waiting for the
/// content watcher: the app's snapshot is reloaded, so its pages show the version at once.
pub async fn publish(app: &TestApp, number: i64, name: &str, at: OffsetDateTime) -> Published {
    let published = publish_unseen(app, number, name, at).await;
    app.state.content.reload().await.expect("the content reloads");
    published
}

/// [`publish`] without reloading the app's snapshot: what another instance would do.
pub async fn publish_unseen(app: &TestApp, number: i64, name: &str, at: OffsetDateTime) -> Published {
    conference::programme::publish::publish(&app.pool, number, name, PUBLISHER, Some("127.0.0.1"), at, &moved_mail)
        .await
        .unwrap_or_else(|err| panic!("version {number} publishes: {err}"))
}

/// The fixture's [`PAPERS`] accepted, placed in order and published as [`VERSION_ONE`] at
/// [`VERSION_ONE_AT`]; the app's snapshot shows it.
pub async fn publish_fixture_programme(app: &TestApp) -> Published {
    place_fixture_papers(app).await;
    publish(app, 1, VERSION_ONE, VERSION_ONE_AT).await
}

/// The fixture's [`PAPERS`] accepted and placed in order, not published.
pub async fn place_fixture_papers(app: &TestApp) {
    for paper in &PAPERS {
        let id = accepted(app, paper).await;
        place(app, id, paper.session, paper.minutes).await;
    }
}

/// Publishes, as version 1, a programme of `sessions` technical sessions over the fixture's
/// three days (four start times, four rooms) holding `talks` talks of 15 minutes, with titles,
/// names and affiliations of made-up words as long and as varied as real ones (so the page
/// compresses like a real programme, not like repeated text). Returns the number of talks.
pub async fn publish_large_programme(app: &TestApp, sessions: usize, talks: usize) -> usize {
    use conference::repo::content::{Room, Session, Track};
    use conference::repo::published::{PublishedSession, Talk};

    let mut rng = super::rng::Rng(0x5eed_2025_0331);
    let rooms: Vec<Room> =
        (1..=4).map(|n| Room { slug: format!("room-{n}"), name: format!("Harbour Room {n}") }).collect();
    let tracks: Vec<Track> =
        (1..=4).map(|n| Track { slug: format!("track-{n}"), name: made_up_title(&mut rng, 2, 3) }).collect();
    let days = ["2025-03-21", "2025-03-22", "2025-03-23"];
    let per_day = sessions.div_ceil(days.len());
    let mut published_sessions = Vec::new();
    let mut published_talks = Vec::new();
    let mut slugs = std::collections::HashSet::new();
    for i in 0..sessions {
        let (day, within) = (days[i / per_day], i % per_day);
        let hour = [9, 11, 14, 16][(within / 4) % 4];
        let slug = format!("session-{}", i + 1);
        let session = Session {
            slug: slug.clone(),
            title: made_up_title(&mut rng, 3, 6),
            description: made_up_title(&mut rng, 8, 14),
            kind: "technical".into(),
            track: Some(format!("track-{}", i % 4 + 1)),
            room: format!("room-{}", within % 4 + 1),
            starts_at: format!("{day} {hour:02}:00"),
            ends_at: format!("{day} {:02}:00", hour + 2),
            mode: ["hybrid", "in_person", "online"][i % 3].into(),
            chair: Some(made_up_name(&mut rng)),
            speaker: None,
            created: "2025-01-01T00:00:00Z".into(),
            updated: "2025-01-01T00:00:00Z".into(),
        };
        let count = talks / sessions + usize::from(i < talks % sessions);
        for position in 0..count {
            let title = made_up_title(&mut rng, 6, 12);
            let base = conference::programme::draft::slugify(&title);
            let mut talk_slug = base.clone();
            let mut n = 2;
            while !slugs.insert(talk_slug.clone()) {
                talk_slug = format!("{base}-{n}");
                n += 1;
            }
            let authors: Vec<String> = (0..1 + rng.below(4)).map(|_| made_up_name(&mut rng)).collect();
            let minute = position * 15;
            published_talks.push(Talk {
                slug: talk_slug,
                submission: Some((published_talks.len() + 1) as i64),
                speaker: None,
                session: slug.clone(),
                position: position as i64 + 1,
                starts_at: format!("{day} {:02}:{:02}", hour + minute / 60, minute % 60),
                minutes: 15,
                title,
                presenter: authors[0].clone(),
                authors,
                affiliation: made_up_affiliation(&mut rng),
                r#abstract: String::new(),
                format: "Oral".into(),
                sequence: 0,
            });
        }
        published_sessions.push(PublishedSession { session, sequence: 0 });
    }
    let version = Published {
        number: 1,
        name: "Version one".into(),
        published_at: "2025-03-01T09:30:00Z".into(),
        rooms,
        tracks,
        sessions: published_sessions,
        talks: published_talks,
    };
    let mut conn = app.pool.acquire().await.expect("a connection");
    assert!(conference::repo::programme::insert_version(&mut conn, &version, &[], PUBLISHER).await.expect("stored"));
    drop(conn);
    app.state.content.reload().await.expect("the content reloads");
    version.talks.len()
}

/// A made-up word of one to three syllables.
fn made_up_word(rng: &mut super::rng::Rng) -> String {
    const ONSETS: [&str; 20] =
        ["b", "c", "d", "f", "g", "h", "l", "m", "n", "p", "r", "s", "t", "v", "br", "st", "tr", "ch", "pl", "gr"];
    const VOWELS: [&str; 7] = ["a", "e", "i", "o", "u", "ea", "io"];
    const CODAS: [&str; 8] = ["", "", "n", "r", "s", "l", "t", "m"];
    let mut word = String::new();
    for _ in 0..1 + rng.below(3) {
        word.push_str(rng.pick::<&str>(&ONSETS));
        word.push_str(rng.pick::<&str>(&VOWELS));
        word.push_str(rng.pick::<&str>(&CODAS));
    }
    word
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// `min..=max` made-up words, the first capitalised, some joined by the small words of titles.
fn made_up_title(rng: &mut super::rng::Rng, min: usize, max: usize) -> String {
    const SMALL: [&str; 6] = ["of", "for", "in", "and", "with", "on"];
    let count = min + rng.below(max - min + 1);
    let mut words: Vec<String> = Vec::new();
    for n in 0..count {
        if n > 0 && rng.chance(25) {
            words.push((*rng.pick(&SMALL)).to_owned());
        }
        words.push(if n == 0 { capitalised(&made_up_word(rng)) } else { made_up_word(rng) });
    }
    words.join(" ")
}

fn made_up_name(rng: &mut super::rng::Rng) -> String {
    format!("{} {}", capitalised(&made_up_word(rng)), capitalised(&made_up_word(rng)))
}

fn made_up_affiliation(rng: &mut super::rng::Rng) -> String {
    let place = capitalised(&made_up_word(rng));
    match rng.below(3) {
        0 => format!("University of {place}"),
        1 => format!("{place} Institute of {}", capitalised(&made_up_word(rng))),
        _ => format!("{place} {} College", capitalised(&made_up_word(rng))),
    }
}
