//! Move ordering: the hash move first, then captures by what they win (priced by each
//! variant's capture rules, judged by a static exchange evaluation), killers, and the history
//! of quiet moves that cut off before.

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

/// What a royal piece is worth in an exchange: taking it (or losing it) decides the game.
const ROYAL: i32 = 20_000;

/// Whether [`see`]'s model of an exchange holds in `variant`: captures on one square, each
/// side free to stop at any point. Not in Golem Chess, where who may take a Golem depends on
/// what was just taken and from how far, nor in Grolman Chess, where a turn's chain can refill
/// the square; there the one-recapture guess stays.
fn exchanges_modelled(variant: Variant) -> bool {
    !matches!(variant, Variant::Golem | Variant::Grolman)
}

/// Static exchange evaluation: what `m` wins once both sides have taken on its destination
/// for as long as it pays them, each taking with its least valuable piece (pieces uncovered
/// behind the takers join in). Every capture is priced by the variant's capture rules, so a
/// piece taking a Werewolf goes on as one. Royal pieces take only where nothing can take
/// them back. In Golem and Grolman Chess it is [`exchange_guess`].
pub fn see(pos: &Position, params: &Params, m: &Move) -> i32 {
    let variant = pos.variant();
    if !exchanges_modelled(variant) {
        return exchange_guess(pos, params, m);
    }
    let worth = |role: Role| if role.is_royal() { ROYAL } else { params.value(role) };
    let board = pos.board();
    let mut occupied = board.occupied().without(m.from);
    match m.kind {
        MoveKind::Hop { over, .. } => occupied = occupied.without(over),
        MoveKind::EnPassant => {
            if let Some(passed) = m.to.offset(0, (!pos.turn()).forward()) {
                occupied = occupied.without(passed);
            }
        }
        MoveKind::Normal | MoveKind::Castle { .. } => {}
    }
    let mut standing = match m.capture.map(|victim| variant.capture(m.role, victim)) {
        Some(Capture::Becomes(changed)) => changed,
        Some(Capture::Repelled(_)) => return material_gain(params, variant, m),
        Some(Capture::Plain) | None => m.promotion.unwrap_or(m.role),
    };
    // gains[k]: what the k-th capture on the square wins for the side that makes it.
    let mut gains = [0; 32];
    gains[0] = material_gain(params, variant, m);
    let mut taken = 1;
    let mut side = !pos.turn();
    while taken < gains.len() {
        let attackers = pos.attackers(m.to, side, occupied) & occupied;
        let Some((from, role)) =
            attackers.filter_map(|sq| board.piece_at(sq).map(|p| (sq, p.role))).min_by_key(|&(_, role)| worth(role))
        else {
            break;
        };
        occupied = occupied.without(from);
        if role.is_royal() && (pos.attackers(m.to, !side, occupied) & occupied).any() {
            break;
        }
        let capture = variant.capture(role, standing);
        gains[taken] = match capture {
            Capture::Plain => worth(standing),
            Capture::Becomes(changed) => worth(standing) + worth(changed) - worth(role),
            Capture::Repelled(left) => worth(standing) - worth(left) - worth(role),
        };
        taken += 1;
        standing = match capture {
            Capture::Plain => role,
            Capture::Becomes(changed) => changed,
            // The square stays the other side's: nothing more to take there.
            Capture::Repelled(_) => break,
        };
        side = !side;
    }
    // From the last capture back: each side takes only if it gains by it.
    let answer = gains[1..taken].iter().rev().fold(0, |later, &gain| (gain - later).max(0));
    gains[0] - answer
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
            let exchange = see(pos, params, m);
            let victim = material_gain(params, pos.variant(), m);
            return if exchange >= 0 { GOOD_CAPTURE + victim * 8 + exchange } else { BAD_CAPTURE + exchange };
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
