//! The order service: turning a visitor's checkout into a stored order and an encrypted
//! gateway request (`/api/ccavenue-initiate`), and the gateway's answer into a decision and
//! a receipt (`/api/ccavenue-handle`). DESIGN.md sections 5 and 6; spec sections 3, 5 and 9.

use crate::validate::is_valid_email;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::ccavenue::crypto;
use crate::ccavenue::protocol::{OrderStatus, PaymentRequest, PaymentResponse, generate_order_id, is_valid_order_id};
use crate::error::AppError;
use crate::mail;
use crate::money;
use crate::payments::config::{CURRENCY, Mode, PaymentConfig};
use crate::payments::receipt;
use crate::payments::status_api::{self, Confirmation};
use crate::repo::content::{self, SponsorPackage, TicketPlan};
use crate::repo::orders::{self, GatewayFields, NewOrder, Order, OrderKind, Status};
use crate::state::AppState;

/// `item_id` of a custom payment, also sent as `merchant_param1`.
pub const CUSTOM_ITEM_ID: &str = "custom-payment";

/// What a custom payment is called on the receipt (the /pricing card's heading).
pub const CUSTOM_ITEM_TITLE: &str = "Custom Payment";

/// Message of a 422 whose field errors are about the billing form.
pub const CHECK_FIELDS_MESSAGE: &str = "Please check the highlighted fields and try again.";

/// Message when the payload names no plan, package or amount, or more than one.
pub const CHOOSE_ONE_MESSAGE: &str =
    "Choose exactly one of a ticket plan (plan), a custom amount (customAmount) or a sponsor package (sponsorPackage).";

/// A billing field of the payload: its name, the CCAvenue request field it fills, its
/// longest accepted length in characters (CCAvenue integration kit limits, so the gateway
/// never refuses a request we signed), and its message when required but missing (the
/// registration island's own wording).
struct Field {
    name: &'static str,
    max_chars: usize,
    missing: &'static str,
}

/// The billing fields in the spec's order (section 3, Registration/payment form).
const FIELDS: [Field; 8] = [
    Field { name: "name", max_chars: 60, missing: "Please enter your name" },
    Field { name: "email", max_chars: 70, missing: "Please enter your email address" },
    Field { name: "phone", max_chars: 20, missing: "Please enter your phone number" },
    Field { name: "address", max_chars: 150, missing: "Please enter your address" },
    Field { name: "city", max_chars: 30, missing: "Please enter your city" },
    Field { name: "state", max_chars: 30, missing: "Please enter your state" },
    Field { name: "zip", max_chars: 15, missing: "Please enter your ZIP code" },
    Field { name: "country", max_chars: 50, missing: "Please enter your country" },
];

/// Required for a ticket or custom payment (spec section 5: name, email, phone, ZIP Code and
/// country; address, city and state optional).
const REGISTRATION_REQUIRED: [&str; 5] = ["name", "email", "phone", "zip", "country"];

/// Required for a sponsor order: whom to send the receipt (spec section 3 gives the sponsor
/// order no billing fields; a receipt needs a name and an address).
const SPONSOR_REQUIRED: [&str; 2] = ["name", "email"];

/// Longest `plan` / `sponsorPackage` / `customAmount` value looked at, in characters.
const MAX_CHOICE_CHARS: usize = 64;

/// What the visitor is paying for, resolved against the stored prices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub kind: OrderKind,
    pub id: String,
    pub title: String,
    /// The amount charged, in cents: the stored price, or the custom amount plus 6% tax.
    pub amount_cents: i64,
    pub currency: String,
    /// Custom payments: the amount as entered, before tax.
    pub custom_amount: Option<String>,
}

/// The payer, trimmed; optional fields not given are empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Billing {
    pub name: String,
    pub email: String,
    pub phone: String,
    pub address: String,
    pub city: String,
    pub state: String,
    pub zip: String,
    pub country: String,
}

