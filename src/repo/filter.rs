//! The `WHERE` clause of the organisers' lists (DESIGN.md section 12): conditions are fixed
//! fragments of this crate's own text with `$N` placeholders, and every value a visitor or
//! organiser typed is a bound parameter; no SQL is ever built from user text. The same
//! [`Where`] serves a list's page, its count and its CSV, so the CSV is exactly the view.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::Arc;

use futures_util::stream::BoxStream;
use sqlx::any::AnyRow;
use sqlx::{Any, AssertSqlSafe, FromRow, Row};

use crate::db::{Engine, Pool};

/// Rows on one page of a list.
pub const PAGE_SIZE: i64 = 50;

/// How many rows match, as far as a list knows it before asking the database, and what it
/// keeps under the present `count_version`.
#[derive(Debug, Clone, Copy)]
pub enum Matches<'a> {
    /// Known already (from the dashboard's counts).
    Known(i64, &'a Kept),
    /// Counted once per filter while `count_version` stays, then taken from the [`Kept`].
    Kept(&'a Kept),
    /// Counted every time, and nothing kept (a table `count_version` does not follow).
    Count,
}

/// What the lists learn under one `count_version` (migration 0015) and may use until it
/// moves, since no row they count or show changed meanwhile: the row counts of filters
/// (paging through a search counts its matches once) and page anchors (a deep page's first
/// row, so that the page and the ones after it start there instead of skipping every row
/// before it again). At most [`KEPT`] of each; then they start again empty.
#[derive(Debug, Default)]
pub struct Kept(std::sync::Mutex<KeptInner>);

#[derive(Debug, Default)]
struct KeptInner {
    counts: HashMap<String, i64>,
    /// By filter and order: row offset -> the key of the row there.
    anchors: HashMap<String, BTreeMap<i64, Key>>,
    anchored: usize,
    /// Figures a page made from counted tables ([`Kept::made`]), by name.
    made: HashMap<String, Arc<dyn std::any::Any + Send + Sync>>,
}

/// Counts, and anchors, a [`Kept`] holds before it starts again empty.
const KEPT: usize = 1000;

/// A row's unique key as stored: an integer id or a text one.
#[derive(Debug, Clone)]
enum Key {
    Integer(i64),
    Text(String),
}

impl Kept {
    fn lock(&self) -> std::sync::MutexGuard<'_, KeptInner> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn count(&self, filter: &str) -> Option<i64> {
        self.lock().counts.get(filter).copied()
    }

    fn keep_count(&self, filter: String, count: i64) {
        let mut kept = self.lock();
        if kept.counts.len() >= KEPT {
            kept.counts.clear();
        }
        kept.counts.insert(filter, count);
    }

    /// The nearest anchor at or before `offset` in `list`, less than [`ANCHOR_EVERY`] rows back.
    fn anchor(&self, list: &str, offset: i64) -> Option<(i64, Key)> {
        let kept = self.lock();
        let (at, key) = kept.anchors.get(list)?.range(..=offset).next_back()?;
        (offset - at < ANCHOR_EVERY).then(|| (*at, key.clone()))
    }

    /// The nearest kept anchor at or before `offset` in `list`, or else the key of the row at
    /// `offset` found by `first` (SQL and values), kept as a new anchor.
    async fn anchor_or_find(
        &self,
        pool: &Pool,
        list: String,
        offset: i64,
        (first, values): (String, Vec<String>),
    ) -> Result<Option<(i64, Key)>, sqlx::Error> {
        if let Some(anchor) = self.anchor(&list, offset) {
            return Ok(Some(anchor));
        }
        let row: Option<AnyRow> = bound_row(first, values).fetch_optional(pool).await?;
        Ok(row.and_then(|row| Key::of(&row)).map(|key| {
            self.keep_anchor(list, offset, key.clone());
            (offset, key)
        }))
    }

    /// What `make` makes, made once under this version for `name` (which names every input
    /// the figure depends on besides the counted tables, e.g. a setting) and kept until it
    /// moves: the review pages' counts and overdue reviewers (issue 32 item 10). Two views
    /// arriving together may both make it; either result holds.
    pub async fn made<T, F, Fut>(&self, name: &str, make: F) -> Result<Arc<T>, sqlx::Error>
    where
        T: Send + Sync + 'static,
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T, sqlx::Error>>,
    {
        let found = self.lock().made.get(name).cloned();
        if let Some(made) = found.and_then(|m| m.downcast::<T>().ok()) {
            return Ok(made);
        }
        let made = Arc::new(make().await?);
        let mut kept = self.lock();
        if kept.made.len() >= KEPT {
            kept.made.clear();
        }
        kept.made.insert(name.to_owned(), made.clone());
        Ok(made)
    }

    fn keep_anchor(&self, list: String, offset: i64, key: Key) {
        let mut kept = self.lock();
        if kept.anchored >= KEPT {
            kept.anchors.clear();
            kept.anchored = 0;
        }
        kept.anchored += 1;
        kept.anchors.entry(list).or_default().insert(offset, key);
    }
}

