//! Contact messages in the back office (`crate::handlers::organiser::messages`): the list's
//! rows, columns and filters, and a message's page: its fields, the reply link and the form
//! that marks it answered with an internal note.

use crate::clock::zone::Zone;
use crate::repo::messages::Received;
use crate::views::organiser::detail::{ActionForm, Field, Group};
use crate::views::organiser::shared::{Cell, Control, excerpt};

/// The list's address.
pub const MESSAGES: &str = "/organiser/messages";

/// The list's columns, in the order of [`row`]'s cells.
pub const COLUMNS: [&str; 7] = ["Received", "Name", "E-mail", "Country", "Message", "Read", "Answered"];

/// A message as the list shows it, times in `zone`.
pub fn row(Received { message: m, read_at, answered_at, .. }: Received, zone: &Zone) -> Vec<Cell> {
    vec![
        Cell::time(&m.created, zone).linked(format!("{MESSAGES}/{}", m.id)),
        Cell::text(m.name),
        Cell::text(m.email),
        Cell::text(m.country),
        Cell::text(excerpt(&m.message)),
        Cell::text(if read_at.is_some() { "read" } else { "unread" }),
        Cell::text(if answered_at.is_some() { "answered" } else { "" }),
    ]
}

/// The list's filters, each showing the `value` of its query parameter.
pub fn controls(value: impl Fn(&str) -> String) -> Vec<Control> {
    vec![
        Control::search("Search name, e-mail, country, message", value("q")),
        Control::select("status", "Read", value("status"), &[("unread", "Not yet read"), ("read", "Read")]),
    ]
}

/// The `mailto:` link that replies to `email`, its subject naming the conference's
/// `short_name` when the site is seeded.
pub fn reply_href(email: &str, short_name: Option<&str>) -> String {
    let subject = match short_name {
        Some(name) => format!("Re: your message to {name}"),
        None => "Re: your message".to_owned(),
    };
    format!("mailto:{email}?subject={}", percent_encoded(&subject))
}

/// A message's fields, times in `zone`.
pub fn groups(r: &Received, zone: &Zone) -> Vec<Group> {
    let m = &r.message;
    vec![Group {
        heading: "Message",
        fields: vec![
            ("Received", Cell::time(&m.created, zone)),
            ("First read", Cell::time(r.read_at.as_deref().unwrap_or_default(), zone)),
            (
                "Answered",
                match (&r.answered_at, &r.answered_by) {
                    (Some(at), Some(by)) => Cell::time(at, zone).then(format!(" by {by}")),
                    _ => Cell::text("Not yet"),
                },
            ),
            ("Name", Cell::text(m.name.clone())),
            ("E-mail", Cell::text(m.email.clone())),
            ("Phone", Cell::text(m.number.clone())),
            ("Country", Cell::text(m.country.clone())),
            ("Message", Cell::text(m.message.clone())),
        ],
    }]
}

/// The form that marks a message answered or not, with its internal note.
pub fn answered_form(r: &Received) -> ActionForm {
    ActionForm {
        heading: "Answered",
        action: format!("{MESSAGES}/{}/answered", r.message.id),
        fields: vec![
            Field::select(
                "answered",
                "Answered",
                if r.answered_at.is_some() { "yes" } else { "no" },
                &[("no", "Not answered"), ("yes", "Answered")],
            ),
            Field::textarea("note", "Internal note (organisers only)", r.note.clone()),
        ],
        button: "Save",
    }
}

/// `text` for a `mailto:` query (RFC 6068): every byte but unreserved ones escaped.
fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
