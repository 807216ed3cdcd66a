//! `conference export <kind>`: what visitors sent, as CSV on stdout, for organisers; and
//! `conference export papers --out DIR`, the paper files themselves.
//!
//! Every cell goes through `csv::spreadsheet_safe` on its way into the `csv` writer, so no export
//! can hand a spreadsheet a formula (OWASP, "CSV Injection"; DESIGN.md section 2).

pub mod audit;
pub mod csv;
pub mod outbox;
pub mod papers;
pub mod registrations;
pub mod reviews;
pub mod visitors;

use std::io::Write;

pub use self::csv::{SafeWriter, spreadsheet_safe};
use crate::db::Pool;

/// What can be exported (DESIGN.md section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportKind {
    Registrations,
    Submissions,
    Messages,
    Subscribers,
    /// The organisers' audit log (DESIGN.md section 12).
    Audit,
    /// Every submitted review, one row each (DESIGN.md section 15).
    Reviews,
    /// The paper files, into `--out DIR` (not CSV).
    Papers,
}

/// Writes one kind as CSV (header row first) to `out`.
pub async fn export(pool: &Pool, kind: ExportKind, out: impl Write) -> Result<(), Box<dyn std::error::Error>> {
    let mut writer = SafeWriter(::csv::Writer::from_writer(out));
    match kind {
        ExportKind::Registrations => registrations::write(pool, &mut writer).await?,
        ExportKind::Submissions => visitors::write_submissions(pool, &mut writer).await?,
        ExportKind::Messages => visitors::write_messages(pool, &mut writer).await?,
        ExportKind::Subscribers => visitors::write_subscribers(pool, &mut writer).await?,
        ExportKind::Audit => audit::write(pool, &mut writer).await?,
        ExportKind::Reviews => reviews::write(pool, &mut writer).await?,
        ExportKind::Papers => return Err("papers are files: use `export papers --out DIR`".into()),
    }
    writer.0.flush()?;
    Ok(())
}

impl ExportKind {
    /// The name as on the command line (`registrations`, ..., `papers`), for the audit log.
    pub fn as_str(self) -> &'static str {
        match self {
            ExportKind::Registrations => "registrations",
            ExportKind::Submissions => "submissions",
            ExportKind::Messages => "messages",
            ExportKind::Subscribers => "subscribers",
            ExportKind::Audit => "audit",
            ExportKind::Reviews => "reviews",
            ExportKind::Papers => "papers",
        }
    }
}
