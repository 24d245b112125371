//! How chess games end: what a position decides (mate, stalemate, insufficient material) and
//! what a game's history adds (repetition, the fifty- and seventy-five-move rules).

mod common;

use common::pos;
use rules::{Color, DrawReason, Game, Outcome, PlayError, Position, Variant, WinReason};

const V: Variant = Variant::Chess;

/// A game from `start` with the given coordinate moves played.
fn game(start: Position, coords: &str) -> Game {
    let mut game = Game::new(start);
    for coord in coords.split_whitespace() {
        let m = game.position().parse_coord(coord).unwrap_or_else(|e| panic!("{coord}: {e}"));
        game.play(m).unwrap_or_else(|e| panic!("{coord}: {e}"));
    }
    game
}

/// Plays any legal move; the game must refuse it with `outcome`.
fn assert_refuses_moves(game: &mut Game, outcome: Outcome) {
    if let Some(&m) = game.position().legal_moves().first() {
        assert_eq!(game.play(m), Err(PlayError::Over(outcome)));
    }
}

#[test]
fn checkmate() {
    // Fool's mate: 1. f3 e5 2. g4 Qh4#.
    let mut g = game(Position::start(V), "f2f3 e7e5 g2g4 d8h4");
    let mate = Outcome::Decisive { winner: Color::Black, reason: WinReason::Checkmate };
    assert!(g.position().is_check());
    assert_eq!(g.position().count_legal(), 0);
    assert_eq!(g.outcome(), Some(mate));
    assert_eq!(mate.result(), "0-1");
    assert_eq!(g.play(g.moves()[0]), Err(PlayError::Over(mate)));
}

#[test]
fn stalemate() {
    // Black's king on h8: g8, g7 and h7 are covered by the queen on f7 and the king on g6, and
    // h8 itself is not attacked.
    let p = pos(V, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!p.is_check());
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
}

#[test]
fn insufficient_material() {
    let drawn = Some(Outcome::Draw(DrawReason::InsufficientMaterial));
    assert_eq!(pos(V, "8/8/8/4k3/8/8/8/4K3 w - - 0 1").outcome(), drawn, "bare kings");
    assert_eq!(pos(V, "8/8/8/4k3/8/8/8/4K1N1 w - - 0 1").outcome(), drawn, "a lone knight");
    assert_eq!(pos(V, "8/8/7b/4k3/8/8/8/2B1K3 w - - 0 1").outcome(), drawn, "bishops on dark squares only");
    // Bishops on both colours can mate (with help); so can a rook.
    assert_eq!(pos(V, "8/8/8/4k2b/8/8/8/2B1K3 w - - 0 1").outcome(), None);
    assert_eq!(pos(V, "8/8/8/4k3/8/8/8/R3K3 w - - 0 1").outcome(), None);
}

#[test]
fn threefold_repetition_is_claimable_and_fivefold_ends_the_game() {
    let knights_out_and_back = "g1f3 g8f6 f3g1 f6g8";
    // The start position stands for the second time: nothing to claim.
    let g = game(Position::start(V), knights_out_and_back);
    assert_eq!(g.repetitions(), 2);
    assert_eq!(g.claimable_draw(), None);

    // The third time: a draw the player to move may claim; the game goes on unless claimed.
    let mut g = game(Position::start(V), &[knights_out_and_back; 2].join(" "));
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.claimable_draw(), Some(DrawReason::Repetition));
    assert_eq!(g.outcome(), None);
    g.draw(DrawReason::Repetition);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));

    // The fifth time: drawn without a claim.
    let mut g = game(Position::start(V), &[knights_out_and_back; 4].join(" "));
    assert_eq!(g.repetitions(), 5);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    assert_refuses_moves(&mut g, Outcome::Draw(DrawReason::Repetition));
}

#[test]
fn fifty_moves_are_claimable_and_seventy_five_end_the_game() {
    // 99 half-moves without a capture or pawn move; one more rook move makes fifty moves each.
    let g = game(pos(V, "8/8/8/4k3/8/8/8/R3K3 w - - 99 80"), "a1a2");
    assert_eq!(g.position().halfmoves(), 100);
    assert_eq!(g.claimable_draw(), Some(DrawReason::FiftyMoves));
    assert_eq!(g.outcome(), None);

    // A pawn move resets the count.
    let g = game(pos(V, "8/8/8/4k3/8/8/P7/4K3 w - - 99 80"), "a2a3");
    assert_eq!(g.position().halfmoves(), 0);
    assert_eq!(g.claimable_draw(), None);

    // Seventy-five moves each: drawn without a claim.
    let mut g = game(pos(V, "8/8/8/4k3/8/8/8/R3K3 w - - 149 80"), "a1a2");
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::FiftyMoves)));
    assert_refuses_moves(&mut g, Outcome::Draw(DrawReason::FiftyMoves));
}
