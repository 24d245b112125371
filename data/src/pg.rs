//! The PostgreSQL backend: connections, their statement caches, migrations, and the transaction
//! discipline that gives several processes SQLite's guarantees.
//!
//! # Isolation
//!
//! Every write transaction is `SERIALIZABLE`. The callers' closures read, decide and write
//! (is the game active, at this ply, is this pairing still without a game, was this rating
//! computed from the state it replaces), and were written against SQLite, where one writer at a
//! time makes every such check hold until the commit. `SERIALIZABLE` is the level that keeps
//! that promise for any closure without auditing each for the rows it must lock: PostgreSQL
//! aborts one of two transactions whose reads and writes could not have happened one after the
//! other (SQLSTATE 40001), and this module runs the closure again on a fresh snapshot, where its
//! own checks now see the other's commit. A deadlock (40P01) is retried the same way, and so,
//! a few times, is a unique violation (23505): PostgreSQL reports two transactions inserting the
//! same key (two games for one channel, two moves for one ply) that way rather than as a
//! serialization failure, and on a fresh snapshot the closure's own check answers precisely
//! (`ChannelBusy`, `PlyConflict`). Any other error, or too many retries, goes to the caller,
//! and nothing of the transaction stays.
//!
//! A conflict never reaches the caller: a write that conflicted [`FREE_ATTEMPTS`] times runs
//! its next attempt alone. Every write holds [`WRITE_LOCK`] shared for its transaction, and
//! such an attempt takes it exclusively before its `BEGIN`: it starts once every write already
//! running has ended, takes its snapshot after their commits, and no other write runs until it
//! has ended, so nothing can conflict with it. A burst of writes to one hot row (two players
//! and the clock on one game, many processes on one lease) costs each at most
//! `FREE_ATTEMPTS + 1` runs of its closure, and none fails with SQLSTATE 40001 or 40P01.
//! (Only writers outside Chimera, which do not take the lock, could still conflict with it:
//! those attempts are retried as before, up to [`WRITE_ATTEMPTS`].)
//!
//! Reads are `REPEATABLE READ READ ONLY`: one snapshot for the whole closure, like SQLite's
//! readers, never blocking or blocked by a writer, never aborted.
//!
//! A closure that swallows the error of one of its statements cannot commit: PostgreSQL has
//! aborted the transaction, and its `COMMIT` would quietly roll back. The connection remembers
//! the failure and the transaction ends with [`Error::Aborted`] (or is retried, if the failure
//! was a serialization failure).
//!
//! # Durability
//!
//! `synchronous_commit` is set on every connection: `on` for [`Synchronous::Full`] (a commit
//! that returned is on the server's disk), `off` for [`Synchronous::Normal`].

use std::cell::{Cell as StdCell, RefCell};
use std::collections::HashMap;
use std::error::Error as StdError;
use std::time::Duration;

use bytes::BytesMut;
use postgres::error::SqlState;
use postgres::types::{FromSql, IsNull, ToSql, Type};
use postgres::{Client, NoTls, Statement};

use crate::db::{ReadTx, WriteTx};
use crate::error::{ColumnError, Error, Result};
use crate::pg_tls::Target;
use crate::sql::{Cell, Conn, Sql, Value};
use crate::{Synchronous, SCHEMA_VERSION};

/// The schema, one migration per step, each the twin of SQLite's step of the same number.
const MIGRATIONS: [&str; SCHEMA_VERSION] = [
    include_str!("migrations/postgres/001_games.sql"),
    include_str!("migrations/postgres/002_tournaments.sql"),
    include_str!("migrations/postgres/003_host.sql"),
    include_str!("migrations/postgres/004_tournament_play.sql"),
    include_str!("migrations/postgres/005_clock_kind.sql"),
    include_str!("migrations/postgres/006_processes.sql"),
    include_str!("migrations/postgres/007_outbox.sql"),
    include_str!("migrations/postgres/008_time_odds.sql"),
    include_str!("migrations/postgres/009_live_tournaments.sql"),
    include_str!("migrations/postgres/011_pauses.sql"),
    include_str!("migrations/postgres/012_adapter_ledger.sql"),
    include_str!("migrations/postgres/013_web.sql"),
    include_str!("migrations/postgres/014_puzzles.sql"),
    include_str!("migrations/postgres/015_analyses.sql"),
    include_str!("migrations/postgres/016_user_settings.sql"),
    include_str!("migrations/postgres/017_daily_puzzle.sql"),
    include_str!("migrations/postgres/018_team_games.sql"),
    include_str!("migrations/postgres/019_analysis_judge.sql"),
];

