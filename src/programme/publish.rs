//! The organisers' working copy of the programme and publishing it (issue 31 items 2 and 3).
//!
//! [`Workbench::load`] reads the seed's programme, the placement and the papers fresh from the
//! database and builds the draft with its conflicts: what `/organiser/programme` shows.
//! [`publish`] refuses a draft with conflicts, and otherwise stores it as the next version in
//! one transaction with its changelog, one mail per moved talk's paper (outbox key
//! `talk-moved:<submission id>:<version>`, so each goes once whichever instance publishes),
//! the audit entry and the content version every instance watches.

use time::OffsetDateTime;

use super::changes::{changes, moved_papers};
use super::conflicts::{Conflict, conflicts};
use super::draft::{Paper, Placement, Seed, draft};
use crate::db::Pool;
use crate::error::{AppError, Outcome, Refused};
use crate::mail::OutgoingMail;
use crate::repo::audit::Actor;
use crate::repo::content::{self, Room, Session, Speaker, Track};
use crate::repo::programme as repo;
use crate::repo::published::{Change, Published, Talk};

/// The longest version name organisers may give (characters).
pub const NAME_MAX_CHARS: usize = 80;

/// Everything the programme is made of now, and the draft it makes.
#[derive(Debug, Clone)]
pub struct Workbench {
    pub rooms: Vec<Room>,
    pub tracks: Vec<Track>,
    pub sessions: Vec<Session>,
    pub speakers: Vec<Speaker>,
    pub placements: Vec<Placement>,
    /// Accepted and placed papers.
    pub papers: Vec<Paper>,
    /// The latest published version.
    pub previous: Option<Published>,
    /// The draft as it would be published now (number, name and time not set).
    pub draft: Published,
    pub conflicts: Vec<Conflict>,
}

impl Workbench {
    /// Reads the seed's programme, the placement, the papers and the latest version.
    pub async fn load(pool: &Pool) -> Result<Workbench, sqlx::Error> {
        let rooms = content::rooms(pool).await?;
        let tracks = content::tracks(pool).await?;
        let sessions = content::sessions(pool).await?;
        let speakers = content::speakers(pool).await?;
        let placements = repo::placements(pool).await?;
        let papers: Vec<Paper> = repo::papers(pool)
            .await?
            .iter()
            .map(|p| Paper::of(&p.submission, &p.presenter, &p.public_abstract))
            .collect();
        let previous = repo::latest(pool).await?;
        let seed = Seed { rooms: &rooms, tracks: &tracks, sessions: &sessions, speakers: &speakers };
        let draft = draft(&seed, &placements, &papers, previous.as_ref());
        let conflicts = conflicts(&draft, &placements, &papers);
        Ok(Workbench { rooms, tracks, sessions, speakers, placements, papers, previous, draft, conflicts })
    }

    /// What publishing now would change (empty for the first version).
    pub fn changes(&self) -> Vec<Change> {
        changes(self.previous.as_ref(), &self.draft)
    }

    /// The number the next version gets.
    pub fn next_number(&self) -> i64 {
        self.previous.as_ref().map_or(1, |p| p.number + 1)
    }

    /// The paper placed as `talk`, if any.
    pub fn paper_of(&self, talk: &Talk) -> Option<&Paper> {
        self.papers.iter().find(|p| Some(p.id) == talk.submission)
    }
}

/// Why a version was not published.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error("Give the version a name (at most {NAME_MAX_CHARS} characters).")]
    BadName,
    #[error("The programme has {} conflict(s); resolve them before publishing.", .0.len())]
    Conflicts(Vec<Conflict>),
    /// Someone published version `number` since the page was drawn.
    #[error("Version {0} was just published by someone else; look at the programme again before publishing.")]
    Taken(i64),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// What a moved talk's mail says: made by the caller (it knows the site's address and the
/// mail layout) for the new version, the talk and its paper.
pub type MovedMail<'a> = dyn Fn(&Published, &Talk, &Paper) -> OutgoingMail + Send + Sync + 'a;

