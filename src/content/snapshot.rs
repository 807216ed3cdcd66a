//! The immutable content snapshot: everything a page, the collections API, the sitemap and
//! the calendar read, loaded from the content tables in one pass (DESIGN.md section 10).

use std::collections::HashMap;

use crate::clock::zone::Zone;
use crate::db::Pool;
use serde::Serialize;
use serde_json::Value;

use super::block::{self, Block, BlockError};
use super::collections::COLLECTIONS;
use crate::repo::content::{
    self, Attraction, CoOrganizer, CommitteeMember, DateItem, GalleryImage, Highlight, Item, Material, Partner, Policy,
    PolicySection, Room, Session, Site, Speaker, SponsorPackage, Statistic, TicketPlan, Track,
};
use crate::repo::programme;
use crate::repo::published::{Published, VersionSummary};

/// All content at one content version. Each block is `Err` only when it could not be read
/// the first time (its page shows the spec's error text there); a later reload that fails
/// keeps the previous snapshot instead (see `super::store`).
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// `content_version.version` read before and after the load (equal: one seed's content).
    pub version: i64,
    /// Set by the store: a new number for each snapshot it installs; part of the page cache key.
    pub generation: u64,
    pub site: Block<Site>,
    pub policies: Block<Vec<Policy>>,
    /// Sections of each policy, by policy slug.
    pub policy_sections: HashMap<String, Block<Vec<PolicySection>>>,
    pub dates: Block<Vec<DateItem>>,
    pub committee: Block<Vec<CommitteeMember>>,
    /// The programme (issue 31): rooms and tracks in their order, sessions in time order.
    pub rooms: Block<Vec<Room>>,
    pub tracks: Block<Vec<Track>>,
    pub sessions: Block<Vec<Session>>,
    /// The latest published programme version (`None` before the first): what visitors see
    /// of the programme (`crate::programme::Programme::of`).
    pub published: Block<Option<Published>>,
    /// Every published version with its changes, newest first (`/schedule/changes`).
    pub versions: Block<Vec<VersionSummary>>,
    /// The event's zone (`site.time_zone`) from the tz database; a fixed zone at
    /// `site.utc_offset` when the database lacks it (logged).
    pub zone: Zone,
    /// The operational deadlines' values, the seed's and the organisers' (DESIGN.md section 20;
    /// which one is in force is `crate::calendar`'s rule). Changing one raises the content
    /// version, so every instance reloads it within a poll.
    pub calendar: Block<crate::repo::settings::Stored>,
    pub speakers: Block<Vec<Speaker>>,
    pub co_organizers: Block<Vec<CoOrganizer>>,
    pub materials: Block<Vec<Material>>,
    pub sponsors: Block<Vec<Partner>>,
    pub partners: Block<Vec<Partner>>,
    pub ticket_plans: Block<Vec<TicketPlan>>,
    pub sponsor_packages: Block<Vec<SponsorPackage>>,
    pub highlights: Block<Vec<Highlight>>,
    /// Topics of each highlight, by highlight slug.
    pub highlight_topics: HashMap<String, Block<Vec<Item>>>,
    pub main_awards: Block<Vec<Item>>,
    pub sustainability_awards: Block<Vec<Item>>,
    pub goals: Block<Vec<Item>>,
    pub objectives: Block<Vec<Item>>,
    pub faqs: Block<Vec<Item>>,
    pub why_attend: Block<Vec<Item>>,
    pub who_can_attend: Block<Vec<Item>>,
    pub registration_steps: Block<Vec<Item>>,
    pub home_statistics: Block<Vec<Statistic>>,
    pub impact_statistics: Block<Vec<Statistic>>,
    pub attractions: Block<Vec<Attraction>>,
    pub gallery: Block<Vec<GalleryImage>>,
    /// The collections of `/api/collections/{name}/records`, each record a JSON object in the
    /// old backend's shape (`collectionId`, `collectionName` added), in no particular order.
    pub collections: HashMap<&'static str, Block<Vec<Value>>>,
}

