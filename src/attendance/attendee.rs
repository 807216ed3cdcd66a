//! The attendee's private page (issue 33, DESIGN.md section 16): what a `/attendee/<token>`
//! link opens, and the one change its holder makes there, the name on the ticket. The page
//! is `crate::handlers::pages::attendee`; the SQL is `crate::repo::attendees` and
//! `crate::repo::receipts`.

use std::collections::BTreeMap;

use serde_json::json;
use time::OffsetDateTime;

use super::documents::TicketDocument;
use super::qr;
use super::receipts::Content;
use super::streams::{self, When};
use super::tickets::{self, NameChanges};
use crate::base::secrets;
use crate::clock::dates::clock;
use crate::clock::stamp::timestamp;
use crate::clock::zone::Zone;
use crate::content::Snapshot;
use crate::db::Pool;
use crate::error::{AppError, Outcome, Refused};
use crate::programme::timetable::Programme;
use crate::repo::attendees::{self, Ticket};
use crate::repo::audit::{self, Actor};
use crate::repo::content::Site;
use crate::repo::receipts;
use crate::seed::session_rules::parse_local;

/// The ticket a link's `token` opens; `None` for a malformed or unknown one (a token is 32
/// random bytes, base64url, stored as SHA-256).
pub async fn find(pool: &Pool, token: &str) -> Result<Option<Ticket>, sqlx::Error> {
    if !secrets::is_well_formed(token) {
        return Ok(None);
    }
    attendees::ticket_by_link(pool, &secrets::hash(token)).await
}

/// `14 March 2025 at 23:59 (Singapore time)`: a `YYYY-MM-DD HH:MM` of the settings in words.
fn in_words(text: &str, zone: &Zone) -> String {
    match parse_local(text) {
        Some(at) => format!("{} {} {} at {} ({} time)", at.day(), at.month(), at.year(), clock(at.time()), zone.city()),
        None => text.to_owned(),
    }
}

/// A receipt or credit note as issued, with its amounts formatted.
#[derive(Debug, Clone)]
pub struct Issued {
    pub c: Content,
    /// (description, amount) per line.
    pub lines: Vec<(String, String)>,
    pub total: String,
}

/// What the page of a ticket shows besides the ticket itself.
#[derive(Debug, Clone)]
pub struct TicketPage {
    /// Whether the name form is shown: changes are open and the ticket is not refunded.
    pub name_open: bool,
    /// Until when the name can be changed, or since when (or why) it cannot, in words.
    pub changes: String,
    /// The order's receipt and credit note as issued, in order; a stored one that does not
    /// read is left out (and logged).
    pub documents: Vec<Issued>,
    /// `PUBLIC_URL/check-in/<code>`, which the QR code encodes.
    pub check_in_url: String,
    /// The QR code of [`TicketPage::check_in_url`] as SVG.
    pub qr: String,
}

/// The page of `ticket` at `now`: the name rule of `attendee_changes_until` (the event's
/// `zone`), its documents and its QR code (`base_url` without a trailing slash).
pub async fn ticket_page(
    pool: &Pool,
    ticket: &Ticket,
    zone: &Zone,
    now: OffsetDateTime,
    base_url: &str,
) -> Result<TicketPage, AppError> {
    let mut conn = pool.acquire().await?;
    let settings = attendees::settings(&mut conn).await?;
    let rule = tickets::name_changes(settings.attendee_changes_until.as_deref(), zone, now);
    let changes = if ticket.refunded_at.is_some() {
        "This ticket was refunded, so its name can no longer be changed.".to_owned()
    } else {
        match &rule {
            NameChanges::Open(None) => "You can change the name on your ticket.".to_owned(),
            NameChanges::Open(Some(until)) => {
                format!("You can change the name on your ticket until {}.", in_words(until, zone))
            }
            NameChanges::Closed(since) => format!(
                "The name on a ticket could be changed until {}. Please write to the organisers if it is wrong.",
                in_words(since, zone)
            ),
        }
    };
    let mut documents = Vec::new();
    for r in receipts::for_order(&mut conn, &ticket.order_id).await? {
        match Content::read(&r.content) {
            Some(c) => {
                let lines = c.lines.iter().map(|l| (l.description.clone(), Content::amount(l.amount_cents))).collect();
                documents.push(Issued { total: c.total(), lines, c });
            }
            None => tracing::error!(number = r.number, "a stored receipt is not readable; left out of the page"),
        }
    }
    let check_in_url = tickets::check_in_url(base_url, &ticket.code);
    let qr = qr::svg(&check_in_url, "QR code of your ticket")
        .ok_or_else(|| AppError::internal("ticket QR code", format!("{} characters do not fit", check_in_url.len())))?;
    Ok(TicketPage { name_open: rule.open() && ticket.refunded_at.is_none(), changes, documents, check_in_url, qr })
}

/// What [`change_name`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameChange {
    /// The name typed is the name on the ticket: nothing stored, nothing recorded.
    Unchanged,
    /// The name on the ticket of order `order_id` is now `after`.
    Changed { order_id: String, before: String, after: String },
}

