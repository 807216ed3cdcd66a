//! The string literals of a content seed, each with what it fills (table, row, column), read
//! from the seed's text so that a tool can rewrite values in place and keep the organisers'
//! comments and layout (`crate::editions::seed`).
//!
//! The seed is plain SQL of two shapes (`migrations/seed/content.sql`): `INSERT INTO t (cols)
//! VALUES (...), (...);` and `UPDATE t SET col = value, ... WHERE key = value;`. Literals
//! elsewhere (a `DELETE`, a nested expression) are listed with an empty table and column.

use std::ops::Range;

/// One `'...'` literal of a seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Literal {
    /// Byte range in the seed's text, quotes included.
    pub span: Range<usize>,
    /// The value, a doubled quote read as one.
    pub value: String,
    /// The table the statement writes; empty when the literal is in no INSERT or UPDATE.
    pub table: String,
    /// The row: the value of an INSERT's first column, or of the UPDATE's `WHERE` key.
    pub row: String,
    /// The column the literal fills; empty when it fills none (a `WHERE` key, an expression).
    pub column: String,
}

/// A piece of the seed's text that is neither blank nor comment.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// A keyword, name, number or `NULL`; a `"quoted"` name without its quotes.
    Word(String),
    /// A string literal: its span and value.
    Text(Range<usize>, String),
    /// Any other character: `(`, `)`, `,`, `=`, `;`, ...
    Punct(char),
}

/// The tokens of `sql`, comments (`-- ...`, `/* ... */`) and blanks left out. An unclosed
/// literal runs to the end of the text (the seed check reports the SQL error).
fn tokens(sql: &str) -> Vec<Token> {
    let bytes = sql.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if sql[i..].starts_with("--") {
            i = sql[i..].find('\n').map_or(bytes.len(), |n| i + n + 1);
        } else if sql[i..].starts_with("/*") {
            i = sql[i + 2..].find("*/").map_or(bytes.len(), |n| i + 2 + n + 2);
        } else if c == b'\'' || c == b'"' {
            let (end, value) = quoted(sql, i);
            i = end;
            out.push(if c == b'\'' { Token::Text(start..end, value) } else { Token::Word(value) });
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c >= 0x80 {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.') {
                i += 1;
            }
            // A character outside ASCII is a word of its own, whole.
            if i == start {
                i += sql[i..].chars().next().map_or(1, char::len_utf8);
            }
            out.push(Token::Word(sql[start..i].to_owned()));
        } else {
            out.push(Token::Punct(c as char));
            i += 1;
        }
    }
    out
}

/// The end (past the closing quote) and value of the quoted text opening at `open`.
fn quoted(sql: &str, open: usize) -> (usize, String) {
    let quote = sql.as_bytes()[open] as char;
    let mut value = String::new();
    let mut rest = sql[open + 1..].char_indices().peekable();
    while let Some((at, c)) = rest.next() {
        if c == quote {
            if rest.peek().map(|&(_, next)| next) == Some(quote) {
                rest.next();
            } else {
                return (open + 1 + at + 1, value);
            }
        }
        value.push(c);
    }
    (sql.len(), value)
}

/// Every string literal of `sql` in the text's order, each named by table, row and column.
pub fn literals(sql: &str) -> Vec<Literal> {
    let mut out = Vec::new();
    for statement in tokens(sql).split(|token| *token == Token::Punct(';')) {
        let words: Vec<String> = statement
            .iter()
            .take(3)
            .map(|token| match token {
                Token::Word(word) => word.to_ascii_uppercase(),
                _ => String::new(),
            })
            .collect();
        match words.as_slice() {
            [insert, into, _] if insert == "INSERT" && into == "INTO" => insert_literals(statement, &mut out),
            [update, _, ..] if update == "UPDATE" => update_literals(statement, &mut out),
            _ => unnamed(statement, "", "", &mut out),
        }
    }
    out
}

/// The name a token gives as a row key: a literal's value or a word.
fn key(token: Option<&Token>) -> String {
    match token {
        Some(Token::Text(_, value) | Token::Word(value)) => value.clone(),
        _ => String::new(),
    }
}

/// Every literal of `tokens` with no column, in `table` and `row`.
fn unnamed(tokens: &[Token], table: &str, row: &str, out: &mut Vec<Literal>) {
    for token in tokens {
        if let Token::Text(span, value) = token {
            out.push(Literal {
                span: span.clone(),
                value: value.clone(),
                table: table.to_owned(),
                row: row.to_owned(),
                column: String::new(),
            });
        }
    }
}

