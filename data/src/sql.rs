//! One way to run a query on either backend: statements written once, values passed and read
//! back through small neutral types, so each query of the crate exists once.
//!
//! Statements are written in PostgreSQL's placeholder style (`$1`, `$2`, ...); SQLite is given
//! the same text with `?1`, `?2`, ..., which binds by number the same way (a plain rewrite: no
//! statement holds a `$` anywhere else). The few statements that must differ (a row lock only
//! PostgreSQL has) give both texts. Every statement is a `static` (see [`sql!`]), so each
//! connection prepares it once and finds it again by address.

use std::sync::OnceLock;

use crate::error::{ColumnError, Error, Result};
use crate::pg::PgConn;

/// A statement, with its SQLite spelling derived once.
pub(crate) struct Sql {
    postgres: &'static str,
    sqlite_text: Option<&'static str>,
    sqlite: OnceLock<String>,
}

impl Sql {
    pub(crate) const fn new(text: &'static str) -> Sql {
        Sql { postgres: text, sqlite_text: None, sqlite: OnceLock::new() }
    }

    /// A statement whose SQLite text differs beyond its placeholders.
    pub(crate) const fn dialects(postgres: &'static str, sqlite: &'static str) -> Sql {
        Sql { postgres, sqlite_text: Some(sqlite), sqlite: OnceLock::new() }
    }

    pub(crate) fn postgres(&self) -> &'static str {
        self.postgres
    }

    pub(crate) fn sqlite(&self) -> &str {
        self.sqlite.get_or_init(|| numbered_for_sqlite(self.sqlite_text.unwrap_or(self.postgres)))
    }

    /// The statement's identity in a connection's cache.
    pub(crate) fn key(&'static self) -> usize {
        self as *const Sql as usize
    }
}

/// `$1` to `?1`: SQLite reads `$1` as a *named* parameter numbered by first appearance, which
/// would bind a statement that mentions `$2` before `$1` wrongly; `?1` is bound by its number.
fn numbered_for_sqlite(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

/// A statement as a `static` of its own: `sql!("SELECT ...", columns!(), " FROM ...")`
/// concatenates its literal parts; `sql!(postgres: "...", sqlite: "...")` gives both dialects.
macro_rules! sql {
    (postgres: $pg:expr, sqlite: $lite:expr $(,)?) => {{
        static SQL: $crate::sql::Sql = $crate::sql::Sql::dialects($pg, $lite);
        &SQL
    }};
    ($($part:expr),+ $(,)?) => {{
        static SQL: $crate::sql::Sql = $crate::sql::Sql::new(concat!($($part),+));
        &SQL
    }};
}

pub(crate) use sql;

/// A parameter of a statement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Value<'a> {
    Null,
    Int(i64),
    Real(f64),
    Bool(bool),
    Text(&'a str),
}

/// What can be passed as a parameter.
pub(crate) trait ToValue {
    fn to_value(&self) -> Value<'_>;
}

impl ToValue for i64 {
    fn to_value(&self) -> Value<'_> {
        Value::Int(*self)
    }
}

impl ToValue for u32 {
    fn to_value(&self) -> Value<'_> {
        Value::Int(i64::from(*self))
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value<'_> {
        Value::Real(*self)
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value<'_> {
        Value::Bool(*self)
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value<'_> {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value<'_> {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

/// The parameters of a statement: `params![a, b, c]`.
macro_rules! params {
    ($($value:expr),* $(,)?) => {
        &[$($crate::sql::ToValue::to_value(&$value)),*]
    };
}

pub(crate) use params;

/// A value read from a row, borrowed from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Cell<'a> {
    Null,
    Int(i64),
    Real(f64),
    Bool(bool),
    Text(&'a str),
}

impl Cell<'_> {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Cell::Null => "null",
            Cell::Int(_) => "integer",
            Cell::Real(_) => "real",
            Cell::Bool(_) => "boolean",
            Cell::Text(_) => "text",
        }
    }
}

