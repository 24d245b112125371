//! Werewolf Chess, rule by rule, on hand-built positions (docs/rules.md, "Werewolf Chess").
//!
//! The Werewolf (W) slides one to three squares in any of the 8 directions. When the first square
//! in a direction is occupied it may instead jump to the second square (empty or enemy-held), and
//! when the jumped piece is an enemy it may also take it: that is a separate move, written as two
//! legs (`d4e5,e5f6`). Capturing a Werewolf turns the capturer (not a King) into one.
//!
//! Every expected move list below is derived by hand, direction by direction, in the comments.

mod common;

use common::{at, castles, moves, moves_from, play, pos, sorted, sq};
use rules::{perft, Chain, CoordError, DrawReason, Move, MoveKind, Outcome, Position, Role, Variant};

const V: Variant = Variant::Werewolf;

#[test]
fn start_position_counts() {
    // Pawns 16 and knights 4, as in chess. The Werewolf on d1 is boxed in by its own pieces, but
    // jumps over them: over d2 to d3, over c2 to b3, over e2 to f3. Sideways it would land on
    // b1 (over c1) or f1 (over e1), both its own: no move. 20 + 3 = 23.
    // After any white move nothing of White's reaches past rank 4 and nothing of Black's below
    // rank 5, so Black always has its own mirrored 23 replies: 23 * 23 = 529.
    let start = Position::start(V);
    assert_eq!(moves_from(&start, "d1"), sorted(&["d1b3", "d1d3", "d1f3"]));
    assert_eq!(perft(&start, 1), 23);
    assert_eq!(perft(&start, 2), 529);
}

#[test]
fn hop_with_and_without_taking_the_jumped_piece() {
    // The Werewolf on d4 has an enemy pawn on e5, its first square towards the north-east.
    // In that direction it may take the pawn (d4e5), jump over it to the empty f6 leaving it
    // standing (d4f6), or jump to f6 taking it on the way (d4e5,e5f6): three distinct moves.
    // The seven open directions give three sliding steps each: 21 + 3 = 24.
    let p = pos(V, "4k3/8/8/4p3/3W4/8/8/4K3 w - - 0 1");
    let expected = [
        "d4d5",
        "d4d6",
        "d4d7", // north
        "d4e5",
        "d4f6",
        "d4e5,e5f6", // north-east: take, jump, jump-and-take
        "d4e4",
        "d4f4",
        "d4g4", // east
        "d4e3",
        "d4f2",
        "d4g1", // south-east
        "d4d3",
        "d4d2",
        "d4d1", // south
        "d4c3",
        "d4b2",
        "d4a1", // south-west
        "d4c4",
        "d4b4",
        "d4a4", // west
        "d4c5",
        "d4b6",
        "d4a7", // north-west
    ];
    assert_eq!(moves_from(&p, "d4"), sorted(&expected));

    let jumped = play(&p, "d4f6");
    assert_eq!((at(&jumped, "e5"), at(&jumped, "f6")), (Some('p'), Some('W')), "a plain jump leaves the pawn");
    assert_eq!(jumped.halfmoves(), 1, "a jump that takes nothing is a quiet move");

    let hopped = play(&p, "d4e5,e5f6");
    assert_eq!((at(&hopped, "e5"), at(&hopped, "f6")), (None, Some('W')), "the hop took the jumped pawn");
    assert_eq!(hopped.halfmoves(), 0, "taking the jumped piece is a capture");
}

#[test]
fn hop_takes_the_jumped_piece_and_the_one_it_lands_on() {
    // As above with a black knight on f6: the jump to f6 now takes the knight, and the hop
    // takes both the pawn it jumps and the knight it lands on.
    let p = pos(V, "4k3/8/5n2/4p3/3W4/8/8/4K3 w - - 0 1");
    let north_east: Vec<String> =
        moves_from(&p, "d4").into_iter().filter(|m| m.contains("e5") || m.contains("f6")).collect();
    assert_eq!(north_east, sorted(&["d4e5", "d4f6", "d4e5,e5f6"]));

    let after = play(&p, "d4e5,e5f6");
    assert_eq!((at(&after, "e5"), at(&after, "f6")), (None, Some('W')));
    assert_eq!(after.board().occupied().count(), 3, "both kings and the Werewolf are all that is left");
}

