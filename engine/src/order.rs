//! Move ordering: the hash move first, then captures by what they win (priced by each
//! variant's capture rules), killers, and the history of quiet moves that cut off before.

use rules::{Capture, Move, MoveKind, Position, Role, Variant};

use crate::eval::Params;

/// A compact name for a move in one position (tables keep these, not whole moves). Two
/// different legal moves of one position never share a key: from, to, promotion, the kind of
/// move and the whole Grolman chain all enter it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct MoveKey(pub u64);

impl MoveKey {
    pub const NONE: MoveKey = MoveKey(0);

    pub fn of(m: &Move) -> MoveKey {
        let mut k: u64 = 1 | (m.from.index() as u64) << 1 | (m.to.index() as u64) << 8;
        k |= (m.promotion.map_or(0, |r| r.index() as u64 + 1)) << 15;
        k |= match m.kind {
            MoveKind::Normal => 0,
            MoveKind::EnPassant => 1,
            MoveKind::Castle { .. } => 2,
            MoveKind::Hop { .. } => 3,
        } << 19;
        // Chain: each step's squares and promotion, folded in order.
        let mut chain: u64 = 0;
        for step in m.chain.steps() {
            chain = chain.wrapping_mul(0x100_0000_01B3)
                ^ (step.from.index() as u64
                    | (step.to.index() as u64) << 7
                    | (step.promotion.map_or(0, |r| r.index() as u64 + 1)) << 14);
        }
        MoveKey(k ^ (chain.wrapping_mul(0x9E37_79B9_7F4A_7C15) << 21))
    }
}

/// What a capture (or promotion) wins before any recapture, in centipawns, with the variant's
/// capture rules ([`Variant::capture`]): a capturer may land changed (a Golem taking a Golem
/// becomes a Half-Golem, a piece taking a Werewolf becomes one) or be lost while the piece it
/// hit stays changed (a non-Golem hitting a Golem leaves a Half-Golem).
pub fn material_gain(params: &Params, variant: Variant, m: &Move) -> i32 {
    let v = |r: Role| params.value(r);
    let mut gain = match m.capture {
        None => 0,
        Some(victim) => match variant.capture(m.role, victim) {
            Capture::Plain => v(victim),
            Capture::Becomes(changed) => v(victim) + v(changed) - v(m.role),
            Capture::Repelled(left) => v(victim) - v(left) - v(m.role),
        },
    };
    if let MoveKind::Hop { taken, .. } = m.kind {
        gain += v(taken);
    }
    if let Some(p) = m.promotion {
        gain += v(p) - v(Role::Pawn);
    }
    for step in m.chain.steps() {
        if let Some(p) = step.promotion {
            gain += v(p) - v(Role::Pawn);
        }
    }
    gain
}

/// The piece that stands on the move's destination afterwards, if it is the mover's and
/// could be taken back there: what a recapture would win.
fn exposed_value(params: &Params, variant: Variant, m: &Move) -> i32 {
    let landed = m.promotion.unwrap_or(m.role);
    match m.capture.map(|victim| variant.capture(m.role, victim)) {
        Some(Capture::Becomes(changed)) => params.value(changed),
        Some(Capture::Repelled(_)) => 0,
        Some(Capture::Plain) | None => params.value(landed),
    }
}

/// A quick static exchange guess: the gain, less the mover's piece when the destination is
/// defended. Royal movers count as priceless (a defended square loses the game).
pub fn exchange_guess(pos: &Position, params: &Params, m: &Move) -> i32 {
    let gain = material_gain(params, pos.variant(), m);
    let occupied = pos.board().occupied().without(m.from);
    let defended = pos.attackers(m.to, !pos.turn(), occupied).any();
    if !defended {
        return gain;
    }
    if m.role.is_royal() {
        return gain - 20_000;
    }
    gain - exposed_value(params, pos.variant(), m)
}

pub const HASH_MOVE: i32 = 10_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: i32 = 1_000_000;
const BAD_CAPTURE: i32 = -1_000_000;

/// Scores for ordering `moves` (higher first), into `scores` (emptied first), index for index.
pub fn score_moves(
    pos: &Position,
    params: &Params,
    moves: &[Move],
    hash_move: MoveKey,
    killers: &[MoveKey; 2],
    history: &[i32],
    scores: &mut Vec<i32>,
) {
    let us = pos.turn().index();
    scores.clear();
    scores.extend(moves.iter().map(|m| {
        let key = MoveKey::of(m);
        if key == hash_move {
            return HASH_MOVE;
        }
        if m.is_capture() || m.promotion.is_some() {
            let guess = exchange_guess(pos, params, m);
            let victim = material_gain(params, pos.variant(), m);
            return if guess >= 0 { GOOD_CAPTURE + victim * 8 + guess } else { BAD_CAPTURE + guess };
        }
        if key == killers[0] {
            return KILLER + 1;
        }
        if key == killers[1] {
            return KILLER;
        }
        history[history_index(us, m)]
    }));
}

pub const HISTORY_SIZE: usize = 2 * rules::square::FRAME * rules::square::FRAME;

pub fn history_index(color: usize, m: &Move) -> usize {
    (color * rules::square::FRAME + m.from.index()) * rules::square::FRAME + m.to.index()
}

/// Moves the best-scored remaining move to `i` (selection sort, one step at a time, so a
/// cut-off early saves the rest of the sorting).
pub fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}
