//! `conference seed --check` (DESIGN.md section 13, issue 22): what a content seed would
//! change, found by applying it in a transaction that is always rolled back.
//!
//! The seed runs statement by statement, so an error names the statement, and within it the
//! line and column of the token the engine points at: SQLite's error offset
//! (`sqlite3_error_offset`) or PostgreSQL's error position, else the token SQLite names in
//! `near "…"`. Rows are compared by primary key in every table the seed names; `site`'s
//! changes are listed by field.
//!
//! Beyond the rules `seed` enforces, the check names values that would apply but print wrong
//! (issue 40 item 5): a `site.utc_offset` that is not `site.time_zone`'s offset on the
//! conference's first day, and a certificate signatory's signature image that is not in
//! `seed/signatures/` or does not decode.

use std::collections::BTreeMap;

use crate::backup::tables;
use crate::db::Pool;

/// One table's changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableChange {
    pub table: String,
    pub added: usize,
    pub removed: usize,
    pub changed: usize,
}

/// One changed field of the site settings (`site`): its values before and after, shortened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldChange {
    pub field: String,
    pub before: String,
    pub after: String,
}

/// What a seed would change: tables with any change, and the site settings' fields.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeedDiff {
    pub tables: Vec<TableChange>,
    pub site: Vec<FieldChange>,
}

/// Why a seed cannot be applied.
#[derive(Debug, thiserror::Error)]
pub enum SeedCheckError {
    /// A statement of the seed failed: the 1-based line and column (in characters) of the
    /// seed file where the engine says the error is, and the engine's message.
    #[error("line {line}, column {column}: {message}")]
    Statement { line: usize, column: usize, message: String },
    /// A decision mail template names a placeholder nobody fills (issue 21).
    #[error(transparent)]
    Template(#[from] crate::seed::placeholders::UnknownPlaceholder),
    /// The programme's zone or sessions break a rule (issue 31).
    #[error(transparent)]
    Programme(#[from] crate::seed::session_rules::ProgrammeError),
    /// The review form or settings break a rule (issue 32).
    #[error(transparent)]
    ReviewForm(#[from] crate::seed::review_rules::FormError),
    /// Values that apply but would print wrong, every one found, one a line.
    #[error("{}", one_a_line(.0))]
    Content(Vec<ContentProblem>),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

/// A value of the seed that `seed` would apply but that the site would print wrong; each
/// message says which value to change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContentProblem {
    /// `site.utc_offset` is not written `±HH:MM`.
    #[error(
        "site.utc_offset {utc_offset:?} is not an offset written ±HH:MM (such as \"+08:00\"); change site.utc_offset"
    )]
    OffsetUnreadable { utc_offset: String },
    /// `site.utc_offset` is not the offset of `site.time_zone` (tz database) at 09:00 on the
    /// conference's first day (`site.start_date`), the start the event's JSON-LD gives.
    #[error(
        "site.utc_offset is {utc_offset:?}, but site.time_zone {time_zone} is {zone_offset} on the conference's first day ({start_date}); change site.utc_offset to {zone_offset:?} (or site.time_zone, if the zone is the mistake)"
    )]
    OffsetNotTheZones { utc_offset: String, time_zone: String, start_date: String, zone_offset: String },
    /// A signatory's `signature` names no file of `seed/signatures/` as built into the binary.
    #[error(
        "certificate signatory {position} ({name}): its signature image seed/signatures/{file} is missing; add the file there and build the binary again (the images are built into it), or set its signature to NULL"
    )]
    SignatureMissing { position: i64, name: String, file: String },
    /// A signatory's signature file is there but is not a PNG the certificate can draw.
    #[error(
        "certificate signatory {position} ({name}): its signature image seed/signatures/{file} is not a PNG image that decodes; replace the file with a PNG and build the binary again, or set its signature to NULL"
    )]
    SignatureNotAnImage { position: i64, name: String, file: String },
}

