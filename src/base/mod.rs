//! Small pieces every layer uses, kept low so that none of their users imports upward:
//! amounts in cents, the client's address behind proxies, operating-system tuning, and the
//! random secrets of links and sessions, which every role's sign-in, the status links and the
//! attendee links use.

/// The client address of a request (`TRUSTED_PROXIES`-aware).
pub mod client_ip;
/// Amounts in cents.
pub mod money;
/// Random link tokens and session ids, stored as their SHA-256 (OWASP Session Management).
pub mod secrets;
/// Operating-system tuning: allocator, open-file limit, thread priority.
pub mod sys;