/// Taken (for the transaction) by whoever migrates, so processes starting together migrate
/// one after the other. The number is arbitrary, the same in every build ("chimera" in ASCII).
const MIGRATION_LOCK: i64 = 0x0063_6869_6d65_7261;

/// How many times a write is tried when PostgreSQL aborts it for a conflict.
pub(crate) const WRITE_ATTEMPTS: u32 = 24;

/// Held shared by every write for its transaction, and exclusively (at session level, so that
/// it is taken before the transaction's snapshot) by a write on its attempts after
/// [`FREE_ATTEMPTS`]: see the module's docs and [`PgConn::write`].
const WRITE_LOCK: i64 = 0x0063_6869_6d65_7262;

/// Attempts a write makes alongside everyone else before it waits its turn among the retries.
pub(crate) const FREE_ATTEMPTS: u32 = 2;

/// How many of those attempts may end in a unique violation: more than a few in a row is no
/// race but a write that inserts a key twice, and its error is the answer.
const DUPLICATE_ATTEMPTS: u32 = 4;

/// One connection, with the statements it has prepared. Used by one thread at a time (the pool
/// hands it out whole); the cells let queries run through shared references of a transaction.
pub(crate) struct PgConn {
    client: RefCell<Client>,
    statements: RefCell<HashMap<usize, Statement>>,
    /// The SQLSTATE of a statement that failed in the open transaction.
    failed: RefCell<Option<SqlState>>,
    /// A transaction is open: a connection given back like this (its closure panicked) is
    /// dropped by the pool rather than reused.
    in_transaction: StdCell<bool>,
}

impl PgConn {
    pub(crate) fn connect(target: &Target, synchronous: Synchronous) -> Result<PgConn> {
        let mut client = match &target.tls {
            Some(tls) => target.config.connect(tls.clone())?,
            None => target.config.connect(NoTls)?,
        };
        let commit = match synchronous {
            Synchronous::Full => "on",
            Synchronous::Normal => "off",
        };
        client.batch_execute(&format!("SET synchronous_commit = {commit}"))?;
        Ok(PgConn {
            client: RefCell::new(client),
            statements: RefCell::new(HashMap::new()),
            failed: RefCell::new(None),
            in_transaction: StdCell::new(false),
        })
    }

    pub(crate) fn is_broken(&self) -> bool {
        self.in_transaction.get() || self.client.borrow().is_closed()
    }

    fn statement(&self, sql: &'static Sql) -> Result<Statement> {
        if let Some(stmt) = self.statements.borrow().get(&sql.key()) {
            return Ok(stmt.clone());
        }
        let stmt = self.client.borrow_mut().prepare(sql.postgres()).map_err(|e| self.note(e))?;
        self.statements.borrow_mut().insert(sql.key(), stmt.clone());
        Ok(stmt)
    }

    /// Remembers a failed statement's SQLSTATE for the end of the transaction.
    fn note(&self, e: postgres::Error) -> Error {
        if let Some(code) = e.code() {
            self.failed.borrow_mut().get_or_insert_with(|| code.clone());
        }
        Error::Postgres(e)
    }

