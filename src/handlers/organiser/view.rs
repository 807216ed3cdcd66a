//! The two shapes every back-office page takes: a filtered, paged table ([`ListPage`]) and
//! one item with all its fields ([`DetailPage`]). One template each keeps the six lists alike
//! for keyboard and screen-reader users: a labelled filter form (GET, works without
//! JavaScript), a captioned table that scrolls sideways on a phone, and plain links.

use askama::Template;

use super::query::Pager;
use crate::handlers::layout::Layout;

/// A filter of a list's form.
#[derive(Debug, Clone)]
pub struct Control {
    /// The query parameter.
    pub name: &'static str,
    pub label: &'static str,
    /// `select`, `search` or `date`.
    pub kind: &'static str,
    /// What the view uses now.
    pub value: String,
    /// A `select`'s choices: (value, label); the first is "all" with an empty value.
    pub options: Vec<(String, String)>,
}

impl Control {
    /// A `<select>` of `choices` (value, label), with "All" first.
    pub fn select(name: &'static str, label: &'static str, value: String, choices: &[(&str, &str)]) -> Control {
        let mut options = vec![(String::new(), "All".to_owned())];
        options.extend(choices.iter().map(|(value, label)| (value.to_string(), label.to_string())));
        Control { name, label, kind: "select", value, options }
    }

    /// The search box `q`.
    pub fn search(label: &'static str, value: String) -> Control {
        Control { name: "q", label, kind: "search", value, options: Vec::new() }
    }

    /// A date field.
    pub fn date(name: &'static str, label: &'static str, value: String) -> Control {
        Control { name, label, kind: "date", value, options: Vec::new() }
    }
}

/// A table cell or a field's value: text, a link when `href` is set.
#[derive(Debug, Clone)]
pub struct Cell {
    pub text: String,
    pub href: Option<String>,
    /// A row's selection box: the value it sends (the list's [`Bulk`] form).
    pub select: Option<String>,
}

impl Cell {
    /// Plain text.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), href: None, select: None }
    }

    /// A link.
    pub fn link(text: impl Into<String>, href: impl Into<String>) -> Cell {
        Cell { text: text.into(), href: Some(href.into()), select: None }
    }

    /// This cell with a selection box sending `value`, labelled "Select <text>".
    pub fn selectable(mut self, value: impl Into<String>) -> Cell {
        self.select = Some(value.into());
        self
    }
}

/// A list's form over its selected rows (POST, `item` once per selected row).
#[derive(Debug, Clone)]
pub struct Bulk {
    pub action: &'static str,
    /// The `<select name="decision">`'s choices: (value, label).
    pub choices: Vec<(&'static str, &'static str)>,
    pub button: &'static str,
}

/// A field of an [`ActionForm`].
#[derive(Debug, Clone)]
pub struct Field {
    pub name: &'static str,
    pub label: &'static str,
    /// `select`, `textarea` or `hidden`.
    pub kind: &'static str,
    pub value: String,
    /// A `select`'s choices: (value, label).
    pub options: Vec<(String, String)>,
}

impl Field {
    /// A hidden value the form sends back (e.g. the version it was drawn from).
    pub fn hidden(name: &'static str, value: impl Into<String>) -> Field {
        Field { name, label: "", kind: "hidden", value: value.into(), options: Vec::new() }
    }

    /// A `<textarea>` (at most 2000 characters).
    pub fn textarea(name: &'static str, label: &'static str, value: impl Into<String>) -> Field {
        Field { name, label, kind: "textarea", value: value.into(), options: Vec::new() }
    }

    /// A `<select>` of `choices` (value, label).
    pub fn select(
        name: &'static str,
        label: &'static str,
        value: impl Into<String>,
        choices: &[(&str, &str)],
    ) -> Field {
        let options = choices.iter().map(|(v, l)| (v.to_string(), l.to_string())).collect();
        Field { name, label, kind: "select", value: value.into(), options }
    }
}

/// A form on an item's page that changes it (same-origin POST).
#[derive(Debug, Clone)]
pub struct ActionForm {
    pub heading: &'static str,
    pub action: String,
    pub fields: Vec<Field>,
    pub button: &'static str,
}

/// The organiser area's header links (`templates/organiser/page.html`), in groups of (address,
/// name): fifteen links in one row wrapped into four lines on a phone, so each group gets a line
/// of its own there, named by the group.
pub const AREA_NAV: &[NavGroup] = &[
    NavGroup { name: "", links: &[("/organiser", "Dashboard"), ("/organiser/settings", "Settings")] },
    NavGroup {
        name: "Papers",
        links: &[
            ("/organiser/submissions", "Submissions"),
            ("/organiser/reviewers", "Reviewers"),
            ("/organiser/review/assignments", "Assignments"),
            ("/organiser/review", "Review"),
        ],
    },
    NavGroup { name: "Programme", links: &[("/organiser/programme", "Programme"), ("/organiser/streams", "Streams")] },
    NavGroup {
        name: "Attendees",
        links: &[
            ("/organiser/orders", "Orders"),
            ("/organiser/check-in", "Check-in"),
            ("/organiser/certificates", "Certificates"),
        ],
    },
    NavGroup {
        name: "Mail and log",
        links: &[
            ("/organiser/messages", "Messages"),
            ("/organiser/subscribers", "Subscribers"),
            ("/organiser/outbox", "Outbox"),
            ("/organiser/audit", "Audit"),
        ],
    },
];

