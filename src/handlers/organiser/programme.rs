//! Placing accepted papers into the programme and publishing it (issue 31 items 2 and 3,
//! DESIGN.md section 14): the organisers' working copy of the timetable.
//!
//! - `GET /organiser/programme` ([`PATH`]): the technical and poster sessions by day and time,
//!   each with its time left and its talks in order (earlier, later, minutes, remove), a form
//!   that places an accepted paper; keynote sessions with their speaker; the conflicts, listed
//!   on top and marked at their talks; the lock on authors' edits; what publishing would
//!   change and the form that publishes.
//! - `POST /organiser/programme/place` ([`PLACE`], `paper`, `session`, `minutes`): places a
//!   paper at the end of a session, or changes its minutes where it is (`programme.placed`).
//! - `POST /organiser/programme/move` ([`MOVE`], `paper`, `direction=earlier|later`): swaps a
//!   talk with its neighbour (`programme.moved`).
//! - `POST /organiser/programme/remove` ([`REMOVE`], `paper`): takes it out (`programme.removed`).
//! - `POST /organiser/programme/lock` ([`LOCK`], `lock=yes|no`): stops or allows authors'
//!   edits of their public abstract and presenter (`programme.locked`, `programme.unlocked`).
//! - `POST /organiser/programme/publish` ([`PUBLISH`], `name`, `expected`): publishes the draft
//!   as version `expected` (`programme.published`, written by [`publish`]).
//! - `GET` and `POST /organiser/programme/papers/{reference}` ([`PAPER`], `abstract`,
//!   `presenter`): a paper's public abstract and presenter (`programme.paper_edited`).
//!
//! Every change is one transaction with its audit entry, and answers 303 back to [`PATH`] with
//! a notice (`done`, `paper`, `version`), so a reload posts nothing. A bad form is the page
//! again with the message (400); publishing over conflicts or over a version someone else
//! just published is 409. Nothing is changed by a refused form.

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;

use super::form::{fields, one};
use super::query::Params;
use super::session::SignedIn;
use super::sign_in::layout;
use super::view::{self, Moment, shown};
use crate::db::Connection;
use crate::error::AppError;
use crate::handlers::layout::Layout;
use crate::handlers::render::{render, see_other};
use crate::handlers::state::AppState;
use crate::mail::outbox::timestamp;
use crate::programme::abstracts::{self, ABSTRACT_MAX_WORDS};
use crate::programme::changes::talk_slot;
use crate::programme::conflicts::{Conflict, minutes_left};
use crate::programme::draft::{PLACEABLE_KINDS, Paper};
use crate::programme::moved_mail::MovedTalkMail;
use crate::programme::publish::{NAME_MAX_CHARS, PublishError, Workbench, publish};
use crate::programme::{Change, KINDS, Published, Slot, Talk, day_label};
use crate::repo::content::Session;
use crate::repo::programme as store;
use crate::repo::submissions::{self as rows, Submission};
use crate::seed::session_rules::parse_local;

/// The organisers' programme page.
pub const PATH: &str = "/organiser/programme";
/// Where "Place a paper" and a talk's "Save minutes" post.
pub const PLACE: &str = "/organiser/programme/place";
/// Where a talk's "Earlier" and "Later" post.
pub const MOVE: &str = "/organiser/programme/move";
/// Where a talk's "Remove" posts.
pub const REMOVE: &str = "/organiser/programme/remove";
/// Where "Lock authors' edits" and "Unlock" post.
pub const LOCK: &str = "/organiser/programme/lock";
/// Where "Publish" posts.
pub const PUBLISH: &str = "/organiser/programme/publish";
/// A paper's public abstract and presenter (route pattern).
pub const PAPER: &str = "/organiser/programme/papers/{reference}";

/// A talk's length in minutes: the `placements.minutes` CHECK (migration 0017).
pub const MINUTES_MIN: i64 = 1;
pub const MINUTES_MAX: i64 = 600;
/// What "Place a paper" offers.
pub const MINUTES_DEFAULT: i64 = 15;

