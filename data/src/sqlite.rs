//! The SQLite backend: a file in WAL mode, its pragmas and its migrations.
//!
//! One writer at a time is SQLite's own rule: a write transaction takes the write lock at its
//! start (`BEGIN IMMEDIATE`), so what it reads cannot change before it writes, and readers keep
//! reading their snapshot meanwhile.

use std::path::Path;
use std::time::Duration;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::Connection;
use rusqlite_migration::{Migrations, M};

use crate::error::{ColumnError, Error, Result};
use crate::sql::{Cell, Value};
use crate::Synchronous;

/// The schema, one migration per step. Never edit a released step: append a new one (and its
/// PostgreSQL twin in `pg.rs`).
pub(crate) fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("migrations/sqlite/001_games.sql")),
        M::up(include_str!("migrations/sqlite/002_tournaments.sql")),
        M::up(include_str!("migrations/sqlite/003_host.sql")),
        M::up(include_str!("migrations/sqlite/004_tournament_play.sql")),
        M::up(include_str!("migrations/sqlite/005_clock_kind.sql")).foreign_key_check(),
        M::up(include_str!("migrations/sqlite/006_processes.sql")),
        M::up(include_str!("migrations/sqlite/007_outbox.sql")),
        M::up(include_str!("migrations/sqlite/008_time_odds.sql")),
        M::up(include_str!("migrations/sqlite/009_live_tournaments.sql")),
        M::up(include_str!("migrations/sqlite/011_pauses.sql")),
        M::up(include_str!("migrations/sqlite/012_adapter_ledger.sql")),
        M::up(include_str!("migrations/sqlite/013_web.sql")),
        M::up(include_str!("migrations/sqlite/014_puzzles.sql")),
        M::up(include_str!("migrations/sqlite/015_analyses.sql")),
        M::up(include_str!("migrations/sqlite/016_user_settings.sql")),
        M::up(include_str!("migrations/sqlite/017_daily_puzzle.sql")),
        M::up(include_str!("migrations/sqlite/018_team_games.sql")),
        M::up(include_str!("migrations/sqlite/019_analysis_judge.sql")),
    ])
}

/// How long a connection waits for another one's write lock before giving up with `SQLITE_BUSY`.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Opens (creating if needed) the database at `path` in WAL mode and migrates it.
pub(crate) fn open(path: &Path, synchronous: Synchronous) -> Result<Connection> {
    let mut conn = Connection::open(path)?;
    configure(&conn)?;
    // WAL lets readers keep reading their snapshot while a writer commits; it is a property
    // of the file, so the first connection sets it for all.
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(Error::NoWal { path: path.to_path_buf(), mode });
    }
    let synchronous = match synchronous {
        Synchronous::Full => "FULL",
        Synchronous::Normal => "NORMAL",
    };
    conn.pragma_update(None, "synchronous", synchronous)?;
    migrate(&mut conn)?;
    Ok(conn)
}

/// Opens a connection that only reads, for a database that [`open`] has already migrated.
#[cfg(feature = "tokio")]
pub(crate) fn open_reader(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    configure(&conn)?;
    // Read-write at the file level so it can share the WAL index with the writer, but
    // refusing every change: a reader that tried to write would be a bug in this crate.
    conn.pragma_update(None, "query_only", true)?;
    Ok(conn)
}

/// Brings the schema up to date. A step that rebuilds a table (SQLite cannot add a constraint to
/// one) must run with foreign key enforcement off, or dropping the old table would delete the
/// rows that refer to it; such a step checks the foreign keys itself before it commits.
fn migrate(conn: &mut Connection) -> Result<()> {
    let found = schema_version(conn)?;
    if found > crate::SCHEMA_VERSION {
        return Err(Error::SchemaTooNew { found, supported: crate::SCHEMA_VERSION });
    }
    conn.pragma_update(None, "foreign_keys", false)?;
    let migrated = migrations().to_latest(conn);
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(migrated?)
}

pub(crate) fn schema_version(conn: &Connection) -> Result<usize> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    Ok(usize::try_from(version).unwrap_or(usize::MAX))
}

/// Settings of every connection (they are per connection, not stored in the file).
fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.set_prepared_statement_cache_capacity(96);
    Ok(())
}

/// SQLite's full integrity check and the foreign key check, as one list of problems.
pub(crate) fn integrity_problems(conn: &Connection) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    let mut stmt = conn.prepare("PRAGMA integrity_check")?;
    for line in stmt.query_map([], |row| row.get::<_, String>(0))? {
        let line = line?;
        if line != "ok" {
            problems.push(line);
        }
    }
    let mut stmt = conn.prepare("PRAGMA foreign_key_check")?;
    let violations = stmt.query_map([], |row| {
        Ok(format!(
            "row {} of {} breaks a foreign key to {}",
            row.get::<_, Option<i64>>(1)?.unwrap_or_default(),
            row.get::<_, String>(0)?,
            row.get::<_, String>(2)?
        ))
    })?;
    for violation in violations {
        problems.push(violation?);
    }
    Ok(problems)
}

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match *self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(i) => ToSqlOutput::Borrowed(ValueRef::Integer(i)),
            Value::Real(r) => ToSqlOutput::Borrowed(ValueRef::Real(r)),
            Value::Bool(b) => ToSqlOutput::Borrowed(ValueRef::Integer(i64::from(b))),
            Value::Text(t) => ToSqlOutput::Borrowed(ValueRef::Text(t.as_bytes())),
        })
    }
}

/// Column `column` of a row.
pub(crate) fn cell<'r>(row: &'r rusqlite::Row<'_>, column: usize) -> Result<Cell<'r>, ColumnError> {
    let value = row.get_ref(column).map_err(|_| ColumnError::Missing)?;
    Ok(match value {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(i) => Cell::Int(i),
        ValueRef::Real(r) => Cell::Real(r),
        ValueRef::Text(t) => Cell::Text(std::str::from_utf8(t).map_err(|_| ColumnError::NotUtf8)?),
        ValueRef::Blob(_) => return Err(ColumnError::Type { expected: "a value", found: "blob" }),
    })
}
