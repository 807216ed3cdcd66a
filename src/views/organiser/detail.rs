//! The second shape of a back-office page: one item with all its fields ([`DetailPage`]),
//! the forms that change it, and its history ([`super::history`]). The submissions', messages'
//! and orders' handlers fill it.

use askama::Template;

use crate::views::layout::Layout;
use crate::views::organiser::history::HistoryEntry;
use crate::views::organiser::shared::Cell;

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
