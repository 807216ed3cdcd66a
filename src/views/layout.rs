//! What every page shares: site settings, metadata, island tags, navigation and footer.

use std::sync::Arc;

use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::cache::assets::IslandTags;
use crate::config::Config;
use crate::content::snapshot::Snapshot;

pub use crate::content::block::{Block, BlockError};
use crate::error::AppError;
use crate::repo::content::{self, GalleryImage, Material, Policy, PolicySection, Site};

/// What a page is a pure function of: the content snapshot, the clock's "now", the settings
/// and the island tags. No database: a page renders the same from the same inputs.
#[derive(Clone, Copy)]
pub struct PageCtx<'a> {
    pub content: &'a Snapshot,
    pub now: OffsetDateTime,
    pub config: &'a Config,
    pub islands: &'a Arc<IslandTags>,
    /// Whether payments are switched off (`PAYMENTS_MODE=off`): every payment form gives way
    /// to the notice that payments are closed.
    pub payments_off: bool,
}

/// Per-page metadata: `<title>`, description, canonical and social tags (DESIGN.md section 4).
#[derive(Debug, Clone)]
pub struct Meta {
    pub title: String,
    pub description: String,
    /// Site path of the page, e.g. `/pricing`; the canonical URL is `PUBLIC_URL` + this.
    pub path: String,
    /// `website` for most pages, `article` for policy and highlight pages.
    pub og_type: &'static str,
    /// `index, follow` except for pages search engines should skip (payment results, 404).
    pub robots: &'static str,
}

impl Meta {
    pub fn new(title: impl Into<String>, description: impl Into<String>, path: impl Into<String>) -> Self {
        Meta {
            title: title.into(),
            description: description.into(),
            path: path.into(),
            og_type: "website",
            robots: "index, follow",
        }
    }

    pub fn noindex(mut self) -> Self {
        self.robots = "noindex, follow";
        self
    }

    pub fn article(mut self) -> Self {
        self.og_type = "article";
        self
    }
}

/// A link of the bottom navigation dock (spec section 2: All pages).
pub struct NavLink {
    pub label: &'static str,
    pub href: &'static str,
}

/// The dock's seven entries, in the spec's order.
pub const DOCK: [NavLink; 7] = [
    NavLink { label: "Home", href: "/" },
    NavLink { label: "Committee", href: "/committee" },
    NavLink { label: "Gallery", href: "/gallery" },
    NavLink { label: "AboutUs", href: "/AboutUs" },
    NavLink { label: "Schedule", href: "/schedule" },
    NavLink { label: "Registration", href: "/pricing" },
    NavLink { label: "Submission", href: "/submission" },
];

/// The footer's quick links (spec section 2: Footer, links seen).
pub const QUICK_LINKS: [NavLink; 6] = [
    NavLink { label: "Register Now", href: "/pricing" },
    NavLink { label: "Submit your Paper", href: "/submission" },
    NavLink { label: "Nominate Now", href: "/awards" },
    NavLink { label: "Become a Sponsor", href: "/sponsorship" },
    NavLink { label: "View Venue", href: "/venue" },
    NavLink { label: "Event Calendar", href: "/schedule" },
];

/// The mobile menu's entries after the dock's (templates/partials/topbar.html).
pub const MENU_EXTRA: [NavLink; 4] = [
    NavLink { label: "About Conference", href: "/AboutConference" },
    NavLink { label: "Awards", href: "/awards" },
    NavLink { label: "Sponsorship", href: "/sponsorship" },
    NavLink { label: "Venue", href: "/venue" },
];

/// Everything `templates/base.html` reads.
pub struct Layout {
    pub site: Site,
    pub meta: Meta,
    pub canonical: String,
    pub og_image: String,
    pub islands: Arc<IslandTags>,
    pub policies: Vec<Policy>,
    pub year: i32,
    /// `PAYMENTS_MODE` is off: Register and Pay explain that online payment is not open yet
    /// (`templates/partials/payments_closed.html`).
    pub payments_closed: bool,
}

