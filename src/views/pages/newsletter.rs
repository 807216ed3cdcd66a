//! What the newsletter's signed links show: confirmed, the Unsubscribe button, unsubscribed,
//! or a link that is not valid.

use askama::Template;

use crate::views::layout::Layout;

/// A newsletter link's page as drawn (`templates/pages/newsletter.html`).
#[derive(Template)]
#[template(path = "pages/newsletter.html")]
pub struct NewsletterPage {
    pub layout: Layout,
    pub heading: &'static str,
    pub text: String,
    /// The form's action on the unsubscribe page (same link, POST).
    pub unsubscribe_action: Option<String>,
}

/// What a link that is not valid says.
pub const INVALID: &str = "This link is not valid. Please use the link from our latest email, or sign up again.";
