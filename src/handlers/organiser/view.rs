//! The two shapes every back-office page takes: a filtered, paged table ([`ListPage`]) and
//! one item with all its fields ([`DetailPage`]). One template each keeps the six lists alike
//! for keyboard and screen-reader users: a labelled filter form (GET, works without
//! JavaScript), a captioned table that scrolls sideways on a phone, and plain links.

use askama::Template;

use super::query::Pager;
use crate::clock::zone::Zone;
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

/// A stored time as the organiser area shows it: readable in the event's zone (`21 Mar 2025,
/// 09:00 PST`), with the exact instant for `<time datetime>`. Written into a template as it
/// is (`{{ moment }}`): its `Display` is the whole `<time>` element, escaped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moment {
    pub text: String,
    /// `2026-12-02T01:24:35.346Z`; `None` for a stored text that is no time (shown as it is).
    pub datetime: Option<String>,
}

impl std::fmt::Display for Moment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.datetime {
            Some(datetime) => write!(f, "<time datetime=\"{datetime}\">{}</time>", escape(&self.text)),
            None => f.write_str(&escape(&self.text)),
        }
    }
}

impl askama::filters::HtmlSafe for Moment {}

/// Text made safe for HTML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// A stored RFC 3339 time (`2026-12-02T01:24:35.346623Z`) in the event's `zone`, the one
/// format of every time on the organisers' pages ([`crate::clock::zone::Zone::readable`]).
pub fn when(stamp: &str, zone: &Zone) -> Moment {
    match time::OffsetDateTime::parse(stamp.trim(), &time::format_description::well_known::Rfc3339) {
        Ok(instant) => {
            Moment { text: zone.readable(instant), datetime: Some(crate::clock::zone::html_datetime(instant)) }
        }
        Err(_) => Moment { text: stamp.to_owned(), datetime: None },
    }
}

/// The event's zone, for [`when`].
pub async fn event_zone(state: &crate::handlers::state::AppState) -> Zone {
    state.content.snapshot().await.zone.clone()
}

/// A table cell or a field's value: text, a link when `href` is set.
#[derive(Debug, Clone)]
pub struct Cell {
    pub text: String,
    pub href: Option<String>,
    /// A row's selection box: the value it sends (the list's [`Bulk`] form).
    pub select: Option<String>,
    /// A time's exact instant: the text is shown in a `<time datetime>`.
    pub datetime: Option<String>,
    /// Words after the text (or the time), e.g. ` by chair@example.org`.
    pub after: String,
}

impl Cell {
    /// Plain text.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), href: None, select: None, datetime: None, after: String::new() }
    }

    /// A link.
    pub fn link(text: impl Into<String>, href: impl Into<String>) -> Cell {
        Cell { text: text.into(), href: Some(href.into()), select: None, datetime: None, after: String::new() }
    }

    /// A stored time in the event's zone ([`when`]).
    pub fn time(stamp: &str, zone: &Zone) -> Cell {
        let Moment { text, datetime } = when(stamp, zone);
        Cell { text, href: None, select: None, datetime, after: String::new() }
    }

    /// A stored time that may be missing: `missing` then.
    pub fn time_or(stamp: Option<&str>, zone: &Zone, missing: &str) -> Cell {
        stamp.map_or_else(|| Cell::text(missing), |stamp| Cell::time(stamp, zone))
    }

    /// This cell with `after` written after its text.
    pub fn then(mut self, after: impl Into<String>) -> Cell {
        self.after = after.into();
        self
    }

    /// This cell as a link to `href`.
    pub fn linked(mut self, href: impl Into<String>) -> Cell {
        self.href = Some(href.into());
        self
    }

    /// This cell with a selection box sending `value`, labelled "Select <text>".
    pub fn selectable(mut self, value: impl Into<String>) -> Cell {
        self.select = Some(value.into());
        self
    }
}

