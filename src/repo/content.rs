//! Queries for the content tables of `migrations/0001_content.sql`.
//!
//! List-valued fields are stored newline-separated; [`lines`] splits them for templates.

use serde::Serialize;
use sqlx::FromRow;

use crate::db::{self, Pool};

/// Splits a newline-separated field into its non-empty, trimmed lines.
pub fn lines(text: &str) -> Vec<&str> {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).collect()
}

/// Splits a text into paragraphs at blank lines.
pub fn paragraphs(text: &str) -> Vec<String> {
    text.split("\n\n").map(|p| p.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|p| !p.is_empty()).collect()
}

/// Site settings: the single `site` row.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Site {
    pub name: String,
    pub short_name: String,
    pub edition: String,
    pub tagline: String,
    pub description: String,
    pub start_date: String,
    pub end_date: String,
    pub countdown_target: String,
    pub time_zone: String,
    pub utc_offset: String,
    pub venue_name: String,
    pub street_address: String,
    pub city: String,
    pub region: String,
    pub postal_code: String,
    pub country: String,
    pub country_code: String,
    pub map_embed_url: String,
    pub directions_url: String,
    pub virtual_url: String,
    pub contact_email: String,
    pub contact_phone: String,
    pub website: String,
    pub facebook_url: String,
    pub instagram_url: String,
    pub twitter_url: String,
    pub linkedin_url: String,
    pub youtube_url: String,
    pub paper_due_date: String,
    pub endorsement: String,
    pub organizer_name: String,
    pub organizer_url: String,
    pub scopus_banner: String,
    pub focus_areas: String,
    pub conference_goal: String,
    pub about_text: String,
    pub overview: String,
    pub about_us_text: String,
    pub vision_text: String,
    pub promo_title: String,
    pub promo_text: String,
    pub cancellation_summary: String,
    pub letter_image: String,
    pub og_image: String,
    pub logo: String,
}

pub async fn site(pool: &Pool) -> Result<Site, sqlx::Error> {
    sqlx::query_as("SELECT * FROM site WHERE id = 1").fetch_one(pool).await
}

/// A decision mail's template from the seed (issue 21): `(subject, body)`, with placeholders
/// in braces (`crate::seed::placeholders`). Read when it is used, so a re-applied seed counts at once.
pub async fn mail_template(pool: &Pool, name: &str) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT subject, body FROM mail_templates WHERE name = $1").bind(name).fetch_optional(pool).await
}

/// spec: Timeline date item. `date` is `YYYY-MM-DD`.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct DateItem {
    pub id: String,
    pub date: String,
    pub title: String,
    pub description: String,
    pub created: String,
    pub updated: String,
}

/// Important dates in the order organisers created them (spec section 3: ordered by created).
pub async fn dates(pool: &Pool) -> Result<Vec<DateItem>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM dates ORDER BY created, id").fetch_all(pool).await
}

#[derive(Debug, Clone, FromRow, Serialize)]
pub struct CommitteeMember {
    pub id: String,
    pub committee: String,
    pub name: String,
    pub designation: String,
    pub details: String,
    pub country: String,
    pub img: Option<String>,
    pub created: String,
    pub updated: String,
}

/// Committee groups in the order the spec lists them (section 2, /committee).
pub const COMMITTEE_GROUPS: [&str; 4] =
    ["Core Committee", "Advisory Board - Education", "Advisory Board - Management", "Advisory Board - Engineering"];

pub async fn committee(pool: &Pool) -> Result<Vec<CommitteeMember>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM committee ORDER BY created DESC, id").fetch_all(pool).await
}

/// A room of the programme (migration 0016).
#[derive(Debug, Clone, PartialEq, Eq, FromRow, Serialize, serde::Deserialize)]
pub struct Room {
    pub slug: String,
    pub name: String,
}

pub async fn rooms(pool: &Pool) -> Result<Vec<Room>, sqlx::Error> {
    sqlx::query_as("SELECT slug, name FROM rooms ORDER BY position, slug").fetch_all(pool).await
}

/// A track of the programme (migration 0016).
#[derive(Debug, Clone, PartialEq, Eq, FromRow, Serialize, serde::Deserialize)]
pub struct Track {
    pub slug: String,
    pub name: String,
}

pub async fn tracks(pool: &Pool) -> Result<Vec<Track>, sqlx::Error> {
    sqlx::query_as("SELECT slug, name FROM tracks ORDER BY position, slug").fetch_all(pool).await
}

/// A session of the programme as the seed holds it: `starts_at` and `ends_at` are
/// `YYYY-MM-DD HH:MM` in `site.time_zone`; `track` and `room` are slugs; `speaker` is the
/// id of the seed speaker who gives a keynote (migration 0017).
#[derive(Debug, Clone, PartialEq, Eq, FromRow, Serialize, serde::Deserialize)]
pub struct Session {
    pub slug: String,
    pub title: String,
    pub description: String,
    pub kind: String,
    pub track: Option<String>,
    pub room: String,
    pub starts_at: String,
    pub ends_at: String,
    pub mode: String,
    pub chair: Option<String>,
    #[serde(default)]
    pub speaker: Option<String>,
    pub created: String,
    pub updated: String,
}

