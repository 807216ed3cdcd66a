//! The static archive of an edition (DESIGN.md section 17): where each public page and file of
//! the site lies under `/<year>/`, and the rewriting that makes a page served from there stand
//! alone: its links point into the archive (or, for what the archive does not hold, to the
//! live site), no form posts, and a banner says it is an archive.
//!
//! Careful string work rather than an HTML rewriting crate (bench/README.md, "Edition
//! archive"): the pages are the site's own templates, so the scanner only needs to know tags,
//! quoted attributes, comments and raw-text `<script>`/`<style>`.

use std::collections::HashMap;
use std::path::PathBuf;

/// What the archive holds at a site path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// An HTML page, written as `<path>/index.html` and linked as `/<year><path>/`.
    Page,
    /// Any other answer (stylesheet, script, image, calendar, XML), written and linked by its
    /// path.
    File,
}

/// The islands whose forms post (`data-island` names, `islands/src/islands/`), with the note
/// that replaces each in the archive and whether it links to the live site's home (the
/// newsletter, in every page's footer, whose page may not exist next year) rather than to the
/// same page. The check-in desk is the organisers' and never archived.
pub const POSTING_ISLANDS: &[(&str, &str, bool)] = &[
    ("ContactForm", "To write to the organisers, use the contact form of the current site", false),
    ("Newsletter", "To subscribe to the newsletter, use the current site", true),
    ("PaperForm", "Papers are submitted on the current site", false),
    ("TicketCheckout", "Registration is on the current site", false),
    ("CustomPayment", "Payments are made on the current site", false),
    ("SponsorCheckout", "Sponsorship is arranged on the current site", false),
    ("CheckInDesk", "The registration desk is on the current site", false),
];

/// The URL of `path` inside the archive of `year`: `/<year><path>/` for a page (so a static
/// server finds its `index.html` without a redirect), `/<year><path>` for a file.
pub fn archive_url(year: i32, path: &str, entry: Entry) -> String {
    match entry {
        Entry::Page if path == "/" => format!("/{year}/"),
        Entry::Page => format!("/{year}{}/", path.trim_end_matches('/')),
        Entry::File => format!("/{year}{path}"),
    }
}

/// The file holding `path` under `DIR/<year>/`: percent-decoded (a static server decodes the
/// request before looking), `index.html` for a page. `None` for a path that could leave the
/// folder or name a hidden file (`..`, `.x`, a backslash, NUL), which is never written.
pub fn file_name(path: &str, entry: Entry) -> Option<PathBuf> {
    let decoded = percent_decode(path)?;
    let mut file = PathBuf::new();
    for segment in decoded.split('/').filter(|segment| !segment.is_empty()) {
        if segment.starts_with('.') || segment.contains(['\\', '\0']) {
            return None;
        }
        file.push(segment);
    }
    match entry {
        Entry::Page => file.push("index.html"),
        Entry::File if file.as_os_str().is_empty() => return None,
        Entry::File => {}
    }
    Some(file)
}