/// The address of a paper's public abstract and presenter.
pub fn paper_href(reference: &str) -> String {
    format!("{PATH}/papers/{}", url_segment(reference))
}

fn url_segment(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>().replace('+', "%20")
}

/// `HH:MM` of a `YYYY-MM-DD HH:MM`.
fn clock(local: &str) -> String {
    local.split_once(' ').map_or_else(|| local.to_owned(), |(_, time)| time.to_owned())
}

/// "25 min left", "0 min left", "10 min over".
fn left_label(minutes: i64) -> String {
    if minutes < 0 { format!("{} min over", -minutes) } else { format!("{minutes} min left") }
}

/// A talk as the page lists it.
struct TalkRow {
    reference: String,
    title: String,
    presenter: String,
    minutes: i64,
    /// `09:00–09:15`.
    time: String,
    /// The session's slug (sent back by the minutes form).
    session: String,
    first: bool,
    last: bool,
    /// `Accepted`, or what the paper is now when it is no longer accepted.
    state: String,
    /// The conflicts that concern it.
    conflicts: Vec<String>,
    /// A poster placed in an oral session: what to check ([`POSTER_IN_ORAL`]).
    warning: Option<&'static str>,
}

/// The warning at a paper submitted for a poster presentation and placed in an oral session.
const POSTER_IN_ORAL: &str = "Its authors asked to present it as a poster, and this is an oral session. Check with them, or place it in a poster session.";

/// A session as the page lists it.
struct SessionRow {
    slug: String,
    title: String,
    kind: String,
    /// `09:00–12:00`.
    time: String,
    room: String,
    /// Technical and poster sessions: their talks and forms; a keynote: its speaker.
    placeable: bool,
    /// "25 min left" or "10 min over"; `None` for a keynote.
    left: Option<String>,
    over: bool,
    speaker: Option<String>,
    talks: Vec<TalkRow>,
}

struct DayRow {
    label: String,
    key: String,
    sessions: Vec<SessionRow>,
}

#[derive(Template)]
#[template(path = "organiser/programme.html")]
struct ProgrammePage {
    layout: Layout,
    /// What the last form did (`role="status"`).
    notice: Option<String>,
    /// Why the last form changed nothing (`role="alert"`).
    problem: Option<String>,
    /// The event's zone, `Asia/Manila`.
    zone: String,
    conflicts: Vec<String>,
    days: Vec<DayRow>,
    /// Placements in a session that takes no papers or no longer exists.
    stray: Vec<TalkRow>,
    /// Accepted papers not placed yet: (reference, label).
    waiting: Vec<(String, String)>,
    /// Every accepted or placed paper, for the links to their abstract and presenter:
    /// (reference, title).
    papers: Vec<(String, String)>,
    /// The latest version: its number, name and when it was published.
    latest: Option<(i64, String, Moment)>,
    next_number: i64,
    changes: Vec<String>,
    talk_count: usize,
    session_count: usize,
    /// What was typed in the version's name (shown again after a refusal).
    name: String,
    /// Locked: (when, by whom).
    lock: Option<(Moment, String)>,
    place_action: &'static str,
    move_action: &'static str,
    remove_action: &'static str,
    lock_action: &'static str,
    publish_action: &'static str,
    name_max: usize,
    minutes_min: i64,
    minutes_max: i64,
    minutes_default: i64,
}

impl ProgrammePage {
    fn paper_href(&self, reference: &str) -> String {
        paper_href(reference)
    }

