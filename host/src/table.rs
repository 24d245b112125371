//! [`Table`]: a stored game as the host plays it, with its players and the rules' game rebuilt
//! from the stored moves; and finding the game a command is about.

use data::{GameId, GameRecord, GameState, Player, Tournament};
use rules::{Color, Game, Outcome, Position, Variant, WinReason};

use super::end::stored_outcome;

use super::clock::TimeControl;
use super::stored::{self, Terms};
use super::team::VoteWindow;
use super::user::team_channel;
use super::{told, Ctx, Host, Refusal, Request, Typed, User};

#[derive(Clone)]
pub(crate) struct Table {
    pub record: GameRecord,
    pub white: Player,
    pub black: Player,
    /// The game so far, replayed from the start position.
    pub game: Game,
    time: Option<TimeControl>,
    /// Each side's base time (White's, Black's) when they differ: an Armageddon decider.
    odds: Option<(i64, i64)>,
}

impl Table {
    /// Rebuilds the rules' game by replaying the stored coordinate moves: the stored FENs are
    /// for other readers, the moves are the truth.
    pub fn new(record: GameRecord, white: Player, black: Player) -> Result<Table, Refusal> {
        let broken = |why: String| stored::unreadable(record.game.record(), why);
        let variant = record.game.variant()?;
        let time = record.game.time_control()?;
        let odds = match (time, record.game.time_odds) {
            (_, None) => None,
            (Some(_), Some(o)) if o.white_base_ms > 0 && o.black_base_ms > 0 => {
                Some((o.white_base_ms, o.black_base_ms))
            }
            (_, Some(o)) => return Err(broken(format!("{o:?} are not time odds Chimera gives"))),
        };
        let start = Position::from_fen(variant, &record.game.start_fen).map_err(|e| broken(e.to_string()))?;
        let mut game = Game::new(start);
        for m in &record.moves {
            let parsed = game.position().parse_coord(&m.coord).map_err(|e| broken(format!("ply {}: {e}", m.ply)))?;
            game.play(parsed).map_err(|e| broken(format!("ply {}: {e}", m.ply)))?;
        }
        Ok(Table { record, white, black, game, time, odds })
    }

    /// The table after one more move: `stored` as the database keeps it, `game` the rules' game
    /// with it played.
    pub fn with_move(mut self, stored: data::Move, game: Game) -> Table {
        self.record.moves.push(stored);
        self.game = game;
        self
    }

    /// The table of a game that has just ended: `game` is its finished record.
    pub fn with_end(mut self, game: data::Game) -> Table {
        self.record.game = game;
        self
    }

    pub fn id(&self) -> GameId {
        self.record.game.id
    }

    pub fn variant(&self) -> Variant {
        self.game.start().variant()
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    pub fn ply(&self) -> u32 {
        self.record.ply()
    }

    pub fn to_move(&self) -> Color {
        self.position().turn()
    }

    /// Who moved first (White, unless a game ever starts from a FEN with Black to move).
    pub fn first(&self) -> Color {
        self.game.start().turn()
    }

    pub fn player(&self, color: Color) -> &Player {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The player of `color` as a user to mention.
    pub fn user(&self, color: Color) -> User {
        stored::user(self.player(color))
    }

    /// The player's name, marked as typed (a transport shows it as text, never as markup).
    pub fn name(&self, color: Color) -> Typed<'_> {
        Typed(&self.player(color).display_name)
    }

    /// The colour a platform user plays here, if they play.
    pub fn color_of(&self, user_id: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| self.player(c).user_id == user_id)
    }

