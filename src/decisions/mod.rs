//! Decisions on submissions (issue 21, DESIGN.md section 12 "Decisions"): the states, the
//! decisions organisers stage, the authors' private status links and the decision mails made
//! from the seed's templates (`crate::seed::placeholders`).

use askama::Template;

use crate::config::Config;
use crate::mail::{self, MailSite, OutgoingMail};
use crate::repo::submissions::Submission;
use crate::seed::placeholders;

/// The states of a submission, in the order lists offer them.
pub const STATES: [(&str, &str); 4] =
    [("submitted", "Submitted"), ("accepted", "Accepted"), ("rejected", "Rejected"), ("withdrawn", "Withdrawn")];

/// Where an author's status link points, before the token.
pub const STATUS_PREFIX: &str = "/submission/status/";

/// What organisers decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Accepted,
    Rejected,
}

impl Decision {
    /// As stored (`pending_decision`, `state`) and as forms send it.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Accepted => "accepted",
            Decision::Rejected => "rejected",
        }
    }

    /// A stored or posted value; anything else is `None`.
    pub fn parse(value: &str) -> Option<Decision> {
        match value {
            "accepted" => Some(Decision::Accepted),
            "rejected" => Some(Decision::Rejected),
            _ => None,
        }
    }

    /// For people: `Accept` / `Reject`.
    pub fn verb(self) -> &'static str {
        match self {
            Decision::Accepted => "Accept",
            Decision::Rejected => "Reject",
        }
    }

    /// The seed's template of this decision's mail (`mail_templates.name`).
    pub fn template(self) -> &'static str {
        match self {
            Decision::Accepted => "decision_accepted",
            Decision::Rejected => "decision_rejected",
        }
    }
}

/// A state for people (`Submitted`, ...); an unknown value as it is.
pub fn state_label(state: &str) -> &str {
    STATES.iter().find(|(value, _)| *value == state).map_or(state, |(_, label)| label)
}

/// The address of a status link: `PUBLIC_URL/submission/status/<token>` (never the request's
/// `Host`, which a client chooses).
pub fn status_link(config: &Config, token: &str) -> String {
    format!("{}{STATUS_PREFIX}{token}", config.base_url())
}

/// The authors as mails name them: the author, then the co-authors.
pub fn authors(s: &Submission) -> String {
    let n = &s.submitted;
    if n.co_author_name.trim().is_empty() {
        n.author_name.clone()
    } else {
        format!("{}, {}", n.author_name, n.co_author_name)
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_note_leaves_one_blank_line() {
        assert_eq!(tidy("Dear A,\n\n\n\nStatus: x\r\n"), "Dear A,\n\nStatus: x");
        assert_eq!(Decision::parse("accepted"), Some(Decision::Accepted));
        assert_eq!(Decision::parse("accept"), None);
        assert_eq!(state_label("withdrawn"), "Withdrawn");
    }
}
