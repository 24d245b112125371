//! Games: who plays what where, under which clock, and how it ended.

use crate::db::{ReadTx, WriteTx};
use crate::error::{Error, Result};
use crate::moves::Move;
use crate::offers::Offer;
use crate::ratings::RatingUpdate;
use crate::sql::{params, sql, Row};
use crate::text::text_enum;
use crate::web::WebKey;
use crate::{GameId, Millis, PairingId, PlayerId};

text_enum! {
    pub enum Color ("colour") {
        White => "white",
        Black => "black",
    }
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

text_enum! {
    pub enum GameState ("game state") {
        Active => "active",
        Finished => "finished",
        /// Ended without a result (nobody moved in time at the start, or a moderator stopped it).
        Aborted => "aborted",
    }
}

text_enum! {
    pub enum GameResult ("game result") {
        WhiteWins => "1-0",
        BlackWins => "0-1",
        Draw => "1/2-1/2",
    }
}

text_enum! {
    /// How a time control counts time.
    pub enum ClockKind ("clock kind") {
        /// Every move has the same allowance (`base_ms`), whatever earlier moves took.
        Correspondence => "correspondence",
        /// Each side has `base_ms` for the game and gains `increment_ms` per move (Fischer).
        Live => "live",
    }
}

/// A clock: its kind, the base time and the increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    pub kind: ClockKind,
    pub base_ms: i64,
    pub increment_ms: i64,
}

impl TimeControl {
    /// Reads the three nullable columns a time control is stored in (the schema has them all
    /// set or all null).
    pub(crate) fn from_columns(
        kind: Option<ClockKind>,
        base: Option<i64>,
        increment: Option<i64>,
    ) -> Option<TimeControl> {
        Some(TimeControl { kind: kind?, base_ms: base?, increment_ms: increment? })
    }

    pub(crate) fn columns(tc: Option<TimeControl>) -> (Option<ClockKind>, Option<i64>, Option<i64>) {
        (tc.map(|tc| tc.kind), tc.map(|tc| tc.base_ms), tc.map(|tc| tc.increment_ms))
    }
}

/// Time odds: each side's base time, when the two differ (an Armageddon decider gives White
/// more). A game without them gives each side its time control's `base_ms`. The increment, and
/// the kind of clock, are the time control's, the same for both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeOdds {
    pub white_base_ms: i64,
    pub black_base_ms: i64,
}

impl TimeOdds {
    /// The base time of `color`.
    pub fn base_ms(self, color: Color) -> i64 {
        match color {
            Color::White => self.white_base_ms,
            Color::Black => self.black_base_ms,
        }
    }

    /// Reads the two nullable columns time odds are stored in (both set or both null).
    pub(crate) fn from_columns(white: Option<i64>, black: Option<i64>) -> Option<TimeOdds> {
        Some(TimeOdds { white_base_ms: white?, black_base_ms: black? })
    }
}

/// A game about to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub platform: String,
    /// The server (guild) the channel belongs to; `None` for direct messages and the console.
    pub server: Option<String>,
    pub channel: String,
    pub variant: String,
    pub white: PlayerId,
    pub black: PlayerId,
    pub start_fen: String,
    pub time_control: Option<TimeControl>,
    /// Different base times for the two sides; only with a time control.
    pub time_odds: Option<TimeOdds>,
    /// When the first player to move runs out of time.
    pub deadline: Option<Millis>,
    pub rated: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub id: GameId,
    pub platform: String,
    pub server: Option<String>,
    pub channel: String,
    pub variant: String,
    pub white: PlayerId,
    pub black: PlayerId,
    pub start_fen: String,
    pub state: GameState,
    /// Set exactly when the state is `Finished`.
    pub result: Option<GameResult>,
    /// Why it ended: "checkmate", "resignation", "time", ... (the host's words).
    pub reason: Option<String>,
    pub time_control: Option<TimeControl>,
    /// Different base times for the two sides (`None`: both have the time control's base).
    pub time_odds: Option<TimeOdds>,
    /// When the player to move runs out of time; `None` when no clock runs.
    pub deadline: Option<Millis>,
    pub rated: bool,
    /// The tournament pairing this game was played for.
    pub pairing: Option<PairingId>,
    pub created_at: Millis,
    pub updated_at: Millis,
    pub finished_at: Option<Millis>,
    /// The game page's address: given only where the game may be seen.
    pub web_key: WebKey,
}