impl Billing {
    fn slot(&mut self, name: &str) -> &mut String {
        match name {
            "name" => &mut self.name,
            "email" => &mut self.email,
            "phone" => &mut self.phone,
            "address" => &mut self.address,
            "city" => &mut self.city,
            "state" => &mut self.state,
            "zip" => &mut self.zip,
            _ => &mut self.country,
        }
    }
}

/// A checked checkout: what is bought and by whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkout {
    pub item: Item,
    pub billing: Billing,
}

/// Field errors keyed by the payload's own names.
type Errors = BTreeMap<String, String>;

/// Checks a checkout payload (the JSON object of `/api/ccavenue-initiate`) against the stored
/// plans and packages. Any `amount`, `currency` or other key is ignored: the server prices
/// the order itself (DESIGN.md section 5). Every problem is reported at once.
pub fn validate(
    payload: &Map<String, Value>,
    plans: &[TicketPlan],
    packages: &[SponsorPackage],
) -> Result<Checkout, AppError> {
    let mut errors = Errors::new();
    // `null` counts as absent, so a form may send every key.
    let given = |key: &str| payload.get(key).filter(|v| !v.is_null());
    let choices: Vec<&str> =
        ["plan", "customAmount", "sponsorPackage"].into_iter().filter(|k| given(k).is_some()).collect();

    let item = match choices.as_slice() {
        ["plan"] => resolve_plan(given("plan"), plans, &mut errors),
        ["customAmount"] => resolve_custom(given("customAmount"), &mut errors),
        ["sponsorPackage"] => resolve_package(given("sponsorPackage"), packages, &mut errors),
        [] => {
            errors.insert("plan".into(), CHOOSE_ONE_MESSAGE.into());
            return Err(unprocessable(CHOOSE_ONE_MESSAGE, errors));
        }
        several => {
            for key in several {
                errors.insert((*key).into(), CHOOSE_ONE_MESSAGE.into());
            }
            return Err(unprocessable(CHOOSE_ONE_MESSAGE, errors));
        }
    };
    let required: &[&str] = if choices == ["sponsorPackage"] { &SPONSOR_REQUIRED } else { &REGISTRATION_REQUIRED };

    let mut billing = Billing::default();
    for field in &FIELDS {
        let value = match given(field.name) {
            None => String::new(),
            Some(Value::String(s)) => s.trim().to_owned(),
            Some(_) => {
                errors.insert(field.name.into(), "Must be text".into());
                continue;
            }
        };
        if value.is_empty() {
            if required.contains(&field.name) {
                errors.insert(field.name.into(), field.missing.into());
            }
            continue;
        }
        if value.chars().count() > field.max_chars {
            errors.insert(field.name.into(), format!("Must be at most {} characters", field.max_chars));
        } else if value.chars().any(char::is_control) {
            errors.insert(field.name.into(), "Must be a single line of text".into());
        } else if field.name == "email" && !is_valid_email(&value) {
            errors.insert(field.name.into(), "Please enter a valid email address".into());
        } else if field.name == "phone" && !is_valid_phone(&value) {
            errors.insert(field.name.into(), "Please enter a valid phone number".into());
        }
        *billing.slot(field.name) = value;
    }

    match item {
        Some(item) if errors.is_empty() => Ok(Checkout { item, billing }),
        _ => {
            // The spec's alert text when the amount is what is wrong (spec section 8).
            let message =
                if errors.contains_key("customAmount") { money::INVALID_AMOUNT_MESSAGE } else { CHECK_FIELDS_MESSAGE };
            Err(unprocessable(message, errors))
        }
    }
}

fn unprocessable(message: &str, errors: Errors) -> AppError {
    AppError::Unprocessable { message: message.into(), errors }
}

