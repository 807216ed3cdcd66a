//! Certificates (issue 33 item 5, DESIGN.md section 16): organisers release them after the
//! conference; each person gets one mail listing theirs, with the PDF and the public verify
//! page of each (`PUBLIC_URL/certificates/<code>`).
//!
//! Who gets one:
//! - an attendance certificate per ticket that is not refunded and is virtual or was checked
//!   in at the desk at least once; it names the ticket's holder and goes to the order's address;
//! - a presentation certificate per paper of the latest published programme that is accepted
//!   now; it names the presenter as published and the paper's title, and goes to the
//!   submitting author's address (the only address a paper has).
//!
//! Releasing again issues only what is missing: a ticket checked in late, a paper accepted and
//! published late. A ticket or paper with a certificate, valid or revoked, gets none again; a
//! revoked one comes back only by a reissue. Each release mails only the people it issued
//! something to, once (the outbox's dedupe key names the person and the release), listing all
//! their valid certificates. Releases take turns on the `certificate_release` row, so two
//! organisers or two instances releasing at once issue and mail everything once.
//!
//! SQL in [`crate::repo::certificates`].

use std::collections::{BTreeMap, BTreeSet};

use askama::Template;
use rust_embed::RustEmbed;
use serde_json::json;
use time::OffsetDateTime;

use super::documents::{CertificateDocument, Signatory};
use super::tickets;
use crate::clock::stamp::timestamp;
use crate::clock::zone::Zone;
use crate::db::{self, Pool};
use crate::error::{AppError, Outcome, Refused};
use crate::mail::{self, Context, MailSite};
use crate::repo::audit::{self, Actor};
use crate::repo::certificates::{self as store, Certificate, NewCertificate};
use crate::repo::content::Site;
use crate::repo::published::Published;

/// Where a certificate's public pages live: `/certificates/<code>` and `/certificates/<code>.pdf`.
pub const PREFIX: &str = "/certificates/";

/// The PDF's suffix after the code.
pub const PDF_SUFFIX: &str = ".pdf";

/// The signature images the seed names (`certificate_signatories.signature`), built into the
/// binary like the seed itself and never served on their own.
#[derive(RustEmbed)]
#[folder = "seed/signatures/"]
struct Signatures;

/// The verify page of `code`: `PUBLIC_URL/certificates/<code>` (`base_url` without a
/// trailing slash). Printed and in the QR of the PDF.
pub fn verify_url(base_url: &str, code: &str) -> String {
    format!("{base_url}{PREFIX}{code}")
}

/// The PDF of `code`: `PUBLIC_URL/certificates/<code>.pdf`.
pub fn pdf_url(base_url: &str, code: &str) -> String {
    format!("{base_url}{PREFIX}{code}{PDF_SUFFIX}")
}

/// What the last segment of a certificate's address asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// The verify page of this code (normalised).
    Page(String),
    /// The PDF of this code (normalised).
    Pdf(String),
}

/// Reads `<code>` or `<code>.pdf` (a code as [`tickets::normalise_code`] takes it: base32,
/// any case); `None` for anything else, which never reaches the database.
pub fn asked(segment: &str) -> Option<Asked> {
    match segment.strip_suffix(PDF_SUFFIX) {
        Some(code) => tickets::normalise_code(code).map(Asked::Pdf),
        None => tickets::normalise_code(segment).map(Asked::Page),
    }
}

/// "Attendance" or "Presentation": the type the verify page shows.
pub fn kind_label(kind: &str) -> &'static str {
    match kind {
        "presentation" => "Presentation",
        _ => "Attendance",
    }
}

/// "Certificate of Attendance" or "Certificate of Presentation".
pub fn heading(kind: &str) -> &'static str {
    match kind {
        "presentation" => "Certificate of Presentation",
        _ => "Certificate of Attendance",
    }
}

/// The event a certificate names, from the seed's `site` row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The full name.
    pub name: String,
    /// "21-23 March 2025".
    pub dates: String,
    /// The last day, `YYYY-MM-DD` in the event's zone.
    pub end_date: String,
}

impl Event {
    pub fn of(site: &Site) -> Event {
        Event {
            name: site.name.clone(),
            dates: crate::clock::dates::range_label(&site.start_date, &site.end_date),
            end_date: site.end_date.clone(),
        }
    }
}

