//! Signing in by a mailed one-time link (DESIGN.md section 12; OWASP's Authentication and
//! Forgot Password cheat sheets), one mechanism for every role (DESIGN.md section 15): asking
//! for a link, reading whom a link signs in, and using it up to start a session. The pages are
//! `crate::handlers::organiser::sign_in` (and the reviewers' and the desk's, which call it);
//! the SQL is `crate::repo::organisers`.
//!
//! Asking for a link answers alike for any address: a row is written for every request and
//! the mail goes through the outbox, so neither the answer nor its timing tells an address
//! that holds the role from another. Only a holder gets a mail and an audit entry.

use askama::Template;
use time::OffsetDateTime;

use super::roles::{self, Role};
use crate::base::secrets::{self, Secret};
use crate::clock::stamp::timestamp;
use crate::config::Config;
use crate::db::Pool;
use crate::error::{AppError, Outcome, Refused};
use crate::forms::validate;
use crate::mail::{self, Context};
use crate::repo::audit::{self, NewEntry};
use crate::repo::organisers as store;
use crate::repo::reviewers;

/// The refusal past [`secrets::LINKS_PER_HOUR`], the same for any address.
pub const TOO_MANY_LINKS: &str = "Too many sign-in links were asked for this address. Please try again in an hour.";
/// A link that is unknown, used or expired.
pub const LINK_NOT_VALID: &str = "This sign-in link does not work any more: it was used, it expired (links work for 15 minutes), or it is not one we sent.";
/// The refusal of an address that does not read as one.
pub const NOT_AN_ADDRESS: &str = "Please enter a valid email address";

/// What [`request_link`] did: a link stored for `email` (the address as typed, normalised)
/// either way, and `mailed` only when the address holds the role (then also audited as
/// `auth.link_requested`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkRequested {
    pub email: String,
    pub mailed: bool,
}

/// What [`sign_in`] did: a new session for `email`, whose id the browser holds as
/// `session_token` (base64url; only its SHA-256 is stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedIn {
    pub email: String,
    pub session_token: String,
}

/// Whether `email` (normalised) holds `role` now: listed in `ORGANISER_EMAIL` or
/// `CHECKIN_EMAIL`, or a reviewer who accepted and was not removed.
pub async fn holds(pool: &Pool, config: &Config, role: Role, email: &str) -> Result<bool, sqlx::Error> {
    Ok(match role {
        Role::Organiser => roles::is_organiser(config, email),
        Role::Reviewer => reviewers::accepted(pool, email).await?.is_some(),
        Role::CheckIn => roles::is_desk_staff(config, email),
    })
}

/// Stores a `role` sign-in link for the address `typed` (trimmed, compared
/// case-insensitively) asked for at `now` from `client`, working for
/// [`secrets::LINK_LIFETIME`], and queues its mail when the address holds the role.
///
/// Refused as [`Refused::Invalid`] (field `email`, [`NOT_AN_ADDRESS`]) for an address that
/// does not read as one, and as [`Refused::NotAllowed`] ([`TOO_MANY_LINKS`]) once the address
/// asked for [`secrets::LINKS_PER_HOUR`] links in the last hour, in any role.
pub async fn request_link(
    pool: &Pool,
    config: &Config,
    now: OffsetDateTime,
    role: Role,
    typed: &str,
    client: Option<&str>,
) -> Outcome<LinkRequested> {
    if !validate::is_valid_email(typed.trim()) {
        return Err(Refused::Invalid {
            message: NOT_AN_ADDRESS.to_owned(),
            errors: [("email".to_owned(), NOT_AN_ADDRESS.to_owned())].into(),
        });
    }
    let email = roles::normalise(typed.trim());
    let created = timestamp(now);
    let hour_ago = timestamp(now - time::Duration::HOUR);
    let secret = Secret::generate();
    let holder = holds(pool, config, role, &email).await?;
    // Composed before the transaction, for every address alike.
    let ctx = Context::load(pool, config).await?;
    let link = config.absolute(&format!("{}/sign-in/{}", role.home(), secret.token));
    let mail = link_mail(&ctx, role, &email, &link)?;
    let mut tx = crate::db::begin_write(pool).await?;
    if store::links_since(&mut tx, &email, &hour_ago).await? >= secrets::LINKS_PER_HOUR {
        tracing::warn!(%email, "sign-in links: hourly limit reached");
        return Err(Refused::NotAllowed(TOO_MANY_LINKS.to_owned()));
    }
    let expires = timestamp(now + secrets::LINK_LIFETIME);
    store::insert_link(&mut tx, &email, role.as_str(), &secret.hash, &created, &expires).await?;
    if holder {
        mail::enqueue(&mut tx, &mail).await?;
        audit::record(&mut tx, &auth_entry(&created, role, &email, client, "auth.link_requested")).await?;
    } else {
        tracing::info!(role = role.as_str(), "sign-in link asked for an address without that role; no mail");
    }
    tx.commit().await?;
    Ok(LinkRequested { email, mailed: holder })
}

