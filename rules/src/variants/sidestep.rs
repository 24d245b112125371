//! Sidestep Chess, a variant for tests only: chess whose pawns may also step one square
//! sideways onto an empty square. It exists to show what a new variant takes (its module and
//! one line in the registry; docs/adding-a-variant.md), and to keep that true: the shared
//! code must generate, play, write and read its moves with nothing else added.

use super::Rules;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::square::Square;

pub(crate) struct Sidestep;

impl Rules for Sidestep {
    const ID: &'static str = "sidestep";
    const NAME: &'static str = "Sidestep Chess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn pawn_targets(pos: &Position, from: Square, occ: Bitboard) -> Bitboard {
        let sideways = pos.geometry().king_attacks(from) & pos.geometry().ranks[from.rank() as usize];
        pos.pawn_pushes_and_captures(from, occ) | (sideways - occ)
    }
}

#[cfg(test)]
mod tests {
    use crate::{perft, Position, Variant};

    fn sans(pos: &Position) -> Vec<String> {
        let mut sans: Vec<String> = pos.legal_moves().iter().map(|m| pos.san(m)).collect();
        sans.sort();
        sans
    }

    #[test]
    fn pawns_step_sideways_onto_empty_squares() {
        let pos = Position::from_fen(Variant::Sidestep, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert_eq!(sans(&pos), ["Kd1", "Kd2", "Kf1", "Kf2", "e3", "e4", "ed2", "ef2"]);
        // From the start every pawn is hemmed in by its neighbours: chess's twenty moves.
        assert_eq!(perft(&Position::start(Variant::Sidestep), 1), 20);
        assert_eq!(perft(&Position::start(Variant::Chess), 3), 8_902);
        assert!(perft(&Position::start(Variant::Sidestep), 3) > 8_902);
    }

    #[test]
    fn a_pawn_pinned_along_its_rank_may_step_along_it() {
        let pos = Position::from_fen(Variant::Sidestep, "4k3/8/8/8/r2P3K/8/8/8 w - - 0 1").unwrap();
        let pawn: Vec<String> = sans(&pos).into_iter().filter(|san| san.starts_with('d')).collect();
        assert_eq!(pawn, ["dc4", "de4"]);
    }

    #[test]
    fn every_move_is_counted_judged_written_and_read_alike() {
        let mut pos = Position::start(Variant::Sidestep);
        for text in ["e4", "d5", "ef4", "dc5", "Nf3", "cd5"] {
            let m = pos.parse_move(text).unwrap();
            assert_eq!(pos.san(&m), text);
            pos.play_unchecked(&m);
        }
        assert_eq!(pos.fen(), "rnbqkbnr/ppp1pppp/8/3p4/5P2/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 4");
        let moves = pos.legal_moves();
        assert_eq!(pos.count_legal(), moves.len() as u64);
        for m in &moves {
            assert!(pos.is_legal(m));
            assert_eq!(pos.parse_move(&pos.san(m)).as_ref(), Ok(m));
            assert_eq!(pos.parse_coord(&pos.coord(m)).as_ref(), Ok(m));
        }
        assert!(moves.iter().any(|m| pos.san(m) == "fe4"));
    }
}
