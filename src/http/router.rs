//! Every route of the site in one place (DESIGN.md sections 4 and 5): the pages of
//! `crate::handlers::page_table`, the seo files, the APIs and assets, under the middleware
//! stack, behind the cache-hit fast path.

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutBody};
use tower_http::trace::TraceLayer;
use tracing::Span;

use super::body_limit::{self, BodyLimits};
use super::cache_hits::App;
use super::response_headers::{self, ResponseHeaders};
use super::{body_guard, compressible, guard, panics, security, trace};
use crate::base::client_ip::{self, ClientIp};
use crate::cache::assets;
use crate::error::{ApiError, AppError};
use crate::handlers::api::{collections, contact, files, health, newsletter, payments, submission};
use crate::handlers::exports;
use crate::handlers::organiser::submission as one_submission;
use crate::handlers::organiser::{dashboard, decide, messages, orders, records, session, sign_in, submissions};
// Review assignments (issue 32 item 4), not the `crate::review::assign` domain they run.
use crate::handlers::organiser::assignments;
// The organisers' programme page (not the `crate::programme` domain it drives).
use crate::handlers::organiser::programme;
use crate::handlers::organiser::reviewers;
use crate::handlers::organiser::streams;
use crate::handlers::organiser::{review_progress, reviews_csv, settings};
// The registration desk (issue 33 item 3), not the `crate::attendance::check_in` rules.
use crate::handlers::organiser::check_in;
use crate::handlers::page_table::PAGES;
use crate::handlers::pages::attendee;
use crate::handlers::pages::camera_ready;
// A certificate's public verify page and PDF (issue 33 item 5).
use crate::handlers::pages::certificate;
// Certificates in the back office (not the `crate::attendance::certificates` domain).
use crate::handlers::organiser::certificates;
use crate::handlers::pages::{errors, newsletter as newsletter_links, submission_status, test_gateway};
use crate::handlers::review;
use crate::handlers::seo;
use crate::handlers::state::AppState;
use crate::payments::config::TEST_GATEWAY_PATH;

/// The whole application: the router below, behind the page cache's hits
/// (`super::cache_hits`). Tests drive it with `oneshot`; `serve` binds it to a socket.
pub fn app(state: AppState) -> App {
    app_with_routes(state, Router::new(), Router::new())
}

