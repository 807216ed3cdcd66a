//! An item's history on its page ([`super::detail::DetailPage`]): the audit log's entries
//! about it, each as a line of what changed in the words organisers use
//! (`crate::handlers::organiser::history` reads them).

use crate::clock::zone::Zone;
use crate::views::organiser::shared::{Moment, action_label, actor_label, when, word};

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
            ("state", state) => crate::repo::submissions::state_label(state).to_owned(),
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
