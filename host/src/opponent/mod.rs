//! Chimera as an opponent: `/play`, and the engine's side of those games.
//!
//! # Guarantees
//!
//! - **The player is answered at once.** A player's move is stored and answered as in any game;
//!   the engine then thinks on the host's worker threads ([`pool`]), never on the async runtime,
//!   and its reply follows as a message of its own.
//! - **Each engine move is played once.** It goes through the same checked append as a player's,
//!   with a request id made of the game and the ply, so two processes thinking about one turn
//!   play it once, and a move that a takeback or the end of the game overtook is not played.
//! - **Nothing is lost.** The engine's move is announced from the outbox, queued in the
//!   transaction that stores the move; after a restart the scheduler's step finds every game
//!   where the engine is to move and thinks again.
//! - **Ratings stay human.** Games against Chimera are unrated, so they never touch the
//!   leaderboard; `/history` shows them like any other.
//!
//! Chimera at each level is a player of its own on each platform, named
//! `Chimera (level N)`, with an id no network gives a person ([`User::engine`]).

pub(crate) mod pool;

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use data::{GameId, NewGame, Player};
use engine::{Level, SearchResult};
use rules::{Color, Outcome, Position, Variant, WinReason};

use super::challenge::{game_room, open_place_titled, started};
use super::clock::TimeControl;
use super::command::ColorChoice;
use super::end;
use super::outbox::Picture;
use super::play;
use super::stored;
use super::table::Table;
use super::view::{move_number, to_move_line_in};
use super::{told, Ctx, Handled, Host, Message, Refusal, User};

/// The level of `/play` when none is given.
pub const DEFAULT_LEVEL: u8 = 4;

/// How many plies must have been played before the engine resigns: it plays the opening out.
const RESIGN_AFTER_PLY: u32 = 20;

/// The weakest level that resigns; below it the engine plays on like the beginner it imitates.
const RESIGNING_LEVEL: u8 = 3;

/// How long the engine looks at a draw offer.
const DRAW_THOUGHT: Duration = Duration::from_millis(300);

/// How often the scheduler's step looks for games where the engine is to move and nobody
/// thinks (after a restart, or when another process died thinking).
const SCAN_MS: i64 = 10_000;

/// How many times a place is asked for before giving up on finding a free one.
const PLACE_TRIES: usize = 8;

/// The games whose engine move this process is thinking about now.
#[derive(Default)]
pub(crate) struct Thinking {
    games: Mutex<HashSet<GameId>>,
    /// The number of games in `games`, watched by [`Host::engines_idle`].
    count: tokio::sync::watch::Sender<usize>,
    /// When the scheduler's step last looked for forgotten turns.
    last_scan: Mutex<i64>,
}

impl Thinking {
    /// Marks `game` as being thought about, unless it already is.
    fn start(&self, game: GameId) -> bool {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let fresh = games.insert(game);
        self.count.send_replace(games.len());
        fresh
    }

    pub(crate) fn subscribe(&self) -> tokio::sync::watch::Receiver<usize> {
        self.count.subscribe()
    }

    fn end(&self, game: GameId) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.remove(&game);
        self.count.send_replace(games.len());
    }
}

