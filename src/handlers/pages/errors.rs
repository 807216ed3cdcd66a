//! The not-found page (spec section 2, route `*`) and the full-page rendering of page errors.

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{AppError, PageErrorMarker};
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::views::layout::{Layout, Meta};
use crate::views::pages::errors::NotFoundPage;

/// Fallback for every unknown path: 404 with the spec's not-found page.
pub async fn not_found(State(state): State<AppState>, request: Request) -> Response {
    full_page(&state, StatusCode::NOT_FOUND, request.uri().path(), "Oops! Page Not Found".into()).await
}

/// Replaces the plain body of a page error (see [`PageErrorMarker`]) with the full
/// site page, so a 404 or 500 keeps the navigation and footer.
pub async fn render_page_errors(State(state): State<AppState>, request: Request, next: Next) -> Response {
    // A `Uri` clone shares its bytes: no allocation on the (cached) path where nothing failed.
    let uri = request.uri().clone();
    let response = next.run(request).await;
    let Some(marker) = response.extensions().get::<PageErrorMarker>().cloned() else {
        return response;
    };
    let heading = if response.status() == StatusCode::NOT_FOUND && marker.message.is_empty() {
        "Oops! Page Not Found".to_string()
    } else {
        marker.message
    };
    full_page(&state, response.status(), uri.path(), heading).await
}

async fn full_page(state: &AppState, status: StatusCode, path: &str, heading: String) -> Response {
    let title = heading.clone();
    let layout = Layout::new(&state.page_ctx(&*state.content.snapshot().await), |site| {
        Meta::new(
            format!("{title} | {}", site.short_name),
            "The page you're looking for doesn't exist or has been moved.",
            path.to_owned(),
        )
        .noindex()
    });
    match layout {
        Ok(layout) => render(status, &NotFoundPage { layout, heading, status: status.as_u16() })
            .unwrap_or_else(|err| (status, err.public_message()).into_response()),
        // Without site settings only a bare page is possible; keep the status.
        Err(err) => {
            let AppError::Internal { .. } = &err else { return (status, heading).into_response() };
            tracing::error!(error = %err, "error page without layout");
            (status, heading).into_response()
        }
    }
}