/// Offsets from which a page starts at an anchor; a page this deep otherwise skips this many
/// rows of an index on every view (25,000 for page 500 of the orders: about 4 ms of
/// PostgreSQL's time, bench/organiser.sh). One anchor serves the pages up to this many rows
/// after it.
const ANCHOR_EVERY: i64 = 10 * PAGE_SIZE;

/// A list the organisers filter by its `status` column and by a text search (the outbox, the
/// subscribers); `None` matches all.
#[derive(Debug, Clone, Default)]
pub struct StatusSearch {
    /// One of the list's states (see the list's own `Filter`).
    pub status: Option<String>,
    /// Text in any of the list's searched columns.
    pub search: Option<String>,
}

impl StatusSearch {
    /// The filter's conditions; `index` is the full-text index of `columns`
    /// ([`Where::contains`]).
    pub fn sql(&self, index: &'static str, columns: &[&'static str]) -> Where {
        let mut filter = Where::new();
        if let Some(status) = &self.status {
            filter.equals("status", status);
        }
        if let Some(text) = &self.search {
            filter.contains(index, columns, text);
        }
        filter
    }
}

/// Conditions joined by `AND`, with their values; placeholders are numbered when the clause is
/// written for an engine, since a search binds a different number of values on each.
#[derive(Debug, Clone, Default)]
pub struct Where {
    conditions: Vec<Condition>,
}