/// `/play`: a game against Chimera at `level`, the player taking `color`.
pub(crate) async fn play(
    cx: &Ctx<'_>,
    variant: Variant,
    level: Level,
    color: ColorChoice,
    time: TimeControl,
) -> Handled {
    let me = cx.user().clone();
    let bot = User::engine(level);
    let human = match color {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random => {
            if fastrand::bool() {
                Color::White
            } else {
                Color::Black
            }
        }
    };
    let mut place = None;
    if cx.active_table().await?.is_some() {
        place = Some(open_place(cx, variant).await?);
    }
    for _ in 0..PLACE_TRIES {
        let channel = place.clone().unwrap_or_else(|| cx.channel().to_string());
        let (platform, server, now) = (cx.platform().to_string(), cx.request.server.clone(), cx.now);
        let (me, bot) = (me.clone(), bot.clone());
        let limits = cx.host.settings().limits;
        let made = cx
            .store()
            .write(move |tx| {
                if let Some(known) = tx.find_player(&platform, &me.id)? {
                    if let Err(why) = game_room(tx, &known, limits.games, "You are")? {
                        return Ok(Err(why));
                    }
                    let against_engine = engine_games_of(tx, &known)?;
                    if against_engine >= limits.engine_games {
                        return Ok(Err(format!(
                            "You are playing {against_engine} game{} against Chimera, as many as one player may at \
                             once: finish one first.",
                            if against_engine == 1 { "" } else { "s" }
                        )));
                    }
                }
                let player = tx.upsert_player(&platform, &me.id, &me.name, now)?;
                let engine = tx.upsert_player(&platform, &bot.id, &bot.name, now)?;
                let (white, black) = match human {
                    Color::White => (player.id, engine.id),
                    Color::Black => (engine.id, player.id),
                };
                let new = NewGame {
                    platform: platform.clone(),
                    server: server.clone(),
                    channel: channel.clone(),
                    variant: variant.id().to_string(),
                    white,
                    black,
                    start_fen: Position::start(variant).fen(),
                    time_control: Some(stored::to_time_control(time)),
                    time_odds: None,
                    deadline: Some(now + time.initial_ms()),
                    rated: false,
                };
                let game = tx.create_game(&new, now)?;
                let record = tx.game_record(game.id)?;
                Ok(Ok((record, tx.player(game.white)?, tx.player(game.black)?)))
            })
            .await;
        match made {
            Ok(Err(why)) => return told(why),
            Ok(Ok((record, white, black))) => {
                let table = Table::new(record, white, black)?;
                wake(cx.host, &table);
                return Ok(started(cx, &table, cx.channel()).await);
            }
            // Someone started a game here meanwhile: this one goes somewhere new.
            Err(data::Error::ChannelBusy { .. }) => place = Some(open_place(cx, variant).await?),
            Err(e) => return Err(e.into()),
        }
    }
    Err(Refusal::Broken(format!("no free place for the game after {PLACE_TRIES} tries")))
}

async fn open_place(cx: &Ctx<'_>, variant: Variant) -> Result<String, Refusal> {
    open_place_titled(cx, &format!("{}: {} against Chimera", variant.name(), cx.user().name)).await
}

/// The games `player` is playing against Chimera.
fn engine_games_of(tx: &data::ReadTx<'_>, player: &Player) -> data::Result<usize> {
    let mut count = 0;
    for game in tx.active_games_of(player.id)? {
        let other = if game.white == player.id { game.black } else { game.white };
        if User::is_engine_id(&tx.player(other)?.user_id) {
            count += 1;
        }
    }
    Ok(count)
}

/// The engine's colour and level in `table`, when it plays there.
pub(crate) fn seat(table: &Table) -> Option<(Color, Level)> {
    Color::ALL.into_iter().find_map(|c| table.user(c).engine_level().map(|level| (c, level)))
}

/// Starts the engine thinking in `table`'s game if it is to move there and nobody in this
/// process thinks about it yet. Returns at once: the move follows from the outbox.
pub(crate) fn wake(host: &Host, table: &Table) {
    let Some((color, _)) = seat(table) else { return };
    if table.to_move() != color || table.game.outcome().is_some() || !host.inner.pool.thinks() {
        return;
    }
    let game = table.id();
    if !host.inner.thinking.start(game) {
        return;
    }
    let host = host.clone();
    tokio::spawn(async move {
        if let Err(refusal) = turn(&host, game).await {
            tracing::warn!(game, "the engine's turn failed and is retried later: {}", refusal.text());
        }
        host.inner.thinking.end(game);
        // The move is queued: say it now rather than at the next tick.
        host.inner.posts_ready.notify_one();
    });
}

