//! Golem Chess, rule by rule (docs/rules.md, "Golem Chess"), each on a small hand-built position.

use rules::{perft, Color, Piece, Position, Role, Square, Variant};

fn pos(fen: &str) -> Position {
    Position::from_fen(Variant::Golem, fen).expect("test FEN is legal")
}

fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

/// The legal moves' coordinate texts, sorted.
fn legal(p: &Position) -> Vec<String> {
    let mut out: Vec<String> = p.legal_moves().iter().map(|m| p.coord(m)).collect();
    out.sort();
    out
}

fn has(p: &Position, coord: &str) -> bool {
    legal(p).iter().any(|m| m == coord)
}

fn play(p: &Position, coord: &str) -> Position {
    let m = p.parse_coord(coord).unwrap_or_else(|e| panic!("{coord}: {e}"));
    p.after(&m)
}

#[test]
fn golem_slides_one_or_two_squares() {
    // The Golem on d4 reaches all 8 neighbours and the 8 squares two away; the pawn on d5
    // blocks d6 behind it (and d5 itself is its own piece), the empty e5 lets it reach f6.
    let p = pos("k7/8/8/3P4/3G4/8/8/7K w - - 0 1");
    let golem: Vec<String> = legal(&p).into_iter().filter(|m| m.starts_with("d4")).collect();
    assert_eq!(
        golem,
        [
            "d4b2", "d4b4", "d4b6", "d4c3", "d4c4", "d4c5", "d4d2", "d4d3", "d4e3", "d4e4", "d4e5", "d4f2", "d4f4",
            "d4f6"
        ]
    );
}

#[test]
fn a_non_golem_that_takes_a_golem_is_removed_and_the_golem_is_damaged() {
    // White's knight takes the black Golem on e5: the knight vanishes, a black Half-Golem stays.
    let p = pos("4k3/8/8/4g3/8/3N4/8/4K3 w - - 0 1");
    let after = play(&p, "d3e5");
    assert_eq!(after.board().piece_at(sq("e5")), Some(Piece::new(Color::Black, Role::HalfGolem)));
    assert_eq!(after.board().piece_at(sq("d3")), None);
    assert_eq!(after.board().by_color(Color::White).count(), 1, "only the white king is left");
    assert!(after.golem_captured(), "Black lost a Golem-kind piece this turn");
}

#[test]
fn a_half_golem_taking_a_golem_is_removed_too() {
    let p = pos("4k3/8/8/4g3/4H3/8/8/4K3 w - - 0 1");
    let after = play(&p, "e4e5");
    assert_eq!(after.board().piece_at(sq("e5")), Some(Piece::new(Color::Black, Role::HalfGolem)));
    assert_eq!(after.board().piece_at(sq("e4")), None);
}

#[test]
fn golem_takes_golem_and_becomes_a_half_golem() {
    let p = pos("4k3/8/8/4g3/4G3/8/8/4K3 w - - 0 1");
    let after = play(&p, "e4e5");
    assert_eq!(after.board().piece_at(sq("e5")), Some(Piece::new(Color::White, Role::HalfGolem)));
    assert_eq!(after.board().by_role(Role::Golem).count(), 0);
}

#[test]
fn half_golems_are_captured_normally_and_a_golem_taking_one_stays_a_golem() {
    let p = pos("4k3/8/8/4h3/4G3/8/8/4K3 w - - 0 1");
    let after = play(&p, "e4e5");
    assert_eq!(after.board().piece_at(sq("e5")), Some(Piece::new(Color::White, Role::Golem)));
    let p = pos("4k3/8/8/4h3/8/3N4/8/4K3 w - - 0 1");
    let after = play(&p, "d3e5");
    assert_eq!(after.board().piece_at(sq("e5")), Some(Piece::new(Color::White, Role::Knight)));
}

#[test]
fn a_king_can_never_take_a_golem_but_takes_a_half_golem() {
    // The black Golem on d2 attacks e1 (check); the king cannot answer by taking it.
    let p = pos("4k3/8/8/8/8/8/3g4/4K3 w - - 0 1");
    assert!(p.is_check());
    assert!(!has(&p, "e1d2"));
    // d1, e2 (adjacent) and f2 (two along the rank, e2 empty) are covered by the Golem; f1 is
    // not on any of its lines, so the king's one move is there.
    assert_eq!(legal(&p), ["e1f1"]);
    let p = pos("4k3/8/8/8/8/8/3h4/4K3 w - - 0 1");
    assert!(has(&p, "e1d2"));
}

#[test]
fn a_pawn_taking_a_golem_on_the_last_rank_is_removed_without_promoting() {
    let p = pos("3gk3/2P5/8/8/8/8/8/4K3 w - - 0 1");
    let pawn: Vec<String> = legal(&p).into_iter().filter(|m| m.starts_with("c7")).collect();
    // Five promotions by pushing to c8 (Q, G, R, B, N) and one capture, with no suffix.
    assert_eq!(pawn, ["c7c8b", "c7c8g", "c7c8n", "c7c8q", "c7c8r", "c7d8"]);
    let after = play(&p, "c7d8");
    assert_eq!(after.board().piece_at(sq("d8")), Some(Piece::new(Color::Black, Role::HalfGolem)));
    assert_eq!(after.board().piece_at(sq("c7")), None);
}

