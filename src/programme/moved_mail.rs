//! The mail a moved talk's paper gets (issue 31 item 3): its new day and time in the event's
//! zone (named), session, room and mode, a link to the talk's page and its calendar entry
//! as an `.ics` attachment whose `UID` and raised `SEQUENCE` update the entry an author added
//! before. Made by [`MovedTalkMail::mail`] for `super::publish::publish`, which queues it
//! in the publishing transaction under the key `talk-moved:<submission id>:<version>`.
//!
//! The `.ics` travels inline in the outbox row (`mail::Attachment::inline`), not as a file
//! under `DATA_DIR`: on a cluster the instance whose worker sends the mail is not
//! necessarily the one that published, and only the database is shared.

use askama::Template;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::draft::Paper;
use super::ical::entry::TalkEntry;
use crate::clock::dates::{clock, day_label};
use crate::clock::zone::{Zone, offset_label};
use crate::config::Config;
use crate::mail::{self, Attachment, MailSite, OutgoingMail};
use crate::repo::content::Site;
use crate::repo::published::{Published, Talk};

/// The `.ics` attachment's MIME type.
pub const ICS_TYPE: &str = "text/calendar; charset=utf-8";

/// What the moved-talk mail needs besides the version, the talk and the paper: the site (its
/// names, venue and contact for the layouts), where mail comes from and replies go
/// (`MAIL_FROM`, `ORGANISER_EMAIL`), `PUBLIC_URL` and the event's zone.
#[derive(Debug, Clone)]
pub struct MovedTalkMail {
    ctx: mail::Context,
    site: Site,
    base_url: String,
    zone: Zone,
}

/// What the templates show.
struct Moved<'a> {
    subject: &'a str,
    authors: String,
    title: &'a str,
    reference: &'a str,
    version: i64,
    version_name: &'a str,
    /// `Saturday, 22 March 2025`.
    day: String,
    /// `10:20–10:40`.
    time: String,
    /// `Singapore time (UTC+08:00)`.
    zone: String,
    session: &'a str,
    room: &'a str,
    mode: String,
    talk_url: String,
    ics_name: String,
}

#[derive(Template)]
#[template(path = "mail/talk_moved.txt")]
struct MovedText<'a> {
    site: &'a MailSite,
    m: &'a Moved<'a>,
}

#[derive(Template)]
#[template(path = "mail/talk_moved.html")]
struct MovedHtml<'a> {
    site: &'a MailSite,
    m: &'a Moved<'a>,
}

impl MovedTalkMail {
    /// For the site `site` served at `config`'s `PUBLIC_URL`, with times in `zone` (the
    /// content snapshot's, `site.time_zone`).
    ///
    /// The publish handler passes it to `publish` as `&|version, talk, paper|
    /// moved.mail(version, talk, paper)`.
    pub fn new(site: &Site, config: &Config, zone: Zone) -> MovedTalkMail {
        MovedTalkMail {
            ctx: mail::Context::new(site, config),
            site: site.clone(),
            base_url: config.base_url().to_owned(),
            zone,
        }
    }

    /// The mail to `paper`'s submitting address about `talk`'s place in `version`: subject
    /// `[SHORT] New time for your talk “<title>”`, text and HTML bodies, replies to the
    /// organisers, and the talk's `.ics` (`talk-<slug>.ics`) attached. The caller sets the
    /// outbox key.
    pub fn mail(&self, version: &Published, talk: &Talk, paper: &Paper) -> OutgoingMail {
        let subject = self.ctx.subject(&format!("New time for your talk “{}”", talk.title));
        let Some(entry) = TalkEntry::of(version, talk, &self.zone) else {
            // The draft never places a talk at a time it cannot read; should one come, the
            // author still hears that the talk moved.
            tracing::error!(talk = %talk.slug, "a moved talk's start cannot be read; mailed without its time");
            return self.plain(
                paper,
                subject,
                &format!("Your talk “{}” has a new time: {}", talk.title, talk.starts_at),
            );
        };
        let ics_name = format!("talk-{}.ics", talk.slug);
        let moved = Moved {
            subject: &subject,
            authors: talk.authors.join(", "),
            title: &talk.title,
            reference: &paper.reference,
            version: version.number,
            version_name: &version.name,
            day: day_label(entry.start.date()),
            time: format!("{}–{}", clock(entry.start.time()), clock(entry.end.time())),
            zone: format!("{} time (UTC{})", self.zone.city(), offset_label(entry.start.offset())),
            session: &entry.session,
            room: &entry.room,
            mode: entry.mode_label(),
            talk_url: entry.url(&self.base_url),
            ics_name: ics_name.clone(),
        };
        let stamp = OffsetDateTime::parse(&version.published_at, &Rfc3339).unwrap_or(OffsetDateTime::UNIX_EPOCH);
        let ics = entry.calendar(&self.site, &self.base_url, stamp);
        let site = &self.ctx.site;
        let composed = mail::compose(
            paper.email.clone(),
            subject.clone(),
            &MovedText { site, m: &moved },
            &MovedHtml { site, m: &moved },
        );
        let composed = match composed {
            Ok(composed) => composed.reply_to(self.ctx.addresses.organisers.clone()),
            // Rendering plain strings does not fail; if it ever did, publishing must not.
            Err(err) => {
                tracing::error!(error = %err, talk = %talk.slug, "the moved-talk mail's templates did not render");
                self.plain(
                    paper,
                    subject.clone(),
                    &format!("Your talk “{}” has a new time: {}", talk.title, moved.time),
                )
            }
        };
        composed.attachment(Attachment::inline(ics_name, ICS_TYPE, ics.into_bytes()))
    }

    /// A mail without the templates (`text` in both parts).
    fn plain(&self, paper: &Paper, subject: String, text: &str) -> OutgoingMail {
        let html = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        OutgoingMail {
            to: paper.email.clone(),
            reply_to: Some(self.ctx.addresses.organisers.clone()),
            subject,
            text_body: text.to_owned(),
            html_body: format!("<p>{html}</p>"),
            attachment: None,
            dedupe_key: None,
            list_unsubscribe: None,
        }
    }
}