/// What the attendee reads when the ticket was refunded (409).
const REFUNDED: &str = "This ticket was refunded, so its name can no longer be changed. Nothing was changed.";

/// Changes the name on `ticket` (found by [`find`]) to `typed` at `now`, checked by the forms'
/// one-line rule ([`tickets::check_name`]), audited as `ticket.name_changed` by `actor` (the
/// link's holder, `audit::ATTENDEE`) about the order, with the name before and after, in the
/// same transaction.
///
/// Refused as [`Refused::NotAllowed`] when the ticket is refunded (also when that happened
/// since it was read) or `attendee_changes_until` (the event's `zone`) has passed, and as
/// [`Refused::Invalid`] (field `name`) for a name the rule refuses.
pub async fn change_name(
    pool: &Pool,
    now: OffsetDateTime,
    zone: &Zone,
    actor: &Actor,
    ticket: &Ticket,
    typed: &str,
) -> Outcome<NameChange> {
    let settings = attendees::settings(&mut *pool.acquire().await?).await?;
    if ticket.refunded_at.is_some() {
        return Err(Refused::NotAllowed(REFUNDED.into()));
    }
    if !tickets::name_changes(settings.attendee_changes_until.as_deref(), zone, now).open() {
        return Err(Refused::NotAllowed(
            "The name on a ticket can no longer be changed here, so nothing was changed. Please write to the organisers if it is wrong."
                .into(),
        ));
    }
    let name = tickets::check_name(typed).map_err(|error| Refused::Invalid {
        message: "The name was not changed: please correct it below.".into(),
        errors: BTreeMap::from([("name".to_owned(), error)]),
    })?;
    if name == ticket.holder_name {
        return Ok(NameChange::Unchanged);
    }
    let at = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    if !attendees::set_holder_name(&mut tx, ticket.id, &name, &at).await? {
        return Err(Refused::NotAllowed(REFUNDED.into()));
    }
    let mut entry = actor.entry(&at, "ticket.name_changed").about("order", &ticket.order_id);
    entry.details = json!({ "holder_name": { "before": ticket.holder_name, "after": name } });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(NameChange::Changed { order_id: ticket.order_id.clone(), before: ticket.holder_name.clone(), after: name })
}

/// A stream of today, as the attendee page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stream {
    /// `Now`, `Next` or `Ended`.
    pub when: &'static str,
    /// `09:00–12:00`, event time.
    pub time: String,
    pub title: String,
    pub url: String,
    /// The organisers' label, else "Join the stream".
    pub label: String,
}

/// The stream links of today's online and hybrid sessions at `now`, the current and next
/// first ([`streams::today`]); none without a programme in `snapshot`.
pub async fn todays_streams(pool: &Pool, snapshot: &Snapshot, now: OffsetDateTime) -> Result<Vec<Stream>, sqlx::Error> {
    let Ok(programme) = Programme::of(snapshot) else {
        return Ok(Vec::new());
    };
    let links = crate::repo::streams::all(pool).await?;
    let shown = streams::today(&programme, &links, now)
        .into_iter()
        .map(|t| Stream {
            when: match t.when {
                When::Now => "Now",
                When::Next => "Next",
                When::Ended => "Ended",
            },
            time: format!("{}–{}", t.session.start_label(), t.session.end_label()),
            title: t.session.session.title.clone(),
            url: t.link.url.clone(),
            label: if t.link.label.is_empty() { "Join the stream".to_owned() } else { t.link.label.clone() },
        })
        .collect();
    Ok(shown)
}

/// What the ticket's PDF shows of `ticket` at the conference of `site` (`base_url` without a
/// trailing slash, for the check-in address).
pub fn ticket_document(site: &Site, ticket: &Ticket, base_url: &str) -> TicketDocument {
    TicketDocument {
        event: site.name.clone(),
        dates: crate::clock::dates::range_label(&site.start_date, &site.end_date),
        venue: format!("{}, {}", site.venue_name, site.city),
        holder_name: ticket.holder_name.clone(),
        ticket_type: ticket.ticket_type.clone(),
        mode: tickets::mode_label(&ticket.mode).to_owned(),
        order_id: ticket.order_id.clone(),
        check_in_url: tickets::check_in_url(base_url, &ticket.code),
    }
}

/// Order `order_id`'s stored document of `kind` as issued: its number and content; `None`
/// when it has none. A stored one that does not read is a 500.
pub async fn stored_document(
    pool: &Pool,
    order_id: &str,
    kind: receipts::Kind,
) -> Result<Option<(String, Content)>, AppError> {
    let stored = receipts::of_order(&mut *pool.acquire().await?, order_id, kind).await?;
    let Some(stored) = stored else { return Ok(None) };
    let content = Content::read(&stored.content)
        .ok_or_else(|| AppError::internal("stored receipt", format!("{} is not readable", stored.number)))?;
    Ok(Some((stored.number, content)))
}
