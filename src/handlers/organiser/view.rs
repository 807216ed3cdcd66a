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
}

impl Cell {
    /// Plain text.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), href: None }
    }

    /// A link.
    pub fn link(text: impl Into<String>, href: impl Into<String>) -> Cell {
        Cell { text: text.into(), href: Some(href.into()) }
    }
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
