//! The board in words, for those who do not see the picture: every board image's alt text
//! (Discord's attachment description, Matrix's `body`) and `/board text`.
//!
//! Each side's pieces are listed by kind, the strongest first as a player counts them (the
//! royal piece, then by value), each kind's squares from a1 up, rank by rank: the same
//! position always reads the same.

use rules::{Color, Position, Role};

/// The order kinds are named in: royal first, then roughly by value, pawns last.
const ORDER: [Role; Role::COUNT] = [
    Role::King,
    Role::GhostKing,
    Role::Queen,
    Role::Chancellor,
    Role::Golem,
    Role::Werewolf,
    Role::Unicorn,
    Role::Rook,
    Role::HalfGolem,
    Role::Lion,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// `White: king e1; queen d1; rooks a1, h1; … Black: king e8; …`.
pub fn pieces(position: &Position) -> String {
    Color::ALL.iter().map(|&color| side(position, color)).collect::<Vec<_>>().join(" ")
}

/// One side's pieces: `Black: king g8; pawns f7, g7, h7.`, or `White: no pieces.`
fn side(position: &Position, color: Color) -> String {
    let board = position.board();
    let kinds: Vec<String> = ORDER
        .iter()
        .filter_map(|&role| {
            let squares: Vec<String> = board
                .pieces()
                .filter(|(_, piece)| piece.color == color && piece.role == role)
                .map(|(square, _)| square.to_string())
                .collect();
            let name = if squares.len() == 1 { role.name().to_string() } else { format!("{}s", role.name()) };
            (!squares.is_empty()).then(|| format!("{name} {}", squares.join(", ")))
        })
        .collect();
    if kinds.is_empty() {
        format!("{color}: no pieces.")
    } else {
        format!("{color}: {}.", kinds.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use rules::Variant;

    use super::*;

    #[test]
    fn the_start_is_read_by_kind_then_square() {
        assert_eq!(
            pieces(&Position::start(Variant::Chess)),
            "White: king e1; queen d1; rooks a1, h1; bishops c1, f1; knights b1, g1; \
             pawns a2, b2, c2, d2, e2, f2, g2, h2. \
             Black: king e8; queen d8; rooks a8, h8; bishops c8, f8; knights b8, g8; \
             pawns a7, b7, c7, d7, e7, f7, g7, h7."
        );
    }

    #[test]
    fn fairy_pieces_are_named() {
        let golem = pieces(&Position::start(Variant::Golem));
        assert!(golem.starts_with("White: king e1; golem d1; rooks a1, h1;"), "{golem}");
        let unicorn = pieces(&Position::start(Variant::UnicornGreat));
        assert!(unicorn.contains("; chancellor a1; unicorn e1; rooks b1, i1;"), "{unicorn}");
        assert!(unicorn.contains("; lions e2, f2;"), "{unicorn}");
        let werewolf = pieces(&Position::start(Variant::Werewolf));
        assert!(werewolf.contains("; werewolf d8;"), "{werewolf}");
        let bare = Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(pieces(&bare), "White: king e1. Black: king e8.");
    }
}