/// `INSERT INTO table (columns) VALUES (values), ...`: each literal of a row's top level
/// takes the column in its position.
fn insert_literals(statement: &[Token], out: &mut Vec<Literal>) {
    let table = key(statement.get(2));
    let mut columns = Vec::new();
    let mut at = 3;
    if statement.get(at) == Some(&Token::Punct('(')) {
        at += 1;
        while let Some(token) = statement.get(at) {
            at += 1;
            match token {
                Token::Word(name) => columns.push(name.clone()),
                Token::Punct(')') => break,
                _ => {}
            }
        }
    }
    // The rows: `( ... )` groups after VALUES, split at commas of their own level.
    let mut depth = 0;
    let mut row: Vec<Vec<&Token>> = Vec::new();
    for token in &statement[at..] {
        match token {
            Token::Punct('(') => {
                depth += 1;
                if depth == 1 {
                    row = vec![Vec::new()];
                    continue;
                }
            }
            Token::Punct(')') => {
                depth -= 1;
                if depth == 0 {
                    insert_row(&table, &columns, &row, out);
                    continue;
                }
            }
            Token::Punct(',') if depth == 1 => {
                row.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if depth >= 1
            && let Some(value) = row.last_mut()
        {
            value.push(token);
        }
    }
}

/// One row of an INSERT: its values (tokens each) under `columns`.
fn insert_row(table: &str, columns: &[String], values: &[Vec<&Token>], out: &mut Vec<Literal>) {
    let row = key(values.first().and_then(|value| value.first().copied()));
    for (index, value) in values.iter().enumerate() {
        let alone = value.len() == 1;
        for token in value {
            if let Token::Text(span, text) = token {
                let column = if alone { columns.get(index).cloned().unwrap_or_default() } else { String::new() };
                out.push(Literal {
                    span: span.clone(),
                    value: text.clone(),
                    table: table.to_owned(),
                    row: row.clone(),
                    column,
                });
            }
        }
    }
}

/// `UPDATE table SET column = value, ... WHERE key = value`: a literal right after `column =`
/// fills that column; the row is the `WHERE` clause's first value.
fn update_literals(statement: &[Token], out: &mut Vec<Literal>) {
    let table = key(statement.get(1));
    let where_at = statement
        .iter()
        .position(|token| matches!(token, Token::Word(word) if word.eq_ignore_ascii_case("WHERE")))
        .unwrap_or(statement.len());
    let (set, condition) = statement.split_at(where_at);
    let row = condition
        .iter()
        .position(|token| *token == Token::Punct('='))
        .map(|equals| key(condition.get(equals + 1)))
        .unwrap_or_default();
    for (at, token) in set.iter().enumerate() {
        if let Token::Text(span, value) = token {
            let assigned = at >= 2
                && set[at - 1] == Token::Punct('=')
                && matches!(set.get(at + 1), None | Some(Token::Punct(',')));
            let column = if assigned { key(set.get(at - 2)) } else { String::new() };
            out.push(Literal {
                span: span.clone(),
                value: value.clone(),
                table: table.clone(),
                row: row.clone(),
                column,
            });
        }
    }
    unnamed(condition, &table, &row, out);
}

/// `value` as an SQL string literal: quoted, each quote doubled.
pub fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(sql: &str) -> Vec<(String, String, String, String)> {
        literals(sql).into_iter().map(|l| (l.table, l.row, l.column, l.value)).collect()
    }

    fn four(table: &str, row: &str, column: &str, value: &str) -> (String, String, String, String) {
        (table.into(), row.into(), column.into(), value.into())
    }

    #[test]
    fn an_insert_names_each_literal_by_its_rows_first_value_and_its_column() {
        let sql = "-- 'not a literal'\nINSERT INTO dates (id, date, title) VALUES\n('d-1', '2025-03-21', 'It''s day 1; (one)'),\n('d-2', '2025-03-22', NULL);";
        assert_eq!(
            named(sql),
            vec![
                four("dates", "d-1", "id", "d-1"),
                four("dates", "d-1", "date", "2025-03-21"),
                four("dates", "d-1", "title", "It's day 1; (one)"),
                four("dates", "d-2", "id", "d-2"),
                four("dates", "d-2", "date", "2025-03-22"),
            ]
        );
        let spans: Vec<&str> = literals(sql).iter().map(|l| &sql[l.span.clone()]).collect();
        assert_eq!(spans[2], "'It''s day 1; (one)'");
    }

    #[test]
    fn a_numbered_row_and_an_update_name_their_row_and_columns() {
        let sql = "INSERT INTO site (id, name) VALUES (1, 'Été 2025');\n/* x */ UPDATE site SET\n  attendee_changes_until = '2025-03-14 23:59',\n  receipt_prefix = 'FIX'\nWHERE id = 1;\nUPDATE sessions SET speaker = 's-1' WHERE slug = 'keynote';\nDELETE FROM site;";
        assert_eq!(
            named(sql),
            vec![
                four("site", "1", "name", "Été 2025"),
                four("site", "1", "attendee_changes_until", "2025-03-14 23:59"),
                four("site", "1", "receipt_prefix", "FIX"),
                four("sessions", "keynote", "speaker", "s-1"),
                four("sessions", "keynote", "", "keynote"),
            ]
        );
    }

    #[test]
    fn a_literal_inside_an_expression_fills_no_column() {
        let sql = "INSERT INTO t (a, b) VALUES ('k', lower('X'));";
        assert_eq!(named(sql), vec![four("t", "k", "a", "k"), four("t", "k", "", "X")]);
        assert_eq!(quote("it's"), "'it''s'");
    }
}