    /// A version is published and the draft changes nothing of it: nothing to publish.
    fn unchanged(&self) -> bool {
        self.latest.is_some() && self.changes.is_empty()
    }
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

fn state_label(paper: Option<&Paper>) -> String {
    paper.map_or_else(String::new, |p| crate::decisions::state_label(&p.state).to_owned())
}

fn talk_row(bench: &Workbench, talk: &Talk, session: &Session, first: bool, last: bool) -> TalkRow {
    let session_title = session.title.as_str();
    let paper = bench.paper_of(talk);
    let end = crate::programme::conflicts::talk_span(talk)
        .map(|(_, end)| crate::programme::clock(end.time()))
        .unwrap_or_default();
    TalkRow {
        reference: paper.map_or_else(String::new, |p| p.reference.clone()),
        title: talk.title.clone(),
        presenter: talk.presenter.clone(),
        minutes: talk.minutes,
        time: format!("{}–{end}", clock(&talk.starts_at)),
        session: talk.session.clone(),
        first,
        last,
        state: state_label(paper),
        conflicts: conflicts_of(&bench.conflicts, &talk.title, session_title, paper, false),
        warning: paper.filter(|p| p.poster_in_oral_session(&session.kind)).map(|_| POSTER_IN_ORAL),
    }
}

fn slot_label(slot: &Slot) -> String {
    let (day, start) = slot.starts_at.split_once(' ').unwrap_or((&slot.starts_at, ""));
    let end = match slot.ends_at.split_once(' ') {
        Some((end_day, end)) if end_day == day => end.to_owned(),
        _ => slot.ends_at.clone(),
    };
    let room = if slot.room.is_empty() { String::new() } else { format!(", {}", slot.room) };
    format!("{}{room}, {day} {start}–{end}", slot.session)
}

/// A line of "What publishing would change".
fn change_line(change: &Change) -> String {
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

fn room_name(bench: &Workbench, slug: &str) -> String {
    bench.rooms.iter().find(|r| r.slug == slug).map_or_else(|| slug.to_owned(), |r| r.name.clone())
}

fn kind_label(kind: &str) -> String {
    KINDS.iter().find(|(k, _)| *k == kind).map_or_else(|| kind.to_owned(), |(_, label)| (*label).to_owned())
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
            time: format!("{}–{}", clock(&session.starts_at), clock(&session.ends_at)),
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
/// longer takes papers. They are listed apart, each with "Remove".
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
                state: crate::decisions::state_label(&paper.state).to_owned(),
                conflicts,
                warning: None,
            })
        })
        .collect()
}

/// Whether paper `reference` asked for a poster and is placed in an oral session.
fn poster_in_oral(bench: &Workbench, reference: &str) -> bool {
    let Some(paper) = bench.papers.iter().find(|p| p.reference == reference) else { return false };
    let Some(placement) = bench.placements.iter().find(|p| p.submission_id == paper.id) else { return false };
    bench.sessions.iter().find(|s| s.slug == placement.session).is_some_and(|s| paper.poster_in_oral_session(&s.kind))
}

/// What the page says on top after a form: `done` (and `paper`, `version`) of the 303.
async fn notice(state: &AppState, raw: Option<&str>, bench: &Workbench) -> Result<Option<String>, AppError> {
    let params = Params::parse(raw, &["done", "paper", "version"])?;
    let Some(done) = params.get("done") else {
        if params.get("paper").is_some() || params.get("version").is_some() {
            return Err(AppError::BadRequest("\"paper\" and \"version\" come with \"done\" only.".into()));
        }
        return Ok(None);
    };
    let title = || -> Result<String, AppError> {
        let reference = params.get("paper").ok_or_else(|| {
            AppError::BadRequest(format!("\"done={}\" needs the paper it was done to (\"paper\").", shown(done)))
        })?;
        Ok(bench
            .papers
            .iter()
            .find(|p| p.reference == reference)
            .map_or_else(|| format!("Paper {}", shown(reference)), |p| format!("“{}”", p.title)))
    };
    let text = match done {
        "placed" => {
            let mut text = format!("{} is placed; the session below shows it.", title()?);
            if poster_in_oral(bench, params.get("paper").unwrap_or_default()) {
                text.push_str(" Warning: ");
                text.push_str(POSTER_IN_ORAL);
            }
            text
        }
        "moved" => format!("{} moved; the session below shows its new place.", title()?),
        "removed" => format!("{} was taken out of the programme.", title()?),
        "paper" => format!("The public abstract and presenter of {} were saved.", title()?),
        "locked" => "Authors can no longer edit their public abstract and presenter; organisers still can.".to_owned(),
        "unlocked" => "Authors can edit their public abstract and presenter again.".to_owned(),
        "published" => {
            let number = params.get("version").and_then(|v| v.parse::<i64>().ok()).ok_or_else(|| {
                AppError::BadRequest("\"done=published\" needs the version's number (\"version\").".into())
            })?;
            let versions = store::versions(&state.pool).await?;
            match versions.iter().find(|v| v.number == number) {
                Some(v) => format!(
                    "Version {number} “{}” is published. Visitors see it on the programme within seconds, and authors of moved talks are mailed.",
                    v.name
                ),
                None => return Err(AppError::BadRequest(format!("No version {number} has been published."))),
            }
        }
        other => {
            return Err(AppError::BadRequest(format!(
                "\"{}\" is not something this page did. It knows: placed, moved, removed, paper, locked, unlocked, published.",
                shown(other)
            )));
        }
    };
    Ok(Some(text))
}