/// One condition of a list's filter.
#[derive(Debug, Clone)]
enum Condition {
    /// `column <operator> value`.
    Compare { column: &'static str, operator: &'static str, value: String },
    /// `column <operator> number`: the number is written into the SQL (an integer this crate
    /// parsed, never text), since a bound text would not compare with an integer column on
    /// PostgreSQL.
    CompareNumber { column: &'static str, operator: &'static str, value: i64 },
    /// `column IS [NOT] NULL`.
    IsNull { column: &'static str, null: bool },
    /// Any of `columns` contains `text`, ignoring letter case; `index` is the table's SQLite
    /// full-text index of exactly those columns (migrations/sqlite/0014_search_index.sql).
    Contains { index: &'static str, columns: Vec<&'static str>, text: String },
}

/// Shortest search text SQLite's full-text indexes serve: the trigram tokenizer indexes runs of
/// 3 characters, so a shorter text scans the table.
const TRIGRAM: usize = 3;

/// Matching rows from which a page of a SQLite search is found by walking the list's order
/// instead of looking up every match: a common word's page then ends after about
/// `PAGE_SIZE * rows / matches` index entries, while a rare text's few matches are cheaper to
/// look up and sort than a walk through every row (bench/organiser.sh).
const WALK_FROM_MATCHES: i64 = 500;

/// A clause being written: its conditions and the values its placeholders stand for, in order.
#[derive(Debug, Default)]
struct Written {
    sql: Vec<String>,
    values: Vec<String>,
    /// Whether every condition is only tested on rows met in the list's order rather than
    /// drive the query (`+column`, `+rowid`: SQLite uses no index for a term so written).
    walk: bool,
}

impl Written {
    /// The placeholder of a new bound `value`.
    fn bind(&mut self, value: String) -> String {
        self.values.push(value);
        format!("${}", self.values.len())
    }
}

impl Condition {
    fn write(&self, engine: Engine, out: &mut Written) {
        let sql = match self {
            // Walking the list's order, a filter's own index must not drive the query either.
            Condition::Compare { column, operator, value } => {
                let at = out.bind(value.clone());
                format!("{}{column} {operator} {at}", if out.walk { "+" } else { "" })
            }
            Condition::CompareNumber { column, operator, value } => {
                format!("{}{column} {operator} {value}", if out.walk { "+" } else { "" })
            }
            Condition::IsNull { column, null } => {
                format!("{}{column} IS {}NULL", if out.walk { "+" } else { "" }, if *null { "" } else { "NOT " })
            }
            Condition::Contains { index, text, .. } if uses_index(engine, text) => {
                // SQLite has no B-tree index for `LIKE '%text%'`; its full-text index (trigram
                // tokenizer) finds the rows where one of the columns holds the text, ignoring
                // the case of every letter (PostgreSQL's `lower()` folds them all too), from
                // the index alone. The text is one quoted phrase: FTS5's query syntax
                // (`AND`, `*`, `:` ...) never applies to what an organiser typed.
                let at = out.bind(phrase(text));
                let rowid = if out.walk { "+rowid" } else { "rowid" };
                format!("{rowid} IN (SELECT rowid FROM {index} WHERE {index} MATCH {at})")
            }
            Condition::Contains { columns, text, .. } => {
                let lowered = text.to_lowercase();
                let at = out.bind(format!("%{}%", like_escaped(&lowered)));
                let any: Vec<String> = columns
                    .iter()
                    .map(|c| match engine {
                        // PostgreSQL's LIKE heeds letter case: both sides lower-cased, which the
                        // trigram indexes of migration 0013 are built on.
                        Engine::Postgres => format!("lower({c}) LIKE {at} ESCAPE '\\'"),
                        // Texts too short for the full-text index: SQLite's LIKE already
                        // ignores the case of ASCII letters and only of those, exactly what its
                        // `lower()` folds, so `lower(c)` would match the same rows; without it
                        // a scan is about 2-7 times faster.
                        Engine::Sqlite => format!("{c} LIKE {at} ESCAPE '\\'"),
                    })
                    .collect();
                format!("({})", any.join(" OR "))
            }
        };
        out.sql.push(sql);
    }
}

impl Where {
    /// No condition: every row.
    pub fn new() -> Where {
        Where::default()
    }

    /// `column = value`.
    pub fn equals(&mut self, column: &'static str, value: &str) {
        self.conditions.push(Condition::Compare { column, operator: "=", value: value.to_owned() });
    }

    /// `column < number` (an integer column).
    pub fn number_below(&mut self, column: &'static str, value: i64) {
        self.conditions.push(Condition::CompareNumber { column, operator: "<", value });
    }

    /// `column >= number` (an integer column; NULL never matches).
    pub fn number_at_least(&mut self, column: &'static str, value: i64) {
        self.conditions.push(Condition::CompareNumber { column, operator: ">=", value });
    }

    /// `column IS NULL` or `column IS NOT NULL`.
    pub fn is_null(&mut self, column: &'static str, null: bool) {
        self.conditions.push(Condition::IsNull { column, null });
    }

    /// `column >= value` (RFC 3339 times compare as text).
    pub fn at_least(&mut self, column: &'static str, value: &str) {
        self.conditions.push(Condition::Compare { column, operator: ">=", value: value.to_owned() });
    }

    /// `column < value`.
    pub fn below(&mut self, column: &'static str, value: &str) {
        self.conditions.push(Condition::Compare { column, operator: "<", value: value.to_owned() });
    }

