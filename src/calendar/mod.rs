//! The conference calendar (issue 42, DESIGN.md section 20): the operational deadlines, what
//! a value means ([`deadline`]), which value is in force ([`settings`]), changing them as an
//! organiser or from the command line ([`change`]), and the forms they close ([`gates`]).

pub mod change;
pub mod deadline;
pub mod gates;
pub mod settings;
