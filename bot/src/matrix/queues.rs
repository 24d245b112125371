//! Events in order, one queue per sender in each room, each worked by a task of its own: a
//! person's commands are handled in the order they sent them, and nobody waits behind anyone
//! else's (a user who floods a room slows only themself). Order between two people needs no
//! queue: each answers what the bot said to the other, which it says once it has handled it.
//!
//! A queue's task ends once its queue has been empty for [`IDLE`], so there are as many tasks as
//! people recently heard from, not as everyone ever seen; the next event starts a new one.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// How long a queue's task waits for more before it ends.
pub const IDLE: Duration = Duration::from_secs(60);

/// Queues of jobs `J`, one per key `K`, worked side by side.
pub struct Queues<K, J> {
    open: Mutex<Open<K, J>>,
    workers: Mutex<Vec<JoinHandle<()>>>,
    idle: Duration,
}

/// The queues that have a task, each with its task's number; `closed` once shut down.
struct Open<K, J> {
    senders: HashMap<K, (u64, mpsc::UnboundedSender<J>)>,
    started: u64,
    closed: bool,
}

impl<K, J> Queues<K, J>
where
    K: Clone + Eq + Hash + Send + 'static,
    J: Send + 'static,
{
    pub fn new(idle: Duration) -> Arc<Queues<K, J>> {
        let open = Open { senders: HashMap::new(), started: 0, closed: false };
        Arc::new(Queues { open: Mutex::new(open), workers: Mutex::new(Vec::new()), idle })
    }

    /// Puts `job` in the queue of `key`. A queue with no task starts one, which hands each job
    /// in turn to the handler `start` makes. Whether the job was taken: after [`finish`]
    /// (shutdown) nothing is.
    ///
    /// [`finish`]: Queues::finish
    pub fn push<H, F>(self: &Arc<Self>, key: K, job: J, start: impl FnOnce() -> H) -> bool
    where
        H: FnMut(J) -> F + Send + 'static,
        F: Future<Output = ()> + Send + 'static,
    {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.closed {
            return false;
        }
        if let Some((_, sender)) = open.senders.get(&key) {
            return sender.send(job).is_ok();
        }
        let (sender, jobs) = mpsc::unbounded_channel();
        let taken = sender.send(job).is_ok();
        open.started += 1;
        let number = open.started;
        open.senders.insert(key.clone(), (number, sender));
        let worker = tokio::spawn(Arc::clone(self).work(key, number, jobs, start()));
        let mut workers = self.workers.lock().unwrap_or_else(|e| e.into_inner());
        workers.retain(|w| !w.is_finished());
        workers.push(worker);
        taken
    }

    /// The task of one queue: its jobs in order, until it has been idle long enough (or the
    /// queues are closed and it is empty).
    async fn work<H, F>(self: Arc<Self>, key: K, number: u64, mut jobs: mpsc::UnboundedReceiver<J>, mut handle: H)
    where
        H: FnMut(J) -> F,
        F: Future<Output = ()>,
    {
        loop {
            match tokio::time::timeout(self.idle, jobs.recv()).await {
                Ok(Some(job)) => handle(job).await,
                Ok(None) => return,
                Err(_) => {
                    // Idle: gone from the map under its lock, unless a job came meanwhile; once
                    // gone, nobody can send here any more, and the next job starts a new task.
                    let job = {
                        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
                        match jobs.try_recv() {
                            Ok(job) => job,
                            Err(_) => {
                                if open.senders.get(&key).is_some_and(|(n, _)| *n == number) {
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
        let queues = Queues::new(IDLE);
        let log: Log = Arc::default();
        // A thousand events from one person in a room, whose handling is held up, then one
        // from someone else in the same room.
        let held = Arc::new(Semaphore::new(0));
        for n in 0..1000 {
            let (log, held) = (Arc::clone(&log), Arc::clone(&held));
            assert!(queues.push(("room", "flood"), ("flood", n), || handler(log, held)));
        }
        let (other, open) = (Arc::clone(&log), Arc::new(Semaphore::new(Semaphore::MAX_PERMITS)));
        assert!(queues.push(("room", "calm"), ("calm", 0), || handler(other, open)));
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
        let queues = Queues::new(Duration::from_millis(300));
        let started = Arc::new(AtomicUsize::new(0));
        let log: Log = Arc::default();
        let open = Arc::new(Semaphore::new(Semaphore::MAX_PERMITS));
        let push = |who: &'static str, n: usize| {
            let (log, started, open) = (Arc::clone(&log), Arc::clone(&started), Arc::clone(&open));
            queues.push(who, (who, n), move || {
                started.fetch_add(1, Ordering::SeqCst);
                handler(log, open)
            })
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
}
