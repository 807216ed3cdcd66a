//! Checkout rules (DESIGN.md sections 5 and 6; spec sections 3 and 5): what a visitor's
//! checkout must hold (one plan, package or custom amount, and the billing fields), the
//! amount computed on the server, and the CCAvenue request it becomes.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::base::money;
use crate::ccavenue::protocol::PaymentRequest;
use crate::error::AppError;
use crate::forms::validate;
use crate::payments::config::{CURRENCY, PaymentConfig};
use crate::repo::content::{SponsorPackage, TicketPlan};
use crate::repo::orders::OrderKind;

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
        } else if field.name == "email" && !validate::is_valid_email(&value) {
            errors.insert(field.name.into(), "Please enter a valid email address".into());
        } else if field.name == "phone" && !validate::is_valid_phone(&value) {
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
