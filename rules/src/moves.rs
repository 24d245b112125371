//! [`Move`]: one turn of play, as the generator produces it and `Position::play` takes it.

use crate::role::Role;
use crate::square::Square;

/// One move. Everything its effects depend on is either here or on the board it is played on
/// (what a capture does in Golem or Werewolf Chess follows from the two roles).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// The role of the piece that moves (the king, when castling).
    pub role: Role,
    pub from: Square,
    /// Where the moving piece ends (the king's destination, when castling).
    pub to: Square,
    /// The role taken on `to` (or, en passant, the pawn passed by).
    pub capture: Option<Role>,
    pub promotion: Option<Role>,
    pub kind: MoveKind,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    Normal,
    EnPassant,
    /// Castling with the rook standing on `rook`.
    Castle { rook: Square },
    /// A Werewolf's jump that also takes the enemy piece on `over` (`role`).
    Hop { over: Square, taken: Role },
}

impl Move {
    pub(crate) const fn new(role: Role, from: Square, to: Square, capture: Option<Role>) -> Move {
        Move { role, from, to, capture, promotion: None, kind: MoveKind::Normal }
    }

    pub fn is_capture(&self) -> bool {
        self.capture.is_some() || matches!(self.kind, MoveKind::Hop { .. })
    }

    pub fn is_castle(&self) -> bool {
        matches!(self.kind, MoveKind::Castle { .. })
    }

    /// The square of the piece taken by the jump of a Werewolf hop, if any.
    pub fn hop_over(&self) -> Option<Square> {
        match self.kind {
            MoveKind::Hop { over, .. } => Some(over),
            _ => None,
        }
    }
}
