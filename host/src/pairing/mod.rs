//! Pairing engines: round robin by Berger tables, Swiss by the Dutch system's principles, and
//! knockout brackets. Each takes the field and the rounds stored so far and returns the next
//! round's pairings, in board order; nothing here touches the database or the clock, so the
//! arbiter (`crate::arbiter`, which runs tournaments) can recompute anything after a restart.
//! Who finished where is [`crate::tiebreak`]'s.

pub mod berger;
pub mod knockout;
pub mod swiss;

use data::{PairingResult, PlayerId};

pub use berger::{berger_table, round_robin_round, round_robin_rounds};
pub use knockout::{knockout_round, knockout_rounds, knockout_winner};
pub use swiss::swiss_round;

/// One entrant as pairing sees them.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub id: PlayerId,
    /// The rating the start ranks come from. Pass the same value every round (the rating at the
    /// start), or the start ranks, and with them the round-robin table, move under the event.
    pub rating: f64,
    /// False once withdrawn: never paired again.
    pub active: bool,
}

/// Start ranks: by rating, highest first; ties by id (earlier entrant first). Everything else
/// uses this order.
pub fn start_order(players: &[Player]) -> Vec<Player> {
    let mut order = players.to_vec();
    order.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.id.cmp(&b.id)));
    order
}

/// Why no pairing could be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("{active} active players, at least {needed} are needed to pair a round")]
    TooFewPlayers { active: usize, needed: usize },
    #[error("round {round} does not exist: this event has {rounds} rounds")]
    RoundOutOfRange { round: u32, rounds: u32 },
    #[error(
        "no legal pairing exists for round {round} (every way breaks a rematch, colour or bye rule), \
         so the event ends here"
    )]
    NoLegalPairing { round: u32 },
    #[error("round {round} board {board} has no result yet")]
    Unfinished { round: u32, board: u32 },
    #[error("round {round} board {board} is drawn: a knockout game needs a decisive result (play the decider)")]
    Drawn { round: u32, board: u32 },
    #[error("player {0} appears in the rounds but is not in the field")]
    UnknownPlayer(PlayerId),
    #[error("player {0} is in the field twice")]
    DuplicatePlayer(PlayerId),
    #[error("the rounds played do not fit this format: {0}")]
    Inconsistent(&'static str),
}

/// The points a result gives white (`white`) or black. A bye (no black) scores what
/// [`score_of`]`(result, true)` says: `WhiteWins` a point, `Draw` a half, `BlackWins` none.
pub fn score_of(result: PairingResult, white: bool) -> f64 {
    use PairingResult::*;
    match (result, white) {
        (WhiteWins | WhiteWinsByForfeit, true) | (BlackWins | BlackWinsByForfeit, false) => 1.0,
        (Draw, _) => 0.5,
        _ => 0.0,
    }
}

/// Whether a game was actually played over the board (not a forfeit or a bye).
pub fn played_over_board(result: Option<PairingResult>) -> bool {
    use PairingResult::*;
    !matches!(result, Some(WhiteWinsByForfeit | BlackWinsByForfeit | DoubleForfeit))
}

/// Checks ids are unique, so no engine has to wonder which entry of a player counts.
/// A game between two entrants, forfeited at once when either has withdrawn.
fn game(white: &Player, black: &Player) -> data::NewPairing {
    let result = match (white.active, black.active) {
        (true, true) => None,
        (true, false) => Some(PairingResult::WhiteWinsByForfeit),
        (false, true) => Some(PairingResult::BlackWinsByForfeit),
        (false, false) => Some(PairingResult::DoubleForfeit),
    };
    data::NewPairing { white: white.id, black: Some(black.id), result }
}

fn check_field(field: &[Player]) -> Result<(), PairingError> {
    let mut ids: Vec<PlayerId> = field.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    match ids.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => Err(PairingError::DuplicatePlayer(w[0])),
        None => Ok(()),
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// Players 1..=n, rated so that id order is start order.
    pub fn field(n: usize) -> Vec<Player> {
        (1..=n as PlayerId).map(|id| Player { id, rating: 3000.0 - id as f64, active: true }).collect()
    }

    /// A stored round from new pairings, boards numbered in order.
    pub fn round(number: u32, pairings: &[data::NewPairing]) -> data::Round {
        data::Round {
            id: number as i64,
            tournament: 1,
            number,
            started_at: 0,
            finished_at: None,
            pairings: pairings
                .iter()
                .enumerate()
                .map(|(i, p)| data::Pairing {
                    id: (number as i64) * 1000 + i as i64,
                    round: number as i64,
                    board: i as u32 + 1,
                    white: p.white,
                    black: p.black,
                    game: None,
                    result: p.result,
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_order_is_rating_then_id() {
        let players = [
            Player { id: 5, rating: 1500.0, active: true },
            Player { id: 2, rating: 1700.0, active: true },
            Player { id: 3, rating: 1500.0, active: false },
            Player { id: 9, rating: 1800.0, active: true },
        ];
        let ids: Vec<_> = start_order(&players).iter().map(|p| p.id).collect();
        assert_eq!(ids, [9, 2, 3, 5]);
    }

    #[test]
    fn scores() {
        use PairingResult::*;
        assert_eq!((score_of(WhiteWins, true), score_of(WhiteWins, false)), (1.0, 0.0));
        assert_eq!((score_of(BlackWinsByForfeit, true), score_of(BlackWinsByForfeit, false)), (0.0, 1.0));
        assert_eq!((score_of(Draw, true), score_of(Draw, false)), (0.5, 0.5));
        assert_eq!((score_of(DoubleForfeit, true), score_of(DoubleForfeit, false)), (0.0, 0.0));
    }

    #[test]
    fn duplicate_ids_are_refused() {
        let mut f = testing::field(3);
        f[2].id = 1;
        assert_eq!(check_field(&f), Err(PairingError::DuplicatePlayer(1)));
    }
}
