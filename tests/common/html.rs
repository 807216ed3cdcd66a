//! Just enough HTML reading for assertions about what a visitor sees: tags with their
//! attributes, elements with their content, visible text. The pages are our own
//! well-formed templates, so a small scanner is enough.

/// A start tag found in a document.
#[derive(Debug, Clone)]
pub struct Tag {
    /// Lower-case element name.
    pub name: String,
    /// Attributes in document order, values with entities decoded.
    pub attrs: Vec<(String, String)>,
    /// Byte offset of `<`.
    pub start: usize,
    /// Byte offset just past `>`.
    pub end: usize,
}

impl Tag {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub fn has(&self, name: &str, value: &str) -> bool {
        self.attr(name) == Some(value)
    }

    /// Whether the `class` attribute lists `class`.
    pub fn has_class(&self, class: &str) -> bool {
        self.attr("class").is_some_and(|c| c.split_whitespace().any(|c| c == class))
    }
}

const VOID: [&str; 14] =
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "!doctype"];

/// Every start tag of the document, in order. Contents of `<script>` are skipped.
pub fn all_tags(html: &str) -> Vec<Tag> {
    let bytes = html.as_bytes();
    let mut tags = Vec::new();
    let mut i = 0;
    while let Some(offset) = html[i..].find('<') {
        let start = i + offset;
        if html[start..].starts_with("<!--") {
            i = html[start..].find("-->").map_or(html.len(), |e| start + e + 3);
            continue;
        }
        let mut j = start + 1;
        while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'-' || bytes[j] == b'!') {
            j += 1;
        }
        if j == start + 1 {
            i = start + 1;
            continue;
        }
        let name = html[start + 1..j].to_ascii_lowercase();
        let (attrs, end) = parse_attrs(html, j);
        let is_script = name == "script";
        tags.push(Tag { name, attrs, start, end });
        i = end;
        if is_script {
            i = html[end..].find("</script").map_or(html.len(), |e| end + e);
        }
    }
    tags
}

fn parse_attrs(html: &str, mut i: usize) -> (Vec<(String, String)>, usize) {
    let bytes = html.as_bytes();
    let mut attrs = Vec::new();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() {
            return (attrs, bytes.len());
        }
        if bytes[i] == b'>' {
            return (attrs, i + 1);
        }
        if bytes[i] == b'/' {
            i += 1;
            continue;
        }
        let name_start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !matches!(bytes[i], b'=' | b'>' | b'/') {
            i += 1;
        }
        let name = html[name_start..i].to_ascii_lowercase();
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'=' {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            let value = if i < bytes.len() && (bytes[i] == b'"' || bytes[i] == b'\'') {
                let quote = bytes[i] as char;
                let value_start = i + 1;
                let value_end = html[value_start..].find(quote).map_or(html.len(), |e| value_start + e);
                i = (value_end + 1).min(html.len());
                &html[value_start..value_end]
            } else {
                let value_start = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'>' {
                    i += 1;
                }
                &html[value_start..i]
            };
            attrs.push((name, unescape(value)));
        } else {
            attrs.push((name, String::new()));
        }
    }
}

/// Start tags of one element name.
pub fn tags(html: &str, name: &str) -> Vec<Tag> {
    all_tags(html).into_iter().filter(|t| t.name == name).collect()
}

/// The first start tag for which `pred` holds.
pub fn find_tag(html: &str, pred: impl Fn(&Tag) -> bool) -> Option<Tag> {
    all_tags(html).into_iter().find(|t| pred(t))
}

/// The whole element (start tag to matching end tag) that starts with `tag`.
pub fn outer<'a>(html: &'a str, tag: &Tag) -> &'a str {
    &html[tag.start..tag.start + element_len(html, tag)]
}

/// The content of the element that starts with `tag` (between its start and end tags).
pub fn inner<'a>(html: &'a str, tag: &Tag) -> &'a str {
    if VOID.contains(&tag.name.as_str()) {
        return "";
    }
    let element = outer(html, tag);
    let close = format!("</{}", tag.name);
    let content_end = element.rfind(&close).unwrap_or(element.len());
    &element[tag.end - tag.start..content_end]
}

fn element_len(html: &str, tag: &Tag) -> usize {
    if VOID.contains(&tag.name.as_str()) {
        return tag.end - tag.start;
    }
    let open = format!("<{}", tag.name);
    let close = format!("</{}", tag.name);
    let lower = html.to_ascii_lowercase();
    let mut depth = 1;
    let mut i = tag.end;
    while depth > 0 {
        let next_open = next_start_tag(&lower, &open, i);
        let next_close = lower[i..].find(&close).map(|e| i + e);
        match (next_open, next_close) {
            (Some(o), Some(c)) if o < c => {
                depth += 1;
                i = o + open.len();
            }
            (_, Some(c)) => {
                depth -= 1;
                i = c + close.len();
                if depth == 0 {
                    let gt = html[i..].find('>').map_or(html.len(), |e| i + e + 1);
                    return gt - tag.start;
                }
            }
            (_, None) => return html.len() - tag.start,
        }
    }
    unreachable!()
}

