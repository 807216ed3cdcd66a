//! Reading pages in tests the way a browser does: `scraper` builds the document with html5ever
//! (character references decoded, implied tags added, `<script>` bodies kept apart) and CSS
//! selectors find the elements. Checks about the bytes the server sent stay on the raw body.

use scraper::selectable::Selectable;
use scraper::{Node, Selector};

pub use scraper::{ElementRef, Html};

/// Somewhere to look: a whole document or one element of it. Selectors match the descendants
/// of an element (as `querySelectorAll` does), every element of a document.
pub trait Scope<'a>: Selectable<'a> + Copy {
    /// The element whose content is read: the document's `<html>`, or the element itself.
    fn element(self) -> ElementRef<'a>;

    /// The elements looked at, in document order: all of a document's, an element's descendants.
    fn elements(self) -> impl Iterator<Item = ElementRef<'a>>;
}

impl<'a> Scope<'a> for &'a Html {
    fn element(self) -> ElementRef<'a> {
        self.root_element()
    }

    fn elements(self) -> impl Iterator<Item = ElementRef<'a>> {
        self.root_element().descendent_elements()
    }
}

impl<'a> Scope<'a> for ElementRef<'a> {
    fn element(self) -> ElementRef<'a> {
        self
    }

    fn elements(self) -> impl Iterator<Item = ElementRef<'a>> {
        self.descendent_elements().skip(1)
    }
}

/// The document a browser builds from `page`.
pub fn parse(page: &str) -> Html {
    Html::parse_document(page)
}

/// The selector `css`; panics on a malformed one (a mistake in the test, not in the page).
fn selector(css: &str) -> Selector {
    Selector::parse(css).unwrap_or_else(|e| panic!("{css:?} is a CSS selector: {e}"))
}

/// Every element of `scope` that matches `css`, in document order.
pub fn select<'a>(scope: impl Scope<'a>, css: &str) -> Vec<ElementRef<'a>> {
    scope.select(&selector(css)).collect()
}

/// The first element of `scope` that matches `css`.
pub fn first<'a>(scope: impl Scope<'a>, css: &str) -> Option<ElementRef<'a>> {
    scope.select(&selector(css)).next()
}

/// The element of `scope` whose `id` is `id`.
pub fn by_id<'a>(scope: impl Scope<'a>, id: &str) -> Option<ElementRef<'a>> {
    scope.elements().find(|e| e.value().id() == Some(id))
}

/// The element of `scope` labelled by the element with this id (`aria-labelledby`).
pub fn labelled<'a>(scope: impl Scope<'a>, label_id: &str) -> Option<ElementRef<'a>> {
    scope.elements().find(|e| e.attr("aria-labelledby") == Some(label_id))
}

/// The visible text of `scope`: its text nodes outside `<script>` and `<style>`, in order, each
/// set apart by a space (`<dt>Date</dt><dd>21 March</dd>` reads "Date 21 March"), whitespace
/// collapsed. Character references come decoded from the parser.
pub fn text<'a>(scope: impl Scope<'a>) -> String {
    let root = scope.element();
    let mut out = String::new();
    for node in root.descendants() {
        let Node::Text(text) = node.value() else { continue };
        let parent = node.parent().and_then(ElementRef::wrap).map(|p| p.value().name());
        if matches!(parent, Some("script" | "style")) {
            continue;
        }
        out.push(' ');
        out.push_str(text);
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text content of `element` exactly as parsed, nothing left out or collapsed: the body of
/// a `<script>`, the text of an XML element.
pub fn content(element: ElementRef<'_>) -> String {
    element.text().collect()
}

/// The visible text (see [`text`]) of every element of `scope` matching `css`, in order.
pub fn texts<'a>(scope: impl Scope<'a>, css: &str) -> Vec<String> {
    select(scope, css).into_iter().map(text).collect()
}

/// The links (`<a>`) of `scope` as (href, visible text), in order; no href reads "".
pub fn links<'a>(scope: impl Scope<'a>) -> Vec<(String, String)> {
    select(scope, "a").into_iter().map(|a| (a.attr("href").unwrap_or("").to_string(), text(a))).collect()
}

