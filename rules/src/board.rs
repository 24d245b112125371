//! Piece placement: one set of squares per colour and per role, and a square-to-piece table.

use crate::bitboard::Bitboard;
use crate::role::{Color, Piece, Role};
use crate::square::{Square, FRAME};

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    by_color: [Bitboard; 2],
    by_role: [Bitboard; Role::COUNT],
    squares: [Option<Piece>; FRAME],
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    pub const fn empty() -> Board {
        Board { by_color: [Bitboard::EMPTY; 2], by_role: [Bitboard::EMPTY; Role::COUNT], squares: [None; FRAME] }
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.squares[sq.index()].map(|p| p.role)
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// Pieces of any of `roles`.
    #[inline]
    pub fn by_roles(&self, roles: &[Role]) -> Bitboard {
        roles.iter().fold(Bitboard::EMPTY, |acc, &r| acc | self.by_role(r))
    }

    #[inline]
    pub fn set(&mut self, sq: Square, piece: Piece) {
        self.discard(sq);
        let bb = Bitboard::from(sq);
        self.by_color[piece.color.index()] |= bb;
        self.by_role[piece.role.index()] |= bb;
        self.squares[sq.index()] = Some(piece);
    }

    /// Empties `sq`, returning what stood there.
    #[inline]
    pub fn discard(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.squares[sq.index()].take()?;
        let bb = Bitboard::from(sq);
        self.by_color[piece.color.index()] ^= bb;
        self.by_role[piece.role.index()] ^= bb;
        Some(piece)
    }

    /// Every piece with its square, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied().map(|sq| (sq, self.squares[sq.index()].expect("occupied square")))
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.pieces().map(|(sq, p)| (sq, p.char()))).finish()
    }
}
