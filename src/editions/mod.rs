//! Editions (DESIGN.md section 17): the conference is annual; what moves one edition to the
//! next, and what the site shows between two.

/// The static archive of an edition: where each page and file lies under `/<year>/`, and
/// the pages rewritten to stand alone (links into the archive, no form that posts, a banner).
pub mod archive;
/// Whether the current edition is over: the home page's "took place" in the countdown's place.
pub mod between;
/// The next edition's content seed drafted from the one in force: dates moved, the year
/// changed in the site's names, the old year's other mentions listed.
pub mod seed;