    pub(crate) fn execute(&self, sql: &'static Sql, params: &[Value<'_>]) -> Result<u64> {
        let stmt = self.statement(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        self.client.borrow_mut().execute(&stmt, &params).map_err(|e| self.note(e))
    }

    pub(crate) fn query(&self, sql: &'static Sql, params: &[Value<'_>]) -> Result<Vec<postgres::Row>> {
        let stmt = self.statement(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        self.client.borrow_mut().query(&stmt, &params).map_err(|e| self.note(e))
    }

    /// Runs statements that take no parameters (migrations, transaction control).
    pub(crate) fn batch(&self, sql: &str) -> Result<()> {
        self.client.borrow_mut().batch_execute(sql).map_err(|e| self.note(e))
    }

    fn begin(&self, sql: &str) -> Result<()> {
        self.failed.borrow_mut().take();
        if let Err(e) = self.batch(sql) {
            // `sql` may have begun the transaction before a later statement of it failed.
            let _ = self.batch("ROLLBACK");
            return Err(e);
        }
        self.in_transaction.set(true);
        Ok(())
    }

    /// Commits if every statement succeeded and `outcome` is a success; rolls back otherwise.
    fn end<R>(&self, outcome: Result<R>) -> Result<R> {
        let failed = self.failed.borrow_mut().take();
        let ended = match (outcome, failed) {
            (Ok(value), None) => self.batch("COMMIT").map(|()| value),
            (outcome, failed) => {
                // If the rollback fails, the connection is gone, and with it the transaction.
                let _ = self.batch("ROLLBACK");
                Err(match (outcome, failed) {
                    // A conflict first: the transaction is then worth running again, whatever
                    // the closure made of the failed statement.
                    (_, Some(code)) if is_conflict(&code) => Error::Aborted { code },
                    (Err(e), _) => e,
                    (Ok(_), Some(code)) => Error::Aborted { code },
                    (Ok(_), None) => unreachable!("a success without a failure commits"),
                })
            }
        };
        // A failed COMMIT or ROLLBACK that closed the connection leaves it broken for the pool.
        if !self.client.borrow().is_closed() {
            self.in_transaction.set(false);
        }
        ended
    }

    /// Runs `f` in one snapshot.
    pub(crate) fn read<R>(&self, f: impl FnOnce(&ReadTx<'_>) -> Result<R>) -> Result<R> {
        self.begin("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")?;
        let outcome = f(&ReadTx::new(Conn::Postgres(self)));
        self.end(outcome)
    }

    /// Runs `f` in a serializable transaction, again on a conflict (see the module's docs).
    pub(crate) fn write<R>(&self, f: impl Fn(&WriteTx<'_>) -> Result<R>) -> Result<R> {
        let (mut attempt, mut duplicates) = (1, 0);
        loop {
            // A write that keeps conflicting is one of a burst (many games starting at once,
            // whose index entries share pages, which is what PostgreSQL tracks serializable
            // reads by; two players and the clock on one game). Left to retry freely, the
            // burst's writes abort one another again and some run out of attempts; so past its
            // first attempts a write runs alone. The exclusive lock is taken before `BEGIN`, so
            // it waits for every write holding the lock shared to end, and the transaction's
            // snapshot is taken after their commits. A free attempt takes the lock shared as its
            // first statement, in the same round trip as its `BEGIN`: its snapshot may then be
            // older than a lone attempt that ran while it waited, in which case it is this free
            // attempt that conflicts (the lone one has committed), and it is run again.
            let alone = attempt > FREE_ATTEMPTS;
            let begin = if alone {
                self.batch(&format!("SELECT pg_advisory_lock({WRITE_LOCK})"))?;
                "BEGIN ISOLATION LEVEL SERIALIZABLE".to_owned()
            } else {
                format!("BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT pg_advisory_xact_lock_shared({WRITE_LOCK})")
            };
            let ended = self.begin(&begin).and_then(|()| {
                let outcome = f(&WriteTx::new(Conn::Postgres(self)));
                self.end(outcome)
            });
            if alone {
                // If this fails the connection is gone, and the lock with its session.
                let _ = self.batch(&format!("SELECT pg_advisory_unlock({WRITE_LOCK})"));
            }
            let retry = match &ended {
                Err(e) if e.is_conflict() => true,
                Err(e) if e.is_duplicate() => {
                    duplicates += 1;
                    duplicates < DUPLICATE_ATTEMPTS
                }
                _ => false,
            };
            match ended {
                Err(_) if retry && attempt < WRITE_ATTEMPTS => {
                    // Apart at random, so that the two who collided do not collide again.
                    let ceiling = 1u64 << attempt.min(6);
                    std::thread::sleep(Duration::from_micros(fastrand::u64(100..=ceiling * 500)));
                    attempt += 1;
                }
                ended => return ended,
            }
        }
    }
}

/// Reads a database URL (`postgres://user:password@host:port/database?options=...`), as libpq
/// does, `sslmode` and `sslrootcert` included (see `pg_tls`).
pub(crate) fn config(url: &str) -> Result<Target> {
    let mut target = crate::pg_tls::target(url)?;
    if target.config.get_application_name().is_none() {
        target.config.application_name("chimera");
    }
    Ok(target)
}

/// Brings the schema (of the connection's `search_path`) up to [`SCHEMA_VERSION`], refusing a
/// newer one.
pub(crate) fn migrate(conn: &PgConn) -> Result<()> {
    conn.begin("BEGIN")?;
    let migrated = (|| {
        conn.batch(&format!(
            "SELECT pg_advisory_xact_lock({MIGRATION_LOCK});
             CREATE TABLE IF NOT EXISTS chimera_schema (version INTEGER NOT NULL);"
        ))?;
        let found = stored_version(conn)?;
        if found > SCHEMA_VERSION {
            return Err(Error::SchemaTooNew { found, supported: SCHEMA_VERSION });
        }
        for step in &MIGRATIONS[found..] {
            conn.batch(step)?;
        }
        conn.batch(&format!(
            "DELETE FROM chimera_schema; INSERT INTO chimera_schema (version) VALUES ({SCHEMA_VERSION});"
        ))
    })();
    conn.end(migrated)
}

/// Migrates to `version` exactly (tests build databases as older builds left them).
#[cfg(test)]
pub(crate) fn migrate_to(conn: &PgConn, version: usize) -> Result<()> {
    conn.begin("BEGIN")?;
    let migrated = (|| {
        conn.batch("CREATE TABLE IF NOT EXISTS chimera_schema (version INTEGER NOT NULL)")?;
        let found = stored_version(conn)?;
        for step in &MIGRATIONS[found..version] {
            conn.batch(step)?;
        }
        conn.batch(&format!("DELETE FROM chimera_schema; INSERT INTO chimera_schema (version) VALUES ({version});"))
    })();
    conn.end(migrated)
}

fn stored_version(conn: &PgConn) -> Result<usize> {
    let row =
        conn.client.borrow_mut().query_opt("SELECT version FROM chimera_schema", &[]).map_err(|e| conn.note(e))?;
    let version: i32 = row.map_or(Ok(0), |row| row.try_get(0))?;
    Ok(usize::try_from(version).unwrap_or(0))
}

pub(crate) fn schema_version(conn: &PgConn) -> Result<usize> {
    conn.begin("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")?;
    let version = stored_version(conn);
    conn.end(version)
}

/// What PostgreSQL itself can find wrong: an index left invalid (a failed concurrent build) or
/// a constraint added without checking the rows already there, in the store's schema. (It
/// enforces every constraint on every commit, and its own recovery replays its log after a
/// crash, so there is no file to check as SQLite has.)
pub(crate) fn integrity_problems(conn: &PgConn) -> Result<Vec<String>> {
    let rows = conn
        .client
        .borrow_mut()
        .query(
            "SELECT format('index %s is not valid', c.relname)
             FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
             WHERE c.relnamespace = current_schema()::regnamespace AND NOT (i.indisvalid AND i.indisready)
             UNION ALL
             SELECT format('constraint %s of %s was never checked against its rows', n.conname, t.relname)
             FROM pg_constraint n JOIN pg_class t ON t.oid = n.conrelid
             WHERE n.connamespace = current_schema()::regnamespace AND NOT n.convalidated",
            &[],
        )
        .map_err(|e| conn.note(e))?;
    Ok(rows.iter().map(|row| row.get(0)).collect())
}

impl Error {
    /// PostgreSQL aborted the transaction for a conflict with another: running it again may
    /// succeed.
    pub(crate) fn is_conflict(&self) -> bool {
        let code = match self {
            Error::Postgres(e) => e.code(),
            Error::Aborted { code } => Some(code),
            _ => None,
        };
        code.is_some_and(is_conflict)
    }

    /// A unique violation (see the module's docs on retrying).
    pub(crate) fn is_duplicate(&self) -> bool {
        let code = match self {
            Error::Postgres(e) => e.code(),
            Error::Aborted { code } => Some(code),
            _ => None,
        };
        code.is_some_and(|code| *code == SqlState::UNIQUE_VIOLATION)
    }
}

fn is_conflict(code: &SqlState) -> bool {
    *code == SqlState::T_R_SERIALIZATION_FAILURE || *code == SqlState::T_R_DEADLOCK_DETECTED
}

impl ToSql for Value<'_> {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn StdError + Sync + Send>> {
        match *self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(i)?.to_sql(ty, out),
                Type::BOOL => match i {
                    0 | 1 => (i == 1).to_sql(ty, out),
                    _ => Err(format!("{i} is not a boolean").into()),
                },
                _ => Err(format!("an integer cannot be passed as {ty}").into()),
            },
            Value::Real(r) => match *ty {
                Type::FLOAT8 => r.to_sql(ty, out),
                _ => Err(format!("a real cannot be passed as {ty}").into()),
            },
            Value::Bool(b) => match *ty {
                Type::BOOL => b.to_sql(ty, out),
                Type::INT8 | Type::INT4 | Type::INT2 => Value::Int(i64::from(b)).to_sql(ty, out),
                _ => Err(format!("a boolean cannot be passed as {ty}").into()),
            },
            Value::Text(t) if <&str as ToSql>::accepts(ty) => t.to_sql(ty, out),
            Value::Text(_) => Err(format!("text cannot be passed as {ty}").into()),
        }
    }

    fn accepts(ty: &Type) -> bool {
        matches!(*ty, Type::INT8 | Type::INT4 | Type::INT2 | Type::BOOL | Type::FLOAT8) || <&str as ToSql>::accepts(ty)
    }

    postgres::types::to_sql_checked!();
}