fn resolve_plan(value: Option<&Value>, plans: &[TicketPlan], errors: &mut Errors) -> Option<Item> {
    let plan = value.and_then(Value::as_str).and_then(|id| plans.iter().find(|p| p.id == id));
    let Some(plan) = plan else {
        errors.insert("plan".into(), "Unknown ticket plan".into());
        return None;
    };
    Some(Item {
        kind: OrderKind::Plan,
        id: plan.id.clone(),
        title: plan.title.clone(),
        amount_cents: plan.price_cents,
        currency: plan.currency.clone(),
        custom_amount: None,
    })
}

fn resolve_package(value: Option<&Value>, packages: &[SponsorPackage], errors: &mut Errors) -> Option<Item> {
    let package = value.and_then(Value::as_str).and_then(|id| packages.iter().find(|p| p.id == id));
    let Some(package) = package else {
        errors.insert("sponsorPackage".into(), "Unknown sponsor package".into());
        return None;
    };
    Some(Item {
        kind: OrderKind::Sponsor,
        id: package.id.clone(),
        title: format!("{} Sponsorship", package.title),
        amount_cents: package.price_cents,
        currency: package.currency.clone(),
        custom_amount: None,
    })
}

/// `customAmount` is a decimal number sent as a JSON number or string (DESIGN.md section 5).
/// A JSON number is read from its decimal text (serde_json keeps the shortest text that
/// round-trips, so `33.335` stays `33.335`); the total is computed exactly from that.
fn resolve_custom(value: Option<&Value>, errors: &mut Errors) -> Option<Item> {
    let text = match value {
        Some(Value::String(s)) if s.chars().count() <= MAX_CHOICE_CHARS => Some(s.trim().to_owned()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let total = text.as_deref().map(money::custom_total_cents);
    match (text, total) {
        (Some(text), Some(Ok(cents))) => Some(Item {
            kind: OrderKind::Custom,
            id: CUSTOM_ITEM_ID.into(),
            title: CUSTOM_ITEM_TITLE.into(),
            amount_cents: cents,
            currency: CURRENCY.into(),
            custom_amount: Some(text),
        }),
        _ => {
            errors.insert("customAmount".into(), money::INVALID_AMOUNT_MESSAGE.into());
            None
        }
    }
}

/// A phone number as people write it: digits with `+`, spaces, dashes, dots and brackets,
/// 5 to 15 digits (E.164 allows at most 15).
pub fn is_valid_phone(phone: &str) -> bool {
    let digits = phone.chars().filter(char::is_ascii_digit).count();
    phone.chars().all(|c| c.is_ascii_digit() || " +-().".contains(c)) && (5..=15).contains(&digits)
}

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

/// Creates the order and the encrypted request for `payload`.
pub async fn initiate(state: &AppState, payload: &Map<String, Value>) -> Result<Initiated, AppError> {
    let payments = &state.payments;
    if payments.mode == Mode::Off {
        let site = content::site(&state.pool).await?;
        return Err(AppError::Unavailable(payments_closed_message(&site.contact_email)));
    }
    let plans = content::ticket_plans(&state.pool).await?;
    let packages = content::sponsor_packages(&state.pool).await?;
    let Checkout { item, billing } = validate(payload, &plans, &packages)?;
    // The honeypot (DESIGN.md section 5) does not discard a checkout: autofill can fill a
    // hidden field, and a discarded order would let a person pay CCAvenue for an order this
    // site does not know. An unpaid order costs one row and sends no mail, so it is only logged.
    if payload.get("_gotcha").and_then(Value::as_str).is_some_and(|v| !v.trim().is_empty()) {
        tracing::warn!(item = item.id, "checkout with the honeypot filled; order created anyway");
    }

    let order_id = generate_order_id();
    let created = mail::outbox::now_rfc3339();
    let mut conn = state.pool.acquire().await?;
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

/// The CCAvenue request for an order (field names of the integration kit; spec section 3).
/// `merchant_param1` is the plan, package or `custom-payment`, `merchant_param2` the kind,
/// `merchant_param3` a custom payment's amount before tax: the gateway echoes them, and they
/// show in CCAvenue's dashboard next to the payment.
pub fn payment_request(payments: &PaymentConfig, order_id: &str, item: &Item, billing: &Billing) -> PaymentRequest {
    let some = |s: &str| (!s.is_empty()).then(|| s.to_owned());
    PaymentRequest {
        billing_name: some(&billing.name),
        billing_address: some(&billing.address),
        billing_city: some(&billing.city),
        billing_state: some(&billing.state),
        billing_zip: some(&billing.zip),
        billing_country: some(&billing.country),
        billing_tel: some(&billing.phone),
        billing_email: some(&billing.email),
        merchant_param1: Some(item.id.clone()),
        merchant_param2: Some(item.kind.as_str().to_owned()),
        merchant_param3: item.custom_amount.clone(),
        merchant_param4: None,
        ..PaymentRequest::new(
            &payments.merchant_id,
            order_id,
            &item.currency,
            money::format_cents(item.amount_cents),
            &payments.return_url,
            &payments.return_url,
        )
    }
}

/// What Register and Pay say, and `/api/ccavenue-initiate` answers with 503, while payments
/// are off (`PAYMENTS_MODE=off`, DESIGN.md section 6); `contact` is the site's contact email.
pub fn payments_closed_message(contact: &str) -> String {
    format!("Online payment is not open yet. To register or pay, please contact us at {contact}.")
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

/// Takes the gateway's answer: `encResp` (required) and `orderNo` (optional, must agree).
///
/// Decrypts and parses it, finds the order, checks order id, amount (as cents) and currency
/// (exactly, as a decimal) and the gateway that created it against it, confirms a `Success` with the status API when `CCAVENUE_STATUS_URL` is set,
/// then moves the order once from `initiated` and, on success, queues the receipt and the
/// organisers' notice in the same transaction. An answer that does not match leaves the
/// order as it was; a repeated answer changes nothing and queues nothing.
///
/// Status API policy: a clear "not paid" (another status, amount or currency) records the
/// order as `failure` with the reason in `failure_message`; no usable answer (unreachable,
/// error, undecided) leaves it `initiated`, logged, for the organisers to reconcile in
/// CCAvenue's dashboard: a payment that may have gone through is never marked failed on a
/// network error, and never confirmed without an answer.
pub async fn handle_answer(
    state: &AppState,
    enc_resp: Option<&str>,
    order_no: Option<&str>,
) -> Result<Handled, AppError> {
    let payments = &state.payments;
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
    let Some(order) = orders::get(&state.pool, order_id).await? else {
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

    let decided_at = mail::outbox::now_rfc3339();
    let mails = if decision == Status::Success {
        let site = content::site(&state.pool).await?;
        let ctx = mail::Context::new(&site, &state.config);
        let mut paid = order.clone();
        paid.status = Status::Success.as_str().into();
        paid.tracking_id = Some(answer.tracking_id.clone());
        paid.bank_ref_no = Some(answer.bank_ref_no.clone());
        paid.payment_mode = Some(answer.payment_mode.clone());
        paid.card_name = Some(answer.card_name.clone());
        paid.trans_date = Some(answer.trans_date.clone());
        paid.decided_at = Some(decided_at.clone());
        receipt::mails(&ctx, &paid).map_err(|e| AppError::internal("receipt template", e))?
    } else {
        Vec::new()
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
    let mut tx = state.pool.begin().await?;
    let decided = orders::decide(&mut tx, order_id, decision, &fields, &decided_at).await?;
    if decided {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phones() {
        for ok in ["+14155552671", "+63 2 8123 4567", "(02) 8123-4567", "12345"] {
            assert!(is_valid_phone(ok), "{ok}");
        }
        for bad in ["", "1234", "+1 415 555 2671 12345", "call me", "0800-FLOWERS", "+1;2345"] {
            assert!(!is_valid_phone(bad), "{bad}");
        }
    }
}