/// What a column can be read as.
pub(crate) trait FromCell: Sized {
    fn from_cell(cell: Cell<'_>) -> Result<Self, ColumnError>;
}

fn mismatch(expected: &'static str, cell: Cell<'_>) -> ColumnError {
    ColumnError::Type { expected, found: cell.kind() }
}

impl FromCell for i64 {
    fn from_cell(cell: Cell<'_>) -> Result<i64, ColumnError> {
        match cell {
            Cell::Int(i) => Ok(i),
            other => Err(mismatch("integer", other)),
        }
    }
}

impl FromCell for u32 {
    fn from_cell(cell: Cell<'_>) -> Result<u32, ColumnError> {
        let i = i64::from_cell(cell)?;
        u32::try_from(i).map_err(|_| ColumnError::OutOfRange { value: i, target: "u32" })
    }
}

impl FromCell for f64 {
    fn from_cell(cell: Cell<'_>) -> Result<f64, ColumnError> {
        match cell {
            Cell::Real(r) => Ok(r),
            other => Err(mismatch("real", other)),
        }
    }
}

impl FromCell for bool {
    fn from_cell(cell: Cell<'_>) -> Result<bool, ColumnError> {
        match cell {
            Cell::Bool(b) => Ok(b),
            // SQLite keeps booleans as 0 and 1 (the schema checks it).
            Cell::Int(0) => Ok(false),
            Cell::Int(1) => Ok(true),
            Cell::Int(i) => Err(ColumnError::OutOfRange { value: i, target: "bool" }),
            other => Err(mismatch("boolean", other)),
        }
    }
}

impl FromCell for String {
    fn from_cell(cell: Cell<'_>) -> Result<String, ColumnError> {
        match cell {
            Cell::Text(t) => Ok(t.to_owned()),
            other => Err(mismatch("text", other)),
        }
    }
}

impl<T: FromCell> FromCell for Option<T> {
    fn from_cell(cell: Cell<'_>) -> Result<Option<T>, ColumnError> {
        match cell {
            Cell::Null => Ok(None),
            other => T::from_cell(other).map(Some),
        }
    }
}

/// One row of a result, read by column position (as the statement lists them).
pub(crate) enum Row<'r, 's> {
    Sqlite(&'r rusqlite::Row<'s>),
    Postgres(&'r postgres::Row),
}

impl Row<'_, '_> {
    pub(crate) fn get<T: FromCell>(&self, column: usize) -> Result<T> {
        let read = match self {
            Row::Sqlite(row) => crate::sqlite::cell(row, column),
            Row::Postgres(row) => crate::pg::cell(row, column),
        };
        read.and_then(T::from_cell).map_err(|problem| Error::Column { column, problem })
    }
}

/// The connection a transaction runs on.
#[derive(Clone, Copy)]
pub(crate) enum Conn<'c> {
    Sqlite(&'c rusqlite::Connection),
    Postgres(&'c PgConn),
}

impl Conn<'_> {
    /// Runs a statement that returns no rows; the number of rows it changed.
    pub(crate) fn execute(&self, sql: &'static Sql, params: &[Value<'_>]) -> Result<u64> {
        match self {
            Conn::Sqlite(conn) => {
                let changed = conn.prepare_cached(sql.sqlite())?.execute(rusqlite::params_from_iter(params.iter()))?;
                Ok(changed as u64)
            }
            Conn::Postgres(conn) => conn.execute(sql, params),
        }
    }

    /// Every row, each mapped by `map`.
    pub(crate) fn query<T>(
        &self,
        sql: &'static Sql,
        params: &[Value<'_>],
        mut map: impl FnMut(&Row<'_, '_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        match self {
            Conn::Sqlite(conn) => {
                let mut stmt = conn.prepare_cached(sql.sqlite())?;
                let mut rows = stmt.query(rusqlite::params_from_iter(params.iter()))?;
                let mut out = Vec::new();
                while let Some(row) = rows.next()? {
                    out.push(map(&Row::Sqlite(row))?);
                }
                Ok(out)
            }
            Conn::Postgres(conn) => conn.query(sql, params)?.iter().map(|row| map(&Row::Postgres(row))).collect(),
        }
    }

    /// The first row, if any.
    pub(crate) fn query_opt<T>(
        &self,
        sql: &'static Sql,
        params: &[Value<'_>],
        map: impl FnOnce(&Row<'_, '_>) -> Result<T>,
    ) -> Result<Option<T>> {
        match self {
            Conn::Sqlite(conn) => {
                let mut stmt = conn.prepare_cached(sql.sqlite())?;
                let mut rows = stmt.query(rusqlite::params_from_iter(params.iter()))?;
                rows.next()?.map(|row| map(&Row::Sqlite(row))).transpose()
            }
            Conn::Postgres(conn) => conn.query(sql, params)?.first().map(|row| map(&Row::Postgres(row))).transpose(),
        }
    }

    /// The first row of a statement that always returns one (an aggregate, `RETURNING`).
    pub(crate) fn query_one<T>(
        &self,
        sql: &'static Sql,
        params: &[Value<'_>],
        map: impl FnOnce(&Row<'_, '_>) -> Result<T>,
    ) -> Result<T> {
        self.query_opt(sql, params, map)?.ok_or(Error::NoRow)
    }

    /// The first column of the first row of a statement that always returns one.
    pub(crate) fn value<T: FromCell>(&self, sql: &'static Sql, params: &[Value<'_>]) -> Result<T> {
        self.query_one(sql, params, |row| row.get(0))
    }
}

#[cfg(test)]
mod tests {
    use super::numbered_for_sqlite;

    #[test]
    fn placeholders_are_numbered_for_sqlite_and_nothing_else_changes() {
        assert_eq!(
            numbered_for_sqlite("SELECT a FROM t WHERE b = $2 AND c = $1 AND d = '$' || $10"),
            "SELECT a FROM t WHERE b = ?2 AND c = ?1 AND d = '$' || ?10"
        );
    }
}
