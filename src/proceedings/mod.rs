//! Proceedings (DESIGN.md section 18): what an accepted paper's final version must be before it
//! goes into the volume.

/// The format check of a camera-ready PDF: page size, page count, embedded fonts, text on
/// every page, no encryption or JavaScript, file size.
pub mod format_check;
