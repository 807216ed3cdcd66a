//! The states of a submission, what organisers decide, and the authors' private status links
//! (issue 21, DESIGN.md section 12 "Decisions").

use crate::repo::submissions::Submission;

/// The states of a submission and their words, kept beside the rows (`crate::repo::submissions`)
/// so that every area reads them without depending on decisions.
pub use crate::repo::submissions::{STATES, state_label};

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

/// The authors as mails name them: the author, then the co-authors.
pub fn authors(s: &Submission) -> String {
    let n = &s.submitted;
    if n.co_author_name.trim().is_empty() {
        n.author_name.clone()
    } else {
        format!("{}, {}", n.author_name, n.co_author_name)
    }
}

/// At most 40 characters of what a request sent, for a message.
pub use crate::forms::validate::shown;

/// "1 decision" or "3 decisions": `n` with the noun (and verb) `one` or `many` fits.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_parse_as_stored_and_states_read_for_people() {
        assert_eq!(Decision::parse("accepted"), Some(Decision::Accepted));
        assert_eq!(Decision::parse("accept"), None);
        assert_eq!(state_label("withdrawn"), "Withdrawn");
    }
}
