//! The puzzle finder: a tactic planted in a game of each variant is found with its solution,
//! and each test that keeps a position out rejects what it should.

use engine::puzzle::{Finder, NotAPuzzle, Settings};
use rules::{Outcome, Position, Variant};

/// A position, the blunder played there, and the one move that punishes it (coordinate form).
struct Planted {
    variant: Variant,
    before: &'static str,
    blunder: &'static str,
    answer: &'static str,
}

const PLANTED: &[Planted] = &[
    // The queen steps onto the rook's file.
    Planted {
        variant: Variant::Chess,
        before: "6k1/5ppp/8/8/q7/8/5PPP/3R2K1 b - - 0 1",
        blunder: "a4d4",
        answer: "d1d4",
    },
    // A rook left where the Golem reaches it in two steps (a Golem may take a rook: only
    // Golem-kind targets are restricted).
    Planted {
        variant: Variant::Golem,
        before: "1r1g2k1/5ppp/8/8/8/8/3G1PPP/5RK1 b - - 0 1",
        blunder: "b8b4",
        answer: "d2b4",
    },
    // Grolman: the rook's capture opens d1, which nothing can refill, so the turn is one move.
    Planted {
        variant: Variant::Grolman,
        before: "6k1/5ppp/8/8/q7/8/5PPP/3R2K1 b - - 0 1",
        blunder: "a4d4",
        answer: "d1d4",
    },
    // The Ghost King walks onto the rook's file; the rook takes it (the white Ghost King may
    // not: the a8 rook would take it back).
    Planted {
        variant: Variant::GhostKing,
        before: "r3k3/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
        blunder: "e8d8",
        answer: "d1d8",
    },
    // A Werewolf left to the rook; the rook that takes it becomes one.
    Planted {
        variant: Variant::Werewolf,
        before: "6k1/5ppp/8/8/w7/8/5PPP/3R2K1 b - - 0 1",
        blunder: "a4d4",
        answer: "d1d4",
    },
    Planted {
        variant: Variant::UnicornGreat,
        before: "6k3/6ppp1/10/10/10/q9/10/10/6PPP1/3R2K3 b - - 0 1",
        blunder: "a5d5",
        answer: "d1d5",
    },
];

fn fast() -> Settings {
    Settings { scan_depth: 3, depth: 4, confirm_depth: 5, ..Settings::default() }
}

#[test]
fn a_planted_tactic_is_found_in_each_variant() {
    for planted in PLANTED {
        let before = Position::from_fen(planted.variant, planted.before).unwrap();
        let blunder = before.parse_move(planted.blunder).unwrap();
        let game = vec![before.clone(), before.after(&blunder)];
        let puzzles = Finder::new(planted.variant, fast()).find_in_game(&game);
        assert_eq!(puzzles.len(), 1, "{}: {puzzles:?}", planted.variant);
        let puzzle = &puzzles[0];
        assert_eq!(puzzle.ply, 1, "{}", planted.variant);
        assert_eq!(puzzle.position, game[1]);
        let answer = puzzle.position.parse_move(planted.answer).unwrap();
        assert_eq!(puzzle.solution[0], answer, "{}: {:?}", planted.variant, puzzle.solution);
        assert_eq!(puzzle.solution.len() % 2, 1, "a solution ends with the solver's move");
        assert!(puzzle.score >= fast().win);
    }
}

#[test]
fn a_game_without_mistakes_has_no_puzzle() {
    let start = Position::start(Variant::Chess);
    let mut game = vec![start];
    for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        let last = game.last().unwrap();
        let m = last.parse_move(m).unwrap();
        game.push(last.after(&m));
    }
    assert_eq!(Finder::new(Variant::Chess, fast()).find_in_game(&game), vec![]);
}

#[test]
fn a_position_where_the_second_best_move_also_wins_is_rejected() {
    // The rook and the knight can both take the queen.
    let pos = Position::from_fen(Variant::Chess, "6k1/5ppp/8/5N2/3q4/8/5PPP/3R2K1 w - - 0 1").unwrap();
    let judged = Finder::new(Variant::Chess, fast()).judge(&[pos]);
    assert!(matches!(judged, Err(NotAPuzzle::SecondAlsoWins { .. })), "{judged:?}");
}

#[test]
fn a_balanced_position_is_no_puzzle() {
    let judged = Finder::new(Variant::Chess, fast()).judge(&[Position::start(Variant::Chess)]);
    assert!(matches!(judged, Err(NotAPuzzle::NotWinning { .. })), "{judged:?}");
}

#[test]
fn a_position_with_one_legal_move_is_no_puzzle() {
    // Black's king has one square.
    let pos = Position::from_fen(Variant::Chess, "k7/8/8/8/8/8/1R6/1R5K b - - 0 1").unwrap();
    assert_eq!(pos.legal_moves().len(), 1);
    assert_eq!(Finder::new(Variant::Chess, fast()).judge(&[pos]), Err(NotAPuzzle::Forced));
}

#[test]
fn a_mating_line_runs_to_the_mate() {
    // Rd8+ Rxd8 Rxd8#: White is a rook up whatever it plays, but only this mates.
    let pos = Position::from_fen(Variant::Chess, "1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1").unwrap();
    let puzzle = Finder::new(Variant::Chess, fast()).judge(std::slice::from_ref(&pos)).unwrap();
    let sans: Vec<String> = {
        let mut at = pos.clone();
        puzzle
            .solution
            .iter()
            .map(|m| {
                let san = at.san(m);
                at = at.after(m);
                san
            })
            .collect()
    };
    assert_eq!(sans, ["Rd8+", "Rxd8", "Rxd8#"]);
    let end = puzzle.solution.iter().fold(pos, |at, m| at.after(m));
    assert!(matches!(end.outcome(), Some(Outcome::Decisive { .. })));
}
