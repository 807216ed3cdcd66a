//! Attendees (issue 33, DESIGN.md section 16): what a paid registration brings after the
//! payment. [`issue`] makes an order's ticket, attendee link and numbered receipt in the
//! transaction that records the payment; [`tickets`] holds the codes the QR carries and the
//! rule for changing the name on a ticket; [`links`] the private `/attendee/<token>` links; [`attendee`] what such a
//! link opens and the name change its holder makes;
//! [`check_in`] the registration desk's answers to a code;
//! [`receipts`] the gapless numbers and the documents as issued, credit notes included;
//! [`qr`] draws a QR code as SVG; [`resend`] mails a new link ("send my link again"); [`streams`] the online sessions' stream links an attendee
//! page lists. SQL in [`crate::repo::attendees`], [`crate::repo::receipts`] and
//! [`crate::repo::streams`].

pub mod attendee;
pub mod certificates;
pub mod check_in;
pub mod desk_limit;
pub mod documents;
pub mod issue;
pub mod links;
pub mod qr;
pub mod receipts;
pub mod resend;
pub mod streams;
pub mod tickets;