/// Whether certificates may be released at `now`: from the conference's last day on, in the
/// event's zone. `Err` with what the organiser reads otherwise.
pub fn release_opens(event: &Event, zone: &Zone, now: OffsetDateTime) -> Result<(), String> {
    let Some(last_day) = crate::clock::dates::parse(&event.end_date) else {
        return Err(format!(
            "The conference's last day in the seed (\"{}\") is not a date, so certificates cannot be released yet. Nothing was issued.",
            event.end_date
        ));
    };
    let today = now.to_offset(zone.offset_at(now)).date();
    if today < last_day {
        return Err(format!(
            "Certificates can be released from the conference's last day, {} ({} time). Nothing was issued.",
            crate::clock::dates::long(&event.end_date),
            zone.city()
        ));
    }
    Ok(())
}

/// The signature image `file` (a file name under `seed/signatures/`, as the seed's
/// `certificate_signatories.signature` gives it) as built into the binary; `None` when the
/// folder had no such file when the binary was built.
pub fn signature_png(file: &str) -> Option<Vec<u8>> {
    Signatures::get(file).map(|f| f.data.into_owned())
}

/// The signatories of the seed in order, with their images (`None` for a row without one, or
/// one whose file is not in `seed/signatures/`, which is logged).
pub async fn signatories(pool: &Pool) -> Result<Vec<Signatory>, sqlx::Error> {
    let rows = store::signatories(pool).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let signature_png = row.signature.as_deref().and_then(|file| {
                let found = signature_png(file);
                if found.is_none() {
                    tracing::warn!(file, name = row.name, "a signatory's signature image is not in seed/signatures/");
                }
                found
            });
            Signatory { name: row.name, role: row.role, signature_png }
        })
        .collect())
}

/// What the PDF of `certificate` shows.
pub fn document(
    certificate: &Certificate,
    event: &Event,
    signatories: Vec<Signatory>,
    base_url: &str,
) -> CertificateDocument {
    CertificateDocument {
        holder_name: certificate.holder_name.clone(),
        heading: heading(&certificate.kind).to_owned(),
        title: certificate.title.clone(),
        event: event.name.clone(),
        dates: event.dates.clone(),
        signatories,
        verify_url: verify_url(base_url, &certificate.code),
    }
}

/// What a release did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Released {
    /// Everyone who earns a certificate has one: nothing issued, no mail, nothing recorded.
    NothingNew,
    /// Release `number` issued these certificates and mailed `mails` people.
    Issued { number: i64, attendance: usize, presentation: usize, mails: usize },
}

/// One certificate as its mail lists it.
pub struct MailItem {
    pub heading: &'static str,
    pub name: String,
    pub title: Option<String>,
    pub pdf: String,
    pub verify: String,
}

/// What the certificates mail shows.
pub struct CertificatesMail {
    pub name: String,
    pub event: String,
    pub dates: String,
    /// Why this mail: the release's words, or a reissue's.
    pub reissued: bool,
    pub items: Vec<MailItem>,
}

#[derive(Template)]
#[template(path = "mail/certificates.txt")]
struct MailText<'a> {
    site: &'a MailSite,
    m: &'a CertificatesMail,
}

#[derive(Template)]
#[template(path = "mail/certificates.html")]
struct MailHtml<'a> {
    site: &'a MailSite,
    m: &'a CertificatesMail,
}

/// The mail to `email` listing `certificates` (not empty), queued on `conn` under `key`.
async fn mail_to(
    conn: &mut db::Connection,
    ctx: &Context,
    event: &Event,
    email: &str,
    certificates: &[Certificate],
    reissued: bool,
    key: String,
) -> Result<(), AppError> {
    let base = &ctx.site.url;
    let items = certificates
        .iter()
        .map(|c| MailItem {
            heading: heading(&c.kind),
            name: c.holder_name.clone(),
            title: c.title.clone(),
            pdf: pdf_url(base, &c.code),
            verify: verify_url(base, &c.code),
        })
        .collect();
    let shown = CertificatesMail {
        name: certificates.first().map(|c| c.holder_name.clone()).unwrap_or_default(),
        event: event.name.clone(),
        dates: event.dates.clone(),
        reissued,
        items,
    };
    let subject = if reissued { "Your corrected certificate" } else { "Your certificates" };
    let site = &ctx.site;
    let message =
        mail::compose(email, ctx.subject(subject), &MailText { site, m: &shown }, &MailHtml { site, m: &shown })
            .map_err(|e| AppError::internal("certificates mail", e))?
            .reply_to(&site.contact_email)
            .dedupe_key(key);
    mail::enqueue(conn, &message).await?;
    Ok(())
}

