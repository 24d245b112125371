//! Grolman Chess, rule by rule (docs/rules.md, "Grolman Chess"), each on a small hand-built position.

use rules::{perft, Color, DrawReason, Move, Outcome, Position, Role, Variant, WinReason};

fn pos(fen: &str) -> Position {
    Position::from_fen(Variant::Grolman, fen).expect("test FEN is legal")
}

/// A turn as `lead (step step ..)` in coordinates, promotions as a trailing letter.
fn text(m: &Move) -> String {
    let coord = |from, to, promotion: Option<Role>| {
        format!("{from}{to}{}", promotion.map(|r| r.lower_char().to_string()).unwrap_or_default())
    };
    let lead = coord(m.from, m.to, m.promotion);
    if m.chain.is_empty() {
        return lead;
    }
    let steps: Vec<String> = m.chain.steps().iter().map(|s| coord(s.from, s.to, s.promotion)).collect();
    format!("{lead} ({})", steps.join(" "))
}

/// Every turn that the lead move `from`-`to` can start, as text, sorted.
fn turns(p: &Position, from: &str, to: &str) -> Vec<String> {
    let lead = p
        .legal_moves()
        .into_iter()
        .find(|m| m.from.to_string() == from && m.to.to_string() == to)
        .unwrap_or_else(|| panic!("no lead {from}{to}"));
    let mut out: Vec<String> = p.turns_from_lead(&lead).iter().map(text).collect();
    out.sort();
    out
}

fn play_only(p: &Position, from: &str, to: &str) -> Position {
    let all = p.turns_from_lead(
        &p.legal_moves().into_iter().find(|m| m.from.to_string() == from && m.to.to_string() == to).unwrap(),
    );
    assert_eq!(all.len(), 1, "{from}{to} has one chain");
    p.after(&all[0])
}

#[test]
fn the_rule_pages_opening_example() {
    // 1. e4: the e2 square is refilled by the weakest piece that can reach it, the g1 knight
    // (the bishop, queen and king could too); then h1's rook fills g1; nothing reaches h1.
    let start = Position::start(Variant::Grolman);
    assert_eq!(turns(&start, "e2", "e4"), ["e2e4 (g1e2 h1g1)"]);
    let p = play_only(&start, "e2", "e4");
    // 1... e5, mirrored.
    assert_eq!(turns(&p, "e7", "e5"), ["e7e5 (g8e7 h8g8)"]);
    let p = play_only(&p, "e7", "e5");
    // 2. b3: bishop c1-b2, knight e2-c1, bishop f1-e2, rook g1-f1.
    assert_eq!(turns(&p, "b2", "b3"), ["b2b3 (c1b2 e2c1 f1e2 g1f1)"]);
    let p = play_only(&p, "b2", "b3");
    assert_eq!(p.fen(), "rnbqkbr1/ppppnppp/8/4p3/4P3/1P6/PBPPBPPP/RNNQKR2 b - - 0 2");
}

#[test]
fn a_tie_among_the_weakest_followers_is_the_players_choice() {
    // d2-d3 empties d2; knights on b1 and f1 can both step in. After Nb1-d2 the king on a1
    // follows into b1; after Nf1-d2 nothing can reach f1. Two distinct turns.
    let p = pos("7k/8/8/8/8/8/3P4/KN3N2 w - - 0 1");
    assert_eq!(turns(&p, "d2", "d3"), ["d2d3 (b1d2 a1b1)", "d2d3 (f1d2)"]);
}

#[test]
fn a_pawn_reaching_the_last_rank_in_the_chain_promotes_by_choice() {
    // The rook leaves c8; the pawn on c7 follows and promotes: four turns.
    let p = pos("2R5/2P5/7k/8/8/8/8/K7 w - - 0 1");
    assert_eq!(turns(&p, "c8", "d8"), ["c8d8 (c7c8b)", "c8d8 (c7c8n)", "c8d8 (c7c8q)", "c8d8 (c7c8r)"]);
}

#[test]
fn a_chain_pawn_may_double_step_and_sets_en_passant() {
    // The knight leaves e4; the e2 pawn reaches it with a double step over the empty e3.
    let p = pos("7k/8/8/8/3pN3/8/4P3/K7 w - - 0 1");
    assert_eq!(turns(&p, "e4", "c5"), ["e4c5 (e2e4)"]);
    let after = play_only(&p, "e4", "c5");
    // The turn's last double step sets the en passant square, and Black may use it.
    assert_eq!(after.ep_square().map(|s| s.to_string()), Some("e3".to_string()));
    assert!(after.legal_moves().iter().any(|m| m.from.to_string() == "d4" && m.to.to_string() == "e3"));
}