/// The problems as the check prints them, one a line.
fn one_a_line(problems: &[ContentProblem]) -> String {
    problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

/// The site settings' table, whose changes are listed field by field.
const SITE: &str = "site";

/// Applies `sql` to the database of `pool` in a transaction that is rolled back whatever
/// happens, and returns what it would have changed. Nothing is ever committed. Errs on the
/// first statement that fails or rule `seed` enforces, else on every [`ContentProblem`].
pub async fn diff(pool: &Pool, sql: &str) -> Result<SeedDiff, SeedCheckError> {
    let mut tx = crate::db::begin_write(pool).await?;
    let named = named_tables(&mut tx, sql).await?;
    let mut before = BTreeMap::new();
    for table in &named {
        before.insert(table.clone(), keyed_rows(&mut tx, table).await?);
    }
    for (start, statement) in statements(sql) {
        if let Err(err) = sqlx::raw_sql(sqlx::AssertSqlSafe(statement.to_owned())).execute(&mut *tx).await {
            tx.rollback().await?;
            let in_statement = match sqlite_error_offset(pool, statement, &err).await {
                Some(offset) => offset,
                None => offset_in_statement(statement, &err),
            };
            let (line, column) = line_and_column(sql, start + in_statement);
            let message = match &err {
                sqlx::Error::Database(db) => db.message().to_owned(),
                other => other.to_string(),
            };
            return Err(SeedCheckError::Statement { line, column, message });
        }
    }
    // The same checks `seed` makes before it commits (`apply::seed_with`).
    let checked = match crate::seed::apply::check_mail_templates(&mut tx, sql).await {
        Ok(()) => crate::seed::apply::check_programme(&mut tx).await,
        Err(err) => Err(err),
    };
    let checked = match checked {
        Ok(()) => crate::seed::apply::check_review_form(&mut tx).await,
        Err(err) => Err(err),
    };
    if let Err(err) = checked {
        tx.rollback().await?;
        return Err(match err {
            crate::seed::apply::SeedError::Template(unknown) => SeedCheckError::Template(unknown),
            crate::seed::apply::SeedError::Programme(rule) => SeedCheckError::Programme(rule),
            crate::seed::apply::SeedError::ReviewForm(rule) => SeedCheckError::ReviewForm(rule),
            crate::seed::apply::SeedError::Database(err) => SeedCheckError::Database(err),
        });
    }
    let problems = content_problems(&mut tx).await?;
    if !problems.is_empty() {
        tx.rollback().await?;
        return Err(SeedCheckError::Content(problems));
    }
    let mut diff = SeedDiff::default();
    for table in &named {
        let after = keyed_rows(&mut tx, table).await?;
        let old = &before[table];
        let added = after.keys().filter(|k| !old.contains_key(*k)).count();
        let removed = old.keys().filter(|k| !after.contains_key(*k)).count();
        let changed = after.iter().filter(|(k, row)| old.get(*k).is_some_and(|o| o != *row)).count();
        if added + removed + changed > 0 {
            diff.tables.push(TableChange { table: table.clone(), added, removed, changed });
        }
        if table == SITE {
            diff.site = site_fields(&mut tx, old, &after).await?;
        }
    }
    tx.rollback().await?;
    Ok(diff)
}

/// The [`ContentProblem`]s of the content `conn` holds (the seed applied, not committed): the
/// site's offset, then the signatories' images in order.
async fn content_problems(conn: &mut crate::db::Connection) -> Result<Vec<ContentProblem>, sqlx::Error> {
    let mut problems = Vec::new();
    let site: Option<(String, String, String)> =
        sqlx::query_as("SELECT time_zone, utc_offset, start_date FROM site WHERE id = 1")
            .fetch_optional(&mut *conn)
            .await?;
    if let Some((time_zone, utc_offset, start_date)) = site {
        problems.extend(offset_problem(&time_zone, &utc_offset, &start_date));
    }
    let signatories: Vec<(i64, String, Option<String>)> =
        sqlx::query_as("SELECT position, name, signature FROM certificate_signatories ORDER BY position")
            .fetch_all(&mut *conn)
            .await?;
    problems.extend(signature_problems(&signatories, crate::attendance::certificates::signature_png));
    Ok(problems)
}

/// Whether `utc_offset` is `time_zone`'s offset at 09:00 on `start_date` (`YYYY-MM-DD`). A
/// zone the tz database lacks is the programme check's to refuse (it runs first), and a start
/// date that is not a date the pages'; neither is named again here.
fn offset_problem(time_zone: &str, utc_offset: &str, start_date: &str) -> Option<ContentProblem> {
    let format = time::macros::format_description!("[offset_hour sign:mandatory]:[offset_minute]");
    let Ok(offset) = time::UtcOffset::parse(utc_offset, format) else {
        return Some(ContentProblem::OffsetUnreadable { utc_offset: utc_offset.to_owned() });
    };
    let zone = crate::clock::zone::Zone::load(time_zone).ok()?;
    let first_day = crate::clock::dates::parse(start_date)?;
    let zone_offset = zone.localize(first_day.with_time(time::macros::time!(9:00))).offset();
    (zone_offset != offset).then(|| ContentProblem::OffsetNotTheZones {
        utc_offset: utc_offset.to_owned(),
        time_zone: time_zone.to_owned(),
        start_date: start_date.to_owned(),
        zone_offset: crate::clock::zone::offset_label(zone_offset),
    })
}

/// The signatories (position, name, `signature` file name) whose image `read` (the binary's
/// `seed/signatures/`) does not have, or has but cannot decode as the certificate does.
fn signature_problems(
    signatories: &[(i64, String, Option<String>)],
    read: impl Fn(&str) -> Option<Vec<u8>>,
) -> Vec<ContentProblem> {
    signatories
        .iter()
        .filter_map(|(position, name, file)| {
            let file = file.as_deref()?;
            let (position, name, file) = (*position, name.clone(), file.to_owned());
            match read(&file) {
                None => Some(ContentProblem::SignatureMissing { position, name, file }),
                Some(png) if !crate::attendance::documents::png_draws(&png) => {
                    Some(ContentProblem::SignatureNotAnImage { position, name, file })
                }
                Some(_) => None,
            }
        })
        .collect()
}

/// Rows keyed by their primary key's values (the whole row for a table without one).
type KeyedRows = BTreeMap<Vec<Option<String>>, Vec<Option<String>>>;

async fn keyed_rows(conn: &mut crate::db::Connection, table: &str) -> Result<KeyedRows, sqlx::Error> {
    let columns: Vec<String> = tables::columns(conn, table).await?.into_iter().map(|c| c.name).collect();
    let key = tables::primary_key(conn, table).await?;
    let at: Vec<usize> = key.iter().filter_map(|k| columns.iter().position(|c| c == k)).collect();
    let mut keyed = BTreeMap::new();
    for row in tables::rows_as_text(conn, table).await? {
        let key = if at.is_empty() { row.clone() } else { at.iter().map(|&i| row[i].clone()).collect() };
        keyed.insert(key, row);
    }
    Ok(keyed)
}

/// The fields of the one `site` row that differ, with shortened values.
async fn site_fields(
    conn: &mut crate::db::Connection,
    before: &KeyedRows,
    after: &KeyedRows,
) -> Result<Vec<FieldChange>, sqlx::Error> {
    let columns = tables::columns(conn, SITE).await?;
    let empty = vec![None; columns.len()];
    let old = before.values().next().unwrap_or(&empty);
    let new = after.values().next().unwrap_or(&empty);
    Ok(columns
        .iter()
        .enumerate()
        .filter(|(i, _)| old[*i] != new[*i])
        .map(|(i, column)| FieldChange { field: column.name.clone(), before: shown(&old[i]), after: shown(&new[i]) })
        .collect())
}

/// A value as the report shows it: at most 60 characters on one line, NULL as `(none)`.
fn shown(value: &Option<String>) -> String {
    match value {
        None => "(none)".into(),
        Some(text) => {
            let line = text.replace('\n', " ");
            if line.chars().count() > 60 { format!("{}…", line.chars().take(59).collect::<String>()) } else { line }
        }
    }
}

/// The site's tables the seed names (as a word anywhere in it), in the catalogue's order.
async fn named_tables(conn: &mut crate::db::Connection, sql: &str) -> Result<Vec<String>, sqlx::Error> {
    let words: std::collections::BTreeSet<String> = sql
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_lowercase())
        .collect();
    Ok(tables::names(conn).await?.into_iter().filter(|t| words.contains(&t.to_ascii_lowercase())).collect())
}

