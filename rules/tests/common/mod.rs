//! Helpers shared by the hand-built position tests: positions from FEN, legal moves as sorted
//! coordinate text, and moves played by their coordinate text.
#![allow(dead_code)] // each test crate uses its own subset

use rules::{Piece, Position, Square, Variant};

/// A position the rules must accept.
pub fn pos(variant: Variant, fen: &str) -> Position {
    Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

/// Every legal move in coordinate form, sorted.
pub fn moves(pos: &Position) -> Vec<String> {
    let mut out: Vec<String> = pos.legal_moves().iter().map(|m| pos.coord(m)).collect();
    out.sort();
    out
}

/// The legal moves of the piece on `from`, in coordinate form, sorted.
pub fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut out: Vec<String> = pos.legal_moves().iter().filter(|m| m.from == from).map(|m| pos.coord(m)).collect();
    out.sort();
    out
}

/// Sorted owned strings, to compare with [`moves`] and [`moves_from`].
pub fn sorted<S: AsRef<str>>(expected: &[S]) -> Vec<String> {
    let mut out: Vec<String> = expected.iter().map(|s| s.as_ref().to_string()).collect();
    out.sort();
    out
}

/// The position after a legal move given in coordinate form.
pub fn play(pos: &Position, coord: &str) -> Position {
    let m = pos.parse_coord(coord).unwrap_or_else(|e| panic!("{coord} in {}: {e}", pos.fen()));
    pos.after(&m)
}

pub fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// What stands on a square, as its FEN letter.
pub fn at(pos: &Position, square: &str) -> Option<char> {
    pos.board().piece_at(sq(square)).map(Piece::char)
}

/// The legal castling moves in coordinate form, sorted.
pub fn castles(pos: &Position) -> Vec<String> {
    let mut out: Vec<String> = pos.legal_moves().iter().filter(|m| m.is_castle()).map(|m| pos.coord(m)).collect();
    out.sort();
    out
}
