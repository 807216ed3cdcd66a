//! The attendee's private page (issue 33, DESIGN.md section 16): what a `/attendee/<token>`
//! link opens, and the one change its holder makes there, the name on the ticket. The page
//! is `crate::handlers::pages::attendee`; the SQL is `crate::repo::attendees` and
//! `crate::repo::receipts`.

use std::collections::BTreeMap;

use serde_json::json;
use time::OffsetDateTime;

use super::qr;
use super::receipts::Content;
use super::tickets::{self, NameChanges};
use crate::clock::zone::Zone;
use crate::db::Pool;
use crate::error::{AppError, Outcome, Refused};
use crate::mail::outbox::timestamp;
use crate::programme::timetable::clock;
use crate::repo::attendees::{self, Ticket};
use crate::repo::audit::{self, Actor};
use crate::repo::receipts;
use crate::seed::session_rules::parse_local;
use crate::sign_in::secrets;

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

/// What the page of a ticket shows besides the ticket itself.
#[derive(Debug, Clone)]
pub struct TicketPage {
    /// Whether the name form is shown: changes are open and the ticket is not refunded.
    pub name_open: bool,
    /// Until when the name can be changed, or since when (or why) it cannot, in words.
    pub changes: String,
    /// The order's receipt and credit note as issued, in order; a stored one that does not
    /// read is left out (and logged).
    pub documents: Vec<Content>,
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
            Some(c) => documents.push(c),
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
