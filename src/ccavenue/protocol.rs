//! The CCAvenue messages: the request we encrypt and the answer the gateway sends back.
//!
//! Both are form-urlencoded query strings, field names as in CCAvenue's integration kit
//! (DESIGN.md section 6; spec sections 3 and 7). Values are always URL-encoded, so a
//! visitor's `&` or `=` can never add or replace a field, and answers are parsed as real
//! form data (never by splitting on commas, the old site's defect).

/// The order request, in the field order CCAvenue's kit sends it.
///
/// `amount` is the decimal string the gateway charges, two decimals (e.g. `"219.00"`,
/// see [`crate::base::money::format_cents`]). Optional fields that are `None` (or empty) are left
/// out of the query string; sponsor orders carry only the required fields plus, at most,
/// `billing_name` and `billing_email` (spec section 3).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PaymentRequest {
    /// CCAvenue merchant id.
    pub merchant_id: String,
    /// Our order id, see [`super::order_id::generate_order_id`].
    pub order_id: String,
    /// ISO currency code, `USD` (spec section 9).
    pub currency: String,
    /// Amount with two decimals, e.g. `"219.00"`.
    pub amount: String,
    /// Where the gateway posts the answer (`/api/ccavenue-handle`).
    pub redirect_url: String,
    /// Where the gateway posts a cancelled payment (also `/api/ccavenue-handle`).
    pub cancel_url: String,
    /// Gateway page language, `EN`.
    pub language: String,
    /// Payer's name.
    pub billing_name: Option<String>,
    /// Payer's street address.
    pub billing_address: Option<String>,
    /// Payer's city.
    pub billing_city: Option<String>,
    /// Payer's state.
    pub billing_state: Option<String>,
    /// Payer's postal code.
    pub billing_zip: Option<String>,
    /// Payer's country.
    pub billing_country: Option<String>,
    /// Payer's phone.
    pub billing_tel: Option<String>,
    /// Payer's e-mail.
    pub billing_email: Option<String>,
    /// Free merchant field 1, echoed back by the gateway.
    pub merchant_param1: Option<String>,
    /// Free merchant field 2, echoed back by the gateway.
    pub merchant_param2: Option<String>,
    /// Free merchant field 3, echoed back by the gateway.
    pub merchant_param3: Option<String>,
    /// Free merchant field 4, echoed back by the gateway.
    pub merchant_param4: Option<String>,
}

impl PaymentRequest {
    /// A request with the required fields, `language` `EN` and no optional fields.
    pub fn new(
        merchant_id: impl Into<String>,
        order_id: impl Into<String>,
        currency: impl Into<String>,
        amount: impl Into<String>,
        redirect_url: impl Into<String>,
        cancel_url: impl Into<String>,
    ) -> Self {
        PaymentRequest {
            merchant_id: merchant_id.into(),
            order_id: order_id.into(),
            currency: currency.into(),
            amount: amount.into(),
            redirect_url: redirect_url.into(),
            cancel_url: cancel_url.into(),
            language: "EN".to_owned(),
            ..Default::default()
        }
    }

    /// The plain text to encrypt: `merchant_id=..&order_id=..&currency=..&amount=..&
    /// redirect_url=..&cancel_url=..&language=..&billing_...&merchant_param1..4`,
    /// values form-urlencoded, absent (`None` or empty) optional fields omitted.
    pub fn to_query_string(&self) -> String {
        let mut pairs: Vec<(&str, &str)> = vec![
            ("merchant_id", &self.merchant_id),
            ("order_id", &self.order_id),
            ("currency", &self.currency),
            ("amount", &self.amount),
            ("redirect_url", &self.redirect_url),
            ("cancel_url", &self.cancel_url),
            ("language", &self.language),
        ];
        let optional = [
            ("billing_name", &self.billing_name),
            ("billing_address", &self.billing_address),
            ("billing_city", &self.billing_city),
            ("billing_state", &self.billing_state),
            ("billing_zip", &self.billing_zip),
            ("billing_country", &self.billing_country),
            ("billing_tel", &self.billing_tel),
            ("billing_email", &self.billing_email),
            ("merchant_param1", &self.merchant_param1),
            ("merchant_param2", &self.merchant_param2),
            ("merchant_param3", &self.merchant_param3),
            ("merchant_param4", &self.merchant_param4),
        ];
        pairs.extend(optional.iter().filter_map(|(k, v)| match v {
            Some(v) if !v.is_empty() => Some((*k, v.as_str())),
            _ => None,
        }));
        encode_pairs(&pairs)
    }
}

