//! The engine's worker threads: a fixed number of OS threads that search, so that thinking never
//! blocks the async runtime that answers players.
//!
//! Searches wait their turn in one queue; a thread keeps one searcher per variant it has met, so
//! its transposition table and ordering tables carry over from move to move. Memory is bounded by
//! threads × variants × [`HASH_MB`], whatever the number of games.
//!
//! The threads run at the lowest CPU priority the system has (`SCHED_IDLE` on Linux), so that a
//! search never delays a player's move: on a machine whose cores are all busy, answering people
//! (and the database) comes first and the engine takes what is left.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use engine::{Limits, SearchResult, Searcher};
use prometheus_client::metrics::gauge::Gauge;
use rules::{Position, Variant};
use tokio::sync::oneshot;

/// The transposition table of each searcher, in MiB.
pub(crate) const HASH_MB: usize = 8;

/// What a thread is asked to do: one search (the game's positions, start first for
/// repetitions, and its limits), or one step of background work (see [`Pool::run`]).
enum Job {
    Search { positions: Vec<Position>, limits: Limits, answer: oneshot::Sender<SearchResult> },
    Step(Box<dyn FnOnce() + Send>),
}

/// The pool. Dropping it lets its threads finish their current search and end.
pub(crate) struct Pool {
    jobs: Option<Mutex<mpsc::Sender<Job>>>,
    threads: usize,
    /// Searches sent and not yet taken by a thread (`/metrics`).
    queued: Gauge,
}

impl Pool {
    /// A pool of `threads` threads; none means this process does not think (another does).
    /// `queued` counts the searches waiting for a thread.
    pub fn new(threads: usize, queued: Gauge) -> Pool {
        if threads == 0 {
            return Pool { jobs: None, threads, queued };
        }
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..threads {
            let (receiver, queued) = (Arc::clone(&receiver), queued.clone());
            let spawned =
                std::thread::Builder::new().name(format!("chimera-engine-{n}")).spawn(move || work(&receiver, &queued));
            if let Err(e) = spawned {
                tracing::error!("cannot start an engine thread: {e}");
            }
        }
        Pool { jobs: Some(Mutex::new(sender)), threads, queued }
    }

    /// Whether this process's engine thinks at all.
    pub fn thinks(&self) -> bool {
        self.threads > 0
    }

    /// Searches the last of `positions` within `limits` on a worker thread. `None` when this
    /// pool has no threads, or they are gone.
    pub async fn think(&self, positions: Vec<Position>, limits: Limits) -> Option<SearchResult> {
        let (answer, result) = oneshot::channel();
        self.send(Job::Search { positions, limits, answer })?;
        result.await.ok()
    }

    /// Runs `step` on a worker thread, in the one queue with the searches: a step that keeps
    /// a thread from a game's search for at most its own length. Background work (the puzzle
    /// job) sends its next step only once the last is done, so a game waits for one step at
    /// most. `None` when this pool has no threads, or they are gone (or `step` panicked).
    pub async fn run<T: Send + 'static>(&self, step: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let (answer, result) = oneshot::channel();
        self.send(Job::Step(Box::new(move || {
            let _ = answer.send(step());
        })))?;
        result.await.ok()
    }

    fn send(&self, job: Job) -> Option<()> {
        let jobs = self.jobs.as_ref()?;
        self.queued.inc();
        let sent = jobs.lock().unwrap_or_else(|e| e.into_inner()).send(job);
        if sent.is_err() {
            self.queued.dec();
            return None;
        }
        Some(())
    }
}

/// A worker: takes the next job, searches it, answers, until the pool is dropped.
fn work(receiver: &Mutex<mpsc::Receiver<Job>>, queued: &Gauge) {
    lower_priority();
    let mut searchers: HashMap<Variant, Searcher> = HashMap::new();
    let never = AtomicBool::new(false);
    loop {
        // The lock is held only while waiting for a job, never while searching.
        let job = match receiver.lock().unwrap_or_else(|e| e.into_inner()).recv() {
            Ok(job) => job,
            Err(_) => return,
        };
        queued.dec();
        let (positions, limits, answer) = match job {
            Job::Search { positions, limits, answer } => (positions, limits, answer),
            Job::Step(step) => {
                // A step that panics loses its answer (its asker hears `None`), not the thread.
                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(step)).is_err() {
                    tracing::error!("a background step on an engine thread panicked");
                }
                continue;
            }
        };
        let Some(variant) = positions.last().map(Position::variant) else { continue };
        let searcher = searchers.entry(variant).or_insert_with(|| Searcher::new(variant, HASH_MB));
        let result = searcher.search(&positions, &limits, &never, &mut |_| {});
        // The asker may have given up (its process is stopping): nothing to do then.
        let _ = answer.send(result);
    }
}

/// Puts the calling thread at the lowest scheduling priority: the `SCHED_IDLE` policy, which
/// runs only where no other thread wants the core and yields it at once when one wakes (nice 19
/// alone still takes a share of a busy core, which a second process's bots and PostgreSQL
/// felt), and nice 19 should the policy be refused. On Linux both belong to a thread:
/// `setpriority(PRIO_PROCESS, 0, ..)` and `sched_setscheduler(0, ..)` set the caller's alone.
#[cfg(target_os = "linux")]
fn lower_priority() {
    // SAFETY: setpriority reads no memory of ours; 0 names the calling thread.
    if unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 19) } != 0 {
        tracing::warn!("cannot lower the engine thread's priority: {}", std::io::Error::last_os_error());
    }
    let idle = libc::sched_param { sched_priority: 0 };
    // SAFETY: `idle` outlives the call, which only reads it; 0 names the calling thread.
    if unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &idle) } != 0 {
        tracing::warn!("cannot give the engine thread the idle policy: {}", std::io::Error::last_os_error());
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// The calling thread's nice value, as the kernel reports it.
    fn own_nice() -> i32 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").expect("/proc/thread-self/stat");
        // Field 19 is the nice value; count after the command name's closing parenthesis.
        let fields = stat.rsplit_once(')').expect("a stat line").1;
        fields.split_whitespace().nth(16).and_then(|n| n.parse().ok()).expect("a nice value")
    }

    #[test]
    fn an_engine_thread_lowers_only_its_own_priority() {
        let before = own_nice();
        // SAFETY: sched_getscheduler reads no memory of ours; 0 names the calling thread.
        let policy = || unsafe { libc::sched_getscheduler(0) };
        let lowered = std::thread::spawn(move || {
            super::lower_priority();
            (own_nice(), policy())
        })
        .join()
        .expect("the thread ran");
        assert_eq!(lowered, (19, libc::SCHED_IDLE));
        assert_eq!((own_nice(), policy()), (before, libc::SCHED_OTHER), "the calling thread keeps its priority");
    }
}
