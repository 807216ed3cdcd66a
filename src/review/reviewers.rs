//! The reviewers as organisers invite and remove them, and their answer to the invitation
//! (issue 32 item 1, DESIGN.md section 15), one function per action. Each opens its own
//! write transaction, re-checks the reviewer's state there, queues its mail through the
//! outbox and writes its audit entry in the same transaction, and answers what it did or
//! why it did nothing ([`Refused`]). Who may be invited is [`super::roster`]'s rule; the
//! mail is [`super::invitation_mail`]; the pages are `crate::handlers::organiser::reviewers`
//! and `crate::handlers::review::invitation`; the SQL is `crate::repo::reviewers`.
//!
//! - An invitation stores the reviewer as `invited` (a removed reviewer invited again is
//!   invited again, on their row) with a fresh token, stored only as its SHA-256.
//! - A pasted list invites every row in one transaction, or nobody when one row is bad.
//! - Sending again replaces the token: the old link stops working.
//! - A removal ends the reviewer's sessions at once and hands back their unfinished
//!   assignments; submitted reviews stay.
//! - The invitation is answered once, by its link: accepted or declined, audited with the
//!   reviewer's address as the actor.

use std::collections::{BTreeMap, HashMap};

use serde_json::json;
use time::OffsetDateTime;

use super::invitation_mail::{self, Links};
use super::roster::{self, ImportError, Invitee, RowError};
use crate::base::secrets::{self, Secret};
use crate::clock::stamp::timestamp;
use crate::config::Config;
use crate::db::{Connection, Pool};
use crate::error::{Outcome, Refused};
use crate::mail::Context;
use crate::repo::audit::{self, Actor, NewEntry};
use crate::repo::content::lines;
use crate::repo::dashboard::Counts;
use crate::repo::organisers as sessions;
use crate::repo::reviewers::{self as store, Invitation, Listed, Reviewer};

/// The states in the order the organisers' summary counts them.
pub const STATES: [&str; 4] = ["invited", "accepted", "declined", "removed"];

/// One page of the reviewers' list: `total` reviewers in all, this page's `rows`, and how
/// many are in each state of [`STATES`] (in that order, states nobody is in left out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub total: i64,
    pub rows: Vec<Listed>,
    pub by_state: Vec<(&'static str, i64)>,
}

/// Page `page` (from 1) of the reviewers, removed ones last ([`store::list`]), with the
/// counts by state, both kept in `counts` until a reviewer changes.
pub async fn listing(pool: &Pool, counts: &Counts, page: i64) -> Result<Listing, sqlx::Error> {
    let (total, rows) = store::list(pool, page, counts).await?;
    let counted = store::states_counted(pool, counts).await?;
    let by_state = STATES
        .iter()
        .map(|s| (*s, counted.iter().find(|(state, _)| state == s).map_or(0, |(_, count)| *count)))
        .filter(|(_, count)| *count > 0)
        .collect();
    Ok(Listing { total, rows, by_state })
}

/// Reviewer `id`, whatever their state.
pub async fn reviewer(pool: &Pool, id: i64) -> Result<Option<Reviewer>, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    store::by_id(&mut conn, id).await
}

/// How many unfinished assignments reviewer `id`'s latest removal handed back, as its audit
/// entry (`reviewer.removed`) recorded; 0 without one.
pub async fn handed_back_at_removal(pool: &Pool, id: i64) -> Result<i64, sqlx::Error> {
    let entries = audit::of_object(pool, "reviewer", &id.to_string()).await?;
    Ok(entries
        .iter()
        .rev()
        .find(|e| e.action == "reviewer.removed")
        .and_then(|e| serde_json::from_str::<serde_json::Value>(&e.details).ok())
        .and_then(|d| d["handed_back"].as_i64())
        .unwrap_or(0))
}

/// The one-reviewer form as typed: `topics` once per chosen focus area.
#[derive(Debug, Clone, Copy)]
pub struct Typed<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub affiliation: &'a str,
    pub topics: &'a [&'a str],
}

/// What [`invite`] did: reviewer `id` is invited and their invitation mail is queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invited {
    pub id: i64,
}

