//! Live updates: one store poller per watched game, however many watch it.
//!
//! A viewer of `/g/{key}/live` subscribes to its game's [`watch`] channel. The first viewer
//! starts the game's poller; the poller looks at the game's row and move count every
//! [`Settings::poll_every`](crate::Settings::poll_every) (two indexed reads in one transaction)
//! and, only when they changed, reads the game once, replays it and publishes the new snapshot
//! as one shared JSON string. Each viewer then costs a channel receiver and its connection:
//! nothing is read, replayed or serialised per viewer. When the last viewer has gone, the
//! poller stops at its next look.
//!
//! The poller decides to stop while holding the registry's lock, and a viewer subscribes while
//! holding it too, so a viewer either finds a running poller or starts one: none is left
//! watching a channel nobody polls.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use data::{GameId, GameState, Millis};
use tokio::sync::watch;

use crate::game::{load, now_ms, Snapshot};
use crate::Web;

/// The latest snapshot of a game as an event's data; `None` until the poller's first read.
pub type Update = Option<Arc<str>>;

/// The pollers of the watched games.
#[derive(Default)]
pub struct Watches {
    games: Mutex<HashMap<GameId, Arc<watch::Sender<Update>>>>,
}

impl Watches {
    fn lock(&self) -> MutexGuard<'_, HashMap<GameId, Arc<watch::Sender<Update>>>> {
        // A poisoned map is still a map: a panicking task cannot have left it half-changed.
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Games with a running poller.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The updates of game `id`, starting its poller if it has none.
    pub(crate) fn watch(&self, web: &Web, id: GameId) -> watch::Receiver<Update> {
        let mut games = self.lock();
        if let Some(sender) = games.get(&id) {
            return sender.subscribe();
        }
        let (sender, receiver) = watch::channel(None);
        let sender = Arc::new(sender);
        games.insert(id, sender.clone());
        tokio::spawn(poll(web.clone(), id, sender));
        receiver
    }
}

/// What changes when a game does: its row's time of change (moves, takebacks, endings, clock
/// changes all set it), its state and its number of moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mark {
    updated_at: Millis,
    state: GameState,
    plies: u32,
}

async fn poll(web: Web, id: GameId, sender: Arc<watch::Sender<Update>>) {
    let every = web.settings().poll_every;
    let mut seen: Option<Mark> = None;
    loop {
        {
            let mut games = web.inner.watches.lock();
            if sender.receiver_count() == 0 {
                games.remove(&id);
                return;
            }
        }
        match look(&web, id).await {
            Ok(mark) if seen != Some(mark) => match load(&web, id).await {
                Ok(shown) => {
                    let json: Arc<str> = Snapshot::of(&shown, now_ms()).to_json().into();
                    sender.send_replace(Some(json));
                    seen = Some(mark);
                }
                Err(e) => tracing::warn!(game = id, "live update not read: {e:?}"),
            },
            Ok(_) => {}
            // The store may be briefly unavailable: try again at the next look.
            Err(e) => tracing::warn!(game = id, "live update not read: {e}"),
        }
        tokio::time::sleep(every).await;
    }
}

async fn look(web: &Web, id: GameId) -> data::Result<Mark> {
    web.store()
        .read(move |tx| {
            let game = tx.game(id)?;
            Ok(Mark { updated_at: game.updated_at, state: game.state, plies: tx.ply_count(id)? })
        })
        .await
}