/// An address as certificates key people: trimmed, lower case.
fn person(email: &str) -> String {
    crate::forms::validate::normalise_email(email)
}

/// The certificates a release numbered `number` at `at` issues: one per ticket and per paper
/// that earns one and has none (the module's rules), codes drawn now.
async fn candidates(
    conn: &mut db::Connection,
    published: Option<&Published>,
    number: i64,
    at: &str,
) -> Result<Vec<NewCertificate>, sqlx::Error> {
    let mut issued: Vec<NewCertificate> = Vec::new();
    for c in store::attendance_candidates(conn).await? {
        issued.push(NewCertificate {
            code: tickets::new_code(),
            email: person(&c.email),
            holder_name: c.holder_name,
            kind: "attendance",
            ticket_id: Some(c.ticket_id),
            submission_id: None,
            reference: None,
            title: None,
            release_number: number,
            issued_at: at.to_owned(),
        });
    }
    let Some(published) = published else { return Ok(issued) };
    let papers = store::accepted_without_certificate(conn).await?;
    for talk in &published.talks {
        let Some(paper) = talk.submission.and_then(|id| papers.iter().find(|p| p.id == id)) else { continue };
        if issued.iter().any(|c| c.submission_id == Some(paper.id)) {
            continue;
        }
        let presenter = [talk.presenter.trim()]
            .into_iter()
            .chain(talk.authors.iter().map(|a| a.trim()))
            .find(|name| !name.is_empty());
        let Some(presenter) = presenter else { continue };
        issued.push(NewCertificate {
            code: tickets::new_code(),
            email: person(&paper.email),
            holder_name: presenter.to_owned(),
            kind: "presentation",
            ticket_id: None,
            submission_id: Some(paper.id),
            reference: Some(paper.reference.clone()),
            title: Some(talk.title.clone()),
            release_number: number,
            issued_at: at.to_owned(),
        });
    }
    Ok(issued)
}

/// How many certificates a release would issue now: (attendance, presentation).
pub async fn waiting(pool: &Pool) -> Result<(usize, usize), sqlx::Error> {
    let published = crate::repo::programme::latest(pool).await?;
    let mut conn = pool.acquire().await?;
    let all = candidates(&mut conn, published.as_ref(), 0, "").await?;
    let attendance = all.iter().filter(|c| c.kind == "attendance").count();
    Ok((attendance, all.len() - attendance))
}

/// The state of the releases as the back office's page shows it above its list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overview {
    /// How many releases, when the last was (RFC 3339 UTC) and by whom; `None` before the
    /// first.
    pub released: Option<(i64, String, String)>,
    /// Why releasing is not open yet ([`release_opens`], without "Nothing was issued."), `None`
    /// once it is.
    pub opens: Option<String>,
    /// (what, valid, revoked) per kind, the kind in words ([`kind_label`]).
    pub counts: Vec<(&'static str, i64, i64)>,
    /// What a release would issue now: (attendance, presentation) ([`waiting`]).
    pub waiting: (usize, usize),
}

/// The [`Overview`] at `now`.
pub async fn overview(pool: &Pool, event: &Event, zone: &Zone, now: OffsetDateTime) -> Result<Overview, sqlx::Error> {
    let releases = store::releases(pool).await?;
    let released = match (releases.last_released_at, releases.last_released_by) {
        (Some(at), Some(by)) if releases.releases > 0 => Some((releases.releases, at, by)),
        _ => None,
    };
    let counts = store::counts(pool).await?;
    Ok(Overview {
        released,
        opens: release_opens(event, zone, now).err().map(|message| message.replace(" Nothing was issued.", "")),
        counts: counts.into_iter().map(|(kind, valid, revoked)| (kind_label(&kind), valid, revoked)).collect(),
        waiting: waiting(pool).await?,
    })
}

