//! Peer review (issue 32, DESIGN.md section 15). So far: the conflict rules that keep a
//! reviewer away from a paper ([`conflicts`]), applied before any assignment.

pub mod anonymous;
pub mod conflicts;
pub mod form;
pub mod reviewing;