/// Leaves out the columns whose cell is empty in every row (a figure no row has yet, a field
/// the form never asks for), so a list fits a laptop's width. With no rows every column stays.
pub fn drop_empty_columns(columns: &mut Vec<&'static str>, rows: &mut [Vec<Cell>]) {
    if rows.is_empty() {
        return;
    }
    let empty = |at: usize| {
        rows.iter()
            .all(|row| row.get(at).is_none_or(|c| c.text.trim().is_empty() && c.after.is_empty() && c.select.is_none()))
    };
    let keep: Vec<bool> = (0..columns.len()).map(|at| !empty(at)).collect();
    let mut at = 0;
    columns.retain(|_| {
        at += 1;
        keep[at - 1]
    });
    for row in rows.iter_mut() {
        let mut at = 0;
        row.retain(|_| {
            at += 1;
            keep.get(at - 1).copied().unwrap_or(true)
        });
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
    /// When, in the event's zone.
    pub at: Moment,
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

/// A field of a change as organisers call it, in the words the item's page uses.
fn field_label(name: &str) -> String {
    match name {
        "pending_decision" => "Pending decision".to_owned(),
        "note" => "Note".to_owned(),
        "state" => "State".to_owned(),
        "score" => "Weighted score".to_owned(),
        "changed" => "Changed".to_owned(),
        "comment" => "Discussion message".to_owned(),
        "reviewer_number" => "Reviewer number".to_owned(),
        "public_abstract" => "Public abstract".to_owned(),
        other => review_field_label(other).map_or_else(|| word(other), str::to_owned),
    }
}

/// A review's field as the submission's page names it (`changed` lists these names).
fn review_field_label(name: &str) -> Option<&'static str> {
    Some(match name {
        "scores" => "Scores",
        "recommendation" => "Recommendation",
        "confidence" => "Confidence",
        "comments_to_authors" => "Comments to the authors",
        "confidential_comments" => "Confidential comments to the committee",
        _ => return None,
    })
}

/// A value of a change as the item's page shows it (a score of `4125` thousandths is `4.13`,
/// a list is its items in words); `None` for no value (null, empty).
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
            ("recommendation", r) => crate::review::figures::recommendation(r).to_owned(),
            ("assignment", a) => word(a),
            _ => s.clone(),
        }),
        Value::Number(n) => Some(match (field, n.as_i64()) {
            ("score", Some(thousandths)) => crate::review::figures::points(thousandths),
            ("confidence", Some(c)) => format!("{c} of 5"),
            _ => n.to_string(),
        }),
        Value::Array(items) => {
            let shown: Vec<String> = items
                .iter()
                .filter_map(|item| match (field, item.as_str()) {
                    ("changed", Some(name)) => Some(review_field_label(name).map_or_else(|| word(name), str::to_owned)),
                    _ => value_label(field, item),
                })
                .collect();
            (!shown.is_empty()).then(|| shown.join(", "))
        }
        Value::Object(fields) => {
            let shown: Vec<String> = fields
                .iter()
                .filter_map(|(name, value)| value_label(name, value).map(|v| format!("{}: {v}", field_label(name))))
                .collect();
            (!shown.is_empty()).then(|| shown.join("; "))
        }
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
    if name == "reviewer"
        && let Some(number) = value.as_i64()
    {
        return Some(format!("Reviewer {number}"));
    }
    value_label(name, value).map(|shown| format!("{label}: {shown}"))
}

impl HistoryEntry {
    /// An audit entry as a history line: `details` holding `{"field": {"before": .., "after": ..}}`
    /// read as changes (those that change nothing left out), any other detail as `Name: value`.
    pub fn of(entry: crate::repo::audit::Entry, zone: &Zone) -> HistoryEntry {
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
            at: when(&entry.at, zone),
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
    let zone = event_zone(state).await;
    Ok(entries.into_iter().map(|entry| HistoryEntry::of(entry, &zone)).collect())
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
