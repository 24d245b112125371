//! Events in order, one queue per sender in each room, each worked by a task of its own: a
//! person's commands are handled in the order they sent them, and nobody waits behind anyone
//! else's (a user who floods a room slows only themself). Order between two people needs no
//! queue: each answers what the bot said to the other, which it says once it has handled it.
//!
//! A queue's task ends once its queue has been empty for [`IDLE`], so there are as many tasks as
//! people recently heard from, not as everyone ever seen; the next event starts a new one.
//!
//! A queue holds at most [`BOUND`] jobs waiting: past it a job is refused, and the first refusal
//! since the queue last ran dry says so ([`Pushed::Full`] with `first`), so the sender is told
//! once, not once per event of their flood.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// How long a queue's task waits for more before it ends.
pub const IDLE: Duration = Duration::from_secs(60);

/// How many of one sender's events may wait in a room at once: far more than anyone types
/// before the bot answers, and the host refuses a flood over its command rate anyway.
pub const BOUND: usize = 64;

/// A job [`Queues::push`] did not take, given back, and why.
pub struct Refused<J> {
    pub job: J,
    pub why: Why,
}

/// Why a job was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// Its queue holds [`BOUND`] jobs already. `first` for the first refusal since the queue last
    /// ran dry (tell the sender then, and only then).
    Full { first: bool },
    /// The queues are shut down.
    Closed,
}

/// What became of a job given to [`Queues::push`].
pub type Pushed<J> = Result<(), Refused<J>>;

/// Queues of jobs `J`, one per key `K`, worked side by side.
pub struct Queues<K, J> {
    open: Mutex<Open<K, J>>,
    workers: Mutex<Vec<JoinHandle<()>>>,
    idle: Duration,
    bound: usize,
}

/// The queues that have a task, each with its task's number; `closed` once shut down.
struct Open<K, J> {
    senders: HashMap<K, Sender<J>>,
    started: u64,
    closed: bool,
}

/// A queue's end for pushing: its task's number, its channel, and whether a refusal was told
/// since it last ran dry.
struct Sender<J> {
    number: u64,
    jobs: mpsc::Sender<J>,
    told: Arc<AtomicBool>,
}

