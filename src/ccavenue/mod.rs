//! CCAvenue: the Indian card gateway the conference takes payments through.
//!
//! The browser never talks to CCAvenue with readable data. The server builds the order as a
//! form-urlencoded query string ([`protocol::PaymentRequest`]), encrypts it
//! ([`crypto::encrypt`]) and hands the cipher text (`encRequest`) plus the access code to the
//! browser, which POSTs them to the gateway. The gateway answers by POSTing `encResp` to our
//! `redirect_url`/`cancel_url`; the server decrypts it ([`crypto::decrypt`]) and parses it
//! ([`protocol::PaymentResponse::parse`]).
//!
//! The wire rules (AES-128-CBC keyed with MD5 of the working key, the fixed IV `00..0f`,
//! PKCS#7, lowercase hex; the field names of the request and of the answer; the
//! `order_status` values) come from CCAvenue's merchant integration kit, as restated in
//! DESIGN.md section 6 and the spec (sections 3 and 7).
//!
//! Everything here is pure: no I/O, no database, no clock except
//! [`order_id::generate_order_id`].

pub mod crypto;
pub mod order_id;
pub mod protocol;
