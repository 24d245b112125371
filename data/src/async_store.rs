//! The store for async code, on either backend.
//!
//! # SQLite
//!
//! One writer thread that commits in groups, and a small pool of reading connections on tokio's
//! blocking threads.
//!
//! Why a dedicated writer thread rather than `spawn_blocking` for writes: SQLite admits one
//! writer at a time, so writers on many blocking threads would only queue on the file lock
//! (sleeping in the busy handler) and each pay their own sync of the log to disk. One thread
//! owning the write connection turns that queue into *group commit*: it takes every write
//! waiting, runs each in its own savepoint inside one transaction, commits once (one sync for
//! all of them), and only then answers each caller. A write is therefore durable before its
//! caller hears of it, one write's error rolls back its savepoint alone, and throughput grows
//! with the number of games moving at once instead of being capped by the disk's sync rate.
//!
//! Why `spawn_blocking` for reads: in WAL mode readers never wait for the writer, so reads
//! should not queue behind writes on the writer thread. Each read borrows one of a few
//! read-only connections (each keeps its prepared statements) on a blocking thread, never on a
//! runtime worker.
//!
//! # PostgreSQL
//!
//! A pool of connections (r2d2), each keeping its prepared statements; every read and write
//! takes one on a blocking thread for the length of its transaction. The server admits many
//! writers at once and groups their log flushes itself, so there is no writer thread; a write
//! is `SERIALIZABLE` and is run again when it conflicts with another (see `pg.rs`), which is why
//! a write's closure is `Fn`: it may run more than once, and must do nothing but its queries.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, Semaphore};

use crate::db::{ReadTx, Store, WriteTx};
use crate::error::{Error, Result};
use crate::location::Location;
use crate::pg::{self, Manager, PgConn};
use crate::sql::Conn;
use crate::Synchronous;

/// Writes committed together at most (a bound on how long the first of them waits).
const MAX_BATCH: usize = 256;

/// How long a batch waits at most for writes that follow the last batch's (see `write_loop`).
const GATHER: Duration = Duration::from_micros(300);

/// SQLite: reads run at once at most, each on its own connection.
const READERS: usize = 4;

/// PostgreSQL: connections per process at most (reads and writes together).
const PG_CONNECTIONS: u32 = 16;

/// How long a read or write waits for a free PostgreSQL connection before failing.
const PG_CHECKOUT: Duration = Duration::from_secs(10);

/// A cheap handle (clone it freely) to the store.
#[derive(Clone)]
pub struct AsyncStore {
    backend: AsyncBackend,
}

#[derive(Clone)]
enum AsyncBackend {
    /// The writer thread's queue and the reader pool.
    Sqlite {
        jobs: mpsc::Sender<Box<dyn Job>>,
        readers: Arc<Readers>,
    },
    Postgres(Arc<PgPool>),
}

/// The PostgreSQL pool, closed off the runtime: closing a connection of the blocking client
/// blocks, which tokio forbids on its workers (where the last handle is usually dropped).
struct PgPool(Option<r2d2::Pool<Manager>>);

impl Drop for PgPool {
    fn drop(&mut self) {
        let Some(pool) = self.0.take() else { return };
        if tokio::runtime::Handle::try_current().is_err() {
            return drop(pool);
        }
        let pool = Arc::new(Mutex::new(Some(pool)));
        let closing = pool.clone();
        let spawned = thread::Builder::new()
            .name("chimera-db-close".into())
            .spawn(move || drop(closing.lock().unwrap_or_else(|e| e.into_inner()).take()));
        if spawned.is_err() {
            // No thread to close it on: the connections are left open, and the server ends
            // them with the process, rather than this thread blocking a runtime worker.
            std::mem::forget(pool.lock().unwrap_or_else(|e| e.into_inner()).take());
        }
    }
}

impl AsyncStore {
    /// Opens and migrates the database at `location` (a SQLite path or a PostgreSQL URL, see
    /// [`Location`]). For SQLite, on a new writer thread that lives while any handle does.
    pub async fn open(location: impl Into<Location>) -> Result<AsyncStore> {
        match location.into() {
            Location::Sqlite(path) => AsyncStore::open_sqlite(path).await,
            Location::Postgres(url) => {
                tokio::task::spawn_blocking(move || AsyncStore::open_postgres(&url)).await.map_err(|_| Error::Closed)?
            }
        }
    }

