//! Editions (DESIGN.md section 17): the conference is annual; what moves one edition to the
//! next, and what the site shows between two.

/// Whether the current edition is over: the home page's "took place" in the countdown's place.
pub mod between;
/// The next edition's content seed drafted from the one in force: dates moved, the year
/// changed in the site's names, the old year's other mentions listed.
pub mod seed;
