//! "Send my link again" (issue 33 item 1): an order id and an e-mail address; when they name
//! a paid registration, a new attendee link goes to the order's address. Whatever the outcome,
//! the visitor reads the same answer, so the form says nothing about whose orders exist.
//!
//! An order paid before tickets existed gets its ticket and numbered receipt here, in the
//! transaction that mails its first link ([`super::issue::paid_order`]). Earlier links keep
//! working ([`super::links`]). At most [`LINKS_PER_HOUR`] links per ticket an hour, so the
//! form cannot be used to flood someone's mailbox; past it nothing is sent (and the answer is
//! still the same).

use askama::Template;
use time::{Duration, OffsetDateTime};

use super::{issue, links, tickets};
use crate::base::secrets;
use crate::ccavenue::order_id::is_valid_order_id;
use crate::clock::stamp::timestamp;
use crate::db::{self, Pool};
use crate::error::{AppError, Outcome, Refused};
use crate::mail::{self, Context, MailSite};
use crate::repo::attendees;
use crate::repo::audit::{self, NewEntry};
use crate::repo::content;
use crate::repo::orders::{self, Status};

/// Links one ticket may be given per hour, the receipt's included.
pub const LINKS_PER_HOUR: i64 = 5;

/// What the visitor reads after asking, whatever happened.
pub const ANSWER: &str = "If this order is yours and paid, we have sent a new link to its attendee page to this address. It can take a few minutes to arrive; please look in your spam folder too.";

/// What the mail shows.
pub struct LinkMail {
    pub name: String,
    pub order_id: String,
    pub ticket_type: String,
    pub link: String,
}

#[derive(Template)]
#[template(path = "mail/attendee_link.txt")]
struct LinkText<'a> {
    site: &'a MailSite,
    m: &'a LinkMail,
}

#[derive(Template)]
#[template(path = "mail/attendee_link.html")]
struct LinkHtml<'a> {
    site: &'a MailSite,
    m: &'a LinkMail,
}

/// Why nothing was sent (logged, never shown).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotSent {
    /// No such order, or not paid, or not a registration, or another address.
    NoMatch,
    /// [`LINKS_PER_HOUR`] reached.
    TooMany,
}

/// "Send my link again" for `email` and `order_id` as typed (trimmed): [`send_again`], whose
/// answer is logged and never shown. Refused as [`Refused::Invalid`] when either is empty or
/// the address is not one.
pub async fn request(
    pool: &Pool,
    ctx: &Context,
    order_id: &str,
    email: &str,
    now: OffsetDateTime,
) -> Outcome<Result<(), NotSent>> {
    let (order_id, email) = (order_id.trim(), email.trim());
    if email.is_empty() || order_id.is_empty() {
        return Err(Refused::invalid("Please give both the e-mail address and the order id of your registration."));
    }
    if !crate::forms::validate::is_valid_email(email) {
        return Err(Refused::invalid("Please enter a valid email address."));
    }
    Ok(send_again(pool, ctx, order_id, email, now).await?)
}

/// Sends a new link of order `order_id` to its address when `email` is that address
/// (trimmed, case-insensitively) and the order is a paid registration: the ticket (made now
/// for an order paid before tickets existed), the link, the mail and the audit entry
/// (`attendee.link_sent`, by `attendee`) in one transaction at `now`.
pub async fn send_again(
    pool: &Pool,
    ctx: &Context,
    order_id: &str,
    email: &str,
    now: OffsetDateTime,
) -> Result<Result<(), NotSent>, AppError> {
    let order_id = order_id.trim();
    if !is_valid_order_id(order_id) {
        return Ok(Err(NotSent::NoMatch));
    }
    let Some(order) = orders::get(pool, order_id).await? else {
        return Ok(Err(NotSent::NoMatch));
    };
    let matches = order.status() == Status::Success
        && order.kind == "plan"
        && crate::forms::validate::normalise_email(&order.billing_email)
            == crate::forms::validate::normalise_email(email);
    if !matches {
        return Ok(Err(NotSent::NoMatch));
    }
    let plans = content::ticket_plans(pool).await?;
    let mode = tickets::mode_of(&plans, &order.item_id);
    let at = timestamp(now);
    let mut tx = db::begin_write(pool).await?;
    if let Some(ticket) = attendees::ticket_of_order(&mut tx, &order.order_id).await?
        && attendees::links_since(&mut tx, ticket.id, &timestamp(now - Duration::hours(1))).await? >= LINKS_PER_HOUR
    {
        return Ok(Err(NotSent::TooMany));
    }
    let settings = attendees::settings(&mut tx).await?;
    let issued = issue::paid_order(&mut tx, &order, mode, &settings, now).await?;
    let (Some(ticket), Some(token)) = (issued.ticket, issued.link) else {
        return Ok(Err(NotSent::NoMatch));
    };
    let shown = LinkMail {
        name: order.billing_name.clone(),
        order_id: order.order_id.clone(),
        ticket_type: ticket.ticket_type.clone(),
        link: links::url(&ctx.site.url, &token),
    };
    let site = &ctx.site;
    let message = mail::compose(
        &order.billing_email,
        ctx.subject(&format!("Your attendee page ({})", order.order_id)),
        &LinkText { site, m: &shown },
        &LinkHtml { site, m: &shown },
    )
    .map_err(|e| AppError::internal("attendee link mail", e))?
    .reply_to(&site.contact_email)
    .dedupe_key(format!("attendee-link:{}", secrets::hash(&token)));
    mail::enqueue(&mut tx, &message).await?;
    let entry = NewEntry::new(&at, audit::ATTENDEE, None, "attendee.link_sent").about("order", &order.order_id);
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Ok(()))
}
