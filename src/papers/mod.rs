//! Papers as files: what type a file is by its content (`filetype`), and the references and
//! names they are kept under (`files`); an author submitting one (`submit`: the form's
//! fields checked by `fields`, its mails `submission_mails`).

pub mod fields;
pub mod files;
pub mod filetype;
pub mod submission_mails;
pub mod submit;
