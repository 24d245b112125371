//! Tournaments: entrants, rounds and pairings, with what standings are computed from. The host
//! pairs and scores; this keeps what it decided.

use crate::db::{ReadTx, WriteTx};
use crate::error::{Error, Result};
use crate::games::{Game, GameResult, NewGame, TimeControl};
use crate::sql::{params, sql, Row};
use crate::text::text_enum;
use crate::web::WebKey;
use crate::{GameId, Millis, PairingId, PlayerId, RoundId, TournamentId};

text_enum! {
    pub enum Format ("tournament format") {
        Swiss => "swiss",
        RoundRobin => "round-robin",
        Knockout => "knockout",
    }
}

text_enum! {
    pub enum TournamentState ("tournament state") {
        /// Taking entrants.
        Open => "open",
        Running => "running",
        Finished => "finished",
        Cancelled => "cancelled",
    }
}

text_enum! {
    /// The result of a pairing. For a bye (no black), the points it scores: `WhiteWins` a full
    /// point, `Draw` a half, `BlackWins` none.
    pub enum PairingResult ("pairing result") {
        WhiteWins => "1-0",
        BlackWins => "0-1",
        Draw => "1/2-1/2",
        /// White wins because black did not play.
        WhiteWinsByForfeit => "+/-",
        BlackWinsByForfeit => "-/+",
        /// Neither played: no points, and not a game played for pairing purposes.
        DoubleForfeit => "-/-",
    }
}