/// SQLite: the byte offset in `statement` of the token its error is about, as SQLite's
/// `sqlite3_error_offset` gives it (SQLite 3.38+, <https://sqlite.org/c3ref/errcode.html>:
/// "the byte offset of the start of that token" in the SQL text last prepared, -1 when the
/// error is about no token). `None` for PostgreSQL and when SQLite gives no offset.
///
/// sqlx reads no offset into its errors, and the seed's connection sits behind the Any driver,
/// which gives no raw handle. So the failing statement alone is prepared again (never run) on a
/// read-only connection of its own to the same database, and the offset is read from that
/// connection right after. Errors about a token (syntax, an unknown table or column) are all
/// found while preparing, which depends on the schema only, not on the rows the seed's earlier
/// statements changed; the offset is taken only when that error's message is the seed's own
/// (so not for an error found while running, such as a constraint, nor for a database a second
/// connection does not see, such as `sqlite::memory:`).
async fn sqlite_error_offset(pool: &Pool, statement: &str, err: &sqlx::Error) -> Option<usize> {
    use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
    use sqlx::{Connection, Executor, SqlSafeStr};
    let sqlx::Error::Database(failed) = err else { return None };
    failed.try_downcast_ref::<sqlx::sqlite::SqliteError>()?;
    let options = SqliteConnectOptions::try_from(&*pool.connect_options()).ok()?.read_only(true);
    let mut conn = SqliteConnection::connect_with(&options).await.ok()?;
    let prepared = conn.prepare(sqlx::AssertSqlSafe(statement.to_owned()).into_sql_str()).await;
    let offset = match prepared {
        Err(sqlx::Error::Database(again)) if again.message() == failed.message() => match conn.lock_handle().await {
            Ok(mut handle) => {
                // SAFETY: the handle is a live connection, locked out of sqlx's worker thread
                // while held, and its most recent call was the failed prepare of `statement`;
                // `sqlite3_error_offset` only reads that error's offset.
                let at = unsafe { libsqlite3_sys::sqlite3_error_offset(handle.as_raw_handle().as_ptr()) };
                usize::try_from(at).ok()
            }
            Err(_) => None,
        },
        _ => None,
    };
    let _ = conn.close().await;
    offset.filter(|&at| at < statement.len() && statement.is_char_boundary(at))
}