impl Game {
    pub fn player(&self, color: Color) -> PlayerId {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The colour `player` plays, if they play (white first, should someone play themselves).
    pub fn color_of(&self, player: PlayerId) -> Option<Color> {
        if player == self.white {
            Some(Color::White)
        } else if player == self.black {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// From a row of [`game_columns!`], in its order.
    pub(crate) fn from_row(row: &Row<'_, '_>) -> Result<Game> {
        Ok(Game {
            id: row.get(0)?,
            platform: row.get(1)?,
            server: row.get(2)?,
            channel: row.get(3)?,
            variant: row.get(4)?,
            white: row.get(5)?,
            black: row.get(6)?,
            start_fen: row.get(7)?,
            state: row.get(8)?,
            result: row.get(9)?,
            reason: row.get(10)?,
            time_control: TimeControl::from_columns(row.get(11)?, row.get(12)?, row.get(13)?),
            deadline: row.get(14)?,
            rated: row.get(15)?,
            pairing: row.get(16)?,
            created_at: row.get(17)?,
            updated_at: row.get(18)?,
            finished_at: row.get(19)?,
            time_odds: TimeOdds::from_columns(row.get(20)?, row.get(21)?),
            web_key: row.get(22)?,
        })
    }
}

/// The columns [`Game::from_row`] reads, in its order.
macro_rules! game_columns {
    () => {
        "id, platform, server, channel, variant, white_id, black_id, start_fen, state, result, \
         reason, clock_kind, base_ms, increment_ms, deadline, rated, pairing_id, created_at, \
         updated_at, finished_at, white_base_ms, black_base_ms, web_key"
    };
}

/// A game with everything needed to carry it on: its moves in order and its standing offers.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub game: Game,
    pub moves: Vec<Move>,
    pub offers: Vec<Offer>,
    /// A team game's vote window (see `teams`); `None` for a game between players.
    pub vote_window: Option<Millis>,
}

impl GameRecord {
    /// Plies played so far: the `expected_ply` of the next move.
    pub fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    /// The position now.
    pub fn fen(&self) -> &str {
        self.moves.last().map_or(&self.game.start_fen, |m| &m.fen_after)
    }
}

/// How a game ends, and the rating changes it causes (empty when unrated), written together.
#[derive(Clone, Debug, PartialEq)]
pub struct Finish {
    pub result: GameResult,
    pub reason: String,
    pub ratings: Vec<RatingUpdate>,
}

impl ReadTx<'_> {
    pub fn game(&self, id: GameId) -> Result<Game> {
        self.conn()
            .query_opt(sql!("SELECT ", game_columns!(), " FROM games WHERE id = $1"), params![id], Game::from_row)?
            .ok_or(Error::NotFound { what: "game", id })
    }

    /// A game with its moves and offers.
    pub fn game_record(&self, id: GameId) -> Result<GameRecord> {
        let game = self.game(id)?;
        self.record_of(game)
    }

    /// The active game of a channel, if any, with its moves and offers.
    pub fn active_game(&self, platform: &str, channel: &str) -> Result<Option<GameRecord>> {
        let game = self.conn().query_opt(
            sql!("SELECT ", game_columns!(), " FROM games WHERE platform = $1 AND channel = $2 AND state = 'active'"),
            params![platform, channel],
            Game::from_row,
        )?;
        game.map(|game| self.record_of(game)).transpose()
    }

    fn record_of(&self, game: Game) -> Result<GameRecord> {
        let moves = self.moves(game.id)?;
        let offers = self.offers(game.id)?;
        let vote_window = self.vote_window(game.id)?;
        Ok(GameRecord { game, moves, offers, vote_window })
    }

    /// Active games whose player to move ran out of time at or before `now`, earliest first.
    pub fn overdue_games(&self, now: Millis) -> Result<Vec<Game>> {
        self.conn().query(
            sql!(
                "SELECT ",
                game_columns!(),
                " FROM games WHERE state = 'active' AND deadline IS NOT NULL AND deadline <= $1
                  ORDER BY deadline, id"
            ),
            params![now],
            Game::from_row,
        )
    }

    /// The earliest deadline of any active game: when the clock scheduler should next wake.
    pub fn next_deadline(&self) -> Result<Option<Millis>> {
        self.conn()
            .value(sql!("SELECT min(deadline) FROM games WHERE state = 'active' AND deadline IS NOT NULL"), params![])
    }

    /// The active games `player` plays in, oldest first.
    pub fn active_games_of(&self, player: PlayerId) -> Result<Vec<Game>> {
        self.conn().query(
            sql!(
                "SELECT ",
                game_columns!(),
                " FROM games WHERE state = 'active' AND white_id = $1
                  UNION
                  SELECT ",
                game_columns!(),
                " FROM games WHERE state = 'active' AND black_id = $1
                  ORDER BY id"
            ),
            params![player],
            Game::from_row,
        )
    }

    /// `player`'s finished games, latest first, a page at a time: at most `limit` games that
    /// come after `after`, the `(finished_at, id)` of the last game of the previous page (`None`
    /// for the first page).
    pub fn finished_games_of(
        &self,
        player: PlayerId,
        after: Option<(Millis, GameId)>,
        limit: u32,
    ) -> Result<Vec<Game>> {
        let (finished_at, id) = after.unwrap_or((Millis::MAX, GameId::MAX));
        self.conn().query(
            sql!(
                "SELECT ",
                game_columns!(),
                " FROM games
                  WHERE state = 'finished' AND white_id = $1 AND (finished_at, id) < ($2, $3)
                  UNION
                  SELECT ",
                game_columns!(),
                " FROM games
                  WHERE state = 'finished' AND black_id = $1 AND (finished_at, id) < ($2, $3)
                  ORDER BY finished_at DESC, id DESC
                  LIMIT $4"
            ),
            params![player, finished_at, id, i64::from(limit)],
            Game::from_row,
        )
    }

    /// The game if it is active; `GameNotActive` otherwise.
    pub(crate) fn active(&self, id: GameId) -> Result<Game> {
        let game = self.game(id)?;
        if game.state != GameState::Active {
            return Err(Error::GameNotActive { game_id: id, state: game.state });
        }
        Ok(game)
    }
}

impl WriteTx<'_> {
    /// Starts a game; `ChannelBusy` if its channel already has an active one.
    pub fn create_game(&self, new: &NewGame, now: Millis) -> Result<Game> {
        self.insert_game(new, None, now)
    }