impl From<GameResult> for PairingResult {
    fn from(result: GameResult) -> PairingResult {
        match result {
            GameResult::WhiteWins => PairingResult::WhiteWins,
            GameResult::BlackWins => PairingResult::BlackWins,
            GameResult::Draw => PairingResult::Draw,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournament {
    pub platform: String,
    pub server: String,
    /// Where the tournament is announced.
    pub channel: String,
    pub organiser: PlayerId,
    pub name: String,
    pub variant: String,
    pub format: Format,
    /// `None` when the format decides at the start (round-robin, knockout).
    pub rounds: Option<u32>,
    pub time_control: Option<TimeControl>,
    pub rated: bool,
    pub starts_at: Millis,
    /// Round robin only: every pair meets twice, colours reversed.
    pub double: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    pub id: TournamentId,
    pub platform: String,
    pub server: String,
    pub channel: String,
    pub organiser: PlayerId,
    pub name: String,
    pub variant: String,
    pub format: Format,
    pub rounds: Option<u32>,
    pub time_control: Option<TimeControl>,
    pub rated: bool,
    pub starts_at: Millis,
    pub double: bool,
    pub state: TournamentState,
    pub created_at: Millis,
    pub updated_at: Millis,
    /// The tournament page's address: given only where the tournament is played.
    pub web_key: WebKey,
}

impl Tournament {
    fn from_row(row: &Row<'_, '_>) -> Result<Tournament> {
        Ok(Tournament {
            id: row.get(0)?,
            platform: row.get(1)?,
            server: row.get(2)?,
            channel: row.get(3)?,
            organiser: row.get(4)?,
            name: row.get(5)?,
            variant: row.get(6)?,
            format: row.get(7)?,
            rounds: row.get(8)?,
            time_control: TimeControl::from_columns(row.get(9)?, row.get(10)?, row.get(11)?),
            rated: row.get(12)?,
            starts_at: row.get(13)?,
            double: row.get(14)?,
            state: row.get(15)?,
            created_at: row.get(16)?,
            updated_at: row.get(17)?,
            web_key: row.get(18)?,
        })
    }
}

/// The columns `Tournament::from_row` reads, in its order.
macro_rules! columns {
    () => {
        "id, platform, server, channel, organiser_id, name, variant, format, rounds, clock_kind, \
         base_ms, increment_ms, rated, starts_at, double_round_robin, state, created_at, updated_at, web_key"
    };
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub player: PlayerId,
    pub joined_at: Millis,
    /// Set when they left a running tournament: they are paired no more but keep their games.
    pub withdrawn_at: Option<Millis>,
    /// Their rating when the tournament started (set by [`WriteTx::set_start_rating`]): it
    /// fixes their starting rank for the whole event.
    pub start_rating: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPairing {
    pub white: PlayerId,
    /// `None`: a bye for white.
    pub black: Option<PlayerId>,
    /// Known at once for byes and forfeits; games set theirs when they finish.
    pub result: Option<PairingResult>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub id: PairingId,
    pub round: RoundId,
    /// 1 for the first board of the round.
    pub board: u32,
    pub white: PlayerId,
    pub black: Option<PlayerId>,
    /// The latest game played for this pairing (an aborted one may have been replayed).
    pub game: Option<GameId>,
    pub result: Option<PairingResult>,
}

impl Pairing {
    fn from_row(row: &Row<'_, '_>) -> Result<Pairing> {
        Ok(Pairing {
            id: row.get(0)?,
            round: row.get(1)?,
            board: row.get(2)?,
            white: row.get(3)?,
            black: row.get(4)?,
            result: row.get(5)?,
            game: row.get(6)?,
        })
    }
}

/// The columns `Pairing::from_row` reads, in its order.
macro_rules! pairing_columns {
    () => {
        "id, round_id, board, white_id, black_id, result, \
         (SELECT max(g.id) FROM games g WHERE g.pairing_id = pairings.id) AS game_id"
    };
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub id: RoundId,
    pub tournament: TournamentId,
    pub number: u32,
    pub started_at: Millis,
    pub finished_at: Option<Millis>,
    /// By board.
    pub pairings: Vec<Pairing>,
}

fn entrant(row: &Row<'_, '_>) -> Result<Entrant> {
    Ok(Entrant { player: row.get(0)?, joined_at: row.get(1)?, withdrawn_at: row.get(2)?, start_rating: row.get(3)? })
}

impl ReadTx<'_> {
    pub fn tournament(&self, id: TournamentId) -> Result<Tournament> {
        self.conn()
            .query_opt(
                sql!("SELECT ", columns!(), " FROM tournaments WHERE id = $1"),
                params![id],
                Tournament::from_row,
            )?
            .ok_or(Error::NotFound { what: "tournament", id })
    }

    /// The tournaments of a server, latest start first.
    pub fn server_tournaments(&self, platform: &str, server: &str) -> Result<Vec<Tournament>> {
        self.conn().query(
            sql!(
                "SELECT ",
                columns!(),
                " FROM tournaments WHERE platform = $1 AND server = $2 ORDER BY starts_at DESC, id DESC"
            ),
            params![platform, server],
            Tournament::from_row,
        )
    }

    /// A page of the tournaments of a server, latest start first: at most `limit`, after the
    /// first `skip`.
    pub fn server_tournaments_page(
        &self,
        platform: &str,
        server: &str,
        skip: u32,
        limit: u32,
    ) -> Result<Vec<Tournament>> {
        self.conn().query(
            sql!(
                "SELECT ",
                columns!(),
                " FROM tournaments WHERE platform = $1 AND server = $2
                  ORDER BY starts_at DESC, id DESC LIMIT $3 OFFSET $4"
            ),
            params![platform, server, i64::from(limit), i64::from(skip)],
            Tournament::from_row,
        )
    }

    /// How many tournaments a server has.
    pub fn count_server_tournaments(&self, platform: &str, server: &str) -> Result<u64> {
        let n: i64 = self.conn().value(
            sql!("SELECT COUNT(*) FROM tournaments WHERE platform = $1 AND server = $2"),
            params![platform, server],
        )?;
        Ok(n.max(0) as u64)
    }

    /// Tournament `id`, if it is one of this server's.
    pub fn server_tournament(&self, platform: &str, server: &str, id: TournamentId) -> Result<Option<Tournament>> {
        self.conn().query_opt(
            sql!("SELECT ", columns!(), " FROM tournaments WHERE id = $1 AND platform = $2 AND server = $3"),
            params![id, platform, server],
            Tournament::from_row,
        )
    }

    /// The open and running tournaments of a server, oldest first.
    pub fn live_server_tournaments(&self, platform: &str, server: &str) -> Result<Vec<Tournament>> {
        self.conn().query(
            sql!(
                "SELECT ",
                columns!(),
                " FROM tournaments WHERE platform = $1 AND server = $2 AND state IN ('open', 'running')
                  ORDER BY id"
            ),
            params![platform, server],
            Tournament::from_row,
        )
    }

    /// The latest tournament created on a server.
    pub fn latest_server_tournament(&self, platform: &str, server: &str) -> Result<Option<Tournament>> {
        self.conn().query_opt(
            sql!(
                "SELECT ",
                columns!(),
                " FROM tournaments WHERE platform = $1 AND server = $2 ORDER BY id DESC LIMIT 1"
            ),
            params![platform, server],
            Tournament::from_row,
        )
    }

    /// How many open and running tournaments `organiser` has, on any server.
    pub fn count_live_tournaments_of(&self, organiser: PlayerId) -> Result<u64> {
        let n: i64 = self.conn().value(
            sql!("SELECT COUNT(*) FROM tournaments WHERE organiser_id = $1 AND state IN ('open', 'running')"),
            params![organiser],
        )?;
        Ok(n.max(0) as u64)
    }

    /// Open tournaments whose start time has come, earliest first: for the scheduler.
    pub fn due_tournaments(&self, now: Millis) -> Result<Vec<Tournament>> {
        self.conn().query(
            sql!(
                "SELECT ",
                columns!(),
                " FROM tournaments WHERE state = 'open' AND starts_at <= $1 ORDER BY starts_at, id"
            ),
            params![now],
            Tournament::from_row,
        )
    }

    /// The open and running tournaments of a platform, oldest first: for the scheduler.
    pub fn live_tournaments(&self, platform: &str) -> Result<Vec<Tournament>> {
        self.conn().query(
            sql!(
                "SELECT ",
                columns!(),
                " FROM tournaments WHERE platform = $1 AND state IN ('open', 'running') ORDER BY id"
            ),
            params![platform],
            Tournament::from_row,
        )
    }

    /// Entrants in the order they joined.
    pub fn entrants(&self, tournament: TournamentId) -> Result<Vec<Entrant>> {
        self.conn().query(
            sql!(
                "SELECT player_id, joined_at, withdrawn_at, start_rating FROM entrants
                 WHERE tournament_id = $1 ORDER BY joined_at, player_id"
            ),
            params![tournament],
            entrant,
        )
    }

    /// Every round so far with its pairings: what standings and the next pairing are computed
    /// from.
    pub fn rounds(&self, tournament: TournamentId) -> Result<Vec<Round>> {
        let ids: Vec<RoundId> = self.conn().query(
            sql!("SELECT id FROM rounds WHERE tournament_id = $1 ORDER BY number"),
            params![tournament],
            |row| row.get(0),
        )?;
        ids.into_iter().map(|id| self.round(id)).collect()
    }

    pub fn round(&self, id: RoundId) -> Result<Round> {
        let (tournament, number, started_at, finished_at) = self
            .conn()
            .query_opt(
                sql!("SELECT tournament_id, number, started_at, finished_at FROM rounds WHERE id = $1"),
                params![id],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )?
            .ok_or(Error::NotFound { what: "round", id })?;
        let pairings = self.conn().query(
            sql!("SELECT ", pairing_columns!(), " FROM pairings WHERE round_id = $1 ORDER BY board"),
            params![id],
            Pairing::from_row,
        )?;
        Ok(Round { id, tournament, number, started_at, finished_at, pairings })
    }

    pub fn pairing(&self, id: PairingId) -> Result<Pairing> {
        self.conn()
            .query_opt(
                sql!("SELECT ", pairing_columns!(), " FROM pairings WHERE id = $1"),
                params![id],
                Pairing::from_row,
            )?
            .ok_or(Error::NotFound { what: "pairing", id })
    }

    fn tournament_in(&self, id: TournamentId, needed: TournamentState) -> Result<Tournament> {
        let tournament = self.tournament(id)?;
        if tournament.state != needed {
            return Err(Error::TournamentState { tournament_id: id, state: tournament.state, needed });
        }
        Ok(tournament)
    }

    fn is_entrant(&self, tournament: TournamentId, player: PlayerId) -> Result<bool> {
        let found = self.conn().query_opt(
            sql!("SELECT 1 FROM entrants WHERE tournament_id = $1 AND player_id = $2"),
            params![tournament, player],
            |_| Ok(()),
        )?;
        Ok(found.is_some())
    }
}

impl WriteTx<'_> {
    /// Creates a tournament, open for entrants.
    pub fn create_tournament(&self, new: &NewTournament, now: Millis) -> Result<Tournament> {
        let (clock_kind, base_ms, increment_ms) = TimeControl::columns(new.time_control);
        let id: TournamentId = self.conn().value(
            sql!(
                "INSERT INTO tournaments (platform, server, channel, organiser_id, name, variant,
                     format, rounds, base_ms, increment_ms, rated, starts_at, state, created_at,
                     updated_at, double_round_robin, clock_kind, web_key)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'open', $13, $13, $14, $15,
                     $16)
                 RETURNING id"
            ),
            params![
                new.platform,
                new.server,
                new.channel,
                new.organiser,
                new.name,
                new.variant,
                new.format,
                new.rounds,
                base_ms,
                increment_ms,
                new.rated,
                new.starts_at,
                now,
                new.double,
                clock_kind,
                WebKey::random()
            ],
        )?;
        self.tournament(id)
    }