/// Where in `statement` the engine says the error is when SQLite gives no offset
/// ([`sqlite_error_offset`]): PostgreSQL's error position, or the first place of the token
/// SQLite names in `near "…": syntax error`; else its start.
fn offset_in_statement(statement: &str, err: &sqlx::Error) -> usize {
    let sqlx::Error::Database(db) = err else { return 0 };
    if let Some(pg) = db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
        && let Some(sqlx::postgres::PgErrorPosition::Original(position)) = pg.position()
    {
        return char_position(statement, position);
    }
    let message = db.message();
    if let Some(rest) = message.strip_prefix("near \"")
        && let Some((token, _)) = rest.split_once('"')
    {
        return statement.find(token).unwrap_or(0);
    }
    0
}

/// The byte offset in `statement` of PostgreSQL's error position: a 1-based count of
/// characters (not bytes) into the query text (the `P` field of its ErrorResponse,
/// <https://www.postgresql.org/docs/current/protocol-error-fields.html>); past the end, the end.
fn char_position(statement: &str, position: usize) -> usize {
    statement.char_indices().nth(position.saturating_sub(1)).map_or(statement.len(), |(at, _)| at)
}

/// The 1-based line and column of byte `offset` of `text`; the column counts characters, not
/// bytes (an offset inside a character counts as that character's start).
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
}