#[test]
fn restriction_1_a_defended_golem_two_squares_away_is_safe_from_golems() {
    // White Golem e3, black Golem e5 two squares up; the black pawn d6 defends e5.
    let p = pos("4k3/8/3p4/4g3/8/4G3/8/K7 w - - 0 1");
    assert!(!has(&p, "e3e5"));
    // Without the defender the capture is allowed.
    let p = pos("4k3/8/8/4g3/8/4G3/8/K7 w - - 0 1");
    assert!(has(&p, "e3e5"));
    // A Half-Golem target, defended by the black king on f6: the king counts as a defender.
    let p = pos("8/8/5k2/4h3/8/4G3/8/K7 w - - 0 1");
    assert!(!has(&p, "e3e5"));
    // Only Golem-kind capturers are restricted: a bishop takes the same defended Golem freely.
    let p = pos("4k3/8/3p4/4g3/8/2B1G3/8/K7 w - - 0 1");
    assert!(has(&p, "c3e5"));
}

#[test]
fn restriction_1_counts_a_line_opened_by_the_capturer_leaving() {
    // The black rook on e1 stands behind the white Golem on e3, as seen from e5: once the Golem
    // leaves e3 for e5, the rook defends e5.
    let p = pos("7k/8/8/4g3/8/K3G3/8/4r3 w - - 0 1");
    assert!(!has(&p, "e3e5"));
    // With a white knight between the rook and the Golem the line stays shut.
    let p = pos("7k/8/8/4g3/8/K3G3/4N3/4r3 w - - 0 1");
    assert!(has(&p, "e3e5"));
}

#[test]
fn restriction_3_adjacent_golems_may_always_be_taken() {
    // e4 takes e5 although the pawn on d6 defends it.
    let p = pos("4k3/8/3p4/4g3/4G3/8/8/K7 w - - 0 1");
    assert!(has(&p, "e4e5"));
}

#[test]
fn restriction_2_after_losing_a_golem_kind_piece_only_golems_may_take_one() {
    // The `g` field: Black's last turn captured a white Golem-kind piece. The knight on d3
    // may not take the black Half-Golem on e5, the white Golem on e4 (adjacent) may.
    let p = pos("4k3/8/8/4h3/4G3/3N4/8/K7 w - - 0 1 g");
    assert!(!has(&p, "d3e5"));
    assert!(has(&p, "e4e5"));
    // The knight takes other pieces as usual.
    let p = pos("4k3/8/8/4h3/1p2G3/3N4/8/K7 w - - 0 1 g");
    assert!(has(&p, "d3b4"));
    // Without the flag the knight may take it.
    let p = pos("4k3/8/8/4h3/4G3/3N4/8/K7 w - - 0 1");
    assert!(has(&p, "d3e5"));
    // Restriction 1 still applies to Golems under restriction 2.
    let p = pos("4k3/8/3p4/4h3/8/4G3/8/K7 w - - 0 1 g");
    assert!(!has(&p, "e3e5"));
}

#[test]
fn restriction_2_is_set_by_any_capture_of_a_golem_kind_piece() {
    // White's knight takes the black Golem on e5, which becomes a black Half-Golem: Black has
    // just lost a Golem-kind piece, so the black knight on f6 may not take the white
    // Half-Golem on d5, while the black Half-Golem on e5 (adjacent to it) may.
    let p = pos("4k3/8/5n2/3Hg3/8/3N4/8/K7 w - - 0 1");
    assert!(!p.golem_captured());
    let after = play(&p, "d3e5");
    assert_eq!(after.fen(), "4k3/8/5n2/3Hh3/8/8/8/K7 b - - 0 1 g");
    assert!(!has(&after, "f6d5"));
    assert!(has(&after, "e5d5"));
    // A quiet move clears the state again.
    let later = play(&play(&after, "e8d8"), "a1b1");
    assert!(!later.golem_captured());
}

#[test]
fn restriction_4_lifts_restriction_1_when_nothing_else_is_legal() {
    // The black Golem on e3 checks the white king on e1 through e2. The king's other squares
    // are its own knights (d1, f1) or covered by the Golem (d2, e2, f2); a knight taking e3 is
    // removed and leaves a Half-Golem that still gives check. The one answer is the white Golem
    // on e5 taking e3, which restriction 1 forbids (two squares away, defended by the pawn on
    // d4). With no other legal move, restriction 4 lifts that.
    let p = pos("7k/8/8/4G3/3p4/4g3/8/3NKN2 w - - 0 1");
    assert!(p.is_check());
    assert_eq!(legal(&p), ["e5e3"]);
    // A rook that can block on e2 is another legal move: the restriction holds again.
    let p = pos("k7/8/8/4G3/3p4/4g3/7R/3NKN2 w - - 0 1");
    assert_eq!(legal(&p), ["h2e2"]);
}

#[test]
fn perft_from_the_start_position() {
    let start = Position::start(Variant::Golem);
    let expected = [20, 400, 8782, 192302];
    for (depth, nodes) in expected.into_iter().enumerate() {
        assert_eq!(perft(&start, depth as u32 + 1), nodes, "depth {}", depth + 1);
    }
}

#[test]
#[ignore = "deep perft: run by .ci/run"]
fn perft_depth_5() {
    assert_eq!(perft(&Position::start(Variant::Golem), 5), 4613221);
}