    /// Moves a tournament to `state` (start, finish, cancel), and fixes its round count if the
    /// format decided it at the start.
    pub fn set_tournament_state(
        &self,
        id: TournamentId,
        state: TournamentState,
        rounds: Option<u32>,
        now: Millis,
    ) -> Result<Tournament> {
        self.tournament(id)?;
        self.conn().execute(
            sql!("UPDATE tournaments SET state = $2, rounds = coalesce($3, rounds), updated_at = $4 WHERE id = $1"),
            params![id, state, rounds, now],
        )?;
        self.tournament(id)
    }

    /// Enters `player` in an open tournament.
    pub fn join_tournament(&self, id: TournamentId, player: PlayerId, now: Millis) -> Result<Entrant> {
        self.tournament_in(id, TournamentState::Open)?;
        if self.is_entrant(id, player)? {
            return Err(Error::AlreadyEntered { tournament_id: id, player });
        }
        self.conn().execute(
            sql!("INSERT INTO entrants (tournament_id, player_id, joined_at) VALUES ($1, $2, $3)"),
            params![id, player, now],
        )?;
        Ok(Entrant { player, joined_at: now, withdrawn_at: None, start_rating: None })
    }

    /// Takes `player` out of a tournament that has not started: as if they never joined.
    pub fn leave_tournament(&self, id: TournamentId, player: PlayerId) -> Result<()> {
        self.tournament_in(id, TournamentState::Open)?;
        let removed = self
            .conn()
            .execute(sql!("DELETE FROM entrants WHERE tournament_id = $1 AND player_id = $2"), params![id, player])?;
        if removed == 0 {
            return Err(Error::NotEntrant { tournament_id: id, player });
        }
        Ok(())
    }