#[test]
fn jumps_over_its_own_pieces_but_never_onto_them() {
    // White pawns on d5 and e5, a white knight on f6, the Werewolf on d4.
    // North: d5 is its own pawn, d6 is empty: the jump d4d6, and no taking of the jumped pawn.
    // North-east: e5 is its own pawn and f6 its own knight: nothing at all.
    // The other six directions are open: three steps each. 1 + 18 = 19.
    let p = pos(V, "k7/8/5N2/3PP3/3W4/8/8/4K3 w - - 0 1");
    let expected = [
        "d4d6", // north, over its own pawn
        "d4e4", "d4f4", "d4g4", "d4e3", "d4f2", "d4g1", "d4d3", "d4d2", "d4d1", //
        "d4c3", "d4b2", "d4a1", "d4c4", "d4b4", "d4a4", "d4c5", "d4b6", "d4a7",
    ];
    assert_eq!(moves_from(&p, "d4"), sorted(&expected));
    assert!(matches!(p.parse_coord("d4d5,d5d6"), Err(CoordError::Illegal(_))), "a jumped friend is never taken");
}

#[test]
fn slides_at_most_three_squares_and_stops_at_the_first_piece() {
    // The Werewolf on d1 (bottom edge: no southern directions).
    // North: d2 is empty, so there is no jump; the slide takes the black pawn on d3 and stops
    //   there: d4 is out of reach.
    // North-east: e2, then its own pawn on f3 ends the slide.
    // East: e1, f1, g1; h1 is a fourth square, out of reach although empty.
    // West: c1, b1, a1. North-west: c2, b3, a4. 2 + 1 + 3 + 3 + 3 = 12.
    let p = pos(V, "K6k/8/8/8/8/3p1P2/8/3W4 w - - 0 1");
    let expected = [
        "d1d2", "d1d3", // north
        "d1e2", // north-east
        "d1e1", "d1f1", "d1g1", // east
        "d1c1", "d1b1", "d1a1", // west
        "d1c2", "d1b3", "d1a4", // north-west
    ];
    assert_eq!(moves_from(&p, "d1"), sorted(&expected));
}

#[test]
fn gives_check_through_a_jump() {
    // The black Werewolf on e3 attacks e1 by jumping over the white bishop on e2: check.
    // The bishop cannot take it (e3 is not on its diagonals), and moving the bishop away only
    // opens the slide e2-e1. The king's neighbours d2, e2 (own bishop) and f2 are all next to the
    // Werewolf; d1 and f1 are a knight's move from e3, which the Werewolf never reaches.
    let p = pos(V, "4k3/8/8/8/8/4w3/4B3/4K3 w - - 0 1");
    assert!(p.is_check());
    assert_eq!(moves(&p), sorted(&["e1d1", "e1f1"]));

    // A rook in the Werewolf's place would be shielded by the bishop.
    assert!(!pos(V, "4k3/8/8/8/8/4r3/4B3/4K3 w - - 0 1").is_check());
}

#[test]
fn guards_castling_squares_through_a_jump() {
    // The black Werewolf on h3 reaches f1 by jumping over the white pawn on g2, so White may not
    // castle king side (the king would cross f1), nor step to f1. The queen side is untouched.
    let p = pos(V, "4k3/8/8/8/8/7w/6P1/R3K2R w KQ - 0 1");
    assert_eq!(castles(&p), ["e1c1"]);
    assert!(!moves_from(&p, "e1").contains(&"e1f1".to_string()));

    // A bishop on h3 would be blocked by g2: both castlings are then legal.
    let p = pos(V, "4k3/8/8/8/8/7b/6P1/R3K2R w KQ - 0 1");
    assert_eq!(castles(&p), ["e1c1", "e1g1"]);
}

/// Captures of the black Werewolf on d5 by each kind of white piece, and one by Black.
#[test]
fn capturing_a_werewolf_makes_the_capturer_a_werewolf() {
    let cases = [
        // (FEN, move, what stands on the target square afterwards)
        ("4k3/8/8/3w4/4P3/8/8/4K3 w - - 0 1", "e4d5", 'W'), // pawn
        ("4k3/8/8/3w4/8/4N3/8/4K3 w - - 0 1", "e3d5", 'W'), // knight
        ("4k3/8/8/3w4/8/8/B7/4K3 w - - 0 1", "a2d5", 'W'),  // bishop
        ("4k3/8/8/3w4/8/8/8/3RK3 w - - 0 1", "d1d5", 'W'),  // rook
        ("4k3/8/8/3w4/8/3W4/8/4K3 w - - 0 1", "d3d5", 'W'), // a Werewolf stays one
        ("4k3/8/8/3p4/4W3/8/8/4K3 b - - 0 1", "d5e4", 'w'), // Black's pawn becomes Black's Werewolf
    ];
    for (fen, coord, expected) in cases {
        let after = play(&pos(V, fen), coord);
        let target = &coord[2..];
        assert_eq!(at(&after, target), Some(expected), "{fen} {coord}");
        assert_eq!(after.board().by_role(Role::Werewolf).count(), 1, "{fen} {coord}: one Werewolf, the capturer");
    }
}

