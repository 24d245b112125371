//! The engine's worker threads: a fixed number of OS threads that search, so that thinking never
//! blocks the async runtime that answers players.
//!
//! Searches wait their turn in one queue; a thread keeps one searcher per variant it has met, so
//! its transposition table and ordering tables carry over from move to move. Memory is bounded by
//! threads × variants × [`HASH_MB`], whatever the number of games.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use engine::{Limits, SearchResult, Searcher};
use rules::{Position, Variant};
use tokio::sync::oneshot;

/// The transposition table of each searcher, in MiB.
pub(crate) const HASH_MB: usize = 8;

/// One search: the game's positions (start first, for repetitions) and its limits.
struct Job {
    positions: Vec<Position>,
    limits: Limits,
    answer: oneshot::Sender<SearchResult>,
}

/// The pool. Dropping it lets its threads finish their current search and end.
pub(crate) struct Pool {
    jobs: Option<Mutex<mpsc::Sender<Job>>>,
    threads: usize,
}

impl Pool {
    /// A pool of `threads` threads; none means this process does not think (another does).
    pub fn new(threads: usize) -> Pool {
        if threads == 0 {
            return Pool { jobs: None, threads };
        }
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..threads {
            let receiver = Arc::clone(&receiver);
            let spawned =
                std::thread::Builder::new().name(format!("chimera-engine-{n}")).spawn(move || work(&receiver));
            if let Err(e) = spawned {
                tracing::error!("cannot start an engine thread: {e}");
            }
        }
        Pool { jobs: Some(Mutex::new(sender)), threads }
    }

    /// Whether this process's engine thinks at all.
    pub fn thinks(&self) -> bool {
        self.threads > 0
    }

    /// Searches the last of `positions` within `limits` on a worker thread. `None` when this
    /// pool has no threads, or they are gone.
    pub async fn think(&self, positions: Vec<Position>, limits: Limits) -> Option<SearchResult> {
        let jobs = self.jobs.as_ref()?;
        let (answer, result) = oneshot::channel();
        let sent = jobs.lock().unwrap_or_else(|e| e.into_inner()).send(Job { positions, limits, answer });
        if sent.is_err() {
            return None;
        }
        result.await.ok()
    }
}

/// A worker: takes the next job, searches it, answers, until the pool is dropped.
fn work(receiver: &Mutex<mpsc::Receiver<Job>>) {
    let mut searchers: HashMap<Variant, Searcher> = HashMap::new();
    let never = AtomicBool::new(false);
    loop {
        // The lock is held only while waiting for a job, never while searching.
        let job = match receiver.lock().unwrap_or_else(|e| e.into_inner()).recv() {
            Ok(job) => job,
            Err(_) => return,
        };
        let Some(variant) = job.positions.last().map(Position::variant) else { continue };
        let searcher = searchers.entry(variant).or_insert_with(|| Searcher::new(variant, HASH_MB));
        let result = searcher.search(&job.positions, &job.limits, &never, &mut |_| {});
        // The asker may have given up (its process is stopping): nothing to do then.
        let _ = job.answer.send(result);
    }
}