/// Logs a failed query with its block's name and keeps only the fact that it failed.
fn block<T>(name: &'static str, result: Result<T, sqlx::Error>) -> Block<T> {
    block::block(name, result)
}

impl Snapshot {
    /// Reads every content table once. Every query the site's pages and content APIs need is
    /// here (and in `repo::content`), so porting the loader ports them all.
    ///
    /// `Err` only when the content version cannot be read; failed tables become failed blocks.
    pub async fn load(pool: &Pool) -> Result<Snapshot, sqlx::Error> {
        // A seed commits its content and the version bump together; the same version before
        // and after the reads means no seed committed in between, so the snapshot is one
        // seed's content. Otherwise read again (bounded: a seed a second is already absurd).
        let mut attempts = 0;
        loop {
            let before = crate::db::content_version(pool).await?;
            let snapshot = Self::read(pool, before).await;
            let after = crate::db::content_version(pool).await?;
            attempts += 1;
            if before == after || attempts >= 3 {
                return Ok(Snapshot { version: after, ..snapshot });
            }
        }
    }

    async fn read(pool: &Pool, version: i64) -> Snapshot {
        let site = block("site", content::site(pool).await);
        let policies = block("policies", content::policies(pool).await);
        let mut policy_sections = HashMap::new();
        for policy in policies.iter().flatten() {
            let sections = block("policy_sections", content::policy_sections(pool, &policy.slug).await);
            policy_sections.insert(policy.slug.clone(), sections);
        }
        let highlights = block("highlights", content::highlights(pool).await);
        let mut highlight_topics = HashMap::new();
        for highlight in highlights.iter().flatten() {
            let topics = block("highlight_topics", content::highlight_topics(pool, &highlight.slug).await);
            highlight_topics.insert(highlight.slug.clone(), topics);
        }
        let dates = block("dates", content::dates(pool).await);
        let committee = block("committee", content::committee(pool).await);
        let rooms = block("rooms", content::rooms(pool).await);
        let tracks = block("tracks", content::tracks(pool).await);
        let sessions = block("sessions", content::sessions(pool).await);
        let published = block("programme_versions", programme::latest(pool).await);
        let versions = block("programme_versions", programme::versions(pool).await);
        let zone = event_zone(&site);
        let calendar =
            block("settings", async { crate::repo::settings::stored(&mut *pool.acquire().await?).await }.await);
        let speakers = block("speakers", content::speakers(pool).await);
        let co_organizers = block("co_organizers_img", content::co_organizers(pool).await);
        let materials = block("download_buttons", content::materials(pool).await);
        let collections = COLLECTIONS
            .iter()
            .map(|c| {
                let records = match c.name {
                    "dates" => records(c.name, &dates),
                    "committee" => records(c.name, &committee),
                    "schedule" => records(c.name, &schedule_records(&sessions, &rooms)),
                    "speakers" => records(c.name, &speakers),
                    "co_organizers_img" => records(c.name, &co_organizers),
                    "download_buttons" => records(c.name, &materials),
                    other => unreachable!("collection {other} has no record type"),
                };
                (c.name, records)
            })
            .collect();
        Snapshot {
            version,
            generation: 0,
            site,
            policies,
            policy_sections,
            highlights,
            highlight_topics,
            sponsors: block("sponsors", content::partners(pool, "sponsor").await),
            partners: block("partners", content::partners(pool, "partner").await),
            ticket_plans: block("ticket_plans", content::ticket_plans(pool).await),
            sponsor_packages: block("sponsor_packages", content::sponsor_packages(pool).await),
            main_awards: block("awards", content::awards(pool, "main").await),
            sustainability_awards: block("awards", content::awards(pool, "sustainability").await),
            goals: block("goals", content::goals(pool).await),
            objectives: block("objectives", content::objectives(pool).await),
            faqs: block("faqs", content::faqs(pool).await),
            why_attend: block("why_attend", content::about_items(pool, "why_attend").await),
            who_can_attend: block("who_can_attend", content::about_items(pool, "who_can_attend").await),
            registration_steps: block("registration steps", content::about_items(pool, "registration_step").await),
            home_statistics: block("statistics", content::statistics(pool, "home").await),
            impact_statistics: block("impact statistics", content::statistics(pool, "impact").await),
            attractions: block("attractions", content::attractions(pool).await),
            gallery: block("gallery", content::gallery(pool).await),
            dates,
            committee,
            rooms,
            tracks,
            sessions,
            published,
            versions,
            zone,
            calendar,
            speakers,
            co_organizers,
            materials,
            collections,
        }
    }

