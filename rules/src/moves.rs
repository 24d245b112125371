//! [`Move`]: one turn of play, as the generator produces it and `Position::play` takes it.

use crate::role::Role;
use crate::square::Square;

/// One move (in Grolman Chess, one whole turn: the lead move and its chain). Everything its effects depend on is either here or on the board it is played on
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
    /// Grolman Chess: the followers that this lead move sets off.
    pub chain: Chain,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    Normal,
    EnPassant,
    /// Castling with the rook standing on `rook`.
    Castle {
        rook: Square,
    },
    /// A Werewolf's jump that also takes the enemy piece on `over` (`role`).
    Hop {
        over: Square,
        taken: Role,
    },
}

impl Move {
    pub(crate) const fn new(role: Role, from: Square, to: Square, capture: Option<Role>) -> Move {
        Move { role, from, to, capture, promotion: None, kind: MoveKind::Normal, chain: Chain::EMPTY }
    }

    pub fn is_capture(&self) -> bool {
        self.capture.is_some() || matches!(self.kind, MoveKind::Hop { .. })
    }

    /// Whether the move takes or promotes, a promotion in a Grolman chain included: what
    /// [`Position::noisy_moves`](crate::Position::noisy_moves) lists.
    ///
    /// ```
    /// use rules::{Position, Role, Variant};
    ///
    /// // Grolman Chess: wherever the knight goes, the pawn must fill e8 behind it, and promotes.
    /// let pos = Position::from_fen(Variant::Grolman, "4N3/4P3/8/8/8/8/8/K6k w - - 0 1")?;
    /// let (knight, king): (Vec<_>, Vec<_>) = pos.legal_moves().into_iter().partition(|m| m.role == Role::Knight);
    /// assert!(!knight.is_empty() && knight.iter().all(|m| m.is_noisy() && m.promotion.is_none()));
    /// assert!(!king.is_empty() && king.iter().all(|m| !m.is_noisy()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_noisy(&self) -> bool {
        self.is_capture() || self.promotion.is_some() || self.chain.steps().iter().any(|s| s.promotion.is_some())
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

/// The most followers a Grolman turn can have: every other piece of the side.
pub const MAX_CHAIN: usize = 15;

/// One follower of a Grolman chain: a friendly piece stepping into the square just vacated.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Step {
    pub role: Role,
    pub from: Square,
    pub to: Square,
    /// A pawn reaching the last rank in the chain promotes.
    pub promotion: Option<Role>,
}

/// The forced chain of a Grolman turn, in order (empty in every other variant).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Chain {
    len: u8,
    steps: [Step; MAX_CHAIN],
}

const FILLER: Step = Step { role: Role::Pawn, from: Square::from_index(0), to: Square::from_index(0), promotion: None };

impl Chain {
    pub const EMPTY: Chain = Chain { len: 0, steps: [FILLER; MAX_CHAIN] };

    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Adds a step.
    ///
    /// # Panics
    /// Past [`MAX_CHAIN`] steps, which no position allows.
    pub fn push(&mut self, step: Step) {
        self.steps[self.len as usize] = step;
        self.len += 1;
    }

    #[allow(dead_code)] // for the Grolman chain generator
    pub(crate) fn pop(&mut self) {
        self.len -= 1;
        self.steps[self.len as usize] = FILLER;
    }
}

impl Default for Chain {
    fn default() -> Chain {
        Chain::EMPTY
    }
}

impl std::fmt::Debug for Chain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.steps()).finish()
    }
}
