//! The decision mails (issue 21, DESIGN.md section 12 "Decisions"): made from the seed's
//! templates (`crate::seed::placeholders`), one per applied decision, with the author's new
//! status link and the reviewers' comments to authors (issue 32 item 8).

use askama::Template;

use super::states::{Decision, authors};
use crate::error::{AppError, Outcome, Refused};
use crate::mail::{self, MailSite, OutgoingMail};
use crate::repo::content;
use crate::repo::review_records;
use crate::repo::submissions::Submission;
use crate::review::for_authors::{self, AuthorComments};
use crate::seed::placeholders;

#[derive(Template)]
#[template(path = "mail/decision.txt")]
struct DecisionText<'a> {
    site: &'a MailSite,
    body: &'a str,
}

#[derive(Template)]
#[template(path = "mail/decision.html")]
struct DecisionHtml<'a> {
    site: &'a MailSite,
    subject: &'a str,
    paragraphs: Vec<&'a str>,
    status_link: Option<&'a str>,
}

/// A decision mail rendered from a seed template: what the preview shows and what is queued.
#[derive(Debug, Clone)]
pub struct DecisionMail {
    /// The subject as filled from the template, before the site's `[SHORT NAME]` prefix.
    pub subject: String,
    /// The filled body (plain text).
    pub body: String,
    pub mail: OutgoingMail,
}

/// Fills `template` (subject, body) for `s`'s `decision` and composes the mail to the
/// submission's address, replies to the organisers. `status_link` is the author's private
/// link (the preview passes a stand-in); `reviews` what `{reviews}` stands for
/// (`crate::review::for_authors::placeholder`). Queued once per applied decision: the outbox
/// key is `decision:<reference>:<number of decisions applied>`.
pub fn compose(
    ctx: &mail::Context,
    template: &(String, String),
    s: &Submission,
    note: &str,
    status_link: &str,
    reviews: &str,
    number: i64,
) -> Result<DecisionMail, askama::Error> {
    let n = &s.submitted;
    let authors = authors(s);
    let values = [
        ("title", n.paper_title.as_str()),
        ("reference", n.reference.as_str()),
        ("authors", authors.as_str()),
        ("paper_type", n.paper_type.as_str()),
        ("conference", ctx.site.name.as_str()),
        ("status_link", status_link),
        ("organiser_note", note.trim()),
        ("reviews", reviews),
    ];
    let subject = placeholders::fill(&template.0, &values).replace(['\r', '\n'], " ");
    let body = tidy(&placeholders::fill(&template.1, &values));
    let paragraphs = body.split("\n\n").collect();
    let site = &ctx.site;
    let mail = mail::compose(
        n.email.clone(),
        ctx.subject(&subject),
        &DecisionText { site, body: &body },
        &DecisionHtml { site, subject: &subject, paragraphs, status_link: Some(status_link) },
    )?
    .reply_to(ctx.addresses.organisers.clone())
    .dedupe_key(format!("decision:{}:{number}", n.reference));
    Ok(DecisionMail { subject, body, mail })
}

/// Line ends as `\n`, and no run of blank lines longer than one (an empty note leaves none).
fn tidy(text: &str) -> String {
    let text = text.replace("\r\n", "\n");
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.trim().split('\n') {
        if line.trim().is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
            out.push('\n');
        } else {
            blank = 0;
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out.trim_end().to_owned()
}

/// The seed's decision mail templates, (subject, body) each: accepted, then rejected. An
/// older seed without them is a 503 whose message says to apply the seed.
pub async fn templates(pool: &crate::db::Pool) -> Outcome<Templates> {
    let mut found = Vec::new();
    for d in [Decision::Accepted, Decision::Rejected] {
        let Some(template) = content::mail_template(pool, d.template()).await? else {
            return Err(Refused::Failed(AppError::Unavailable(format!(
                "The mail template {} is missing from the content seed. Apply the seed (conference seed) and try again.",
                d.template()
            ))));
        };
        found.push(template);
    }
    let [accepted, rejected]: [(String, String); 2] = found.try_into().expect("two templates");
    Ok(Templates { accepted, rejected })
}

/// The seed's two decision mail templates, (subject, body) each ([`templates`]).
pub struct Templates {
    accepted: (String, String),
    rejected: (String, String),
}

impl Templates {
    /// The mail `s` gets for `decision` with its note, `link` as its status link and
    /// `reviews` for `{reviews}`, as the row's `number`th decision (its outbox key).
    pub fn mail_for(
        &self,
        ctx: &mail::Context,
        s: &Submission,
        decision: Decision,
        (link, reviews): (&str, &str),
        number: i64,
    ) -> Outcome<DecisionMail> {
        let template = match decision {
            Decision::Accepted => &self.accepted,
            Decision::Rejected => &self.rejected,
        };
        compose(ctx, template, s, &s.decision_note, link, reviews, number)
            .map_err(|e| Refused::Failed(AppError::internal("decision mail", e)))
    }
}

/// What `{reviews}` stands for in submission `id`'s decision mail: its submitted reviews'
/// comments to authors as they are on `conn` (issue 32 item 8).
pub async fn reviews_for(conn: &mut crate::db::Connection, id: i64) -> Result<String, sqlx::Error> {
    let rows = review_records::for_authors(conn, id).await?;
    Ok(for_authors::placeholder(&AuthorComments::from_rows(rows)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_note_leaves_one_blank_line() {
        assert_eq!(tidy("Dear A,\n\n\n\nStatus: x\r\n"), "Dear A,\n\nStatus: x");
    }
}