/// A named group of the organiser area's header links: (address, name); the dashboard's group
/// has no name.
#[derive(Debug)]
pub struct NavGroup {
    pub name: &'static str,
    pub links: &'static [(&'static str, &'static str)],
}

/// Every header link of the organiser area, in order: (address, name).
pub fn area_links() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    AREA_NAV.iter().flat_map(|group| group.links)
}

/// An entry of an item's history (from the audit log), in the words organisers use.
#[derive(Debug, Clone)]
pub struct HistoryEntry {
    pub at: String,
    pub actor: String,
    pub action: String,
    /// What changed, `Field: before → after`, one per line; fields that kept their value are
    /// left out.
    pub change: String,
}

/// What an audit log action is called on the organisers' pages; the log keeps its own name
/// (`submission.decision_staged`), which an unknown action shows as it is.
pub fn action_label(action: &str) -> &str {
    match action {
        "submission.decision_staged" => "Pending decision set",
        "submission.decision_applied" => "Decision applied and mailed",
        "submission.withdrawn" => "Withdrawn by the author",
        "paper.downloaded" => "Paper downloaded",
        "export.csv" => "CSV downloaded",
        "export.papers" => "Papers exported",
        "message.updated" => "Message updated",
        "order.note" => "Note saved",
        "order.refunded" => "Refund recorded",
        "stream.set" => "Stream link set",
        "stream.removed" => "Stream link removed",
        "ticket.checked_in" => "Checked in at the desk",
        "ticket.name_changed" => "Name on the ticket changed by the attendee",
        "attendee.link_sent" => "Attendee link sent again",
        "certificates.released" => "Certificates released and mailed",
        "certificate.revoked" => "Certificate revoked",
        "certificate.reissued" => "Certificate reissued with a corrected name and mailed",
        "programme.placed" => "Placed in the programme",
        "programme.moved" => "Moved in its session",
        "programme.removed" => "Taken out of the programme",
        "programme.locked" => "Authors' edits locked",
        "programme.unlocked" => "Authors' edits unlocked",
        "programme.paper_edited" => "Public abstract and presenter edited",
        "programme.published" => "Programme version published",
        "reviewer.invited" => "Reviewer invited",
        "reviewer.invitation_resent" => "Reviewer's invitation sent again",
        "reviewer.removed" => "Reviewer removed",
        "reviewer.accepted" => "Invitation to review accepted",
        "reviewer.declined" => "Invitation to review declined",
        "review.reminded" => "Reminder sent now",
        "review.reminder_sent" => "Deadline reminder sent",
        "review.assignments_staged" => "Automatic review assignment staged",
        "review.assignments_released" => "Review assignments released and mailed",
        "review.assignments_discarded" => "Staged review assignments discarded",
        "review.assigned" => "Reviewer assigned (staged)",
        "review.unassigned" => "Reviewer unassigned",
        "auth.link_requested" => "Sign-in link asked for",
        "auth.signed_in" => "Signed in",
        "auth.signed_out" => "Signed out",
        "auth.signed_out_everywhere" => "Signed out everywhere",
        "auth.access_removed" => "Access ended (address no longer an organiser or reviewer)",
        "review.draft_saved" => "Review draft saved",
        "review.submitted" => "Review submitted",
        "review.edited" => "Submitted review changed",
        "review.commented" => "Message posted to the reviewers' discussion",
        // By an organiser or by the reviewer: the entry's actor says which.
        "review.conflict_declared" => "Reviewer conflict declared",
        "review.access_refused" => "Reviewer refused a paper they may not see",
        other => other,
    }
}

/// Who did it, as a person reads it: an organiser's address as it is.
pub fn actor_label(actor: &str) -> &str {
    match actor {
        "author" => "The author",
        "attendee" => "The attendee",
        "cli" => "Command line",
        "system" => "The server",
        other => other,
    }
}

