//! Boards as text: Unicode chess symbols for the classic pieces, letters for the others
//! (G Golem, H Half-Golem, W Werewolf, U Unicorn, C Chancellor, L Lion; upper case White),
//! with coloured squares on a terminal and plain characters anywhere else.

use rules::{Color, Piece, Position, Role, Square};

use host::ShownBoard;

/// The board, rank by rank from the top as the picture shows it, each line ending in `\n`.
/// `None` if the board's FEN does not read (then the picture alone must do).
pub fn draw(board: &ShownBoard, colour: bool) -> Option<String> {
    let position = Position::from_fen(board.variant, &board.fen).ok()?;
    let geo = position.geometry();
    let (width, height) = (geo.width, geo.height);
    let files: Vec<u8> = if board.flipped { (0..width).rev().collect() } else { (0..width).collect() };
    let ranks: Vec<u8> = if board.flipped { (0..height).collect() } else { (0..height).rev().collect() };
    let mut out = String::new();
    for &rank in &ranks {
        out.push_str(&format!("{:>4} ", rank + 1));
        for &file in &files {
            let sq = Square::new(file, rank).expect("boards fit the frame");
            let piece = position.board().piece_at(sq);
            if colour {
                out.push_str(&coloured_square(board, sq, piece));
            } else {
                out.push(match piece {
                    Some(piece) => glyph(piece, false),
                    None if board.marks.contains(&sq) => '∘',
                    None => '·',
                });
                out.push(' ');
            }
        }
        out.push('\n');
    }
    let letters: Vec<String> = files.iter().map(|&f| ((b'a' + f) as char).to_string()).collect();
    let gap = if colour { "  " } else { " " };
    let pad = if colour { " " } else { "" };
    out.push_str(&format!("     {pad}{}\n", letters.join(gap)));
    Some(out)
}

/// One square, three columns wide, on its square's colour: tinted when the last move touched
/// it, a dot where `/moves` marks it.
fn coloured_square(board: &ShownBoard, sq: Square, piece: Option<Piece>) -> String {
    let light = (sq.file() + sq.rank()) % 2 == 1;
    let background = match (board.highlight.contains(&sq), light) {
        (true, true) => 186,
        (true, false) => 143,
        (false, true) => 187,
        (false, false) => 108,
    };
    let (foreground, symbol) = match piece {
        Some(piece) => (if piece.color == Color::White { 231 } else { 16 }, glyph(piece, true)),
        None if board.marks.contains(&sq) => (238, '•'),
        None => (background, ' '),
    };
    format!("\x1b[48;5;{background}m\x1b[1;38;5;{foreground}m {symbol} \x1b[0m")
}

/// The symbol of a piece. On colour, both sides use the solid symbols (the colour tells them
/// apart); plain text uses the outlined ones for White.
fn glyph(piece: Piece, colour: bool) -> char {
    let solid = colour || piece.color == Color::Black;
    let symbols = match piece.role {
        Role::King | Role::GhostKing => ('♔', '♚'),
        Role::Queen => ('♕', '♛'),
        Role::Rook => ('♖', '♜'),
        Role::Bishop => ('♗', '♝'),
        Role::Knight => ('♘', '♞'),
        Role::Pawn => ('♙', '♟'),
        _ => return piece.char(),
    };
    if solid {
        symbols.1
    } else {
        symbols.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Variant;

    #[test]
    fn plain_boards_show_pieces_letters_and_coordinates() {
        let fen = Variant::Werewolf.start_fen().to_string();
        let shown = ShownBoard { variant: Variant::Werewolf, fen, flipped: false, highlight: vec![], marks: vec![] };
        let text = draw(&shown, false).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   8 ♜ ♞ ♝ w ♚ ♝ ♞ ♜ ");
        assert_eq!(lines[7], "   1 ♖ ♘ ♗ W ♔ ♗ ♘ ♖ ");
        assert_eq!(lines[8], "     a b c d e f g h");
        let flipped = draw(&ShownBoard { flipped: true, ..shown }, false).unwrap();
        assert!(flipped.starts_with("   1 ♖ ♘ ♗ ♔ W ♗ ♘ ♖"), "{flipped}");
    }
}