/// What the page says when the one-reviewer form invited nobody.
pub const INVITE_REFUSED: &str = "Nobody was invited: please correct the form below.";

/// Invites one reviewer from the organisers' form, `focus_areas` being the conference's
/// (`site.focus_areas`, one per item): stores them as invited, queues the invitation mail
/// and audits `reviewer.invited` (`via: "form"`).
///
/// Refused as [`Refused::Invalid`] with [`INVITE_REFUSED`] and each field's message, keyed
/// by the form's names ([`roster::check`], and `email` when the address is already a
/// reviewer, [`roster::taken`], or was invited by another request a moment ago).
pub async fn invite(
    pool: &Pool,
    config: &Config,
    links: &Links,
    now: OffsetDateTime,
    actor: &Actor,
    typed: Typed<'_>,
    focus_areas: &[&str],
) -> Outcome<Invited> {
    let refused = |errors: BTreeMap<String, String>| Refused::Invalid { message: INVITE_REFUSED.to_owned(), errors };
    let invitee = roster::check(typed.name, typed.email, typed.affiliation, typed.topics, focus_areas)
        .map_err(|errors| refused(errors.into_iter().map(|e| (e.field.name().to_owned(), e.message)).collect()))?;
    let ctx = Context::load(pool, config).await?;
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let states = stored_states(&mut tx).await?;
    if let Some(message) = roster::taken(&invitee.email, states.get(&invitee.email).map(String::as_str)) {
        return Err(refused(BTreeMap::from([("email".to_owned(), message)])));
    }
    let id = match invite_one(&mut tx, &ctx, links, actor, &invitee, "form", &at).await {
        Ok(id) => id,
        Err(Refused::Invalid { errors, .. }) => {
            return Err(refused(errors.into_values().map(|message| ("email".to_owned(), message)).collect()));
        }
        Err(other) => return Err(other),
    };
    tx.commit().await?;
    Ok(Invited { id })
}

/// What [`import`] did: `count` reviewers invited, each with a mail of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Imported {
    pub count: usize,
}

/// Invites every reviewer of a pasted CSV ([`roster::parse`]) in one transaction, each
/// audited as `reviewer.invited` (`via: "csv"`), or nobody.
///
/// Refused as [`Refused::Invalid`] whose message is the [`ImportError`]'s and whose errors
/// are the bad rows (`Line 3: ...`), keyed `line-000003` so that they sort by line; no
/// errors when the list is empty or too long.
pub async fn import(
    pool: &Pool,
    config: &Config,
    links: &Links,
    now: OffsetDateTime,
    actor: &Actor,
    text: &str,
    focus_areas: &[&str],
) -> Outcome<Imported> {
    let rows = roster::parse(text, focus_areas).map_err(import_refused)?;
    let ctx = Context::load(pool, config).await?;
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let states = stored_states(&mut tx).await?;
    let taken: Vec<RowError> = rows
        .iter()
        .filter_map(|row| {
            let state = states.get(&row.invitee.email).map(String::as_str);
            roster::taken(&row.invitee.email, state).map(|message| RowError { line: row.line, message })
        })
        .collect();
    if !taken.is_empty() {
        return Err(import_refused(ImportError::Rows(taken)));
    }
    for row in &rows {
        match invite_one(&mut tx, &ctx, links, actor, &row.invitee, "csv", &at).await {
            Ok(_) => {}
            Err(Refused::Invalid { message, .. }) => {
                return Err(import_refused(ImportError::Rows(vec![RowError { line: row.line, message }])));
            }
            Err(other) => return Err(other),
        }
    }
    tx.commit().await?;
    Ok(Imported { count: rows.len() })
}

/// An [`ImportError`] as [`import`] refuses it.
fn import_refused(err: ImportError) -> Refused {
    let errors = match &err {
        ImportError::Rows(rows) => rows.iter().map(|row| (format!("line-{:06}", row.line), row.to_string())).collect(),
        _ => BTreeMap::new(),
    };
    Refused::Invalid { message: err.to_string(), errors }
}

/// The states of the stored addresses.
async fn stored_states(conn: &mut Connection) -> Result<HashMap<String, String>, sqlx::Error> {
    Ok(store::states(conn).await?.into_iter().collect())
}

