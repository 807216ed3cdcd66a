//! The `WHERE` clause of the organisers' lists (DESIGN.md section 12): conditions are fixed
//! fragments of this crate's own text with `$N` placeholders, and every value a visitor or
//! organiser typed is a bound parameter; no SQL is ever built from user text. The same
//! [`Where`] serves a list's page, its count and its CSV, so the CSV is exactly the view.

use futures_util::stream::BoxStream;
use sqlx::any::AnyRow;
use sqlx::{Any, AssertSqlSafe, FromRow};

use crate::db::{Engine, Pool};

/// Rows on one page of a list.
pub const PAGE_SIZE: i64 = 50;

/// Conditions joined by `AND`, with their bound values.
#[derive(Debug, Clone, Default)]
pub struct Where {
    conditions: Vec<Condition>,
    values: Vec<String>,
}

/// One condition: the same text on both engines, or a search, whose text differs.
#[derive(Debug, Clone)]
enum Condition {
    Fixed(String),
    /// Any of `columns` contains the lower-cased, LIKE-escaped text bound at `at`.
    Contains {
        columns: Vec<&'static str>,
        at: String,
    },
}

impl Condition {
    fn sql(&self, engine: Engine) -> String {
        match self {
            Condition::Fixed(sql) => sql.clone(),
            Condition::Contains { columns, at } => {
                let any: Vec<String> = columns
                    .iter()
                    .map(|c| match engine {
                        // PostgreSQL's LIKE heeds letter case: both sides lower-cased, which the
                        // trigram indexes of migration 0013 are built on.
                        Engine::Postgres => format!("lower({c}) LIKE {at} ESCAPE '\\'"),
                        // SQLite's LIKE already ignores the case of ASCII letters and only of
                        // those, exactly what its `lower()` folds, so `lower(c)` would match the
                        // same rows; without it a search scans about 2-7 times faster.
                        Engine::Sqlite => format!("{c} LIKE {at} ESCAPE '\\'"),
                    })
                    .collect();
                format!("({})", any.join(" OR "))
            }
        }
    }
}

impl Where {
    /// No condition: every row.
    pub fn new() -> Where {
        Where::default()
    }

    /// The placeholder of a new bound `value`.
    fn bind(&mut self, value: String) -> String {
        self.values.push(value);
        format!("${}", self.values.len())
    }

    /// `column = value`.
    pub fn equals(&mut self, column: &'static str, value: &str) {
        let at = self.bind(value.to_owned());
        self.conditions.push(Condition::Fixed(format!("{column} = {at}")));
    }

    /// `column IS NULL` or `column IS NOT NULL`.
    pub fn is_null(&mut self, column: &'static str, null: bool) {
        self.conditions.push(Condition::Fixed(format!("{column} IS {}NULL", if null { "" } else { "NOT " })));
    }

    /// `column >= value` (RFC 3339 times compare as text).
    pub fn at_least(&mut self, column: &'static str, value: &str) {
        let at = self.bind(value.to_owned());
        self.conditions.push(Condition::Fixed(format!("{column} >= {at}")));
    }

    /// `column < value`.
    pub fn below(&mut self, column: &'static str, value: &str) {
        let at = self.bind(value.to_owned());
        self.conditions.push(Condition::Fixed(format!("{column} < {at}")));
    }

    /// Any of `columns` contains `text`, ignoring letter case. `%`, `_` and `\` in `text` are
    /// escaped, so they match themselves rather than any text.
    pub fn contains(&mut self, columns: &[&'static str], text: &str) {
        let at = self.bind(format!("%{}%", like_escaped(&text.to_lowercase())));
        self.conditions.push(Condition::Contains { columns: columns.to_vec(), at });
    }

    /// ` WHERE ...` in `engine`'s SQL, or nothing without conditions.
    pub fn clause(&self, engine: Engine) -> String {
        if self.conditions.is_empty() {
            return String::new();
        }
        let all: Vec<String> = self.conditions.iter().map(|c| c.sql(engine)).collect();
        format!(" WHERE {}", all.join(" AND "))
    }

    /// `select` (columns and table, this crate's text) with this filter and `order` (one of a
    /// list's fixed `ORDER BY` texts), bound; one page when `page` is given (1-based).
    fn query<T>(
        &self,
        engine: Engine,
        select: &str,
        order: &str,
        page: Option<i64>,
    ) -> sqlx::query::QueryAs<'static, Any, T, sqlx::any::AnyArguments>
    where
        T: for<'r> FromRow<'r, AnyRow>,
    {
        let mut sql = format!("{select}{} ORDER BY {order}", self.clause(engine));
        if let Some(page) = page {
            let offset = (page.max(1) - 1).saturating_mul(PAGE_SIZE);
            sql.push_str(&format!(" LIMIT {PAGE_SIZE} OFFSET {offset}"));
        }
        let mut query = sqlx::query_as(AssertSqlSafe(sql));
        for value in &self.values {
            query = query.bind(value.clone());
        }
        query
    }

    /// One page (1-based) of rows.
    pub async fn page<T>(&self, pool: &Pool, select: &str, order: &str, page: i64) -> Result<Vec<T>, sqlx::Error>
    where
        T: for<'r> FromRow<'r, AnyRow> + Send + Unpin,
    {
        self.query(Engine::of_pool(pool), select, order, Some(page)).fetch_all(pool).await
    }

    /// Every matching row, one at a time (the CSV downloads).
    pub fn stream<'a, T>(&self, pool: &'a Pool, select: &str, order: &str) -> BoxStream<'a, Result<T, sqlx::Error>>
    where
        T: for<'r> FromRow<'r, AnyRow> + Send + Unpin + 'a,
    {
        self.query(Engine::of_pool(pool), select, order, None).fetch(pool)
    }

    /// How many rows of `table` match.
    pub async fn count(&self, pool: &Pool, table: &'static str) -> Result<i64, sqlx::Error> {
        let mut query = sqlx::query_scalar(AssertSqlSafe(format!(
            "SELECT COUNT(*) FROM {table}{}",
            self.clause(Engine::of_pool(pool))
        )));
        for value in &self.values {
            query = query.bind(value.clone());
        }
        query.fetch_one(pool).await
    }
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
        filter.contains(&["email", "name"], "Ada");
        assert_eq!(
            filter.clause(Engine::Postgres),
            " WHERE paper_type = $1 AND (lower(email) LIKE $2 ESCAPE '\\' OR lower(name) LIKE $2 ESCAPE '\\')"
        );
        assert_eq!(
            filter.clause(Engine::Sqlite),
            " WHERE paper_type = $1 AND (email LIKE $2 ESCAPE '\\' OR name LIKE $2 ESCAPE '\\')"
        );
        assert_eq!(filter.values, ["x' OR 1=1 --", "%ada%"]);
    }
}