#[test]
fn pawn_taking_a_werewolf_on_the_last_rank_becomes_one_without_promoting() {
    // The white pawn on c7 may push to c8 or take the knight on b8, each promoting to R, B or N
    // only (no Queen in Werewolf Chess): 6 moves. Taking the Werewolf on d8 is one move, written
    // without a suffix: the pawn becomes a Werewolf. 7 pawn moves.
    // The king on e1 has its five neighbours, none reached by the black pieces: 12 in all.
    let p = pos(V, "1n1w3k/2P5/8/8/8/8/8/4K3 w - - 0 1");
    let expected = ["c7c8r", "c7c8b", "c7c8n", "c7b8r", "c7b8b", "c7b8n", "c7d8"];
    assert_eq!(moves_from(&p, "c7"), sorted(&expected));
    assert_eq!(perft(&p, 1), 12);
    assert_eq!(p.legal_moves().len(), 12);

    let after = play(&p, "c7d8");
    assert_eq!(at(&after, "d8"), Some('W'));
    assert!(p.parse_coord("c7d8r").is_err(), "no promotion suffix on a capture that transforms");
}

#[test]
fn king_takes_a_werewolf_and_stays_a_king() {
    // The black Werewolf on e5 checks the white king on d4 (adjacent). The Werewolf reaches every
    // neighbour of e5, and the squares two steps away in its 8 directions (c3, c5, e3 among the
    // king's neighbours). Left: c4 and d3 (a knight's move from e5), and taking the Werewolf,
    // which nothing defends. Exactly 3 moves.
    let p = pos(V, "7k/8/8/4w3/3K4/8/8/8 w - - 0 1");
    assert!(p.is_check());
    assert_eq!(moves(&p), sorted(&["d4c4", "d4d3", "d4e5"]));

    let after = play(&p, "d4e5");
    assert_eq!(at(&after, "e5"), Some('K'), "the king is immune to contagion");
    assert!(after.board().by_role(Role::Werewolf).is_empty());
    assert_eq!(after.outcome(), Some(Outcome::Draw(DrawReason::InsufficientMaterial)), "bare kings");
}

#[test]
fn a_hop_that_takes_a_shielding_piece_is_illegal() {
    // The black knight on e4 shields the white king on e1 from the rook on e8. The Werewolf on d3
    // may take the knight (d3e4: it then shields in its place) or jump over it to f5 (the knight
    // still shields), but not jump and take it (d3e4,e4f5): that opens the e-file.
    // Directions from d3: N d4 d5 d6; NE e4, f5; E e3 f3 g3; SE e2 f1; S d2 d1; SW c2 b1;
    // W c3 b3 a3; NW c4 b5 a6: 3 + 2 + 3 + 2 + 2 + 2 + 3 + 3 = 20.
    let p = pos(V, "4r2k/8/8/8/4n3/3W4/8/4K3 w - - 0 1");
    let expected = [
        "d3d4", "d3d5", "d3d6", "d3e4", "d3f5", "d3e3", "d3f3", "d3g3", "d3e2", "d3f1", //
        "d3d2", "d3d1", "d3c2", "d3b1", "d3c3", "d3b3", "d3a3", "d3c4", "d3b5", "d3a6",
    ];
    assert_eq!(moves_from(&p, "d3"), sorted(&expected));

    let hop = Move {
        role: Role::Werewolf,
        from: sq("d3"),
        to: sq("f5"),
        capture: None,
        promotion: None,
        kind: MoveKind::Hop { over: sq("e4"), taken: Role::Knight },
        chain: Chain::EMPTY,
    };
    assert!(!p.is_legal(&hop));
    assert!(matches!(p.parse_coord("d3e4,e4f5"), Err(CoordError::Illegal(_))));
}

#[test]
fn a_pinned_werewolf_stays_on_the_pin_line() {
    // The rook on e8 pins the Werewolf on e2 to the king on e1. Along the file it slides to e3,
    // e4 and e5 (three squares). Towards the black pawn on d3 it could take (d3), jump (c4) or
    // hop (d3 and c4): all leave the file, all illegal, like every other direction.
    let p = pos(V, "4r2k/8/8/8/8/3p4/4W3/4K3 w - - 0 1");
    assert_eq!(moves_from(&p, "e2"), sorted(&["e2e3", "e2e4", "e2e5"]));
}