/// The "Publish" form of `/organiser/programme`: publishes the draft as version `expected`
/// (the number the page offered, as typed) named `name`, by `actor`, at `now` ([`publish`]).
///
/// Refused with 400 for a number that is not one or a bad name; as not allowed (409) while
/// the draft has conflicts; as stale (409) when someone published that version since the
/// page was drawn. The 409s' messages end "Nothing was published."
pub async fn publish_version(
    pool: &Pool,
    now: OffsetDateTime,
    actor: &Actor,
    expected: &str,
    name: &str,
    moved_mail: &MovedMail<'_>,
) -> Outcome<Published> {
    let expected = expected.parse::<i64>().ok().filter(|n| *n >= 1).ok_or_else(|| {
        AppError::BadRequest("The form's version number is not a number. Load the page again.".into())
    })?;
    match publish(pool, expected, name, &actor.email, actor.client.as_deref(), now, moved_mail).await {
        Ok(version) => Ok(version),
        Err(PublishError::BadName) => Err(AppError::BadRequest(PublishError::BadName.to_string()).into()),
        Err(err @ PublishError::Conflicts(_)) => Err(Refused::NotAllowed(format!("{err} Nothing was published."))),
        Err(err @ PublishError::Taken(_)) => Err(Refused::Stale(format!("{err} Nothing was published."))),
        Err(PublishError::Database(err)) => Err(err.into()),
    }
}

/// Publishes the draft as version `expected` named `name`, by `actor` (an organiser's address)
/// from `client`, at `at`. `expected` is the number the organiser's page offered, so a page
/// drawn before someone else published cannot publish over their version unseen.
///
/// Errors: a blank or long name, conflicts in the draft, a version of that number exists
/// ([`PublishError::Taken`]), or the database.
pub async fn publish(
    pool: &Pool,
    expected: i64,
    name: &str,
    actor: &str,
    client: Option<&str>,
    at: OffsetDateTime,
    moved_mail: &MovedMail<'_>,
) -> Result<Published, PublishError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > NAME_MAX_CHARS || name.chars().any(char::is_control) {
        return Err(PublishError::BadName);
    }
    let bench = Workbench::load(pool).await?;
    if bench.next_number() != expected {
        return Err(PublishError::Taken(expected));
    }
    if !bench.conflicts.is_empty() {
        return Err(PublishError::Conflicts(bench.conflicts));
    }
    let mut version = bench.draft.clone();
    version.number = expected;
    version.name = name.to_owned();
    version.published_at = crate::clock::stamp::timestamp(at);
    let changed = changes(bench.previous.as_ref(), &version);
    let mails: Vec<OutgoingMail> = moved_papers(bench.previous.as_ref(), &version)
        .into_iter()
        .filter_map(|talk| {
            let paper = bench.paper_of(talk)?;
            let key = format!("talk-moved:{}:{}", paper.id, version.number);
            Some(moved_mail(&version, talk, paper).dedupe_key(key))
        })
        .collect();
    let mut tx = crate::db::begin_write(pool).await?;
    if !repo::insert_version(&mut tx, &version, &changed, actor).await? {
        return Err(PublishError::Taken(expected));
    }
    for mail in &mails {
        crate::mail::enqueue(&mut tx, mail).await?;
    }
    let number = version.number.to_string();
    let mut entry = crate::repo::audit::NewEntry::new(&version.published_at, actor, client, "programme.published")
        .about("programme", &number);
    entry.details = serde_json::json!({
        "name": version.name,
        "talks": version.talks.len(),
        "changes": changed.len(),
        "mails": mails.len(),
    });
    crate::repo::audit::record(&mut tx, &entry).await?;
    crate::db::bump_content_version(&mut tx).await?;
    tx.commit().await?;
    tracing::info!(version = version.number, name = %version.name, talks = version.talks.len(), "programme published");
    Ok(version)
}
