//! What every mail is made of: the site as the shared layouts show it ([`MailSite`]), the
//! addresses mail goes from and to ([`Addresses`]), and [`compose`], which renders a mail's
//! text and HTML templates into an [`OutgoingMail`].

use askama::Template;

use super::outbox::OutgoingMail;
use crate::config::Config;
use crate::db::Pool;
use crate::repo::content::{self, Site};

/// What the shared mail layouts show about the site (name, address, contact).
#[derive(Debug, Clone)]
pub struct MailSite {
    /// Full conference name.
    pub name: String,
    /// e.g. `ICSIFT 2025`; prefixes subjects.
    pub short_name: String,
    /// `PUBLIC_URL` without a trailing slash.
    pub url: String,
    pub contact_email: String,
    pub contact_phone: String,
}

impl MailSite {
    pub fn new(site: &Site, config: &Config) -> Self {
        MailSite {
            name: site.name.clone(),
            short_name: site.short_name.clone(),
            url: config.base_url().to_owned(),
            contact_email: site.contact_email.clone(),
            contact_phone: site.contact_phone.clone(),
        }
    }
}

/// Who mail comes from and who organiser notices go to (DESIGN.md section 2: `MAIL_FROM`
/// and `ORGANISER_EMAIL`, each defaulting to the site's contact email from the seed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addresses {
    /// `From` of every mail, e.g. `ICSIFT 2025 <info@example.org>`.
    pub from: String,
    /// Recipient(s) of organiser notices; may be a comma-separated list.
    pub organisers: String,
}

impl Addresses {
    pub fn resolve(config: &Config, site: &Site) -> Self {
        let from = match non_empty(config.mail_from.as_deref()) {
            Some(from) => from.to_owned(),
            // The display name makes the sender recognisable in an inbox; quoted because a
            // short name may hold characters that are special in an address header.
            None => format!("\"{}\" <{}>", site.short_name.replace(['"', '\\'], ""), site.contact_email),
        };
        let organisers = non_empty(config.organiser_email.as_deref()).unwrap_or(&site.contact_email).to_owned();
        Addresses { from, organisers }
    }
}

fn non_empty(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// Everything a feature needs to compose a mail: the site for the layouts and the addresses.
#[derive(Debug, Clone)]
pub struct Context {
    pub site: MailSite,
    pub addresses: Addresses,
}

impl Context {
    /// Reads the site settings (for names and default addresses) from the database.
    pub async fn load(pool: &Pool, config: &Config) -> Result<Context, sqlx::Error> {
        let site = content::site(pool).await?;
        Ok(Context::new(&site, config))
    }

    pub fn new(site: &Site, config: &Config) -> Self {
        Context { site: MailSite::new(site, config), addresses: Addresses::resolve(config, site) }
    }

    /// `[ICSIFT 2025] {subject}`: organisers tell the site's mail apart at a glance.
    pub fn subject(&self, subject: &str) -> String {
        format!("[{}] {subject}", self.site.short_name)
    }
}

/// Renders a mail's text and HTML parts into an [`OutgoingMail`] to `to` (an address or a
/// comma-separated list). Add `.reply_to(..)`, `.dedupe_key(..)` or `.attachment(..)`, then
/// [`enqueue`](super::outbox::enqueue) it in the transaction that stores its cause.
pub fn compose(
    to: impl Into<String>,
    subject: impl Into<String>,
    text: &impl Template,
    html: &impl Template,
) -> Result<OutgoingMail, askama::Error> {
    Ok(OutgoingMail {
        to: to.into(),
        reply_to: None,
        subject: subject.into(),
        text_body: text.render()?,
        html_body: html.render()?,
        attachment: None,
        dedupe_key: None,
        list_unsubscribe: None,
    })
}
