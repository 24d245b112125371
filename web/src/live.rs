//! Live updates: one store poller per watched game or tournament, however many watch it.
//!
//! A viewer of `/g/{key}/live` or `/t/{key}/live` subscribes to its subject's [`watch`]
//! channel. The first viewer starts the subject's poller; the poller takes a cheap look at the
//! subject every [`Settings::poll_every`](crate::Settings::poll_every) (a game: its row and move
//! count; a tournament: its row and its pairings' results and games) and, only when that
//! changed, reads the subject once, draws it and publishes it as one shared string. Each viewer
//! then costs a channel receiver and its connection: nothing is read, drawn or serialised per
//! viewer. When the last viewer has gone, the poller stops at its next look.
//!
//! The poller decides to stop while holding the registry's lock, and a viewer subscribes while
//! holding it too, so a viewer either finds a running poller or starts one: none is left
//! watching a channel nobody polls.

use std::collections::HashMap;
use std::fmt::Debug;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard};

use data::{GameId, GameState, Millis};
use tokio::sync::watch;

use crate::game::{load, now_ms, Snapshot};
use crate::page::PageError;
use crate::Web;

/// The latest form of a subject as an event's data; `None` until the poller's first read.
pub type Update = Option<Arc<str>>;

/// Something a page follows live: how to look at it cheaply, and how to draw it for viewers.
pub(crate) trait Subject: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// What changes when the subject does; compared between looks.
    type Mark: PartialEq + Send + 'static;

    /// The registry of this kind of subject's pollers.
    fn watches(web: &Web) -> &Watches<Self>;

    /// A cheap look at the subject.
    fn look(self, web: &Web) -> impl Future<Output = data::Result<Self::Mark>> + Send;

    /// The subject as its viewers are sent it (one event's data).
    fn draw(self, web: &Web) -> impl Future<Output = Result<String, PageError>> + Send;
}

/// The pollers of the watched subjects of one kind.
pub struct Watches<K> {
    subjects: Mutex<HashMap<K, Arc<watch::Sender<Update>>>>,
}

impl<K> Default for Watches<K> {
    fn default() -> Watches<K> {
        Watches { subjects: Mutex::new(HashMap::new()) }
    }
}

impl<K> Watches<K> {
    fn lock(&self) -> MutexGuard<'_, HashMap<K, Arc<watch::Sender<Update>>>> {
        // A poisoned map is still a map: a panicking task cannot have left it half-changed.
        self.subjects.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Subjects with a running poller.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The updates of `subject`, starting its poller if it has none.
pub(crate) fn watch<K: Subject>(web: &Web, subject: K) -> watch::Receiver<Update> {
    let mut subjects = K::watches(web).lock();
    if let Some(sender) = subjects.get(&subject) {
        return sender.subscribe();
    }
    let (sender, receiver) = watch::channel(None);
    let sender = Arc::new(sender);
    subjects.insert(subject, sender.clone());
    tokio::spawn(poll(web.clone(), subject, sender));
    receiver
}

async fn poll<K: Subject>(web: Web, subject: K, sender: Arc<watch::Sender<Update>>) {
    let every = web.settings().poll_every;
    let mut seen: Option<K::Mark> = None;
    loop {
        {
            let mut subjects = K::watches(&web).lock();
            if sender.receiver_count() == 0 {
                subjects.remove(&subject);
                return;
            }
        }
        match subject.look(&web).await {
            Ok(mark) if seen.as_ref() != Some(&mark) => match subject.draw(&web).await {
                Ok(drawn) => {
                    sender.send_replace(Some(drawn.into()));
                    seen = Some(mark);
                }
                Err(e) => tracing::warn!(?subject, "live update not read: {e:?}"),
            },
            Ok(_) => {}
            // The store may be briefly unavailable: try again at the next look.
            Err(e) => tracing::warn!(?subject, "live update not read: {e}"),
        }
        tokio::time::sleep(every).await;
    }
}

/// A game followed live: each event is its whole [`Snapshot`] as JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct LiveGame(pub GameId);

/// What changes when a game does: its row's time of change (moves, takebacks, endings, clock
/// changes all set it), its state and its number of moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GameMark {
    updated_at: Millis,
    state: GameState,
    plies: u32,
}

impl Subject for LiveGame {
    type Mark = GameMark;

    fn watches(web: &Web) -> &Watches<LiveGame> {
        &web.inner.watches
    }

    async fn look(self, web: &Web) -> data::Result<GameMark> {
        let id = self.0;
        web.store()
            .read(move |tx| {
                let game = tx.game(id)?;
                Ok(GameMark { updated_at: game.updated_at, state: game.state, plies: tx.ply_count(id)? })
            })
            .await
    }

    async fn draw(self, web: &Web) -> Result<String, PageError> {
        let shown = load(web, self.0).await?;
        Ok(Snapshot::of(&shown, now_ms()).to_json())
    }
}

/// A viewer's server-sent events: one per published update, the first being the subject as
/// it stands when the stream opens.
pub(crate) fn stream(updates: watch::Receiver<Update>) -> axum::response::Response {
    use axum::response::sse::{Event, KeepAlive, Sse};
    use axum::response::IntoResponse as _;
    use tokio_stream::StreamExt as _;
    let events = tokio_stream::wrappers::WatchStream::new(updates)
        .filter_map(|data| data.map(|data| Ok::<_, std::convert::Infallible>(Event::default().data(&*data))));
    Sse::new(events).keep_alive(KeepAlive::default()).into_response()
}
