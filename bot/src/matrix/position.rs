//! Chimera's own sync position: the newest sync token all of whose events, and every earlier
//! sync's, have been dealt with (answered, refused, or found not to be commands).
//!
//! matrix-sdk stores its sync token *before* it calls the event handlers, so a process killed
//! after a sync would lose every event of it if the bot resumed from the SDK's token. The bot
//! keeps its own token instead, in the ledger, and moves it on only once the events it covers
//! are done; on start it syncs from there, the homeserver gives the events since again, and the
//! ledger (plus the event id as the host's request id) makes each of them answered once.
//!
//! Each event gets a [`Ticket`] from the sync that brought it. [`Ticket::done`] says it was dealt
//! with; a ticket dropped without it (an event left in a queue at shutdown, a handler that
//! failed) holds the position back for the rest of the run, so that event comes again at the
//! next start. A sync's token becomes the position once its own tickets and all earlier syncs'
//! are done.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

/// The tickets of every sync not yet settled, oldest first; the last one is the sync whose
/// events the handlers are being given now.
pub struct Position {
    inner: Mutex<Inner>,
    moved: Notify,
}

struct Inner {
    batches: VecDeque<Batch>,
    next_id: u64,
    /// The newest settled token not yet taken by [`Position::take_settled`].
    settled: Option<String>,
}

struct Batch {
    id: u64,
    /// The sync's `next_batch`, once its handlers have all been called.
    token: Option<String>,
    /// Tickets given and not yet done.
    open: usize,
    /// A ticket was dropped without being done: never settled in this run.
    abandoned: bool,
}

/// One event's claim on its sync: done, or dropped (and then the event comes again next start).
pub struct Ticket {
    position: Arc<Position>,
    batch: u64,
    done: bool,
}

impl Position {
    pub fn new() -> Arc<Position> {
        let first = Batch { id: 0, token: None, open: 0, abandoned: false };
        let inner = Inner { batches: VecDeque::from([first]), next_id: 1, settled: None };
        Arc::new(Position { inner: Mutex::new(inner), moved: Notify::new() })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A ticket for an event of the sync being handled now.
    pub fn ticket(self: &Arc<Self>) -> Ticket {
        let mut inner = self.lock();
        let batch = inner.batches.back_mut().expect("there is always a current sync");
        batch.open += 1;
        Ticket { position: Arc::clone(self), batch: batch.id, done: false }
    }

    /// The current sync's handlers have all been called, and the homeserver's next token is
    /// `next_batch`: its tickets are all given, and the next sync's events get new ones.
    pub fn synced(&self, next_batch: String) {
        let mut inner = self.lock();
        inner.batches.back_mut().expect("there is always a current sync").token = Some(next_batch);
        let id = inner.next_id;
        inner.next_id += 1;
        inner.batches.push_back(Batch { id, token: None, open: 0, abandoned: false });
        self.settle(&mut inner);
    }

    /// Pops every settled sync at the front; the newest of their tokens is the position.
    fn settle(&self, inner: &mut Inner) {
        let mut moved = false;
        while let Some(front) = inner.batches.front() {
            if front.open > 0 || front.abandoned || front.token.is_none() {
                break;
            }
            let front = inner.batches.pop_front().expect("just seen");
            inner.settled = front.token;
            moved = true;
        }
        if moved {
            self.moved.notify_one();
        }
    }

    fn close(&self, batch: u64, done: bool) {
        let mut inner = self.lock();
        let Some(found) = inner.batches.iter_mut().find(|b| b.id == batch) else { return };
        found.open -= 1;
        found.abandoned |= !done;
        self.settle(&mut inner);
    }

    /// The newest settled token, once: what to store as the position.
    pub fn take_settled(&self) -> Option<String> {
        self.lock().settled.take()
    }

    /// Waits until the position may have moved (a settled token to take).
    pub async fn moved(&self) {
        self.moved.notified().await;
    }
}

impl Ticket {
    /// The event was dealt with: answered, refused, or not a command at all.
    pub fn done(mut self) {
        self.done = true;
        self.position.close(self.batch, true);
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if !self.done {
            self.position.close(self.batch, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_position_waits_for_every_event_of_a_sync_and_of_the_syncs_before() {
        let position = Position::new();
        let a = position.ticket();
        position.synced("t1".into());
        let b = position.ticket();
        let c = position.ticket();
        position.synced("t2".into());
        assert_eq!(position.take_settled(), None, "nothing is done yet");
        b.done();
        c.done();
        assert_eq!(position.take_settled(), None, "the first sync's event is still open");
        a.done();
        assert_eq!(position.take_settled().as_deref(), Some("t2"), "both syncs settle at once");
        assert_eq!(position.take_settled(), None, "taken once");
        // A sync with no events settles as soon as it ends.
        position.synced("t3".into());
        assert_eq!(position.take_settled().as_deref(), Some("t3"));
    }

    #[test]
    fn an_event_dropped_undone_holds_the_position_for_the_rest_of_the_run() {
        let position = Position::new();
        position.synced("t1".into());
        assert_eq!(position.take_settled().as_deref(), Some("t1"));
        let left = position.ticket();
        let answered = position.ticket();
        position.synced("t2".into());
        answered.done();
        drop(left);
        position.synced("t3".into());
        assert_eq!(position.take_settled(), None, "t2's events come again at the next start");
    }

    #[test]
    fn a_ticket_of_the_sync_being_handled_holds_it_until_it_ends() {
        let position = Position::new();
        let t = position.ticket();
        t.done();
        assert_eq!(position.take_settled(), None, "the sync has not ended: more events may come");
        position.synced("t1".into());
        assert_eq!(position.take_settled().as_deref(), Some("t1"));
    }
}
