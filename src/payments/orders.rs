//! The order service and its state machine (DESIGN.md sections 5 and 6; spec sections 3 and
//! 9): a checkout becomes a stored order and an encrypted gateway request
//! (`/api/ccavenue-initiate`), and the gateway's answer moves the order once from
//! `initiated` to its decision, with the receipt (`/api/ccavenue-handle`).

use serde_json::{Map, Value};

use crate::attendance::{issue, tickets};
use crate::base::money;
use crate::ccavenue::crypto;
use crate::ccavenue::order_id::{generate_order_id, is_valid_order_id};
use crate::ccavenue::protocol::{OrderStatus, PaymentResponse};
use crate::config::Config;
use crate::db::Pool;
use crate::error::AppError;
use crate::mail;
use crate::payments::checkout::{Checkout, payment_request, payments_closed_message, validate};
use crate::payments::config::{Mode, PaymentConfig};
use crate::payments::receipt;
use crate::payments::status_api::{self, Confirmation};
use crate::repo::orders::{self, GatewayFields, NewOrder, Order, Status};
use crate::repo::{attendees, content};

/// The answer of `/api/ccavenue-initiate` (DESIGN.md section 5).
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Initiated {
    pub order_id: String,
    /// The request, encrypted with the working key (lowercase hex).
    pub enc_request: String,
    pub access_code: String,
    /// Where the browser POSTs `encRequest` and `access_code`.
    pub gateway_url: String,
}

/// Creates the order and the encrypted request for `payload` at `now`; 503 with payments off,
/// else 409 (`AppError::Conflict`) once registration has closed, 422 for a bad checkout.
pub async fn initiate(
    pool: &Pool,
    payments: &PaymentConfig,
    payload: &Map<String, Value>,
    now: time::OffsetDateTime,
) -> Result<Initiated, AppError> {
    if payments.mode == Mode::Off {
        let site = content::site(pool).await?;
        return Err(AppError::Unavailable(payments_closed_message(&site.contact_email)));
    }
    // With payments on: after `registration_closes` no ticket or custom payment starts (409,
    // DESIGN.md section 20), whatever the rest of the request says; a sponsorship is no
    // registration. An order started before still completes when the gateway answers
    // (`handle_answer` does not ask).
    if !payload.contains_key("sponsorPackage")
        && let Some(message) = crate::calendar::gates::registration_closed(pool, now).await?
    {
        return Err(AppError::Conflict(message));
    }
    let plans = content::ticket_plans(pool).await?;
    let packages = content::sponsor_packages(pool).await?;
    let Checkout { item, billing } = validate(payload, &plans, &packages)?;
    // The honeypot (DESIGN.md section 5) does not discard a checkout: autofill can fill a
    // hidden field, and a discarded order would let a person pay CCAvenue for an order this
    // site does not know. An unpaid order costs one row and sends no mail, so it is only logged.
    if payload.get("_gotcha").and_then(Value::as_str).is_some_and(|v| !v.trim().is_empty()) {
        tracing::warn!(item = item.id, "checkout with the honeypot filled; order created anyway");
    }

    let order_id = generate_order_id();
    let created = crate::clock::stamp::now_rfc3339();
    let mut conn = pool.acquire().await?;
    orders::insert(
        &mut conn,
        &NewOrder {
            order_id: &order_id,
            kind: item.kind,
            item_id: &item.id,
            item_title: &item.title,
            custom_amount: item.custom_amount.as_deref(),
            amount_cents: item.amount_cents,
            currency: &item.currency,
            billing_name: &billing.name,
            billing_email: &billing.email,
            billing_tel: &billing.phone,
            billing_address: &billing.address,
            billing_city: &billing.city,
            billing_state: &billing.state,
            billing_zip: &billing.zip,
            billing_country: &billing.country,
            created: &created,
            payments_mode: payments.mode.as_str(),
            gateway: &payments.gateway_url,
        },
    )
    .await?;

    let request = payment_request(payments, &order_id, &item, &billing);
    tracing::info!(
        order_id,
        item = item.id,
        amount = money::format_cents(item.amount_cents),
        mode = payments.mode.as_str(),
        "order initiated"
    );
    Ok(Initiated {
        enc_request: crypto::encrypt(&request.to_query_string(), &payments.working_key),
        order_id,
        access_code: payments.access_code.clone(),
        gateway_url: payments.gateway_url.clone(),
    })
}