/// The programme page as it is now, answered with `status`.
async fn page(
    state: &AppState,
    status: StatusCode,
    notice_query: Option<&str>,
    problem: Option<String>,
    name: String,
) -> Result<Response, AppError> {
    let bench = Workbench::load(&state.pool).await?;
    let notice = notice(state, notice_query, &bench).await?;
    let event_zone = view::event_zone(state).await;
    let zone = event_zone.name.clone();
    let placed: Vec<i64> = bench.placements.iter().map(|p| p.submission_id).collect();
    let waiting = bench
        .papers
        .iter()
        .filter(|p| p.state == "accepted" && !placed.contains(&p.id))
        .map(|p| (p.reference.clone(), format!("{} · {} ({})", p.reference, p.title, p.presenter)))
        .collect();
    let papers = bench.papers.iter().map(|p| (p.reference.clone(), p.title.clone())).collect();
    let latest = bench.previous.as_ref().map(|v| (v.number, v.name.clone(), view::when(&v.published_at, &event_zone)));
    let page = ProgrammePage {
        layout: layout(state, "Programme", PATH).await?,
        notice,
        problem,
        zone,
        conflicts: bench.conflicts.iter().map(Conflict::message).collect(),
        days: days(&bench),
        stray: stray(&bench),
        waiting,
        papers,
        latest,
        next_number: bench.next_number(),
        changes: bench.changes().iter().map(change_line).collect(),
        talk_count: bench.draft.talks.len(),
        session_count: bench.draft.sessions.len(),
        name,
        lock: store::locked(&state.pool).await?.map(|(at, by)| (view::when(&at, &event_zone), by)),
        place_action: PLACE,
        move_action: MOVE,
        remove_action: REMOVE,
        lock_action: LOCK,
        publish_action: PUBLISH,
        name_max: NAME_MAX_CHARS,
        minutes_min: MINUTES_MIN,
        minutes_max: MINUTES_MAX,
        minutes_default: MINUTES_DEFAULT,
    };
    render(status, &page)
}

/// GET `/organiser/programme`.
pub async fn show(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    RawQuery(raw): RawQuery,
) -> Result<Response, AppError> {
    page(&state, StatusCode::OK, raw.as_deref(), None, String::new()).await
}

/// `result`, with a refused form shown as the programme page again with the message (its
/// status: 400, 404 or 409) and `name` as typed. A 500 stays the site's.
async fn or_page(state: &AppState, result: Result<Response, AppError>, name: String) -> Result<Response, AppError> {
    match result {
        Ok(response) => Ok(response),
        Err(err @ (AppError::BadRequest(_) | AppError::NotFound(_) | AppError::Conflict(_))) => {
            page(state, err.status(), None, Some(err.public_message()), name).await
        }
        Err(other) => Err(other),
    }
}