    fn open_postgres(url: &str) -> Result<AsyncStore> {
        let config = pg::config(url)?;
        // Migrated once, on a connection of its own, before the pool opens any.
        pg::migrate(&PgConn::connect(&config, Synchronous::Full)?)?;
        let pool = r2d2::Pool::builder()
            .max_size(PG_CONNECTIONS)
            .min_idle(Some(1))
            .connection_timeout(PG_CHECKOUT)
            // A connection is checked by its first statement: a lost one fails there, is
            // dropped as broken, and the next transaction gets a new one.
            .test_on_check_out(false)
            .build(Manager { config, synchronous: Synchronous::Full })
            .map_err(|e| Error::Pool(e.to_string()))?;
        Ok(AsyncStore { backend: AsyncBackend::Postgres(Arc::new(PgPool(Some(pool)))) })
    }

    async fn open_sqlite(path: PathBuf) -> Result<AsyncStore> {
        let (opened_tx, opened) = oneshot::channel();
        let (jobs, queue) = mpsc::channel::<Box<dyn Job>>();
        let writer_path = path.clone();
        thread::Builder::new()
            .name("chimera-db-writer".into())
            .spawn(move || match Store::open(&writer_path) {
                Ok(store) => {
                    let _ = opened_tx.send(Ok(()));
                    write_loop(store, queue);
                }
                Err(e) => {
                    let _ = opened_tx.send(Err(e));
                }
            })
            .map_err(|_| Error::Closed)?;
        opened.await.map_err(|_| Error::Closed)??;
        let readers =
            Arc::new(Readers { path, idle: Mutex::new(Vec::new()), permits: Arc::new(Semaphore::new(READERS)) });
        Ok(AsyncStore { backend: AsyncBackend::Sqlite { jobs, readers } })
    }

    /// Runs `f` in a write transaction and returns once it is committed (durably). If `f`
    /// fails, nothing of it stays. A panic in `f` is resumed in the caller.
    ///
    /// SQLite: on the writer thread, in a batch; if the batch's commit fails, every write in it
    /// gets `Error::Batch`. PostgreSQL: on a pooled connection, `SERIALIZABLE`, and `f` runs
    /// again if the transaction conflicted with another.
    pub async fn write<R, F>(&self, f: F) -> Result<R>
    where
        F: Fn(&WriteTx<'_>) -> Result<R> + Send + 'static,
        R: Send + 'static,
    {
        match &self.backend {
            AsyncBackend::Sqlite { jobs, .. } => {
                let (reply, answer) = oneshot::channel();
                let job = Box::new(Pending { f: Some(f), outcome: None, reply });
                jobs.send(job).map_err(|_| Error::Closed)?;
                match answer.await.map_err(|_| Error::Closed)? {
                    Ok(result) => result,
                    Err(panic) => panic::resume_unwind(panic),
                }
            }
            AsyncBackend::Postgres(pool) => on_pooled(pool, move |conn| conn.write(f)).await,
        }
    }

    /// Runs `f` in a read transaction (one snapshot) on a blocking thread.
    pub async fn read<R, F>(&self, f: F) -> Result<R>
    where
        F: FnOnce(&ReadTx<'_>) -> Result<R> + Send + 'static,
        R: Send + 'static,
    {
        let readers = match &self.backend {
            AsyncBackend::Sqlite { readers, .. } => readers.clone(),
            AsyncBackend::Postgres(pool) => return on_pooled(pool, move |conn| conn.read(f)).await,
        };
        let permit = readers.permits.clone().acquire_owned().await.map_err(|_| Error::Closed)?;
        joined(
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let store = readers.take()?;
                let result = store.read(f);
                // A connection is only returned after a read that did not panic.
                readers.put(store);
                result
            })
            .await,
        )
    }
}

/// Runs `f` with a pooled PostgreSQL connection on a blocking thread. A connection whose
/// transaction did not end (`f` panicked) or that was lost is dropped by the pool, not reused.
async fn on_pooled<R: Send + 'static>(
    pool: &Arc<PgPool>,
    f: impl FnOnce(&PgConn) -> Result<R> + Send + 'static,
) -> Result<R> {
    let pool = pool.clone();
    joined(
        tokio::task::spawn_blocking(move || {
            let pool = pool.0.as_ref().ok_or(Error::Closed)?;
            let conn = pool.get().map_err(|e| Error::Pool(e.to_string()))?;
            f(&conn)
        })
        .await,
    )
}

