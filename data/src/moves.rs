//! Moves: appended one ply at a time, each naming the ply it follows and the request that made
//! it, so a stale move conflicts and a repeated request lands once.

use crate::db::{ReadTx, WriteTx};
use crate::error::{Error, Result};
use crate::games::Finish;
use crate::sql::{params, sql, Row};
use crate::{GameId, Millis};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// 1 for the first move of the game.
    pub ply: u32,
    /// Coordinate form, as the rules crate writes it (`e2e4`).
    pub coord: String,
    pub san: String,
    pub fen_after: String,
    pub time_used_ms: i64,
    /// The id of the request (a chat interaction, a console line) that made the move.
    pub request_id: String,
    pub played_at: Millis,
}

/// The columns `Move::from_row` reads, in its order.
macro_rules! columns {
    () => {
        "ply, coord, san, fen_after, time_used_ms, request_id, played_at"
    };
}

impl Move {
    fn from_row(row: &Row<'_, '_>) -> Result<Move> {
        Ok(Move {
            ply: row.get(0)?,
            coord: row.get(1)?,
            san: row.get(2)?,
            fen_after: row.get(3)?,
            time_used_ms: row.get(4)?,
            request_id: row.get(5)?,
            played_at: row.get(6)?,
        })
    }
}

/// A move to append.
#[derive(Clone, Debug, PartialEq)]
pub struct NewMove {
    /// How many plies the caller saw played (`GameRecord::ply`); the move becomes ply
    /// `expected_ply + 1`.
    pub expected_ply: u32,
    pub coord: String,
    pub san: String,
    pub fen_after: String,
    pub time_used_ms: i64,
    pub request_id: String,
    /// The new deadline of the player to move next.
    pub deadline: Option<Millis>,
    /// Set when this move ends the game (mate, stalemate, ...): finished in the same commit.
    pub finish: Option<Finish>,
}

/// What `append_move` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Appended {
    /// The move is now the game's latest ply.
    Applied(Move),
    /// This request had already been applied: nothing changed, here is the move it made.
    AlreadyApplied(Move),
}

impl Appended {
    pub fn mv(&self) -> &Move {
        match self {
            Appended::Applied(mv) | Appended::AlreadyApplied(mv) => mv,
        }
    }
}

impl ReadTx<'_> {
    /// The moves of a game, in order.
    pub fn moves(&self, game_id: GameId) -> Result<Vec<Move>> {
        self.conn().query(
            sql!("SELECT ", columns!(), " FROM moves WHERE game_id = $1 ORDER BY ply"),
            params![game_id],
            Move::from_row,
        )
    }

    /// Plies played in a game.
    pub fn ply_count(&self, game_id: GameId) -> Result<u32> {
        self.conn().value(sql!("SELECT coalesce(max(ply), 0) FROM moves WHERE game_id = $1"), params![game_id])
    }

    fn move_by_request(&self, game_id: GameId, request_id: &str) -> Result<Option<Move>> {
        self.conn().query_opt(
            sql!("SELECT ", columns!(), " FROM moves WHERE game_id = $1 AND request_id = $2"),
            params![game_id, request_id],
            Move::from_row,
        )
    }
}

impl WriteTx<'_> {
    /// Appends a move to an active game, sets the next deadline and, if `mv.finish` says so,
    /// finishes the game.
    ///
    /// A request id already applied to this game returns `AlreadyApplied` and changes nothing
    /// (a retried interaction). Otherwise the game must be active (`GameNotActive`) and have
    /// exactly `mv.expected_ply` plies (`PlyConflict`: someone moved first).
    ///
    /// A request id is remembered while its move stands; a takeback forgets it.
    pub fn append_move(&self, game_id: GameId, mv: &NewMove, now: Millis) -> Result<Appended> {
        if let Some(done) = self.move_by_request(game_id, &mv.request_id)? {
            return Ok(Appended::AlreadyApplied(done));
        }
        let game = self.active(game_id)?;
        let actual = self.ply_count(game_id)?;
        if actual != mv.expected_ply {
            return Err(Error::PlyConflict { game_id, expected: mv.expected_ply, actual });
        }
        let ply = actual + 1;
        self.conn().execute(
            sql!(
                "INSERT INTO moves (game_id, ply, coord, san, fen_after, time_used_ms,
                     request_id, played_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            ),
            params![game_id, ply, mv.coord, mv.san, mv.fen_after, mv.time_used_ms, mv.request_id, now],
        )?;
        self.conn().execute(
            sql!("UPDATE games SET deadline = $2, updated_at = $3 WHERE id = $1"),
            params![game_id, mv.deadline, now],
        )?;
        if let Some(finish) = &mv.finish {
            self.finish_active(&game, finish, now)?;
        }
        Ok(Appended::Applied(Move {
            ply,
            coord: mv.coord.clone(),
            san: mv.san.clone(),
            fen_after: mv.fen_after.clone(),
            time_used_ms: mv.time_used_ms,
            request_id: mv.request_id.clone(),
            played_at: now,
        }))
    }

    /// Takes back the last `plies` moves of an active game that has `expected_ply` plies, sets
    /// the deadline of the player now to move, and clears the game's offers. Returns the moves
    /// taken back, in order.
    pub fn take_back(
        &self,
        game_id: GameId,
        expected_ply: u32,
        plies: u32,
        deadline: Option<Millis>,
        now: Millis,
    ) -> Result<Vec<Move>> {
        self.active(game_id)?;
        let actual = self.ply_count(game_id)?;
        if actual != expected_ply {
            return Err(Error::PlyConflict { game_id, expected: expected_ply, actual });
        }
        if plies > actual {
            return Err(Error::TakebackTooFar { game_id, requested: plies, played: actual });
        }
        let first = actual - plies + 1;
        let mut taken = self.conn().query(
            sql!("DELETE FROM moves WHERE game_id = $1 AND ply >= $2 RETURNING ", columns!()),
            params![game_id, first],
            Move::from_row,
        )?;
        // RETURNING promises no order.
        taken.sort_by_key(|mv| mv.ply);
        self.conn().execute(
            sql!("UPDATE games SET deadline = $2, updated_at = $3 WHERE id = $1"),
            params![game_id, deadline, now],
        )?;
        self.clear_offers(game_id, None)?;
        Ok(taken)
    }
}

#[cfg(test)]
mod tests;