    /// Any of `columns` contains `text`, ignoring letter case; every character of `text`
    /// (`%`, `_`, `\`, `"`, ...) matches itself. `index` names the table's SQLite full-text
    /// index of exactly these columns (migration 0014), which serves texts of 3 or more
    /// characters; shorter ones, and every text on PostgreSQL, are a `LIKE`.
    pub fn contains(&mut self, index: &'static str, columns: &[&'static str], text: &str) {
        self.conditions.push(Condition::Contains { index, columns: columns.to_vec(), text: text.to_owned() });
    }

    /// ` WHERE ...` in `engine`'s SQL (or nothing without conditions), and the values of its
    /// placeholders `$1`, `$2`, ... in order.
    fn clause(&self, engine: Engine) -> (String, Vec<String>) {
        self.clause_walking(engine, false)
    }

    /// [`Where::clause`]; with `walk` (SQLite only), no condition drives the query: each is
    /// tested on rows met in the list's order.
    fn clause_walking(&self, engine: Engine, walk: bool) -> (String, Vec<String>) {
        if self.conditions.is_empty() {
            return (String::new(), Vec::new());
        }
        let mut out = Written { walk, ..Written::default() };
        for condition in &self.conditions {
            condition.write(engine, &mut out);
        }
        (format!(" WHERE {}", out.sql.join(" AND ")), out.values)
    }

    /// `select` (columns and table, this crate's text) with this filter and `order` (one of a
    /// list's fixed `ORDER BY` texts), bound.
    fn query<T>(
        &self,
        engine: Engine,
        select: &str,
        order: &str,
    ) -> sqlx::query::QueryAs<'static, Any, T, sqlx::any::AnyArguments>
    where
        T: for<'r> FromRow<'r, AnyRow>,
    {
        let (clause, values) = self.clause(engine);
        bound(format!("{select}{clause} ORDER BY {order}"), values)
    }

    /// How many rows match, and one page (1-based) of them: `select` reads columns of
    /// `table`, whose unique `key` names a row; `matches` says whether the number is known.
    ///
    /// The page's keys are found first, sorting only the order's columns and the key, and
    /// then their rows are read: a search matching thousands of rows sorts thousands of short
    /// entries instead of whole rows (SQLite keeps every column of a row it sorts), and a deep
    /// page skips its offset in an index, or from [`ANCHOR_EVERY`] rows on starts at an anchor
    /// kept in `matches`' [`Kept`]. The count picks how a SQLite search's page is found
    /// ([`WALK_FROM_MATCHES`]).
    pub async fn page<T>(
        &self,
        pool: &Pool,
        select: &str,
        (table, key): (&'static str, &str),
        order: &str,
        page: i64,
        matches: Matches<'_>,
    ) -> Result<(i64, Vec<T>), sqlx::Error>
    where
        T: for<'r> FromRow<'r, AnyRow> + Send + Unpin,
    {
        let engine = Engine::of_pool(pool);
        // The filter's written SQL and its values (quoted and escaped) name it.
        let (clause, values) = self.clause(engine);
        let filter = format!("{table} {clause:?} {values:?}");
        let (matches, kept) = match matches {
            Matches::Known(known, kept) => (known, Some(kept)),
            Matches::Count => (self.count(pool, table).await?, None),
            Matches::Kept(kept) => match kept.count(&filter) {
                Some(count) => (count, Some(kept)),
                None => {
                    let count = self.count(pool, table).await?;
                    kept.keep_count(filter.clone(), count);
                    (count, Some(kept))
                }
            },
        };
        if matches == 0 {
            return Ok((0, Vec::new()));
        }
        let searched =
            self.conditions.iter().any(|c| matches!(c, Condition::Contains { text, .. } if uses_index(engine, text)));
        let walk = searched && matches >= WALK_FROM_MATCHES;
        let offset = (page.max(1) - 1).saturating_mul(PAGE_SIZE);
        let anchored = match (kept, Seek::of(order)) {
            // A SQLite search walking the list's order keeps to its plain offset.
            (Some(kept), Some(seek)) if offset >= ANCHOR_EVERY && offset < matches && !walk => {
                let list = format!("{filter} {order}");
                let first = format!("SELECT {key} FROM {table}{clause} ORDER BY {order} LIMIT 1 OFFSET {offset}");
                kept.anchor_or_find(pool, list, offset, (first, values.clone())).await?.map(|anchor| (seek, anchor))
            }
            _ => None,
        };
        let rows = match anchored {
            Some((seek, (at, anchor))) => {
                // The rows from the anchor's on, in the list's order; the anchor's key is the
                // last placeholder.
                let at_anchor = seek.from(table, key, values.len() + 1);
                let condition =
                    if clause.is_empty() { format!(" WHERE {at_anchor}") } else { format!("{clause} AND {at_anchor}") };
                let keys = format!(
                    "SELECT {key} FROM {table}{condition} ORDER BY {order} LIMIT {PAGE_SIZE} OFFSET {}",
                    offset - at
                );
                let query = bound(format!("{select} WHERE {key} IN ({keys}) ORDER BY {order}"), values);
                match anchor {
                    Key::Integer(id) => query.bind(id).fetch_all(pool).await?,
                    Key::Text(id) => query.bind(id).fetch_all(pool).await?,
                }
            }
            None => {
                let (clause, values) = if walk { self.clause_walking(engine, true) } else { (clause, values) };
                let keys =
                    format!("SELECT {key} FROM {table}{clause} ORDER BY {order} LIMIT {PAGE_SIZE} OFFSET {offset}");
                bound(format!("{select} WHERE {key} IN ({keys}) ORDER BY {order}"), values).fetch_all(pool).await?
            }
        };
        Ok((matches, rows))
    }

    /// Every matching row, one at a time (the CSV downloads).
    pub fn stream<'a, T>(&self, pool: &'a Pool, select: &str, order: &str) -> BoxStream<'a, Result<T, sqlx::Error>>
    where
        T: for<'r> FromRow<'r, AnyRow> + Send + Unpin + 'a,
    {
        self.query(Engine::of_pool(pool), select, order).fetch(pool)
    }