/// The href of the first link of `scope` whose visible text is `label`.
pub fn href_of<'a>(scope: impl Scope<'a>, label: &str) -> Option<String> {
    links(scope).into_iter().find(|(_, text)| text == label).map(|(href, _)| href)
}

/// The text of the document's `<title>`; "" without one.
pub fn title(document: &Html) -> String {
    first(document, "title").map(text).unwrap_or_default()
}

/// The `content` of the document's `<meta name=key>` or `<meta property=key>`.
pub fn meta(document: &Html, key: &str) -> Option<String> {
    select(document, "meta")
        .into_iter()
        .find(|m| m.attr("name") == Some(key) || m.attr("property") == Some(key))
        .and_then(|m| m.attr("content").map(str::to_string))
}

/// The `href` of the document's first `<link>` whose `rel` lists `rel` (in any case).
pub fn link_rel(document: &Html, rel: &str) -> Option<String> {
    select(document, "link")
        .into_iter()
        .find(|l| l.attr("rel").is_some_and(|r| r.split_whitespace().any(|r| r.eq_ignore_ascii_case(rel))))
        .and_then(|l| l.attr("href").map(str::to_string))
}

/// Where `text` comes in `scope`, to compare with other positions in the same scope: the
/// document-order index, among the text nodes of `scope`, of the first one that reads exactly
/// `text` (surrounding whitespace aside) and sits directly in an element matching `css`.
/// Panics when there is none.
pub fn position<'a>(scope: impl Scope<'a>, css: &str, text: &str) -> usize {
    let parent_matches = selector(css);
    scope
        .element()
        .descendants()
        .filter_map(|node| Some((node.value().as_text()?, node.parent().and_then(ElementRef::wrap)?)))
        .position(|(node_text, parent)| node_text.trim() == text && parent_matches.matches(&parent))
        .unwrap_or_else(|| panic!("{text:?} is on the page, in {css}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nested_elements_attributes_and_text() {
        let page = parse(
            r#"<div id="a" class="x y" title="&lt;b&gt;"><div>in &amp; out</div><img src="/i.svg" alt=""><h2>One</h2><p>it&#39;s <b>bold</b></p></div><p>after</p>"#,
        );
        let a = by_id(&page, "a").expect("#a");
        assert!(first(&page, "div.y#a").is_some() && first(&page, "div.z").is_none());
        assert_eq!(a.attr("title"), Some("<b>"), "attribute values are decoded");
        assert_eq!(text(a), "in & out One it's bold", "every text node set apart by a space");
        assert!(!text(a).contains("after"), "the element ends where it ends");
        assert_eq!(select(a, "img")[0].attr("src"), Some("/i.svg"));
        assert!(first(a, "div#a").is_none(), "selectors match descendants only");
        assert_eq!(texts(&page, "p"), ["it's bold", "after"]);
        assert!(position(&page, "h2", "One") < position(&page, "b", "bold"));
        assert!(position(&page, "b", "bold") < position(&page, "p", "after"));
    }

    #[test]
    fn reads_metadata_links_and_script_bodies() {
        let page = parse(
            r#"<!doctype html><html><head><title>T &amp; C</title><meta name="description" content="About &quot;us&quot;"><link rel="Icon preload" href="/i.svg"><script type="application/ld+json">{"a":"<b>&amp;"}</script></head><body><a href="/x">Go <i>there</i></a><a>none</a></body></html>"#,
        );
        assert_eq!(title(&page), "T & C");
        assert_eq!(meta(&page, "description").as_deref(), Some("About \"us\""));
        assert_eq!(link_rel(&page, "icon").as_deref(), Some("/i.svg"));
        let script = first(&page, "script").expect("script");
        assert_eq!(content(script), r#"{"a":"<b>&amp;"}"#, "a script body is not decoded");
        assert_eq!(text(&page), "T & C Go there none", "script bodies are not visible text");
        assert_eq!(links(&page), [("/x".to_string(), "Go there".to_string()), (String::new(), "none".to_string())]);
        assert_eq!(href_of(&page, "Go there").as_deref(), Some("/x"));
    }
}
