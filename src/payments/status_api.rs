//! CCAvenue's order status call (`command=orderStatusTracker`, API version 1.2), used to
//! confirm a `Success` before it counts: `encResp` carries no signature (DESIGN.md section 6).
//!
//! Request, as CCAvenue's API documentation describes it: a form POST with `enc_request` (the
//! JSON `{"order_no": ..., "reference_no": ...}` encrypted like `encRequest`), `access_code`,
//! `command=orderStatusTracker`, `request_type=JSON`, `response_type=JSON`, `version=1.2`.
//! Answer: `status=0&enc_response=<hex>` whose plain text is JSON with `order_status`,
//! `order_amt` and `order_currncy` (sic), either at the top level or inside
//! `Order_Status_Result`; `status=1` carries an error text instead.

use std::time::Duration;

use serde_json::Value;

use crate::base::money;
use crate::ccavenue::crypto;
use crate::payments::config::PaymentConfig;
use crate::payments::http;
use crate::repo::orders::Order;

/// How long the call may take, in seconds, before the answer counts as unavailable.
pub const TIMEOUT_SECONDS: u64 = 10;

/// `order_status` values of the status API that mean the money was taken.
pub const PAID_STATUSES: [&str; 3] = ["Shipped", "Successful", "Success"];

/// `order_status` values that mean CCAvenue has not decided yet.
const UNDECIDED_STATUSES: [&str; 2] = ["Awaited", "Initiated"];

/// What the status API said about an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmation {
    /// Paid, for the stored amount and currency.
    Paid,
    /// A clear answer that the order is not paid as stored (another status, amount or
    /// currency). The reason is for the log and the stored record.
    NotPaid(String),
    /// No usable answer (unreachable, error status, undecided, unreadable). Nothing is known,
    /// so the order is left `initiated` for the organisers to reconcile.
    Unknown(String),
}

/// Asks `status_url` about `order` (CCAvenue's `reference_no` is the answer's `tracking_id`).
pub async fn confirm(payments: &PaymentConfig, status_url: &str, order: &Order, tracking_id: &str) -> Confirmation {
    let request = serde_json::json!({ "order_no": order.order_id, "reference_no": tracking_id }).to_string();
    let form = serde_urlencoded::to_string([
        ("enc_request", crypto::encrypt(&request, &payments.working_key).as_str()),
        ("access_code", payments.access_code.as_str()),
        ("command", "orderStatusTracker"),
        ("request_type", "JSON"),
        ("response_type", "JSON"),
        ("version", "1.2"),
    ])
    .expect("string pairs always serialize");
    match http::post_form(status_url, form, Duration::from_secs(TIMEOUT_SECONDS)).await {
        Ok(body) => read_answer(&body, &payments.working_key, order),
        Err(err) => Confirmation::Unknown(format!("status call failed: {err}")),
    }
}

/// Judges the status API's answer body against the stored order.
pub fn read_answer(body: &str, working_key: &str, order: &Order) -> Confirmation {
    let pairs: Vec<(String, String)> = match serde_urlencoded::from_str(body.trim()) {
        Ok(pairs) => pairs,
        Err(err) => return Confirmation::Unknown(format!("answer is not form data: {err}")),
    };
    let get = |name: &str| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    if get("status") != Some("0") {
        let detail = get("enc_response").unwrap_or("").chars().take(200).collect::<String>();
        return Confirmation::Unknown(format!("status API error (status {:?}): {detail}", get("status")));
    }
    let Some(cipher) = get("enc_response") else {
        return Confirmation::Unknown("answer lacks enc_response".into());
    };
    let plain = match crypto::decrypt(cipher, working_key) {
        Ok(plain) => plain,
        Err(err) => return Confirmation::Unknown(format!("enc_response: {err}")),
    };
    let json: Value = match serde_json::from_str(&plain) {
        Ok(json) => json,
        Err(err) => return Confirmation::Unknown(format!("enc_response is not JSON: {err}")),
    };
    let result = json.get("Order_Status_Result").unwrap_or(&json);
    judge(result, order)
}

