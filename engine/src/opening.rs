//! Varied starts for self-play (the match harness, the tuning run): random plies from a seed,
//! each drawn from the moves that do not give anything away.

use std::sync::atomic::AtomicBool;

use rules::{Move, Position, Variant};

use crate::rng::Rng;
use crate::search::{Limits, Searcher};

/// `plies` random moves from the start, each drawn from those whose position a depth-2 search
/// finds within 100 centipawns of the best move's. (In Ghost King Chess half the legal moves
/// are teleports of the Ghost King, many of them into a square where it is taken at once.)
/// Stops early if the game ends.
pub fn sane(variant: Variant, plies: usize, rng: &mut Rng) -> Vec<Move> {
    let mut pos = Position::start(variant);
    let mut moves = Vec::new();
    let mut searcher = Searcher::new(variant, 1);
    for _ in 0..plies {
        let limits = Limits { depth: Some(2), ..Limits::default() };
        let scored: Vec<(Move, i32)> = pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let after = pos.after(&m);
                let r = searcher.search(&[after], &limits, &AtomicBool::new(false), &mut |_| {});
                (m, if r.best.is_some() { -r.score } else { 0 })
            })
            .collect();
        let Some(best) = scored.iter().map(|(_, s)| *s).max() else { break };
        let sane: Vec<Move> = scored.into_iter().filter(|(_, s)| *s >= best - 100).map(|(m, _)| m).collect();
        let m = sane[rng.below(sane.len() as u64) as usize];
        pos.play_unchecked(&m);
        moves.push(m);
    }
    moves
}
