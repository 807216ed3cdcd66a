//! CSV of the organisers' audit log, oldest first (DESIGN.md section 12).

use std::io::Write;

use super::csv::SafeWriter;
use crate::db::Pool;
use crate::repo::audit;

/// `id,at,actor,client,action,object_type,object_id,details` (`details` as JSON).
pub async fn write<W: Write>(pool: &Pool, out: &mut SafeWriter<W>) -> Result<(), Box<dyn std::error::Error>> {
    out.write_record(["id", "at", "actor", "client", "action", "object_type", "object_id", "details"])?;
    for e in audit::all(pool).await? {
        let id = e.id.to_string();
        let optional = |value: &Option<String>| value.clone().unwrap_or_default();
        out.write_record([
            id,
            e.at,
            e.actor,
            optional(&e.client),
            e.action,
            optional(&e.object_type),
            optional(&e.object_id),
            e.details,
        ])?;
    }
    Ok(())
}
