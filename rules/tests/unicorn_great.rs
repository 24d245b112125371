//! Unicorn Great Chess on hand-built 10x10 positions (docs/rules.md, "Unicorn Great Chess").
//!
//! Unicorn (U) = Bishop + Nightrider; Chancellor (C) = Rook + Knight; Lion (L) = one step
//! diagonally or a leap of exactly two or three squares orthogonally. The king castles from f1
//! two squares towards the i1 or b1 rook.

mod common;

use common::{at, castles, moves_from, play, pos, sorted, sq};
use rules::{perft, Position, Variant};

const V: Variant = Variant::UnicornGreat;

#[test]
fn start_position_has_35_moves() {
    // Pawns: a2-d2 and g2-j2 step one or two (16); e3 and f3 stand on start squares too (4): 20.
    // Knights: c1 to b3 or d3, h1 to g3 or i3: 4.
    // Lions: e2 to d3 (diagonal), e4 and e5 (two and three up); f2 to g3, f4, f5: 6.
    // Unicorn e1: its diagonals are blocked, but as a nightrider it rides d3, c5, b7 and takes
    // the pawn on a9: 4. Chancellor a1: the knight leap to b3: 1. Nothing else can move.
    // 20 + 4 + 6 + 4 + 1 = 35.
    let start = Position::start(V);
    assert_eq!(moves_from(&start, "e1"), sorted(&["e1d3", "e1c5", "e1b7", "e1a9"]));
    assert_eq!(moves_from(&start, "a1"), ["a1b3"]);
    assert_eq!(perft(&start, 1), 35);
}

#[test]
fn castling_moves_the_king_two_squares_from_f1() {
    let p = pos(V, "5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1");
    assert_eq!(castles(&p), ["f1d1", "f1h1"]);

    // King side: the king to h1, the i1 rook to g1.
    let short = play(&p, "f1h1");
    assert_eq!(
        [at(&short, "f1"), at(&short, "g1"), at(&short, "h1"), at(&short, "i1")],
        [None, Some('R'), Some('K'), None]
    );
    // Queen side: the king to d1, the b1 rook to e1.
    let long = play(&p, "f1d1");
    assert_eq!(
        [at(&long, "b1"), at(&long, "d1"), at(&long, "e1"), at(&long, "f1")],
        [None, Some('K'), Some('R'), None]
    );

    // A black rook on g10 guards g1, which the king crosses: no king-side castling.
    let guarded = pos(V, "5kr3/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1");
    assert_eq!(castles(&guarded), ["f1d1"]);
}

#[test]
fn pawns_double_step_from_start_squares_only() {
    // d3 is nobody's start square: one step. e3 is: one or two steps. f2 is a Lion's start
    // square, not a pawn's: one step.
    let p = pos(V, "5k4/10/10/10/10/3p6/10/3PP5/5P4/5K4 w - - 0 1");
    let pawn_moves: Vec<String> = ["d3", "e3", "f2"].iter().flat_map(|from| moves_from(&p, from)).collect();
    assert_eq!(sorted(&pawn_moves), sorted(&["d3d4", "e3e4", "e3e5", "f2f3"]));

    // The double step from e3 passes e4: the black pawn on d5 takes en passant.
    let after = play(&p, "e3e5");
    assert_eq!(after.ep_square(), Some(sq("e4")));
    let taken = play(&after, "d5e4");
    assert_eq!((at(&taken, "e4"), at(&taken, "e5")), (Some('p'), None));
}

#[test]
fn nightrider_is_blocked_only_on_landing_squares() {
    // The Unicorn on a1: its one diagonal starts on its own pawn b2. As a nightrider:
    // (1,2) rides b3, c5 and stops before its own pawn on d7; (2,1) rides c2 and takes the knight
    // on e3. The pawns on a2 and b2 stand beside those leaps, not on a landing square: they block
    // nothing.
    let p = pos(V, "9k/10/10/3P6/10/10/10/4n5/PP8/U8K w - - 0 1");
    assert_eq!(moves_from(&p, "a1"), sorted(&["a1b3", "a1c5", "a1c2", "a1e3"]));
}

#[test]
fn lion_steps_diagonally_and_leaps_two_or_three_orthogonally() {
    // The Lion on e5: diagonal steps d4, f4, d6, f6; up e7 and e8 over its own pawn on e6; down
    // e3, e2; left b5 only (c5 holds its own pawn); right it takes the knight on g5, or leaps over
    // it to h5. 4 + 2 + 2 + 1 + 2 = 11.
    let p = pos(V, "9k/10/10/10/4P5/2P1L1n3/10/10/10/K9 w - - 0 1");
    let expected = ["e5d4", "e5f4", "e5d6", "e5f6", "e5e7", "e5e8", "e5e3", "e5e2", "e5b5", "e5g5", "e5h5"];
    assert_eq!(moves_from(&p, "e5"), sorted(&expected));
}

#[test]
fn promotes_to_chancellor_queen_or_unicorn_only() {
    // The pawn on b9 pushes to b10 or takes the rook on a10.
    let p = pos(V, "r8k/1P8/10/10/10/10/10/10/10/9K w - - 0 1");
    let expected = ["b9b10c", "b9b10q", "b9b10u", "b9a10c", "b9a10q", "b9a10u"];
    assert_eq!(moves_from(&p, "b9"), sorted(&expected));
    assert!(p.parse_coord("b9b10n").is_err());
}

#[test]
fn a_pinned_lion_cannot_leap_past_its_pinner() {
    // The white rook on f7 pins the black Lion on f9 to its king on f10. The Lion may take the
    // rook (f9f7, two squares down the file), but leaping three squares to f6 jumps over the rook
    // and opens the file: illegal. Its diagonal steps and sideways leaps leave the file: illegal.
    let p = pos(V, "5k4/5l4/10/5R4/10/10/10/10/10/K9 b - - 0 1");
    assert_eq!(moves_from(&p, "f9"), ["f9f7"]);

    // The black queen on f6 pins the white Lion on f3 to its king on f2. Up the file it may leap
    // to f5 (still shielding) or take the queen on f6; leaping down over its own king to f1 opens
    // the file behind it: illegal.
    let p = pos(V, "5k4/10/10/10/5q4/10/10/5L4/5K4/10 w - - 0 1");
    assert_eq!(moves_from(&p, "f3"), ["f3f5", "f3f6"]);
}

#[test]
fn castling_does_not_uncover_the_king() {
    // The black rook on a1 is blocked by the white rook on b1. Castling queen side moves that
    // rook to e1 and the king to d1: the a1 rook then attacks the king along b1, c1. Illegal.
    let p = pos(V, "5k4/10/10/10/10/10/10/10/10/rR3K4 w Q - 0 1");
    assert_eq!(castles(&p), Vec::<String>::new());
    // The same on the king side with a black rook on j1: after f1h1 it attacks h1 over i1.
    let p = pos(V, "5k4/10/10/10/10/10/10/10/10/5K2Rr w K - 0 1");
    assert_eq!(castles(&p), Vec::<String>::new());
}
