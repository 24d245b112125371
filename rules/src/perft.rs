//! Perft: the number of move sequences of a given length, the standard check of a move generator.

use crate::moves::Move;
use crate::position::Position;

/// Counts the leaves of the legal move tree `depth` plies deep. The last ply is counted in bulk.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => pos.legal_moves().iter().map(|m| perft(&pos.after(m), depth - 1)).sum(),
    }
}

/// Perft below each legal move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let n = if depth <= 1 { 1 } else { perft(&pos.after(&m), depth - 1) };
            (m, n)
        })
        .collect()
}