#[test]
fn a_follower_may_refill_the_square_a_double_step_left() {
    // Black's d7 pawn leads d7-d5; of the pieces that reach d7 (knight b8, bishop c8, queen,
    // king) the knight is weakest, and the a8 rook fills b8 behind it. The en passant square
    // d6 stands although d7 is taken again, and the FEN says so and reads back.
    let p = pos("rnbqk3/pppppppp/8/4P3/8/8/8/4K3 b - - 0 1");
    let turns = turns(&p, "d7", "d5");
    assert_eq!(turns, ["d7d5 (b8d7 a8b8)"]);
    let after = play_only(&p, "d7", "d5");
    assert_eq!(after.fen(), "1rbqk3/pppnpppp/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(Position::from_fen(Variant::Grolman, &after.fen()).unwrap(), after);
}

#[test]
fn in_check_the_lead_move_must_answer_the_check() {
    // The rook on e8 checks the king on e1: leads that leave the king attacked right after
    // the lead are not allowed. Left: the four king steps off the e-file and the block Re2.
    let p = pos("4r2k/8/8/8/8/8/R7/4K3 w - - 0 1");
    assert!(p.is_check());
    let mut leads: Vec<String> = p.legal_moves().iter().map(text).collect();
    leads.sort();
    assert_eq!(leads, ["a2e2", "e1d1", "e1d2", "e1f1", "e1f2"]);
}

#[test]
fn no_lead_answers_the_check_is_checkmate() {
    // Back-rank mate: the king on h1 behind its pawns, the rook on a1 gives check.
    let p = pos("6k1/8/8/8/8/8/6PP/r6K w - - 0 1");
    assert_eq!(p.count_legal(), 0);
    assert_eq!(p.outcome(), Some(Outcome::Decisive { winner: Color::Black, reason: WinReason::Checkmate }));
}

#[test]
fn a_turn_that_leaves_the_own_king_attacked_is_legal_and_loses() {
    // a2-a3 empties a2 and the rook on e2 must follow along the rank; the king follows into
    // e2, still on the open file of the rook on e8.
    let p = pos("4r2k/8/8/8/8/8/P3R3/4K3 w - - 0 1");
    assert!(!p.is_check());
    assert_eq!(turns(&p, "a2", "a3"), ["a2a3 (e2a2 e1e2)"]);
    let after = play_only(&p, "a2", "a3");
    assert!(after.is_decided());
    assert_eq!(after.count_legal(), 0, "nothing more is played");
    assert_eq!(after.outcome(), Some(Outcome::Decisive { winner: Color::Black, reason: WinReason::KingLeftAttacked }));
}

#[test]
fn no_legal_turn_and_not_in_check_is_stalemate() {
    // Black's king on a1 is walled in by its own pieces, none of which can move: the pawns are
    // blocked (a2 by its king, b2 by its knight, c3 by the white pawn, d2 by the white rook)
    // with nothing to take, and the knight's squares a3, c3, d2 are all black pawns. The rook
    // on d1 is shut off by the knight, so Black is not in check.
    let p = pos("7K/8/8/8/8/p1p5/ppPp4/kn1R4 b - - 0 1");
    assert!(!p.is_check());
    assert_eq!(p.count_legal(), 0);
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
}

#[test]
fn there_is_no_castling() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.castling_rights().count(), 0, "castling rights in a FEN mean nothing here");
    assert!(p.legal_moves().iter().all(|m| !m.is_castle()));
}

#[test]
fn generated_turns_are_legal_and_counted_alike() {
    for fen in [
        "7k/8/8/8/8/8/3P4/KN3N2 w - - 0 1",
        "rnbqkbr1/ppppnppp/8/4p3/4P3/1P6/PBPPBPPP/RNNQKR2 b - - 0 2",
        "4r2k/8/8/8/8/8/P3R3/4K3 w - - 0 1",
    ] {
        let p = pos(fen);
        let turns = p.legal_moves();
        assert_eq!(turns.len() as u64, p.count_legal());
        assert!(turns.iter().all(|t| p.is_legal(t)), "{fen}");
    }
}

#[test]
fn perft_from_the_start_position() {
    let start = Position::start(Variant::Grolman);
    let expected = [20, 400, 9064, 203462];
    for (depth, nodes) in expected.into_iter().enumerate() {
        assert_eq!(perft(&start, depth as u32 + 1), nodes, "depth {}", depth + 1);
    }
}

#[test]
#[ignore = "deep perft: run by .ci/run"]
fn perft_depth_5() {
    assert_eq!(perft(&Position::start(Variant::Grolman), 5), 5028341);
}
