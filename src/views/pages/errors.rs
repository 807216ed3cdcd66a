//! What the not-found page and the full-page errors show (spec section 2, route `*`).

use askama::Template;

use crate::views::layout::Layout;

/// The site's error page as drawn (`templates/pages/not_found.html`): a 404, or another
/// status's page error in full.
#[derive(Template)]
#[template(path = "pages/not_found.html")]
pub struct NotFoundPage {
    pub layout: Layout,
    /// The spec's heading, or 'Highlight not found' for an unknown highlight slug.
    pub heading: String,
    pub status: u16,
}