impl<K, J> Queues<K, J>
where
    K: Clone + Eq + Hash + Send + 'static,
    J: Send + 'static,
{
    /// Queues that end their task after `idle`, each holding at most `bound` jobs waiting.
    pub fn new(idle: Duration, bound: usize) -> Arc<Queues<K, J>> {
        let open = Open { senders: HashMap::new(), started: 0, closed: false };
        Arc::new(Queues { open: Mutex::new(open), workers: Mutex::new(Vec::new()), idle, bound: bound.max(1) })
    }

    /// Puts `job` in the queue of `key`. A queue with no task starts one, which hands each job
    /// in turn to the handler `start` makes. A job refused (a full queue, or after [`finish`])
    /// is given back.
    ///
    /// [`finish`]: Queues::finish
    pub fn push<H, F>(self: &Arc<Self>, key: K, job: J, start: impl FnOnce() -> H) -> Pushed<J>
    where
        H: FnMut(J) -> F + Send + 'static,
        F: Future<Output = ()> + Send + 'static,
    {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.closed {
            return Err(Refused { job, why: Why::Closed });
        }
        if let Some(sender) = open.senders.get(&key) {
            return match sender.jobs.try_send(job) {
                Ok(()) => Ok(()),
                Err(mpsc::error::TrySendError::Full(job)) => {
                    Err(Refused { job, why: Why::Full { first: !sender.told.swap(true, Ordering::SeqCst) } })
                }
                Err(mpsc::error::TrySendError::Closed(job)) => Err(Refused { job, why: Why::Closed }),
            };
        }
        let (sender, jobs) = mpsc::channel(self.bound);
        // A new channel has room for one.
        let taken = sender.try_send(job).map_err(|e| Refused { job: e.into_inner(), why: Why::Closed });
        open.started += 1;
        let number = open.started;
        let told = Arc::new(AtomicBool::new(false));
        open.senders.insert(key.clone(), Sender { number, jobs: sender, told: Arc::clone(&told) });
        let worker = tokio::spawn(Arc::clone(self).work(key, number, jobs, told, start()));
        let mut workers = self.workers.lock().unwrap_or_else(|e| e.into_inner());
        workers.retain(|w| !w.is_finished());
        workers.push(worker);
        taken
    }

    /// The task of one queue: its jobs in order, until it has been idle long enough (or the
    /// queues are closed and it is empty).
    async fn work<H, F>(
        self: Arc<Self>,
        key: K,
        number: u64,
        mut jobs: mpsc::Receiver<J>,
        told: Arc<AtomicBool>,
        mut handle: H,
    ) where
        H: FnMut(J) -> F,
        F: Future<Output = ()>,
    {
        loop {
            match tokio::time::timeout(self.idle, jobs.recv()).await {
                Ok(Some(job)) => {
                    handle(job).await;
                    if jobs.is_empty() {
                        // Ran dry: the next flood past the bound is told again.
                        told.store(false, Ordering::SeqCst);
                    }
                }
                Ok(None) => return,
                Err(_) => {
                    // Idle: gone from the map under its lock, unless a job came meanwhile; once
                    // gone, nobody can send here any more, and the next job starts a new task.
                    let job = {
                        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
                        match jobs.try_recv() {
                            Ok(job) => job,
                            Err(_) => {
                                if open.senders.get(&key).is_some_and(|s| s.number == number) {
                                    open.senders.remove(&key);
                                }
                                return;
                            }
                        }
                    };
                    handle(job).await;
                }
            }
        }
    }

    /// How many queues have a task now.
    #[cfg(test)]
    pub fn running(&self) -> usize {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).senders.len()
    }

    /// Closes every queue and waits for the jobs in them to be handled.
    pub async fn finish(&self) {
        {
            let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
            open.closed = true;
            open.senders.clear();
        }
        let workers = std::mem::take(&mut *self.workers.lock().unwrap_or_else(|e| e.into_inner()));
        for worker in workers {
            let _ = worker.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use tokio::sync::Semaphore;

    use super::*;

    /// Who sent a job, and its number among theirs; the log of jobs handled, in order.
    type Job = (&'static str, usize);
    type Log = Arc<Mutex<Vec<Job>>>;
    type Handling = std::pin::Pin<Box<dyn Future<Output = ()> + Send>>;

    /// Handles a job once `gate` lets it through, then logs it.
    fn handler(log: Log, gate: Arc<Semaphore>) -> impl FnMut(Job) -> Handling + Send + 'static {
        move |job| {
            let (log, gate) = (Arc::clone(&log), Arc::clone(&gate));
            Box::pin(async move {
                gate.acquire().await.expect("the gate stays").forget();
                log.lock().unwrap().push(job);
            })
        }
    }

    async fn until(what: &str, done: impl Fn() -> bool) {
        for _ in 0..500 {
            if done() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("not within 5 s: {what}");
    }

    #[tokio::test]
    async fn a_flood_slows_only_the_flooder_and_each_sender_keeps_their_order() {
        let queues = Queues::new(IDLE, 1000);
        let log: Log = Arc::default();
        // A thousand events from one person in a room, whose handling is held up, then one
        // from someone else in the same room.
        let held = Arc::new(Semaphore::new(0));
        for n in 0..1000 {
            let (log, held) = (Arc::clone(&log), Arc::clone(&held));
            assert!(queues.push(("room", "flood"), ("flood", n), || handler(log, held)).is_ok());
        }
        let (other, open) = (Arc::clone(&log), Arc::new(Semaphore::new(Semaphore::MAX_PERMITS)));
        assert!(queues.push(("room", "calm"), ("calm", 0), || handler(other, open)).is_ok());
        until("the other person is answered", || log.lock().unwrap().contains(&("calm", 0))).await;
        assert_eq!(log.lock().unwrap().len(), 1, "while not one event of the flood was handled");
        held.add_permits(1000);
        queues.finish().await;
        let log = log.lock().unwrap();
        let flood: Vec<usize> = log.iter().filter(|(who, _)| *who == "flood").map(|(_, n)| *n).collect();
        assert_eq!(flood, (0..1000).collect::<Vec<_>>(), "one person's events in the order they came");
    }

    #[tokio::test]
    async fn idle_queues_end_their_task_and_the_next_event_starts_one() {
        let queues = Queues::new(Duration::from_millis(300), BOUND);
        let started = Arc::new(AtomicUsize::new(0));
        let log: Log = Arc::default();
        let open = Arc::new(Semaphore::new(Semaphore::MAX_PERMITS));
        let push = |who: &'static str, n: usize| {
            let (log, started, open) = (Arc::clone(&log), Arc::clone(&started), Arc::clone(&open));
            queues
                .push(who, (who, n), move || {
                    started.fetch_add(1, Ordering::SeqCst);
                    handler(log, open)
                })
                .is_ok()
        };
        assert!(push("a", 0) && push("b", 0) && push("a", 1));
        assert_eq!((queues.running(), started.load(Ordering::SeqCst)), (2, 2), "one task per sender");
        until("both idle long enough", || queues.running() == 0).await;
        assert_eq!(log.lock().unwrap().len(), 3);
        assert!(push("a", 2));
        assert_eq!(started.load(Ordering::SeqCst), 3, "a new task for a's next event");
        until("a's event handled", || log.lock().unwrap().len() == 4).await;
        let log = log.lock().unwrap().clone();
        let of = |who: &str| log.iter().filter(|(w, _)| *w == who).map(|(_, n)| *n).collect::<Vec<_>>();
        assert_eq!((of("a"), of("b")), (vec![0, 1, 2], vec![0]));
        queues.finish().await;
        assert!(!push("a", 3), "nothing is taken after shutdown");
    }

    #[tokio::test]
    async fn past_its_bound_a_queue_refuses_and_says_so_once_until_it_runs_dry() {
        let queues = Queues::new(IDLE, 3);
        let log: Log = Arc::default();
        let held = Arc::new(Semaphore::new(0));
        let begun = Arc::new(AtomicUsize::new(0));
        let push = |n: usize| -> Option<Why> {
            let (log, held, begun) = (Arc::clone(&log), Arc::clone(&held), Arc::clone(&begun));
            let pushed = queues.push("flood", ("flood", n), move || {
                let mut handle = handler(log, held);
                move |job| {
                    begun.fetch_add(1, Ordering::SeqCst);
                    handle(job)
                }
            });
            pushed.err().map(|refused| {
                assert_eq!(refused.job, ("flood", n), "a refused job is given back");
                refused.why
            })
        };
        // The first is taken by the task at once (and held there), three more wait.
        assert_eq!(push(0), None);
        until("the first job is with its handler", || begun.load(Ordering::SeqCst) == 1).await;
        let pushed: Vec<Option<Why>> = (1..8).map(push).collect();
        let full = |first| Some(Why::Full { first });
        assert_eq!(pushed, [None, None, None, full(true), full(false), full(false), full(false)], "three wait");
        // Someone else is not refused for it.
        let (other, open) = (Arc::clone(&log), Arc::new(Semaphore::new(Semaphore::MAX_PERMITS)));
        assert!(queues.push("calm", ("calm", 0), || handler(other, open)).is_ok());
        // Once the flood has been handled, the next one past the bound is told again.
        held.add_permits(4);
        until("the flood handled", || log.lock().unwrap().iter().filter(|(w, _)| *w == "flood").count() == 4).await;
        let pushed: Vec<Option<Why>> = (10..16).map(push).collect();
        assert!(pushed.contains(&full(true)), "{pushed:?}");
        held.add_permits(100);
        queues.finish().await;
        assert_eq!(push(99), Some(Why::Closed));
    }
}
