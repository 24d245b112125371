//! Ghost King Chess, rule by rule, on hand-built positions (docs/rules.md, "Ghost King Chess").
//!
//! The Ghost King (written K) teleports to any empty square or takes any enemy piece anywhere;
//! it may take the enemy Ghost King only when no remaining enemy piece could take it back. There
//! is no check rule; capturing the Ghost King wins. Castling keeps FIDE's conditions on unmoved
//! pieces and empty squares, none about attacks, and is written king-onto-rook (`e1h1`).

mod common;

use common::{at, castles, moves, moves_from, play, pos, sorted};
use rules::{perft, Color, Outcome, Position, PositionError, Square, Variant, WinReason};

const V: Variant = Variant::GhostKing;

fn won_by_capture(winner: Color) -> Option<Outcome> {
    Some(Outcome::Decisive { winner, reason: WinReason::RoyalCaptured })
}

#[test]
fn start_position_counts() {
    // Pawns and knights: 20, as in chess. The Ghost King on e1 teleports to any of the 32 empty
    // squares of ranks 3 to 6, and takes any of Black's 15 pieces other than its Ghost King
    // (which d8, f8, d7, e7 and f7 all defend): 20 + 32 + 15 = 67.
    assert_eq!(perft(&Position::start(V), 1), 67);
}

