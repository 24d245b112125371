//! The six variants and the facts that set them apart: board, pieces, start, promotion, castling.

use std::fmt;
use std::str::FromStr;

use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, LARGE, SMALL};
use crate::role::{Color, Role};

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    Chess,
    Golem,
    Grolman,
    GhostKing,
    Werewolf,
    UnicornGreat,
}

/// Where the king and rooks of one side stand before castling and where they go.
#[derive(Copy, Clone, Debug)]
pub struct CastlingFiles {
    pub king: u8,
    /// Rook files, king side then queen side.
    pub rook: [u8; 2],
    pub king_to: [u8; 2],
    pub rook_to: [u8; 2],
}

impl Variant {
    pub const ALL: [Variant; 6] = [
        Variant::Chess,
        Variant::Golem,
        Variant::Grolman,
        Variant::GhostKing,
        Variant::Werewolf,
        Variant::UnicornGreat,
    ];

    /// The id used in commands and PGN tags.
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Golem => "golem",
            Variant::Grolman => "grolman",
            Variant::GhostKing => "ghost-king",
            Variant::Werewolf => "werewolf",
            Variant::UnicornGreat => "unicorn-great",
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "Chess",
            Variant::Golem => "Golem Chess",
            Variant::Grolman => "Grolman Chess",
            Variant::GhostKing => "Ghost King Chess",
            Variant::Werewolf => "Werewolf Chess",
            Variant::UnicornGreat => "Unicorn Great Chess",
        }
    }

    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Chess | Variant::GhostKing => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Variant::Grolman => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            Variant::Golem => "rnbgkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBGKBNR w KQkq - 0 1",
            Variant::Werewolf => "rnbwkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBWKBNR w KQkq - 0 1",
            Variant::UnicornGreat => "crnbukbnrq/ppppllpppp/4pp4/10/10/10/10/4PP4/PPPPLLPPPP/CRNBUKBNRQ w KQkq - 0 1",
        }
    }

    pub fn geometry(self) -> &'static Geometry {
        match self {
            Variant::UnicornGreat => &LARGE,
            _ => &SMALL,
        }
    }

    /// The royal piece: captured (or mated), the game is lost.
    pub const fn royal(self) -> Role {
        match self {
            Variant::GhostKing => Role::GhostKing,
            _ => Role::King,
        }
    }

    /// Whether a move may leave one's own royal piece attacked (Ghost King: no check rule;
    /// Grolman: legal, but the turn loses).
    pub const fn has_check_rule(self) -> bool {
        !matches!(self, Variant::GhostKing | Variant::Grolman)
    }

    /// The roles a piece letter may name in this variant's FEN and SAN.
    pub fn role_for_char(self, c: char) -> Option<Role> {
        let role = match c.to_ascii_uppercase() {
            'K' => self.royal(),
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'G' => Role::Golem,
            'H' => Role::HalfGolem,
            'W' => Role::Werewolf,
            'U' => Role::Unicorn,
            'C' => Role::Chancellor,
            'L' => Role::Lion,
            _ => return None,
        };
        self.roles().contains(&role).then_some(role)
    }

    /// Every role that can appear on this variant's board.
    pub fn roles(self) -> &'static [Role] {
        use Role::*;
        match self {
            Variant::Chess | Variant::Grolman => &[Pawn, Knight, Bishop, Rook, Queen, King],
            Variant::Golem => &[Pawn, Knight, Bishop, Rook, Queen, King, Golem, HalfGolem],
            Variant::GhostKing => &[Pawn, Knight, Bishop, Rook, Queen, GhostKing],
            Variant::Werewolf => &[Pawn, Knight, Bishop, Rook, King, Werewolf],
            Variant::UnicornGreat => &[Pawn, Knight, Bishop, Rook, Queen, King, Unicorn, Chancellor, Lion],
        }
    }

    /// What a pawn may become on the last rank, strongest first.
    pub fn promotions(self) -> &'static [Role] {
        use Role::*;
        match self {
            Variant::Chess | Variant::Grolman | Variant::GhostKing => &[Queen, Rook, Bishop, Knight],
            Variant::Golem => &[Queen, Golem, Rook, Bishop, Knight],
            Variant::Werewolf => &[Rook, Bishop, Knight],
            Variant::UnicornGreat => &[Queen, Unicorn, Chancellor],
        }
    }

    pub fn castling_files(self) -> Option<CastlingFiles> {
        match self {
            Variant::Grolman => None,
            Variant::UnicornGreat => Some(CastlingFiles { king: 5, rook: [8, 1], king_to: [7, 3], rook_to: [6, 4] }),
            _ => Some(CastlingFiles { king: 4, rook: [7, 0], king_to: [6, 2], rook_to: [5, 3] }),
        }
    }

    /// Squares from which a pawn of `color` may step two ranks.
    pub fn double_step_squares(self, color: Color) -> Bitboard {
        let g = self.geometry();
        let rank = |r: u8| g.ranks[r as usize];
        match (self, color) {
            // The e- and f-pawns start a rank further up (e3 f3, e8 f8) and step twice from there.
            (Variant::UnicornGreat, _) => {
                let ef = g.files[4] | g.files[5];
                let (home, forward) = if color == Color::White { (rank(1), rank(2)) } else { (rank(8), rank(7)) };
                (home - ef) | (forward & ef)
            }
            (_, Color::White) => rank(1),
            (_, Color::Black) => rank(g.height - 2),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{0}`; the variants are chess, golem, grolman, ghost-king, werewolf, unicorn-great")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Reads a variant id, or its name as PGN tags write it (`Golem Chess`, `unicorngreat`).
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let key: String = s.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect();
        let key = key.strip_suffix("chess").filter(|k| !k.is_empty()).unwrap_or(&key);
        Variant::ALL
            .into_iter()
            .find(|v| v.id().replace('-', "") == key || (key == "standard" && *v == Variant::Chess))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_parse() {
        for v in Variant::ALL {
            assert_eq!(v.id().parse::<Variant>(), Ok(v));
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
        }
        assert_eq!("Standard".parse::<Variant>(), Ok(Variant::Chess));
        assert_eq!("unicorngreat".parse::<Variant>(), Ok(Variant::UnicornGreat));
        assert!("shogi".parse::<Variant>().is_err());
    }
}