/// The address a `role` link `token` signs in at `now`, while it works and its address
/// still holds the role; `None` otherwise. Reading it uses nothing up: mail scanners open
/// links before people do.
pub async fn link_holder(
    pool: &Pool,
    config: &Config,
    now: OffsetDateTime,
    role: Role,
    token: &str,
) -> Result<Option<String>, AppError> {
    if !secrets::is_well_formed(token) {
        return Ok(None);
    }
    let link = store::usable_link(pool, &secrets::hash(token), role.as_str(), &timestamp(now)).await?;
    match link {
        Some(email) if holds(pool, config, role, &email).await? => Ok(Some(email)),
        _ => Ok(None),
    }
}

/// Uses the `role` link `token` up at `now` (one atomic `UPDATE`, so two racing requests
/// sign in at most once) and starts a session from `client` that ends after
/// `ORGANISER_SESSION_HOURS` at the latest. Audited as `auth.signed_in`.
///
/// Refused as [`Refused::NotFound`] ([`LINK_NOT_VALID`]) for a token that is malformed,
/// unknown, used, expired, of another role, or whose address no longer holds the role (the
/// link then stays unused).
pub async fn sign_in(
    pool: &Pool,
    config: &Config,
    now: OffsetDateTime,
    role: Role,
    token: &str,
    client: Option<&str>,
) -> Outcome<SignedIn> {
    let not_valid = || Refused::NotFound(LINK_NOT_VALID.to_owned());
    if !secrets::is_well_formed(token) {
        return Err(not_valid());
    }
    let stamp = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let used = store::use_link(&mut tx, &secrets::hash(token), role.as_str(), &stamp).await?;
    let email = match used {
        Some(email) if holds(pool, config, role, &email).await? => email,
        _ => return Err(not_valid()),
    };
    // A new id at every sign-in (OWASP: renew the session id when privileges change).
    let session = Secret::generate();
    let lifetime = time::Duration::hours(config.organiser_session_hours.max(1) as i64);
    let expires = timestamp(now + lifetime);
    store::insert_session(&mut tx, &session.hash, &email, role.as_str(), &stamp, &expires, client).await?;
    audit::record(&mut tx, &auth_entry(&stamp, role, &email, client, "auth.signed_in")).await?;
    tx.commit().await?;
    Ok(SignedIn { email, session_token: session.token })
}

#[derive(Template)]
#[template(path = "mail/organiser_link.txt")]
struct LinkText<'a> {
    site: &'a mail::MailSite,
    people: &'a str,
    link: &'a str,
}

#[derive(Template)]
#[template(path = "mail/organiser_link.html")]
struct LinkHtml<'a> {
    site: &'a mail::MailSite,
    people: &'a str,
    link: &'a str,
}

fn link_mail(ctx: &Context, role: Role, email: &str, link: &str) -> Result<mail::OutgoingMail, AppError> {
    let (site, people) = (&ctx.site, role.people());
    let (text, html) = (LinkText { site, people, link }, LinkHtml { site, people, link });
    mail::compose(email, ctx.subject("Your sign-in link"), &text, &html)
        .map_err(|e| AppError::internal("sign-in link mail", e))
}

/// The audit entry of `email` doing `action` (`auth.*`) to its own account in `role`.
fn auth_entry<'a>(at: &'a str, role: Role, email: &'a str, client: Option<&'a str>, action: &'a str) -> NewEntry<'a> {
    NewEntry::new(at, email, client, action).about(role.as_str(), email)
}
