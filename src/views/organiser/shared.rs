//! The shapes every back-office page is made of: a filtered, paged table ([`ListPage`]), a
//! notice ([`NoticePage`]), their cells and times, the area's header links, and the words
//! stored names are shown in. One template each keeps the six lists alike for keyboard and
//! screen-reader users: a labelled filter form (GET, works without JavaScript), a captioned
//! table that scrolls sideways on a phone, and plain links. One item with all its fields is
//! the organisers' detail page, its history the history page.

use askama::Template;

use crate::clock::zone::Zone;
use crate::views::layout::Layout;

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

/// At most 40 characters of what a request sent, for a message.
pub use crate::forms::validate::shown;

/// The first line of a text, at most 80 characters, for a table cell.
pub fn excerpt(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    let short: String = line.chars().take(80).collect();
    if short.len() < text.len() { format!("{short}…") } else { short }
}

/// The pages of a list: where this one is and the links to its neighbours.
#[derive(Debug, Clone)]
pub struct Pager {
    pub page: i64,
    pub pages: i64,
    pub total: i64,
    pub previous: Option<String>,
    pub next: Option<String>,
    /// The CSV of this view (every page).
    pub csv: String,
}

impl Pager {
    /// Page `page` of `total` rows of the list at `path`, filtered by `filters` (a query
    /// string without `page`, as `Params::filters` writes it).
    pub fn new(path: &str, filters: &str, page: i64, total: i64) -> Pager {
        let pages = ((total + crate::repo::filter::PAGE_SIZE - 1) / crate::repo::filter::PAGE_SIZE).max(1);
        let link = |page: i64| {
            if filters.is_empty() { format!("{path}?page={page}") } else { format!("{path}?{filters}&page={page}") }
        };
        let csv = if filters.is_empty() { format!("{path}.csv") } else { format!("{path}.csv?{filters}") };
        Pager {
            page,
            pages,
            total,
            previous: (page > 1).then(|| link((page - 1).min(pages))),
            next: (page < pages).then(|| link(page + 1)),
            csv,
        }
    }
}