/// Releases the certificates at `now` (see the module's rules): from the conference's last
/// day on, issues every missing certificate, mails each person it issued something to once,
/// and records `certificates.released` by `actor` (about the release's number; details: how
/// many of each kind, how many mails), all in one transaction. A release that finds nothing
/// to issue changes nothing.
///
/// Refused as [`Refused::NotAllowed`] before the conference's last day ([`release_opens`]'s
/// words).
pub async fn release(
    pool: &Pool,
    ctx: &Context,
    event: &Event,
    zone: &Zone,
    actor: &Actor,
    now: OffsetDateTime,
) -> Outcome<Released> {
    release_opens(event, zone, now).map_err(Refused::NotAllowed)?;
    // What the programme published is read before the transaction: it changes only when an
    // organiser publishes, and the papers' states are read inside it.
    let published = crate::repo::programme::latest(pool).await?;
    let at = timestamp(now);
    let mut tx = db::begin_write(pool).await?;
    let number = store::start_release(&mut tx, &at, &actor.email).await?;
    let issued = candidates(&mut tx, published.as_ref(), number, &at).await?;
    let mut people: BTreeSet<String> = BTreeSet::new();
    let (mut attendance, mut presentation) = (0, 0);
    for new in &issued {
        if store::insert(&mut tx, new).await? {
            people.insert(new.email.clone());
            if new.kind == "attendance" {
                attendance += 1;
            } else {
                presentation += 1;
            }
        }
    }
    if people.is_empty() {
        tx.rollback().await?;
        return Ok(Released::NothingNew);
    }
    for email in &people {
        let theirs = store::valid_of(&mut tx, email).await?;
        let key = format!("certificates:release-{number}:{email}");
        mail_to(&mut tx, ctx, event, email, &theirs, false, key).await?;
    }
    let number_text = number.to_string();
    let mut entry = actor.entry(&at, "certificates.released").about("certificate_release", &number_text);
    entry.details = json!({ "attendance": attendance, "presentation": presentation, "mails": people.len() });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Released::Issued { number, attendance, presentation, mails: people.len() })
}

/// What a revoke did: certificate `code` is revoked from now on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revoked {
    pub code: String,
}

/// What a reissue did: the old certificate is revoked and replaced by `new_code`, mailed to
/// its holder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reissued {
    pub new_code: String,
}

/// What an organiser reads for a code no certificate has (404).
pub const UNKNOWN: &str = "No certificate has this code.";

/// A form's one field refused: `message`, keyed by the field's `name`.
fn field(name: &str, message: String) -> Refused {
    Refused::Invalid { errors: BTreeMap::from([(name.to_owned(), message.clone())]), message }
}

/// Most characters of a revoke's reason.
pub const REASON_MAX_CHARS: usize = 500;

/// A revoke's reason as the audit log keeps it: trimmed, 1 to [`REASON_MAX_CHARS`] characters,
/// no control characters other than line ends; else what to tell the organiser.
pub fn check_reason(typed: &str) -> Result<String, String> {
    let reason = typed.replace("\r\n", "\n").trim().to_owned();
    if reason.is_empty() {
        return Err("Write why the certificate is revoked: the reason is kept in the audit log.".into());
    }
    if reason.chars().count() > REASON_MAX_CHARS {
        return Err(format!("The reason may have at most {REASON_MAX_CHARS} characters."));
    }
    if reason.chars().any(|c| c.is_control() && c != '\n') {
        return Err("The reason contains a control character; remove it.".into());
    }
    Ok(reason)
}

/// What an organiser reads for a revoke of a certificate revoked already (409).
fn revoked_already(code: &str) -> Refused {
    Refused::Stale(format!("Certificate {code} was revoked already, so nothing was changed."))
}

/// Revokes certificate `code` at `now` for `reason` (as typed; [`check_reason`]), audited as
/// `certificate.revoked` by `actor` with kind, holder and reason. Its verify page says
/// "revoked" from the moment this commits, and its PDF is gone (410).
///
/// Refused, in this order: [`Refused::NotFound`] ([`UNKNOWN`]); [`Refused::Stale`] when it is
/// revoked already; [`Refused::Invalid`] (field `reason`) without a usable reason.
pub async fn revoke(pool: &Pool, code: &str, reason: &str, actor: &Actor, now: OffsetDateTime) -> Outcome<Revoked> {
    let at = timestamp(now);
    let mut tx = db::begin_write(pool).await?;
    let Some(certificate) = store::by_code(&mut *tx, code).await? else {
        return Err(Refused::NotFound(UNKNOWN.into()));
    };
    if certificate.revoked_at.is_some() {
        return Err(revoked_already(code));
    }
    let reason = check_reason(reason).map_err(|why| field("reason", why))?;
    if !store::revoke(&mut tx, code, &at, &actor.email).await? {
        return Err(revoked_already(code));
    }
    let mut entry = actor.entry(&at, "certificate.revoked").about("certificate", code);
    entry.details = json!({ "kind": certificate.kind, "holder_name": certificate.holder_name, "reason": reason });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Revoked { code: code.to_owned() })
}