/// Form-urlencodes name/value pairs in order.
fn encode_pairs(pairs: &[(&str, &str)]) -> String {
    serde_urlencoded::to_string(pairs).expect("string pairs always serialize")
}

/// CCAvenue's `order_status` (integration kit): only `Success` means paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderStatus {
    /// `Success`: the payment went through.
    Success,
    /// `Failure`: declined.
    Failure,
    /// `Aborted`: the payer cancelled.
    Aborted,
    /// `Invalid`: the gateway rejected the request.
    Invalid,
    /// Any other value (e.g. `Timeout`, `Awaited`); callers treat it as a failure.
    Other(String),
}

impl OrderStatus {
    /// Maps the gateway's value, case-sensitively as the kit documents it.
    pub fn from_gateway(value: &str) -> OrderStatus {
        match value {
            "Success" => OrderStatus::Success,
            "Failure" => OrderStatus::Failure,
            "Aborted" => OrderStatus::Aborted,
            "Invalid" => OrderStatus::Invalid,
            other => OrderStatus::Other(other.to_owned()),
        }
    }

    /// The gateway's spelling of this status.
    pub fn as_str(&self) -> &str {
        match self {
            OrderStatus::Success => "Success",
            OrderStatus::Failure => "Failure",
            OrderStatus::Aborted => "Aborted",
            OrderStatus::Invalid => "Invalid",
            OrderStatus::Other(s) => s,
        }
    }

    /// True only for [`OrderStatus::Success`].
    pub fn is_success(&self) -> bool {
        *self == OrderStatus::Success
    }
}

/// Why a decrypted answer was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// The text is not form-urlencoded data.
    #[error("response is not form-urlencoded: {0}")]
    Malformed(String),
    /// A required field (`order_id`, `order_status`, `amount`, `currency`) is absent or empty.
    #[error("response lacks field {0}")]
    MissingField(&'static str),
    /// A checked field appears more than once, so which value counts would be ambiguous.
    #[error("response repeats field {0}")]
    DuplicateField(&'static str),
}

/// The fields of the gateway's answer (`encResp`, decrypted) that we read and store.
///
/// All are kept as sent; absent ones are empty. Other fields are ignored.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PaymentResponse {
    /// Our order id, echoed.
    pub order_id: String,
    /// CCAvenue's reference for the transaction (named on the receipt).
    pub tracking_id: String,
    /// The bank's reference.
    pub bank_ref_no: String,
    /// `Success`, `Failure`, `Aborted`, `Invalid`, ...; see [`PaymentResponse::status`].
    pub order_status: String,
    /// The gateway's reason for a failure.
    pub failure_message: String,
    /// E.g. `Credit Card`.
    pub payment_mode: String,
    /// E.g. `Visa`.
    pub card_name: String,
    /// The gateway's status code.
    pub status_code: String,
    /// The gateway's status text.
    pub status_message: String,
    /// Currency charged; must match the stored order.
    pub currency: String,
    /// Amount charged (decimal string); must match the stored order.
    pub amount: String,
    /// Transaction date as the gateway writes it.
    pub trans_date: String,
    /// Payer's name as the gateway saw it.
    pub billing_name: String,
    /// Payer's e-mail as the gateway saw it.
    pub billing_email: String,
}

/// Fields that must be present, non-empty and unique in an answer.
const CHECKED: [&str; 4] = ["order_id", "order_status", "amount", "currency"];