impl Layout {
    /// `og:image:type` of the preview image, from its file extension. Facebook, LinkedIn, X
    /// and messaging apps render PNG and JPEG previews, not SVG (issue 13).
    pub fn og_image_type(&self) -> &'static str {
        let extension = self.og_image.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
        match extension.as_str() {
            "png" => "image/png",
            "jpg" | "jpeg" => "image/jpeg",
            "webp" => "image/webp",
            "gif" => "image/gif",
            _ => "image/svg+xml",
        }
    }

    /// Alt text of the preview image (`og:image:alt`, `twitter:image:alt`): what it shows.
    pub fn og_image_alt(&self) -> String {
        let site = &self.site;
        format!("{}: {}, {}, {} and online", site.short_name, site.name, site.city, site.country)
    }

    /// The shared content of a page. Site settings are required (no page makes sense
    /// without them); the footer's policy list degrades to empty.
    /// `meta` builds the page's metadata from the site settings (titles name the conference).
    pub fn new(page: &PageCtx<'_>, meta: impl FnOnce(&Site) -> Meta) -> Result<Layout, AppError> {
        let mut site = page.content.site()?.clone();
        // The paper due date in force (DESIGN.md section 20): an organiser may have moved the
        // seed's; every page (the notice, the submission page) says the one that counts.
        let calendar = calendar_of(page.content);
        if let Some(when) = calendar.and_then(|c| c.entry(crate::calendar::deadline::Key::PaperDueDate).when.clone()) {
            site.paper_due_date = when.local.date().to_string();
        }
        let meta = meta(&site);
        let policies = page.content.policies.clone().unwrap_or_default();
        Ok(Layout {
            canonical: page.config.absolute(&meta.path),
            og_image: page.config.absolute(&site.og_image),
            site,
            meta,
            islands: page.islands.clone(),
            policies,
            year: page.now.year(),
            payments_closed: page.payments_off,
        })
    }

    /// Whether `href` is the current page (for `aria-current`).
    pub fn is_current(&self, href: &str) -> bool {
        self.meta.path.eq_ignore_ascii_case(href)
    }

    pub fn dock(&self) -> &'static [NavLink] {
        &DOCK
    }

    pub fn quick_links(&self) -> &'static [NavLink] {
        &QUICK_LINKS
    }

    /// The mobile menu: the dock's entries, then [`MENU_EXTRA`].
    pub fn menu_links(&self) -> Vec<&'static NavLink> {
        DOCK.iter().chain(MENU_EXTRA.iter()).collect()
    }

    /// Props of the `MobileMenu` island: the menu's links, the current page marked.
    pub fn mobile_menu_props(&self) -> Value {
        let links: Vec<Value> = self
            .menu_links()
            .into_iter()
            .map(|l| json!({ "label": l.label, "href": l.href, "current": self.is_current(l.href) }))
            .collect();
        json!({ "links": links })
    }

    /// `tel:` href from the display phone number.
    pub fn tel_href(&self) -> String {
        let digits: String = self.site.contact_phone.chars().filter(|c| c.is_ascii_digit() || *c == '+').collect();
        format!("tel:{digits}")
    }

    /// The dates as shown everywhere, e.g. "21-23 March 2025".
    pub fn date_range(&self) -> String {
        crate::clock::dates::range_label(&self.site.start_date, &self.site.end_date)
    }

    /// Props of the `NoticePopup` island on every page (spec section 2: Notice popup):
    /// endorsement, dates, venue, paper due date, website, contact and the letter image.
    pub fn notice_props(&self) -> Value {
        let site = &self.site;
        json!({
            "name": site.short_name,
            "endorsement": site.endorsement,
            "dates": self.date_range(),
            "venue": format!("{}, {}, {}", site.venue_name, site.city, site.country),
            "paperDue": crate::clock::dates::long(&site.paper_due_date),
            "website": site.website,
            "email": site.contact_email,
            "phone": site.contact_phone,
            "telHref": self.tel_href(),
            "letterImage": site.letter_image,
            "registerHref": "/pricing",
        })
    }

    /// Props of the footer's `PolicyPanel` island: names, links and summaries only, so every
    /// page stays light; the panel fetches a policy's sections from its page when opened.
    pub fn policy_panel_props(&self) -> Value {
        let policies: Vec<Value> = self
            .policies
            .iter()
            .map(|p| json!({ "slug": p.slug, "name": p.name, "link": p.link, "summary": p.summary }))
            .collect();
        json!({ "policies": policies })
    }
}

/// Props of the `Materials` island (spec section 2: About Conference block): one button per
/// material, title trimmed, downloading `/api/files/...` under the record's file name.
pub fn materials_props(materials: &[Material]) -> Value {
    let items: Vec<Value> = materials
        .iter()
        .map(|m| {
            json!({
                "id": m.id,
                "title": m.title.trim(),
                "fileName": m.link,
                "href": format!("/api/files/download_buttons/{}/{}", m.id, urlencoding_path(&m.link)),
            })
        })
        .collect();
    json!({ "materials": items })
}

/// Props of the `PolicyAccordion` island: each section's anchor id, heading and paragraphs.
pub fn policy_sections_props(sections: &[PolicySection]) -> Value {
    let items: Vec<Value> = sections
        .iter()
        .map(|s| json!({ "id": s.id, "heading": s.heading, "paragraphs": content::paragraphs(&s.body) }))
        .collect();
    json!({ "sections": items })
}

/// Props of the `GalleryViewer` island: every image with its title and pixel size.
pub fn gallery_props(images: &[GalleryImage]) -> Value {
    json!({ "images": images })
}

/// A file name as one URL path segment, percent-encoded like askama's `urlencode` filter, so
/// the island's href is the fallback link's href.
fn urlencoding_path(name: &str) -> String {
    let Ok(encoded) = askama::filters::urlencode(name);
    encoded.to_string()
}

/// The calendar of a content snapshot (what pages render from: DESIGN.md section 20);
/// `None` when its settings could not be read.
pub fn calendar_of(snapshot: &crate::content::Snapshot) -> Option<crate::calendar::settings::Calendar> {
    let stored = snapshot.calendar.as_ref().ok()?;
    Some(crate::calendar::settings::Calendar::build(stored, &snapshot.zone))
}
