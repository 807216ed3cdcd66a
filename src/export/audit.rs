//! CSV of the organisers' audit log, oldest first (DESIGN.md section 12).

use std::io::Write;

use super::csv::SafeWriter;
use crate::db::Pool;
use crate::repo::audit::{self, Entry};

/// `id,at,actor,client,action,object_type,object_id,details` (`details` as JSON).
pub async fn write<W: Write>(pool: &Pool, out: &mut SafeWriter<W>) -> Result<(), Box<dyn std::error::Error>> {
    out.write_record(HEADER)?;
    for e in audit::all(pool).await? {
        write_row(out, e)?;
    }
    Ok(())
}

/// The header row.
pub const HEADER: [&str; 8] = ["id", "at", "actor", "client", "action", "object_type", "object_id", "details"];

/// One entry's row (the organisers' CSV of the log writes the same rows).
pub fn write_row<W: Write>(out: &mut SafeWriter<W>, e: Entry) -> csv::Result<()> {
    let optional = |value: Option<String>| value.unwrap_or_default();
    out.write_record([
        e.id.to_string(),
        e.at,
        e.actor,
        optional(e.client),
        e.action,
        optional(e.object_type),
        optional(e.object_id),
        e.details,
    ])
}