#[test]
fn teleports_to_every_empty_square() {
    // Two bare Ghost Kings. White's goes to any of the 62 empty squares, or takes Black's on e8:
    // no black piece is left to take back. So every square but its own: 63 moves.
    // perft(2): after e1xe8 the game is over (0 replies); after each of the 62 teleports Black
    // has the same 63 (its 62 empty squares and the capture of White's undefended Ghost King).
    // 62 * 63 = 3906.
    let p = pos(V, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let every_other_square: Vec<String> = Square::all()
        .filter(|&s| V.geometry().contains(s) && s.to_string() != "e1")
        .map(|s| format!("e1{s}"))
        .collect();
    assert_eq!(moves(&p), sorted(&every_other_square));
    assert_eq!(perft(&p, 1), 63);
    assert_eq!(perft(&p, 2), 3906);
}

#[test]
fn takes_any_enemy_piece_anywhere() {
    // White's Ghost King on a1 takes the rook on a8, the pawn on b7 and the knight on d5, but not
    // the Ghost King on e8: the rook on a8 would take back along the eighth rank.
    // 64 squares - 5 pieces = 59 teleports, + 3 captures = 62.
    let p = pos(V, "r3k3/1p6/8/3n4/8/8/8/K7 w - - 0 1");
    let captures: Vec<String> = p.legal_moves().iter().filter(|m| m.is_capture()).map(|m| p.coord(m)).collect();
    assert_eq!(sorted(&captures), ["a1a8", "a1b7", "a1d5"]);
    assert_eq!(perft(&p, 1), 62);
}

#[test]
fn takes_the_enemy_ghost_king_only_where_nothing_takes_back() {
    // Allowed: Black's only other piece, the pawn on a7, could never reach e8.
    let p = pos(V, "4k3/p7/8/8/8/8/8/4K3 w - - 0 1");
    let after = play(&p, "e1e8");
    assert_eq!(after.outcome(), won_by_capture(Color::White));
    assert!(after.is_decided());
    assert!(after.legal_moves().is_empty());
    assert_eq!(perft(&after, 1), 0);

    // Forbidden: the rook on a8 guards e8.
    let p = pos(V, "r3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(!moves(&p).contains(&"e1e8".to_string()));

    // Forbidden: the Ghost King itself shields e8 from the rook on e1; leaving e4 to capture
    // opens the file, and the rook would take back.
    let p = pos(V, "4k3/8/8/8/4K3/8/8/4r3 w - - 0 1");
    assert!(!moves(&p).contains(&"e4e8".to_string()));
    // With a white pawn on e5 the file stays closed: allowed.
    let p = pos(V, "4k3/8/8/4P3/4K3/8/8/4r3 w - - 0 1");
    assert!(moves(&p).contains(&"e4e8".to_string()));
}

#[test]
fn there_is_no_check_rule() {
    // The rook on a1 attacks White's Ghost King on e1 (the host warns as of a check), but White
    // may leave it there (h2h3, h2h4) or even teleport next to the rook (e1b1).
    // Count: 64 - 4 pieces = 60 teleports, the captures of the rook and of the Ghost King on e8
    // (the rook could not reach e8 afterwards), and two pawn moves: 64.
    let p = pos(V, "4k3/8/8/8/8/8/7P/r3K3 w - - 0 1");
    assert!(p.is_check());
    let legal = moves(&p);
    for m in ["h2h3", "h2h4", "e1b1", "e1a1", "e1e8"] {
        assert!(legal.contains(&m.to_string()), "{m}");
    }
    assert_eq!(legal.len(), 64);

    // A position where the side not to move is attacked is a position like any other; in chess
    // it could never arise.
    assert!(Position::from_fen(V, "4k3/8/8/8/8/8/8/r3K3 b - - 0 1").is_ok());
    assert_eq!(
        Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/r3K3 b - - 0 1"),
        Err(PositionError::OppositeCheck(Color::White))
    );
}

#[test]
fn capturing_the_ghost_king_with_any_piece_ends_the_game() {
    // Black's rook takes White's Ghost King: Black wins, and nothing more can be played.
    let p = pos(V, "4k3/8/8/8/8/8/8/r3K3 b - - 0 1");
    let after = play(&p, "a1e1");
    assert_eq!(after.outcome(), won_by_capture(Color::Black));
    assert!(after.legal_moves().is_empty());
    assert_eq!(after.count_legal(), 0);

    // So does a pawn.
    let p = pos(V, "4k3/8/8/8/3p4/4K3/8/8 b - - 0 1");
    let after = play(&p, "d4e3");
    assert_eq!(after.outcome(), won_by_capture(Color::Black));
    assert!(after.legal_moves().is_empty());
}

#[test]
fn castling_ignores_attacks_and_is_written_king_onto_rook() {
    // Black's rooks attack e1 (the Ghost King stands "in check") and f1 (a square the king
    // crosses): castling is legal on both sides all the same. Castling is written as the king
    // onto its rook (e1h1, e1a1); e1g1 and e1c1 are teleports, different moves.
    let p = pos(V, "4kr2/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(castles(&p), ["e1a1", "e1h1"]);
    let legal = moves(&p);
    for teleport in ["e1g1", "e1c1", "e1d1", "e1f1"] {
        assert!(legal.contains(&teleport.to_string()), "{teleport}");
    }
    // 58 teleports, the two rooks taken (not e8: the rook on e7 would take back), the a1 rook's
    // 3 + 7 moves, the h1 rook's 2 + 7, and two castlings: 58 + 2 + 10 + 9 + 2 = 81.
    assert_eq!(legal.len(), 81);

    let short = play(&p, "e1h1");
    assert_eq!(
        (at(&short, "e1"), at(&short, "f1"), at(&short, "g1"), at(&short, "h1")),
        (None, Some('R'), Some('K'), None)
    );
    let long = play(&p, "e1a1");
    assert_eq!(
        (at(&long, "a1"), at(&long, "c1"), at(&long, "d1"), at(&long, "e1")),
        (None, Some('K'), Some('R'), None)
    );
    let teleport = play(&p, "e1g1");
    assert_eq!((at(&teleport, "g1"), at(&teleport, "h1"), at(&teleport, "f1")), (Some('K'), Some('R'), None));
    assert_eq!(teleport.fen().split(' ').nth(2), Some("-"), "a Ghost King that moved has no castling left");
}

#[test]
fn castling_needs_the_squares_between_empty() {
    // The knight on b1 stands between the king and the a1 rook: no queen-side castling, though
    // the king's destination c1 is empty (and the teleport e1c1 is there).
    let p = pos(V, "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    assert_eq!(castles(&p), ["e1h1"]);
    assert!(moves(&p).contains(&"e1c1".to_string()));
}

#[test]
fn promotes_to_queen_rook_bishop_or_knight() {
    // The pawn on b7 pushes to b8 or takes the rook on a8, promoting to Q, R, B or N.
    let p = pos(V, "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let expected = ["b7b8q", "b7b8r", "b7b8b", "b7b8n", "b7a8q", "b7a8r", "b7a8b", "b7a8n"];
    assert_eq!(moves_from(&p, "b7"), sorted(&expected));
}

#[test]
fn taking_a_ghost_king_on_its_square_drops_its_castling() {
    // Black's rook takes White's Ghost King on e1 and wins. White's castling rights (a1, h1)
    // must go with the king: the position's FEN must read back (it is what storage keeps).
    let p = pos(V, "k7/4r3/8/8/8/8/8/R3K2R b KQ - 0 1");
    let after = play(&p, "e7e1");
    assert_eq!(after.outcome(), won_by_capture(Color::Black));
    assert_eq!(after.fen(), "k7/8/8/8/8/8/8/R3r2R w - - 0 2");
    assert_eq!(Position::from_fen(V, &after.fen()), Ok(after));
}
