//! The `WHERE` clause of the organisers' lists (DESIGN.md section 12): conditions are fixed
//! fragments of this crate's own text with `$N` placeholders, and every value a visitor or
//! organiser typed is a bound parameter; no SQL is ever built from user text. The same
//! [`Where`] serves a list's page, its count and its CSV, so the CSV is exactly the view.

use futures_util::stream::BoxStream;
use sqlx::any::AnyRow;
use sqlx::{Any, AssertSqlSafe, FromRow};

use crate::db::Pool;

/// Rows on one page of a list.
pub const PAGE_SIZE: i64 = 50;

/// Conditions joined by `AND`, with their bound values.
#[derive(Debug, Clone, Default)]
pub struct Where {
    conditions: Vec<String>,
    values: Vec<String>,
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
        self.conditions.push(format!("{column} = {at}"));
    }

    /// `column IS NULL` or `column IS NOT NULL`.
    pub fn is_null(&mut self, column: &'static str, null: bool) {
        self.conditions.push(format!("{column} IS {}NULL", if null { "" } else { "NOT " }));
    }

    /// `column >= value` (RFC 3339 times compare as text).
    pub fn at_least(&mut self, column: &'static str, value: &str) {
        let at = self.bind(value.to_owned());
        self.conditions.push(format!("{column} >= {at}"));
    }

    /// `column < value`.
    pub fn below(&mut self, column: &'static str, value: &str) {
        let at = self.bind(value.to_owned());
        self.conditions.push(format!("{column} < {at}"));
    }

    /// Any of `columns` contains `text`, ignoring letter case. `%`, `_` and `\` in `text` are
    /// escaped, so they match themselves rather than any text.
    pub fn contains(&mut self, columns: &[&'static str], text: &str) {
        let at = self.bind(format!("%{}%", like_escaped(&text.to_lowercase())));
        let any: Vec<String> = columns.iter().map(|c| format!("lower({c}) LIKE {at} ESCAPE '\\'")).collect();
        self.conditions.push(format!("({})", any.join(" OR ")));
    }

    /// ` WHERE ...`, or nothing without conditions.
    pub fn clause(&self) -> String {
        if self.conditions.is_empty() { String::new() } else { format!(" WHERE {}", self.conditions.join(" AND ")) }
    }

    /// `select` (columns and table, this crate's text) with this filter and `order` (one of a
    /// list's fixed `ORDER BY` texts), bound; one page when `page` is given (1-based).
    fn query<T>(
        &self,
        select: &str,
        order: &str,
        page: Option<i64>,
    ) -> sqlx::query::QueryAs<'static, Any, T, sqlx::any::AnyArguments>
    where
        T: for<'r> FromRow<'r, AnyRow>,
    {
        let mut sql = format!("{select}{} ORDER BY {order}", self.clause());
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
        self.query(select, order, Some(page)).fetch_all(pool).await
    }

    /// Every matching row, one at a time (the CSV downloads).
    pub fn stream<'a, T>(&self, pool: &'a Pool, select: &str, order: &str) -> BoxStream<'a, Result<T, sqlx::Error>>
    where
        T: for<'r> FromRow<'r, AnyRow> + Send + Unpin + 'a,
    {
        self.query(select, order, None).fetch(pool)
    }

    /// How many rows of `table` match.
    pub async fn count(&self, pool: &Pool, table: &'static str) -> Result<i64, sqlx::Error> {
        let mut query = sqlx::query_scalar(AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}{}", self.clause())));
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
            filter.clause(),
            " WHERE paper_type = $1 AND (lower(email) LIKE $2 ESCAPE '\\' OR lower(name) LIKE $2 ESCAPE '\\')"
        );
        assert_eq!(filter.values, ["x' OR 1=1 --", "%ada%"]);
    }
}