/// [`app`] with `pages` and `api` (mounted under `/api`) merged into its routers, under the
/// same stack. For tests that need a route the site does not have (a handler that panics);
/// [`app`] adds none.
pub fn app_with_routes(state: AppState, extra_pages: Router<AppState>, extra_api: Router<AppState>) -> App {
    let config = state.config.clone();
    let payment_config = state.payments.clone();
    let trusted_proxies = config.trusted_proxies.clone();
    let mut pages = PAGES.iter().fold(Router::new(), |router, page| router.route(page.path, (page.handler)()));
    pages = pages
        .route("/sitemap.xml", get(seo::sitemap))
        .route("/robots.txt", get(seo::robots))
        .route("/calendar.ics", get(seo::calendar))
        // The programme for attendee apps (issue 31 item 5): the frab / c3voc schedule.
        .route(exports::SCHEDULE_XML, get(exports::schedule_xml))
        .route(exports::SCHEDULE_JSON, get(exports::schedule_json))
        // The talks a visitor starred, as a calendar (issue 31 item 5).
        .route("/schedule/agenda.ics", get(crate::handlers::calendars::agenda_ics))
        // The newsletter's signed links (double opt-in, RFC 8058 one-click unsubscribe).
        .route(newsletter_links::CONFIRM_PATH, get(newsletter_links::confirm))
        .route(
            newsletter_links::UNSUBSCRIBE_PATH,
            get(newsletter_links::unsubscribe_page).post(newsletter_links::unsubscribe),
        )
        // The author's private status link (issue 21; DESIGN.md section 12 "Decisions").
        .route(submission_status::PATH, get(submission_status::show))
        .route(submission_status::WITHDRAW_PATH, post(submission_status::withdraw))
        .route(submission_status::PROGRAMME_PATH, post(submission_status::set_public))
        // The camera-ready step of an accepted paper (issue 44 item 1; DESIGN.md section 18).
        .route(camera_ready::PATH, get(camera_ready::show))
        .route(
            camera_ready::PDF_PATH,
            post(camera_ready::pdf).layer(DefaultBodyLimit::max(camera_ready::PDF_BODY_LIMIT)),
        )
        .route(camera_ready::DETAILS_PATH, post(camera_ready::details))
        .route(camera_ready::LICENCE_PATH, post(camera_ready::licence))
        // The attendee's private page, "send my link again" and the ticket's QR address (issue
        // 33; DESIGN.md section 16).
        .route(attendee::PATH, get(attendee::show).post(attendee::change_name))
        .route(attendee::RESEND_PATH, get(attendee::resend_form).post(attendee::resend))
        .route(attendee::CHECK_IN_PATH, get(attendee::check_in))
        // A certificate's verify page and its PDF (`<code>.pdf`), public and noindex (issue 33).
        .route(certificate::PATH, get(certificate::show))
        // Its documents as PDFs, behind the same token (issue 33 items 1 and 7).
        .route(attendee::TICKET_PDF_PATH, get(attendee::ticket_pdf))
        .route(attendee::RECEIPT_PDF_PATH, get(attendee::receipt_pdf))
        .route(attendee::CREDIT_NOTE_PDF_PATH, get(attendee::credit_note_pdf))
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
    // A panic in a page handler is a 500 with the site's error page (the marker the panic
    // answer carries is rendered by `render_page_errors`, which sits outside it).
    // The organiser area (DESIGN.md section 12): never indexed; its own guards are in
    // `handlers::organiser::session` (who) and `super::guard` (same-origin POSTs).
    let organiser_area = Router::new()
        .route(session::HOME, get(dashboard::home))
        .route("/organiser/sign-in", post(sign_in::request_link))
        .route("/organiser/sign-in/{token}", get(sign_in::confirm_page).post(sign_in::sign_in))
        .route("/organiser/sign-out", post(sign_in::sign_out))
        .route("/organiser/sign-out-everywhere", post(sign_in::sign_out_everywhere))
        // The back office (issue 20 item 4): lists, their CSV, detail pages, the paper.
        .route(submissions::PATH, get(submissions::list))
        .route("/organiser/submissions.csv", get(submissions::csv))
        .route("/organiser/submissions/{reference}", get(one_submission::detail))
        .route("/organiser/submissions/{reference}/paper", get(one_submission::paper))
        // Decisions (issue 21): stage one or a reviewed selection, preview and apply.
        .route("/organiser/submissions/{reference}/decision", post(decide::decide_one))
        .route(decide::REVIEW, post(decide::review))
        .route(decide::CONFIRM, post(decide::confirm))
        .route(decide::PREVIEW, get(decide::preview))
        .route(decide::APPLY, post(decide::apply))
        // Where an apply and a refused decision form land after their 303 (issue 30 item 6).
        .route(decide::APPLIED, get(decide::applied))
        .route(decide::CONFLICT, get(decide::conflict))
        .route(messages::MESSAGES, get(messages::message_list))
        .route("/organiser/messages.csv", get(messages::message_csv))
        .route("/organiser/messages/{id}", get(messages::message_detail))
        .route("/organiser/messages/{id}/answered", post(messages::message_answered))
        .route(orders::ORDERS, get(orders::order_list))
        .route("/organiser/orders.csv", get(orders::order_csv))
        .route("/organiser/orders/{order_id}", get(orders::order_detail))
        .route("/organiser/orders/{order_id}/note", post(orders::order_note))
        .route("/organiser/orders/{order_id}/refund", post(orders::order_refund))
        .route(records::SUBSCRIBERS, get(records::subscriber_list))
        .route("/organiser/subscribers.csv", get(records::subscriber_csv))
        .route(records::OUTBOX, get(records::outbox_list))
        .route("/organiser/outbox.csv", get(records::outbox_csv))
        // The programme (issue 31 items 2 and 3): placing accepted papers, publishing versions.
        .route(programme::PATH, get(programme::show))
        .route(programme::PLACE, post(programme::place))
        .route(programme::MOVE, post(programme::move_talk))
        .route(programme::REMOVE, post(programme::remove))
        .route(programme::LOCK, post(programme::lock))
        .route(programme::PUBLISH, post(programme::publish_version))
        .route(programme::PAPER, get(programme::paper).post(programme::edit_paper))
        // Stream links of online and hybrid sessions (issue 33 item 6).
        .route(streams::PATH, get(streams::show))
        .route(streams::SESSION, post(streams::set))
        // Certificates (issue 33 item 5): release, revoke, reissue.
        .route(certificates::PATH, get(certificates::show))
        .route(certificates::RELEASE, post(certificates::release))
        .route(certificates::REVOKE, get(certificates::confirm_revoke).post(certificates::revoke))
        .route(certificates::REISSUE, post(certificates::reissue))
        // Deciding from the reviews and their records (issue 32 items 7 to 9).
        .route(review_progress::PATH, get(review_progress::show))
        .route(review_progress::REMIND, post(review_progress::remind))
        .route(reviews_csv::PATH, get(reviews_csv::csv))
        // Review assignments (issue 32 items 3 and 4): automatic and by hand, staged, released.
        .route(assignments::PATH, get(assignments::overview))
        .route(assignments::AUTOMATIC, post(assignments::automatic))
        .route(assignments::STAGED, get(assignments::staged))
        .route(assignments::RELEASE, post(assignments::release))
        .route(assignments::DISCARD, post(assignments::discard))
        .route(assignments::PAPER, get(assignments::paper))
        .route(assignments::ASSIGN, post(assignments::assign_one))
        .route(assignments::UNASSIGN, post(assignments::unassign))
        .route(assignments::CONFLICT, post(assignments::declare_conflict))
        // The check-in desk (issue 33 item 3): organisers and desk staff (`CHECKIN_EMAIL`).
        .route(check_in::PATH, get(check_in::show).post(check_in::check))
        .route(check_in::CSV, get(check_in::csv))
        .route(check_in::SIGN_IN, post(check_in::request_link))
        .route(check_in::SIGN_IN_LINK, get(check_in::confirm_page).post(check_in::sign_in))
        .route(check_in::SIGN_OUT, post(check_in::sign_out))
        .route(records::AUDIT, get(records::audit_list))
        // The conference calendar (issue 42 item 1): the deadlines, changed by organisers.
        .route(settings::PATH, get(settings::show).post(settings::save))
        .route("/organiser/audit.csv", get(records::audit_csv))
        // The reviewers' area (issue 32, DESIGN.md section 15): the same sign-in, its own role.
        .route(review::session::REVIEWER_HOME, get(review::home::home))
        .route("/review/sign-in", post(review::home::request_link))
        .route("/review/sign-in/{token}", get(review::home::confirm_page).post(review::home::sign_in))
        .route("/review/sign-out", post(review::home::sign_out))
        // Reviewers (issue 32 item 1): organisers invite and remove them; the invitation's link.
        .route("/organiser/reviewers", get(reviewers::list))
        .route("/organiser/reviewers/invite", post(reviewers::invite))
        .route("/organiser/reviewers/import", post(reviewers::import))
        .route("/organiser/reviewers/{id}/resend", post(reviewers::resend))
        .route("/organiser/reviewers/{id}/remove", post(reviewers::remove))
        .route("/review/invitation/{token}", get(review::invitation::show).post(review::invitation::answer))
        // Reviewing (issue 32 item 6): a paper by its review code, its file, the review form,
        // the discussion and "I have a conflict".
        .route(review::papers::PAPER, get(review::papers::paper))
        .route(review::papers::PAPER_FILE, get(review::papers::paper_file))
        .route(review::papers::REVIEW, post(review::papers::save_review))
        .route(review::papers::COMMENTS, post(review::papers::comment))
        .route(review::papers::CONFLICT, post(review::papers::conflict))
        .layer(SetResponseHeaderLayer::overriding(
            HeaderName::from_static("x-robots-tag"),
            HeaderValue::from_static("noindex"),
        ));
    let pages = pages
        .merge(organiser_area)
        .merge(extra_pages)
        .fallback(errors::not_found)
        .layer(CatchPanicLayer::custom(|panic| page_panic(panic).into_response()))
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
        .merge(extra_api)
        .fallback(api_not_found)
        // A panic in an API handler is a 500 with the JSON error body.
        .layer(CatchPanicLayer::custom(|panic| ApiError(page_panic(panic)).into_response()));

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
    let router = router
        .layer(tower::ServiceBuilder::new().layer(RequestBodyTimeoutLayer::new(body_timeout)).map_request(
            |request: axum::http::Request<TimeoutBody<axum::body::Body>>| request.map(axum::body::Body::new),
        ))
        .with_state(state.clone());
    let response_headers = ResponseHeaders::new(security::response_headers(&csp, config.is_https()));
    // Pages and files come compressed from `crate::cache`; the layer compresses only what is
    // built per request (APIs, payment results, error pages).
    // Text only (`super::compressible`): papers and other stored files go out as they are.
    let compression = CompressionLayer::new().br(true).gzip(true).compress_when({
        use tower_http::compression::Predicate;
        tower_http::compression::predicate::SizeAbove::new(32)
            .and(compressible::TextLike)
            .and(crate::cache::prepared::NotPrepared)
    });
    let router = router
        // Every body ends once and a panic in it is logged and counted (`super::body_guard`);
        // inside the compression layer, whose encoders poll their source again after its end.
        .layer(tower::ServiceBuilder::new().map_response(body_guard::guard))
        // Security headers and the `Cache-Control` policy, composed once (cache hits too).
        .layer(middleware::from_fn_with_state(Arc::new(response_headers.clone()), response_headers::layer))
        .layer(compression)
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &Request<Body>| {
                    trace::request_span(request.method(), request.uri(), ClientIp::of(request.extensions()))
                })
                .on_request(|_: &Request<Body>, _: &Span| trace::started())
                .on_response(|response: &Response, latency: Duration, _: &Span| {
                    trace::finished(response.status(), latency)
                }),
        )
        // Outermost: the client address is known before the log span opens (src/base/client_ip.rs).
        .layer(middleware::from_fn_with_state(trusted_proxies, client_ip::resolve));
    // A fresh page from the cache needs none of the above.
    App::new(state, response_headers, router)
}

/// What a handler's panic becomes: a counted and logged internal error (inside the request's
/// span, which the trace layer keeps entered while the handler runs; `super::panics`),
/// answered as a generic 500. The payload's text is logged, never shown.
fn page_panic(panic: Box<dyn Any + Send + 'static>) -> AppError {
    let message = panics::record("handler", &*panic);
    AppError::internal("handler panicked", message)
}

async fn api_not_found() -> crate::error::ApiError {
    crate::error::AppError::NotFound("Not found".into()).into()
}