    /// Withdraws `player` from a running tournament: no more pairings, results kept.
    pub fn withdraw_entrant(&self, id: TournamentId, player: PlayerId, now: Millis) -> Result<Entrant> {
        self.tournament_in(id, TournamentState::Running)?;
        if !self.is_entrant(id, player)? {
            return Err(Error::NotEntrant { tournament_id: id, player });
        }
        self.conn().query_one(
            sql!(
                "UPDATE entrants SET withdrawn_at = coalesce(withdrawn_at, $3)
                 WHERE tournament_id = $1 AND player_id = $2
                 RETURNING player_id, joined_at, withdrawn_at, start_rating"
            ),
            params![id, player, now],
            entrant,
        )
    }

    /// Records an entrant's rating at the start of the tournament.
    pub fn set_start_rating(&self, id: TournamentId, player: PlayerId, rating: i64) -> Result<()> {
        let changed = self.conn().execute(
            sql!("UPDATE entrants SET start_rating = $3 WHERE tournament_id = $1 AND player_id = $2"),
            params![id, player, rating],
        )?;
        if changed == 0 {
            return Err(Error::NotEntrant { tournament_id: id, player });
        }
        Ok(())
    }

    /// Starts the next round of a running tournament with its pairings, boards numbered in the
    /// order given. `number` must follow the last round (`RoundOutOfOrder`), so two schedulers
    /// cannot both pair the same round.
    pub fn add_round(
        &self,
        tournament: TournamentId,
        number: u32,
        pairings: &[NewPairing],
        now: Millis,
    ) -> Result<Round> {
        self.tournament_in(tournament, TournamentState::Running)?;
        let last: u32 = self
            .conn()
            .value(sql!("SELECT coalesce(max(number), 0) FROM rounds WHERE tournament_id = $1"), params![tournament])?;
        if number != last + 1 {
            return Err(Error::RoundOutOfOrder { tournament_id: tournament, expected: last + 1, number });
        }
        let round: RoundId = self.conn().value(
            sql!("INSERT INTO rounds (tournament_id, number, started_at) VALUES ($1, $2, $3) RETURNING id"),
            params![tournament, number, now],
        )?;
        for (board, pairing) in (1u32..).zip(pairings) {
            self.conn().execute(
                sql!("INSERT INTO pairings (round_id, board, white_id, black_id, result) VALUES ($1, $2, $3, $4, $5)"),
                params![round, board, pairing.white, pairing.black, pairing.result],
            )?;
        }
        self.round(round)
    }