/// The scheduler's step: every so often, wakes the engine in each game of this platform where
/// it is to move and nobody thinks (after a restart, or when the process thinking died).
pub(crate) async fn wake_forgotten(host: &Host) -> Result<(), Refusal> {
    let now = host.now();
    {
        let mut last = host.inner.thinking.last_scan.lock().unwrap_or_else(|e| e.into_inner());
        if *last != 0 && now - *last < SCAN_MS {
            return Ok(());
        }
        *last = now;
    }
    if !host.inner.pool.thinks() {
        return Ok(());
    }
    let platform = host.settings().platform.clone();
    let games = host
        .store()
        .read(move |tx| {
            let mut games = Vec::new();
            for level in 1..=Level::MAX.get() {
                let Ok(level) = Level::new(i64::from(level)) else { continue };
                if let Some(engine) = tx.find_player(&platform, &User::engine(level).id)? {
                    games.extend(tx.active_games_of(engine.id)?.into_iter().map(|g| g.id));
                }
            }
            Ok(games)
        })
        .await?;
    for game in games {
        match host.load_table(game).await {
            Ok(table) => wake(host, &table),
            Err(refusal) => tracing::warn!(game, "cannot look at an engine game: {}", refusal.text()),
        }
    }
    Ok(())
}

/// The engine's turn in `game`: think, then play (or resign), and queue the announcement.
async fn turn(host: &Host, game: GameId) -> Result<(), Refusal> {
    let table = host.load_table(game).await?;
    let Some((color, level)) = seat(&table) else { return Ok(()) };
    if table.record.game.state != data::GameState::Active || table.to_move() != color {
        return Ok(());
    }
    let now = host.now();
    let clock = clock(&table, now);
    let budget = level.think_time(clock);
    let seed = (game as u64) << 16 ^ u64::from(table.ply());
    let limits = level.limits(budget, seed);
    let Some(result) = host.inner.pool.think(table.game.positions().to_vec(), limits).await else {
        return Ok(());
    };
    let now = host.now();
    match decide(&result, level, table.ply()) {
        Decision::Resign => resign(host, &table, color, now).await,
        Decision::Move(m) => {
            let request_id = format!("engine:{game}:{}", table.ply());
            let prepared = play::prepare(&table, &m, request_id, now)?;
            let said = format!(
                "{} ({color}) played {} {}.",
                table.name(color),
                move_number(table.ply() + 1),
                table.position().san(&m)
            );
            let next_line = to_move_line_in(prepared.next.position(), |c| table.name(c).0);
            let outbox = host.outbox();
            let human = table.user(!color);
            let channel = table.record.game.channel.clone();
            let stored = play::store(host, &table, prepared, now, move |tx, ended| {
                let (text, picture) = match ended {
                    Some(ended) => (format!("{said} {}", ended.announcement()), Picture::Replay(game)),
                    None => (format!("{said} {next_line}"), Picture::Board(game)),
                };
                let message = Message::text(text).mentioning(&human).in_channel(&channel);
                outbox.queue(tx, now, &message, Some(picture))
            })
            .await;
            match stored {
                Ok(_) => Ok(()),
                // A takeback, a resignation or the clock overtook the thought: nothing to play.
                Err(data::Error::PlyConflict { .. } | data::Error::GameNotActive { .. }) => Ok(()),
                Err(e) => Err(e.into()),
            }
        }
        Decision::Nothing => Ok(()),
    }
}

/// What the engine does after thinking.
#[derive(Debug, PartialEq)]
enum Decision {
    Move(rules::Move),
    Resign,
    /// No legal move: the game is over already.
    Nothing,
}

/// Resigns a lost position once the opening is over (from [`RESIGNING_LEVEL`] up), else plays
/// the best move found.
fn decide(result: &SearchResult, level: Level, ply: u32) -> Decision {
    let Some(best) = result.best else { return Decision::Nothing };
    if level.get() >= RESIGNING_LEVEL && ply >= RESIGN_AFTER_PLY && engine::should_resign(result.score) {
        Decision::Resign
    } else {
        Decision::Move(best)
    }
}

