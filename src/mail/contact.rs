//! The organisers' notice of a contact message (spec section 3, Contact message): sent to
//! `ORGANISER_EMAIL`, with Reply-To the visitor so organisers answer with one click.

use askama::Template;

use super::compose::{Context, MailSite, compose};
use super::outbox::OutgoingMail;
use crate::repo::messages::Message;

#[derive(Template)]
#[template(path = "mail/contact_notice.txt")]
pub struct ContactNoticeText<'a> {
    pub site: &'a MailSite,
    pub message: &'a Message,
}

#[derive(Template)]
#[template(path = "mail/contact_notice.html")]
pub struct ContactNoticeHtml<'a> {
    pub site: &'a MailSite,
    pub message: &'a Message,
}

/// The notice of `message`, ready to queue in the transaction that stores it.
pub fn contact_notice(ctx: &Context, message: &Message) -> Result<OutgoingMail, askama::Error> {
    let subject = ctx.subject(&format!("Contact message from {}", message.name));
    let mail = compose(
        &ctx.addresses.organisers,
        subject,
        &ContactNoticeText { site: &ctx.site, message },
        &ContactNoticeHtml { site: &ctx.site, message },
    )?;
    Ok(mail.reply_to(&message.email))
}
