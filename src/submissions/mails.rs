//! The two mails of a stored submission ([`super::submit`]): the author's acknowledgement
//! and the organisers' notice with the paper attached (spec section 9).

use askama::Template;

use crate::forms::paper_form::{CONFERENCE_SOURCES, human_size};
use crate::mail::{self, Attachment, MailSite};
use crate::repo::submissions::NewSubmission;

/// What both submission mails show.
pub struct SubmissionMail<'a> {
    pub site: &'a MailSite,
    pub s: &'a NewSubmission,
    /// The conferenceSource option's label.
    pub source: &'a str,
    /// The file size for people, e.g. `1.2 MB`.
    pub size: String,
    /// The author's private status link (issue 21); the acknowledgement carries it.
    pub status_link: String,
}

/// The author's acknowledgement: title, reference, the 24-48 hour follow-up (spec section 9).
#[derive(Template)]
#[template(path = "mail/submission_ack.txt")]
pub struct AckText<'a> {
    pub site: &'a MailSite,
    pub m: &'a SubmissionMail<'a>,
}

#[derive(Template)]
#[template(path = "mail/submission_ack.html")]
pub struct AckHtml<'a> {
    pub site: &'a MailSite,
    pub m: &'a SubmissionMail<'a>,
}

/// The organisers' notice, with the paper attached.
#[derive(Template)]
#[template(path = "mail/submission_notice.txt")]
pub struct NoticeText<'a> {
    pub site: &'a MailSite,
    pub m: &'a SubmissionMail<'a>,
}

#[derive(Template)]
#[template(path = "mail/submission_notice.html")]
pub struct NoticeHtml<'a> {
    pub site: &'a MailSite,
    pub m: &'a SubmissionMail<'a>,
}

/// The two mails of a stored submission: (author's acknowledgement, organisers' notice).
/// `status_link` is the author's private link (`super::status_link::status_link`).
pub fn compose_mails(
    ctx: &mail::Context,
    s: &NewSubmission,
    status_link: String,
) -> Result<(mail::OutgoingMail, mail::OutgoingMail), askama::Error> {
    let source = CONFERENCE_SOURCES.iter().find(|(v, _)| *v == s.conference_source).map_or("", |(_, l)| *l);
    let data = SubmissionMail { site: &ctx.site, s, source, size: human_size(s.file_size), status_link };
    let site = &ctx.site;
    let ack = mail::compose(
        s.email.clone(),
        ctx.subject(&format!("We received your paper ({})", s.reference)),
        &AckText { site, m: &data },
        &AckHtml { site, m: &data },
    )?
    .reply_to(ctx.addresses.organisers.clone())
    .dedupe_key(format!("submission-ack:{}", s.reference));
    let notice = mail::compose(
        ctx.addresses.organisers.clone(),
        ctx.subject(&format!("New paper submission {}: {}", s.reference, s.paper_title)),
        &NoticeText { site, m: &data },
        &NoticeHtml { site, m: &data },
    )?
    .reply_to(s.email.clone())
    .dedupe_key(format!("submission-notice:{}", s.reference))
    .attachment(Attachment {
        path: s.file_path.clone(),
        name: s.file_name.clone(),
        content_type: s.file_type.clone(),
        inline: None,
    });
    Ok((ack, notice))
}
