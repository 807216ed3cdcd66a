//! Papers as files: what type a file is by its content (`filetype`), and the references and
//! names they are kept under (`files`). An author submitting one is `crate::submissions`.

pub mod files;
pub mod filetype;
