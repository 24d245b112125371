//! Unicorn Great Chess: ten by ten squares, three fairy pieces (Unicorn, Chancellor, Lion),
//! castling with the king on f, and e- and f-pawns that start a rank further up.

use super::{CastlingFiles, Rules};
use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, LARGE};
use crate::role::{Color, Role};

pub(crate) struct UnicornGreat;

impl Rules for UnicornGreat {
    const ID: &'static str = "unicorn-great";
    const NAME: &'static str = "Unicorn Great Chess";
    const START_FEN: &'static str =
        "crnbukbnrq/ppppllpppp/4pp4/10/10/10/10/4PP4/PPPPLLPPPP/CRNBUKBNRQ w KQkq - 0 1";
    const ROLES: &'static [Role] = {
        use Role::*;
        &[Pawn, Knight, Bishop, Rook, Queen, King, Unicorn, Chancellor, Lion]
    };
    const PROMOTIONS: &'static [Role] = &[Role::Queen, Role::Unicorn, Role::Chancellor];
    const CASTLING: Option<CastlingFiles> =
        Some(CastlingFiles { king: 5, rook: [8, 1], king_to: [7, 3], rook_to: [6, 4] });

    fn geometry() -> &'static Geometry {
        &LARGE
    }

    /// The e- and f-pawns start a rank further up (e3 f3, e8 f8) and step twice from there.
    #[inline]
    fn double_step_squares(g: &Geometry, color: Color) -> Bitboard {
        let ef = g.files[4] | g.files[5];
        let (home, forward) = match color {
            Color::White => (g.ranks[1], g.ranks[2]),
            Color::Black => (g.ranks[8], g.ranks[7]),
        };
        (home - ef) | (forward & ef)
    }
}
