//! The certificates' back-office pages (`crate::handlers::organiser::certificates`): the
//! counts, the Release button and the issued certificates ([`CertificatesPage`]), and the
//! step before a revoke ([`RevokePage`]).

use askama::Template;

use crate::attendance::certificates;
use crate::clock::zone::Zone;
use crate::repo::certificates::Certificate;
use crate::views::layout::Layout;
use crate::views::organiser::shared::{Moment, Pager, when};

/// A certificate's revoke: GET asks for the reason and a confirmation (the list's Revoke
/// link), POST (`reason`) revokes.
pub const REVOKE: &str = "/organiser/certificates/{code}/revoke";

/// Where a certificate's Reissue form posts (`name`).
pub const REISSUE: &str = "/organiser/certificates/{code}/reissue";

/// One issued certificate of the list.
pub struct Row {
    pub code: String,
    pub verify: String,
    pub name: String,
    pub email: String,
    pub kind: &'static str,
    /// The paper's reference and title, for a presentation certificate.
    pub paper: Option<String>,
    pub issued_at: Moment,
    /// "Valid", "Revoked" or "Replaced by <code>".
    pub status: String,
    pub revocable: bool,
    pub reissuable: bool,
    pub revoke: String,
    pub reissue: String,
    /// The name in the reissue form: the holder's, or what was typed when refused.
    pub typed: String,
    pub error: Option<String>,
}

/// The certificates page: the counts, the Release button and a page of issued certificates.
#[derive(Template)]
#[template(path = "organiser/certificates.html")]
pub struct CertificatesPage {
    pub layout: Layout,
    pub notice: Option<String>,
    pub problem: Option<String>,
    /// How many releases, when the last was and by whom; `None` before the first.
    pub released: Option<(i64, Moment, String)>,
    /// When releasing opens, before the conference's last day; `None` once it may.
    pub opens: Option<String>,
    /// (what, valid, revoked) per kind.
    pub counts: Vec<(&'static str, i64, i64)>,
    /// What a release would issue now: (attendance, presentation).
    pub waiting: (usize, usize),
    pub release_action: &'static str,
    pub search: String,
    pub rows: Vec<Row>,
    pub pager: Pager,
    pub name_max: usize,
}

/// A reissue refused for its name: the certificate, what was typed and why.
pub struct NameRefused {
    pub code: String,
    pub typed: String,
    pub error: String,
}

/// Certificate `c` as the list shows it (its verify address under `base_url`, its time in
/// `zone`), with the name typed and its error when its reissue was `refused`.
pub fn row(c: Certificate, base_url: &str, refused: Option<&NameRefused>, zone: &Zone) -> Row {
    let typed = refused.filter(|r| r.code == c.code);
    let status = match (&c.revoked_at, &c.replaced_by) {
        (None, _) => "Valid".to_owned(),
        (Some(_), None) => "Revoked".to_owned(),
        (Some(_), Some(by)) => format!("Replaced by {by}"),
    };
    Row {
        verify: certificates::verify_url(base_url, &c.code),
        revoke: REVOKE.replace("{code}", &c.code),
        reissue: REISSUE.replace("{code}", &c.code),
        name: c.holder_name.clone(),
        typed: typed.map_or_else(|| c.holder_name.clone(), |r| r.typed.clone()),
        error: typed.map(|r| r.error.clone()),
        email: c.email,
        kind: certificates::kind_label(&c.kind),
        paper: c.reference.as_ref().map(|r| format!("{r} · {}", c.title.clone().unwrap_or_default())),
        issued_at: when(&c.issued_at, zone),
        revocable: c.revoked_at.is_none(),
        reissuable: c.replaced_by.is_none(),
        status,
        code: c.code,
    }
}

/// The step before a revoke: the certificate, what revoking does, and the reason asked for.
#[derive(Template)]
#[template(path = "organiser/certificate_revoke.html")]
pub struct RevokePage {
    pub layout: Layout,
    pub code: String,
    pub name: String,
    pub email: String,
    pub kind: &'static str,
    pub paper: Option<String>,
    pub issued_at: Moment,
    pub action: String,
    /// The reason as typed, and why it was refused.
    pub reason: String,
    pub error: Option<String>,
    pub reason_max: usize,
}

impl RevokePage {
    /// The step before revoking `c` (its time in `zone`), with the `reason` as typed and why
    /// it was refused.
    pub fn new(layout: Layout, c: Certificate, zone: &Zone, reason: String, error: Option<String>) -> RevokePage {
        RevokePage {
            layout,
            action: REVOKE.replace("{code}", &c.code),
            name: c.holder_name,
            email: c.email,
            kind: certificates::kind_label(&c.kind),
            paper: c.reference.as_ref().map(|r| format!("{r} · {}", c.title.clone().unwrap_or_default())),
            issued_at: when(&c.issued_at, zone),
            code: c.code,
            reason,
            error,
            reason_max: certificates::REASON_MAX_CHARS,
        }
    }
}