/// How the gateway's answer was taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handled {
    /// 303 to this site path (`/Success?order=..` or `/Failed...`).
    Redirect(String),
    /// 400: the answer could not be read (missing, not hex, wrong key, tampered, unparsable).
    Unreadable(String),
}

/// The result page of a stored order: `/Success` only when it is paid.
pub fn result_path(order: &Order) -> String {
    match order.status() {
        Status::Success => format!("/Success?order={}", order.order_id),
        _ => format!("/Failed?order={}", order.order_id),
    }
}

/// The decision an answer asks for (anything but the four known statuses is a failure).
fn decision_of(status: &OrderStatus) -> Status {
    match status {
        OrderStatus::Success => Status::Success,
        OrderStatus::Aborted => Status::Aborted,
        OrderStatus::Invalid => Status::Invalid,
        OrderStatus::Failure | OrderStatus::Other(_) => Status::Failure,
    }
}

/// Takes the gateway's answer: `encResp` (required) and `orderNo` (optional, must agree),
/// received at `now` (the app's clock: the decision's time and the receipt's date).
///
/// Decrypts and parses it, finds the order, checks order id, amount (as cents) and currency
/// (exactly, as a decimal) and the gateway that created it against it, confirms a `Success` with the status API when `CCAVENUE_STATUS_URL` is set,
/// then moves the order once from `initiated` and, on success, numbers the receipt, makes the
/// ticket and its attendee link of a registration (`crate::attendance::issue`) and queues the
/// receipt and the organisers' notice, all in the same transaction. An answer that does not match leaves the
/// order as it was; a repeated answer changes nothing and queues nothing.
///
/// Status API policy: a clear "not paid" (another status, amount or currency) records the
/// order as `failure` with the reason in `failure_message`; no usable answer (unreachable,
/// error, undecided) leaves it `initiated`, logged, for the organisers to reconcile in
/// CCAvenue's dashboard: a payment that may have gone through is never marked failed on a
/// network error, and never confirmed without an answer.
pub async fn handle_answer(
    pool: &Pool,
    config: &Config,
    payments: &PaymentConfig,
    enc_resp: Option<&str>,
    order_no: Option<&str>,
    now: time::OffsetDateTime,
) -> Result<Handled, AppError> {
    if payments.mode == Mode::Off {
        // No key: nothing can be read, so nothing is decided.
        tracing::warn!(order_no, "gateway answer while payments are off; ignored");
        return Ok(Handled::Unreadable("Payments are not open on this site.".into()));
    }
    let Some(enc_resp) = enc_resp.filter(|s| !s.trim().is_empty()) else {
        tracing::warn!("gateway answer without encResp");
        return Ok(Handled::Unreadable("The payment answer is missing (encResp).".into()));
    };
    let plain = match crypto::decrypt(enc_resp, &payments.working_key) {
        Ok(plain) => plain,
        Err(err) => {
            tracing::warn!(error = %err, order_no, "gateway answer could not be decrypted");
            return Ok(Handled::Unreadable("The payment answer could not be read.".into()));
        }
    };
    let answer = match PaymentResponse::parse(&plain) {
        Ok(answer) => answer,
        Err(err) => {
            tracing::warn!(error = %err, order_no, "gateway answer could not be parsed");
            return Ok(Handled::Unreadable("The payment answer could not be read.".into()));
        }
    };
    let order_id = answer.order_id.as_str();
    let failed = Handled::Redirect("/Failed".into());
    if let Some(order_no) = order_no.map(str::trim).filter(|s| !s.is_empty())
        && order_no != order_id
    {
        tracing::error!(order_id, order_no, "gateway answer: orderNo differs from the encrypted order_id; ignored");
        return Ok(failed);
    }
    if !is_valid_order_id(order_id) {
        tracing::error!(order_id, "gateway answer names a malformed order id; ignored");
        return Ok(failed);
    }
    let Some(order) = orders::get(pool, order_id).await? else {
        tracing::error!(order_id, "gateway answer for an unknown order; ignored");
        return Ok(failed);
    };
    // Only the gateway that created the order may decide it: an order made while live is never
    // decided by the public test key, nor a test order by a live answer.
    if order.payments_mode.as_deref() != Some(payments.mode.as_str())
        || order.gateway.as_deref() != Some(payments.gateway_url.as_str())
    {
        tracing::error!(
            order_id,
            order_mode = order.payments_mode,
            order_gateway = order.gateway,
            mode = payments.mode.as_str(),
            gateway = payments.gateway_url,
            "gateway answer from another gateway than the order's; order left as it was"
        );
        return Ok(Handled::Redirect(format!("/Failed?order={order_id}")));
    }
    if money::parse_exact_cents(&answer.amount) != Some(order.amount_cents) || answer.currency != order.currency {
        tracing::error!(
            order_id,
            answer_amount = answer.amount,
            answer_currency = answer.currency,
            order_amount = money::format_cents(order.amount_cents),
            order_currency = order.currency,
            "gateway answer does not match the stored order; order left as it was"
        );
        return Ok(Handled::Redirect(format!("/Failed?order={order_id}")));
    }

    let wanted = decision_of(&answer.status());
    if order.status() != Status::Initiated {
        if order.status() == wanted {
            tracing::info!(order_id, status = order.status, "gateway answer repeated; order already decided");
        } else {
            tracing::warn!(
                order_id,
                stored = order.status,
                answer = answer.order_status,
                "gateway answer for a decided order ignored"
            );
        }
        return Ok(Handled::Redirect(result_path(&order)));
    }

    let mut decision = wanted;
    let mut failure_message = answer.failure_message.clone();
    if decision == Status::Success
        && let Some(status_url) = &payments.status_url
    {
        match status_api::confirm(payments, status_url, &order, &answer.tracking_id).await {
            Confirmation::Paid => {}
            Confirmation::NotPaid(reason) => {
                tracing::error!(order_id, reason, "Success not confirmed by the order status API; recorded as failure");
                decision = Status::Failure;
                failure_message = format!("Not confirmed by the order status API: {reason}");
            }
            Confirmation::Unknown(reason) => {
                tracing::error!(order_id, reason, "Success could not be confirmed; order left initiated");
                return Ok(Handled::Redirect(format!("/Failed?order={order_id}")));
            }
        }
    }

    let decided_time = now;
    let decided_at = crate::clock::stamp::timestamp(decided_time);
    // A payment's receipt, ticket and attendee link are made in the transaction below, and
    // its mails composed there once the receipt's number and the link are known.
    let paid = if decision == Status::Success {
        let site = content::site(pool).await?;
        let plans = content::ticket_plans(pool).await?;
        let mut paid = order.clone();
        paid.status = Status::Success.as_str().into();
        paid.tracking_id = Some(answer.tracking_id.clone());
        paid.bank_ref_no = Some(answer.bank_ref_no.clone());
        paid.payment_mode = Some(answer.payment_mode.clone());
        paid.card_name = Some(answer.card_name.clone());
        paid.trans_date = Some(answer.trans_date.clone());
        paid.decided_at = Some(decided_at.clone());
        let mode = tickets::mode_of(&plans, &order.item_id);
        Some((mail::Context::new(&site, config), paid, mode))
    } else {
        None
    };

    let fields = GatewayFields {
        gateway_status: &answer.order_status,
        tracking_id: &answer.tracking_id,
        bank_ref_no: &answer.bank_ref_no,
        payment_mode: &answer.payment_mode,
        card_name: &answer.card_name,
        status_code: &answer.status_code,
        status_message: &answer.status_message,
        failure_message: &failure_message,
        trans_date: &answer.trans_date,
    };
    let mut tx = crate::db::begin_write(pool).await?;
    let decided = orders::decide(&mut tx, order_id, decision, &fields, &decided_at).await?;
    if decided && let Some((ctx, paid, mode)) = &paid {
        let settings = attendees::settings(&mut tx).await?;
        let issued = issue::paid_order(&mut tx, paid, mode, &settings, decided_time).await?;
        let mails = receipt::mails(ctx, paid, &issued).map_err(|e| AppError::internal("receipt template", e))?;
        for mail in &mails {
            mail::enqueue(&mut tx, mail).await?;
        }
    }
    let stored = orders::find(&mut tx, order_id).await?;
    tx.commit().await?;
    let Some(stored) = stored else {
        return Ok(failed);
    };
    if decided {
        tracing::info!(order_id, status = stored.status, gateway_status = answer.order_status, "order decided");
    } else {
        // Another copy of the answer decided it between our read and our update.
        tracing::info!(order_id, status = stored.status, "gateway answer raced another; order already decided");
    }
    Ok(Handled::Redirect(result_path(&stored)))
}