/// Next `<name` that really starts a tag of that name (not `<name-x` or `<namespace`).
fn next_start_tag(lower: &str, open: &str, mut from: usize) -> Option<usize> {
    while let Some(e) = lower[from..].find(open) {
        let at = from + e;
        let after = lower.as_bytes().get(at + open.len()).copied();
        if matches!(after, Some(b' ' | b'>' | b'\n' | b'\t' | b'\r' | b'/')) {
            return Some(at);
        }
        from = at + open.len();
    }
    None
}

/// The element with `id="..."`.
pub fn by_id<'a>(html: &'a str, id: &str) -> Option<&'a str> {
    find_tag(html, |t| t.has("id", id)).map(|t| outer(html, &t))
}

/// The element labelled by the element with this id (`aria-labelledby="..."`).
pub fn labelled<'a>(html: &'a str, label_id: &str) -> Option<&'a str> {
    find_tag(html, |t| t.has("aria-labelledby", label_id)).map(|t| outer(html, &t))
}

/// The first element with this class.
pub fn by_class<'a>(html: &'a str, class: &str) -> Option<&'a str> {
    find_tag(html, |t| t.has_class(class)).map(|t| outer(html, &t))
}

/// Every element with this class.
pub fn all_by_class<'a>(html: &'a str, class: &str) -> Vec<&'a str> {
    all_tags(html).into_iter().filter(|t| t.has_class(class)).map(|t| outer(html, &t)).collect()
}

/// Visible text of a fragment: tags removed, entities decoded, whitespace collapsed.
pub fn text(fragment: &str) -> String {
    let mut out = String::with_capacity(fragment.len());
    let mut rest = fragment;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        out.push(' ');
        let after = &rest[lt..];
        let skip_to = if after.starts_with("<script") || after.starts_with("<style") {
            let close = if after.starts_with("<script") { "</script>" } else { "</style>" };
            after.find(close).map_or(after.len(), |e| e + close.len())
        } else {
            after.find('>').map_or(after.len(), |e| e + 1)
        };
        rest = &after[skip_to..];
    }
    out.push_str(rest);
    unescape(&out).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Texts of every element of one name, in order (headings, list items, summaries...).
pub fn texts(html: &str, name: &str) -> Vec<String> {
    tags(html, name).iter().map(|t| text(inner(html, t))).collect()
}

/// Links as (href, visible text), in order.
pub fn links(html: &str) -> Vec<(String, String)> {
    tags(html, "a").iter().map(|t| (t.attr("href").unwrap_or("").to_string(), text(inner(html, t)))).collect()
}

/// The href of the first link whose visible text is `label`.
pub fn href_of(html: &str, label: &str) -> Option<String> {
    links(html).into_iter().find(|(_, text)| text == label).map(|(href, _)| href)
}

/// `<title>` text.
pub fn title(html: &str) -> String {
    tags(html, "title").first().map(|t| text(inner(html, t))).unwrap_or_default()
}

/// `content` of `<meta name=...>` or `<meta property=...>`.
pub fn meta(html: &str, key: &str) -> Option<String> {
    tags(html, "meta")
        .into_iter()
        .find(|t| t.has("name", key) || t.has("property", key))
        .and_then(|t| t.attr("content").map(str::to_string))
}

/// `href` of `<link rel=...>`.
pub fn link_rel(html: &str, rel: &str) -> Option<String> {
    tags(html, "link")
        .into_iter()
        .find(|t| t.attr("rel").is_some_and(|r| r.split_whitespace().any(|r| r.eq_ignore_ascii_case(rel))))
        .and_then(|t| t.attr("href").map(str::to_string))
}

/// Decodes the character references our templates produce (named basics and numeric).
pub fn unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        let Some(semi) = after.find(';').filter(|&i| i <= 10) else {
            out.push('&');
            rest = &after[1..];
            continue;
        };
        let entity = &after[1..semi];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some('\u{a0}'),
            _ if entity.starts_with("#x") || entity.starts_with("#X") => {
                u32::from_str_radix(&entity[2..], 16).ok().and_then(char::from_u32)
            }
            _ if entity.starts_with('#') => entity[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &after[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Byte position of `needle` in `haystack`, with a helpful panic.
pub fn position(haystack: &str, needle: &str) -> usize {
    haystack.find(needle).unwrap_or_else(|| panic!("{needle:?} is on the page"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nested_elements_and_attributes() {
        let html = r#"<div id="a" class="x y"><div>in &amp; out</div><img src="/i.svg" alt=""></div><p>after</p>"#;
        let tag = find_tag(html, |t| t.has("id", "a")).unwrap();
        assert!(tag.has_class("y"));
        assert_eq!(text(inner(html, &tag)), "in & out");
        assert!(outer(html, &tag).ends_with("alt=\"\"></div>"));
        assert!(!outer(html, &tag).contains("after"));
        assert_eq!(tags(html, "img")[0].attr("src"), Some("/i.svg"));
        assert_eq!(unescape("it&#39;s &#x27;x&#x27; &lt;b&gt;"), "it's 'x' <b>");
    }
}
