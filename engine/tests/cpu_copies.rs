//! The evaluation and the move generator are compiled twice, for any x86-64 and with the wide
//! instructions (`rules::cpu`), and the other suites reach only the copy this CPU runs. Here
//! both copies evaluate the same positions and search them to a node limit: the values, the
//! moves chosen and the node counts must agree.

use std::sync::atomic::AtomicBool;

use engine::rng::Rng;
use engine::{Evaluator, Limits, Searcher};
use rules::{Move, Position, Variant};

/// A game of random moves in each variant, its positions in order.
fn random_games() -> Vec<Vec<Position>> {
    let mut rng = Rng::new(23);
    Variant::ALL
        .iter()
        .map(|&variant| {
            let mut game = vec![Position::start(variant)];
            for _ in 0..40 {
                let moves = game.last().unwrap().legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                game.push(game.last().unwrap().after(&m));
            }
            game
        })
        .collect()
}

/// What a search to a node limit found: the move, its score and the nodes it took.
type Found = (Option<Move>, i32, u64);

/// Every position's value, and what a search of every fifth one found.
fn judged(games: &[Vec<Position>]) -> (Vec<i32>, Vec<Found>) {
    let mut values = Vec::new();
    let mut searches = Vec::new();
    for game in games {
        let variant = game[0].variant();
        let eval = Evaluator::new(variant);
        values.extend(game.iter().map(|pos| eval.evaluate(pos)));
        for end in (1..=game.len()).step_by(5) {
            let limits = Limits { nodes: Some(2_000), ..Limits::default() };
            let result = Searcher::new(variant, 1).search(&game[..end], &limits, &AtomicBool::new(false), &mut |_| {});
            searches.push((result.best, result.score, result.nodes));
        }
    }
    (values, searches)
}

#[test]
fn both_copies_judge_alike() {
    let games = random_games();
    let this_cpu = judged(&games);
    rules::cpu::force_baseline();
    assert!(!rules::cpu::wide());
    assert_eq!(judged(&games), this_cpu);
}
