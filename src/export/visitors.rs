//! CSV of contact messages, newsletter subscribers and paper submissions (written with the
//! forms feature).

use std::io::Write;

use sqlx::SqlitePool;

pub async fn write_messages<W: Write>(_pool: &SqlitePool, _out: &mut csv::Writer<W>) -> Result<(), Box<dyn std::error::Error>> {
    Err("messages export is not available yet".into())
}

pub async fn write_subscribers<W: Write>(_pool: &SqlitePool, _out: &mut csv::Writer<W>) -> Result<(), Box<dyn std::error::Error>> {
    Err("subscribers export is not available yet".into())
}

pub async fn write_submissions<W: Write>(_pool: &SqlitePool, _out: &mut csv::Writer<W>) -> Result<(), Box<dyn std::error::Error>> {
    Err("submissions export is not available yet".into())
}
