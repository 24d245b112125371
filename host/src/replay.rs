//! A finished game's replay: an animated GIF of every position, sent with the result and made
//! again by `/gif`. It is drawn on a blocking thread, never on the async runtime (a long game
//! takes tens of milliseconds), and kept under the upload limit by drawing it smaller, which the
//! message then says.
//!
//! A finished game's replay never changes, so it is drawn once for each look and kept
//! ([`Replays`]), the most recently used first, within a bound in bytes: asking `/gif` of it
//! again costs no drawing. The replay sent with the result is drawn as everyone's boards are;
//! `/gif` draws it as the asker set their boards ([`ReplayLook`]).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use data::{Bottom, GameId};
use render::{GameGif, Theme};
use rules::Color;

use super::personal::Look;
use super::table::Table;
use super::{Ctx, Handled, Host, Image, Message, Refusal, Reply};

/// The bytes of finished games' replays kept at most.
const KEPT_BYTES: usize = 32 * 1024 * 1024;

/// Finished games' replays, kept within [`KEPT_BYTES`], the least recently used dropped first;
/// and how many replays were drawn.
#[derive(Default)]
pub(crate) struct Replays {
    kept: Mutex<Kept>,
    drawn: AtomicU64,
}

/// How a replay is drawn: what of a viewer's look a whole game's replay takes. The side at the
/// bottom is the viewer's own when they played it and want it so, else White.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ReplayLook {
    theme: Theme,
    coordinates: bool,
    flipped: bool,
}

impl ReplayLook {
    /// As `look` draws `table`'s game.
    pub fn of(look: &Look, table: &Table) -> ReplayLook {
        let own = match (look.bottom, &look.viewer) {
            (Bottom::Own, Some(viewer)) => table.color_of(viewer),
            _ => None,
        };
        ReplayLook { theme: look.theme, coordinates: look.coordinates, flipped: own == Some(Color::Black) }
    }
}

/// A kept replay's key: the game, and how it was drawn.
type Key = (GameId, ReplayLook);

#[derive(Default)]
struct Kept {
    replays: HashMap<Key, Replay>,
    /// Least recently used first.
    order: VecDeque<Key>,
    bytes: usize,
}

impl Replays {
    fn get(&self, id: Key) -> Option<Replay> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let replay = kept.replays.get(&id).cloned()?;
        kept.order.retain(|&g| g != id);
        kept.order.push_back(id);
        Some(replay)
    }

    fn keep(&self, id: Key, replay: &Replay) {
        let size = replay.image.bytes.len();
        if size > KEPT_BYTES {
            return;
        }
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = kept.replays.insert(id, replay.clone()) {
            kept.bytes -= old.image.bytes.len();
            kept.order.retain(|&g| g != id);
        }
        kept.bytes += size;
        kept.order.push_back(id);
        while kept.bytes > KEPT_BYTES {
            let Some(oldest) = kept.order.pop_front() else { break };
            if let Some(dropped) = kept.replays.remove(&oldest) {
                kept.bytes -= dropped.image.bytes.len();
            }
        }
    }
}

/// A replay, and what to say of its size when it had to be drawn smaller.
#[derive(Clone)]
pub(crate) struct Replay {
    pub image: Image,
    pub note: Option<String>,
}

impl Replay {
    /// `message` with the replay attached, and its note (if any) after the text.
    pub fn attach_to(self, mut message: Message) -> Message {
        if let Some(note) = self.note {
            message.text.push(' ');
            message.text.push_str(&note);
        }
        message.with_image(self.image)
    }
}

impl Host {
    /// How many replays this host has drawn (a kept one is not drawn again): for tests.
    pub fn replays_drawn(&self) -> u64 {
        self.inner.replays.drawn.load(Ordering::Relaxed)
    }

    /// The replay of `table`'s game as it stands (finished games show their result), drawn as
    /// `look` says; a finished game's is drawn once for each look and kept.
    pub(crate) async fn replay(&self, table: &Table, look: ReplayLook) -> Result<Replay, Refusal> {
        let finished = table.record.game.state != data::GameState::Active;
        let key = (table.id(), look);
        if finished {
            if let Some(kept) = self.inner.replays.get(key) {
                return Ok(kept);
            }
        }
        let replay = self.draw_replay(table, look).await?;
        if finished {
            self.inner.replays.keep(key, &replay);
        }
        Ok(replay)
    }

    async fn draw_replay(&self, table: &Table, look: ReplayLook) -> Result<Replay, Refusal> {
        self.inner.replays.drawn.fetch_add(1, Ordering::Relaxed);
        let host = self.clone();
        let game = table.ended_game();
        let (white, black) = (table.name(Color::White).0.to_string(), table.name(Color::Black).0.to_string());
        let (id, variant) = (table.id(), table.variant());
        let drawn = tokio::task::spawn_blocking(move || {
            let settings = host.settings();
            let gif = GameGif::new(&game)
                .players(&white, &black)
                .theme(look.theme)
                .coordinates(look.coordinates)
                .flipped(look.flipped)
                .size(settings.board_size);
            let result = game.outcome().map_or("unfinished", |o| o.result());
            let alt = format!(
                "Replay of game {id}, {}: {white} (White) against {black} (Black), {result}, {} moves",
                variant.name(),
                game.moves().len().div_ceil(2)
            );
            host.inner.renderer.game_gif_within(&gif, settings.network.upload_bytes).map(|out| (out, alt))
        })
        .await
        .map_err(|e| Refusal::Broken(format!("drawing the replay of game {id} failed: {e}")))?;
        let (out, alt) = drawn.map_err(|e| Refusal::Broken(format!("the replay of game {id}: {e}")))?;
        let asked = self.settings().board_size;
        let note = (out.size_used < asked).then(|| {
            format!("(The replay is drawn at {} px instead of {asked} to stay under the upload limit.)", out.size_used)
        });
        Ok(Replay { image: Image::gif(format!("game-{id}.gif"), out.bytes, alt), note })
    }

    /// A message that ended a game, with the game's replay attached. A replay that cannot be
    /// made is logged and left out: the result stands and is announced whatever happens to the
    /// picture.
    pub(crate) async fn with_replay(&self, table: &Table, message: Message) -> Message {
        // A game's end is said in its channel: its page's link goes with it.
        let message = message.with_link(self.game_link(&table.record.game.web_key));
        let everyones = ReplayLook::of(&Look::everyones(self.settings().theme), table);
        match self.replay(table, everyones).await {
            Ok(replay) => replay.attach_to(message),
            Err(refusal) => {
                tracing::error!(game = table.id(), "no replay: {}", refusal.text());
                message
            }
        }
    }
}

/// `/gif game:N`: the replay of a finished game.
pub(crate) async fn gif(cx: &Ctx<'_>, game: data::GameId) -> Handled {
    let table = cx.numbered(game).await?;
    if table.record.game.state == data::GameState::Active {
        return super::told(format!("Game {game} is still being played; its replay comes with its result."));
    }
    let look = ReplayLook::of(&cx.look().await, &table);
    let replay = cx.host.replay(&table, look).await?;
    let text = format!(
        "Game {game}: {} (White) against {} (Black), {}.",
        table.name(Color::White),
        table.name(Color::Black),
        table.variant().name()
    );
    Ok(Reply::one(replay.attach_to(Message::text(text))))
}
