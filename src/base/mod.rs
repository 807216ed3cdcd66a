//! Small pieces every layer uses, kept low so that none of their users imports upward:
//! amounts in cents, the client's address behind proxies, operating-system tuning.

/// The client address of a request (`TRUSTED_PROXIES`-aware).
pub mod client_ip;
/// Amounts in cents.
pub mod money;
/// Operating-system tuning: allocator, open-file limit, thread priority.
pub mod sys;