impl PaymentResponse {
    /// Parses a decrypted answer (form-urlencoded).
    ///
    /// `order_id`, `order_status`, `amount` and `currency` must each appear exactly once and
    /// be non-empty; for other fields a repeat is ignored (the first value counts).
    pub fn parse(plain: &str) -> Result<PaymentResponse, ProtocolError> {
        let pairs: Vec<(String, String)> =
            serde_urlencoded::from_str(plain).map_err(|e| ProtocolError::Malformed(e.to_string()))?;
        let mut r = PaymentResponse::default();
        let mut seen: Vec<&'static str> = Vec::new();
        for (key, value) in pairs {
            let Some((name, slot)) = r.field_mut(&key) else {
                continue;
            };
            if seen.contains(&name) {
                if CHECKED.contains(&name) {
                    return Err(ProtocolError::DuplicateField(name));
                }
                continue;
            }
            seen.push(name);
            *slot = value;
        }
        for name in CHECKED {
            let value = match name {
                "order_id" => &r.order_id,
                "order_status" => &r.order_status,
                "amount" => &r.amount,
                _ => &r.currency,
            };
            if value.is_empty() {
                return Err(ProtocolError::MissingField(name));
            }
        }
        Ok(r)
    }

    /// The parsed `order_status`.
    pub fn status(&self) -> OrderStatus {
        OrderStatus::from_gateway(&self.order_status)
    }

    /// The answer as the gateway would send it, every field present (the built-in test
    /// gateway encrypts this).
    pub fn to_query_string(&self) -> String {
        encode_pairs(&self.fields())
    }