/// Reissues certificate `code` under `typed` (the forms' one-line rule,
/// [`tickets::check_name`]) at `now`: the old one is revoked and points at the new code, the
/// new one keeps its ticket or paper, and its holder gets a mail with the new certificate;
/// audited as `certificate.reissued` by `actor` with the new code and the name before and
/// after. A revoked certificate that was not replaced can be reissued too (that is how a
/// revoke is undone).
///
/// Refused, in this order: [`Refused::NotFound`] ([`UNKNOWN`]); [`Refused::Invalid`] (field
/// `name`) for a name the rule refuses; [`Refused::Stale`] when it was replaced already.
pub async fn reissue(
    pool: &Pool,
    ctx: &Context,
    event: &Event,
    code: &str,
    typed: &str,
    actor: &Actor,
    now: OffsetDateTime,
) -> Outcome<Reissued> {
    let at = timestamp(now);
    let mut tx = db::begin_write(pool).await?;
    let Some(old) = store::by_code(&mut *tx, code).await? else {
        return Err(Refused::NotFound(UNKNOWN.into()));
    };
    let name = tickets::check_name(typed).map_err(|error| field("name", error))?;
    let name = name.as_str();
    let new_code = tickets::new_code();
    if !store::replace(&mut tx, code, &new_code, &at, &actor.email).await? {
        return Err(Refused::Stale(format!("Certificate {code} was replaced already, so nothing was changed.")));
    }
    let new = NewCertificate {
        code: new_code.clone(),
        email: old.email.clone(),
        holder_name: name.to_owned(),
        kind: if old.kind == "presentation" { "presentation" } else { "attendance" },
        ticket_id: old.ticket_id,
        submission_id: old.submission_id,
        reference: old.reference.clone(),
        title: old.title.clone(),
        release_number: old.release_number,
        issued_at: at.clone(),
    };
    if !store::insert(&mut tx, &new).await? {
        return Err(
            AppError::internal("certificate reissue", "the new certificate conflicts with a current one").into()
        );
    }
    let Some(stored) = store::by_code(&mut *tx, &new_code).await? else {
        return Err(AppError::internal("certificate reissue", "the new certificate is not stored").into());
    };
    mail_to(&mut tx, ctx, event, &old.email, &[stored], true, format!("certificate-reissued:{new_code}")).await?;
    let mut entry = actor.entry(&at, "certificate.reissued").about("certificate", code);
    entry.details = json!({
        "replaced_by": new_code,
        "holder_name": { "before": old.holder_name, "after": name },
    });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(Reissued { new_code })
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn event() -> Event {
        Event { name: "Fixture".into(), dates: "21-23 March 2025".into(), end_date: "2025-03-23".into() }
    }

    #[test]
    fn a_release_opens_on_the_last_day_in_the_events_zone() {
        let zone = Zone::fixed("Asia/Manila", time::UtcOffset::from_hms(8, 0, 0).unwrap());
        let refused = release_opens(&event(), &zone, datetime!(2025-03-22 15:59 UTC)).unwrap_err();
        assert!(refused.contains("23 March 2025 (Manila time)"), "{refused}");
        assert_eq!(release_opens(&event(), &zone, datetime!(2025-03-22 16:00 UTC)), Ok(()));
        assert_eq!(release_opens(&event(), &zone, datetime!(2026-01-01 00:00 UTC)), Ok(()));
    }

    #[test]
    fn addresses_name_a_page_or_a_pdf_of_a_well_formed_code() {
        let code = "A".repeat(26);
        assert_eq!(asked(&code), Some(Asked::Page(code.clone())));
        assert_eq!(asked(&format!("{}.pdf", code.to_lowercase())), Some(Asked::Pdf(code.clone())));
        for bad in ["", "ABC", "ABC.pdf", &format!("{code}.PDF"), &format!("{code}1"), &format!("{code}.pdf.pdf")] {
            assert_eq!(asked(bad), None, "{bad}");
        }
    }
}