    /// A snapshot where every block failed: what pages render when not even the content
    /// version can be read (the spec's per-block error texts, a 500 without site settings).
    pub fn failed(err: &sqlx::Error) -> Snapshot {
        tracing::error!(error = %err, "content unavailable");
        Snapshot {
            version: -1,
            generation: 0,
            site: Err(BlockError),
            policies: Err(BlockError),
            policy_sections: HashMap::new(),
            dates: Err(BlockError),
            committee: Err(BlockError),
            rooms: Err(BlockError),
            tracks: Err(BlockError),
            sessions: Err(BlockError),
            published: Err(BlockError),
            versions: Err(BlockError),
            zone: Zone::fixed("UTC", time::UtcOffset::UTC),
            calendar: Err(BlockError),
            speakers: Err(BlockError),
            co_organizers: Err(BlockError),
            materials: Err(BlockError),
            sponsors: Err(BlockError),
            partners: Err(BlockError),
            ticket_plans: Err(BlockError),
            sponsor_packages: Err(BlockError),
            highlights: Err(BlockError),
            highlight_topics: HashMap::new(),
            main_awards: Err(BlockError),
            sustainability_awards: Err(BlockError),
            goals: Err(BlockError),
            objectives: Err(BlockError),
            faqs: Err(BlockError),
            why_attend: Err(BlockError),
            who_can_attend: Err(BlockError),
            registration_steps: Err(BlockError),
            home_statistics: Err(BlockError),
            impact_statistics: Err(BlockError),
            attractions: Err(BlockError),
            gallery: Err(BlockError),
            collections: COLLECTIONS.iter().map(|c| (c.name, Err(BlockError))).collect(),
        }
    }

    /// How many blocks failed to load (0 for a complete snapshot).
    pub fn failures(&self) -> usize {
        let singles = [
            self.site.is_err(),
            self.policies.is_err(),
            self.dates.is_err(),
            self.committee.is_err(),
            self.rooms.is_err(),
            self.tracks.is_err(),
            self.sessions.is_err(),
            self.published.is_err(),
            self.versions.is_err(),
            self.speakers.is_err(),
            self.co_organizers.is_err(),
            self.materials.is_err(),
            self.sponsors.is_err(),
            self.partners.is_err(),
            self.ticket_plans.is_err(),
            self.sponsor_packages.is_err(),
            self.highlights.is_err(),
            self.main_awards.is_err(),
            self.sustainability_awards.is_err(),
            self.goals.is_err(),
            self.objectives.is_err(),
            self.faqs.is_err(),
            self.why_attend.is_err(),
            self.who_can_attend.is_err(),
            self.registration_steps.is_err(),
            self.home_statistics.is_err(),
            self.impact_statistics.is_err(),
            self.attractions.is_err(),
            self.gallery.is_err(),
        ];
        singles.iter().filter(|failed| **failed).count()
            + self.policy_sections.values().filter(|b| b.is_err()).count()
            + self.highlight_topics.values().filter(|b| b.is_err()).count()
    }

    /// The site settings, or the internal error pages answer when they never loaded.
    pub fn site(&self) -> Result<&Site, crate::error::AppError> {
        self.site.as_ref().map_err(|_| crate::error::AppError::internal("content", "site settings are not loaded"))
    }

