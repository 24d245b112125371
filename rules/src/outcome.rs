//! How games end: what a position decides by itself, and what a game's history adds.

use std::fmt;

use crate::position::Position;
use crate::role::{Color, Role};
use crate::variant::Variant;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Decisive { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum WinReason {
    Checkmate,
    /// Ghost King Chess: the loser's Ghost King was taken.
    RoyalCaptured,
    /// Grolman Chess: the loser ended a turn with their own king attacked.
    KingLeftAttacked,
    Resignation,
    Timeout,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum DrawReason {
    Stalemate,
    InsufficientMaterial,
    /// The same position for the third time (claimed) or the fifth (automatic).
    Repetition,
    /// Fifty moves by each side without a capture or pawn move (claimed; automatic at 75).
    FiftyMoves,
    Agreement,
}

impl Outcome {
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(*winner),
            Outcome::Draw(_) => None,
        }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Decisive { winner, reason } => {
                let how = match reason {
                    WinReason::Checkmate => "by checkmate",
                    WinReason::RoyalCaptured => "by capturing the Ghost King",
                    WinReason::KingLeftAttacked => "as the loser's turn left their own king attacked",
                    WinReason::Resignation => "by resignation",
                    WinReason::Timeout => "on time",
                };
                write!(f, "{winner} wins {how}")
            }
            Outcome::Draw(reason) => {
                let how = match reason {
                    DrawReason::Stalemate => "by stalemate",
                    DrawReason::InsufficientMaterial => "as neither side can mate",
                    DrawReason::Repetition => "by repetition",
                    DrawReason::FiftyMoves => "by the fifty-move rule",
                    DrawReason::Agreement => "by agreement",
                };
                write!(f, "Draw {how}")
            }
        }
    }
}

impl Position {
    /// What this position decides by itself: a win (checkmate, a captured Ghost King, a Grolman
    /// turn that left its own king attacked), stalemate, or too little material to mate.
    pub fn outcome(&self) -> Option<Outcome> {
        let won = |winner, reason| Some(Outcome::Decisive { winner, reason });
        match self.variant {
            Variant::GhostKing => {
                for color in Color::ALL {
                    if self.royal_square(color).is_none() {
                        return won(!color, WinReason::RoyalCaptured);
                    }
                }
            }
            Variant::Grolman if self.royal_attacked(!self.turn) => {
                return won(self.turn, WinReason::KingLeftAttacked);
            }
            _ => {}
        }
        if self.count_legal() == 0 {
            return if self.is_check() {
                won(!self.turn, WinReason::Checkmate)
            } else {
                Some(Outcome::Draw(DrawReason::Stalemate))
            };
        }
        self.is_insufficient_material().then_some(Outcome::Draw(DrawReason::InsufficientMaterial))
    }

    /// Neither side can ever mate, whatever is played: bare kings; in variants of ordinary
    /// pieces also a king with one minor piece against a bare king, or bishops all on squares
    /// of one colour. Never in Ghost King Chess, where a Ghost King can always take the other.
    pub fn is_insufficient_material(&self) -> bool {
        let b = &self.board;
        let others = b.occupied() - b.by_role(self.variant.royal());
        match self.variant {
            Variant::GhostKing => false,
            Variant::Golem | Variant::Grolman => others.is_empty(),
            Variant::Chess | Variant::Werewolf | Variant::UnicornGreat => {
                let minors = b.by_role(Role::Knight) | b.by_role(Role::Bishop);
                if (others - minors).any() {
                    return false;
                }
                let bishops = b.by_role(Role::Bishop);
                others.count() <= 1
                    || (others == bishops
                        && ((bishops & self.geo.light) == bishops || (bishops & self.geo.light).is_empty()))
            }
        }
    }
}