    /// The side whose team is the channel `channel`, when this is a team game and `channel` is
    /// one of its teams' (see `team`).
    pub fn team_in(&self, channel: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| team_channel(&self.player(c).user_id) == Some(channel))
    }

    /// Whether the game's sides vote their moves.
    pub fn is_team_game(&self) -> bool {
        self.record.vote_window.is_some()
    }

    pub fn time_control(&self) -> Option<TimeControl> {
        self.time
    }

    /// The base time of `color`: the time control's, unless the game gives time odds.
    pub fn base_ms(&self, color: Color) -> Option<i64> {
        let time = self.time?;
        Some(match (self.odds, color) {
            (Some((white, _)), Color::White) => white,
            (Some((_, black)), Color::Black) => black,
            (None, _) => time.initial_ms(),
        })
    }

    /// The clock in words, with each side's time when they differ.
    pub fn describe_time(&self) -> String {
        if let Some(window) = self.record.vote_window {
            return match VoteWindow::from_ms(window) {
                Some(window) => format!("{} per move, by vote", window.describe()),
                None => format!("{} per move, by vote", super::clock::format_duration(window)),
            };
        }
        match (self.time, self.odds) {
            (None, _) => "no clock".to_string(),
            (Some(time), None) => time.describe(),
            (Some(time), Some((white, black))) => time.describe_odds(white, black),
        }
    }

    /// The rules' game with its stored ending: a finished game's resignation, time-out or draw
    /// is applied, as its moves alone do not show them.
    pub fn ended_game(&self) -> Game {
        let mut game = self.game.clone();
        let g = &self.record.game;
        match (g.state, stored_outcome(g)) {
            (GameState::Finished, Some(Outcome::Decisive { winner, reason: WinReason::Resignation })) => {
                game.resign(!winner)
            }
            (GameState::Finished, Some(Outcome::Decisive { winner, reason: WinReason::Timeout })) => {
                game.time_out(!winner)
            }
            (GameState::Finished, Some(Outcome::Draw(reason))) => game.draw(reason),
            _ => {}
        }
        game
    }

    /// The time `color` has for its next move, by the moves played so far: in a team game, the
    /// vote window, for every move.
    pub fn allowance(&self, color: Color) -> Option<i64> {
        if let Some(window) = self.record.vote_window {
            return Some(window);
        }
        let (time, base) = (self.time_control()?, self.base_ms(color)?);
        Some(time.allowance_from(base, &self.record.moves, self.first(), color))
    }
}

impl Ctx<'_> {
    /// The channel's active game, if it has one.
    pub(crate) async fn active_table(&self) -> Result<Option<Table>, Refusal> {
        self.host.load_active(self.platform(), self.channel()).await
    }

    /// The game a command acts on: the channel's active game, which must be `game` when the
    /// command names one (a button made for a game that has since ended changes nothing).
    pub(crate) async fn table(&self, game: Option<GameId>) -> Result<Table, Refusal> {
        let active = self.active_table().await?;
        self.table_of(active, game)
    }

    /// [`Ctx::table`], given the channel's active game as read.
    pub(crate) fn table_of(&self, active: Option<Table>, game: Option<GameId>) -> Result<Table, Refusal> {
        match (active, game) {
            (Some(table), Some(id)) if table.id() != id => {
                told(format!("Game {id} is over; this channel's game now is game {}.", table.id()))
            }
            (Some(table), _) => Ok(table),
            (None, Some(id)) => told(format!("Game {id} is over; there is no game in #{} now.", self.channel())),
            (None, None) => told(format!(
                "There is no game in #{}. Start one with `/challenge @someone variant:chess`, or see `/help`.",
                self.channel()
            )),
        }
    }

    /// The colour the requester plays in `table`; only the two players may act on a game.
    pub(crate) fn seat(&self, table: &Table) -> Result<Color, Refusal> {
        if table.is_team_game() && table.color_of(&self.user().id).is_none() {
            return told(format!(
                "In a team game each side's members vote its moves with `/move`, in their own channel; a team \
                 does not resign, offer draws, take back or abort. {} against {}: everyone may watch with `/board`, \
                 `/game` and `/moves`.",
                table.name(Color::White),
                table.name(Color::Black)
            ));
        }
        table.color_of(&self.user().id).ok_or_else(|| {
            Refusal::Told(format!(
                "Only {} and {} play in this game; everyone may watch with `/board`, `/game` and `/moves`.",
                Typed(&table.white.display_name),
                Typed(&table.black.display_name)
            ))
        })
    }
}

/// Who asks to see a game by its number, and from where: the one place the visibility rule is
/// decided ([`Viewer::sees`]), for every command that names a game by number.
#[derive(Clone, Debug)]
pub(crate) struct Viewer {
    platform: String,
    server: Option<String>,
    channel: String,
    user: String,
}

/// What a game that may not be seen is answered with: the same words as a game that does not
/// exist, so that counting game numbers tells a stranger nothing.
pub(crate) fn no_game(id: GameId) -> String {
    format!("There is no game {id}.")
}

impl Viewer {
    pub fn of(request: &Request) -> Viewer {
        Viewer {
            platform: request.platform.clone(),
            server: request.server.clone(),
            channel: request.channel.clone(),
            user: request.user.id.clone(),
        }
    }

    /// Whether this viewer may see `game`, played by `players`, for `tournament` if it was a
    /// tournament game. Never across platforms (users are per platform); within one:
    /// - on the console, every game (one operator, one terminal);
    /// - the game's own players, from anywhere (a direct chat with the bot included);
    /// - from the place it was played: the same server (a Discord guild; on Matrix the server
    ///   is the room, so the room and its threads), or, for a game outside any server (a
    ///   Discord direct message), that very channel;
    /// - a tournament game, from the tournament's server (or its channel, if it has none).
    pub fn sees(&self, game: &data::Game, players: [&Player; 2], tournament: Option<&Tournament>) -> bool {
        if game.platform != self.platform {
            return false;
        }
        if self.platform == "console" || self.plays(players) {
            return true;
        }
        self.at(game.server.as_deref(), &game.channel)
            || tournament.is_some_and(|t| {
                t.platform == self.platform && self.at(Some(t.server.as_str()).filter(|s| !s.is_empty()), &t.channel)
            })
    }

