//! Payments: registration, custom and sponsor orders paid through CCAvenue (`live`), the
//! built-in TEST gateway (`test`), or not at all (`off`): `PAYMENTS_MODE`, DESIGN.md sections 5
//! and 6.
//!
//! [`config`] says which mode, gateway and keys are in use; [`orders`] creates orders and decides
//! them from the gateway's answer; [`status_api`] confirms a `Success` with CCAvenue's order
//! status call (through `reqwest` in [`http`]); [`receipt`] renders the mails of a paid
//! order; [`by_hand`] records what organisers note or refund on an order by hand. The wire format itself lives in [`crate::ccavenue`], amounts in [`crate::base::money`],
//! SQL in [`crate::repo::orders`].

pub mod by_hand;
pub mod checkout;
pub mod config;
pub mod http;
pub mod orders;
pub mod receipt;
pub mod status_api;

pub use config::PaymentConfig;