    pub(crate) fn insert_game(&self, new: &NewGame, pairing: Option<PairingId>, now: Millis) -> Result<Game> {
        // The unique index would refuse the insert anyway; asking first (inside the write lock,
        // or the serializable transaction, so nothing slips in between) lets the error name the
        // game in the way.
        if let Some(busy) = self.active_game_id(&new.platform, &new.channel)? {
            return Err(Error::ChannelBusy {
                platform: new.platform.clone(),
                channel: new.channel.clone(),
                game_id: busy,
            });
        }
        let (clock_kind, base_ms, increment_ms) = TimeControl::columns(new.time_control);
        let odds = new.time_odds;
        let id: GameId = self.conn().value(
            sql!(
                "INSERT INTO games (platform, server, channel, variant, white_id, black_id,
                     start_fen, state, base_ms, increment_ms, deadline, rated, pairing_id,
                     created_at, updated_at, clock_kind, white_base_ms, black_base_ms, web_key)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $9, $10, $11, $12, $13, $13, $14,
                     $15, $16, $17)
                 RETURNING id"
            ),
            params![
                new.platform,
                new.server,
                new.channel,
                new.variant,
                new.white,
                new.black,
                new.start_fen,
                base_ms,
                increment_ms,
                new.deadline,
                new.rated,
                pairing,
                now,
                clock_kind,
                odds.map(|o| o.white_base_ms),
                odds.map(|o| o.black_base_ms),
                WebKey::random()
            ],
        )?;
        self.game(id)
    }

    fn active_game_id(&self, platform: &str, channel: &str) -> Result<Option<GameId>> {
        self.conn().query_opt(
            sql!("SELECT id FROM games WHERE platform = $1 AND channel = $2 AND state = 'active'"),
            params![platform, channel],
            |row| row.get(0),
        )
    }

    /// Ends an active game with a result, applies its rating updates and, for a tournament game,
    /// records the pairing's result: all or nothing.
    pub fn finish_game(&self, id: GameId, finish: &Finish, now: Millis) -> Result<Game> {
        let game = self.active(id)?;
        self.finish_active(&game, finish, now)
    }

    pub(crate) fn finish_active(&self, game: &Game, finish: &Finish, now: Millis) -> Result<Game> {
        for update in &finish.ratings {
            let rated_by_game = game.rated && game.color_of(update.player).is_some() && update.variant == game.variant;
            if !rated_by_game {
                return Err(Error::RatingOutsideGame {
                    game_id: game.id,
                    player: update.player,
                    variant: update.variant.clone(),
                });
            }
            self.update_rating(update, now)?;
        }
        self.conn().execute(
            sql!(
                "UPDATE games SET state = 'finished', result = $2, reason = $3, deadline = NULL,
                     finished_at = $4, updated_at = $4
                 WHERE id = $1"
            ),
            params![game.id, finish.result, finish.reason, now],
        )?;
        self.clear_offers(game.id, None)?;
        if let Some(pairing) = game.pairing {
            // A decider is played in the pairing's colours reversed.
            let reversed = self.pairing(pairing)?.white != game.white;
            let result = match (finish.result, reversed) {
                (GameResult::WhiteWins, true) => GameResult::BlackWins,
                (GameResult::BlackWins, true) => GameResult::WhiteWins,
                (result, _) => result,
            };
            self.set_pairing_result(pairing, Some(result.into()))?;
        }
        self.game(game.id)
    }

    /// Ends an active game without a result.
    pub fn abort_game(&self, id: GameId, reason: &str, now: Millis) -> Result<Game> {
        self.active(id)?;
        self.conn().execute(
            sql!(
                "UPDATE games SET state = 'aborted', reason = $2, deadline = NULL,
                     finished_at = $3, updated_at = $3
                 WHERE id = $1"
            ),
            params![id, reason, now],
        )?;
        self.clear_offers(id, None)?;
        self.game(id)
    }

    /// Moves the deadline of the player to move (a clock paused, extended or started).
    pub fn set_deadline(&self, id: GameId, deadline: Option<Millis>, now: Millis) -> Result<Game> {
        self.active(id)?;
        self.conn().execute(
            sql!("UPDATE games SET deadline = $2, updated_at = $3 WHERE id = $1"),
            params![id, deadline, now],
        )?;
        self.game(id)
    }

    /// Claims up to `limit` active games of `platform` whose player to move ran out of time at
    /// or before `now`, earliest first, for this transaction to end (see "Several processes" in
    /// the crate's docs). On PostgreSQL each game returned is locked until the commit and
    /// skipped by every other process's claim meanwhile, so concurrent schedulers share the due
    /// games out instead of queueing on them; a process that dies before its commit unlocks
    /// them with nothing done. On SQLite the one writer is alone anyway.
    pub fn claim_overdue_games(&self, platform: &str, now: Millis, limit: u32) -> Result<Vec<Game>> {
        self.conn().query(
            sql!(
                postgres: concat!(
                    "SELECT ",
                    game_columns!(),
                    " FROM games
                      WHERE state = 'active' AND deadline IS NOT NULL AND deadline <= $2 AND platform = $1
                      ORDER BY deadline, id LIMIT $3
                      FOR UPDATE SKIP LOCKED"
                ),
                sqlite: concat!(
                    "SELECT ",
                    game_columns!(),
                    " FROM games
                      WHERE state = 'active' AND deadline IS NOT NULL AND deadline <= $2 AND platform = $1
                      ORDER BY deadline, id LIMIT $3"
                ),
            ),
            params![platform, now, i64::from(limit)],
            Game::from_row,
        )
    }
}

#[cfg(test)]
mod tests;