    /// [`Viewer::sees`], with the game's tournament read from `tx` when it decides.
    pub fn sees_stored(&self, tx: &data::ReadTx<'_>, game: &data::Game, players: [&Player; 2]) -> data::Result<bool> {
        if self.sees(game, players, None) {
            return Ok(true);
        }
        // Only a game the viewer cannot otherwise see costs the tournament's lookup.
        let Some(pairing) = game.pairing else { return Ok(false) };
        let round = tx.round(tx.pairing(pairing)?.round)?;
        let tournament = tx.tournament(round.tournament)?;
        Ok(self.sees(game, players, Some(&tournament)))
    }

    /// Whether the viewer plays with one of `players` (players are per platform, and a game's
    /// players are of its platform).
    fn plays(&self, players: [&Player; 2]) -> bool {
        players.iter().any(|p| p.platform == self.platform && p.user_id == self.user)
    }

    /// Whether the viewer is in the place `server`/`channel`: the same server, or, where there is
    /// no server, the same channel.
    fn at(&self, server: Option<&str>, channel: &str) -> bool {
        match (server, self.server.as_deref()) {
            (Some(there), Some(here)) => there == here,
            (None, None) => channel == self.channel,
            _ => false,
        }
    }
}

impl Ctx<'_> {
    /// A game a user names by its number, if they may see it (see [`Viewer::sees`]); one they may
    /// not see is refused in the words of one that does not exist.
    pub(crate) async fn numbered(&self, id: GameId) -> Result<Table, Refusal> {
        let viewer = Viewer::of(self.request);
        let found = self
            .store()
            .read(move |tx| {
                let record = match tx.game_record(id) {
                    Ok(record) => record,
                    Err(data::Error::NotFound { .. }) => return Ok(None),
                    Err(e) => return Err(e),
                };
                let (white, black) = (tx.player(record.game.white)?, tx.player(record.game.black)?);
                Ok(viewer.sees_stored(tx, &record.game, [&white, &black])?.then_some((record, white, black)))
            })
            .await?;
        let Some((record, white, black)) = found else { return told(no_game(id)) };
        self.host.replayed(record, white, black)
    }
}

impl Host {
    /// Any game by its number, whoever asks: for the host's own work. A game a user names goes
    /// through [`Ctx::numbered`].
    pub(crate) async fn load_table(&self, id: GameId) -> Result<Table, Refusal> {
        let found = self
            .store()
            .read(move |tx| match tx.game_record(id) {
                Ok(record) => Ok(Some((tx.player(record.game.white)?, tx.player(record.game.black)?, record))),
                Err(data::Error::NotFound { .. }) => Ok(None),
                Err(e) => Err(e),
            })
            .await?;
        let Some((white, black, record)) = found else { return told(no_game(id)) };
        self.replayed(record, white, black)
    }

    /// The active game of a channel, if any: its own, or the team game one of whose teams it is.
    pub(crate) async fn load_active(&self, platform: &str, channel: &str) -> Result<Option<Table>, Refusal> {
        let (platform, channel) = (platform.to_string(), channel.to_string());
        let found = self
            .store()
            .read(move |tx| {
                let record = match tx.active_game(&platform, &channel)? {
                    Some(record) => record,
                    // A team's channel whose game is played in the other team's channel.
                    None => {
                        let team = User::team(&channel, "");
                        let Some(team) = tx.find_player(&platform, &team.id)? else { return Ok(None) };
                        let Some(game) = tx.active_games_of(team.id)?.into_iter().next() else { return Ok(None) };
                        tx.game_record(game.id)?
                    }
                };
                let (white, black) = (tx.player(record.game.white)?, tx.player(record.game.black)?);
                Ok(Some((record, white, black)))
            })
            .await?;
        found.map(|(record, white, black)| self.replayed(record, white, black)).transpose()
    }

    /// A stored game replayed from its moves, counted.
    fn replayed(&self, record: GameRecord, white: Player, black: Player) -> Result<Table, Refusal> {
        self.inner.tables.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Table::new(record, white, black)
    }

    /// How many games this host has loaded and replayed from their moves: for tests that show
    /// what costs a game's replay and what does not.
    pub fn games_replayed(&self) -> u64 {
        self.inner.tables.load(std::sync::atomic::Ordering::Relaxed)
    }
}