/// The 303 back to the page with the notice of `done` to `reference`.
fn done(done: &str, reference: &str) -> Response {
    see_other(&format!("{PATH}?done={done}&paper={}", url_segment(reference)))
}

/// The submission a form's `paper` names; 400 when there is none.
async fn submission(state: &AppState, reference: &str) -> Result<Submission, AppError> {
    if reference.is_empty() {
        return Err(AppError::BadRequest("No paper was chosen. Choose one and try again.".into()));
    }
    rows::by_reference(&state.pool, reference)
        .await?
        .ok_or_else(|| AppError::BadRequest(format!("No submission has the reference {}.", shown(reference))))
}

/// `minutes` as typed: a whole number from [`MINUTES_MIN`] to [`MINUTES_MAX`].
fn minutes(value: &str) -> Result<i64, AppError> {
    value.parse::<i64>().ok().filter(|m| (MINUTES_MIN..=MINUTES_MAX).contains(m)).ok_or_else(|| {
        AppError::BadRequest(format!(
            "\"{}\" is not a talk length: give whole minutes from {MINUTES_MIN} to {MINUTES_MAX}.",
            shown(value)
        ))
    })
}

/// The seed's session `slug`, when it takes papers.
async fn placeable_session(state: &AppState, slug: &str) -> Result<Session, AppError> {
    let sessions = crate::repo::content::sessions(&state.pool).await?;
    let Some(session) = sessions.into_iter().find(|s| s.slug == slug) else {
        return Err(AppError::BadRequest(format!("The programme has no session {}.", shown(slug))));
    };
    if !PLACEABLE_KINDS.contains(&session.kind.as_str()) {
        return Err(AppError::BadRequest(format!(
            "{} is a {} session; only technical and poster sessions take papers.",
            session.title,
            kind_label(&session.kind).to_lowercase()
        )));
    }
    Ok(session)
}

/// POST `/organiser/programme/place`: `paper` (an accepted submission's reference), `session`
/// (a technical or poster session's slug), `minutes`.
pub async fn place(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let fields = fields(&body);
        let reference = one(&fields, "paper")?;
        let slug = one(&fields, "session")?;
        let minutes = minutes(one(&fields, "minutes")?)?;
        let paper = submission(&state, reference).await?;
        if paper.state != "accepted" {
            return Err(AppError::BadRequest(format!(
                "Submission {} is {}; only accepted papers can be placed.",
                paper.submitted.reference,
                crate::decisions::state_label(&paper.state).to_lowercase()
            )));
        }
        let session = placeable_session(&state, slug).await?;
        let at = timestamp(state.clock.now());
        let mut tx = crate::db::begin_write(&state.pool).await?;
        let before = store::placement(&mut tx, paper.id).await?;
        if before.as_ref().is_some_and(|p| p.session == session.slug && p.minutes == minutes) {
            // Nothing to change (a second click): no audit entry for it.
            return Ok(done("placed", &paper.submitted.reference));
        }
        store::place(&mut tx, paper.id, &session.slug, minutes, &at).await?;
        let after = store::placement(&mut tx, paper.id).await?;
        let details = json!({
            "session": { "before": before.as_ref().map(|p| &p.session), "after": after.as_ref().map(|p| &p.session) },
            "position": { "before": before.as_ref().map(|p| p.position), "after": after.as_ref().map(|p| p.position) },
            "minutes": { "before": before.as_ref().map(|p| p.minutes), "after": after.as_ref().map(|p| p.minutes) },
        });
        organiser.record_on_submission(&mut tx, &at, "programme.placed", &paper.submitted.reference, details).await?;
        tx.commit().await?;
        Ok(done("placed", &paper.submitted.reference))
    }
    .await;
    or_page(&state, result, String::new()).await
}

