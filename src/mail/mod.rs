//! Mail (DESIGN.md section 8): mails are queued in the `outbox` table inside the transaction
//! of what caused them, and a background worker sends them with retries and back-off.

pub mod outbox;

pub use outbox::{Attachment, OutgoingMail, enqueue};