impl<'a> FromSql<'a> for Cell<'a> {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Cell<'a>, Box<dyn StdError + Sync + Send>> {
        Ok(match *ty {
            Type::INT8 => Cell::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => Cell::Int(i32::from_sql(ty, raw)?.into()),
            Type::INT2 => Cell::Int(i16::from_sql(ty, raw)?.into()),
            Type::BOOL => Cell::Bool(bool::from_sql(ty, raw)?),
            Type::FLOAT8 => Cell::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Cell::Real(f32::from_sql(ty, raw)?.into()),
            _ => Cell::Text(<&str>::from_sql(ty, raw)?),
        })
    }

    fn from_sql_null(_: &Type) -> Result<Cell<'a>, Box<dyn StdError + Sync + Send>> {
        Ok(Cell::Null)
    }

    fn accepts(ty: &Type) -> bool {
        matches!(*ty, Type::INT8 | Type::INT4 | Type::INT2 | Type::BOOL | Type::FLOAT8 | Type::FLOAT4)
            || <&str as FromSql>::accepts(ty)
    }
}

/// Column `column` of a row.
pub(crate) fn cell(row: &postgres::Row, column: usize) -> Result<Cell<'_>, ColumnError> {
    let ty = row.columns().get(column).ok_or(ColumnError::Missing)?.type_();
    if !<Cell<'_> as FromSql<'_>>::accepts(ty) {
        return Err(ColumnError::Unsupported(ty.name().to_owned()));
    }
    row.try_get(column).map_err(|e| ColumnError::Unreadable(e.to_string()))
}

/// Makes the pool's connections.
#[cfg(feature = "tokio")]
pub(crate) struct Manager {
    pub(crate) config: Target,
    pub(crate) synchronous: Synchronous,
}

#[cfg(feature = "tokio")]
impl r2d2::ManageConnection for Manager {
    type Connection = PgConn;
    type Error = Error;

    fn connect(&self) -> Result<PgConn> {
        PgConn::connect(&self.config, self.synchronous)
    }

    fn is_valid(&self, conn: &mut PgConn) -> Result<()> {
        conn.batch("")
    }

    fn has_broken(&self, conn: &mut PgConn) -> bool {
        conn.is_broken()
    }
}
