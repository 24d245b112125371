//! Helpers shared by the engine's tests: an engine-free judge of forced wins, so that what the
//! engine claims is checked against the rules alone.

#![allow(dead_code)]

use std::sync::atomic::AtomicBool;

use engine::{Limits, SearchResult, Searcher};
use rules::{Color, Move, Position, Variant};

/// Whether `winner` has won in `pos` (checkmate, a taken Ghost King, a Grolman turn that left
/// the loser's king attacked).
pub fn won(pos: &Position, winner: Color) -> bool {
    pos.outcome().is_some_and(|o| o.winner() == Some(winner))
}

/// Whether the side to move can force a win within `n` of its moves (by the rules alone).
pub fn forces_win(pos: &Position, n: u32) -> bool {
    let us = pos.turn();
    if n == 0 || pos.outcome().is_some() {
        return false;
    }
    pos.legal_moves().iter().any(|m| wins_with(pos, m, us, n))
}

/// Whether `m` wins for `us` within `n` moves, whatever the reply.
pub fn wins_with(pos: &Position, m: &Move, us: Color, n: u32) -> bool {
    let after = pos.after(m);
    if won(&after, us) {
        return true;
    }
    if n <= 1 || after.outcome().is_some() {
        return false;
    }
    after.legal_moves().iter().all(|reply| {
        let next = after.after(reply);
        !won(&next, !us) && next.outcome().is_none() && forces_win(&next, n - 1)
    })
}

pub fn search_depth(variant: Variant, fen: &str, depth: u32) -> (Position, SearchResult) {
    let pos = Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut searcher = Searcher::new(variant, 4);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let result = searcher.search(std::slice::from_ref(&pos), &limits, &AtomicBool::new(false), &mut |_| {});
    (pos, result)
}
