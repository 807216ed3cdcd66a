//! What the built-in TEST gateway shows (DESIGN.md section 6): the order read from
//! `encRequest`, and Approve, Decline and Cancel, each a form posting a real encrypted answer.

use askama::Template;

use crate::views::layout::Layout;

/// One of the three buttons: a form posting `enc_resp` to `url`.
pub struct Choice {
    /// The button's text: Approve, Decline or Cancel.
    pub label: &'static str,
    /// `redirect_url` (Approve, Decline) or `cancel_url` (Cancel) of the request.
    pub url: String,
    /// The encrypted answer.
    pub enc_resp: String,
    /// A modifier of the button's class.
    pub style: &'static str,
}

/// The order as the test gateway read it from `encRequest`.
pub struct GatewayOrder {
    pub order_id: String,
    /// `merchant_param1`: the plan, package or `custom-payment`.
    pub item: String,
    pub amount: String,
    pub currency: String,
    pub billing_name: String,
    pub choices: Vec<Choice>,
}

/// The test gateway as drawn (`templates/pages/test_gateway.html`).
#[derive(Template)]
#[template(path = "pages/test_gateway.html")]
pub struct TestGatewayPage {
    pub layout: Layout,
    /// `None` on GET: the page explains that it expects a POST.
    pub order: Option<GatewayOrder>,
}
