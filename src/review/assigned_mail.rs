//! The mail a reviewer gets when organisers release assignments (issue 32 item 4): one per
//! reviewer and release, listing the papers newly given to them by review code and title,
//! never anything of the authors (DESIGN.md section 15: in double-anonymous mode no mail
//! shows an author's name, address, affiliation, country or phone; titles are the same in
//! every mode), with the link to `/review` and the deadline when one is set.
//!
//! Queued by the release in its transaction under the key
//! `review-assigned:<reviewer id>:<highest assignment id released to them>`, so however the
//! release is repeated, one batch mails a reviewer once.

use askama::Template;

use crate::mail::{self, MailSite, OutgoingMail};

/// A paper of the mail: its review code (`R-XXXXXX`) and title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssignedPaper {
    pub code: String,
    pub title: String,
}

/// What the templates show.
struct Assigned<'a> {
    subject: &'a str,
    name: &'a str,
    papers: &'a [AssignedPaper],
    review_url: &'a str,
    deadline: Option<&'a str>,
}

#[derive(Template)]
#[template(path = "mail/review_assigned.txt")]
struct AssignedText<'a> {
    site: &'a MailSite,
    m: &'a Assigned<'a>,
}

#[derive(Template)]
#[template(path = "mail/review_assigned.html")]
struct AssignedHtml<'a> {
    site: &'a MailSite,
    m: &'a Assigned<'a>,
}

/// The outbox key of the mail of a release to `reviewer`, whose highest released assignment
/// id in it is `last`.
pub fn dedupe_key(reviewer: i64, last: i64) -> String {
    format!("review-assigned:{reviewer}:{last}")
}

/// The mail to reviewer `name` <`to`> for `papers` (at least one), with the reviewers' area
/// at `review_url` (`PUBLIC_URL/review`) and `deadline` in the reviewer's words (e.g.
/// `Thursday, 20 February 2025, 18:00 Singapore time (UTC+08:00), in 5 days`; never one that
/// has passed), queued at most once under `key`.
pub fn compose(
    ctx: &mail::Context,
    to: &str,
    name: &str,
    papers: &[AssignedPaper],
    review_url: &str,
    deadline: Option<&str>,
    key: String,
) -> Result<OutgoingMail, askama::Error> {
    let subject = ctx.subject(&match papers.len() {
        1 => "1 paper to review".to_owned(),
        n => format!("{n} papers to review"),
    });
    let m = Assigned { subject: &subject, name, papers, review_url, deadline };
    let mail = mail::compose(
        to,
        subject.as_str(),
        &AssignedText { site: &ctx.site, m: &m },
        &AssignedHtml { site: &ctx.site, m: &m },
    )?;
    Ok(mail.reply_to(ctx.addresses.organisers.clone()).dedupe_key(key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::{Addresses, Context};

    #[test]
    fn the_mail_lists_codes_and_titles_and_the_review_link() {
        let ctx = Context {
            site: MailSite {
                name: "Fixture Symposium".into(),
                short_name: "FIXCON".into(),
                url: "https://fix.example".into(),
                contact_email: "desk@fix.example".into(),
                contact_phone: "+1555".into(),
            },
            addresses: Addresses { from: "desk@fix.example".into(), organisers: "chair@fix.example".into() },
        };
        let papers = [
            AssignedPaper { code: "R-ABC234".into(), title: "Tides & lanterns".into() },
            AssignedPaper { code: "R-XYZ789".into(), title: "Fog signals".into() },
        ];
        let mail = compose(
            &ctx,
            "ada@r.example",
            "Ada",
            &papers,
            "https://fix.example/review",
            Some("2025-02-20 18:00 (Asia/Singapore)"),
            dedupe_key(7, 42),
        )
        .unwrap();
        assert_eq!(mail.subject, "[FIXCON] 2 papers to review");
        assert_eq!(mail.dedupe_key.as_deref(), Some("review-assigned:7:42"));
        assert!(mail.text_body.contains("R-ABC234: Tides & lanterns"), "{}", mail.text_body);
        assert!(mail.text_body.contains("https://fix.example/review"));
        assert!(mail.text_body.contains("2025-02-20 18:00 (Asia/Singapore)"));
        assert!(mail.html_body.contains("Tides &#38; lanterns"), "{}", mail.html_body);
    }
}