    /// How many rows of `table` match.
    async fn count(&self, pool: &Pool, table: &'static str) -> Result<i64, sqlx::Error> {
        let engine = Engine::of_pool(pool);
        let (sql, values) = match self.conditions.as_slice() {
            // A search alone on SQLite: its full-text index holds one entry per row of the
            // table (the triggers keep it so), so the matches are counted there without a
            // look at the rows.
            [Condition::Contains { index, text, .. }] if uses_index(engine, text) => {
                (format!("SELECT COUNT(*) FROM {index} WHERE {index} MATCH $1"), vec![phrase(text)])
            }
            _ => {
                let (clause, values) = self.clause(engine);
                (format!("SELECT COUNT(*) FROM {table}{clause}"), values)
            }
        };
        let mut query = sqlx::query_scalar(AssertSqlSafe(sql));
        for value in values {
            query = query.bind(value);
        }
        query.fetch_one(pool).await
    }
}

/// A list's order as a seek: its columns (ending with a unique one) and whether they all
/// descend. `None` for an order whose terms go different ways, which one row-value comparison
/// cannot follow, or that sorts by an expression (`lower(paper_title)`): SQLite serves a
/// row-value range on an expression index by scanning it from the start.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seek {
    terms: Vec<String>,
    descending: bool,
}