/// Where `paper` is placed, read on `conn`; 400 when it is not in the programme.
async fn placement_of(conn: &mut Connection, paper: &Submission) -> Result<store::Placement, AppError> {
    store::placement(conn, paper.id).await?.ok_or_else(|| {
        AppError::BadRequest(format!(
            "“{}” ({}) is not in the programme; nothing was changed.",
            paper.submitted.paper_title.trim(),
            paper.submitted.reference
        ))
    })
}

/// POST `/organiser/programme/move`: `paper`, `direction` (`earlier` or `later`).
pub async fn move_talk(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let fields = fields(&body);
        let reference = one(&fields, "paper")?;
        let (by, word) = match one(&fields, "direction")? {
            "earlier" => (-1, "first"),
            "later" => (1, "last"),
            other => {
                return Err(AppError::BadRequest(format!(
                    "\"{}\" is not a direction: use \"earlier\" or \"later\".",
                    shown(other)
                )));
            }
        };
        let paper = submission(&state, reference).await?;
        let at = timestamp(state.clock.now());
        let mut tx = crate::db::begin_write(&state.pool).await?;
        let before = placement_of(&mut tx, &paper).await?;
        if !store::shift(&mut tx, paper.id, by).await? {
            return Err(AppError::BadRequest(format!(
                "“{}” is already the {word} talk of its session; nothing was changed.",
                paper.submitted.paper_title.trim()
            )));
        }
        let details = json!({
            "session": before.session,
            "position": { "before": before.position, "after": before.position + by },
        });
        organiser.record_on_submission(&mut tx, &at, "programme.moved", &paper.submitted.reference, details).await?;
        tx.commit().await?;
        Ok(done("moved", &paper.submitted.reference))
    }
    .await;
    or_page(&state, result, String::new()).await
}

/// POST `/organiser/programme/remove`: `paper`. Works whatever the paper's state, so a
/// withdrawn paper's placement (a conflict) can be taken out.
pub async fn remove(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let fields = fields(&body);
        let reference = one(&fields, "paper")?;
        let paper = submission(&state, reference).await?;
        let at = timestamp(state.clock.now());
        let mut tx = crate::db::begin_write(&state.pool).await?;
        let before = placement_of(&mut tx, &paper).await?;
        store::unplace(&mut tx, paper.id).await?;
        let details = json!({
            "session": { "before": before.session, "after": null },
            "position": { "before": before.position, "after": null },
            "minutes": { "before": before.minutes, "after": null },
        });
        organiser.record_on_submission(&mut tx, &at, "programme.removed", &paper.submitted.reference, details).await?;
        tx.commit().await?;
        Ok(done("removed", &paper.submitted.reference))
    }
    .await;
    or_page(&state, result, String::new()).await
}