/// The result of a blocking task, its panic resumed in the caller.
fn joined<R>(joined: std::result::Result<Result<R>, tokio::task::JoinError>) -> Result<R> {
    match joined {
        Ok(result) => result,
        Err(e) if e.is_panic() => panic::resume_unwind(e.into_panic()),
        Err(_) => Err(Error::Closed),
    }
}

struct Readers {
    path: PathBuf,
    idle: Mutex<Vec<Store>>,
    /// Bounds the connections open at once to `READERS`.
    permits: Arc<Semaphore>,
}

impl Readers {
    fn take(&self) -> Result<Store> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match idle {
            Some(store) => Ok(store),
            None => Store::open_sqlite_reader(&self.path),
        }
    }

    fn put(&self, store: Store) {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(store);
    }
}

type Panic = Box<dyn Any + Send>;

/// A write waiting for the writer thread.
trait Job: Send {
    /// Runs the write in its own savepoint of the batch's transaction. An error here is the
    /// batch's (the savepoint could not be managed), not the write's.
    fn run(&mut self, tx: &rusqlite::Connection) -> Result<()>;

    /// Answers the caller once the batch has committed or failed.
    fn answer(self: Box<Self>, batch: std::result::Result<(), &Arc<Error>>);
}

struct Pending<F, R> {
    f: Option<F>,
    outcome: Option<std::result::Result<Result<R>, Panic>>,
    reply: oneshot::Sender<std::result::Result<Result<R>, Panic>>,
}

impl<F, R> Job for Pending<F, R>
where
    F: Fn(&WriteTx<'_>) -> Result<R> + Send,
    R: Send,
{
    fn run(&mut self, conn: &rusqlite::Connection) -> Result<()> {
        let f = self.f.take().expect("a job runs once");
        conn.execute_batch("SAVEPOINT job")?;
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| f(&WriteTx::new(Conn::Sqlite(conn)))));
        let end = match outcome {
            Ok(Ok(_)) => "RELEASE job",
            _ => "ROLLBACK TO job; RELEASE job",
        };
        self.outcome = Some(outcome);
        conn.execute_batch(end)?;
        Ok(())
    }

    fn answer(self: Box<Self>, batch: std::result::Result<(), &Arc<Error>>) {
        let answer = match (self.outcome, batch) {
            // The write's own failure or panic says more than the batch's.
            (Some(Ok(Err(e))), _) => Ok(Err(e)),
            (Some(Err(panic)), _) => Err(panic),
            (Some(Ok(Ok(value))), Ok(())) => Ok(Ok(value)),
            (_, Err(e)) => Ok(Err(Error::Batch(e.clone()))),
            (None, Ok(())) => unreachable!("a committed batch ran every job"),
        };
        // The caller may have stopped waiting; the write stands regardless.
        let _ = self.reply.send(answer);
    }
}

fn write_loop(mut store: Store, queue: mpsc::Receiver<Box<dyn Job>>) {
    let mut last_batch = 1;
    // Ends when every handle is gone and the queue is drained.
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        // The callers answered by the last commit usually write again at once, but their
        // writes trickle in as their tasks wake. While this batch is smaller than the last,
        // wait a moment for them (as PostgreSQL's commit_delay does) rather than paying a whole
        // sync for a few writes and leaving the rest for the next one. A lone writer never waits.
        let gather_until = Instant::now() + GATHER;
        while batch.len() < MAX_BATCH {
            let next = match queue.try_recv() {
                Ok(job) => Ok(job),
                Err(_) if batch.len() < last_batch => {
                    queue.recv_timeout(gather_until.saturating_duration_since(Instant::now()))
                }
                Err(_) => break,
            };
            match next {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        last_batch = batch.len();
        let committed = commit_batch(&mut store, &mut batch).map_err(Arc::new);
        for job in batch {
            job.answer(committed.as_ref().map(|_| ()));
        }
    }
}

fn commit_batch(store: &mut Store, batch: &mut [Box<dyn Job>]) -> Result<()> {
    let tx = store.begin_batch()?;
    for job in batch.iter_mut() {
        job.run(&tx)?;
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests;