fn percent_decode(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = path.get(at + 1..at + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A reference to this site: its path (no query, no fragment), and what followed the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitePath {
    pub path: String,
    /// `?query` as written (dropped for the archive: a static server ignores it).
    pub query: String,
    /// `#fragment` as written, or empty.
    pub fragment: String,
    /// Whether it was written as an absolute `PUBLIC_URL` link.
    pub absolute: bool,
}

/// The site path `reference` (decoded from the page) points to, when it points to this site:
/// root-relative (`/x`, not `//host`) or under `public_url` (no trailing slash). `None` for
/// other sites, `mailto:`, `tel:`, fragments and relative references.
pub fn site_path(reference: &str, public_url: &str) -> Option<SitePath> {
    let reference = reference.trim();
    let (rest, absolute) = match reference.strip_prefix(public_url) {
        Some(rest) if !public_url.is_empty() && (rest.is_empty() || rest.starts_with(['/', '?', '#'])) => (rest, true),
        _ if reference.starts_with('/') && !reference.starts_with("//") => (reference, false),
        _ => return None,
    };
    let (rest, fragment) = rest.split_once('#').map_or((rest, ""), |(rest, fragment)| (rest, fragment));
    let (path, query) = rest.split_once('?').map_or((rest, ""), |(path, query)| (path, query));
    let path = if path.is_empty() { "/" } else { path };
    Some(SitePath {
        path: path.to_owned(),
        query: if query.is_empty() { String::new() } else { format!("?{query}") },
        fragment: if fragment.is_empty() { String::new() } else { format!("#{fragment}") },
        absolute,
    })
}

/// Every reference an HTML page makes to other documents: `href`, `src`, `action`, an
/// absolute `content` (`og:url`, `og:image`), and the path strings of the islands'
/// `data-props`; entity-decoded. What the archive follows from a page.
pub fn references(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    rewrite_attributes(html, |attribute, value| {
        if attribute == "data-props" {
            json_paths(value, &mut |path| {
                found.push(path.to_owned());
                None
            });
        } else if is_url_attribute(attribute, value) {
            found.push(value.to_owned());
        }
        None
    });
    found
}

/// The absolute `public_url` links in `text` of `content_type` (a sitemap, the frab export, a
/// calendar, unfolded first), `&amp;` decoded.
pub fn absolute_references(text: &str, content_type: &str, public_url: &str) -> Vec<String> {
    let mut found = Vec::new();
    let text = if content_type.starts_with("text/calendar") { unfold(text) } else { text.to_owned() };
    rewrite_absolute(&text, public_url, &mut |url| {
        found.push(url.to_owned());
        None
    });
    found
}

fn is_url_attribute(attribute: &str, value: &str) -> bool {
    match attribute {
        "href" | "src" | "action" | "poster" => true,
        // `<meta content>` holds text too; only an absolute URL is a link.
        "content" => value.starts_with("http://") || value.starts_with("https://"),
        _ => false,
    }
}

/// Rewrites the site's pages and files for the archive of `year`.
#[derive(Debug)]
pub struct Freezer<'a> {
    pub year: i32,
    /// `PUBLIC_URL` without a trailing slash: the live site.
    pub public_url: &'a str,
    /// What the archive holds, by site path (as written in the links, no query).
    pub archived: &'a HashMap<String, Entry>,
    /// The banner's words before the link to the live site, e.g. "This is the archive of
    /// the 2025 conference." (plain text, escaped here).
    pub banner: &'a str,
}

impl Freezer<'_> {
    /// Where `reference` points from the archive: its copy (`/<year>/...`, absolute when the
    /// reference was, the query dropped), the live site for a site path the archive does not
    /// hold (a dynamic route, an answer other than 200), or `None`: not this site, unchanged.
    pub fn target(&self, reference: &str) -> Option<String> {
        let link = site_path(reference, self.public_url)?;
        Some(match self.archived.get(&link.path) {
            Some(entry) => {
                let url = archive_url(self.year, &link.path, *entry);
                let origin = if link.absolute { self.public_url } else { "" };
                format!("{origin}{url}{}", link.fragment)
            }
            None => format!("{}{}{}{}", self.public_url, link.path, link.query, link.fragment),
        })
    }

    /// An HTML page at site path `path` as the archive serves it: every link rewritten
    /// ([`Freezer::target`]), absolute links in `<script>` data (JSON-LD) too; each posting
    /// island ([`POSTING_ISLANDS`]) and each posting form replaced by a note linking to the
    /// live page, other forms (GET filters) removed; the banner first in `<body>`.
    pub fn page(&self, html: &str, path: &str) -> String {
        let linked = rewrite_attributes(html, |attribute, value| {
            if attribute == "data-props" {
                json_rewrite(value, &mut |path| self.target(path))
            } else if is_url_attribute(attribute, value) {
                self.target(value)
            } else {
                None
            }
        });
        let scripts = rewrite_script_text(&linked, &mut |text| self.absolute(text));
        // After the links: the notes link to the live page, which must stay so.
        let home = format!("{}/", self.public_url);
        let without_forms = remove_forms(&scripts, &format!("{}{path}", self.public_url), &home);
        insert_banner(&without_forms, self.banner, &home)
    }

    /// A text file (stylesheet, script, sitemap, frab XML or JSON, calendar) for the archive:
    /// its absolute live links rewritten, and in scripts and stylesheets the `/assets/` and
    /// `/static/` paths the islands load from put under `/<year>/`. Calendars are unfolded
    /// first and folded again at 75 octets (RFC 5545 section 3.1).
    pub fn text(&self, text: &str, content_type: &str) -> String {
        if content_type.starts_with("text/calendar") {
            return fold_lines(&self.absolute(&unfold(text)));
        }
        let rewritten = self.absolute(text);
        if content_type.starts_with("text/css") || content_type.contains("javascript") {
            let mut out = rewritten;
            for prefix in ["/assets/", "/static/"] {
                for quote in ['`', '"', '\'', '('] {
                    out = out.replace(&format!("{quote}{prefix}"), &format!("{quote}/{}{prefix}", self.year));
                }
            }
            return out;
        }
        rewritten
    }

    fn absolute(&self, text: &str) -> String {
        rewrite_absolute(text, self.public_url, &mut |url| self.target(url))
    }
}

