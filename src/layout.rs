//! What every page shares: site settings, metadata, island tags, navigation and footer.

use std::sync::Arc;

use time::OffsetDateTime;

use crate::assets::IslandTags;
use crate::error::AppError;
use crate::repo::content::{self, Policy, Site};
use crate::state::AppState;

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

/// Everything `templates/base.html` reads.
pub struct Layout {
    pub site: Site,
    pub meta: Meta,
    pub canonical: String,
    pub og_image: String,
    pub islands: Arc<IslandTags>,
    pub policies: Vec<Policy>,
    pub year: i32,
}

impl Layout {
    /// Loads the shared content. Site settings are required (no page makes sense without
    /// them); the footer's policy list degrades to empty.
    /// `meta` builds the page's metadata from the site settings (titles name the conference).
    pub async fn load(state: &AppState, meta: impl FnOnce(&Site) -> Meta) -> Result<Layout, AppError> {
        let site = content::site(&state.pool).await?;
        let meta = meta(&site);
        let policies = content::policies(&state.pool).await.unwrap_or_else(|err| {
            tracing::warn!(error = %err, "footer policies unavailable");
            Vec::new()
        });
        Ok(Layout {
            canonical: state.config.absolute(&meta.path),
            og_image: state.config.absolute(&site.og_image),
            site,
            meta,
            islands: state.islands.clone(),
            policies,
            year: OffsetDateTime::now_utc().year(),
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

    /// `tel:` href from the display phone number.
    pub fn tel_href(&self) -> String {
        let digits: String = self.site.contact_phone.chars().filter(|c| c.is_ascii_digit() || *c == '+').collect();
        format!("tel:{digits}")
    }

    /// The dates as shown everywhere, e.g. "21-23 March 2025".
    pub fn date_range(&self) -> String {
        crate::dates::range_label(&self.site.start_date, &self.site.end_date)
    }
}

/// A block whose query may fail: the page still renders with the spec's error text there
/// (DESIGN.md section 4).
pub type Block<T> = Result<T, BlockError>;

/// A failed block; the error is logged when the block is loaded.
#[derive(Debug, Clone, Copy)]
pub struct BlockError;

/// Turns a query result into a [`Block`], logging the failure with the block's name.
pub fn block<T>(name: &'static str, result: Result<T, sqlx::Error>) -> Block<T> {
    result.map_err(|err| {
        tracing::error!(block = name, error = %err, "content block failed to load");
        BlockError
    })
}