    /// Starts a game of a pairing; its result will be the pairing's when it finishes. The
    /// game's players must be the pairing's (`PairingMismatch`), in its colours or, for a
    /// decider, reversed (the result is then turned round for the pairing).
    pub fn create_pairing_game(&self, pairing: PairingId, new: &NewGame, now: Millis) -> Result<Game> {
        let paired = self.pairing(pairing)?;
        let same = paired.white == new.white && paired.black == Some(new.black);
        let reversed = paired.white == new.black && paired.black == Some(new.white);
        if !same && !reversed {
            return Err(Error::PairingMismatch { pairing_id: pairing, white: new.white, black: new.black });
        }
        self.insert_game(new, Some(pairing), now)
    }

    /// Sets (or, with `None`, clears) a pairing's result: forfeits, adjudications, corrections.
    /// Finishing a pairing's game sets it by itself.
    pub fn set_pairing_result(&self, pairing: PairingId, result: Option<PairingResult>) -> Result<Pairing> {
        let changed =
            self.conn().execute(sql!("UPDATE pairings SET result = $2 WHERE id = $1"), params![pairing, result])?;
        if changed == 0 {
            return Err(Error::NotFound { what: "pairing", id: pairing });
        }
        self.pairing(pairing)
    }

    pub fn finish_round(&self, round: RoundId, now: Millis) -> Result<Round> {
        let changed = self.conn().execute(
            sql!("UPDATE rounds SET finished_at = coalesce(finished_at, $2) WHERE id = $1"),
            params![round, now],
        )?;
        if changed == 0 {
            return Err(Error::NotFound { what: "round", id: round });
        }
        self.round(round)
    }
}

#[cfg(test)]
mod tests;
