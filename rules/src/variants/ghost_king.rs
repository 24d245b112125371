//! Ghost King Chess: the royal Ghost King moves to any empty square or takes any enemy piece,
//! but takes the enemy Ghost King only where nothing could take back. There is no check rule:
//! a Ghost King may be left attacked, and the game ends when one is taken. Castling is written
//! as the king onto its rook, since the king's own move to g1 is a teleport.

use super::Rules;
use crate::bitboard::Bitboard;
use crate::movegen::Sink;
use crate::outcome::{Outcome, WinReason};
use crate::position::Position;
use crate::role::{Color, Role};
use crate::square::Square;

pub(crate) struct GhostKing;

impl Rules for GhostKing {
    const ID: &'static str = "ghost-king";
    const NAME: &'static str = "Ghost King Chess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const ROLES: &'static [Role] = &[Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::GhostKing];
    const ROYAL: Role = Role::GhostKing;
    const CHECK_RULE: bool = false;
    const CASTLING_AS_KING_MOVE: bool = false;
    const ROYAL_MAY_BE_TAKEN: bool = true;

    /// Every move by the pieces' movement: nothing is illegal for leaving the Ghost King attacked.
    #[inline(always)] // into both copies of the generator (movegen.rs)
    fn generate<S: Sink>(pos: &Position, sink: &mut S) {
        pos.generate_pseudo::<Self, S>(sink, true, false);
    }

    fn decided(pos: &Position) -> Option<Outcome> {
        let taken = Color::ALL.into_iter().find(|&color| pos.royal_square(color).is_none())?;
        Some(Outcome::Decisive { winner: !taken, reason: WinReason::RoyalCaptured })
    }

    /// Never: a Ghost King can always take the other.
    fn is_insufficient_material(_: &Position) -> bool {
        false
    }

    /// Always, as long as the side's Ghost King stands: it can take anything anywhere.
    fn can_win(_: &Position, _: Color) -> bool {
        true
    }
}

impl Position {
    /// Where the side to move's Ghost King on `from` may go: any empty square, any enemy piece,
    /// the enemy Ghost King only where nothing could take back.
    pub(crate) fn ghost_king_targets(&self, from: Square, occ: Bitboard) -> Bitboard {
        let them = !self.turn;
        let mut out = (self.geo.all - occ) | self.board.by_color(them);
        if let Some(enemy) = self.royal_square(them) {
            let after = occ.without(from);
            if self.attackers(enemy, them, after).any() {
                out = out.without(enemy);
            }
        }
        out
    }
}
