//! The conference calendar (issue 42, DESIGN.md section 20): the operational deadlines, what
//! a value means ([`deadline`]), which value is in force ([`settings`]), changing them as an
//! organiser or from the command line ([`change`]), the forms they close ([`gates`]), and the
//! calendar in words for the settings page ([`overview`]).

pub mod change;
pub mod deadline;
pub mod gates;
pub mod overview;
pub mod settings;
