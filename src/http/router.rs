//! Every route of the site in one place (DESIGN.md sections 4 and 5): the pages of
//! `crate::handlers::page_table`, the seo files, the APIs and assets, under the middleware
//! stack, behind the cache-hit fast path.

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::response::Redirect;
use axum::routing::{get, post};
use tower_http::compression::CompressionLayer;
use tower_http::trace::TraceLayer;

use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutBody};

use super::body_limit::{self, BodyLimits};
use super::cache_hits::App;
use super::{cache_control, guard, security};
use crate::assets;
use crate::client_ip::{self, ClientIp};
use crate::handlers::api::{collections, contact, files, health, newsletter, payments, submission};
use crate::handlers::page_table::PAGES;
use crate::handlers::pages::{errors, newsletter as newsletter_links, test_gateway};
use crate::handlers::seo;
use crate::handlers::state::AppState;
use crate::payments::config::TEST_GATEWAY_PATH;

/// The whole application: the router below, behind the page cache's hits
/// (src/cache_hits.rs). Tests drive it with `oneshot`; `serve` binds it to a socket.
pub fn app(state: AppState) -> App {
    let config = state.config.clone();
    let payment_config = state.payments.clone();
    let trusted_proxies = config.trusted_proxies.clone();
    let mut pages = PAGES.iter().fold(Router::new(), |router, page| router.route(page.path, (page.handler)()));
    pages = pages
        .route("/sitemap.xml", get(seo::sitemap))
        .route("/robots.txt", get(seo::robots))
        .route("/calendar.ics", get(seo::calendar))
        // The newsletter's signed links (double opt-in, RFC 8058 one-click unsubscribe).
        .route(newsletter_links::CONFIRM_PATH, get(newsletter_links::confirm))
        .route(
            newsletter_links::UNSUBSCRIBE_PATH,
            get(newsletter_links::unsubscribe_page).post(newsletter_links::unsubscribe),
        )
        // Browsers ask for it on their own (e.g. when an image is opened by itself).
        .route("/favicon.ico", get(|| async { Redirect::permanent("/static/img/favicon.svg") }));
    // The built-in TEST gateway (DESIGN.md section 6) exists only in `PAYMENTS_MODE=test`; in
    // any other mode `/test-gateway` is the site's 404.
    if payment_config.is_test() {
        pages = pages.route(
            TEST_GATEWAY_PATH,
            get(test_gateway::explain)
                .post(test_gateway::gateway)
                .layer(DefaultBodyLimit::max(test_gateway::BODY_LIMIT_BYTES)),
        );
    }
    let pages = pages
        .fallback(errors::not_found)
        .layer(middleware::from_fn_with_state(state.clone(), errors::render_page_errors));

    let api = Router::new()
        .route("/health", get(health::health))
        .route("/collections/{name}/records", get(collections::records))
        .route("/files/{collection_id}/{id}/{filename}", get(files::file))
        // The visitor forms (DESIGN.md section 5). The paper upload caps its body itself, per
        // request, from UPLOAD_MAX_BYTES (see `submission::upload`).
        .route("/contact", post(contact::contact))
        .route("/newsletter", post(newsletter::newsletter))
        .route("/paper-submission", post(submission::submit))
        // Payments (DESIGN.md section 6). The handlers read at most BODY_LIMIT_BYTES themselves
        // (to answer 413 in JSON); the layer keeps axum's own extractors from buffering more.
        .route("/ccavenue-initiate", post(payments::initiate).layer(DefaultBodyLimit::max(payments::BODY_LIMIT_BYTES)))
        .route("/ccavenue-handle", post(payments::handle).layer(DefaultBodyLimit::max(payments::BODY_LIMIT_BYTES)))
        .fallback(api_not_found);

    // The payment form posts to the current mode's gateway origin (none when payments are off).
    let form_action = payment_config.form_action_origin();
    let csp = security::content_security_policy(form_action.as_deref());
    let router = Router::new()
        .nest("/api", api)
        .route("/assets/{*path}", get(assets::island_file))
        .route("/static/{*path}", get(assets::static_file))
        .merge(pages)
        // Every POST, present and future: same-origin check and rate limit (`super::guard`).
        .layer(middleware::from_fn_with_state(guard::Guard::new(&state.config), guard::guard))
        // Every route: a declared Content-Length above its limit is 413 before any read.
        .layer(middleware::from_fn_with_state(
            BodyLimits::from_config(&state.config),
            body_limit::declared_length_guard,
        ));
    // No body byte for BODY_TIMEOUT_SECS ends the read with an error the readers answer as
    // 408 (`crate::handlers::extract::is_body_timeout`); the timer restarts with every chunk.
    let body_timeout = std::time::Duration::from_secs(state.config.body_timeout_secs.max(1));
    let mut router = router
        .layer(tower::ServiceBuilder::new().layer(RequestBodyTimeoutLayer::new(body_timeout)).map_request(
            |request: axum::http::Request<TimeoutBody<axum::body::Body>>| request.map(axum::body::Body::new),
        ))
        .with_state(state.clone());
    let security_headers = security::response_headers(&csp, &config.public_url);
    router = router.layer(security::layer(std::sync::Arc::new(security_headers.clone())));
    // Pages and files come compressed from `crate::cache`; the layer compresses only what is
    // built per request (APIs, payment results, error pages).
    let compression = CompressionLayer::new().br(true).gzip(true).compress_when({
        use tower_http::compression::Predicate;
        tower_http::compression::DefaultPredicate::new().and(crate::cache::prepared::NotPrepared)
    });
    let router = router
        .layer(middleware::from_fn(cache_control::set))
        .layer(compression)
        .layer(TraceLayer::new_for_http().make_span_with(request_span))
        // Outermost: the client address is known before the log span opens (src/client_ip.rs).
        .layer(middleware::from_fn_with_state(trusted_proxies, client_ip::resolve));
    // A fresh page from the cache needs none of the above.
    App::new(state, security_headers, router)
}

/// The log span of a request: method, path and the client address (`TRUSTED_PROXIES`-aware).
fn request_span(request: &axum::http::Request<axum::body::Body>) -> tracing::Span {
    let client = ClientIp::of(request.extensions());
    tracing::info_span!("request", method = %request.method(), uri = %request.uri(), %client)
}

async fn api_not_found() -> crate::error::ApiError {
    crate::error::AppError::NotFound("Not found".into()).into()
}
