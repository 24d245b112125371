//! Opening the database on either backend, and the two kinds of transaction every query runs in.
//!
//! Each query is a method of [`ReadTx`] or [`WriteTx`], in the module of what it touches
//! (`games`, `moves`, ...), written once for both backends (see `sql.rs`). [`Store::read`] and
//! [`Store::write`] run a closure in one transaction, so a caller can make several changes that
//! land together or not at all.

use std::ops::Deref;
use std::path::PathBuf;

use rusqlite::{Connection, TransactionBehavior};

use crate::error::{Error, Result};
use crate::location::Location;
use crate::pg::{self, PgConn};
use crate::sql::Conn;

/// The schema version this build writes (the same number on both backends).
pub const SCHEMA_VERSION: usize = 18;

/// Where the database lives unless the operator says otherwise: `chimera.db` in the working
/// directory.
pub fn default_path() -> PathBuf {
    PathBuf::from("chimera.db")
}

/// When a commit reaches the disk.
///
/// `Full`: a commit that returned survives a power cut (SQLite syncs its log on every commit;
/// PostgreSQL runs with `synchronous_commit = on`). `Normal`: a commit survives a crash of the
/// process, but the last ones may be lost with the machine (SQLite syncs only at checkpoints;
/// PostgreSQL's `synchronous_commit = off`). A move is acknowledged to a player after its
/// commit, so the host uses `Full`; `Normal` is here for the benchmark that weighs the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Synchronous {
    Full,
    Normal,
}

/// One connection to the database. `Send` but not `Sync`: one thread at a time uses it (the
/// async host uses [`crate::AsyncStore`], which owns several).
pub struct Store {
    backend: Backend,
    location: Location,
}

enum Backend {
    Sqlite(Connection),
    Postgres(Box<PgConn>),
}

impl Store {
    /// Opens the database at `location` (a SQLite path, created if needed, or a PostgreSQL URL)
    /// and migrates it to [`SCHEMA_VERSION`], with every commit durable ([`Synchronous::Full`]).
    /// A database of a newer schema is refused ([`Error::SchemaTooNew`]).
    pub fn open(location: impl Into<Location>) -> Result<Store> {
        Store::open_with(location, Synchronous::Full)
    }

    pub fn open_with(location: impl Into<Location>, synchronous: Synchronous) -> Result<Store> {
        let location = location.into();
        let backend = match &location {
            Location::Sqlite(path) => Backend::Sqlite(crate::sqlite::open(path, synchronous)?),
            Location::Postgres(url) => {
                let conn = PgConn::connect(&pg::config(url)?, synchronous)?;
                pg::migrate(&conn)?;
                Backend::Postgres(Box::new(conn))
            }
        };
        Ok(Store { backend, location })
    }

    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Runs `f` in a read transaction: every query in it sees the same snapshot, and a writer
    /// committing meanwhile neither blocks it nor shows through.
    pub fn read<R>(&self, f: impl FnOnce(&ReadTx<'_>) -> Result<R>) -> Result<R> {
        match &self.backend {
            Backend::Sqlite(conn) => {
                let tx = conn.unchecked_transaction()?;
                let result = f(&ReadTx::new(Conn::Sqlite(&tx)))?;
                tx.commit()?;
                Ok(result)
            }
            Backend::Postgres(conn) => conn.read(f),
        }
    }

    /// Runs `f` in a write transaction and commits it if `f` succeeds; on an error nothing of it
    /// stays. What `f` reads cannot change under it before it commits: SQLite takes the write
    /// lock at the start (`BEGIN IMMEDIATE`); PostgreSQL runs it `SERIALIZABLE` and runs `f`
    /// again, on a fresh snapshot, when a concurrent transaction got in the way. So `f` may run
    /// more than once and must do nothing but its queries.
    pub fn write<R>(&mut self, f: impl Fn(&WriteTx<'_>) -> Result<R>) -> Result<R> {
        match &mut self.backend {
            Backend::Sqlite(conn) => {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                let result = f(&WriteTx::new(Conn::Sqlite(&tx)))?;
                tx.commit()?;
                Ok(result)
            }
            Backend::Postgres(conn) => conn.write(f),
        }
    }

    /// Starts the write transaction of a batch (see `AsyncStore`): the caller runs each job in
    /// a savepoint and commits once.
    #[cfg(feature = "tokio")]
    pub(crate) fn begin_batch(&mut self) -> Result<rusqlite::Transaction<'_>> {
        match &mut self.backend {
            Backend::Sqlite(conn) => Ok(conn.transaction_with_behavior(TransactionBehavior::Immediate)?),
            Backend::Postgres(_) => unreachable!("batches are SQLite's group commit"),
        }
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<usize> {
        match &self.backend {
            Backend::Sqlite(conn) => crate::sqlite::schema_version(conn),
            Backend::Postgres(conn) => pg::schema_version(conn),
        }
    }

    /// Checks what the backend can check of itself; `Error::Corrupt` lists what it found.
    /// SQLite: its full integrity check and the foreign key check. PostgreSQL (which enforces
    /// every constraint at each commit and recovers from a crash by itself): indexes left
    /// invalid and constraints never checked against existing rows.
    pub fn check_integrity(&self) -> Result<()> {
        let problems = match &self.backend {
            Backend::Sqlite(conn) => crate::sqlite::integrity_problems(conn)?,
            Backend::Postgres(conn) => pg::integrity_problems(conn)?,
        };
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Error::Corrupt(problems.join("; ")))
        }
    }

    /// Runs SQL around the API, for tests that must prove the schema itself holds a rule.
    #[cfg(test)]
    pub(crate) fn execute_raw(&self, sql: &str) -> Result<()> {
        match &self.backend {
            Backend::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
            Backend::Postgres(conn) => conn.batch(sql),
        }
    }

    /// The SQLite connection, for tests of SQLite's own settings.
    #[cfg(test)]
    pub(crate) fn sqlite_connection(&self) -> Option<&Connection> {
        match &self.backend {
            Backend::Sqlite(conn) => Some(conn),
            Backend::Postgres(_) => None,
        }
    }

    /// A connection that only reads, to a SQLite file that [`Store::open`] has migrated.
    #[cfg(feature = "tokio")]
    pub(crate) fn open_sqlite_reader(path: &std::path::Path) -> Result<Store> {
        let conn = crate::sqlite::open_reader(path)?;
        Ok(Store { backend: Backend::Sqlite(conn), location: Location::Sqlite(path.to_path_buf()) })
    }
}

/// A transaction that reads. The queries are its methods, defined beside what they read.
pub struct ReadTx<'c> {
    conn: Conn<'c>,
}

impl<'c> ReadTx<'c> {
    pub(crate) fn new(conn: Conn<'c>) -> ReadTx<'c> {
        ReadTx { conn }
    }

    pub(crate) fn conn(&self) -> Conn<'c> {
        self.conn
    }
}

/// A transaction that writes: the changes are its methods; it reads too (it derefs to
/// [`ReadTx`]).
pub struct WriteTx<'c> {
    read: ReadTx<'c>,
}

impl<'c> WriteTx<'c> {
    pub(crate) fn new(conn: Conn<'c>) -> WriteTx<'c> {
        WriteTx { read: ReadTx { conn } }
    }
}

impl<'c> Deref for WriteTx<'c> {
    type Target = ReadTx<'c>;

    fn deref(&self) -> &ReadTx<'c> {
        &self.read
    }
}

#[cfg(test)]
mod tests;
