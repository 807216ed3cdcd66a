//! What a reviewer's invitation page shows (issue 32 item 1): who invites, for which topics,
//! the two answers, and what an answer or a link that opens nothing says.

use askama::Template;

use crate::repo::content::lines;
use crate::repo::reviewers::Reviewer;
use crate::review::reviewers::Answer;
use crate::views::layout::Layout;

/// What the page says of a link that opens nothing.
pub const NOT_VALID: &str = "This invitation link does not work: it was answered already, a newer invitation replaced it, or it is not one we sent. If you were invited, please use the links of the latest invitation mail.";

/// What the page shows.
pub enum Shown {
    /// The open invitation, with the button the mail's link chose first.
    Open { reviewer: Box<Reviewer>, topics: Vec<String>, chosen: Option<Answer>, problem: Option<&'static str> },
    /// Just accepted; `email` is the address to sign in with.
    Accepted { email: String },
    /// Just declined.
    Declined,
    /// A link that opens nothing.
    NotValid,
}

/// The invitation page as drawn (`templates/review/invitation.html`).
#[derive(Template)]
#[template(path = "review/invitation.html")]
pub struct InvitationPage {
    pub layout: Layout,
    pub heading: String,
    /// The conference's full name.
    pub conference: String,
    pub contact: String,
    /// Where the buttons post (the link itself, without its query).
    pub action: String,
    /// Where an accepted reviewer signs in (`/review`).
    pub sign_in: &'static str,
    pub shown: Shown,
}

impl InvitationPage {
    /// Whether the page puts "Decline" first (the mail's decline link).
    fn decline_first(&self) -> bool {
        matches!(self.shown, Shown::Open { chosen: Some(Answer::Decline), .. })
    }

    /// Whether the mail's accept link opened the page.
    fn chosen_accept(&self) -> bool {
        matches!(self.shown, Shown::Open { chosen: Some(Answer::Accept), .. })
    }
}

impl Shown {
    /// The open invitation of `reviewer`, its topics one per line, `chosen` the button the
    /// mail's link puts first, `problem` what a refused answer says.
    pub fn open(reviewer: Reviewer, chosen: Option<Answer>, problem: Option<&'static str>) -> Shown {
        let topics = lines(&reviewer.topics).into_iter().map(str::to_owned).collect();
        Shown::Open { reviewer: Box::new(reviewer), topics, chosen, problem }
    }

    /// The page's heading; `short` is the conference's short name.
    pub fn heading(&self, short: &str) -> String {
        match self {
            Shown::Open { .. } => format!("Invitation to review for {short}"),
            Shown::Accepted { .. } => "Thank you: you are a reviewer".to_owned(),
            Shown::Declined => "You declined the invitation".to_owned(),
            Shown::NotValid => "This invitation link does not work".to_owned(),
        }
    }
}
