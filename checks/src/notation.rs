//! Every notation reader, in every variant: FEN, moves in SAN, coordinates and token form
//! (Grolman chains included), and PGN. Whatever a reader accepts must be what its writer writes
//! back, and read again gives the same thing.
//!
//! Input: the first byte picks the variant; the rest is text. Its first line is a FEN (the
//! variant's start when it does not read); each later line is a move, played when legal; all the
//! later lines together are also read as a game score.

use rules::{coord, pgn, Move, Position, Setup, Variant};

/// Bounds the work of one input: moves tried in sequence.
const MAX_LINES: usize = 32;

pub fn check(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let variant = crate::variant(first);
    let text = String::from_utf8_lossy(rest);
    let (fen, score) = text.split_once('\n').unwrap_or((&text, ""));
    let mut pos = fen_round_trip(variant, fen).unwrap_or_else(|| Position::start(variant));
    every_move_round_trips(&pos);
    for line in score.lines().take(MAX_LINES) {
        if let Some(m) = move_round_trip(&pos, line) {
            pos = pos.after(&m);
            position_round_trips(&pos);
        }
    }
    if let Ok(moves) = coord::split_moves(score) {
        assert!(moves.iter().all(|m| !m.trim().is_empty()), "split_moves gave an empty move: {moves:?}");
    }
    pgn_round_trip(variant, score);
}

/// A FEN that reads as a setup writes back to a FEN that reads as the same setup; one that reads
/// as a position, likewise. Returns the position.
pub fn fen_round_trip(variant: Variant, fen: &str) -> Option<Position> {
    let setup = Setup::from_fen(variant, fen).ok()?;
    let written = setup.to_fen(variant);
    let again = Setup::from_fen(variant, &written).unwrap_or_else(|e| panic!("{written} (from {fen:?}): {e}"));
    assert_eq!(again, setup, "{fen:?} wrote {written}");
    assert_eq!(again.to_fen(variant), written);
    let pos = Position::from_fen(variant, fen).ok()?;
    position_round_trips(&pos);
    Some(pos)
}

/// A position writes a FEN that reads back as the same position, and writes the same FEN again.
pub fn position_round_trips(pos: &Position) {
    let fen = pos.fen();
    let again = Position::from_fen(pos.variant(), &fen).unwrap_or_else(|e| panic!("{fen} ({pos:?}): {e}"));
    assert_eq!(&again, pos, "{fen}");
    assert_eq!(again.fen(), fen);
}

/// A move text that a reader accepts names a legal move, which each writer writes in a form the
/// readers take back to the same move.
pub fn move_round_trip(pos: &Position, text: &str) -> Option<Move> {
    let by_coord = pos.parse_coord(text).ok();
    if let Some(m) = by_coord {
        writes_back(pos, &m);
    }
    let by_any = pos.parse_move(text).ok();
    if let Some(m) = by_any {
        writes_back(pos, &m);
        if let Some(c) = by_coord {
            assert_eq!(c, m, "{text:?} reads as two moves at {pos:?}");
        }
    }
    by_any.or(by_coord)
}

/// Every legal move of `pos` reads back from its SAN, its coordinates and its token form.
pub fn every_move_round_trips(pos: &Position) {
    for m in pos.legal_moves() {
        writes_back(pos, &m);
    }
}

fn writes_back(pos: &Position, m: &Move) {
    assert!(pos.legal_moves().contains(m), "a reader accepted an illegal move {m:?} at {pos:?}");
    let san = pos.san(m);
    assert_eq!(pos.parse_move(&san).as_ref(), Ok(m), "SAN {san} at {pos:?}");
    let coord = pos.coord(m);
    assert_eq!(pos.parse_coord(&coord).as_ref(), Ok(m), "coordinates {coord} at {pos:?}");
    assert_eq!(pos.parse_move(&coord).as_ref(), Ok(m), "coordinates {coord} as a move at {pos:?}");
    let token = pos.coord_token(m);
    assert!(!token.contains(char::is_whitespace), "token {token:?} at {pos:?}");
    assert_eq!(pos.parse_coord(&token).as_ref(), Ok(m), "token {token} at {pos:?}");
}

/// A game score that reads writes as PGN that reads as the same game, and writes the same again.
pub fn pgn_round_trip(variant: Variant, score: &str) {
    let Ok(read) = pgn::read(variant, score) else { return };
    let written = pgn::write(&read.game, &read.tags);
    let again = pgn::read(variant, &written).unwrap_or_else(|e| panic!("{written}\n(from {score:?}): {e}"));
    assert_eq!(again.game.start(), read.game.start(), "{written}");
    assert_eq!(again.game.moves(), read.game.moves(), "{written}");
    assert_eq!(pgn::write(&again.game, &again.tags), written);
}
