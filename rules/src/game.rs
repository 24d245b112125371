//! [`Game`]: a start position and the moves played since, with the draw rules that need the
//! history (repetition, fifty moves) and the outcomes the players decide (resignation,
//! agreement, time).

use crate::moves::Move;
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::position::Position;
use crate::role::Color;
use crate::setup::Setup;

/// ```
/// use rules::{Color, Game, Outcome, PlayError, Position, Variant, WinReason};
///
/// let mut game = Game::new(Position::start(Variant::Chess));
/// for text in ["f3", "e5", "g4", "Qh4#"] {
///     let m = game.position().parse_move(text)?;
///     game.play(m)?;
/// }
/// let mate = Outcome::Decisive { winner: Color::Black, reason: WinReason::Checkmate };
/// assert_eq!(game.outcome(), Some(mate));
/// assert_eq!(game.play(game.moves()[0]), Err(PlayError::Over(mate)));
///
/// game.take_back(1);
/// assert_eq!(game.outcome(), None);
/// assert_eq!(game.moves().len(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    /// Every position of the game, the start first: positions[i] is before moves[i].
    positions: Vec<Position>,
    /// An outcome the players or the clock decided.
    declared: Option<Outcome>,
}

/// A move the game did not accept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the game is over: {0}")]
    Over(Outcome),
    #[error("that move is not legal here")]
    Illegal,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game { positions: vec![start.clone()], start, moves: Vec::new(), declared: None }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before move `ply` (0-based); `positions()[moves.len()]` is the current one.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::Over(outcome));
        }
        let pos = self.position();
        if !pos.legal_moves().contains(&m) {
            return Err(PlayError::Illegal);
        }
        let next = pos.after(&m);
        self.moves.push(m);
        self.positions.push(next);
        Ok(())
    }

    /// Takes back the last `n` moves (a takeback, or an undo of a move that could not be stored).
    pub fn take_back(&mut self, n: usize) {
        let n = n.min(self.moves.len());
        self.moves.truncate(self.moves.len() - n);
        self.positions.truncate(self.positions.len() - n);
        self.declared = None;
    }

    /// How many times the current position has stood in this game (this time included).
    pub fn repetitions(&self) -> usize {
        let key = repetition_key(self.position());
        // Only positions since the last capture or pawn move can repeat.
        let window = self.position().halfmoves() as usize + 1;
        self.positions.iter().rev().take(window).step_by(2).filter(|p| repetition_key(p) == key).count()
    }

    /// A draw the player to move may claim now: threefold repetition or fifty moves.
    pub fn claimable_draw(&self) -> Option<DrawReason> {
        if self.repetitions() >= 3 {
            Some(DrawReason::Repetition)
        } else if self.position().halfmoves() >= 100 {
            Some(DrawReason::FiftyMoves)
        } else {
            None
        }
    }

    /// The outcome, if the game is over: declared by the players or the clock, decided by the
    /// position, or drawn automatically (fivefold repetition, seventy-five moves).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(declared) = self.declared {
            return Some(declared);
        }
        if let Some(outcome) = self.position().outcome() {
            return Some(outcome);
        }
        if self.repetitions() >= 5 {
            Some(Outcome::Draw(DrawReason::Repetition))
        } else if self.position().halfmoves() >= 150 {
            Some(Outcome::Draw(DrawReason::FiftyMoves))
        } else {
            None
        }
    }

    pub fn resign(&mut self, loser: Color) {
        self.declared.get_or_insert(Outcome::Decisive { winner: !loser, reason: WinReason::Resignation });
    }

    /// `loser` ran out of time: they lose, unless their opponent could not possibly have won
    /// ([`Position::outcome_on_time`]), which draws. A game already over stays as it ended.
    pub fn time_out(&mut self, loser: Color) {
        if self.outcome().is_none() {
            self.declared = Some(self.position().outcome_on_time(loser));
        }
    }

    /// Ends the game drawn: by agreement, or by a claim that [`Game::claimable_draw`] allowed.
    pub fn draw(&mut self, reason: DrawReason) {
        self.declared.get_or_insert(Outcome::Draw(reason));
    }
}

/// What makes two positions "the same" for repetition: everything but the move counters.
fn repetition_key(pos: &Position) -> Setup {
    Setup { halfmoves: 0, fullmoves: 0, ..pos.to_setup() }
}