/// Sessions in time order (then by room, for parallel ones).
pub async fn sessions(pool: &Pool) -> Result<Vec<Session>, sqlx::Error> {
    sqlx::query_as(
        "SELECT s.slug, s.title, s.description, s.kind, s.track, s.room, s.starts_at, s.ends_at, s.mode, s.chair,
                s.speaker, s.created, s.updated
         FROM sessions s JOIN rooms r ON r.slug = s.room
         ORDER BY s.starts_at, r.position, s.slug",
    )
    .fetch_all(pool)
    .await
}

/// spec: Speaker. `position` is the spec's `order`.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Speaker {
    pub id: String,
    #[serde(rename = "order")]
    pub position: i64,
    pub category: String,
    pub name: String,
    pub role: String,
    pub image: String,
    pub bio: String,
    pub created: String,
    pub updated: String,
}

/// Speaker categories with the spec's labels, in tab order.
pub const SPEAKER_CATEGORIES: [(&str, &str); 3] =
    [("guest", "Guest of Honor"), ("keynote", "Keynote Speaker"), ("session", "Session Chair")];

pub async fn speakers(pool: &Pool) -> Result<Vec<Speaker>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM speakers ORDER BY position, name").fetch_all(pool).await
}

#[derive(Debug, Clone, FromRow, Serialize)]
pub struct CoOrganizer {
    pub id: String,
    pub img_url: String,
    pub img_title: String,
    pub created: String,
    pub updated: String,
}

pub async fn co_organizers(pool: &Pool) -> Result<Vec<CoOrganizer>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM co_organizers_img ORDER BY created DESC, id").fetch_all(pool).await
}

/// spec: Conference material; `link` is the file name under `static/materials/`.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Material {
    pub id: String,
    pub title: String,
    pub link: String,
    pub created: String,
    pub updated: String,
}

pub async fn materials(pool: &Pool) -> Result<Vec<Material>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM download_buttons ORDER BY created DESC, id").fetch_all(pool).await
}

pub async fn material(pool: &Pool, id: &str) -> Result<Option<Material>, sqlx::Error> {
    if !db::storable(id) {
        return Ok(None);
    }
    sqlx::query_as("SELECT * FROM download_buttons WHERE id = $1").bind(id).fetch_optional(pool).await
}

#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Partner {
    pub id: String,
    pub kind: String,
    pub name: String,
    pub logo: String,
    pub url: String,
}

/// Logos of one kind: `sponsor` (hero) or `partner` (/AboutUs).
pub async fn partners(pool: &Pool, kind: &str) -> Result<Vec<Partner>, sqlx::Error> {
    sqlx::query_as("SELECT id, kind, name, logo, url FROM partners WHERE kind = $1 ORDER BY position")
        .bind(kind)
        .fetch_all(pool)
        .await
}

/// spec: Ticket plan; prices in cents.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct TicketPlan {
    pub id: String,
    pub audience: String,
    pub title: String,
    pub description: String,
    pub price_cents: i64,
    pub currency: String,
    pub features: String,
    pub price_subtext: String,
    pub theme: String,
    pub attendance: String,
}

pub async fn ticket_plans(pool: &Pool) -> Result<Vec<TicketPlan>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, audience, title, description, price_cents, currency, features, price_subtext, theme, attendance
         FROM ticket_plans ORDER BY position",
    )
    .fetch_all(pool)
    .await
}

/// spec: Sponsor package; price in cents.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct SponsorPackage {
    pub id: String,
    pub title: String,
    pub price_cents: i64,
    pub currency: String,
    pub benefits: String,
    pub icon: String,
}

pub async fn sponsor_packages(pool: &Pool) -> Result<Vec<SponsorPackage>, sqlx::Error> {
    sqlx::query_as("SELECT id, title, price_cents, currency, benefits, icon FROM sponsor_packages ORDER BY position")
        .fetch_all(pool)
        .await
}

#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Highlight {
    pub slug: String,
    pub title: String,
    pub summary: String,
    pub image: String,
}

pub async fn highlights(pool: &Pool) -> Result<Vec<Highlight>, sqlx::Error> {
    sqlx::query_as("SELECT slug, title, summary, image FROM highlights ORDER BY position").fetch_all(pool).await
}

pub async fn highlight(pool: &Pool, slug: &str) -> Result<Option<Highlight>, sqlx::Error> {
    if !db::storable(slug) {
        return Ok(None);
    }
    sqlx::query_as("SELECT slug, title, summary, image FROM highlights WHERE slug = $1")
        .bind(slug)
        .fetch_optional(pool)
        .await
}

