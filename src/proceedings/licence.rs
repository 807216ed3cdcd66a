//! The licence authors accept for their camera-ready paper (DESIGN.md section 18): CC BY 4.0.
//! The acceptance is stored with [`Licence::version`], so a later change of the text never
//! rewrites what an author agreed to. The seed has no licence setting yet, so this is the
//! one licence offered; a seeded one would replace [`LICENCE`] where
//! `crate::proceedings::camera_ready` reads it.

/// A licence as the camera-ready step shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Licence {
    /// `Creative Commons Attribution 4.0 International (CC BY 4.0)`.
    pub name: &'static str,
    /// Names the text accepted: stored with each acceptance.
    pub version: &'static str,
    /// The legal code.
    pub url: &'static str,
    /// What the author agrees to, in one paragraph.
    pub summary: &'static str,
}

/// The default licence of DESIGN.md section 18.
pub const LICENCE: Licence = Licence {
    name: "Creative Commons Attribution 4.0 International (CC BY 4.0)",
    version: "CC-BY-4.0 legal code, 25 November 2013",
    url: "https://creativecommons.org/licenses/by/4.0/legalcode",
    summary: "The authors keep the copyright of the paper and license it to everyone under CC BY 4.0: anyone may \
              share and adapt it, for any purpose, as long as they credit the authors and the proceedings, link \
              to the licence and say what they changed. The authors confirm that they may grant this licence for \
              the whole paper, including its figures and tables.",
};