/// The seed's statements with the byte offset each starts at (leading blanks and comments
/// skipped). Splits at `;` outside quotes (`'…'`, `"…"`) and comments (`--`, `/* */`).
pub fn statements<'a>(sql: &'a str) -> Vec<(usize, &'a str)> {
    let bytes = sql.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let push = |out: &mut Vec<(usize, &'a str)>, from: usize, to: usize| {
        let piece = &sql[from..to];
        let first = first_code(piece);
        if first < piece.len() {
            out.push((from + first, &piece[first..]));
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'\'' | b'"') => {
                i += 1;
                while i < bytes.len() {
                    if bytes[i] == quote {
                        // A doubled quote is one quote inside the string.
                        if bytes.get(i + 1) == Some(&quote) {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
            }
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 1;
            }
            b';' => {
                push(&mut out, start, i + 1);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < sql.len() {
        push(&mut out, start, sql.len());
    }
    out
}

/// The offset of the first character of `piece` that is neither blank nor comment.
fn first_code(piece: &str) -> usize {
    let mut rest = piece;
    loop {
        let trimmed = rest.trim_start();
        if let Some(after) = trimmed.strip_prefix("--") {
            rest = after.split_once('\n').map_or("", |(_, tail)| tail);
        } else if let Some(after) = trimmed.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, tail)| tail);
        } else {
            return piece.len() - trimmed.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_split_at_semicolons_outside_strings_and_comments() {
        let sql = "-- a comment; not a statement\nDELETE FROM site;\nINSERT INTO site (name) VALUES ('a; b', 'it''s');\n/* ; */ UPDATE x SET y = \"a;b\";\n  ";
        let found: Vec<(usize, &str)> = statements(sql);
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found[0].1, "DELETE FROM site;");
        assert_eq!(&sql[found[0].0..found[0].0 + 6], "DELETE");
        assert_eq!(found[1].1, "INSERT INTO site (name) VALUES ('a; b', 'it''s');");
        assert_eq!(found[2].1, "UPDATE x SET y = \"a;b\";");
    }

    #[test]
    fn an_offset_is_a_line_and_a_column_counted_in_characters() {
        let text = "ab\nçé INSERT\n\nx";
        assert_eq!(line_and_column(text, 0), (1, 1));
        assert_eq!(line_and_column(text, 2), (1, 3), "the newline ends line 1");
        assert_eq!(line_and_column(text, 3), (2, 1));
        let insert = text.find("INSERT").unwrap();
        assert_eq!(insert, 8, "ç and é are two bytes each");
        assert_eq!(line_and_column(text, insert), (2, 4));
        assert_eq!(line_and_column(text, 4), (2, 1), "inside ç: its start");
        assert_eq!(line_and_column(text, text.len() - 1), (4, 1));
        assert_eq!(line_and_column(text, 1000), (4, 2), "past the end: the end");
    }

    #[test]
    fn a_postgresql_position_counts_characters_from_one() {
        let statement = "INSERT INTO t (a) VALUES\n  ('é'),\n  oops;";
        let oops = statement.find("oops").unwrap();
        let position = statement[..oops].chars().count() + 1;
        assert_ne!(position, oops + 1, "the é makes characters and bytes differ");
        assert_eq!(char_position(statement, position), oops);
        assert_eq!(line_and_column(statement, char_position(statement, position)), (3, 3));
        assert_eq!(char_position(statement, 1), 0);
        assert_eq!(char_position(statement, 1000), statement.len());
    }

    /// Whether the tz database has `name`: these tests need it, and a machine without it fails
    /// them, saying so, rather than skipping them.
    fn zone_known(name: &str) {
        let dir = crate::clock::zone::tz_dir();
        assert!(
            dir.join(name).is_file(),
            "the tz database has no {name} in {}: install Debian's tzdata",
            dir.display()
        );
    }

    #[test]
    fn a_utc_offset_that_is_not_the_zones_on_the_first_day_names_the_value_to_write() {
        zone_known("Asia/Singapore");
        zone_known("Europe/Berlin");
        assert_eq!(offset_problem("Asia/Singapore", "+08:00", "2025-03-20"), None);
        let problem = offset_problem("Asia/Singapore", "+07:00", "2025-03-20").expect("+07:00 is not Singapore's");
        assert_eq!(
            problem.to_string(),
            "site.utc_offset is \"+07:00\", but site.time_zone Asia/Singapore is +08:00 on the conference's first day (2025-03-20); change site.utc_offset to \"+08:00\" (or site.time_zone, if the zone is the mistake)"
        );
        // Daylight saving time: Berlin is +01:00 in winter and +02:00 in summer.
        assert_eq!(offset_problem("Europe/Berlin", "+01:00", "2025-01-15"), None);
        assert_eq!(offset_problem("Europe/Berlin", "+02:00", "2025-07-15"), None);
        let summer = offset_problem("Europe/Berlin", "+01:00", "2025-07-15").expect("+01:00 is Berlin's winter");
        assert!(summer.to_string().contains("change site.utc_offset to \"+02:00\""), "{summer}");
    }

    #[test]
    fn a_utc_offset_not_written_plus_or_minus_hh_mm_is_a_problem_and_an_unknown_zone_is_left_to_the_programme_check() {
        for written in ["8", "+8:00", "UTC+8", "+0800", ""] {
            let problem = offset_problem("Asia/Singapore", written, "2025-03-20");
            assert_eq!(problem, Some(ContentProblem::OffsetUnreadable { utc_offset: written.into() }), "{written:?}");
        }
        assert!(
            offset_problem("Asia/Singapore", "8", "2025-03-20").unwrap().to_string().contains("change site.utc_offset")
        );
        assert_eq!(offset_problem("Asia/Atlantis", "+08:00", "2025-03-20"), None, "refused by the programme check");
        assert_eq!(offset_problem("Asia/Singapore", "+08:00", "March"), None);
    }

    #[test]
    fn a_missing_or_undecodable_signature_image_names_the_signatory_and_the_path() {
        let good = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/seed/signatures/chair.png")).unwrap();
        let read = |file: &str| match file {
            "chair.png" => Some(good.clone()),
            "broken.png" => Some(b"\x89PNG\r\n\x1a\nnot really".to_vec()),
            _ => None,
        };
        let signatories = vec![
            (1, "Ada Chair".to_owned(), Some("chair.png".to_owned())),
            (2, "Ben Secretary".to_owned(), None),
            (3, "Cy Missing".to_owned(), Some("gone.png".to_owned())),
            (4, "Di Broken".to_owned(), Some("broken.png".to_owned())),
        ];
        let problems = signature_problems(&signatories, read);
        assert_eq!(
            problems,
            vec![
                ContentProblem::SignatureMissing { position: 3, name: "Cy Missing".into(), file: "gone.png".into() },
                ContentProblem::SignatureNotAnImage {
                    position: 4,
                    name: "Di Broken".into(),
                    file: "broken.png".into()
                },
            ],
            "a decodable image and no image at all are fine"
        );
        let said = one_a_line(&problems);
        let lines: Vec<&str> = said.lines().collect();
        assert_eq!(lines.len(), 2, "{said}");
        assert!(
            lines[0].starts_with(
                "certificate signatory 3 (Cy Missing): its signature image seed/signatures/gone.png is missing"
            ),
            "{said}"
        );
        assert!(lines[1].starts_with("certificate signatory 4 (Di Broken): its signature image seed/signatures/broken.png is not a PNG image that decodes"), "{said}");
    }

    #[test]
    fn the_binarys_signature_images_decode() {
        for file in ["chair.png", "co-chair.png"] {
            let png =
                crate::attendance::certificates::signature_png(file).unwrap_or_else(|| panic!("{file} is built in"));
            assert!(crate::attendance::documents::png_draws(&png), "{file} decodes");
        }
        assert_eq!(crate::attendance::certificates::signature_png("gone.png"), None);
    }

    #[test]
    fn long_values_are_shortened_to_one_line() {
        assert_eq!(shown(&None), "(none)");
        assert_eq!(shown(&Some("a\nb".into())), "a b");
        assert_eq!(shown(&Some("x".repeat(100))).chars().count(), 60);
    }
}
