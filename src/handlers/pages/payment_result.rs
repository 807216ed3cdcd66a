//! `/Success` and `/Failed`: where the payment gateway's answer lands (spec section 2).
//! The order details are added by the payments area once orders exist.

use askama::Template;
use axum::extract::State;
use axum::response::Response;

use crate::error::AppError;
use crate::handlers::page;
use crate::layout::{Layout, Meta};
use crate::state::AppState;

#[derive(Template)]
#[template(path = "pages/payment_result.html")]
pub struct PaymentResultPage {
    pub layout: Layout,
    pub success: bool,
}

pub async fn success(State(state): State<AppState>) -> Result<Response, AppError> {
    let layout = Layout::load(&state, |site| {
        Meta::new(format!("Payment successful | {}", site.short_name), "Your registration payment was received.", "/Success")
            .noindex()
    })
    .await?;
    page(&PaymentResultPage { layout, success: true })
}

pub async fn failed(State(state): State<AppState>) -> Result<Response, AppError> {
    let layout = Layout::load(&state, |site| {
        Meta::new(format!("Payment failed | {}", site.short_name), "Your payment did not go through.", "/Failed")
            .noindex()
    })
    .await?;
    page(&PaymentResultPage { layout, success: false })
}
