//! What one piece can do by its movement alone, on a board that need not be a legal position:
//! the squares a rule diagram marks. No kings are needed and no check rule applies.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use crate::setup::Setup;
use crate::square::Square;
use crate::variants::Variant;

impl Setup {
    /// The moves of the piece on `from` in `variant`, its side to move: its movement and
    /// captures as the variant defines them (Golem Chess's capture restrictions and the
    /// Werewolf's jumps included), without castling, en passant, check or a Grolman chain.
    /// Empty when `from` is empty.
    pub fn piece_moves(&self, variant: Variant, from: Square) -> Vec<Move> {
        let Some(piece) = self.board.piece_at(from) else {
            return Vec::new();
        };
        let pos = Position {
            variant,
            geo: variant.geometry(),
            board: self.board.clone(),
            turn: piece.color,
            castling: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            golem_captured: false,
        };
        let mut moves = pos.pseudo_moves(false, false);
        moves.retain(|m| m.from == from);
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(variant: Variant, fen: &str, from: &str) -> Vec<String> {
        let setup = Setup::from_fen(variant, fen).unwrap();
        let mut out: Vec<String> =
            setup.piece_moves(variant, from.parse().unwrap()).iter().map(|m| m.to.to_string()).collect();
        out.sort();
        out
    }

    #[test]
    fn a_lone_piece_needs_no_king() {
        assert_eq!(targets(Variant::Chess, "8/8/8/8/8/8/8/N7 w - - 0 1", "a1"), ["b3", "c2"]);
        assert_eq!(targets(Variant::UnicornGreat, "10/10/10/10/10/10/10/10/10/L9 w - - 0 1", "a1").len(), 5);
        assert!(targets(Variant::Chess, "8/8/8/8/8/8/8/N7 w - - 0 1", "b1").is_empty());
    }

    #[test]
    fn werewolf_jumps_and_hops() {
        // Over the black pawn on e5: a jump to f6 and a hop that takes the pawn.
        let setup = Setup::from_fen(Variant::Werewolf, "8/8/8/4p3/3W4/8/8/8 w - - 0 1").unwrap();
        let moves = setup.piece_moves(Variant::Werewolf, "d4".parse().unwrap());
        let to_f6: Vec<_> = moves.iter().filter(|m| m.to.to_string() == "f6").collect();
        assert_eq!(to_f6.len(), 2);
        assert_eq!(to_f6.iter().filter(|m| m.hop_over().is_some()).count(), 1);
    }
}
