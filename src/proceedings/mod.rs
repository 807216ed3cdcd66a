//! Proceedings (DESIGN.md section 18): what an accepted paper's final version must be before it
//! goes into the volume, and its author handing it in.

/// The author's camera-ready step through the status link: the final PDF, the paper's
/// details and the licence, each replaceable until the volume is locked.
pub mod camera_ready;
/// Title, abstract, keywords and the ordered author list as the author types them, checked.
pub mod details;
/// The format check of a camera-ready PDF: page size, page count, embedded fonts, text on
/// every page, no encryption or JavaScript, file size.
pub mod format_check;
/// The licence authors accept, with the version stored with each acceptance.
pub mod licence;
/// ORCID iDs and their ISO 7064 MOD 11-2 check character.
pub mod orcid;