/// The decision on the decrypted JSON.
fn judge(result: &Value, order: &Order) -> Confirmation {
    let text = |name: &str| match result.get(name) {
        Some(Value::String(s)) => Some(s.trim().to_owned()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    // An error flag inside the JSON (e.g. unknown reference number): nothing learned.
    if let Some(flag) = text("status")
        && flag != "0"
    {
        let why = text("error_desc").unwrap_or_default();
        return Confirmation::Unknown(format!("status API refused the query ({flag}): {why}"));
    }
    if let Some(order_no) = text("order_no")
        && order_no != order.order_id
    {
        return Confirmation::NotPaid(format!("status API answered for order {order_no}"));
    }
    let Some(status) = text("order_status") else {
        return Confirmation::Unknown("answer lacks order_status".into());
    };
    if UNDECIDED_STATUSES.contains(&status.as_str()) {
        return Confirmation::Unknown(format!("status API has not decided yet ({status})"));
    }
    if !PAID_STATUSES.contains(&status.as_str()) {
        return Confirmation::NotPaid(format!("status API says {status}"));
    }
    let amount = text("order_amt").and_then(|a| money::parse_exact_cents(&a));
    if amount != Some(order.amount_cents) {
        return Confirmation::NotPaid(format!(
            "status API amount {:?} differs from the order's {}",
            text("order_amt"),
            money::format_cents(order.amount_cents)
        ));
    }
    let currency = text("order_currncy").or_else(|| text("order_currency"));
    if currency.as_deref() != Some(order.currency.as_str()) {
        return Confirmation::NotPaid(format!(
            "status API currency {currency:?} differs from the order's {}",
            order.currency
        ));
    }
    Confirmation::Paid
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "unit-test-key";

    fn order() -> Order {
        Order {
            order_id: "ORD1".into(),
            kind: "plan".into(),
            item_id: "presenter-virtual".into(),
            item_title: "Presenter Virtual".into(),
            custom_amount: None,
            amount_cents: 21_900,
            currency: "USD".into(),
            status: "initiated".into(),
            billing_name: "Ada Lovelace".into(),
            billing_email: "ada@example.org".into(),
            billing_tel: String::new(),
            billing_address: String::new(),
            billing_city: String::new(),
            billing_state: String::new(),
            billing_zip: String::new(),
            billing_country: String::new(),
            gateway_status: None,
            tracking_id: None,
            bank_ref_no: None,
            payment_mode: None,
            card_name: None,
            status_code: None,
            status_message: None,
            failure_message: None,
            trans_date: None,
            created: "2025-01-01T00:00:00Z".into(),
            decided_at: None,
            payments_mode: Some("live".into()),
            gateway: Some("https://secure.ccavenue.com/transaction/transaction.do".into()),
            note: String::new(),
            refunded_at: None,
            refunded_by: None,
        }
    }

    fn answer(json: &str) -> String {
        format!("status=0&enc_response={}\n", crypto::encrypt(json, KEY))
    }

    #[test]
    fn paid_statuses_with_matching_amount_and_currency() {
        for json in [
            r#"{"order_no":"ORD1","order_status":"Shipped","order_amt":219.0,"order_currncy":"USD","status":0}"#,
            r#"{"order_status":"Successful","order_amt":"219.00","order_currncy":"USD"}"#,
            r#"{"Order_Status_Result":{"order_status":"Success","order_amt":219,"order_currncy":"USD","status":"0"}}"#,
        ] {
            assert_eq!(read_answer(&answer(json), KEY, &order()), Confirmation::Paid, "{json}");
        }
    }

    #[test]
    fn clear_refusals() {
        for json in [
            r#"{"order_status":"Unsuccessful","order_amt":219.0,"order_currncy":"USD"}"#,
            r#"{"order_status":"Aborted","order_amt":219.0,"order_currncy":"USD"}"#,
            r#"{"order_status":"Shipped","order_amt":1.0,"order_currncy":"USD"}"#,
            r#"{"order_status":"Shipped","order_amt":219.01,"order_currncy":"USD"}"#,
            r#"{"order_status":"Shipped","order_amt":"218.995","order_currncy":"USD"}"#,
            r#"{"order_status":"Shipped","order_amt":219.001,"order_currncy":"USD"}"#,
            r#"{"order_status":"Shipped","order_currncy":"USD"}"#,
            r#"{"order_status":"Shipped","order_amt":219.0,"order_currncy":"INR"}"#,
            r#"{"order_status":"Shipped","order_amt":219.0}"#,
            r#"{"order_no":"ORD2","order_status":"Shipped","order_amt":219.0,"order_currncy":"USD"}"#,
        ] {
            assert!(matches!(read_answer(&answer(json), KEY, &order()), Confirmation::NotPaid(_)), "{json}");
        }
    }

    #[test]
    fn no_usable_answer() {
        let good = r#"{"order_status":"Shipped","order_amt":219.0,"order_currncy":"USD"}"#;
        for body in [
            String::new(),
            "status=1&enc_response=Access code is invalid".into(),
            format!("enc_response={}", crypto::encrypt(good, KEY)),
            "status=0".into(),
            "status=0&enc_response=zz".into(),
            format!("status=0&enc_response={}", crypto::encrypt(good, "another key")),
            answer("not json"),
            answer(r#"{"status":1,"error_desc":"Reference number not found"}"#),
            answer(r#"{"order_status":"Awaited","order_amt":219.0,"order_currncy":"USD"}"#),
            answer(r#"{"order_amt":219.0,"order_currncy":"USD"}"#),
        ] {
            assert!(matches!(read_answer(&body, KEY, &order()), Confirmation::Unknown(_)), "{body}");
        }
    }
}