/// Invites `invitee` on `conn` (the caller checked the address is not taken): a new row, or
/// the removed reviewer's row again; the mail and the audit entry. The reviewer's id.
async fn invite_one(
    conn: &mut Connection,
    ctx: &Context,
    links: &Links,
    actor: &Actor,
    invitee: &Invitee,
    via: &str,
    at: &str,
) -> Outcome<i64> {
    let secret = Secret::generate();
    let topics = invitee.topics_text();
    let invitation = Invitation {
        email: &invitee.email,
        name: &invitee.name,
        affiliation: &invitee.affiliation,
        topics: &topics,
        hash: &secret.hash,
        at,
    };
    let (id, again) = match store::reinvite(conn, &invitation).await? {
        Some(id) => (id, true),
        None => (store::insert_invited(conn, &invitation).await.map_err(|e| taken_on_race(e, &invitee.email))?, false),
    };
    let mail = invitation_mail::queue(conn, ctx, links, id, invitee, &secret).await?;
    let id_text = id.to_string();
    let mut entry = actor.entry(at, "reviewer.invited").about("reviewer", &id_text);
    entry.details = json!({
        "state": { "before": if again { Some("removed") } else { None }, "after": "invited" },
        "name": invitee.name,
        "email": invitee.email,
        "affiliation": invitee.affiliation,
        "topics": invitee.topics.join(", "),
        "via": via,
        "mail": mail,
    });
    audit::record(conn, &entry).await?;
    Ok(id)
}

/// A unique-address violation (another organiser invited the same address a moment ago, on
/// PostgreSQL) refused as the address check refuses it.
fn taken_on_race(err: sqlx::Error, email: &str) -> Refused {
    match &err {
        sqlx::Error::Database(db) if db.is_unique_violation() => Refused::Invalid {
            message: format!("{email} was invited a moment ago, by another request."),
            errors: BTreeMap::from([(
                "email".to_owned(),
                format!("{email} has just been invited by another request."),
            )]),
        },
        _ => err.into(),
    }
}

/// What [`resend`] did: reviewer `id` has a new invitation; the earlier link no longer works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resent {
    pub id: i64,
}

/// The refusal of an action on reviewer `id`, who does not exist.
fn no_reviewer(id: i64) -> Refused {
    Refused::NotFound(format!("No reviewer has the number {id}."))
}

/// Sends reviewer `id` a new invitation with a new link (the old one stops working), audited
/// as `reviewer.invitation_resent` with the invitation time before and after.
///
/// Refused as not found for an unknown `id`, and as not allowed (409) when the reviewer has
/// no open invitation (answered or removed).
pub async fn resend(
    pool: &Pool,
    config: &Config,
    links: &Links,
    now: OffsetDateTime,
    actor: &Actor,
    id: i64,
) -> Outcome<Resent> {
    let ctx = Context::load(pool, config).await?;
    let at = timestamp(now);
    let secret = Secret::generate();
    let mut tx = crate::db::begin_write(pool).await?;
    let reviewer = store::by_id(&mut tx, id).await?.ok_or_else(|| no_reviewer(id))?;
    if !store::renew_invitation(&mut tx, id, &secret.hash, &at).await? {
        return Err(Refused::NotAllowed(format!(
            "{} ({}) is {}, so there is no open invitation to send again; nothing was sent.",
            reviewer.name,
            reviewer.email,
            state_word(&reviewer.state)
        )));
    }
    let invitee = Invitee {
        name: reviewer.name.clone(),
        email: reviewer.email.clone(),
        affiliation: reviewer.affiliation.clone(),
        topics: lines(&reviewer.topics).into_iter().map(str::to_owned).collect(),
    };
    let mail = invitation_mail::queue(&mut tx, &ctx, links, id, &invitee, &secret).await?;
    let id_text = id.to_string();
    let mut entry = actor.entry(&at, "reviewer.invitation_resent").about("reviewer", &id_text);
    entry.details = json!({ "invited_at": { "before": reviewer.invited_at, "after": at }, "mail": mail });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Resent { id })
}

/// A stored state in a sentence's words: `invited`, `removed` (the stored words are the
/// shown ones, with `_` as a space).
fn state_word(state: &str) -> String {
    state.replace('_', " ").to_lowercase()
}

