//! What visitors type: the rules every form shares, and the paper form's options.

/// The paper form's options.
pub mod paper_form;
/// Rules for what visitors type, shared by every form.
pub mod validate;