impl Seek {
    fn of(order: &str) -> Option<Seek> {
        let mut terms = Vec::new();
        let mut directions = Vec::new();
        for term in order.split(", ") {
            let (term, descending) = match term.strip_suffix(" DESC") {
                Some(term) => (term, true),
                None => (term.strip_suffix(" ASC").unwrap_or(term), false),
            };
            terms.push(term.to_owned());
            directions.push(descending);
        }
        let descending = directions[0];
        let columns = terms.iter().all(|t| t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
        (columns && directions.iter().all(|d| *d == descending)).then_some(Seek { terms, descending })
    }

    /// The condition "at or after the row whose `key` is placeholder `$at`, in this order": a
    /// row-value comparison both engines serve from the order's index.
    fn from(&self, table: &str, key: &str, at: usize) -> String {
        let terms = self.terms.join(", ");
        let operator = if self.descending { "<=" } else { ">=" };
        format!("({terms}) {operator} (SELECT {terms} FROM {table} WHERE {key} = ${at})")
    }
}

impl Key {
    /// The first column of `row`, as whichever of the two it holds.
    fn of(row: &AnyRow) -> Option<Key> {
        match row.try_get::<i64, _>(0) {
            Ok(id) => Some(Key::Integer(id)),
            Err(_) => row.try_get::<String, _>(0).ok().map(Key::Text),
        }
    }
}

/// `sql` (this crate's text) with `values` bound to its placeholders in order, read as rows.
fn bound_row(sql: String, values: Vec<String>) -> sqlx::query::Query<'static, Any, sqlx::any::AnyArguments> {
    let mut query = sqlx::query(AssertSqlSafe(sql));
    for value in values {
        query = query.bind(value);
    }
    query
}

/// `sql` (this crate's text) with `values` bound to its placeholders in order.
fn bound<T>(sql: String, values: Vec<String>) -> sqlx::query::QueryAs<'static, Any, T, sqlx::any::AnyArguments>
where
    T: for<'r> FromRow<'r, AnyRow>,
{
    let mut query = sqlx::query_as(AssertSqlSafe(sql));
    for value in values {
        query = query.bind(value);
    }
    query
}

/// Whether a search for `text` goes through the table's full-text index (SQLite, a text of at
/// least [`TRIGRAM`] characters).
fn uses_index(engine: Engine, text: &str) -> bool {
    engine == Engine::Sqlite && text.chars().count() >= TRIGRAM
}

/// `text` as one FTS5 phrase (a string in double quotes, its own quotes doubled): every
/// character matches itself, none is query syntax (<https://sqlite.org/fts5.html> 3.2).
fn phrase(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// `text` with LIKE's wildcards and its escape character escaped (`ESCAPE '\'`).
pub fn like_escaped(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_themselves() {
        assert_eq!(like_escaped(r"50%_a\b"), r"50\%\_a\\b");
    }

    #[test]
    fn values_are_placeholders_never_text() {
        let mut filter = Where::new();
        filter.equals("paper_type", "x' OR 1=1 --");
        filter.contains("people_search", &["email", "name"], "Ada \"50%\"");
        assert_eq!(
            filter.clause(Engine::Postgres),
            (
                " WHERE paper_type = $1 AND (lower(email) LIKE $2 ESCAPE '\\' OR lower(name) LIKE $2 ESCAPE '\\')"
                    .into(),
                vec!["x' OR 1=1 --".into(), "%ada \"50\\%\"%".into()]
            )
        );
        assert_eq!(
            filter.clause(Engine::Sqlite),
            (
                " WHERE paper_type = $1 AND rowid IN (SELECT rowid FROM people_search WHERE people_search MATCH $2)"
                    .into(),
                vec!["x' OR 1=1 --".into(), "\"Ada \"\"50%\"\"\"".into()]
            )
        );
    }

    #[test]
    fn orders_of_columns_one_way_become_seeks() {
        let seek = Seek::of("created DESC, id DESC").unwrap();
        assert_eq!(
            seek.from("orders", "order_id", 3),
            "(created, id) <= (SELECT created, id FROM orders WHERE order_id = $3)"
        );
        assert_eq!(
            Seek::of("reference").unwrap().from("submissions", "id", 1),
            "(reference) >= (SELECT reference FROM submissions WHERE id = $1)"
        );
        assert_eq!(Seek::of("created, id DESC"), None);
        assert_eq!(Seek::of("lower(paper_title), id"), None);
    }

    #[test]
    fn texts_too_short_for_trigrams_scan_on_sqlite() {
        let mut filter = Where::new();
        filter.contains("people_search", &["email"], "Ad");
        assert_eq!(filter.clause(Engine::Sqlite), (" WHERE (email LIKE $1 ESCAPE '\\')".into(), vec!["%ad%".into()]));
    }
}