/// What [`remove`] did to reviewer `id`: `handed_back` unfinished assignments withdrawn and
/// `sessions` reviewer sessions ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removed {
    pub id: i64,
    pub handed_back: u64,
    pub sessions: u64,
}

/// Removes reviewer `id`: their reviewer sessions end at once and their unfinished
/// assignments are handed back (submitted reviews stay); audited as `reviewer.removed` with
/// the state before, `handed_back` and `sessions`.
///
/// Refused as not found for an unknown `id`, and as not allowed (409) when they were
/// removed already.
pub async fn remove(pool: &Pool, now: OffsetDateTime, actor: &Actor, id: i64) -> Outcome<Removed> {
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let reviewer = store::by_id(&mut tx, id).await?.ok_or_else(|| no_reviewer(id))?;
    if !store::remove(&mut tx, id, &at).await? {
        return Err(Refused::NotAllowed(format!(
            "{} ({}) was removed already; nothing was changed.",
            reviewer.name, reviewer.email
        )));
    }
    let handed_back = store::hand_back_assignments(&mut tx, id).await?;
    let ended = sessions::delete_role_sessions_of(&mut tx, &reviewer.email, crate::repo::organisers::REVIEWER).await?;
    let id_text = id.to_string();
    let mut entry = actor.entry(&at, "reviewer.removed").about("reviewer", &id_text);
    entry.details = json!({
        "state": { "before": reviewer.state, "after": "removed" },
        "handed_back": handed_back,
        "sessions": ended,
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    tracing::info!(reviewer = id, handed_back, sessions = ended, "reviewer removed");
    Ok(Removed { id, handed_back, sessions: ended })
}

/// The open invitation `token` opens (not answered, not replaced by a newer one, the
/// reviewer not removed); `None` for any other token, malformed ones included.
pub async fn open_invitation(pool: &Pool, token: &str) -> Result<Option<Reviewer>, sqlx::Error> {
    if !secrets::is_well_formed(token) {
        return Ok(None);
    }
    store::by_invitation(pool, &secrets::hash(token)).await
}

/// An answer to the invitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Accept,
    Decline,
}

impl Answer {
    /// `accept` or `decline`, as the form and the mail's links send it.
    pub fn parse(value: &str) -> Option<Answer> {
        match value {
            "accept" => Some(Answer::Accept),
            "decline" => Some(Answer::Decline),
            _ => None,
        }
    }

    /// The state it stores.
    pub fn state(self) -> &'static str {
        match self {
            Answer::Accept => "accepted",
            Answer::Decline => "declined",
        }
    }

    /// The audit log's action.
    pub fn action(self) -> &'static str {
        match self {
            Answer::Accept => "reviewer.accepted",
            Answer::Decline => "reviewer.declined",
        }
    }
}

/// What [`answer`] did: reviewer `id` (`email`) gave `answer`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered {
    pub id: i64,
    pub email: String,
    pub answer: Answer,
}

/// Answers the invitation `token` opens, once: one atomic update sets the state and the
/// time and clears the token; audited as `reviewer.accepted` or `reviewer.declined` with
/// the reviewer's address as the actor, from `client`.
///
/// Refused as not found (with no words: the page says it) when the token opens nothing,
/// answered or replaced since the form was drawn included.
pub async fn answer(
    pool: &Pool,
    now: OffsetDateTime,
    client: Option<&str>,
    token: &str,
    answer: Answer,
) -> Outcome<Answered> {
    if !secrets::is_well_formed(token) {
        return Err(Refused::NotFound(String::new()));
    }
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let Some(answered) = store::answer_invitation(&mut tx, &secrets::hash(token), answer.state(), &at).await? else {
        return Err(Refused::NotFound(String::new()));
    };
    let id = answered.id.to_string();
    let entry = NewEntry {
        details: json!({ "state": { "before": "invited", "after": answer.state() } }),
        ..NewEntry::new(&at, &answered.email, client, answer.action()).about("reviewer", &id)
    };
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    tracing::info!(reviewer = answered.id, answer = answer.state(), "reviewer answered the invitation");
    Ok(Answered { id: answered.id, email: answered.email, answer })
}
