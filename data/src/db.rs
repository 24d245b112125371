//! Opening the database, its pragmas and migrations, and the two kinds of transaction every
//! query runs in.
//!
//! Each query is a method of [`ReadTx`] or [`WriteTx`], in the module of what it touches
//! (`games`, `moves`, ...). [`Store::read`] and [`Store::write`] run a closure in one transaction,
//! so a caller can make several changes that land together or not at all.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, TransactionBehavior};
use rusqlite_migration::{Migrations, M};

use crate::error::{Error, Result};

/// The schema, one migration per step. Never edit a released step: append a new one.
pub(crate) fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("migrations/001_games.sql")),
        M::up(include_str!("migrations/002_tournaments.sql")),
        M::up(include_str!("migrations/003_host.sql")),
        M::up(include_str!("migrations/004_tournament_play.sql")),
    ])
}

/// The schema version this build writes.
pub const SCHEMA_VERSION: usize = 4;

/// How long a connection waits for another one's write lock before giving up with `SQLITE_BUSY`.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Where the database lives unless the operator says otherwise: `chimera.db` in the working
/// directory.
pub fn default_path() -> PathBuf {
    PathBuf::from("chimera.db")
}

/// When a commit reaches the disk.
///
/// In WAL mode, `Full` syncs the log on every commit, so a commit that returned survives a power
/// cut. `Normal` syncs only at checkpoints: a commit survives a crash of the process but the last
/// ones may be lost with the machine. A move is acknowledged to a player after its commit, so the
/// host uses `Full`; `Normal` is here for the benchmark that weighs the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Synchronous {
    Full,
    Normal,
}

/// One connection to the database. `Send` but not `Sync`: one thread at a time uses it (the
/// async host uses [`crate::AsyncStore`], which owns several).
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the database at `path` and migrates it to [`SCHEMA_VERSION`],
    /// with every commit durable ([`Synchronous::Full`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        Store::open_with(path, Synchronous::Full)
    }

    pub fn open_with(path: impl AsRef<Path>, synchronous: Synchronous) -> Result<Store> {
        let path = path.as_ref().to_path_buf();
        let mut conn = Connection::open(&path)?;
        configure(&conn)?;
        // WAL lets readers keep reading their snapshot while a writer commits; it is a property
        // of the file, so the first connection sets it for all.
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(Error::NoWal { path, mode });
        }
        let synchronous = match synchronous {
            Synchronous::Full => "FULL",
            Synchronous::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", synchronous)?;
        migrations().to_latest(&mut conn)?;
        Ok(Store { conn, path })
    }

    /// Opens a connection that only reads, for a database that [`Store::open`] has already
    /// migrated.
    #[cfg(feature = "tokio")]
    pub(crate) fn open_reader(path: &Path) -> Result<Store> {
        let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)?;
        configure(&conn)?;
        // Read-write at the file level so it can share the WAL index with the writer, but
        // refusing every change: a reader that tried to write would be a bug in this crate.
        conn.pragma_update(None, "query_only", true)?;
        Ok(Store { conn, path: path.to_path_buf() })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` in a read transaction: every query in it sees the same snapshot, and a writer
    /// committing meanwhile neither blocks it nor shows through.
    pub fn read<R>(&self, f: impl FnOnce(&ReadTx<'_>) -> Result<R>) -> Result<R> {
        let tx = self.conn.unchecked_transaction()?;
        let result = f(&ReadTx { conn: &tx })?;
        tx.commit()?;
        Ok(result)
    }

    /// Runs `f` in a write transaction and commits it if `f` succeeds; on an error nothing of it
    /// stays. The transaction takes the write lock at its start (`BEGIN IMMEDIATE`), so what `f`
    /// reads cannot change under it before it writes.
    pub fn write<R>(&mut self, f: impl FnOnce(&WriteTx<'_>) -> Result<R>) -> Result<R> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let result = f(&WriteTx { read: ReadTx { conn: &tx } })?;
        tx.commit()?;
        Ok(result)
    }

    /// Starts the write transaction of a batch (see `AsyncStore`): the caller runs each job in
    /// a savepoint and commits once.
    #[cfg(feature = "tokio")]
    pub(crate) fn begin_batch(&mut self) -> Result<rusqlite::Transaction<'_>> {
        Ok(self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?)
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<usize> {
        Ok(migrations().current_version(&self.conn)?.into())
    }

    /// Runs SQLite's full integrity check and the foreign key check; `Error::Corrupt` lists
    /// what they found.
    pub fn check_integrity(&self) -> Result<()> {
        let mut problems = Vec::new();
        let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
        for line in stmt.query_map([], |row| row.get::<_, String>(0))? {
            let line = line?;
            if line != "ok" {
                problems.push(line);
            }
        }
        let mut stmt = self.conn.prepare("PRAGMA foreign_key_check")?;
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
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Error::Corrupt(problems.join("; ")))
        }
    }

    /// The raw connection, for tests that must go around the API to prove the schema itself
    /// holds a rule.
    #[cfg(test)]
    pub(crate) fn connection(&self) -> &Connection {
        &self.conn
    }
}

/// Settings of every connection (they are per connection, not stored in the file).
fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.set_prepared_statement_cache_capacity(64);
    Ok(())
}

/// A transaction that reads. The queries are its methods, defined beside what they read.
pub struct ReadTx<'c> {
    conn: &'c Connection,
}

impl ReadTx<'_> {
    pub(crate) fn conn(&self) -> &Connection {
        self.conn
    }
}

/// A transaction that writes: the changes are its methods; it reads too (it derefs to
/// [`ReadTx`]).
pub struct WriteTx<'c> {
    read: ReadTx<'c>,
}

impl<'c> WriteTx<'c> {
    #[cfg(feature = "tokio")]
    pub(crate) fn new(conn: &'c Connection) -> WriteTx<'c> {
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