/// Calls `visit` with each attribute (name lower-cased, value entity-decoded) of each tag of
/// `html`, skipping comments and the raw text of `<script>` and `<style>`; a value `visit`
/// answers is written in its place, double-quoted and escaped.
fn rewrite_attributes(html: &str, mut visit: impl FnMut(&str, &str) -> Option<String>) -> String {
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let mut copied = 0;
    let mut at = 0;
    while let Some(offset) = html[at..].find('<') {
        let start = at + offset;
        if html[start..].starts_with("<!--") {
            at = html[start..].find("-->").map_or(html.len(), |end| start + end + 3);
            continue;
        }
        if !bytes.get(start + 1).is_some_and(u8::is_ascii_alphabetic) {
            at = start + 1;
            continue;
        }
        let name_end = html[start + 1..]
            .find(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/')
            .map_or(html.len(), |end| start + 1 + end);
        let tag = html[start + 1..name_end].to_ascii_lowercase();
        let mut cursor = name_end;
        // Attributes up to the tag's `>`.
        loop {
            while bytes.get(cursor).is_some_and(|b| b.is_ascii_whitespace() || *b == b'/') {
                cursor += 1;
            }
            if cursor >= bytes.len() || bytes[cursor] == b'>' {
                break;
            }
            let name_start = cursor;
            while bytes.get(cursor).is_some_and(|b| !b.is_ascii_whitespace() && !matches!(b, b'=' | b'>' | b'/')) {
                cursor += 1;
            }
            let name = html[name_start..cursor].to_ascii_lowercase();
            while bytes.get(cursor).is_some_and(u8::is_ascii_whitespace) {
                cursor += 1;
            }
            if bytes.get(cursor) != Some(&b'=') {
                if cursor == name_start {
                    cursor += 1;
                }
                continue;
            }
            cursor += 1;
            while bytes.get(cursor).is_some_and(u8::is_ascii_whitespace) {
                cursor += 1;
            }
            let value_start = cursor;
            let (raw, value_end) = match bytes.get(cursor) {
                Some(quote @ (b'"' | b'\'')) => {
                    let close = html[cursor + 1..].find(*quote as char).map_or(html.len(), |end| cursor + 1 + end);
                    (&html[cursor + 1..close], (close + 1).min(html.len()))
                }
                _ => {
                    let end = html[cursor..]
                        .find(|c: char| c.is_ascii_whitespace() || c == '>')
                        .map_or(html.len(), |end| cursor + end);
                    (&html[cursor..end], end)
                }
            };
            cursor = value_end;
            if let Some(new) = visit(&name, &decode_entities(raw)) {
                out.push_str(&html[copied..value_start]);
                out.push('"');
                out.push_str(&escape_attribute(&new));
                out.push('"');
                copied = value_end;
            }
        }
        at = (cursor + 1).min(html.len());
        if tag == "script" || tag == "style" {
            let close = format!("</{tag}");
            at = find_ascii_case_insensitive(html, at, &close).unwrap_or(html.len());
        }
    }
    out.push_str(&html[copied..]);
    out
}

/// The text of each `<script>` element of `html` passed through `rewrite` (JSON-LD holds the
/// page's absolute URLs).
fn rewrite_script_text(html: &str, rewrite: &mut dyn FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(html.len());
    let mut at = 0;
    while let Some(start) = find_ascii_case_insensitive(html, at, "<script") {
        let Some(open_end) = html[start..].find('>').map(|end| start + end + 1) else { break };
        let close = find_ascii_case_insensitive(html, open_end, "</script").unwrap_or(html.len());
        out.push_str(&html[at..open_end]);
        out.push_str(&rewrite(&html[open_end..close]));
        at = close;
    }
    out.push_str(&html[at..]);
    out
}

/// Each absolute `public_url` link of `text` (ending at a quote, `<`, whitespace, a
/// backslash or another entity than `&amp;`) passed to `visit` decoded; an answer replaces it,
/// `&` written back as `&amp;` where the text had it so.
fn rewrite_absolute(text: &str, public_url: &str, visit: &mut dyn FnMut(&str) -> Option<String>) -> String {
    if public_url.is_empty() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(offset) = text[at..].find(public_url) {
        let start = at + offset;
        let mut end = start + public_url.len();
        loop {
            let rest = &text[end..];
            if rest.starts_with("&amp;") {
                end += 5;
                continue;
            }
            match rest.chars().next() {
                Some(c) if !(c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '\\' | '&' | ')' | '`')) => {
                    end += c.len_utf8();
                }
                _ => break,
            }
        }
        let raw = &text[start..end];
        out.push_str(&text[at..start]);
        match visit(&raw.replace("&amp;", "&")) {
            Some(new) if raw.contains("&amp;") => out.push_str(&new.replace('&', "&amp;")),
            Some(new) => out.push_str(&new),
            None => out.push_str(raw),
        }
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// Each string of the JSON `props` that is a site path (starts with one `/`) passed to
/// `visit`; `None` when none changed (the props are then left as written).
fn json_rewrite(props: &str, visit: &mut dyn FnMut(&str) -> Option<String>) -> Option<String> {
    let mut value: serde_json::Value = serde_json::from_str(props).ok()?;
    let mut changed = false;
    walk_strings(&mut value, &mut |text| {
        if text.starts_with('/')
            && !text.starts_with("//")
            && let Some(new) = visit(text)
        {
            changed = true;
            return Some(new);
        }
        None
    });
    changed.then(|| value.to_string())
}

fn json_paths(props: &str, visit: &mut dyn FnMut(&str) -> Option<String>) {
    json_rewrite(props, visit);
}

fn walk_strings(value: &mut serde_json::Value, visit: &mut dyn FnMut(&str) -> Option<String>) {
    match value {
        serde_json::Value::String(text) => {
            if let Some(new) = visit(text) {
                *text = new;
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|item| walk_strings(item, visit)),
        serde_json::Value::Object(map) => map.values_mut().for_each(|item| walk_strings(item, visit)),
        _ => {}
    }
}

/// `html` with each element carrying a posting island's `data-island` replaced by its note
/// ([`POSTING_ISLANDS`]), each remaining `<form method="post">` by a general note, and every
/// other `<form>` removed with its content. `live` is the page on the live site, `home` its
/// home page.
fn remove_forms(html: &str, live: &str, home: &str) -> String {
    let mut html = html.to_owned();
    for (island, note, to_home) in POSTING_ISLANDS {
        let marker = format!("data-island=\"{island}\"");
        while let Some(found) = html.find(&marker) {
            let Some(start) = html[..found].rfind('<') else { break };
            let end = element_end(&html, start);
            html.replace_range(start..end, &note_html(note, if *to_home { home } else { live }));
        }
    }
    while let Some(start) = find_ascii_case_insensitive(&html, 0, "<form") {
        let open_end = html[start..].find('>').map_or(html.len(), |end| start + end);
        let posts = html[start..open_end].to_ascii_lowercase().replace('\'', "\"").contains("method=\"post\"");
        let end = element_end(&html, start);
        let note = if posts { note_html("This form is on the current site", live) } else { String::new() };
        html.replace_range(start..end, &note);
    }
    html
}

/// The end (exclusive) of the element whose start tag begins at `start`, counting nested
/// elements of the same name; the end of `html` when unclosed.
fn element_end(html: &str, start: usize) -> usize {
    let name_end = html[start + 1..]
        .find(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/')
        .map_or(html.len(), |end| start + 1 + end);
    let name = html[start + 1..name_end].to_ascii_lowercase();
    let (open, close) = (format!("<{name}"), format!("</{name}"));
    let mut depth = 0usize;
    let mut at = start;
    while let Some(next) = find_ascii_case_insensitive(html, at, "<") {
        let rest = &html[next..];
        let bytes = rest.as_bytes();
        let starts = |tag: &str| bytes.get(..tag.len()).is_some_and(|head| head.eq_ignore_ascii_case(tag.as_bytes()));
        let is_open =
            starts(&open) && bytes.get(open.len()).is_some_and(|byte| byte.is_ascii_whitespace() || *byte == b'>');
        let is_close = starts(&close);
        let tag_end = rest.find('>').map_or(html.len(), |end| next + end + 1);
        if is_open {
            depth += 1;
        } else if is_close {
            depth -= 1;
            if depth == 0 {
                return tag_end;
            }
        }
        at = next + 1;
    }
    html.len()
}

fn note_html(note: &str, live: &str) -> String {
    format!(
        "<p class=\"archive-note\">{}: <a href=\"{}\">{}</a>.</p>",
        escape_attribute(note),
        escape_attribute(live),
        escape_attribute(live)
    )
}

/// `html` with the archive's banner first in `<body>`: `banner`, then a link to `live`.
fn insert_banner(html: &str, banner: &str, live: &str) -> String {
    let banner = format!(
        "<div class=\"archive-banner\" role=\"note\"><p>{} The current edition is at <a href=\"{}\">{}</a>.</p></div>",
        escape_attribute(banner),
        escape_attribute(live),
        escape_attribute(live)
    );
    match find_ascii_case_insensitive(html, 0, "<body").and_then(|at| html[at..].find('>').map(|end| at + end + 1)) {
        Some(at) => format!("{}{banner}{}", &html[..at], &html[at..]),
        None => format!("{banner}{html}"),
    }
}

/// RFC 5545 section 3.1: a line break followed by a space or a tab continues the line.
fn unfold(text: &str) -> String {
    text.replace("\r\n ", "").replace("\r\n\t", "")
}

/// RFC 5545 section 3.1: lines longer than 75 octets continue on the next line after a space.
fn fold_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 32);
    for (index, line) in text.split("\r\n").enumerate() {
        if index > 0 {
            out.push_str("\r\n");
        }
        let mut width = 0;
        for c in line.chars() {
            // A continuation line starts with its space: 74 octets of text after it.
            if width + c.len_utf8() > 75 {
                out.push_str("\r\n ");
                width = 1;
            }
            out.push(c);
            width += c.len_utf8();
        }
    }
    out
}

fn find_ascii_case_insensitive(haystack: &str, from: usize, needle: &str) -> Option<usize> {
    let bytes = haystack.as_bytes();
    let needle = needle.as_bytes();
    (from..=bytes.len().checked_sub(needle.len())?)
        .find(|&at| bytes[at..at + needle.len()].eq_ignore_ascii_case(needle))
}

/// `value` with HTML's character references decoded: the five named ones the templates'
/// escaping writes and any numeric one (askama writes `&#38;`, `&#34;`, `&#39;`); anything else
/// is left as written.
fn decode_entities(value: &str) -> String {
    if !value.contains('&') {
        return value.to_owned();
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let head = &rest[1..];
        let decoded = head.find(';').filter(|semicolon| *semicolon <= 10).and_then(|semicolon| {
            let name = &head[..semicolon];
            let c = match name {
                "amp" => Some('&'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "lt" => Some('<'),
                "gt" => Some('>'),
                _ => match name.strip_prefix('#') {
                    Some(hex) if hex.starts_with(['x', 'X']) => u32::from_str_radix(&hex[1..], 16).ok(),
                    Some(decimal) => decimal.parse().ok(),
                    None => None,
                }
                .and_then(char::from_u32),
            };
            c.map(|c| (c, semicolon + 2))
        });
        match decoded {
            Some((c, length)) => {
                out.push(c);
                rest = &rest[length..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn escape_attribute(value: &str) -> String {
    value.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIVE: &str = "https://conf.example";

    fn freezer(archived: &HashMap<String, Entry>) -> Freezer<'_> {
        Freezer { year: 2025, public_url: LIVE, archived, banner: "This is the archive of the 2025 conference." }
    }

    fn archived() -> HashMap<String, Entry> {
        [
            ("/", Entry::Page),
            ("/schedule", Entry::Page),
            ("/Terms-&-Conditions", Entry::Page),
            ("/assets/main-x.js", Entry::File),
            ("/static/img/a.png", Entry::File),
            ("/schedule/talks/t1", Entry::Page),
        ]
        .into_iter()
        .map(|(path, entry)| (path.to_owned(), entry))
        .collect()
    }

    #[test]
    fn pages_become_folders_and_files_keep_their_path() {
        assert_eq!(archive_url(2025, "/", Entry::Page), "/2025/");
        assert_eq!(archive_url(2025, "/schedule", Entry::Page), "/2025/schedule/");
        assert_eq!(archive_url(2025, "/schedule.ics", Entry::File), "/2025/schedule.ics");
        assert_eq!(file_name("/", Entry::Page), Some(PathBuf::from("index.html")));
        assert_eq!(
            file_name("/Terms-%26-Conditions", Entry::Page),
            Some(PathBuf::from("Terms-&-Conditions/index.html"))
        );
        assert_eq!(file_name("/assets/a.js", Entry::File), Some(PathBuf::from("assets/a.js")));
        for unsafe_path in ["/../etc/passwd", "/a/%2e%2e/b", "/.env", "/a\\b", "/", "/%zz"] {
            assert_eq!(file_name(unsafe_path, Entry::File), None, "{unsafe_path}");
        }
    }

    #[test]
    fn only_this_sites_links_are_site_paths() {
        let link = site_path("https://conf.example/schedule?day=2#talk-a", LIVE).unwrap();
        assert_eq!(
            (link.path.as_str(), link.query.as_str(), link.fragment.as_str()),
            ("/schedule", "?day=2", "#talk-a")
        );
        assert!(link.absolute);
        assert_eq!(site_path(LIVE, LIVE).unwrap().path, "/");
        assert!(!site_path("/venue", LIVE).unwrap().absolute);
        for other in ["https://conf.example.org/x", "//cdn.example/x", "mailto:a@b", "#main", "talk.ics", "tel:+1"] {
            assert_eq!(site_path(other, LIVE), None, "{other}");
        }
    }

    #[test]
    fn links_point_into_the_archive_or_to_the_live_site() {
        let archived = archived();
        let freezer = freezer(&archived);
        let html = concat!(
            "<!doctype html><html><head><link rel=\"canonical\" href=\"https://conf.example/schedule\">",
            "<meta property=\"og:url\" content=\"https://conf.example/schedule\"><meta name=\"x\" content=\"/schedule\">",
            "<script type=\"module\" src=\"/assets/main-x.js\"></script>",
            "<script type=\"application/ld+json\">{\"url\":\"https://conf.example/schedule/talks/t1\"}</script></head>",
            "<body><a href='/schedule?day=2#d2'>S</a><a href=\"/Terms-&amp;-Conditions\">T</a>",
            "<a href=\"/organiser\">O</a><a href=\"https://other.example/\">X</a><a href=\"#main\">M</a>",
            "<img src=/static/img/a.png alt=\"\">",
            "<div data-island=\"Speakers\" data-props=\"{&quot;photo&quot;:&quot;/static/img/a.png&quot;}\"></div>",
            "<!-- <a href=\"/schedule\"> --></body></html>"
        );
        let page = freezer.page(html, "/schedule");
        for expected in [
            "href=\"https://conf.example/2025/schedule/\"",
            "content=\"https://conf.example/2025/schedule/\"",
            "content=\"/schedule\"",
            "src=\"/2025/assets/main-x.js\"",
            "{\"url\":\"https://conf.example/2025/schedule/talks/t1/\"}",
            "href=\"/2025/schedule/#d2\"",
            "href=\"/2025/Terms-&amp;-Conditions/\"",
            "href=\"https://conf.example/organiser\"",
            "href=\"https://other.example/\"",
            "href=\"#main\"",
            "src=\"/2025/static/img/a.png\"",
            "&quot;/2025/static/img/a.png&quot;",
            "<!-- <a href=\"/schedule\"> -->",
        ] {
            assert!(page.contains(expected), "{expected} in {page}");
        }
        let banner = page.find("archive-banner").unwrap();
        assert!(page.find("<body>").unwrap() < banner && banner < page.find("href='/schedule").unwrap_or(usize::MAX));
        assert!(page.contains("The current edition is at <a href=\"https://conf.example/\">"));
    }

    #[test]
    fn posting_islands_and_forms_become_notes_and_filters_go() {
        let archived = archived();
        let freezer = freezer(&archived);
        let html = concat!(
            "<body><main><p>Keep</p>",
            "<div class=\"x\" data-island=\"Newsletter\" data-hydrate=\"intent\"><div><form method=\"post\" action=\"/api/newsletter\">",
            "<input name=email></form></div></div>",
            "<form method=\"get\" action=\"/schedule\"><select name=day></select></form>",
            "<FORM METHOD='POST' action=\"/attendee\"><button>Send</button></FORM>",
            "<p>After</p></main></body>"
        );
        let page = freezer.page(html, "/schedule");
        assert!(!page.to_ascii_lowercase().contains("<form"), "{page}");
        assert!(!page.contains("data-island=\"Newsletter\""), "{page}");
        assert!(
            page.contains("To subscribe to the newsletter, use the current site: <a href=\"https://conf.example/\">")
        );
        assert!(page.contains("This form is on the current site: <a href=\"https://conf.example/schedule\">"));
        assert!(page.contains("<p>Keep</p>") && page.contains("<p>After</p></main>"), "{page}");
        assert!(!page.contains("<select"), "the GET filter is dropped: {page}");
    }

    #[test]
    fn text_files_link_into_the_archive() {
        let archived = archived();
        let freezer = freezer(&archived);
        let sitemap = "<url><loc>https://conf.example/schedule</loc></url><url><loc>https://conf.example/Terms-&amp;-Conditions</loc></url>";
        let frozen = freezer.text(sitemap, "application/xml");
        assert!(frozen.contains("<loc>https://conf.example/2025/schedule/</loc>"), "{frozen}");
        assert!(frozen.contains("<loc>https://conf.example/2025/Terms-&amp;-Conditions/</loc>"), "{frozen}");
        let script = "var t=function(e){return`/assets/`+e};import(\"./a.js\");";
        assert_eq!(
            freezer.text(script, "text/javascript"),
            "var t=function(e){return`/2025/assets/`+e};import(\"./a.js\");"
        );
        let css = ".a{mask:url(/assets/icons.svg#a)}";
        assert_eq!(freezer.text(css, "text/css; charset=utf-8"), ".a{mask:url(/2025/assets/icons.svg#a)}");
        let long = format!("URL:https://conf.example/schedule/talks/t1\r\nDESCRIPTION:{}\r\n", "x".repeat(100));
        let calendar = freezer.text(&long, "text/calendar");
        assert!(calendar.contains("URL:https://conf.example/2025/schedule/talks/t1/\r\n"), "{calendar}");
        assert!(calendar.split("\r\n").all(|line| line.len() <= 75), "{calendar}");
        assert_eq!(
            calendar.replace("\r\n ", ""),
            long.replace("https://conf.example/", "https://conf.example/2025/").replace("t1\r", "t1/\r")
        );
    }

    #[test]
    fn character_references_are_decoded() {
        assert_eq!(decode_entities("/a?b=1&amp;c=&#38;&#x27;&#39;&quot;&lt;&gt;"), "/a?b=1&c=&''\"<>");
        assert_eq!(decode_entities("R&D &unknown; & &#xZZ; &"), "R&D &unknown; & &#xZZ; &");
    }

    #[test]
    fn references_are_decoded_and_found_in_props() {
        let html = "<a href=\"/Terms-&#38;-Conditions\">T</a><div data-props=\"{&quot;src&quot;:&quot;/static/img/a.png&quot;,&quot;n&quot;:1}\"></div><script>var a='<a href=\"/no\">';</script><img src=\"/static/b.png\">";
        assert_eq!(references(html), ["/Terms-&-Conditions", "/static/img/a.png", "/static/b.png"]);
    }
}