/// A stored word (a state, a status, a kind) as a page shows it: `submitted` is "Submitted",
/// `not_sent` "Not sent".
pub fn word(value: &str) -> String {
    let spaced = value.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A field of a change as organisers call it.
fn field_label(name: &str) -> String {
    match name {
        "pending_decision" => "Pending decision".to_owned(),
        "note" => "Note".to_owned(),
        "state" => "State".to_owned(),
        other => word(other),
    }
}

/// A value of a change; `None` for no value (null or empty).
fn value_label(field: &str, value: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match value {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::Bool(true) => Some("Yes".to_owned()),
        Value::Bool(false) => Some("No".to_owned()),
        Value::String(s) => Some(match (field, s.as_str()) {
            ("pending_decision", "accepted") => "Accept".to_owned(),
            ("pending_decision", "rejected") => "Reject".to_owned(),
            ("state", state) => crate::decisions::state_label(state).to_owned(),
            _ => s.clone(),
        }),
        other => Some(other.to_string()),
    }
}

/// One line of a change, or `None` when it changed nothing.
fn change_line(name: &str, value: &serde_json::Value) -> Option<String> {
    let label = field_label(name);
    if let (Some(before), Some(after)) = (value.get("before"), value.get("after")) {
        let (before, after) = (value_label(name, before), value_label(name, after));
        if before == after {
            return None;
        }
        let none = || "None".to_owned();
        return Some(format!("{label}: {} → {}", before.unwrap_or_else(none), after.unwrap_or_else(none)));
    }
    if name == "mail"
        && let Some(to) = value.get("to").and_then(|v| v.as_str())
    {
        let subject = value.get("subject").and_then(|v| v.as_str()).unwrap_or("");
        let queued = value.get("queued").and_then(|v| v.as_bool()).unwrap_or(true);
        let sent = if queued { "queued" } else { "queued already, not again" };
        return Some(format!("Mail to {to} ({sent}): {subject}"));
    }
    value_label(name, value).map(|shown| format!("{label}: {shown}"))
}

impl HistoryEntry {
    /// An audit entry as a history line: `details` holding `{"field": {"before": .., "after": ..}}`
    /// read as changes (those that change nothing left out), any other detail as `Name: value`.
    pub fn of(entry: crate::repo::audit::Entry) -> HistoryEntry {
        let details: serde_json::Value = serde_json::from_str(&entry.details).unwrap_or_default();
        let change = details
            .as_object()
            .map(|fields| {
                // The state first, what is mailed last, the rest in between as stored.
                let rank = |name: &str| match name {
                    "state" => 0,
                    "pending_decision" => 1,
                    "note" => 2,
                    "mail" => 4,
                    _ => 3,
                };
                let mut fields: Vec<_> = fields.iter().collect();
                fields.sort_by_key(|(name, _)| rank(name));
                fields.into_iter().filter_map(|(name, value)| change_line(name, value)).collect::<Vec<_>>().join("\n")
            })
            .unwrap_or_default();
        HistoryEntry {
            at: entry.at,
            actor: actor_label(&entry.actor).to_owned(),
            action: action_label(&entry.action).to_owned(),
            change,
        }
    }
}

/// A page of the organiser area that says what was done (the answer after applying
/// decisions) or why nothing was (a stale or bad form), with links on from there.
#[derive(Template)]
#[template(path = "organiser/notice.html")]
pub struct NoticePage {
    pub layout: Layout,
    pub heading: String,
    pub message: String,
    /// `status` for what was done, `alert` for what was refused.
    pub role: &'static str,
    /// Where to go from here: (address, text), the first the main one.
    pub links: Vec<(String, String)>,
}

/// A list of the back office.
#[derive(Template)]
#[template(path = "organiser/list.html")]
pub struct ListPage {
    pub layout: Layout,
    pub heading: &'static str,
    /// The list's address, where the filter form goes.
    pub path: &'static str,
    /// Counts shown above the table (e.g. subscribers by status).
    pub summary: Vec<(String, i64)>,
    pub controls: Vec<Control>,
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<Cell>>,
    pub pager: Pager,
    /// The form over selected rows, on lists that have one.
    pub bulk: Option<Bulk>,
}

/// A group of fields of one item.
#[derive(Debug, Clone)]
pub struct Group {
    pub heading: &'static str,
    pub fields: Vec<(&'static str, Cell)>,
}

/// One item with every field.
#[derive(Template)]
#[template(path = "organiser/detail.html")]
pub struct DetailPage {
    pub layout: Layout,
    pub heading: String,
    /// The list it belongs to: (address, name).
    pub back: (&'static str, &'static str),
    /// Links to act on it (the paper, a reply).
    pub actions: Vec<Cell>,
    pub groups: Vec<Group>,
    /// Forms that change the item.
    pub forms: Vec<ActionForm>,
    /// Its history from the audit log, oldest first (`None`: the page shows none).
    pub history: Option<Vec<HistoryEntry>>,
}

/// The history of an item (`object_type`, `object_id` as the audit log names it).
pub async fn history(
    state: &crate::handlers::state::AppState,
    object_type: &str,
    object_id: &str,
) -> Result<Vec<HistoryEntry>, crate::error::AppError> {
    let entries = crate::repo::audit::of_object(&state.pool, object_type, object_id).await?;
    Ok(entries.into_iter().map(HistoryEntry::of).collect())
}

/// At most 40 characters of what was asked for, for a message.
pub fn shown(value: &str) -> String {
    value.chars().take(40).collect()
}

/// The first line of a text, at most 80 characters, for a table cell.
pub fn excerpt(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    let short: String = line.chars().take(80).collect();
    if short.len() < text.len() { format!("{short}…") } else { short }
}