async fn resign(host: &Host, table: &Table, color: Color, now: i64) -> Result<(), Refusal> {
    let (game, outbox, channel) = (table.id(), host.outbox(), table.record.game.channel.clone());
    let (name, human) = (table.name(color).to_string(), table.user(!color));
    let expected = table.ply();
    let outcome = Outcome::Decisive { winner: !color, reason: WinReason::Resignation };
    let ended = host
        .store()
        .write(move |tx| {
            // Only in the position the engine looked at: a move since makes the thought stale.
            let record = tx.game_record(game)?;
            if record.ply() != expected || record.game.state != data::GameState::Active {
                return Ok(None);
            }
            let ended = end::end(tx, game, outcome, now)?;
            let text = format!("{name} resigns. {}", ended.announcement());
            let message = Message::text(text).mentioning(&human).in_channel(&channel);
            outbox.queue(tx, now, &message, Some(Picture::Replay(game)))?;
            Ok(Some(ended))
        })
        .await?;
    if ended.is_some() {
        host.inner.posts_ready.notify_one();
    }
    Ok(())
}

/// The engine's clock for its move, as the level's time budget reads it.
fn clock(table: &Table, now: i64) -> Option<engine::Clock> {
    let time = table.time_control()?;
    if !time.is_live() {
        return None;
    }
    let remaining = table.record.game.deadline.map_or(0, |d| (d - now).max(0));
    Some(engine::Clock {
        remaining: Duration::from_millis(remaining as u64),
        increment: Duration::from_millis(time.increment_ms() as u64),
    })
}

/// The engine's answer to a draw offer in `table`, where it plays `color`: whether it accepts.
/// A level or better position is played on; a worse one is drawn.
pub(crate) async fn accepts_draw(host: &Host, table: &Table, color: Color) -> bool {
    let limits = engine::Limits {
        movetime: Some(DRAW_THOUGHT),
        soft_time: Some(DRAW_THOUGHT / 2),
        depth: Some(12),
        ..engine::Limits::default()
    };
    let Some(result) = host.inner.pool.think(table.game.positions().to_vec(), limits).await else {
        // No thread here to look with: a position is never given away unexamined.
        return false;
    };
    let score = if table.to_move() == color { result.score } else { -result.score };
    engine::accepts_draw(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(best: Option<&str>, score: i32) -> SearchResult {
        let position = Position::start(Variant::Chess);
        SearchResult {
            best: best.map(|m| position.parse_move(m).unwrap()),
            score,
            depth: 6,
            nodes: 1000,
            elapsed: Duration::from_millis(10),
            pv: Vec::new(),
        }
    }

    #[test]
    fn the_engine_resigns_a_lost_position_only_after_the_opening_and_from_level_three() {
        let level = |n| Level::new(n).unwrap();
        let lost = result(Some("e4"), -1500);
        assert_eq!(decide(&lost, level(4), 30), Decision::Resign);
        assert!(matches!(decide(&lost, level(4), 10), Decision::Move(_)), "not in the opening");
        assert!(matches!(decide(&lost, level(2), 30), Decision::Move(_)), "a beginner plays on");
        assert!(matches!(decide(&result(Some("e4"), -200), level(8), 30), Decision::Move(_)));
        assert_eq!(decide(&result(None, 0), level(8), 30), Decision::Nothing);
    }

    #[test]
    fn engine_users_are_recognised_and_people_are_not() {
        for n in 1..=8 {
            let level = Level::new(n).unwrap();
            let user = User::engine(level);
            assert_eq!(user.engine_level(), Some(level));
            assert_eq!(user.name, format!("Chimera (level {n})"));
        }
        for id in ["80351110224678912", "@bob:example.org", "alice", "chimera", "chimera:level-9"] {
            let user = User { id: id.into(), name: id.into() };
            assert_eq!(user.engine_level(), None, "{id}");
        }
    }
}
