//! Colours, piece kinds and pieces.

use std::fmt;
use std::ops::Not;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for White (moves up the ranks), -1 for Black.
    pub const fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of piece. The letters are the project's (docs/rules.md, "Pieces and letters"); the Ghost King writes `K`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
    Golem,
    HalfGolem,
    Werewolf,
    Unicorn,
    Chancellor,
    Lion,
    GhostKing,
}

impl Role {
    pub const COUNT: usize = 13;

    pub const ALL: [Role; Role::COUNT] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Golem,
        Role::HalfGolem,
        Role::Werewolf,
        Role::Unicorn,
        Role::Chancellor,
        Role::Lion,
        Role::GhostKing,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// Upper-case letter (FEN, SAN). The Ghost King shares `K` with the King.
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King | Role::GhostKing => 'K',
            Role::Golem => 'G',
            Role::HalfGolem => 'H',
            Role::Werewolf => 'W',
            Role::Unicorn => 'U',
            Role::Chancellor => 'C',
            Role::Lion => 'L',
        }
    }

    pub const fn lower_char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
            Role::Golem => "golem",
            Role::HalfGolem => "half-golem",
            Role::Werewolf => "werewolf",
            Role::Unicorn => "unicorn",
            Role::Chancellor => "chancellor",
            Role::Lion => "lion",
            Role::GhostKing => "ghost king",
        }
    }

    /// The piece whose capture ends the game.
    pub const fn is_royal(self) -> bool {
        matches!(self, Role::King | Role::GhostKing)
    }

    /// Golem and Half-Golem: the pieces Golem Chess's capture restrictions speak of.
    pub const fn is_golem_kind(self) -> bool {
        matches!(self, Role::Golem | Role::HalfGolem)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The FEN letter: upper case for White.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.lower_char(),
        }
    }
}
