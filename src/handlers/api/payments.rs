//! POST `/api/ccavenue-initiate` (a checkout becomes an order and an encrypted gateway
//! request) and POST `/api/ccavenue-handle` (the gateway's answer decides the order).
//! Contracts: DESIGN.md sections 5 and 6; the work is in [`crate::payments::orders`].

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::error::{ApiError, AppError, ErrorBody};
use crate::handlers::render::see_other;
use crate::handlers::state::AppState;
use crate::payments::orders::{self, Handled};

/// Largest request body of either route, in bytes: a checkout is well under 2 KiB, a gateway
/// answer under 4 KiB.
pub const BODY_LIMIT_BYTES: usize = 16 * 1024;

/// Reads the body up to [`BODY_LIMIT_BYTES`]; 413 with a JSON message beyond it.
async fn read_body(body: Body) -> Result<Bytes, Response> {
    axum::body::to_bytes(body, BODY_LIMIT_BYTES).await.map_err(|err| {
        if crate::handlers::extract::is_body_timeout(&err) {
            return crate::handlers::extract::body_timeout_refusal().into_response();
        }
        let body = ErrorBody { message: "The request is too large.".into(), errors: Default::default() };
        (StatusCode::PAYLOAD_TOO_LARGE, Json(body)).into_response()
    })
}

fn content_type_is(headers: &HeaderMap, expected: &str) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case(expected))
}

/// POST `/api/ccavenue-initiate`: JSON `{plan | customAmount | sponsorPackage, name, email,
/// phone, address, city, state, zip, country}` -> 201 `{"orderId","encRequest","accessCode",
/// "gatewayUrl"}`; 422 with field errors; 415 when not JSON; 400 when not a JSON object; 409
/// once `registration_closes` has passed (DESIGN.md section 20), with whom to write to.
pub async fn initiate(State(state): State<AppState>, headers: HeaderMap, body: Body) -> Response {
    let bytes = match read_body(body).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    if !content_type_is(&headers, "application/json") {
        let body = ErrorBody {
            message: "Send the order as JSON (Content-Type: application/json).".into(),
            errors: Default::default(),
        };
        return (StatusCode::UNSUPPORTED_MEDIA_TYPE, Json(body)).into_response();
    }
    let payload = match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => map,
        Ok(_) | Err(_) => {
            return ApiError(AppError::BadRequest("The request body must be a JSON object.".into())).into_response();
        }
    };
    match orders::initiate(&state.pool, &state.payments, &payload, state.clock.now()).await {
        Ok(initiated) => (StatusCode::CREATED, Json(initiated)).into_response(),
        Err(err) => ApiError(err).into_response(),
    }
}

/// POST `/api/ccavenue-handle`, the `redirect_url` and `cancel_url` of every order:
/// form-urlencoded `encResp` (and `orderNo`) from the gateway -> 303 to `/Success?order=..`
/// or `/Failed?order=..`; 400 when the answer cannot be read.
pub async fn handle(State(state): State<AppState>, body: Body) -> Response {
    let bytes = match read_body(body).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    let unreadable = |message: &str| ApiError(AppError::BadRequest(message.into())).into_response();
    let Ok(pairs) = serde_urlencoded::from_bytes::<Vec<(String, String)>>(&bytes) else {
        tracing::warn!("gateway answer is not form data");
        return unreadable("The payment answer could not be read.");
    };
    let values = |name: &str| pairs.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect::<Vec<_>>();
    let (enc_resp, order_no) = (values("encResp"), values("orderNo"));
    if enc_resp.len() > 1 || order_no.len() > 1 {
        tracing::warn!("gateway answer repeats encResp or orderNo");
        return unreadable("The payment answer could not be read.");
    }
    match orders::handle_answer(
        &state.pool,
        &state.config,
        &state.payments,
        enc_resp.first().copied(),
        order_no.first().copied(),
        state.clock.now(),
    )
    .await
    {
        Ok(Handled::Redirect(location)) => see_other(&location),
        Ok(Handled::Unreadable(message)) => unreadable(&message),
        Err(err) => ApiError(err).into_response(),
    }
}