    /// A highlight by slug, with its topics.
    pub fn highlight(&self, slug: &str) -> Option<(&Highlight, Block<&[Item]>)> {
        let highlight = self.highlights.as_ref().ok()?.iter().find(|h| h.slug == slug)?;
        let topics = match self.highlight_topics.get(slug) {
            Some(Ok(topics)) => Ok(topics.as_slice()),
            _ => Err(BlockError),
        };
        Some((highlight, topics))
    }

    /// A policy by slug, with its sections.
    pub fn policy(&self, slug: &str) -> Option<(&Policy, Block<&[PolicySection]>)> {
        let policy = self.policies.as_ref().ok()?.iter().find(|p| p.slug == slug)?;
        let sections = match self.policy_sections.get(slug) {
            Some(Ok(sections)) => Ok(sections.as_slice()),
            _ => Err(BlockError),
        };
        Some((policy, sections))
    }

    /// A material (`download_buttons` record) by id.
    pub fn material(&self, id: &str) -> Option<&Material> {
        self.materials.as_ref().ok()?.iter().find(|m| m.id == id)
    }
}

/// The event's zone: `site.time_zone` from the tz database, else (no database on this
/// machine, or a zone it lacks: `conference seed` refuses those) `site.utc_offset` all year.
fn event_zone(site: &Block<Site>) -> Zone {
    let Ok(site) = site else { return Zone::fixed("UTC", time::UtcOffset::UTC) };
    Zone::load(&site.time_zone).unwrap_or_else(|err| {
        let offset = time::UtcOffset::parse(
            &site.utc_offset,
            time::macros::format_description!("[offset_hour sign:mandatory]:[offset_minute]"),
        )
        .unwrap_or(time::UtcOffset::UTC);
        tracing::warn!(error = %err, utc_offset = %site.utc_offset, "time zone not found; using site.utc_offset all year");
        Zone::fixed(&site.time_zone, offset)
    })
}

/// A session as a record of the `schedule` collection: the old backend's shape (`id`, `date`,
/// `start_time`, `end_time`, `title`, `location`, `created`, `updated`).
#[derive(Debug, Clone, Serialize)]
struct ScheduleRecord<'a> {
    id: &'a str,
    date: &'a str,
    start_time: &'a str,
    end_time: &'a str,
    title: &'a str,
    location: &'a str,
    created: &'a str,
    updated: &'a str,
}

/// The sessions as `schedule` records.
fn schedule_records<'a>(
    sessions: &'a Block<Vec<Session>>,
    rooms: &'a Block<Vec<Room>>,
) -> Block<Vec<ScheduleRecord<'a>>> {
    let (sessions, rooms) = (sessions.as_ref().map_err(|_| BlockError)?, rooms.as_ref().map_err(|_| BlockError)?);
    Ok(sessions
        .iter()
        .map(|s| ScheduleRecord {
            id: &s.slug,
            date: s.starts_at.get(..10).unwrap_or(&s.starts_at),
            start_time: s.starts_at.get(11..).unwrap_or(""),
            end_time: s.ends_at.get(11..).unwrap_or(""),
            title: &s.title,
            location: rooms.iter().find(|r| r.slug == s.room).map_or(s.room.as_str(), |r| r.name.as_str()),
            created: &s.created,
            updated: &s.updated,
        })
        .collect())
}

/// Records as the collections API lists them.
fn records<T: Serialize>(name: &'static str, rows: &Block<Vec<T>>) -> Block<Vec<Value>> {
    let rows = rows.as_ref().map_err(|_| BlockError)?;
    Ok(rows
        .iter()
        .map(|row| {
            let mut value = serde_json::to_value(row).expect("records serialize");
            if let Value::Object(map) = &mut value {
                map.insert("collectionId".into(), Value::from(name));
                map.insert("collectionName".into(), Value::from(name));
            }
            value
        })
        .collect())
}