    /// All fields in the gateway's order, with their names.
    fn fields(&self) -> [(&'static str, &str); 14] {
        [
            ("order_id", &self.order_id),
            ("tracking_id", &self.tracking_id),
            ("bank_ref_no", &self.bank_ref_no),
            ("order_status", &self.order_status),
            ("failure_message", &self.failure_message),
            ("payment_mode", &self.payment_mode),
            ("card_name", &self.card_name),
            ("status_code", &self.status_code),
            ("status_message", &self.status_message),
            ("currency", &self.currency),
            ("amount", &self.amount),
            ("trans_date", &self.trans_date),
            ("billing_name", &self.billing_name),
            ("billing_email", &self.billing_email),
        ]
    }

    /// The field named `key`, if it is one we keep.
    fn field_mut(&mut self, key: &str) -> Option<(&'static str, &mut String)> {
        Some(match key {
            "order_id" => ("order_id", &mut self.order_id),
            "tracking_id" => ("tracking_id", &mut self.tracking_id),
            "bank_ref_no" => ("bank_ref_no", &mut self.bank_ref_no),
            "order_status" => ("order_status", &mut self.order_status),
            "failure_message" => ("failure_message", &mut self.failure_message),
            "payment_mode" => ("payment_mode", &mut self.payment_mode),
            "card_name" => ("card_name", &mut self.card_name),
            "status_code" => ("status_code", &mut self.status_code),
            "status_message" => ("status_message", &mut self.status_message),
            "currency" => ("currency", &mut self.currency),
            "amount" => ("amount", &mut self.amount),
            "trans_date" => ("trans_date", &mut self.trans_date),
            "billing_name" => ("billing_name", &mut self.billing_name),
            "billing_email" => ("billing_email", &mut self.billing_email),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_request() -> PaymentRequest {
        PaymentRequest {
            billing_name: Some("Ada Lovelace".into()),
            billing_address: Some("12 St James's Sq, Flat 3".into()),
            billing_city: Some("London".into()),
            billing_state: Some("Greater London".into()),
            billing_zip: Some("SW1Y 4JH".into()),
            billing_country: Some("United Kingdom".into()),
            billing_tel: Some("+44 20 7946 0958".into()),
            billing_email: Some("ada@example.org".into()),
            merchant_param1: Some("presenter-virtual".into()),
            merchant_param2: Some("additional info".into()),
            merchant_param3: None,
            merchant_param4: Some(String::new()),
            ..PaymentRequest::new(
                "2345678",
                "ORD1742515200000AB12CD",
                "USD",
                "219.00",
                "https://conf.example.org/api/ccavenue-handle",
                "https://conf.example.org/api/ccavenue-handle",
            )
        }
    }

    #[test]
    fn full_request_query_string() {
        assert_eq!(
            full_request().to_query_string(),
            "merchant_id=2345678&order_id=ORD1742515200000AB12CD&currency=USD&amount=219.00\
             &redirect_url=https%3A%2F%2Fconf.example.org%2Fapi%2Fccavenue-handle\
             &cancel_url=https%3A%2F%2Fconf.example.org%2Fapi%2Fccavenue-handle\
             &language=EN&billing_name=Ada+Lovelace\
             &billing_address=12+St+James%27s+Sq%2C+Flat+3&billing_city=London\
             &billing_state=Greater+London&billing_zip=SW1Y+4JH\
             &billing_country=United+Kingdom&billing_tel=%2B44+20+7946+0958\
             &billing_email=ada%40example.org&merchant_param1=presenter-virtual\
             &merchant_param2=additional+info"
        );
    }

    #[test]
    fn sponsor_request_query_string() {
        let r = PaymentRequest {
            billing_name: Some("Acme Corp".into()),
            billing_email: Some("pay@acme.example".into()),
            ..PaymentRequest::new(
                "2345678",
                "ORD1742515200000ZZ9911",
                "USD",
                "15000.00",
                "https://conf.example.org/api/ccavenue-handle",
                "https://conf.example.org/api/ccavenue-handle",
            )
        };
        assert_eq!(
            r.to_query_string(),
            "merchant_id=2345678&order_id=ORD1742515200000ZZ9911&currency=USD&amount=15000.00\
             &redirect_url=https%3A%2F%2Fconf.example.org%2Fapi%2Fccavenue-handle\
             &cancel_url=https%3A%2F%2Fconf.example.org%2Fapi%2Fccavenue-handle\
             &language=EN&billing_name=Acme+Corp&billing_email=pay%40acme.example"
        );
    }

    #[test]
    fn request_fields_cannot_be_injected() {
        let mut r = full_request();
        r.billing_name = Some("Eve&amount=0.01&order_id=X=Y Zoë 日本".into());
        let q = r.to_query_string();
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(&q).unwrap();
        assert_eq!(pairs.iter().filter(|(k, _)| k == "amount").count(), 1);
        assert_eq!(pairs.iter().filter(|(k, _)| k == "order_id").count(), 1);
        let get = |k: &str| pairs.iter().find(|(n, _)| n == k).unwrap().1.clone();
        assert_eq!(get("amount"), "219.00");
        assert_eq!(get("order_id"), "ORD1742515200000AB12CD");
        assert_eq!(get("billing_name"), "Eve&amount=0.01&order_id=X=Y Zoë 日本");
        assert!(q.contains("billing_name=Eve%26amount%3D0.01%26order_id%3DX%3DY+Zo%C3%AB+%E6%97%A5%E6%9C%AC&"));
        assert!(q.is_ascii());
    }

    const REAL_ANSWER: &str = "order_id=ORD1742515200000AB12CD&tracking_id=312345678901\
        &bank_ref_no=1742515299123&order_status=Success&failure_message=\
        &payment_mode=Credit+Card&card_name=Visa&status_code=null&status_message=Approved\
        &currency=USD&amount=219.00&billing_name=Ada+Lovelace&billing_address=12+St+James%27s+Sq\
        &billing_city=London&billing_state=&billing_zip=SW1Y+4JH&billing_country=United+Kingdom\
        &billing_tel=%2B442079460958&billing_email=ada%40example.org&delivery_name=\
        &merchant_param1=presenter-virtual&merchant_param2=&merchant_param3=&merchant_param4=\
        &merchant_param5=&vault=N&offer_type=null&offer_code=null&discount_value=0.0\
        &mer_amount=219.00&eci_value=05&retry=N&response_code=0&billing_notes=\
        &trans_date=21%2F03%2F2025+10%3A15%3A02&bin_country=UNITED+KINGDOM";

    #[test]
    fn parses_realistic_answer() {
        let r = PaymentResponse::parse(REAL_ANSWER).unwrap();
        assert_eq!(
            r,
            PaymentResponse {
                order_id: "ORD1742515200000AB12CD".into(),
                tracking_id: "312345678901".into(),
                bank_ref_no: "1742515299123".into(),
                order_status: "Success".into(),
                failure_message: String::new(),
                payment_mode: "Credit Card".into(),
                card_name: "Visa".into(),
                status_code: "null".into(),
                status_message: "Approved".into(),
                currency: "USD".into(),
                amount: "219.00".into(),
                trans_date: "21/03/2025 10:15:02".into(),
                billing_name: "Ada Lovelace".into(),
                billing_email: "ada@example.org".into(),
            }
        );
        assert_eq!(r.status(), OrderStatus::Success);
        assert!(r.status().is_success());
    }

    #[test]
    fn response_round_trips_through_query_string() {
        let r = PaymentResponse::parse(REAL_ANSWER).unwrap();
        let q = r.to_query_string();
        assert!(q.starts_with("order_id=ORD1742515200000AB12CD&tracking_id=312345678901&"));
        assert!(q.contains("&failure_message=&"));
        assert_eq!(PaymentResponse::parse(&q), Ok(r));
    }

    #[test]
    fn missing_required_fields() {
        let base = "order_id=ORD1&order_status=Failure&amount=99.00&currency=USD";
        assert!(PaymentResponse::parse(base).is_ok());
        for name in CHECKED {
            let without: Vec<&str> = base.split('&').filter(|p| !p.starts_with(&format!("{name}="))).collect();
            assert_eq!(PaymentResponse::parse(&without.join("&")), Err(ProtocolError::MissingField(name)));
            // present but empty counts as missing
            let empty = base.replace(&format!("{name}="), &format!("{name}=&x="));
            assert_eq!(PaymentResponse::parse(&empty), Err(ProtocolError::MissingField(name)));
        }
        assert_eq!(PaymentResponse::parse(""), Err(ProtocolError::MissingField("order_id")));
        // Not form data at all: nothing we know is found.
        assert_eq!(PaymentResponse::parse("Success,ORD1,99.00,USD"), Err(ProtocolError::MissingField("order_id")));
    }

    #[test]
    fn encoded_ampersand_and_commas_stay_in_the_value() {
        let q = "order_id=ORD1&order_status=Failure&amount=99.00&currency=USD\
                 &failure_message=Card+declined%2C+try+again+%26+amount%3D1.00\
                 &billing_name=Smith%2C+J";
        let r = PaymentResponse::parse(q).unwrap();
        assert_eq!(r.failure_message, "Card declined, try again & amount=1.00");
        assert_eq!(r.billing_name, "Smith, J");
        assert_eq!(r.amount, "99.00");
        assert_eq!(r.status(), OrderStatus::Failure);
    }

    #[test]
    fn duplicate_checked_fields_are_rejected() {
        let base = "order_id=ORD1&order_status=Failure&amount=99.00&currency=USD";
        for (name, value) in
            [("order_id", "ORD2"), ("order_status", "Success"), ("amount", "0.01"), ("currency", "INR")]
        {
            let q = format!("{base}&{name}={value}");
            assert_eq!(PaymentResponse::parse(&q), Err(ProtocolError::DuplicateField(name)));
        }
        // A repeated unchecked field keeps its first value.
        let r = PaymentResponse::parse(&format!("{base}&tracking_id=1&tracking_id=2")).unwrap();
        assert_eq!(r.tracking_id, "1");
    }

    #[test]
    fn order_status_mapping() {
        for (s, st) in [
            ("Success", OrderStatus::Success),
            ("Failure", OrderStatus::Failure),
            ("Aborted", OrderStatus::Aborted),
            ("Invalid", OrderStatus::Invalid),
        ] {
            assert_eq!(OrderStatus::from_gateway(s), st);
            assert_eq!(st.as_str(), s);
        }
        for s in ["Timeout", "Awaited", "success", "SUCCESS", " Success", ""] {
            let st = OrderStatus::from_gateway(s);
            assert_eq!(st, OrderStatus::Other(s.to_owned()));
            assert!(!st.is_success());
            assert_eq!(st.as_str(), s);
        }
        assert!(!OrderStatus::Aborted.is_success());
    }
}