/// POST `/organiser/programme/lock`: `lock` = `yes` (authors can no longer edit their public
/// abstract and presenter) or `no` (they can again).
pub async fn lock(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let result = async {
        let fields = fields(&body);
        let lock = match one(&fields, "lock")? {
            "yes" => true,
            "no" => false,
            other => {
                return Err(AppError::BadRequest(format!(
                    "\"lock\" must be \"yes\" or \"no\", not \"{}\".",
                    shown(other)
                )));
            }
        };
        let at = timestamp(state.clock.now());
        let mut tx = crate::db::begin_write(&state.pool).await?;
        let before = store::locked_on(&mut tx).await?;
        let action = if lock { "locked" } else { "unlocked" };
        if before.is_some() == lock {
            // Already so (another organiser, a second click): nothing changes, nothing is logged.
            return Ok(see_other(&format!("{PATH}?done={action}")));
        }
        store::set_locked(&mut tx, lock.then_some((at.as_str(), organiser.email.as_str()))).await?;
        let mut entry = organiser.entry(&at, if lock { "programme.locked" } else { "programme.unlocked" });
        entry.details = json!({ "locked": { "before": before.is_some(), "after": lock } });
        crate::repo::audit::record(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(see_other(&format!("{PATH}?done={action}")))
    }
    .await;
    or_page(&state, result, String::new()).await
}

/// POST `/organiser/programme/publish`: `name` (at most [`NAME_MAX_CHARS`] characters) and
/// `expected` (the version number the page offered).
pub async fn publish_version(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    body: Bytes,
) -> Result<Response, AppError> {
    let fields = fields(&body);
    let typed = fields.iter().find(|(k, _)| k == "name").map(|(_, v)| v.clone()).unwrap_or_default();
    let result = async {
        let name = one(&fields, "name")?;
        let expected = one(&fields, "expected")?.parse::<i64>().ok().filter(|n| *n >= 1).ok_or_else(|| {
            AppError::BadRequest("The form's version number is not a number. Load the page again.".into())
        })?;
        let snapshot = state.content.snapshot().await;
        let moved = MovedTalkMail::new(snapshot.site()?, &state.config, snapshot.zone.clone());
        let mail = |version: &Published, talk: &Talk, paper: &Paper| moved.mail(version, talk, paper);
        let at = state.clock.now();
        match publish(&state.pool, expected, name, &organiser.email, organiser.client.as_deref(), at, &mail).await {
            Ok(version) => {
                // This instance serves the new version at once (the others within a poll):
                // `/schedule/changes` and the programme pages show it on the next request.
                if let Err(err) = state.content.reload().await {
                    tracing::warn!(error = %err, "content reload after publishing failed; the watcher retries");
                }
                Ok(see_other(&format!("{PATH}?done=published&version={}", version.number)))
            }
            Err(PublishError::BadName) => Err(AppError::BadRequest(PublishError::BadName.to_string())),
            Err(err @ (PublishError::Conflicts(_) | PublishError::Taken(_))) => {
                Err(AppError::Conflict(format!("{} Nothing was published.", err)))
            }
            Err(PublishError::Database(err)) => Err(err.into()),
        }
    }
    .await;
    or_page(&state, result, typed).await
}

/// A paper's public abstract and presenter.
#[derive(Template)]
#[template(path = "organiser/programme_paper.html")]
struct PaperPage {
    layout: Layout,
    reference: String,
    title: String,
    authors: Vec<String>,
    state: String,
    /// Where it is placed: "Fixture session A, 09:00–09:15", or `None`.
    placed: Option<String>,
    presenter: String,
    public_abstract: String,
    problem: Option<String>,
    lock: Option<(Moment, String)>,
    action: String,
    max_words: usize,
    words: usize,
}

/// The accepted or placed paper `reference` (what the programme may show), with its public
/// fields; 404 for an unknown reference, 400 for one the programme cannot show.
async fn programme_paper(state: &AppState, reference: &str) -> Result<(Workbench, Paper), AppError> {
    let Some(submission) = rows::by_reference(&state.pool, reference).await? else {
        return Err(AppError::NotFound(format!("No submission has the reference {}.", shown(reference))));
    };
    let bench = Workbench::load(&state.pool).await?;
    let Some(paper) = bench.papers.iter().find(|p| p.id == submission.id).cloned() else {
        return Err(AppError::BadRequest(format!(
            "Submission {} is {}; only accepted papers have a public abstract and presenter.",
            submission.submitted.reference,
            crate::decisions::state_label(&submission.state).to_lowercase()
        )));
    };
    Ok((bench, paper))
}

async fn paper_page(
    state: &AppState,
    status: StatusCode,
    reference: &str,
    typed: Option<(String, String)>,
    problem: Option<String>,
) -> Result<Response, AppError> {
    let (bench, paper) = programme_paper(state, reference).await?;
    let placed = bench.draft.talks.iter().find(|t| t.submission == Some(paper.id)).map(|t| {
        let slot = talk_slot(&bench.draft, t);
        slot_label(&slot)
    });
    let (stored_abstract, stored_presenter) = store::public_fields(&state.pool, paper.id).await?;
    let zone = view::event_zone(state).await;
    let (public_abstract, presenter) = typed.unwrap_or_else(|| {
        let presenter = if stored_presenter.is_empty() { paper.presenter.clone() } else { stored_presenter };
        (stored_abstract, presenter)
    });
    let page = PaperPage {
        layout: layout(state, &format!("Programme: {}", paper.reference), PATH).await?,
        reference: paper.reference.clone(),
        title: paper.title.clone(),
        authors: paper.authors.clone(),
        state: crate::decisions::state_label(&paper.state).to_owned(),
        placed,
        words: abstracts::word_count(&public_abstract),
        presenter,
        public_abstract,
        problem,
        lock: store::locked(&state.pool).await?.map(|(at, by)| (view::when(&at, &zone), by)),
        action: paper_href(&paper.reference),
        max_words: ABSTRACT_MAX_WORDS,
    };
    render(status, &page)
}

/// GET `/organiser/programme/papers/{reference}`.
pub async fn paper(
    State(state): State<AppState>,
    SignedIn(_): SignedIn,
    Path(reference): Path<String>,
) -> Result<Response, AppError> {
    paper_page(&state, StatusCode::OK, &reference, None, None).await
}

/// POST `/organiser/programme/papers/{reference}`: `abstract` (at most
/// [`ABSTRACT_MAX_WORDS`] words, [`abstracts::check_abstract`]) and `presenter` (one of the
/// paper's authors). Organisers may edit both whether or not authors' edits are locked.
pub async fn edit_paper(
    State(state): State<AppState>,
    SignedIn(organiser): SignedIn,
    Path(reference): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    let fields = fields(&body);
    let typed = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default();
    let (typed_abstract, typed_presenter) = (typed("abstract"), typed("presenter"));
    let result = async {
        let (_, paper) = programme_paper(&state, &reference).await?;
        let text =
            abstracts::check_abstract(one(&fields, "abstract")?).map_err(|e| AppError::BadRequest(e.to_string()))?;
        let chosen = one(&fields, "presenter")?;
        let Some(presenter) = paper.authors.iter().find(|a| a.eq_ignore_ascii_case(chosen)).cloned() else {
            return Err(AppError::BadRequest(format!(
                "\"{}\" is not an author of this paper. Choose one of: {}.",
                shown(chosen),
                paper.authors.join(", ")
            )));
        };
        let at = timestamp(state.clock.now());
        let mut tx = crate::db::begin_write(&state.pool).await?;
        let (abstract_before, presenter_before) = store::public_fields_on(&mut tx, paper.id).await?;
        if abstract_before == text && presenter_before == presenter {
            return Ok(done("paper", &paper.reference));
        }
        store::set_public_fields(&mut tx, paper.id, &text, &presenter).await?;
        let details = json!({
            "presenter": { "before": presenter_before, "after": presenter },
            "public_abstract": { "before": abstract_before, "after": text },
        });
        organiser.record_on_submission(&mut tx, &at, "programme.paper_edited", &paper.reference, details).await?;
        tx.commit().await?;
        Ok(done("paper", &paper.reference))
    }
    .await;
    match result {
        Ok(response) => Ok(response),
        Err(err @ AppError::BadRequest(_)) => {
            let message = err.public_message();
            paper_page(&state, err.status(), &reference, Some((typed_abstract, typed_presenter)), Some(message)).await
        }
        Err(other) => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_and_slots_read_as_organisers_say_them() {
        assert_eq!(left_label(25), "25 min left");
        assert_eq!(left_label(0), "0 min left");
        assert_eq!(left_label(-10), "10 min over");
        let slot = Slot {
            session: "Session A".into(),
            room: "Tide Room A".into(),
            starts_at: "2025-03-22 09:00".into(),
            ends_at: "2025-03-22 09:15".into(),
        };
        assert_eq!(slot_label(&slot), "Session A, Tide Room A, 2025-03-22 09:00–09:15");
        assert_eq!(paper_href("P-2025 1"), "/organiser/programme/papers/P-2025%201");
    }
}
