//! An author submitting a paper (spec section 3 "Paper submission", DESIGN.md section 5): the
//! form's fields checked ([`fields`]), the paper, its row and its status link kept in one
//! step with the calendar's deadline re-checked ([`submit`]), and the two mails it sends
//! ([`mails`]); where the author's private status link points ([`status_link`]). The paper itself, as a file, is `crate::papers`; the multipart body is read
//! by `crate::handlers::api::submission`.

pub mod fields;
pub mod mails;
pub mod status_link;
pub mod submit;
