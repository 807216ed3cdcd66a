//! Mail (DESIGN.md section 8): mails are queued in the `outbox` table inside the transaction
//! of what caused them, and a background [`Worker`] sends them with retries and back-off
//! through one [`MailTransport`] (SMTP when `SMTP_URL` is set, `.eml` files under
//! `DATA_DIR/mail` otherwise).
//!
//! A feature that mails someone:
//!
//! ```ignore
//! let ctx = mail::Context::load(&pool, &config).await?;         // site + addresses
//! let mail = mail::compose(&ctx.addresses.organisers, subject,
//!                          &MyText { site: &ctx.site, .. },    // templates/mail/my.txt
//!                          &MyHtml { site: &ctx.site, .. })?   // templates/mail/my.html
//!     .reply_to(visitor_email);
//! let mut tx = crate::db::begin_write(pool).await?;
//! /* store the row that causes the mail */
//! mail::enqueue(&mut tx, &mail).await?;
//! tx.commit().await?;
//! ```
//!
//! Mail templates extend `mail/layout.txt` and `mail/layout.html` (block `body`), so every
//! mail template struct has a `site: &MailSite` field the layouts read.

pub mod compose;
pub mod consent;
pub mod contact;
pub mod messages;
pub mod outbox;
pub mod transport;
pub mod worker;

pub use compose::{Addresses, Context, MailSite, compose};
pub use outbox::{Attachment, OutgoingMail, enqueue};
pub use transport::{MailTransport, SendError};
pub use worker::{RunSummary, Worker};