/// A titled item with a description: highlight topics, awards, goals, objectives, FAQ
/// answers, about lists and registration steps all have this shape.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Item {
    pub id: String,
    pub title: String,
    pub description: String,
    pub icon: String,
}

pub async fn highlight_topics(pool: &Pool, slug: &str) -> Result<Vec<Item>, sqlx::Error> {
    if !db::storable(slug) {
        return Ok(Vec::new());
    }
    sqlx::query_as(
        "SELECT id, title, description, '' AS icon FROM highlight_topics WHERE highlight_slug = $1 ORDER BY position",
    )
    .bind(slug)
    .fetch_all(pool)
    .await
}

/// Awards of one kind: `main` or `sustainability`.
pub async fn awards(pool: &Pool, kind: &str) -> Result<Vec<Item>, sqlx::Error> {
    sqlx::query_as("SELECT id, title, description, icon FROM awards WHERE kind = $1 ORDER BY position")
        .bind(kind)
        .fetch_all(pool)
        .await
}

pub async fn goals(pool: &Pool) -> Result<Vec<Item>, sqlx::Error> {
    sqlx::query_as("SELECT id, title, description, icon FROM goals ORDER BY position").fetch_all(pool).await
}

pub async fn objectives(pool: &Pool) -> Result<Vec<Item>, sqlx::Error> {
    sqlx::query_as("SELECT id, title, description, icon FROM objectives ORDER BY position").fetch_all(pool).await
}

pub async fn faqs(pool: &Pool) -> Result<Vec<Item>, sqlx::Error> {
    sqlx::query_as("SELECT id, question AS title, answer AS description, '' AS icon FROM faqs ORDER BY position")
        .fetch_all(pool)
        .await
}

/// About lists: `why_attend`, `who_can_attend` or `registration_step`.
pub async fn about_items(pool: &Pool, section: &str) -> Result<Vec<Item>, sqlx::Error> {
    sqlx::query_as("SELECT id, title, description, '' AS icon FROM about_items WHERE section = $1 ORDER BY position")
        .bind(section)
        .fetch_all(pool)
        .await
}

#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Statistic {
    pub id: String,
    pub label: String,
    pub value: String,
}

/// Statistics of one section: `home` or `impact`.
pub async fn statistics(pool: &Pool, section: &str) -> Result<Vec<Statistic>, sqlx::Error> {
    sqlx::query_as("SELECT id, label, value FROM statistics WHERE section = $1 ORDER BY position")
        .bind(section)
        .fetch_all(pool)
        .await
}

#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Attraction {
    pub id: String,
    pub name: String,
    pub description: String,
    pub image: String,
    pub distance: String,
}

pub async fn attractions(pool: &Pool) -> Result<Vec<Attraction>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, description, image, distance FROM attractions ORDER BY position")
        .fetch_all(pool)
        .await
}

/// spec: Legal policy item (name, content, link).
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Policy {
    pub slug: String,
    pub name: String,
    pub link: String,
    pub summary: String,
    pub updated: String,
}

pub async fn policies(pool: &Pool) -> Result<Vec<Policy>, sqlx::Error> {
    sqlx::query_as("SELECT slug, name, link, summary, updated FROM policies ORDER BY position").fetch_all(pool).await
}

pub async fn policy(pool: &Pool, slug: &str) -> Result<Option<Policy>, sqlx::Error> {
    if !db::storable(slug) {
        return Ok(None);
    }
    sqlx::query_as("SELECT slug, name, link, summary, updated FROM policies WHERE slug = $1")
        .bind(slug)
        .fetch_optional(pool)
        .await
}

#[derive(Debug, Clone, FromRow, Serialize)]
pub struct PolicySection {
    pub id: String,
    pub heading: String,
    pub body: String,
}

pub async fn policy_sections(pool: &Pool, slug: &str) -> Result<Vec<PolicySection>, sqlx::Error> {
    if !db::storable(slug) {
        return Ok(Vec::new());
    }
    sqlx::query_as("SELECT id, heading, body FROM policy_sections WHERE policy_slug = $1 ORDER BY position")
        .bind(slug)
        .fetch_all(pool)
        .await
}

#[derive(Debug, Clone, FromRow, Serialize)]
pub struct GalleryImage {
    pub id: String,
    pub title: String,
    pub image: String,
    pub width: i64,
    pub height: i64,
}

pub async fn gallery(pool: &Pool) -> Result<Vec<GalleryImage>, sqlx::Error> {
    sqlx::query_as("SELECT id, title, image, width, height FROM gallery ORDER BY position").fetch_all(pool).await
}

/// Whether the database answers at all (for `/api/health`).
pub async fn ping(pool: &Pool) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT 1").execute(pool).await.map(|_| ())
}
